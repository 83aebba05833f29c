// `ferrocl-scalarize-kernels`: the region pipeline's last step but one,
// LLVM's scalarizer on each function, except wide vector code for the
// host's registers (wide_vector_code.h).
//
// Why: the work-item loops the regions become vectorize scalar code only,
// so a float4 is split into four values, each a vector of work-items once
// vectorized. A kernel whose work is on float8s or float16s already fills
// the host's registers with one work-item; split, each of its vector loads
// becomes gathers or a deinterleaving of many work-items' vectors (clpeak's
// global_bandwidth_v16: 768 gathers in its loop, 4x slower than PoCL).
#include "passes.h"
#include "wide_vector_code.h"

#include <llvm/IR/Function.h>
#include <llvm/Transforms/Scalar/Scalarizer.h>

using namespace llvm;

namespace ferrocl {

PreservedAnalyses ScalarizeKernelsPass::run(Function &f, FunctionAnalysisManager &fam)
{
    if (f.isDeclaration())
        return PreservedAnalyses::all();
    SmallVector<const BasicBlock *, 32> blocks;
    for (const BasicBlock &b : f)
        blocks.push_back(&b);
    if (is_wide_vector_code(blocks, host_vector_bits()))
        return PreservedAnalyses::all();
    ScalarizerPassOptions options;
    options.ScalarizeLoadStore = true;
    return ScalarizerPass(options).run(f, fam);
}

} // namespace ferrocl
