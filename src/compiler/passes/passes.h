// ferrocl's own LLVM passes, one per file, each registered with the new
// PassBuilder under the name it has in a pipeline string (registry.cpp).
#pragma once

#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>

namespace ferrocl {

// Every pass below, by name, for `PassBuilder::parsePassPipeline`.
void register_passes(llvm::PassBuilder &pb);

// `ferrocl-inline-definitions`: C99 inline definitions link
// (inline_definitions.cpp).
struct InlineDefinitionsPass : llvm::PassInfoMixin<InlineDefinitionsPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-opt-disable`: -cl-opt-disable's optnone on every function
// (opt_disable.cpp).
struct OptDisablePass : llvm::PassInfoMixin<OptDisablePass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-guard-division`: integer division that cannot trap
// (guard_division.cpp).
struct GuardDivisionPass : llvm::PassInfoMixin<GuardDivisionPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-exact-division`: relaxed-math divides by run-time values keep
// their precision (exact_division.cpp).
struct ExactDivisionPass : llvm::PassInfoMixin<ExactDivisionPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-drop-kernel-arg-names` and `ferrocl-flush-denormals`: build
// options recorded on the kernels (kernel_options.cpp).
struct DropKernelArgNamesPass : llvm::PassInfoMixin<DropKernelArgNamesPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

struct FlushDenormalsPass : llvm::PassInfoMixin<FlushDenormalsPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-thread-local-locals`: one copy of each __local variable per
// worker thread (thread_local_locals.cpp).
struct ThreadLocalLocalsPass : llvm::PassInfoMixin<ThreadLocalLocalsPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

} // namespace ferrocl
