// `ferrocl-host-calling-convention`: the module as the host's back end
// compiles it into a shared object. Kernels and functions lose SPIR's
// calling conventions (the C one is the host's); the program's own
// external definitions become internal (the entries are the shared
// object's interface, and internal functions inline and vanish); the
// target attributes clang gave go (the back end picks the host CPU); every
// definition forbids the builtins any of them forbids (no_builtins).
#include "passes.h"

#include <llvm/ADT/StringSet.h>

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

// The builtins some definition forbids ("no-builtin-printf", "no-builtins"),
// made forbidden in all. LLVM's inliner inlines a callee only into a
// caller that forbids at least what the callee forbids
// (TargetLibraryInfo::areInlineCompatible), and the entries the passes
// write forbid nothing: clang's OpenCL functions all say
// "no-builtin-printf", so a kernel's helper functions stayed calls in its
// work-group entry (SHOC's stencil2d called ToFlatHaloedIdx through the
// PLT in its hot loop, unvectorized). Forbidding more only keeps LLVM
// from turning a call into a library call it thinks equivalent.
void no_builtins(Module &m)
{
    StringSet<> forbidden;
    for (Function &f : m)
        if (!f.isDeclaration())
            for (Attribute a : f.getAttributes().getFnAttrs())
                if (a.isStringAttribute() && a.getKindAsString().starts_with("no-builtin"))
                    forbidden.insert(a.getKindAsString());
    for (Function &f : m)
        if (!f.isDeclaration())
            for (const auto &key : forbidden)
                f.addFnAttr(key.getKey());
}

// The program's own definitions, not ferrocl's (hidden ones, for the
// builtins linked in later: local_variable_test.cpp): external ones and
// C99 `inline` ones (linkonce_odr), which would otherwise be exported and
// called through the PLT.
bool programs_own(const Function &f)
{
    return !f.isDeclaration() && f.isDSOLocal() && f.hasDefaultVisibility() &&
           (f.hasExternalLinkage() || f.hasLinkOnceODRLinkage() || f.hasWeakODRLinkage());
}

} // namespace

PreservedAnalyses HostCallingConventionPass::run(Module &m, ModuleAnalysisManager &)
{
    for (Function &f : m) {
        if (is_spir(f.getCallingConv()))
            f.setCallingConv(CallingConv::C);
        for (const char *a : TARGET_ATTRIBUTES)
            f.removeFnAttr(a);
        if (programs_own(f)) {
            f.setLinkage(GlobalValue::InternalLinkage);
            f.setComdat(nullptr);
        }
        for (Instruction &i : instructions(f))
            if (auto *call = dyn_cast<CallBase>(&i)) {
                if (is_spir(call->getCallingConv()))
                    call->setCallingConv(CallingConv::C);
                for (const char *a : TARGET_ATTRIBUTES)
                    call->removeFnAttr(a);
            }
    }
    no_builtins(m);
    return PreservedAnalyses::none();
}

} // namespace ferrocl
