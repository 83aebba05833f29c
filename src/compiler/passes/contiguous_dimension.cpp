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
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>

#include <functional>
#include <optional>

using namespace llvm;

namespace ferrocl {

namespace {

// Deeper address computations count as unknown.
constexpr unsigned MAX_DEPTH = 24;
// So do values that take more than this many to tell id-free (id_free).
constexpr unsigned MAX_ID_FREE_VALUES = 256;

// The dimension a call to get_global_id or get_local_id with a constant
// argument asks for.
std::optional<unsigned> id_dimension(const Value *v)
{
    if (auto d = dimension_of(v, "_Z13get_global_idj"))
        return d;
    return dimension_of(v, "_Z12get_local_idj");
}

// A call step() looks into: the arguments its callee's own are bound to,
// and the call it was made from, if any.
struct Binding {
    const CallBase *call;
    const Binding *outer;
};

// The value a function returns when it is a pure expression of its
// arguments: no memory, no calls, one return (SHOC's ToFlatHaloedIdx, which
// index helpers are, before they are inlined). Null otherwise.
const Value *pure_result(const Function *f)
{
    if (!f || f->isDeclaration() || f->isVarArg())
        return nullptr;
    const Value *result = nullptr;
    for (const BasicBlock &b : *f)
        for (const Instruction &i : b) {
            if (i.mayReadOrWriteMemory() || isa<CallBase>(i) || isa<PHINode>(i))
                return nullptr;
            if (const auto *ret = dyn_cast<ReturnInst>(&i)) {
                if (result || !ret->getReturnValue())
                    return nullptr;
                result = ret->getReturnValue();
            }
        }
    return result;
}

// How many bytes `v` moves when `variable` (a work-item id, a loop's
// counter) grows by one, when that is a constant: the variable, constants,
// arguments, and adds, subtracts, constant multiples and shifts, casts and
// address arithmetic of them, and calls of pure functions (pure_result) as
// their result. Other values (loads, phis, other calls) are unknown unless
// `variable` knows them.
std::optional<int64_t> step(const Value *v, function_ref<std::optional<int64_t>(const Value *)> variable,
                            const DataLayout &layout, unsigned depth, const Binding *bound = nullptr)
{
    if (const auto *arg = dyn_cast<Argument>(v)) {
        // A callee's argument moves as what the call passed; the kernel's
        // own do not move.
        if (bound && arg->getParent() == bound->call->getCalledFunction())
            return step(bound->call->getArgOperand(arg->getArgNo()), variable, layout, depth + 1,
                        bound->outer);
        return 0;
    }
    if (isa<Constant>(v))
        return 0;
    if (depth > MAX_DEPTH)
        return std::nullopt;
    if (auto known = variable(v))
        return known;
    if (const auto *call = dyn_cast<CallBase>(v))
        if (const Value *result = pure_result(call->getCalledFunction())) {
            Binding inner{call, bound};
            return step(result, variable, layout, depth + 1, &inner);
        }
    auto of = [&](const Value *x) { return step(x, variable, layout, depth + 1, bound); };
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

// Whether `v` is the same for every work-item at one point of their run: no
// work-item id flows into it, through phis (a loop's counter), loads (from an
// address the same for all) and arithmetic. Calls other than the uniform
// work-item functions (kernel_symbols.h) and LLVM's intrinsics are not. A
// phi joining divergent branches passes too: fine for choosing a dimension
// (such an address counts as uniform in all three alike), not for proving
// anything.
bool id_free(const Value *v, SmallPtrSetImpl<const Value *> &seen, unsigned depth)
{
    if (isa<Constant>(v) || isa<Argument>(v))
        return true;
    if (depth > MAX_DEPTH || id_dimension(v))
        return false;
    const auto *inst = dyn_cast<Instruction>(v);
    if (!inst)
        return false;
    if (!seen.insert(v).second)
        return true; // a cycle through a phi: the rest of it decides
    // Big expressions count as unknown (the walk stays cheap).
    if (isa<AllocaInst>(inst) || seen.size() > MAX_ID_FREE_VALUES)
        return false;
    // Private memory is each work-item's own: a variable of it (a kernel
    // run as regions keeps its values in them) is id-free when everything
    // stored to it is.
    if (const auto *load = dyn_cast<LoadInst>(inst))
        if (load->getPointerAddressSpace() == 0) {
            const auto *var = dyn_cast<AllocaInst>(load->getPointerOperand());
            if (!var)
                return false;
            if (!seen.insert(var).second)
                return true;
            for (const User *u : var->users()) {
                if (const auto *st = dyn_cast<StoreInst>(u)) {
                    if (st->getPointerOperand() != var || !id_free(st->getValueOperand(), seen, depth + 1))
                        return false;
                } else if (!isa<LoadInst>(u)) {
                    return false;
                }
            }
            return true;
        }
    if (const auto *call = dyn_cast<CallInst>(inst)) {
        const Function *f = called_function(*call);
        if (!f || !(f->isIntrinsic() || is_uniform_work_item_function(f->getName())))
            return false;
        return all_of(call->args(), [&](const Value *a) { return id_free(a, seen, depth + 1); });
    }
    if (inst->mayHaveSideEffects())
        return false;
    return all_of(inst->operands(), [&](const Value *o) { return id_free(o, seen, depth + 1); });
}

// The one store to `var` when that and loads are all its uses.
const StoreInst *single_store(const AllocaInst *var)
{
    const StoreInst *only = nullptr;
    for (const User *u : var->users()) {
        if (const auto *st = dyn_cast<StoreInst>(u)) {
            if (only || st->getPointerOperand() != var)
                return nullptr;
            only = st;
        } else if (!isa<LoadInst>(u)) {
            return nullptr;
        }
    }
    return only;
}

// The single store to the private variable `v` loads, when it has one
// and is not one of those being followed already (a value stored from its
// own load).
const StoreInst *stored_once(const Value *v, const SmallPtrSetImpl<const AllocaInst *> &following)
{
    const auto *load = dyn_cast<LoadInst>(v);
    const auto *var = load ? dyn_cast<AllocaInst>(load->getPointerOperand()) : nullptr;
    if (!var || following.contains(var))
        return nullptr;
    return single_store(var);
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
    DenseMap<const Value *, bool> uniform;
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
                // Loop counters, loaded sizes and uniform queries move no
                // address: SHOC's Stencil2D indexes rows by its loop's
                // counter times get_local_size(1) and columns by local id
                // 1; read as unknown, they left x innermost and every
                // access a gather.
                auto id = id_of(d);
                SmallPtrSet<const AllocaInst *, 4> following;
                std::function<std::optional<int64_t>(const Value *)> variable;
                variable = [&](const Value *v) -> std::optional<int64_t> {
                    if (auto known = id(v))
                        return known;
                    // A private variable stored once (a kernel keeps its
                    // values in them once its loops got implicit barriers)
                    // moves as the value stored.
                    if (const StoreInst *store = stored_once(v, following)) {
                        const auto *var = cast<AllocaInst>(store->getPointerOperand());
                        following.insert(var);
                        std::optional<int64_t> moved = step(store->getValueOperand(), variable, layout, 0);
                        following.erase(var);
                        if (moved)
                            return moved;
                    }
                    if (isa<BinaryOperator>(v) || isa<CastInst>(v) || isa<GEPOperator>(v))
                        return std::nullopt; // step() looks inside
                    // Inside an index helper step() looks into, id_free
                    // would take the helper's arguments for the kernel's.
                    if (const auto *inst = dyn_cast<Instruction>(v); inst && inst->getFunction() != &kernel)
                        return std::nullopt;
                    auto [at, added] = uniform.try_emplace(v, false);
                    if (added) {
                        SmallPtrSet<const Value *, 16> seen;
                        at->second = id_free(v, seen, 0);
                    }
                    if (at->second)
                        return 0;
                    return std::nullopt;
                };
                std::optional<int64_t> s = step(pointer, variable, layout, 0);
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
