// `ferrocl-expand-fallback-variants`: after the loop vectorizer, each call
// of a fallback's masked vector variant (fallback_calls.h, named by
// `ferrocl-fallback-vector-variants`) becomes a test of its mask and,
// when some lane is active, the scalar fallback called lane by lane; the
// variants' declarations go. The back end runs it at the end of its
// pipeline.
//
// Why here and not as defined functions: the vectorizer needs only their
// declarations, and a call of a vector function would spill every live
// vector register around it in every vector iteration, where the test is
// one instruction and a branch the predictor learns (the fallbacks are for
// rare arguments: sin and cos of |x| > 2^16). The scalar fallbacks save
// every register they use (no_caller_saved_registers, gen_math.py), so
// their calls here cost the code around them nothing when not made.
#include "fallback_calls.h"
#include "passes.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

using namespace llvm;

namespace ferrocl {

namespace {

// The scalar fallback a variant stands for, or null.
Function *scalar_of(const Function &variant, Module &m)
{
    StringRef name = variant.getName();
    if (!name.starts_with(FALLBACK_PREFIX) || !variant.isDeclaration())
        return nullptr;
    size_t infix = name.rfind(FALLBACK_VARIANT_INFIX);
    if (infix == StringRef::npos)
        return nullptr;
    return m.getFunction(name.take_front(infix));
}

void expand(CallInst *call, Function *scalar)
{
    Value *x = call->getArgOperand(0);
    Value *mask = call->getArgOperand(1);
    auto *type = cast<FixedVectorType>(call->getType());
    IRBuilder<> b(call);
    Value *any = b.CreateOrReduce(mask);
    // Unlikely, so that the register allocator spills what the calls
    // clobber in their block and not on the way around it.
    Instruction *then = SplitBlockAndInsertIfThen(
        any, call->getIterator(), false,
        MDBuilder(call->getContext()).createUnlikelyBranchWeights());
    BasicBlock *before = then->getParent()->getSinglePredecessor();
    BasicBlock *join = then->getParent()->getSingleSuccessor();
    // Every lane, active or not: the fallbacks are defined for every
    // argument, and a branch per lane would cost more than the calls.
    b.SetInsertPoint(then);
    Value *lanes = PoisonValue::get(type);
    for (unsigned k = 0; k < type->getNumElements(); k++) {
        CallInst *lane = b.CreateCall(scalar, {b.CreateExtractElement(x, k)});
        lane->setAttributes(scalar->getAttributes());
        lanes = b.CreateInsertElement(lanes, lane, k);
    }
    PHINode *value = PHINode::Create(type, 2);
    value->insertBefore(join->begin());
    value->takeName(call);
    value->addIncoming(lanes, then->getParent());
    value->addIncoming(PoisonValue::get(type), before);
    call->replaceAllUsesWith(value);
    call->eraseFromParent();
}

} // namespace

PreservedAnalyses ExpandFallbackVariantsPass::run(Module &m, ModuleAnalysisManager &)
{
    SmallVector<std::pair<Function *, Function *>, 4> variants;
    for (Function &f : m)
        if (Function *scalar = scalar_of(f, m))
            variants.push_back({&f, scalar});
    if (variants.empty())
        return PreservedAnalyses::all();
    for (auto [variant, scalar] : variants) {
        SmallVector<CallInst *, 4> calls;
        for (User *u : variant->users())
            if (auto *call = dyn_cast<CallInst>(u); call && call->getCalledFunction() == variant)
                calls.push_back(call);
        for (CallInst *call : calls)
            expand(call, scalar);
    }
    removeFromUsedLists(m, [&](Constant *c) {
        return any_of(variants, [&](auto v) { return c == v.first; });
    });
    for (auto [variant, scalar] : variants) {
        // The list's old array, if nothing else, still names it.
        variant->removeDeadConstantUsers();
        if (variant->use_empty())
            variant->eraseFromParent();
    }
    return PreservedAnalyses::none();
}

} // namespace ferrocl
