// `ferrocl-uniform-counters`: in a kernel with barriers, the counters of
// the loops that contain a barrier (which every work-item runs the same
// number of times, as OpenCL requires) are named as uniform
// (UNIFORM_PREFIX) when every exit of the loop tests a uniform value, so
// that a region tests them once, not per work-item (a tree reduction's
// stride).
#include "group_uniformity.h"
#include "kernel_symbols.h"
#include "passes.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

PreservedAnalyses UniformCountersPass::run(Module &m, ModuleAnalysisManager &mam)
{
    auto &fam = mam.getResult<FunctionAnalysisManagerModuleProxy>(m).getManager();
    bool changed = false;
    for (Function &f : m) {
        if (f.isDeclaration() || !is_kernel(f))
            continue;
        bool barriers = false;
        for (const BasicBlock &b : f)
            barriers = barriers || has_plain_barrier(b);
        if (!barriers)
            continue;
        SmallVector<PHINode *, 8> counters;
        for (Loop *l : fam.getResult<LoopAnalysis>(f).getLoopsInPreorder())
            if (has_plain_barrier(*l))
                exits_uniformly(*l, counters);
        unsigned n = 0;
        for (PHINode *phi : counters)
            if (!phi->getName().starts_with(UNIFORM_PREFIX)) {
                phi->setName(Twine(UNIFORM_PREFIX) + Twine(n++));
                changed = true;
            }
    }
    // Names only.
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
