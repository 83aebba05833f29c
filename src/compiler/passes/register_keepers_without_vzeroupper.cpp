// `ferrocl-register-keepers-without-vzeroupper`: a function that keeps
// every register for its callers (no_caller_saved_registers: the builtins
// library's fallbacks, gen_math.py) is compiled for the host without
// vzeroupper: its target attributes name the host's CPU and features (as
// the back end's -march=native does) less `vzeroupper`. The back end runs
// it at the end of its pipeline.
//
// Why: LLVM 19 saves and restores the whole of every vector register in
// such a function, then puts a vzeroupper before its return, which zeroes
// the upper halves it has just restored: its callers' live 256- and
// 512-bit values came back as their lower 128 bits (float sin(x) of a
// vector with one large x zeroed the other lanes' results).
#include "passes.h"
#include "wide_vector_code.h"

#include <llvm/IR/Function.h>
#include <llvm/TargetParser/Host.h>

using namespace llvm;

namespace ferrocl {

PreservedAnalyses RegisterKeepersWithoutVzeroupperPass::run(Function &f,
                                                            FunctionAnalysisManager &)
{
    if (f.isDeclaration() || !f.hasFnAttribute("no_caller_saved_registers"))
        return PreservedAnalyses::all();
    SubtargetFeatures features = host_features();
    features.AddFeature("vzeroupper", false);
    f.addFnAttr("target-cpu", sys::getHostCPUName());
    f.addFnAttr("target-features", features.getString());
    return PreservedAnalyses::none();
}

} // namespace ferrocl
