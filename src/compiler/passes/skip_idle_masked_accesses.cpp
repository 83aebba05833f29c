// `ferrocl-skip-idle-masked-accesses`: after the loop vectorizer, a masked
// load, store, gather or scatter inside a loop whose mask tests equality
// (`id == k`: at most a lane or two of each vector) is made only when some
// lane of its mask is active; a load no lane wants gives its pass-through.
//
// Why: a masked access costs its memory traffic whatever its mask. On AMD's
// Zen 4 a 16-lane masked load with no active lane still fetches its cache
// lines. A work-item loop vectorizes `if (y == 0) b[x] -= m[size * x + y]
// * ...` (Rodinia's gaussian Fan2) into a masked load of a row of `m` in
// every iteration, for one active lane in the whole row: a third stream of
// memory beside the two the kernel needs, a third of its time. A test of
// the mask is one instruction and a branch the predictor learns, but the
// masks of bounds checks are nearly always full, and there the tests and
// the blocks they split cost more than they save (PyOpenCL's linear
// combination and SHOC's reduction ran 20-50 % slower): masks of order
// comparisons are left as they are.
// The back end runs the pass (llvm_inprocess.cpp) at the end of its -O3
// pipeline, after `ferrocl-uniform-gathers`, whose single loads are
// already conditional.
#include "passes.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace ferrocl {

namespace {

// The mask operand of a masked memory intrinsic, or null for other calls.
Value *mask_of(const IntrinsicInst &call)
{
    switch (call.getIntrinsicID()) {
    case Intrinsic::masked_load:
    case Intrinsic::masked_gather:
        return call.getArgOperand(2);
    case Intrinsic::masked_store:
    case Intrinsic::masked_scatter:
        return call.getArgOperand(3);
    default:
        return nullptr;
    }
}

// Whether `mask` is an equality test, or the conjunction of one with
// other tests (`and`, or `select c, x, false`): a mask that is all off in
// most vectors.
bool tests_equality(const Value *mask, unsigned depth = 0)
{
    if (depth > 8)
        return false;
    if (const auto *cmp = dyn_cast<ICmpInst>(mask))
        return cmp->getPredicate() == ICmpInst::ICMP_EQ;
    const Value *a, *b;
    if (match(mask, m_LogicalAnd(m_Value(a), m_Value(b))))
        return tests_equality(a, depth + 1) || tests_equality(b, depth + 1);
    return false;
}

// The value a masked load or gather gives its inactive lanes.
Value *pass_through_of(const IntrinsicInst &call)
{
    return call.getArgOperand(3);
}

void make_when_active(IntrinsicInst *call, Value *mask)
{
    IRBuilder<> b(call);
    Value *any = b.CreateOrReduce(mask);
    Instruction *then = SplitBlockAndInsertIfThen(any, call->getIterator(), false);
    BasicBlock *before = then->getParent()->getSinglePredecessor();
    BasicBlock *join = then->getParent()->getSingleSuccessor();
    call->moveBefore(then);
    if (call->getType()->isVoidTy())
        return;
    PHINode *value = PHINode::Create(call->getType(), 2, call->getName() + ".when.active");
    value->insertBefore(join->begin());
    call->replaceAllUsesWith(value);
    value->addIncoming(call, then->getParent());
    value->addIncoming(pass_through_of(*call), before);
}

} // namespace

PreservedAnalyses SkipIdleMaskedAccessesPass::run(Function &f, FunctionAnalysisManager &am)
{
    const LoopInfo &loops = am.getResult<LoopAnalysis>(f);
    SmallVector<std::pair<IntrinsicInst *, Value *>, 8> accesses;
    for (BasicBlock &b : f) {
        if (!loops.getLoopFor(&b))
            continue;
        for (Instruction &i : b) {
            auto *call = dyn_cast<IntrinsicInst>(&i);
            Value *mask = call ? mask_of(*call) : nullptr;
            // A constant mask is all on (the access is as good as plain) or
            // off (left to the folds); scalable masks have no lanes to test.
            if (!mask || isa<Constant>(mask) || !isa<FixedVectorType>(mask->getType()) ||
                !tests_equality(mask))
                continue;
            accesses.push_back({call, mask});
        }
    }
    for (auto [call, mask] : accesses)
        make_when_active(call, mask);
    return accesses.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

} // namespace ferrocl
