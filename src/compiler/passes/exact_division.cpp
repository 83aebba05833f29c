// A relaxed-math divide by a run-time value stays a true division.
//
// Its `arcp` flag (from -cl-fast-relaxed-math or
// -cl-unsafe-math-optimizations, also part of `fast`) is dropped: with
// `arcp`, LLVM's x86 back end divides 128- and 256-bit vectors through a
// 12-bit reciprocal estimate refined once, which is off by up to 3 ulp,
// while the relaxed bound for `x / y` is 2.5 ulp (OpenCL C 3.0, 7.4, "x / y"
// with -cl-unsafe-math-optimizations). A divide by a constant keeps `arcp`:
// it becomes x * (1/c), within 1.5 ulp.
#include "passes.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

PreservedAnalyses ExactDivisionPass::run(Module &m, ModuleAnalysisManager &)
{
    bool changed = false;
    for (Function &f : m)
        for (Instruction &i : instructions(f))
            if (i.getOpcode() == Instruction::FDiv && i.hasAllowReciprocal() &&
                !isa<Constant>(i.getOperand(1))) {
                i.setHasAllowReciprocal(false);
                changed = true;
            }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
