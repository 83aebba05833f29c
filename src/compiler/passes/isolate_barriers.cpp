// `ferrocl-isolate-barriers`: every plain barrier call alone in a block of
// its own (`__fcl.bar.N`, followed by `__fcl.post.N`), where the region
// transform cuts the kernel. After inlining (the inliner merges blocks, so
// this cannot come earlier) and before values are demoted to memory.
#include "kernel_symbols.h"
#include "passes.h"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

PreservedAnalyses IsolateBarriersPass::run(Module &m, ModuleAnalysisManager &)
{
    unsigned n = 0;
    for (Function &f : m) {
        SmallVector<Instruction *, 8> barriers;
        for (BasicBlock &b : f)
            for (Instruction &i : b)
                if (calls_plain_barrier(i))
                    barriers.push_back(&i);
        for (Instruction *barrier : barriers) {
            Twine number(n++);
            BasicBlock *alone = barrier->getParent()->splitBasicBlock(barrier, "__fcl.bar." + number);
            alone->splitBasicBlock(barrier->getNextNode(), "__fcl.post." + number);
        }
    }
    return n ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
