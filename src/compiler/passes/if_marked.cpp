// `ferrocl-if-regions(<pipeline>)` and `ferrocl-if-unrolling(<pipeline>)`:
// <pipeline> runs only on a module that the pass before marked with named
// metadata: `ferrocl-inline-into-kernels` when the module has kernels to
// cut into regions (the passes that prepare them: isolated barriers,
// values demoted to memory), `ferrocl-mark-loops-for-unrolling` when it
// marked loops (loop-unroll). The mark is removed either way.
#include "passes.h"

#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

PreservedAnalyses IfMarkedPass::run(Module &m, ModuleAnalysisManager &mam)
{
    NamedMDNode *marked = m.getNamedMetadata(mark);
    if (!marked)
        return PreservedAnalyses::all();
    m.eraseNamedMetadata(marked);
    PreservedAnalyses preserved = inner.run(m, mam);
    preserved.intersect(PreservedAnalyses::none());
    return preserved;
}

} // namespace ferrocl
