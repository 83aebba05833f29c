// See contiguous_dimension.h.
//
// Why: Rodinia's gaussian Fan2 indexes `a[size * x + y]` with x =
// get_global_id(0), y = get_global_id(1). With dimension 0 innermost every
// work-item touched another row, 16 of every 16 floats of a cache line
// fetched for one: 120x slower than Intel's runtime, which runs along y.
#include "contiguous_dimension.h"
#include "kernel_symbols.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/ADT/STLFunctionalExtras.h>

#include <optional>

using namespace llvm;

namespace ferrocl {

namespace {

// Deeper address computations count as unknown.
constexpr unsigned MAX_DEPTH = 24;

// The dimension a call to get_global_id or get_local_id with a constant
// argument asks for.
std::optional<unsigned> id_dimension(const Value *v)
{
    if (auto d = dimension_of(v, "_Z13get_global_idj"))
        return d;
    return dimension_of(v, "_Z12get_local_idj");
}

// How many bytes `v` moves when `variable` (a work-item id, a loop's
// counter) grows by one, when that is a constant: the variable, constants,
// arguments, and adds, subtracts, constant multiples and shifts, casts and
// address arithmetic of them. Other values (loads, phis, calls) are
// unknown.
std::optional<int64_t> step(const Value *v, function_ref<std::optional<int64_t>(const Value *)> variable,
                            const DataLayout &layout, unsigned depth)
{
    if (isa<Constant>(v) || isa<Argument>(v))
        return 0;
    if (depth > MAX_DEPTH)
        return std::nullopt;
    if (auto known = variable(v))
        return known;
    auto of = [&](const Value *x) { return step(x, variable, layout, depth + 1); };
    if (const auto *cast = dyn_cast<CastInst>(v)) {
        if (isa<SExtInst>(cast) || isa<ZExtInst>(cast) || isa<TruncInst>(cast) ||
            isa<BitCastInst>(cast) || isa<AddrSpaceCastInst>(cast))
            return of(cast->getOperand(0));
        return std::nullopt;
    }
    if (const auto *gep = dyn_cast<GEPOperator>(v)) {
        std::optional<int64_t> total = of(gep->getPointerOperand());
        for (auto t = gep_type_begin(gep); total && t != gep_type_end(gep); ++t) {
            if (t.isStruct()) {
                if (!isa<ConstantInt>(t.getOperand()))
                    return std::nullopt;
                continue;
            }
            std::optional<int64_t> index = of(t.getOperand());
            if (!index)
                return std::nullopt;
            *total += *index * (int64_t)t.getSequentialElementStride(layout).getFixedValue();
        }
        return total;
    }
    const auto *op = dyn_cast<BinaryOperator>(v);
    if (!op)
        return std::nullopt;
    std::optional<int64_t> a = of(op->getOperand(0)), b = of(op->getOperand(1));
    const auto *ka = dyn_cast<ConstantInt>(op->getOperand(0));
    const auto *kb = dyn_cast<ConstantInt>(op->getOperand(1));
    switch (op->getOpcode()) {
    case Instruction::Add:
    case Instruction::Or: // `or disjoint` is an add; a plain `or` of two ids is rare
        if (a && b)
            return *a + *b;
        return std::nullopt;
    case Instruction::Sub:
        if (a && b)
            return *a - *b;
        return std::nullopt;
    case Instruction::Mul:
        if (kb && a)
            return *a * kb->getSExtValue();
        if (ka && b)
            return *b * ka->getSExtValue();
        // A product of values the id does not move (`size * t`).
        if (a && b && *a == 0 && *b == 0)
            return 0;
        return std::nullopt;
    case Instruction::Shl:
        if (kb && a && kb->getZExtValue() < 32)
            return *a * (int64_t(1) << kb->getZExtValue());
        return std::nullopt;
    default:
        if (a && b && *a == 0 && *b == 0)
            return 0;
        return std::nullopt;
    }
}

// The variable "dimension `dim`'s work-item id": 1 for its id, 0 for the
// other dimensions' ids.
auto id_of(unsigned dim)
{
    return [dim](const Value *v) -> std::optional<int64_t> {
        if (auto d = id_dimension(v))
            return *d == dim ? 1 : 0;
        return std::nullopt;
    };
}

} // namespace

std::optional<int64_t> address_step(const Value *address, unsigned dim, const DataLayout &layout)
{
    return step(address, id_of(dim), layout, 0);
}

std::optional<int64_t> address_step(const Value *address, unsigned dim, ArrayRef<const Value *> fixed,
                                    const DataLayout &layout)
{
    auto id = id_of(dim);
    auto of_id = [&](const Value *v) -> std::optional<int64_t> {
        if (is_contained(fixed, v))
            return 0;
        return id(v);
    };
    return step(address, of_id, layout, 0);
}

std::optional<int64_t> address_step(const Value *address, const Value *counter, int64_t increment,
                                    const DataLayout &layout)
{
    auto of_counter = [&](const Value *v) -> std::optional<int64_t> {
        if (v == counter)
            return increment;
        // Work-item ids are the same in every iteration.
        if (id_dimension(v))
            return 0;
        return std::nullopt;
    };
    return step(address, of_counter, layout, 0);
}

unsigned contiguous_dimension(const Function &kernel)
{
    const DataLayout &layout = kernel.getParent()->getDataLayout();
    int score[3] = {0, 0, 0}, contiguous[3] = {0, 0, 0};
    for (const BasicBlock &b : kernel)
        for (const Instruction &i : b) {
            const Value *pointer = nullptr;
            Type *type = nullptr;
            if (const auto *ld = dyn_cast<LoadInst>(&i)) {
                pointer = ld->getPointerOperand();
                type = ld->getType();
            } else if (const auto *st = dyn_cast<StoreInst>(&i)) {
                pointer = st->getPointerOperand();
                type = st->getValueOperand()->getType();
            }
            // Private variables are the work-item's own, wherever they go.
            if (!pointer || pointer->getType()->getPointerAddressSpace() == 0)
                continue;
            auto size = (int64_t)layout.getTypeStoreSize(type).getFixedValue();
            for (unsigned d = 0; d < 3; d++) {
                std::optional<int64_t> s = address_step(pointer, d, layout);
                score[d] += s && (*s == 0 || *s == size) ? 1 : -1;
                contiguous[d] += s && *s == size;
            }
        }
    unsigned best = 0;
    for (unsigned d = 1; d < 3; d++)
        if (contiguous[d] > 0 && score[d] > score[best])
            best = d;
    return best;
}

} // namespace ferrocl
