// See group_uniformity.h.
#include "group_uniformity.h"
#include "contiguous_dimension.h"
#include "kernel_symbols.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

namespace {

// Deeper chains of operations count as varying (fail closed).
constexpr unsigned MAX_DEPTH = 64;

// The OpenCL C builtins that compute from their arguments alone, by their
// names in the Itanium mangling (`_Z5floorf`): uniform when their arguments
// are. Index arithmetic on floats (cutcp's bin `(int)floor(... * h)` from
// the group's id) uses them. A list, not "any function that reads no
// memory": get_local_id and the sub-group queries read none either.
const StringRef ARGUMENT_ONLY_BUILTINS[] = {
    "floor", "ceil", "trunc", "round", "rint", "fabs", "fmin", "fmax", "fma",  "mad",
    "sqrt",  "min",  "max",   "clamp", "abs",  "mul24", "mad24", "native_sqrt", "native_divide",
};

// `f` is an intrinsic that touches no memory (llvm.fmuladd, llvm.smax,
// llvm.floor: none asks which work-item runs it) or one of the builtins
// above.
bool computes_from_arguments(const Function &f)
{
    if (f.isIntrinsic())
        return f.doesNotAccessMemory() && !f.isConvergent();
    StringRef name = f.getName();
    if (!name.consume_front("_Z"))
        return false;
    unsigned length = 0;
    if (name.consumeInteger(10, length) || length > name.size())
        return false;
    StringRef base = name.take_front(length);
    for (StringRef builtin : ARGUMENT_ONLY_BUILTINS)
        if (base == builtin)
            return true;
    return false;
}

// The kernel parameter passed by value (`byval`: a struct argument, as
// SYCL passes its accessors and spans) that `pointer` points into through
// address arithmetic, when nothing writes it: its bytes are the argument's,
// the same for every work-item. Null otherwise.
const Argument *read_only_kernel_value(const Value *pointer)
{
    const Value *base = getUnderlyingObject(pointer);
    const auto *arg = dyn_cast<Argument>(base);
    if (!arg || !arg->hasByValAttr() || !is_kernel(*arg->getParent()))
        return nullptr;
    SmallVector<const Value *, 8> work = {arg};
    SmallPtrSet<const Value *, 16> seen = {arg};
    while (!work.empty()) {
        const Value *v = work.pop_back_val();
        for (const User *u : v->users()) {
            if (const auto *load = dyn_cast<LoadInst>(u); load && load->getPointerOperand() == v)
                continue;
            // Lifetime markers neither read nor write.
            if (const auto *ii = dyn_cast<IntrinsicInst>(u); ii && ii->isLifetimeStartOrEnd())
                continue;
            if (isa<GetElementPtrInst>(u) || isa<BitCastInst>(u) || isa<AddrSpaceCastInst>(u)) {
                if (seen.insert(u).second)
                    work.push_back(u);
                continue;
            }
            return nullptr; // stored to, passed on, compared: fail closed
        }
    }
    return arg;
}

bool uniform_at(const Value *v, const PhiSet &phis, unsigned depth)
{
    const auto *i = dyn_cast<Instruction>(v);
    // Constants, globals and the kernel's parameters.
    if (!i)
        return true;
    if (depth > MAX_DEPTH)
        return false;
    if (const auto *phi = dyn_cast<PHINode>(i))
        return phis.contains(phi);
    auto operands = [&](const User &u) {
        for (const Value *op : u.operands())
            if (!uniform_at(op, phis, depth + 1))
                return false;
        return true;
    };
    // Every work-item loading one address of __constant memory gets one
    // value (Parboil's cutcp loops `bincnt < *NbrListLen`), and so does one
    // loading from a kernel's struct argument that nothing writes (the
    // bounds of dpnp's sliding-window loops, in SYCL spans passed by value).
    if (const auto *load = dyn_cast<LoadInst>(i))
        return load->isSimple() &&
               (load->getPointerAddressSpace() == CONSTANT_ADDRESS_SPACE ||
                read_only_kernel_value(load->getPointerOperand())) &&
               uniform_at(load->getPointerOperand(), phis, depth + 1);
    if (const auto *call = dyn_cast<CallInst>(i)) {
        const Function *f = called_function(*i);
        if (!f || !(is_uniform_work_item_function(f->getName()) || computes_from_arguments(*f)))
            return false;
        for (const Value *arg : call->args())
            if (!uniform_at(arg, phis, depth + 1))
                return false;
        return true;
    }
    if (is_cheap_operation(*i))
        return operands(*i);
    switch (i->getOpcode()) {
    case Instruction::ICmp:
    case Instruction::Select:
    case Instruction::SDiv:
    case Instruction::UDiv:
    case Instruction::SRem:
    case Instruction::URem:
    case Instruction::SIToFP:
    case Instruction::UIToFP:
    case Instruction::FPToSI:
    case Instruction::FPToUI:
    case Instruction::FCmp:
    case Instruction::Freeze:
    // Floating-point arithmetic rounds alike in every work-item.
    case Instruction::FNeg:
    case Instruction::FAdd:
    case Instruction::FSub:
    case Instruction::FMul:
    case Instruction::FDiv:
    case Instruction::FPExt:
    case Instruction::FPTrunc:
        return operands(*i);
    default:
        // Other loads and calls, stores' results, atomics: varying.
        return false;
    }
}

bool carries_float(const PHINode &phi)
{
    Type *t = phi.getType()->getScalarType();
    // Vectors too: the scalarizer splits them before the work-item loops
    // are vectorized.
    return t->isFloatTy() || t->isDoubleTy();
}

// A work-item's own integer that the loop multiplies: a chain of integer
// products (clpeak's x = x*x + c, generators, hash mixing) that, like a
// float one, only vectorizes across work-items. Integer sums and indices
// are left alone: they vectorize or fold as they are. So is an integer the
// loop divides to compute its next value, even where a product follows
// (`q = id / n; r = id - q * n; id = q`): that takes a linear id apart into
// coordinates, a few steps (SYCL's strided indexers loop over the array's
// dimensions, often one), and divisions do not vectorize; a region per
// step made dpnp's comparisons of strided arrays 5x slower.
bool carries_integer_product(const PHINode &phi, const Loop &l, const GroupUniformity &u)
{
    Type *t = phi.getType()->getScalarType();
    if (!t->isIntegerTy() || t->getIntegerBitWidth() < 8 || u.uniform(&phi))
        return false;
    // What the phi's next value is computed from, in the loop.
    SmallPtrSet<const Instruction *, 32> feeds;
    SmallVector<const Instruction *, 16> work;
    for (const Value *v : phi.incoming_values())
        if (const auto *i = dyn_cast<Instruction>(v); i && l.contains(i) && feeds.insert(i).second)
            work.push_back(i);
    while (!work.empty() && feeds.size() < 256) {
        const Instruction *i = work.pop_back_val();
        if (i == &phi)
            continue;
        for (const Value *op : i->operands())
            if (const auto *d = dyn_cast<Instruction>(op);
                d && l.contains(d) && feeds.insert(d).second)
                work.push_back(d);
    }
    work = {&phi};
    SmallPtrSet<const Instruction *, 32> seen = {&phi};
    bool multiplies = false;
    while (!work.empty() && seen.size() < 256) {
        const Instruction *i = work.pop_back_val();
        for (const User *user : i->users()) {
            auto *next = dyn_cast<Instruction>(user);
            if (!next || !l.contains(next) || !seen.insert(next).second)
                continue;
            switch (next->getOpcode()) {
            case Instruction::UDiv:
            case Instruction::SDiv:
            case Instruction::URem:
            case Instruction::SRem:
                if (feeds.contains(next))
                    return false;
                break;
            case Instruction::Mul:
                multiplies = true;
                break;
            default:
                break;
            }
            if (isa<BinaryOperator>(next) || isa<CastInst>(next) || isa<SelectInst>(next) ||
                isa<PHINode>(next))
                work.push_back(next);
        }
    }
    return multiplies;
}

} // namespace

