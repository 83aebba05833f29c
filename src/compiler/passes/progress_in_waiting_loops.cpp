// `ferrocl-progress-in-waiting-loops`: a loop that may wait for another
// work-item calls `__ferrocl_progress` at the top of each iteration, as the
// whole program comes in (before inlining: loops in helper functions too).
//
// Why: independent forward progress of sub-groups (cl_khr_subgroups,
// CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS). A work-group's
// work-items run on one thread and switch only where they wait; a
// work-item spinning until another of its group stores a value would spin
// forever if the other never got the thread. The call is such a wait: the
// kernel runs on fibers (it is no barrier of the whole group, so no
// regions are cut around it), and there it lets the group's other
// work-items run before the loop tests again (sched::ndrange).
//
// Which loops: those with an exit whose condition depends, within the
// loop, on a read of memory other work-items may write that is no plain
// read: an atomic or volatile load of non-private memory, an atomic
// instruction, an atomic builtin (`atomic_*`, `atom_*`), or a call of a
// function that does any of these. Plain reads are left out: polling
// memory another work-item writes without atomics is a data race, which
// OpenCL leaves undefined. A loop whose exit depends on a read-modify-write
// whose value operands change every iteration (a compare-and-swap retry
// computing its new value from what it read, atomically or not) is left
// out too: it fails only when another work-item's succeeded, so the group
// progresses without switching. Values reach the
// condition through SSA or, in the front end's unoptimized IR, through
// allocas: a load of one follows the stores to it inside the loop.
//
// Fails closed: a loop whose condition depends on what the pass cannot
// follow through (another call that reads shared memory) is not a loop it
// can prove waits; only the reads above can make a work-item wait for
// another, so nothing else needs the call.
#include "kernel_symbols.h"
#include "passes.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <map>

using namespace llvm;

namespace ferrocl {

namespace {

bool private_pointer(const Value *pointer)
{
    return pointer->getType()->getPointerAddressSpace() == 0;
}

// The alloca a pointer names directly, if any.
const AllocaInst *alloca_of(const Value *pointer)
{
    return dyn_cast<AllocaInst>(pointer->stripPointerCasts());
}

// Whether `f` (or what it calls, transitively) reads memory as a waiting
// loop does.
class SharedReads {
  public:
    bool in_function(const Function *f)
    {
        if (!f || f->isDeclaration())
            return false;
        auto [it, fresh] = memo.try_emplace(f, false);
        if (!fresh)
            return it->second;
        bool reads = false;
        for (const Instruction &i : instructions(*f)) {
            if (reads_shared(i)) {
                reads = true;
                break;
            }
            if (const auto *call = dyn_cast<CallBase>(&i))
                if (in_function(call->getCalledFunction())) {
                    reads = true;
                    break;
                }
        }
        memo[f] = reads;
        return reads;
    }

    // An atomic or volatile read of non-private memory, an atomic
    // instruction or an atomic builtin call.
    static bool reads_shared(const Instruction &i)
    {
        if (const auto *load = dyn_cast<LoadInst>(&i))
            return (load->isAtomic() || load->isVolatile()) &&
                   !private_pointer(load->getPointerOperand());
        if (const auto *rmw = dyn_cast<AtomicRMWInst>(&i))
            return !private_pointer(rmw->getPointerOperand());
        if (const auto *cas = dyn_cast<AtomicCmpXchgInst>(&i))
            return !private_pointer(cas->getPointerOperand());
        if (const auto *call = dyn_cast<CallBase>(&i))
            if (const Function *f = call->getCalledFunction())
                return is_atomic_builtin(f->getName());
        return false;
    }

  private:
    std::map<const Function *, bool> memo;
};

class WaitingLoop {
  public:
    WaitingLoop(const Loop &loop, SharedReads &reads) : loop(loop), reads(reads)
    {
        // What the loop writes to each alloca, found once.
        for (const BasicBlock *b : loop.blocks())
            for (const Instruction &i : *b) {
                if (const auto *s = dyn_cast<StoreInst>(&i)) {
                    if (const AllocaInst *a = alloca_of(s->getPointerOperand()))
                        writes[a].values.push_back(s->getValueOperand());
                } else if (const auto *call = dyn_cast<CallBase>(&i)) {
                    for (const Value *arg : call->args())
                        if (arg->getType()->isPointerTy())
                            if (const AllocaInst *a = alloca_of(arg))
                                writes[a].calls.push_back(call);
                }
            }
    }

    // Whether an exit's condition depends on a read that may wait, and no
    // exit's on an atomic update that retries (one walk over all exits).
    bool waits()
    {
        SmallVector<BasicBlock *, 4> exiting;
        loop.getExitingBlocks(exiting);
        SmallVector<const Value *, 4> conditions;
        for (BasicBlock *b : exiting) {
            const Instruction *t = b->getTerminator();
            if (const auto *br = dyn_cast<BranchInst>(t); br && br->isConditional())
                conditions.push_back(br->getCondition());
            else if (const auto *sw = dyn_cast<SwitchInst>(t))
                conditions.push_back(sw->getCondition());
        }
        return depends_on_shared_read(conditions);
    }

  private:
    const Loop &loop;
    SharedReads &reads;

    // Inside the loop: the values stored to an alloca, and the calls
    // handed it (which may write it: compare_exchange's `expected`).
    struct Writes {
        SmallVector<const Value *, 2> values;
        SmallVector<const CallBase *, 1> calls;
    };
    DenseMap<const AllocaInst *, Writes> writes;

