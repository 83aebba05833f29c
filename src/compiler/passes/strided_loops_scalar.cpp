// `ferrocl-strided-loops-scalar`: a kernel's own innermost loop (not a
// work-item loop) whose every access to memory strides by more than a few
// elements, or goes where a loaded index says, and which computes little
// on what it loads, is marked not to be vectorized.
//
// Why: vectorized, such a loop does the same memory operations, one per
// element, as gathers and scatters, and saves only the little arithmetic.
// LLVM's cost model prices a gather near a vector load on AVX-512 hosts;
// on this Ice Lake a 16-lane gather took as long as 16 scalar loads and a
// scatter half as long as 16 stores, before the address vectors around
// them. PyOpenCL's scan kernel adds a carry down each work-item's column
// of a __local array (`ldata[k][lid] += sum`, 17 elements apart): LLVM
// vectorized that loop over `k` with two gathers and two scatters per 16
// elements, and it took 3.4x the time of the scan loop beside it, which
// stayed scalar over the same elements. Kept scalar, the whole kernel took
// 0.75-0.8x the CPU time.
//
// Accesses whose step is at most MAX_INTERLEAVED elements may vectorize as
// interleaved groups (wide loads and shuffles, complex numbers' re and
// im): a loop with one keeps its vectorization, and so does one with a
// contiguous access, or with a vector access.
#include "parallel_access.h"
#include "passes.h"
#include "work_item_intervals.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/LoopIterator.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

using namespace llvm;

namespace ferrocl {

namespace {

// The largest step, in elements, an interleaved group covers.
constexpr int64_t MAX_INTERLEAVED = 8;

// What one access to memory would be in a vectorized loop.
enum class Access { Invariant, Contiguous, Interleaved, Scattered, Unknown };

// As the vectorizer sees it: an index of 32 bits, extended to address,
// steps evenly under a check that it does not wrap.
Access classify(Value *address, Type *type, const Loop *l, PredicatedScalarEvolution &pse)
{
    if (type->isVectorTy() || type->isAggregateType())
        return Access::Unknown;
    ScalarEvolution &se = *pse.getSE();
    if (se.isLoopInvariant(se.getSCEV(address), l))
        return Access::Invariant;
    const SCEVAddRecExpr *rec = pse.getAsAddRec(address);
    if (!rec || rec->getLoop() != l || !rec->isAffine())
        return Access::Scattered;
    // A step unknown at compile time the vectorizer may speculate is one
    // element (a loop versioned on `get_local_size(0) == 1`).
    const auto *step = dyn_cast<SCEVConstant>(rec->getStepRecurrence(se));
    if (!step)
        return Access::Unknown;
    const DataLayout &dl = l->getHeader()->getDataLayout();
    auto size = (int64_t)dl.getTypeStoreSize(type).getFixedValue();
    int64_t by = step->getAPInt().getSExtValue();
    if (by == size || by == -size)
        return Access::Contiguous;
    if (by % size == 0 && by / size >= -MAX_INTERLEAVED && by / size <= MAX_INTERLEAVED)
        return Access::Interleaved;
    return Access::Scattered;
}

// Whether `i` computes on data: on what a load in the loop gave, directly
// or through other such values.
bool on_data(const Instruction &i, const SmallPtrSetImpl<const Value *> &data)
{
    return any_of(i.operands(), [&](const Value *op) { return data.contains(op); });
}

// Whether vectorizing `l` would only turn its loads and stores into
// gathers and scatters: every access scattered (or the same address each
// iteration), and at most one operation on loaded data per access.
bool only_scattered_accesses(Loop *l, LoopInfo &loops, ScalarEvolution &se)
{
    PredicatedScalarEvolution pse(se, *l);
    unsigned scattered = 0, accesses = 0, work = 0;
    SmallPtrSet<const Value *, 32> data;
    // Blocks in reverse post-order: a value is seen before its uses, but
    // for the phis, which `data` then misses (a carried sum is one
    // operation an iteration either way).
    LoopBlocksRPO order(l);
    order.perform(&loops);
    for (BasicBlock *b : order)
        for (Instruction &i : *b) {
            Value *address = getLoadStorePointerOperand(&i);
            if (address) {
                if (auto *load = dyn_cast<LoadInst>(&i); load && !load->isSimple())
                    return false;
                if (auto *store = dyn_cast<StoreInst>(&i); store && !store->isSimple())
                    return false;
                Type *type = getLoadStoreType(&i);
                switch (classify(address, type, l, pse)) {
                case Access::Contiguous:
                case Access::Interleaved:
                case Access::Unknown:
                    return false;
                case Access::Scattered:
                    scattered++;
                    break;
                case Access::Invariant:
                    break;
                }
                accesses++;
                if (isa<LoadInst>(i))
                    data.insert(&i);
                continue;
            }
            if (isa<CallBase>(i) && !isa<DbgInfoIntrinsic>(i) && !i.isLifetimeStartOrEnd())
                return false;
            if (i.mayReadOrWriteMemory())
                return false;
            if (!on_data(i, data) || isa<PHINode>(i))
                continue;
            data.insert(&i);
            if (!isa<CastInst>(i) && !isa<GetElementPtrInst>(i))
                work++;
        }
    return scattered > 0 && work <= accesses;
}

} // namespace

PreservedAnalyses StridedLoopsScalarPass::run(Function &f, FunctionAnalysisManager &fam)
{
    if (f.isDeclaration())
        return PreservedAnalyses::all();
    LoopInfo &loops = fam.getResult<LoopAnalysis>(f);
    ScalarEvolution &se = fam.getResult<ScalarEvolutionAnalysis>(f);
    bool changed = false;
    for (Loop *l : loops.getLoopsInPreorder()) {
        // (A loop whose ID already says how to vectorize it, a user's
        // pragma or LLVM's mark of a vectorized loop, is left as it says.)
        if (!l->isInnermost() || is_work_item_loop(l) ||
            hasVectorizeTransformation(l) != TM_Unspecified ||
            !only_scattered_accesses(l, loops, se))
            continue;
        addStringMetadataToLoop(l, "llvm.loop.vectorize.width", 1);
        changed = true;
    }
    return kept_after_loop_hints(changed);
}

} // namespace ferrocl
