// `ferrocl-counters-from-work-item-id`: in the back end, where the
// vectorizer starts, a work-item loop's header phi other than the id that
// counts in step with it (to ScalarEvolution, `{start,+,step}` over the
// loop) is computed from the id instead, and the phi goes:
//
//     x:                                       x:
//       id = phi [begin, pre], [id + 1, latch]   id = phi [begin, pre], [id + 1, latch]
//       j = phi [s, pre], [j + 1, latch]         j = s + trunc(id - begin) * 1
//
// Why: LLVM's induction variable pass widens a kernel's `j1 + 1` into a
// second counter carried from work-item to work-item (PolyBench's
// correlation). The passes that run work-items side by side
// (interleave_work_items.cpp, latency_bound_work_items.cpp) need each
// work-item's values from its id alone, so they leave such a loop alone.
//
// Why it is sound: the phi's value in the loop's k-th iteration is
// `start + k * step` in its type's wrapping arithmetic, which is what
// ScalarEvolution's add-recurrence means, and the id's is `begin + k`.
// A phi ScalarEvolution does not read that way stays.
#include "parallel_access.h"
#include "passes.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

using namespace llvm;

namespace ferrocl {

namespace {

// The id of work-item loop `l`: the header phi whose latch value is
// `id + 1`, the value the latch's exit test compares.
PHINode *work_item_id(const Loop &l)
{
    BasicBlock *latch = l.getLoopLatch();
    auto *branch = latch ? dyn_cast<BranchInst>(latch->getTerminator()) : nullptr;
    if (!branch || !branch->isConditional() || l.getExitingBlock() != latch)
        return nullptr;
    auto *cmp = dyn_cast<ICmpInst>(branch->getCondition());
    if (!cmp || !cmp->isEquality())
        return nullptr;
    for (Value *op : cmp->operands()) {
        auto *next = dyn_cast<BinaryOperator>(op);
        auto *one = next ? dyn_cast<ConstantInt>(next->getOperand(1)) : nullptr;
        auto *id = next ? dyn_cast<PHINode>(next->getOperand(0)) : nullptr;
        if (next && next->getOpcode() == Instruction::Add && one && one->isOne() && id &&
            id->getParent() == l.getHeader() && id->getType()->isIntegerTy() &&
            id->getIncomingValueForBlock(latch) == next)
            return id;
    }
    return nullptr;
}

// Rewrites the counters of work-item loop `l` that step with its id;
// whether it changed anything.
bool rewrite(Loop &l, ScalarEvolution &se)
{
    PHINode *id = work_item_id(l);
    BasicBlock *pre = l.getLoopPreheader();
    if (!id || !pre)
        return false;
    Value *begin = id->getIncomingValueForBlock(pre);
    SCEVExpander expander(se, l.getHeader()->getDataLayout(), "wi.counter");
    SmallVector<std::pair<PHINode *, const SCEVAddRecExpr *>, 4> found;
    for (PHINode &phi : l.getHeader()->phis()) {
        if (&phi == id || !phi.getType()->isIntegerTy())
            continue;
        const auto *rec = dyn_cast<SCEVAddRecExpr>(se.getSCEV(&phi));
        if (!rec || rec->getLoop() != &l || !rec->isAffine() ||
            !isa<SCEVConstant>(rec->getStepRecurrence(se)) ||
            !expander.isSafeToExpandAt(rec->getStart(), pre->getTerminator()))
            continue;
        found.push_back({&phi, rec});
    }
    if (found.empty())
        return false;
    IRBuilder<> b(&*l.getHeader()->getFirstInsertionPt());
    Value *k = b.CreateSub(id, begin, "wi.k");
    for (auto [phi, rec] : found) {
        Type *type = phi->getType();
        Value *start = expander.expandCodeFor(rec->getStart(), type, pre->getTerminator());
        ConstantInt *step = cast<SCEVConstant>(rec->getStepRecurrence(se))->getValue();
        Value *steps = b.CreateZExtOrTrunc(k, type);
        if (!step->isOne())
            steps = b.CreateMul(steps, step);
        Value *value = b.CreateAdd(start, steps, phi->getName() + ".from.id");
        phi->replaceAllUsesWith(value);
        RecursivelyDeleteDeadPHINode(phi);
    }
    return true;
}

} // namespace

PreservedAnalyses CountersFromWorkItemIdPass::run(Function &f, FunctionAnalysisManager &fam)
{
    if (f.isDeclaration())
        return PreservedAnalyses::all();
    LoopInfo &loops = fam.getResult<LoopAnalysis>(f);
    ScalarEvolution &se = fam.getResult<ScalarEvolutionAnalysis>(f);
    bool changed = false;
    for (Loop *l : loops.getLoopsInPreorder())
        if (is_work_item_loop(l))
            changed |= rewrite(*l, se);
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