    const Writes *writes_to(const AllocaInst *a) const
    {
        auto it = writes.find(a);
        return it == writes.end() ? nullptr : &it->second;
    }

    bool in_loop(const Value *v) const
    {
        const auto *i = dyn_cast<Instruction>(v);
        return i && loop.contains(i);
    }

    // Whether `v` is the same in every iteration: defined outside the loop,
    // a constant, or computed in it from such values (a load of an alloca
    // nothing in the loop writes counts).
    bool invariant(const Value *v, unsigned depth = 0) const
    {
        if (!in_loop(v))
            return true;
        if (depth > 16)
            return false;
        const auto *i = cast<Instruction>(v);
        if (const auto *load = dyn_cast<LoadInst>(i)) {
            const AllocaInst *a = alloca_of(load->getPointerOperand());
            if (!a || load->isVolatile() || load->isAtomic())
                return false;
            return !writes_to(a);
        }
        if (isa<PHINode>(i) || isa<CallBase>(i) || i->mayReadOrWriteMemory())
            return false;
        for (const Value *op : i->operands())
            if (!invariant(op, depth + 1))
                return false;
        return true;
    }

    // A read-modify-write (or builtin call) all of whose value operands are
    // the same every iteration: it may wait for another work-item to
    // change what it reads.
    bool same_operands(const User &u) const
    {
        for (const Value *op : u.operands()) {
            if (op->getType()->isPointerTy() || isa<Function>(op) || isa<BasicBlock>(op))
                continue;
            if (!invariant(op))
                return false;
        }
        return true;
    }

    enum class Source { None, Wait, Retry };

    // What `i` is to a loop whose exit depends on it: a read that may wait
    // for another work-item, an atomic update that retries by itself (its
    // value operands change every iteration), or neither.
    Source source(const Instruction &i)
    {
        if (isa<LoadInst>(i))
            return SharedReads::reads_shared(i) ? Source::Wait : Source::None;
        if (isa<AtomicRMWInst>(i) || isa<AtomicCmpXchgInst>(i)) {
            if (!SharedReads::reads_shared(i))
                return Source::None;
            return same_operands(i) ? Source::Wait : Source::Retry;
        }
        if (const auto *call = dyn_cast<CallBase>(&i)) {
            const Function *f = call->getCalledFunction();
            if (!f)
                return Source::None;
            if (is_atomic_builtin(f->getName()))
                return same_operands(*call) ? Source::Wait : Source::Retry;
            return reads.in_function(f) ? Source::Wait : Source::None;
        }
        return Source::None;
    }

    // Whether the exit conditions depend on a read that may wait, and on no
    // atomic update that retries (a compare-and-swap loop that also reads
    // atomically what it swaps is still a retry).
    bool depends_on_shared_read(ArrayRef<const Value *> conditions)
    {
        SmallVector<const Value *, 16> work(conditions.begin(), conditions.end());
        SmallPtrSet<const Value *, 32> seen;
        bool waits = false;
        while (!work.empty()) {
            const Value *v = work.pop_back_val();
            if (!in_loop(v) || !seen.insert(v).second)
                continue;
            const auto *i = cast<Instruction>(v);
            switch (source(*i)) {
            case Source::Retry:
                return false;
            case Source::Wait:
                waits = true;
                continue;
            case Source::None:
                break;
            }
            if (const auto *load = dyn_cast<LoadInst>(i)) {
                // Through a local variable: what the loop stores to it,
                // and the calls it is handed to (compare_exchange's
                // `expected`).
                if (const AllocaInst *a = alloca_of(load->getPointerOperand()))
                    if (const Writes *w = writes_to(a)) {
                        work.append(w->values.begin(), w->values.end());
                        work.append(w->calls.begin(), w->calls.end());
                    }
                continue;
            }
            for (const Value *op : i->operands())
                work.push_back(op);
        }
        return waits;
    }
};

} // namespace

PreservedAnalyses ProgressInWaitingLoopsPass::run(Module &m, ModuleAnalysisManager &mam)
{
    auto &fam = mam.getResult<FunctionAnalysisManagerModuleProxy>(m).getManager();
    SharedReads reads;
    SmallVector<BasicBlock *, 4> headers;
    for (Function &f : m) {
        if (f.isDeclaration())
            continue;
        auto &loops = fam.getResult<LoopAnalysis>(f);
        for (Loop *l : loops.getLoopsInPreorder())
            if (WaitingLoop(*l, reads).waits())
                headers.push_back(l->getHeader());
    }
    bool changed = !headers.empty();
    if (changed) {
        FunctionCallee progress = m.getOrInsertFunction(
            PROGRESS_POINT, FunctionType::get(Type::getVoidTy(m.getContext()), false));
        if (auto *f = dyn_cast<Function>(progress.getCallee())) {
            f->addFnAttr(Attribute::Convergent);
            f->addFnAttr(Attribute::NoUnwind);
        }
        for (BasicBlock *h : headers)
            CallInst::Create(progress, "", h->getFirstInsertionPt());
    }
    if (!changed)
        return PreservedAnalyses::all();
    PreservedAnalyses kept;
    kept.preserveSet<CFGAnalyses>();
    return kept;
}

} // namespace ferrocl