bool is_cheap_operation(const Instruction &i)
{
    switch (i.getOpcode()) {
    case Instruction::Trunc:
    case Instruction::ZExt:
    case Instruction::SExt:
    case Instruction::Add:
    case Instruction::Sub:
    case Instruction::Mul:
    case Instruction::Shl:
    case Instruction::LShr:
    case Instruction::AShr:
    case Instruction::And:
    case Instruction::Or:
    case Instruction::Xor:
    case Instruction::GetElementPtr:
        return true;
    default:
        return false;
    }
}

bool is_uniform(const Value *v, const PhiSet &phis) { return uniform_at(v, phis, 0); }

bool has_plain_barrier(const BasicBlock &b)
{
    for (const Instruction &i : b)
        if (calls_plain_barrier(i))
            return true;
    return false;
}

GroupUniformity::GroupUniformity(const Function &f)
    : f_(f), dt_(std::make_unique<DominatorTree>(const_cast<Function &>(f))),
      pdt_(std::make_unique<PostDominatorTree>(const_cast<Function &>(f))),
      loops_(std::make_unique<LoopInfo>(*dt_))
{
    for (const BasicBlock &b : f)
        for (const PHINode &phi : b.phis())
            phis_.insert(&phi);
    for (;;) {
        find_together();
        PhiSet keep;
        for (const PHINode *phi : phis_) {
            const BasicBlock *b = phi->getParent();
            bool ok = together(b);
            for (const BasicBlock *p : predecessors(b))
                ok = ok && together(p);
            for (const Value *v : phi->incoming_values())
                ok = ok && uniform(v);
            if (ok)
                keep.insert(phi);
        }
        if (keep.size() == phis_.size())
            return;
        phis_ = std::move(keep);
    }
}

