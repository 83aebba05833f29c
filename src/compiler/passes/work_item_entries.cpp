// `ferrocl-work-item-entries`: each kernel gets `__ferrocl_wi_K(args,
// ctx)`, which runs it for the one work-item the context names (the
// executor calls it per work-item, on a fiber when the kernel waits). A
// kernel with a work-group entry is never run so: its work-item entry only
// traps, and stays for its address, by which the runtime knows a kernel a
// block enqueues (block_kernel_entries.cpp); compiling such bodies twice
// cost a sixth of the back end's time. `ferrocl-all-work-item-entries`
// gives every kernel a real one (tests compare the two entries).
#include "kernel_abi.h"
#include "kernel_symbols.h"
#include "passes.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

PreservedAnalyses WorkItemEntriesPass::run(Module &m, ModuleAnalysisManager &)
{
    SmallVector<Function *, 8> kernels;
    for (Function &f : m)
        if (is_kernel(f) && !f.isDeclaration())
            kernels.push_back(&f);
    for (Function *k : kernels) {
        std::string name = (WORK_ITEM_ENTRY_PREFIX + k->getName()).str();
        bool grouped = m.getFunction((GROUP_ENTRY_PREFIX + k->getName()).str());
        if (grouped && !all) {
            LLVMContext &ctx = m.getContext();
            Type *ptr = PointerType::get(ctx, 0);
            auto *type = FunctionType::get(Type::getVoidTy(ctx), {ptr, ptr}, false);
            Function *entry = Function::Create(type, GlobalValue::ExternalLinkage, name, m);
            entry->getArg(0)->setName("args");
            entry->getArg(1)->setName("ctx");
            IRBuilder<> b(BasicBlock::Create(ctx, "entry", entry));
            b.CreateCall(Intrinsic::getDeclaration(&m, Intrinsic::trap));
            b.CreateUnreachable();
            continue;
        }
        EntryStart start = start_entry(*k, name, false);
        IRBuilder<> b(&start.entry->getEntryBlock());
        CallInst *call = call_copy(b, *k, k, start.arguments);
        call->setCallingConv(k->getCallingConv());
        b.CreateRetVoid();
    }
    return kernels.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

} // namespace ferrocl
