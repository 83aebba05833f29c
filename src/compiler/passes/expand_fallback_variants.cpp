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

#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <algorithm>

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

// A variant's call and the scalar fallback it stands for.
struct VariantCall {
    CallInst *call;
    Function *scalar;
};

// Whether `v` is there before `at`: an argument, a constant, a value of
// another block (which dominates `at`'s, since a later call in that
// block uses it) or an earlier instruction of the block.
bool available_at(const Value *v, const Instruction *at)
{
    const auto *i = dyn_cast<Instruction>(v);
    return !i || i->getParent() != at->getParent() || i->comesBefore(at);
}

// The calls of `group` (one block, one mask, each argument available at
// the first) as one test of the mask and, when some lane is active, the
// scalar fallbacks called lane by lane: sin(x) and cos(x) of one x test
// their mask once.
void expand(ArrayRef<VariantCall> group)
{
    CallInst *first = group.front().call;
    IRBuilder<> b(first);
    Value *any = b.CreateOrReduce(first->getArgOperand(1));
    // Unlikely: the block goes off the loop's straight line.
    Instruction *then = SplitBlockAndInsertIfThen(
        any, first->getIterator(), false,
        MDBuilder(first->getContext()).createUnlikelyBranchWeights());
    BasicBlock *before = then->getParent()->getSinglePredecessor();
    BasicBlock *join = then->getParent()->getSingleSuccessor();
    b.SetInsertPoint(then);
    for (auto [call, scalar] : group) {
        Value *x = call->getArgOperand(0);
        auto *type = cast<FixedVectorType>(call->getType());
        // Every lane, active or not: the fallbacks are defined for every
        // argument, and a branch per lane would cost more than the calls.
        Value *lanes = PoisonValue::get(type);
        for (unsigned k = 0; k < type->getNumElements(); k++) {
            CallInst *lane = b.CreateCall(scalar, {b.CreateExtractElement(x, k)});
            lane->setAttributes(scalar->getAttributes());
            lanes = b.CreateInsertElement(lanes, lane, k);
        }
        PHINode *value = PHINode::Create(type, 2);
        value->insertBefore(join->getFirstNonPHIIt());
        value->takeName(call);
        value->addIncoming(lanes, then->getParent());
        value->addIncoming(PoisonValue::get(type), before);
        call->replaceAllUsesWith(value);
        call->eraseFromParent();
    }
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
    // The variants' calls, in each block in order, grouped by mask.
    DenseMap<const Function *, Function *> scalars(variants.begin(), variants.end());
    SmallVector<SmallVector<VariantCall, 2>, 8> groups;
    for (Function &f : m)
        for (BasicBlock &block : f) {
            size_t first_group = groups.size();
            for (Instruction &i : block) {
                auto *call = dyn_cast<CallInst>(&i);
                Function *scalar = call ? scalars.lookup(call->getCalledFunction()) : nullptr;
                if (!scalar)
                    continue;
                auto same = std::find_if(
                    groups.begin() + first_group, groups.end(), [&](const auto &group) {
                        CallInst *lead = group.front().call;
                        return lead->getArgOperand(1) == call->getArgOperand(1) &&
                               available_at(call->getArgOperand(0), lead);
                    });
                if (same == groups.end())
                    groups.push_back({{call, scalar}});
                else
                    same->push_back({call, scalar});
            }
        }
    for (const auto &group : groups)
        expand(group);
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
