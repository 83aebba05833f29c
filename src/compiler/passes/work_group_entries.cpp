// `ferrocl-work-group-entries`: each kernel without barriers whose
// work-item functions can become loop variables (kernel_calls.h loop_safe)
// gets a work-group entry, `__ferrocl_wg_K`, that runs its work-group copy
// for the local ids of the context's [items_begin, items_end) (within the
// group: abi.rs WorkGroupContext::items_begin), z
// outermost, x innermost, unless the kernel's memory is contiguous along y
// or z (contiguous_dimension.h): then that dimension's loop is innermost,
// and the entry says so to the runtime (INNER_DIMENSION_ATTRIBUTE). The
// innermost loop is parallel (parallel_access.h), so LLVM vectorizes it
// across work-items. Kernels that already have one (region_entries.cpp)
// are left alone.
//
// The range is the whole group, or one piece of it: an entry marked
// SPLITTABLE_ATTRIBUTE may run a group in pieces on several threads at once
// (sched/ndrange.rs), when its work-items cannot tell (kernel_calls.h
// may_run_in_pieces).
//
// Why: PolyBench's correlation has two groups of 256 work-items, the first
// with 3/4 of the work (its loops are triangular); whole groups on two
// cores took 3/4 of the serial time, and on 16 cores 14 of them idled.
#include "contiguous_dimension.h"
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
    // Read on the kernel's own body, before the copy.
    unsigned inner = contiguous_dimension(kernel);
    bool pieces = may_run_in_pieces(kernel);
    ParallelAccess access(kernel.getContext());
    Function *copy = work_group_copy(kernel, access);
    IRBuilder<> b(kernel.getContext());
    GroupEntryStart start = start_group_entry(kernel, b);
    Function *entry = start.entry.entry;
    if (inner != 0)
        entry->addFnAttr(INNER_DIMENSION_ATTRIBUTE, std::to_string(inner));
    if (pieces)
        entry->addFnAttr(SPLITTABLE_ATTRIBUTE);
    LLVMContext &ctx = kernel.getContext();
    Type *i64 = b.getInt64Ty();
    ItemRange range = load_item_range(b, start);
    Value *const *begin = range.begin, *const *end = range.end;
    BasicBlock *head = b.GetInsertBlock();
    // The dimensions from the outermost loop in: `inner` last, the others
    // z before y before x.
    const unsigned order[3][3] = {{2, 1, 0}, {2, 0, 1}, {1, 0, 2}};
    const unsigned *dims = order[inner];
    const std::string names[3] = {"x", "y", "z"};
    BasicBlock *heads[3], *latches[2];
    for (unsigned level = 0; level < 3; level++)
        heads[level] = BasicBlock::Create(ctx, names[dims[level]], entry);
    for (unsigned level = 2; level-- > 0;)
        latches[level] = BasicBlock::Create(ctx, names[dims[level]] + ".latch", entry);
    BasicBlock *done = BasicBlock::Create(ctx, "done", entry);
    b.CreateCondBr(range.empty, done, heads[0]);
    PHINode *ids[3];
    for (unsigned level = 0; level < 3; level++) {
        b.SetInsertPoint(heads[level]);
        ids[dims[level]] = b.CreatePHI(i64, 2, "l" + names[dims[level]]);
        if (level < 2)
            b.CreateBr(heads[level + 1]);
    }
    SmallVector<Value *, 16> args(start.entry.arguments.begin(), start.entry.arguments.end());
    args.append({start.twin_context, ids[0], ids[1], ids[2]});
    call_copy(b, kernel, copy, args);
    Value *next[3];
    for (unsigned level = 3; level-- > 0;) {
        unsigned d = dims[level];
        if (level < 2)
            b.SetInsertPoint(latches[level]);
        next[d] = b.CreateNUWAdd(ids[d], b.getInt64(1), "l" + names[d] + ".next");
        Value *more = b.CreateICmpULT(next[d], end[d], names[d] + ".more");
        BasicBlock *out = level == 0 ? done : latches[level - 1];
        BranchInst *br = b.CreateCondBr(more, heads[level], out);
        // The innermost loop is the parallel one.
        if (level == 2)
            br->setMetadata(LLVMContext::MD_loop, access.loop_metadata());
    }
    b.SetInsertPoint(done);
    b.CreateRetVoid();
    ids[dims[0]]->addIncoming(begin[dims[0]], head);
    ids[dims[0]]->addIncoming(next[dims[0]], latches[0]);
    ids[dims[1]]->addIncoming(begin[dims[1]], heads[0]);
    ids[dims[1]]->addIncoming(next[dims[1]], latches[1]);
    ids[dims[2]]->addIncoming(begin[dims[2]], heads[1]);
    ids[dims[2]]->addIncoming(next[dims[2]], heads[2]);
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
