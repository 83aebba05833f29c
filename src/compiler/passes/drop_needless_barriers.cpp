// `ferrocl-drop-needless-barriers`: a barrier or sub-group barrier of a
// kernel that orders no memory access of one work-item against another's
// is removed: on one side of it (back to the waits before it, on every
// path) no work-item writes memory others can reach, or on the other side
// none touches such memory at all.
//
// Why: without it, the work-items of the group run all that comes before
// the barrier, then all that follows; with it gone, each runs both in
// turn. The two orders differ only where a work-item's access after the
// barrier conflicts with another's before it (one of the two a write, to
// memory both reach), which the test rules out. DPC++'s sub-group loads
// (`group_load`, every contiguous elementwise kernel of dpnp) put a
// sub-group barrier on each side of loads into private arrays: nine
// regions a sub-group at a time for dpnp.where, where one plain work-item
// loop does.
//
// Fails closed: memory that is not a work-item's own variable (an alloca)
// is shared; a call the pass does not know writes any memory; a stretch
// ends only at a wait that orders the same work-items as the barrier (a
// sub-group's wait does not end the stretch of a barrier of the group:
// other sub-groups may still be before theirs), and any other wait counts
// as touching all memory. Only barriers are removed, never a collective
// function's wait.
#include "kernel_calls.h"
#include "kernel_symbols.h"
#include "passes.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