void GroupUniformity::find_together()
{
    together_.clear();
    SmallVector<const BasicBlock *, 32> stack;
    for (const BasicBlock &b : f_)
        if (&b == &f_.getEntryBlock() || has_plain_barrier(b))
            stack.push_back(&b);
    while (!stack.empty()) {
        const BasicBlock *b = stack.pop_back_val();
        if (!together_.insert(b).second)
            continue;
        const Instruction *term = b->getTerminator();
        bool decided = false;
        if (const auto *br = dyn_cast_or_null<BranchInst>(term))
            decided = br->isUnconditional() || uniform(br->getCondition());
        else if (const auto *sw = dyn_cast_or_null<SwitchInst>(term))
            decided = uniform(sw->getCondition());
        // Returns and `unreachable` have no successors; any other
        // terminator decides nothing together.
        if (decided)
            for (const BasicBlock *s : successors(b))
                stack.push_back(s);
        else if (const BasicBlock *meet = reconverges(b))
            stack.push_back(meet);
    }
}

GroupUniformity::~GroupUniformity() = default;

// Where the paths out of `b` meet again, when every work-item that runs
// `b` then runs that block exactly once before it runs `b` again: its
// immediate post-dominator, dominated by `b`, in the same loop, and no path
// between them returns to `b` or leaves the blocks `b` dominates (a
// `continue` to the loop's header would let a work-item skip it). Loops
// inside those blocks are allowed: each work-item leaves them towards the
// meeting block. Kernels check their bounds (`if (i < n) {...}`) inside
// loops that implicit barriers cut; the code after such a check runs
// together again.
const BasicBlock *GroupUniformity::reconverges(const BasicBlock *b) const
{
    const DomTreeNodeBase<BasicBlock> *node = pdt_->getNode(b);
    const BasicBlock *meet = node && node->getIDom() ? node->getIDom()->getBlock() : nullptr;
    if (!meet || !dt_->dominates(b, meet))
        return nullptr;
    if (loops_->getLoopFor(meet) != loops_->getLoopFor(b))
        return leaves_loop_together(b, meet) ? meet : nullptr;
    SmallPtrSet<const BasicBlock *, 32> seen;
    SmallVector<const BasicBlock *, 32> work(successors(b));
    while (!work.empty()) {
        const BasicBlock *s = work.pop_back_val();
        if (s == meet || !seen.insert(s).second)
            continue;
        if (s == b || !dt_->dominates(b, s))
            return nullptr;
        for (const BasicBlock *next : successors(s))
            work.push_back(next);
    }
    return meet;
}

// Whether `b`, a block of a loop whose work-items entered it together,
// leaves it by a varying branch to `meet`, where every one of them goes once
// it is done: the loop's only exit block, in the loop around it. Each
// work-item runs the loop its own number of times, then `meet` once
// (dpnp's sliding window: a loop over a work-item's remaining outputs,
// then the sub-group's shuffles).
bool GroupUniformity::leaves_loop_together(const BasicBlock *b, const BasicBlock *meet) const
{
    const Loop *l = loops_->getLoopFor(b);
    if (!l || l->getUniqueExitBlock() != meet || loops_->getLoopFor(meet) != l->getParentLoop())
        return false;
    const BasicBlock *entry = l->getLoopPreheader();
    return entry && together_.contains(entry) && dt_->dominates(l->getHeader(), meet);
}

