// `ferrocl-host-vector-width`: in the back end, first in its pipeline, every
// definition asks LLVM for vectors as wide as the host's registers
// (`"prefer-vector-width"`, host_vector_bits: 512 on an AVX-512 host).
//
// Why: LLVM tunes Intel's AVX-512 server cores (Skylake-SP to Sapphire
// Rapids) to prefer 256-bit vectors, for code that mixes a few vector loops
// with scalar work and would pay the cores' lower clock for 512-bit
// instructions everywhere. A kernel is all vector loop, and Intel's CPU
// runtime runs it on 512-bit registers. On a 2-core Ice Lake Xeon, at 256
// bits, clpeak's compute_integer_v8 ran at 0.19x of Intel's runtime (its
// int8 chains kept whole, one work-item at a time), compute_sp_v1 at
// half of what it runs at 512; the corpus ran 1.10x and 1.24x faster in
// its geometric mean at 512 (two sittings of interleaved rounds).
//
// The region pipeline, which compiles for a generic x86-64, and the back
// end's passes before the vectorizer take host_vector_bits for the width
// the vectorizer works with (wide_vector_code.h), so they decide alike.
#include "passes.h"
#include "wide_vector_code.h"

#include <llvm/IR/Module.h>

#include <string>

using namespace llvm;

namespace ferrocl {

PreservedAnalyses HostVectorWidthPass::run(Module &m, ModuleAnalysisManager &)
{
    std::string bits = std::to_string(host_vector_bits());
    bool changed = false;
    for (Function &f : m)
        if (!f.isDeclaration() && f.getFnAttribute("prefer-vector-width").getValueAsString() != bits) {
            f.addFnAttr("prefer-vector-width", bits);
            changed = true;
        }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
