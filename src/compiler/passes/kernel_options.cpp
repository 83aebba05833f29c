// What a program's build options ask of its kernels that the compiler
// itself does not need, recorded on the kernels as function metadata
// (which survives clLinkProgram, so a linked kernel keeps what the compile
// that made it asked for):
// - `ferrocl-drop-kernel-arg-names`: without -cl-kernel-arg-info a kernel
//   has no `!kernel_arg_name` (clang always gets the option, since the
//   other argument metadata is the compiler's own input), so
//   clGetKernelArgInfo answers CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
// - `ferrocl-flush-denormals`: with -cl-denorms-are-zero a kernel gets
//   `!ferrocl.denorms_are_zero` (kernel_description.cpp reads it), and
//   the executor runs it with FTZ and DAZ.
#include "passes.h"

#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

PreservedAnalyses DropKernelArgNamesPass::run(Module &m, ModuleAnalysisManager &)
{
    for (Function &f : m)
        if (f.getCallingConv() == CallingConv::SPIR_KERNEL)
            f.setMetadata("kernel_arg_name", nullptr);
    // Metadata only: no analysis sees it.
    return PreservedAnalyses::all();
}

PreservedAnalyses FlushDenormalsPass::run(Module &m, ModuleAnalysisManager &)
{
    for (Function &f : m)
        if (f.getCallingConv() == CallingConv::SPIR_KERNEL && !f.isDeclaration())
            f.setMetadata("ferrocl.denorms_are_zero", MDNode::get(m.getContext(), {}));
    return PreservedAnalyses::all();
}

} // namespace ferrocl
