// -cl-opt-disable: "This option disables all optimizations".
//
// The front end compiles at -O2 with LLVM's passes disabled even for
// -cl-opt-disable, because at -O0 clang drops the bodies of C99 inline
// definitions (see inline_definitions.cpp). This pass then does what -O0
// would have: every defined function becomes `optnone noinline` (LLVM's
// passes and the back end skip such functions), except those that must be
// inlined (`always_inline`, which -O0 leaves alone too). Kernels so
// marked keep one fiber per work-item (region_entries.cpp leaves them whole).
#include "passes.h"

#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

PreservedAnalyses OptDisablePass::run(Module &m, ModuleAnalysisManager &)
{
    bool changed = false;
    for (Function &f : m) {
        if (f.isDeclaration() || f.hasFnAttribute(Attribute::AlwaysInline) ||
            f.hasFnAttribute(Attribute::OptimizeNone))
            continue;
        f.removeFnAttr(Attribute::InlineHint);
        f.addFnAttr(Attribute::NoInline);
        f.addFnAttr(Attribute::OptimizeNone);
        changed = true;
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
