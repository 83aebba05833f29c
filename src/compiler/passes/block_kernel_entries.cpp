// `ferrocl-block-kernel-entries`: device-side enqueue finds a block's
// kernel by its work-item entry. For each block a kernel enqueues, clang
// emits a kernel of its own, `__<parent>_block_invoke[_N]_kernel(block
// literal, __local pointers...)`, and passes its address to
// `__enqueue_kernel_*` (and `__get_kernel_*`); every such use of the
// kernel's address becomes its work-item entry's
// (`Executable::kernel_of_entry` maps it back). The entry's own call stays.
#include "kernel_abi.h"
#include "kernel_symbols.h"
#include "passes.h"

#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

PreservedAnalyses BlockKernelEntriesPass::run(Module &m, ModuleAnalysisManager &)
{
    bool changed = false;
    for (Function &f : m) {
        if (!is_kernel(f) || !is_block_kernel(f.getName()))
            continue;
        Function *entry = m.getFunction((WORK_ITEM_ENTRY_PREFIX + f.getName()).str());
        if (!entry)
            continue;
        f.replaceUsesWithIf(entry, [](Use &u) {
            auto *call = dyn_cast<CallBase>(u.getUser());
            return !(call && call->isCallee(&u));
        });
        changed = true;
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
