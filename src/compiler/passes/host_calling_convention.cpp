// `ferrocl-host-calling-convention`: the module as the host's back end
// compiles it into a shared object. Kernels and functions lose SPIR's
// calling conventions (the C one is the host's); the program's own
// external definitions become internal (the entries are the shared
// object's interface, and internal functions inline and vanish); the
// target attributes clang gave go (the back end picks the host CPU).
#include "passes.h"

#include <llvm/IR/InstIterator.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

namespace {

bool is_spir(CallingConv::ID cc)
{
    return cc == CallingConv::SPIR_FUNC || cc == CallingConv::SPIR_KERNEL;
}

const char *TARGET_ATTRIBUTES[] = {"target-cpu", "target-features", "tune-cpu"};

} // namespace

PreservedAnalyses HostCallingConventionPass::run(Module &m, ModuleAnalysisManager &)
{
    for (Function &f : m) {
        if (is_spir(f.getCallingConv()))
            f.setCallingConv(CallingConv::C);
        for (const char *a : TARGET_ATTRIBUTES)
            f.removeFnAttr(a);
        // The program's own (dso_local, default visibility); ferrocl's hidden
        // definitions stay, for the builtins linked in later
        // (local_variable_test.cpp).
        if (!f.isDeclaration() && f.hasExternalLinkage() && f.isDSOLocal() &&
            f.hasDefaultVisibility())
            f.setLinkage(GlobalValue::InternalLinkage);
        for (Instruction &i : instructions(f))
            if (auto *call = dyn_cast<CallBase>(&i)) {
                if (is_spir(call->getCallingConv()))
                    call->setCallingConv(CallingConv::C);
                for (const char *a : TARGET_ATTRIBUTES)
                    call->removeFnAttr(a);
            }
    }
    return PreservedAnalyses::none();
}

} // namespace ferrocl
