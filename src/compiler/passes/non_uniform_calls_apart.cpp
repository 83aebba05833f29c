// `ferrocl-non-uniform-calls-apart`: calls of the non-uniform sub-group
// functions (cl_khr_subgroup_non_uniform_vote, _ballot,
// _non_uniform_arithmetic) are never merged into one call, as the front
// end's module comes in.
//
// Why: such a function's active work-items are those that call it at the
// same call site together (the fiber executor gathers them by the call's
// return address, builtins/lib/collective.cl). `if (c) r = f(x); else
// r = f(x);` must give each branch's work-items their own answer, yet the
// two calls are alike, and LLVM's tail merging made them one call after
// the branch (convergent does not stop it): one answer for all. `nomerge`
// keeps them apart in the IR passes and in the back end.
#include "kernel_symbols.h"
#include "passes.h"

#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

namespace {

bool is_non_uniform_function(StringRef name)
{
    StringRef id = mangled_identifier(name);
    return id.starts_with("sub_group_non_uniform_") || id == "sub_group_elect" ||
           id == "sub_group_ballot" || id == "sub_group_broadcast_first";
}

} // namespace

PreservedAnalyses NonUniformCallsApartPass::run(Module &m, ModuleAnalysisManager &)
{
    bool changed = false;
    for (Function &f : m)
        for (Instruction &i : instructions(f))
            if (auto *call = dyn_cast<CallInst>(&i)) {
                const Function *callee = call->getCalledFunction();
                if (callee && is_non_uniform_function(callee->getName()) &&
                    !call->hasFnAttr(Attribute::NoMerge)) {
                    call->addFnAttr(Attribute::NoMerge);
                    changed = true;
                }
            }
    if (!changed)
        return PreservedAnalyses::all();
    PreservedAnalyses kept;
    kept.preserveSet<CFGAnalyses>();
    return kept;
}

} // namespace ferrocl
