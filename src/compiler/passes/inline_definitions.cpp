// C99 inline definitions made to link.
//
// OpenCL C follows C99: a function declared `inline` (neither `static`
// nor `extern`) in every declaration of a translation unit has an inline
// definition, which provides no external definition. clang emits it as an
// `available_externally` function (or, at -O0, only a declaration), which
// a program with no other definition cannot link: "undefined function".
// OpenCL programs rely on such functions (headers of PyOpenCL, OpenCV,
// clFFT and others use plain `inline`), and every other OpenCL compiler
// links them. So an inline definition becomes `linkonce_odr`: kept where
// it is used, merged with the same definition in another program of a
// clLinkProgram, and replaced by an external definition (`extern inline`
// or a plain one) where one exists, which C99 allows ("it is unspecified
// whether a call uses the inline definition or the external definition").
#include "passes.h"

#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

PreservedAnalyses InlineDefinitionsPass::run(Module &m, ModuleAnalysisManager &)
{
    bool changed = false;
    for (Function &f : m) {
        if (f.hasAvailableExternallyLinkage() && !f.isDeclaration()) {
            f.setLinkage(GlobalValue::LinkOnceODRLinkage);
            changed = true;
        }
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
