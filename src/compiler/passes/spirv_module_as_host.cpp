// `ferrocl-spirv-module-as-host`: a module the SPIR-V translator made
// (llvm-spirv reading a program created with clCreateProgramWithIL) made
// like the one clang's front end makes of OpenCL C for the host, which is
// what every later pass and the back end expect:
// - the host's triple and data layout instead of SPIR's (`spir64`): the
//   front end's own (driver.rs), so that the builtins link without a
//   mismatch and the back end compiles for the host;
// - functions and calls in the C calling convention, as clang gives every
//   OpenCL function but kernels: the translator declares the builtins
//   `spir_func`, the builtins library defines them in C's, and a call
//   whose convention differs from its callee's is undefined (LLVM turns it
//   into `unreachable`);
// - every function `convergent`, as clang marks OpenCL's (a helper that
//   holds a barrier must not be duplicated or moved across control flow);
// - no `noinline` or `optnone`: SPIR-V's DontInline is a hint, which
//   producers compiling at -O0 put on every function, and helpers that
//   stay calls keep barriers out of the kernel's own regions.
#include "passes.h"

#include <llvm/IR/InstIterator.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>

using namespace llvm;

namespace ferrocl {

namespace {

// The front end's target (driver.rs, front_end).
const char *HOST_TRIPLE = "x86_64-unknown-linux-gnu";

// SPIR's function convention becomes C's; kernels keep theirs, as clang
// leaves them.
bool as_c(CallingConv::ID cc) { return cc == CallingConv::SPIR_FUNC; }

} // namespace

PreservedAnalyses SpirvModuleAsHostPass::run(Module &m, ModuleAnalysisManager &)
{
    std::string err;
    const Target *target = TargetRegistry::lookupTarget(HOST_TRIPLE, err);
    if (target) {
        std::unique_ptr<TargetMachine> tm(target->createTargetMachine(
            HOST_TRIPLE, "", "", TargetOptions(), std::nullopt));
        if (tm)
            m.setDataLayout(tm->createDataLayout());
    }
    m.setTargetTriple(HOST_TRIPLE);
    for (Function &f : m) {
        if (as_c(f.getCallingConv()))
            f.setCallingConv(CallingConv::C);
        if (f.isIntrinsic())
            continue;
        f.removeFnAttr(Attribute::NoInline);
        f.removeFnAttr(Attribute::OptimizeNone);
        f.addFnAttr(Attribute::Convergent);
        for (Instruction &i : instructions(f))
            if (auto *call = dyn_cast<CallBase>(&i))
                if (as_c(call->getCallingConv()))
                    call->setCallingConv(CallingConv::C);
    }
    return PreservedAnalyses::none();
}

} // namespace ferrocl
