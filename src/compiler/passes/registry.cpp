// ferrocl's passes by name, so that pipeline strings (driver.rs, the pass
// tests in passes/tests/) can use them beside LLVM's own.
#include "passes.h"

using namespace llvm;

namespace ferrocl {

void register_passes(PassBuilder &pb)
{
    pb.registerPipelineParsingCallback(
        [](StringRef name, ModulePassManager &mpm, ArrayRef<PassBuilder::PipelineElement>) {
            if (name == "ferrocl-inline-definitions") {
                mpm.addPass(InlineDefinitionsPass());
                return true;
            }
            if (name == "ferrocl-guard-division") {
                mpm.addPass(GuardDivisionPass());
                return true;
            }
            if (name == "ferrocl-exact-division") {
                mpm.addPass(ExactDivisionPass());
                return true;
            }
            if (name == "ferrocl-drop-kernel-arg-names") {
                mpm.addPass(DropKernelArgNamesPass());
                return true;
            }
            if (name == "ferrocl-flush-denormals") {
                mpm.addPass(FlushDenormalsPass());
                return true;
            }
            if (name == "ferrocl-opt-disable") {
                mpm.addPass(OptDisablePass());
                return true;
            }
            return false;
        });
}

} // namespace ferrocl
