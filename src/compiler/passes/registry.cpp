// ferrocl's passes by name, so that pipeline strings (driver.rs, the pass
// tests in passes/tests/) can use them beside LLVM's own.
#include "passes.h"

using namespace llvm;

namespace ferrocl {

namespace {

template <typename Pass> void add(ModulePassManager &mpm) { mpm.addPass(Pass()); }

// Each pass's name in a pipeline, and what adds it.
const struct {
    StringRef name;
    void (*add)(ModulePassManager &);
} PASSES[] = {
    {"ferrocl-inline-definitions", add<InlineDefinitionsPass>},
    {"ferrocl-guard-division", add<GuardDivisionPass>},
    {"ferrocl-exact-division", add<ExactDivisionPass>},
    {"ferrocl-thread-local-locals", add<ThreadLocalLocalsPass>},
    {"ferrocl-drop-kernel-arg-names", add<DropKernelArgNamesPass>},
    {"ferrocl-flush-denormals", add<FlushDenormalsPass>},
    {"ferrocl-opt-disable", add<OptDisablePass>},
};

} // namespace

void register_passes(PassBuilder &pb)
{
    pb.registerPipelineParsingCallback(
        [](StringRef name, ModulePassManager &mpm, ArrayRef<PassBuilder::PipelineElement>) {
            for (const auto &pass : PASSES)
                if (pass.name == name) {
                    pass.add(mpm);
                    return true;
                }
            return false;
        });
}

} // namespace ferrocl
