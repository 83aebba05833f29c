// __local variables become thread-local.
//
// A kernel's __local variables (addrspace(3) globals) are one per
// work-group. One work-group runs on one worker thread at a time, and a
// worker runs one work-group at a time, so a thread-local copy per worker
// is a copy per running work-group, without any allocation per group.
#include "kernel_symbols.h"
#include "passes.h"

#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

PreservedAnalyses ThreadLocalLocalsPass::run(Module &m, ModuleAnalysisManager &)
{
    bool changed = false;
    for (GlobalVariable &g : m.globals())
        if (g.getAddressSpace() == LOCAL_ADDRESS_SPACE && !g.isThreadLocal()) {
            g.setThreadLocal(true);
            changed = true;
        }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
