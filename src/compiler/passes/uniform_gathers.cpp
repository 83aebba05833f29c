// `ferrocl-uniform-gathers`: after the loop vectorizer, a masked gather
// whose lanes all read one address becomes one load, made when some lane
// is active and broadcast to the active lanes; a masked scatter whose
// lanes all write one address becomes one store of the last active lane's
// value (a scatter's lanes write in order, the last one stays).
//
// Why: a work-item loop vectorizes a load of an address every work-item
// shares (`m[size * x + t]` in a loop over y, a table entry behind a test)
// into a gather when the load is conditional, since a load the test
// skipped must not be made. A 16-lane gather is 16 loads, a scatter more:
// Rodinia's gaussian Fan2 spent most of its time in three gathers and a
// scatter of one address each, behind `if (y == 0)`, for almost no lane.
// The back end runs the pass (llvm_inprocess.cpp) at the end of its -O3
// pipeline (LLVM 19 has no hook at the vectorizer's end).
#include "passes.h"

#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

using namespace llvm;

namespace ferrocl {

namespace {

// The one address a vector of pointers holds in every lane, built before
// `at`; null when the lanes may differ.
Value *one_address(Value *pointers, Instruction *at)
{
    if (Value *p = getSplatValue(pointers))
        return p;
    // A vector GEP of a scalar base (or a splat) and splat indices.
    auto *gep = dyn_cast<GetElementPtrInst>(pointers);
    if (!gep)
        return nullptr;
    SmallVector<Value *, 4> scalars;
    for (Value *op : gep->operands()) {
        Value *s = op->getType()->isVectorTy() ? getSplatValue(op) : op;
        if (!s)
            return nullptr;
        scalars.push_back(s);
    }
    IRBuilder<> b(at);
    return b.CreateGEP(gep->getSourceElementType(), scalars[0], ArrayRef(scalars).drop_front(),
                       gep->getName() + ".one", gep->isInBounds());
}

void rewrite_gather(IntrinsicInst *gather, Value *address)
{
    Value *mask = gather->getArgOperand(2), *passthru = gather->getArgOperand(3);
    auto align = cast<ConstantInt>(gather->getArgOperand(1))->getAlignValue();
    auto *type = cast<FixedVectorType>(gather->getType());
    IRBuilder<> b(gather);
    Value *any = b.CreateOrReduce(mask);
    Instruction *then = SplitBlockAndInsertIfThen(any, gather->getIterator(), false);
    b.SetInsertPoint(then);
    LoadInst *load = b.CreateAlignedLoad(type->getElementType(), address, align,
                                         gather->getName() + ".one");
    load->copyMetadata(*gather);
    b.SetInsertPoint(gather);
    PHINode *value = b.CreatePHI(type->getElementType(), 2);
    value->addIncoming(load, then->getParent());
    value->addIncoming(PoisonValue::get(type->getElementType()),
                       then->getParent()->getSinglePredecessor());
    Value *all = b.CreateVectorSplat(type->getNumElements(), value);
    gather->replaceAllUsesWith(b.CreateSelect(mask, all, passthru));
    gather->eraseFromParent();
}

void rewrite_scatter(IntrinsicInst *scatter, Value *address)
{
    Value *values = scatter->getArgOperand(0), *mask = scatter->getArgOperand(3);
    auto align = cast<ConstantInt>(scatter->getArgOperand(2))->getAlignValue();
    unsigned lanes = cast<FixedVectorType>(mask->getType())->getNumElements();
    IRBuilder<> b(scatter);
    Value *any = b.CreateOrReduce(mask);
    Instruction *then = SplitBlockAndInsertIfThen(any, scatter->getIterator(), false);
    b.SetInsertPoint(then);
    // The last active lane: the highest set bit of the mask.
    Value *bits = b.CreateBitCast(mask, b.getIntNTy(lanes));
    Value *zeros = b.CreateBinaryIntrinsic(Intrinsic::ctlz, bits, b.getTrue());
    Value *last = b.CreateSub(b.getIntN(lanes, lanes - 1), zeros);
    StoreInst *store = b.CreateAlignedStore(b.CreateExtractElement(values, last), address, align);
    store->copyMetadata(*scatter);
    scatter->eraseFromParent();
}

} // namespace

PreservedAnalyses UniformGathersPass::run(Function &f, FunctionAnalysisManager &)
{
    SmallVector<IntrinsicInst *, 8> calls;
    for (BasicBlock &b : f)
        for (Instruction &i : b)
            if (auto *ii = dyn_cast<IntrinsicInst>(&i);
                ii && (ii->getIntrinsicID() == Intrinsic::masked_gather ||
                       ii->getIntrinsicID() == Intrinsic::masked_scatter))
                calls.push_back(ii);
    bool changed = false;
    for (IntrinsicInst *call : calls) {
        bool gather = call->getIntrinsicID() == Intrinsic::masked_gather;
        Value *pointers = call->getArgOperand(gather ? 0 : 1);
        // Scalable vectors have no lane count to test.
        if (!isa<FixedVectorType>(pointers->getType()))
            continue;
        Value *address = one_address(pointers, call);
        if (!address)
            continue;
        if (gather)
            rewrite_gather(call, address);
        else
            rewrite_scatter(call, address);
        changed = true;
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