bool exits_uniformly(const Loop &l, SmallVectorImpl<PHINode *> &counters)
{
    return exits_uniformly(l, PhiSet(), counters);
}

bool exits_uniformly(const Loop &l, const PhiSet &outside, SmallVectorImpl<PHINode *> &counters)
{
    PhiSet header;
    for (const PHINode &phi : l.getHeader()->phis())
        header.insert(&phi);
    PhiSet phis;
    for (;;) {
        phis = outside;
        phis.insert(header.begin(), header.end());
        PhiSet keep;
        for (const PHINode *phi : header) {
            bool ok = true;
            for (const Value *v : phi->incoming_values())
                ok = ok && is_uniform(v, phis);
            if (ok)
                keep.insert(phi);
        }
        if (keep.size() == header.size())
            break;
        header = std::move(keep);
    }
    SmallVector<BasicBlock *, 4> exiting;
    l.getExitingBlocks(exiting);
    for (const BasicBlock *b : exiting) {
        const auto *br = dyn_cast<BranchInst>(b->getTerminator());
        if (!br || !br->isConditional() || !is_uniform(br->getCondition(), phis))
            return false;
    }
    for (PHINode &phi : l.getHeader()->phis())
        if (header.contains(&phi))
            counters.push_back(&phi);
    return true;
}

bool has_plain_barrier(const Loop &l)
{
    for (const BasicBlock *b : l.blocks())
        if (has_plain_barrier(*b))
            return true;
    return false;
}

bool only_barrier_loops(const Loop *l)
{
    for (; l; l = l->getParentLoop())
        if (!has_plain_barrier(*l))
            return false;
    return true;
}

namespace {

// Deeper address computations are not compared (fail closed: no match).
constexpr unsigned MAX_ADDRESS_DEPTH = 16;

bool address_operation(const Instruction &i)
{
    return isa<GetElementPtrInst>(i) || isa<CastInst>(i) || is_cheap_operation(i);
}

// Whether `v` is the same address in every iteration of `l`: defined
// outside it, or computed in it from such values by address arithmetic.
bool invariant_address(const Value *v, const Loop &l, unsigned depth)
{
    const auto *i = dyn_cast<Instruction>(v);
    if (!i || !l.contains(i))
        return true;
    if (depth > MAX_ADDRESS_DEPTH || !address_operation(*i))
        return false;
    for (const Value *op : i->operands())
        if (!invariant_address(op, l, depth + 1))
            return false;
    return true;
}

// Whether `a` and `b` compute the same address: the same value, or the
// same operation on the same operands (kernels compute `c[i * n + j]`
// again for the load and for the store of `c[i * n + j] += ...`).
bool same_address(const Value *a, const Value *b, unsigned depth)
{
    if (a == b)
        return true;
    const auto *x = dyn_cast<Instruction>(a), *y = dyn_cast<Instruction>(b);
    if (!x || !y || depth > MAX_ADDRESS_DEPTH || !x->isSameOperationAs(y) ||
        !address_operation(*x))
        return false;
    for (unsigned k = 0; k < x->getNumOperands(); k++)
        if (!same_address(x->getOperand(k), y->getOperand(k), depth + 1))
            return false;
    return true;
}

// A loop walking each work-item's own row: an access contiguous along the
// loop that strides across the work-items of dimension 0. The work-item
// loop inside it would gather, element by element of different rows, what
// the loop reads in order (PolyBench's atax, `tmp[i] += A[i * ny + j] *
// x[j]`, ran 1.5x slower with implicit barriers).
bool walks_rows(const Loop &l)
{
    const DataLayout &layout = l.getHeader()->getModule()->getDataLayout();
    const BasicBlock *latch = l.getLoopLatch();
    SmallVector<std::pair<const PHINode *, int64_t>, 2> counters;
    for (const PHINode &phi : l.getHeader()->phis()) {
        const auto *next =
            latch ? dyn_cast<BinaryOperator>(phi.getIncomingValueForBlock(latch)) : nullptr;
        const auto *by = next ? dyn_cast<ConstantInt>(next->getOperand(1)) : nullptr;
        if (phi.getType()->isIntegerTy() && by && next->getOpcode() == Instruction::Add &&
            next->getOperand(0) == &phi)
            counters.push_back({&phi, by->getSExtValue()});
    }
    // The counters are the same in all work-items (the loop is uniform):
    // `a[i * n + k]` is then the same element for the work-items of a row.
    SmallVector<const Value *, 2> fixed;
    for (auto [counter, increment] : counters)
        fixed.push_back(counter);
    for (const BasicBlock *b : l.blocks())
        for (const Instruction &i : *b) {
            const Value *pointer = getLoadStorePointerOperand(&i);
            if (!pointer || pointer->getType()->getPointerAddressSpace() == 0)
                continue;
            Type *type = isa<LoadInst>(i) ? i.getType() : cast<StoreInst>(i).getValueOperand()->getType();
            auto size = (int64_t)layout.getTypeStoreSize(type).getFixedValue();
            std::optional<int64_t> across = address_step(pointer, 0, fixed, layout);
            if (across && (*across == 0 || *across == size))
                continue;
            for (auto [counter, increment] : counters)
                if (address_step(pointer, counter, increment, layout) == size)
                    return true;
        }
    return false;
}

// A floating-point value the loop keeps in memory: it loads and stores the
// same address in each iteration (PolyBench's `c[i][j] += a[i][k] *
// b[k][j]`). LLVM cannot keep it in a register (the other accesses may
// alias it), so the loop does not vectorize by itself, like a sum in a
// register. Unless it walks rows (walks_rows).
bool accumulates_in_memory(const Loop &l)
{
    SmallVector<const LoadInst *, 8> loads;
    SmallVector<const StoreInst *, 8> stores;
    for (const BasicBlock *b : l.blocks())
        for (const Instruction &i : *b) {
            if (const auto *ld = dyn_cast<LoadInst>(&i);
                ld && ld->isSimple() && ld->getType()->getScalarType()->isFloatingPointTy())
                loads.push_back(ld);
            if (const auto *st = dyn_cast<StoreInst>(&i);
                st && st->isSimple() &&
                st->getValueOperand()->getType()->getScalarType()->isFloatingPointTy())
                stores.push_back(st);
        }
    for (const StoreInst *st : stores) {
        if (!invariant_address(st->getPointerOperand(), l, 0))
            continue;
        for (const LoadInst *ld : loads)
            if (same_address(ld->getPointerOperand(), st->getPointerOperand(), 0))
                return !walks_rows(l);
    }
    return false;
}

} // namespace

