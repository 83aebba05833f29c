// `ferrocl-align-stack-for-vector-calls`: a function that calls a function
// on vectors (after the loop vectorizer: libmvec's sin, exp, ...) aligns
// its stack to a cache line.
//
// Why: every vector register is caller-saved, so the vectors a work-item
// loop keeps across such a call are spilled and reloaded around it, with
// unaligned moves into a frame only as aligned as its caller left it
// (16 bytes). Where the runtime's thread left the frame, 64-byte spills
// split cache lines or not: PyOpenCL's `exp(-x*x) * sin(3*x)` ran at
// 600 or at 1,500 us from one build of the runtime to the next, Parboil's
// mri-q (sin and cos) at 750 or 1,200. Aligned, the spills never split.
// Only such functions: realigning takes the frame pointer's register,
// which SHA-256's rounds, calling nothing, ran 10 % slower without.
// The back end runs it at the end of its -O3 pipeline.
#include "passes.h"

#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>

using namespace llvm;

namespace ferrocl {

namespace {

bool calls_on_vectors(const Function &f)
{
    for (const Instruction &i : instructions(f)) {
        const auto *call = dyn_cast<CallBase>(&i);
        if (!call || isa<IntrinsicInst>(call))
            continue;
        if (call->getType()->isVectorTy())
            return true;
        for (const Value *arg : call->args())
            if (arg->getType()->isVectorTy())
                return true;
    }
    return false;
}

} // namespace

PreservedAnalyses AlignStackForVectorCallsPass::run(Function &f, FunctionAnalysisManager &)
{
    if (f.hasFnAttribute(Attribute::StackAlignment) || !calls_on_vectors(f))
        return PreservedAnalyses::all();
    f.addFnAttr(Attribute::getWithStackAlignment(f.getContext(), Align(64)));
    // An attribute for the code generator: no analysis looks at it.
    return PreservedAnalyses::all();
}

} // namespace ferrocl