namespace {

// The address-space casts of OpenCL C 2.0 (clang's names): no memory.
const StringRef ADDRESS_SPACE_CASTS[] = {"__to_global", "__to_local", "__to_private"};

bool is_candidate(const Instruction &i)
{
    const Function *f = called_function(i);
    return f && (is_plain_barrier(f->getName()) || is_sub_group_barrier(f->getName()));
}

// What a stretch of a kernel does to memory other work-items reach.
struct Touches {
    bool reads = false;
    bool writes = false;
    void add(const Touches &o)
    {
        reads |= o.reads;
        writes |= o.writes;
    }
};

bool shared(const Value *pointer) { return !isa<AllocaInst>(getUnderlyingObject(pointer, 0)); }

// Whether a call of the declared builtin `f` touches no memory: an
// OpenCL C builtin (mangled) that takes no pointer and is none of the
// builtins that act on memory or wait (atomics, fences, pipes, waits).
bool pure_builtin(const Function &f, const CallBase &call)
{
    StringRef name = f.getName();
    if (is_contained(ADDRESS_SPACE_CASTS, name) || is_work_item_function(name))
        return true;
    if (!name.starts_with("_Z") || is_wait(name) || is_atomic_builtin(name) ||
        is_pipe_builtin(name) || mangled_identifier(name).contains("fence") ||
        call.getType()->isPointerTy())
        return false;
    for (const Value *arg : call.args())
        if (arg->getType()->isPtrOrPtrVectorTy())
            return false;
    return true;
}

Touches call_touches(const CallBase &call)
{
    if (const auto *mem = dyn_cast<MemIntrinsic>(&call)) {
        const auto *transfer = dyn_cast<MemTransferInst>(mem);
        return {transfer && shared(transfer->getRawSource()),
                shared(mem->getRawDest()) || mem->isVolatile()};
    }
    if (isa<LifetimeIntrinsic>(call) || isa<DbgInfoIntrinsic>(call) || call.doesNotAccessMemory())
        return {};
    if (const Function *f = called_function(call); f && f->isDeclaration() && pure_builtin(*f, call))
        return {};
    if (call.onlyReadsMemory())
        return {true, false};
    return {true, true};
}

Touches touches_of(const Instruction &i)
{
    if (const auto *load = dyn_cast<LoadInst>(&i)) {
        bool reads = shared(load->getPointerOperand());
        return {reads, reads && !load->isUnordered()};
    }
    if (const auto *store = dyn_cast<StoreInst>(&i))
        return {false, shared(store->getPointerOperand())};
    if (isa<AtomicRMWInst>(i) || isa<AtomicCmpXchgInst>(i) || isa<FenceInst>(i))
        return {true, true};
    if (const auto *call = dyn_cast<CallBase>(&i))
        return call_touches(*call);
    return {};
}

// Whether `i` is a wait that orders the work-items a barrier orders (of
// the group, or with `sub_group` of its sub-group only), so that a stretch
// ends there: a barrier of the group, a work-group function's wait, and
// for a sub-group barrier also a sub-group's. Other waits (a progress
// point, a sub-group's wait for a barrier of the group, a call of a
// function that may wait) order nothing for it: the stretch goes on past
// them, and counts them as touching any memory.
bool boundary(const Instruction &i, bool sub_group)
{
    const Function *f = called_function(i);
    if (!f || isa<IntrinsicInst>(i))
        return false;
    StringRef name = f->getName();
    if (is_plain_barrier(name))
        return true;
    if (name == COLLECTIVE_WAIT) {
        const auto *scope = dyn_cast<ConstantInt>(cast<CallBase>(i).getArgOperand(0));
        return scope && (scope->isZero() || sub_group);
    }
    if (is_sub_group_barrier(name))
        return sub_group;
    return false;
}

// What the work-items may do between `barrier` and the waits before it
// (backward) or after it (forward), on every path.
Touches stretch(const Instruction &barrier, bool forward)
{
    const Function *own = called_function(barrier);
    bool sub_group = own && is_sub_group_barrier(own->getName());
    Touches t;
    SmallPtrSet<const BasicBlock *, 32> seen;
    SmallVector<const BasicBlock *, 16> work;
    // The barrier's own block, from the barrier on; whole blocks after.
    auto walk = [&](BasicBlock::const_iterator from, BasicBlock::const_iterator to,
                    bool reversed) {
        if (!reversed) {
            for (auto it = from; it != to; ++it) {
                if (boundary(*it, sub_group))
                    return false;
                t.add(touches_of(*it));
            }
        } else {
            for (auto it = to; it != from;) {
                --it;
                if (boundary(*it, sub_group))
                    return false;
                t.add(touches_of(*it));
            }
        }
        return true;
    };
    const BasicBlock *home = barrier.getParent();
    bool open = forward ? walk(std::next(barrier.getIterator()), home->end(), false)
                        : walk(home->begin(), barrier.getIterator(), true);
    auto next = [&](const BasicBlock *b) {
        if (forward)
            for (const BasicBlock *s : successors(b))
                work.push_back(s);
        else
            for (const BasicBlock *p : predecessors(b))
                work.push_back(p);
    };
    if (open)
        next(home);
    while (!work.empty()) {
        const BasicBlock *b = work.pop_back_val();
        if (!seen.insert(b).second)
            continue;
        // Around a loop back to the barrier's own block: its stretch there
        // was walked above, up to the barrier (a boundary).
        if (b == home) {
            if (forward)
                walk(home->begin(), barrier.getIterator(), false);
            else
                walk(std::next(barrier.getIterator()), home->end(), true);
            continue;
        }
        if (walk(b->begin(), b->end(), !forward))
            next(b);
    }
    return t;
}

bool needless(const Instruction &barrier)
{
    Touches before = stretch(barrier, false), after = stretch(barrier, true);
    bool conflict = (before.writes && (after.reads || after.writes)) ||
                    (after.writes && (before.reads || before.writes));
    return !conflict;
}

} // namespace

PreservedAnalyses DropNeedlessBarriersPass::run(Module &m, ModuleAnalysisManager &)
{
    bool changed = false;
    for (Function &f : m) {
        if (f.isDeclaration() || !is_kernel(f))
            continue;
        // One at a time: each removal joins two stretches, which the next
        // test sees whole.
        for (bool removed = true; removed;) {
            removed = false;
            for (BasicBlock &b : f) {
                for (Instruction &i : b)
                    if (is_candidate(i) && needless(i)) {
                        i.eraseFromParent();
                        removed = changed = true;
                        break;
                    }
                if (removed)
                    break;
            }
        }
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
