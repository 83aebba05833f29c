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
//   stay calls keep barriers out of the kernel's own regions;
// - printf's variadic arguments promoted as C promotes them (float and
//   half to double, integers narrower than int to int), as clang passes
//   them and the builtins' printf reads them: the translator passes
//   OpenCL.std printf's operands as they are (a float printed as a double
//   read 0x40000000 as 5.3e-315).
#include "passes.h"

#include <llvm/IR/IRBuilder.h>
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

// C's default argument promotions on the variadic arguments of a call of
// printf. Signed extension for narrow integers: %hhu and %hu convert back
// to the narrow type, so only the low bits count.
bool promote_printf_arguments(CallBase &call)
{
    const Function *callee = call.getCalledFunction();
    if (!callee || callee->getName() != "printf" || !callee->isVarArg())
        return false;
    bool changed = false;
    IRBuilder<> b(&call);
    for (unsigned i = callee->getFunctionType()->getNumParams(); i < call.arg_size(); i++) {
        Value *arg = call.getArgOperand(i);
        Type *t = arg->getType();
        Value *promoted = nullptr;
        if (t->isHalfTy() || t->isFloatTy())
            promoted = b.CreateFPExt(arg, b.getDoubleTy());
        else if (t->isIntegerTy() && t->getIntegerBitWidth() < 32)
            promoted = b.CreateSExt(arg, b.getInt32Ty());
        if (promoted) {
            call.setArgOperand(i, promoted);
            changed = true;
        }
    }
    return changed;
}

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
            if (auto *call = dyn_cast<CallBase>(&i)) {
                if (as_c(call->getCallingConv()))
                    call->setCallingConv(CallingConv::C);
                promote_printf_arguments(*call);
            }
    }
    return PreservedAnalyses::none();
}

} // namespace ferrocl
