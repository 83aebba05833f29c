// `ferrocl-address-ors-as-adds`: an `or disjoint` of a value and a constant
// that indexes memory (an index of a getelementptr) becomes the `add nuw
// nsw` it equals.
//
// Why: instcombine writes `x + k` as `or disjoint x, k` where the low bits
// of x are known zero. Rodinia's lud_internal reads `peri_col[ty * 16 + i]`
// for i from 0 to 15, unrolled: sixteen indices `or disjoint (ty * 16), i`,
// computed once a row and loaded through in the row's work-item loop. LLVM
// 19's CodeGenPrepare folds a constant added to an index into the address's
// displacement in the block that loads (one register, sixteen offsets) for
// an `add` but not for an `or`, so each index stayed a register of its own,
// live across the loop: twelve of them were spilled and reloaded in the hot
// loop. Disjoint bits carry nothing, so the add wraps neither way. The
// back end runs the pass at the end of its -O3 pipeline, after the last
// instcombine, which would turn the adds back into ors.
#include "passes.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Operator.h>

using namespace llvm;

namespace ferrocl {

namespace {

// Whether `v` is an index (not the pointer) of a getelementptr among its
// users.
bool indexes_memory(const Value *v)
{
    for (const Use &use : v->uses()) {
        const auto *gep = dyn_cast<GetElementPtrInst>(use.getUser());
        if (gep && use.getOperandNo() > 0)
            return true;
    }
    return false;
}

} // namespace

PreservedAnalyses AddressOrsAsAddsPass::run(Function &f, FunctionAnalysisManager &)
{
    SmallVector<PossiblyDisjointInst *, 16> ors;
    for (Instruction &i : instructions(f)) {
        auto *o = dyn_cast<PossiblyDisjointInst>(&i);
        if (o && o->isDisjoint() && isa<ConstantInt>(o->getOperand(1)) && indexes_memory(o))
            ors.push_back(o);
    }
    for (PossiblyDisjointInst *o : ors) {
        auto *add = BinaryOperator::CreateAdd(o->getOperand(0), o->getOperand(1), "",
                                              o->getIterator());
        add->setHasNoUnsignedWrap();
        add->setHasNoSignedWrap();
        add->takeName(o);
        add->setDebugLoc(o->getDebugLoc());
        o->replaceAllUsesWith(add);
        o->eraseFromParent();
    }
    if (ors.empty())
        return PreservedAnalyses::all();
    PreservedAnalyses kept;
    kept.preserveSet<CFGAnalyses>();
    return kept;
}

} // namespace ferrocl
