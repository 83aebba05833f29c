// `ferrocl-collective-waits-as-barriers`: a work-group function's wait
// (`__ferrocl_collective_wait(0)`, builtins/lib/collective.cl), inlined into
// a kernel, becomes a barrier of the kernel: collective.cl keeps its values
// in the group's scratch, so the region transform may cut the kernel there
// like at any barrier. Sub-group waits (other arguments) stay: those
// kernels run on fibers.
#include "kernel_symbols.h"
#include "passes.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

PreservedAnalyses CollectiveWaitsAsBarriersPass::run(Module &m, ModuleAnalysisManager &)
{
    Function *wait = m.getFunction(COLLECTIVE_WAIT);
    if (!wait)
        return PreservedAnalyses::all();
    SmallVector<CallInst *, 8> calls;
    for (User *u : wait->users())
        if (auto *call = dyn_cast<CallInst>(u))
            if (call->getCalledOperand() == wait && call->arg_size() == 1)
                if (auto *group = dyn_cast<ConstantInt>(call->getArgOperand(0)))
                    if (group->isZero())
                        calls.push_back(call);
    if (calls.empty())
        return PreservedAnalyses::all();
    LLVMContext &ctx = m.getContext();
    Type *i32 = Type::getInt32Ty(ctx);
    FunctionCallee barrier =
        m.getOrInsertFunction(BARRIER, FunctionType::get(Type::getVoidTy(ctx), {i32}, false));
    auto *callee = cast<Function>(barrier.getCallee());
    for (CallInst *call : calls) {
        // CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE
        CallInst *b = CallInst::Create(barrier, {ConstantInt::get(i32, 3)}, "", call->getIterator());
        b->setCallingConv(callee->getCallingConv());
        b->setDebugLoc(call->getDebugLoc());
        call->eraseFromParent();
    }
    return PreservedAnalyses::none();
}

} // namespace ferrocl
