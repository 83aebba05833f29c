// `ferrocl-fold-tails-of-copies`: on hosts with AVX-512, a work-item loop
// that only moves memory (one block of scalar loads and stores whose
// addresses step by one element a work-item, their addresses, casts and
// integer arithmetic) asks the loop vectorizer to run its last, partial
// vector under a mask (fold_tail_under_mask) instead of one work-item at a
// time.
//
// Why: such loops are mostly the frame's copies between regions (a value
// a loop carries across a barrier moved from one slot to another), whose
// rows are a group's width: 16 in Rodinia's hotspot, where the copy of its
// `computed` flag, a byte per work-item, ran 16 bytes one at a time (a
// vector of bytes is 64 wide) and took a tenth of the kernel's time. Under
// a mask the row is one vector. A long row pays a mask a vector, which a
// loop that only moves memory does not notice. Loops that compute keep
// their scalar tail: a mask on every vector of clpeak's local_bandwidth_v4
// (float4 rows of 256) took 4x the time.
#include "parallel_access.h"
#include "passes.h"
#include "wide_vector_code.h"
#include "work_item_intervals.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Instructions.h>

using namespace llvm;

namespace ferrocl {

namespace {

// Whether `address` steps by one `type` (a scalar) per iteration of `l`.
bool steps_one_element(Value *address, Type *type, const Loop *l, ScalarEvolution &se)
{
    if (type->isVectorTy() || type->isAggregateType())
        return false;
    const auto *rec = dyn_cast<SCEVAddRecExpr>(se.getSCEV(address));
    if (!rec || rec->getLoop() != l || !rec->isAffine())
        return false;
    const auto *step = dyn_cast<SCEVConstant>(rec->getStepRecurrence(se));
    const DataLayout &dl = l->getHeader()->getDataLayout();
    return step && step->getAPInt() == dl.getTypeStoreSize(type).getFixedValue();
}

// Whether the one-block loop `l` only moves memory.
bool only_moves_memory(const Loop *l, ScalarEvolution &se)
{
    unsigned moves = 0;
    for (Instruction &i : *l->getHeader()) {
        if (auto *load = dyn_cast<LoadInst>(&i)) {
            if (!load->isSimple() ||
                !steps_one_element(load->getPointerOperand(), load->getType(), l, se))
                return false;
            moves++;
        } else if (auto *store = dyn_cast<StoreInst>(&i)) {
            if (!store->isSimple() || !steps_one_element(store->getPointerOperand(),
                                                         store->getValueOperand()->getType(), l, se))
                return false;
            moves++;
        } else if (i.isBinaryOp() ? !i.getType()->isIntegerTy()
                                  : !(isa<GetElementPtrInst>(i) || isa<CastInst>(i) ||
                                      isa<PHINode>(i) || isa<ICmpInst>(i) || isa<BranchInst>(i))) {
            return false;
        }
    }
    return moves > 0;
}

} // namespace

PreservedAnalyses FoldTailsOfCopiesPass::run(Function &f, FunctionAnalysisManager &fam)
{
    if (f.isDeclaration() || !compiled_for_avx512(f))
        return PreservedAnalyses::all();
    LoopInfo &loops = fam.getResult<LoopAnalysis>(f);
    ScalarEvolution &se = fam.getResult<ScalarEvolutionAnalysis>(f);
    bool changed = false;
    for (Loop *l : loops.getLoopsInPreorder()) {
        // (A loop of one block is its own latch.)
        if (l->getNumBlocks() != 1 || !is_work_item_loop(l) ||
            getBooleanLoopAttribute(l, "llvm.loop.vectorize.predicate.enable") ||
            !only_moves_memory(l, se))
            continue;
        fold_tail_under_mask(l->getHeader()->getTerminator());
        changed = true;
    }
    return kept_after_loop_hints(changed);
}

} // namespace ferrocl