bool carries_compute(const Loop &l, const GroupUniformity &u)
{
    bool computes = false;
    for (const PHINode &phi : l.getHeader()->phis())
        computes = computes || carries_float(phi) || carries_integer_product(phi, l, u) ||
                   phi.getName().starts_with(GRID_STRIDE_PREFIX);
    return computes || accumulates_in_memory(l);
}

// The phis before `l` the analysis found uniform (a bound chosen by a
// uniform branch: SHOC's `block_stop`); the loop's own are judged again.
PhiSet outside_phis(const Loop &l, const GroupUniformity &u)
{
    PhiSet outside;
    for (const PHINode *phi : u.phis())
        if (!l.contains(phi))
            outside.insert(phi);
    return outside;
}

bool is_uniform_inner_compute_loop(const Loop &l, const GroupUniformity &u,
                                   SmallVectorImpl<PHINode *> &counters)
{
    // Every loop around it has a barrier: all work-items run those loops
    // together, so they all reach this one as often.
    if (!l.getSubLoops().empty() || has_plain_barrier(l) || !only_barrier_loops(l.getParentLoop()))
        return false;
    // Entered from a block that always enters it (a branch that may skip
    // it would put the barrier where only some work-items go).
    const BasicBlock *outside = l.getLoopPreheader();
    if (!outside || !u.together(outside))
        return false;
    return carries_compute(l, u) && exits_uniformly(l, outside_phis(l, u), counters);
}

bool is_uniform_compute_loop(const Loop &l, const GroupUniformity &u,
                             const PostDominatorTree &pdt, SmallVectorImpl<PHINode *> &counters)
{
    if (l.getParentLoop())
        return false;
    const BasicBlock *outside = l.getLoopPreheader();
    if (!outside)
        return false;
    // Every work-item reaches the loop: its entry lies on every path from
    // the function's entry to an exit, or is run by all work-items together.
    const BasicBlock *entry = &outside->getParent()->getEntryBlock();
    if (!pdt.dominates(outside, entry) && !u.together(outside))
        return false;
    return carries_compute(l, u) && exits_uniformly(l, outside_phis(l, u), counters);
}

} // namespace ferrocl
