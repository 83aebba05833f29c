// `ferrocl-work-group-entries`: each kernel without barriers whose
// work-item functions can become loop variables (kernel_calls.h loop_safe)
// gets a work-group entry, `__ferrocl_wg_K`, that runs its work-group copy
// for every local id of the group, z outermost, x innermost; the x loop is
// parallel (parallel_access.h), so LLVM vectorizes it across work-items.
// Kernels that already have one (region_entries.cpp) are left alone.
#include "kernel_abi.h"
#include "kernel_calls.h"
#include "kernel_symbols.h"
#include "passes.h"
#include "work_group_copy.h"

#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

namespace {

void add_group_entry(Function &kernel)
{
    ParallelAccess access(kernel.getContext());
    Function *copy = work_group_copy(kernel, access);
    IRBuilder<> b(kernel.getContext());
    GroupEntryStart start = start_group_entry(kernel, b);
    Function *entry = start.entry.entry;
    LLVMContext &ctx = kernel.getContext();
    BasicBlock *head = b.GetInsertBlock();
    auto *z = BasicBlock::Create(ctx, "z", entry), *y = BasicBlock::Create(ctx, "y", entry),
         *x = BasicBlock::Create(ctx, "x", entry),
         *y_latch = BasicBlock::Create(ctx, "y.latch", entry),
         *z_latch = BasicBlock::Create(ctx, "z.latch", entry),
         *done = BasicBlock::Create(ctx, "done", entry);
    b.CreateCondBr(start.empty, done, z);
    Type *i64 = b.getInt64Ty();
    b.SetInsertPoint(z);
    PHINode *lz = b.CreatePHI(i64, 2, "lz");
    b.CreateBr(y);
    b.SetInsertPoint(y);
    PHINode *ly = b.CreatePHI(i64, 2, "ly");
    b.CreateBr(x);
    b.SetInsertPoint(x);
    PHINode *lx = b.CreatePHI(i64, 2, "lx");
    SmallVector<Value *, 16> args(start.entry.arguments.begin(), start.entry.arguments.end());
    args.append({start.twin_context, lx, ly, lz});
    call_copy(b, kernel, copy, args);
    Value *lx_next = b.CreateNUWAdd(lx, b.getInt64(1), "lx.next");
    Value *x_more = b.CreateICmpULT(lx_next, start.local_size[0], "x.more");
    b.CreateCondBr(x_more, x, y_latch)->setMetadata(LLVMContext::MD_loop, access.loop_metadata());
    b.SetInsertPoint(y_latch);
    Value *ly_next = b.CreateNUWAdd(ly, b.getInt64(1), "ly.next");
    b.CreateCondBr(b.CreateICmpULT(ly_next, start.local_size[1], "y.more"), y, z_latch);
    b.SetInsertPoint(z_latch);
    Value *lz_next = b.CreateNUWAdd(lz, b.getInt64(1), "lz.next");
    b.CreateCondBr(b.CreateICmpULT(lz_next, start.local_size[2], "z.more"), z, done);
    b.SetInsertPoint(done);
    b.CreateRetVoid();
    lz->addIncoming(b.getInt64(0), head);
    lz->addIncoming(lz_next, z_latch);
    ly->addIncoming(b.getInt64(0), z);
    ly->addIncoming(ly_next, y_latch);
    lx->addIncoming(b.getInt64(0), y);
    lx->addIncoming(lx_next, x);
}

} // namespace

PreservedAnalyses WorkGroupEntriesPass::run(Module &m, ModuleAnalysisManager &)
{
    SmallVector<Function *, 8> kernels;
    for (Function &f : m)
        if (is_kernel(f) && !f.isDeclaration() &&
            !m.getFunction((GROUP_ENTRY_PREFIX + f.getName()).str()) && !uses_barriers(f) &&
            loop_safe(f))
            kernels.push_back(&f);
    for (Function *k : kernels)
        add_group_entry(*k);
    return kernels.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

} // namespace ferrocl
