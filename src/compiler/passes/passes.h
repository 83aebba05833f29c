// ferrocl's own LLVM passes, one per file, each registered with the new
// PassBuilder under the name it has in a pipeline string (registry.cpp).
#pragma once

#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>

namespace ferrocl {

// Every pass below, by name, for `PassBuilder::parsePassPipeline`.
void register_passes(llvm::PassBuilder &pb);

// The passes the back end's own pipeline runs (clang -O3 on the module made
// ready): `ferrocl-scalar-libm` at its start, `ferrocl-libmvec-avx512-variants`
// and `ferrocl-scalarize-work-item-loops` where the vectorizer starts,
// `ferrocl-chosen-operands-behind-branches`: a select of vectors on a
// scalar condition computes its true operand, when nothing else needs that
// work and there is enough of it, behind a branch on the condition
// (chosen_operands_behind_branches.cpp); the back end runs it after the
// loop vectorizer, at the end of its pipeline.
struct ChosenOperandsBehindBranchesPass : llvm::PassInfoMixin<ChosenOperandsBehindBranchesPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-uniform-gathers`, `ferrocl-skip-idle-masked-accesses` and
// `ferrocl-align-stack-for-vector-calls` at its end.
void add_back_end_passes(llvm::PassBuilder &pb);

// `ferrocl-inline-definitions`: C99 inline definitions link
// (inline_definitions.cpp).
struct InlineDefinitionsPass : llvm::PassInfoMixin<InlineDefinitionsPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-spirv-module-as-host`: the SPIR-V translator's module made like
// the front end's for the host (spirv_module_as_host.cpp).
struct SpirvModuleAsHostPass : llvm::PassInfoMixin<SpirvModuleAsHostPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-calls-as-defined`: calls of a definition of another function
// type (the SPIR-V translator's calls of the builtins, with SPIR's ABI)
// pass and return their values as the definition's C ABI does
// (calls_as_defined.cpp); the back end runs it first, after the link.
struct CallsAsDefinedPass : llvm::PassInfoMixin<CallsAsDefinedPass> {
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

// `ferrocl-known-address-space-casts`: to_global, to_local and to_private
// of a pointer whose address space the IR shows, answered in place
// (known_address_space_casts.cpp).
struct KnownAddressSpaceCastsPass : llvm::PassInfoMixin<KnownAddressSpaceCastsPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-local-volatiles-as-plain`: volatile accesses of __local memory
// as plain ones (local_volatiles_as_plain.cpp).
struct LocalVolatilesAsPlainPass : llvm::PassInfoMixin<LocalVolatilesAsPlainPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-progress-in-waiting-loops`: a loop that may wait for another
// work-item lets the group's others run each iteration
// (progress_in_waiting_loops.cpp).
struct ProgressInWaitingLoopsPass : llvm::PassInfoMixin<ProgressInWaitingLoopsPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-non-uniform-calls-apart`: calls of the non-uniform sub-group
// functions are never merged (non_uniform_calls_apart.cpp).
struct NonUniformCallsApartPass : llvm::PassInfoMixin<NonUniformCallsApartPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// The region pipeline (driver.rs REGIONS_PIPELINE), in its order.

// The named metadata by which `ferrocl-inline-into-kernels` tells
// `ferrocl-if-regions` that the module has kernels to cut into regions,
// and `ferrocl-mark-loops-for-unrolling` tells `ferrocl-if-unrolling` that
// it marked loops.
inline constexpr const char *REGIONS_METADATA = "ferrocl.regions";
inline constexpr const char *UNROLLING_METADATA = "ferrocl.unrolling";

// `ferrocl-inline-into-kernels`: what reaches a barrier or a work-item
// function becomes alwaysinline (inline_into_kernels.cpp).
struct InlineIntoKernelsPass : llvm::PassInfoMixin<InlineIntoKernelsPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-non-uniform-calls-together`: non-uniform sub-group functions
// called where the whole group runs together become collective waits
// (non_uniform_calls_together.cpp).
struct NonUniformCallsTogetherPass : llvm::PassInfoMixin<NonUniformCallsTogetherPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-if-regions(<pipeline>)`, `ferrocl-if-unrolling(<pipeline>)`:
// <pipeline> only on a module marked by the pass before (if_marked.cpp).
struct IfMarkedPass : llvm::PassInfoMixin<IfMarkedPass> {
    // The named metadata that marks the module.
    const char *mark;
    llvm::ModulePassManager inner;
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
    static bool isRequired() { return true; }
};

// `ferrocl-grid-stride-loops`: `for (i = start + lid; i < n; i += size)`
// with one counter for the group (grid_stride_loops.cpp).
struct GridStrideLoopsPass : llvm::PassInfoMixin<GridStrideLoopsPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-loops-out-of-guards`: uniform loops behind a work-item's bounds
// check run by all work-items, their bodies guarded (loops_out_of_guards.cpp).
struct LoopsOutOfGuardsPass : llvm::PassInfoMixin<LoopsOutOfGuardsPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-host-vector-width`: every definition prefers vectors as wide as
// the host's registers (host_vector_width.cpp); the back end runs it first.
struct HostVectorWidthPass : llvm::PassInfoMixin<HostVectorWidthPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-scalar-libm`: float log and double exp stay scalar glibc calls
// (scalar_libm.cpp); the back end runs it first.
struct ScalarLibmPass : llvm::PassInfoMixin<ScalarLibmPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-uniform-gathers`: masked gathers and scatters of one address as
// one load or store (uniform_gathers.cpp); the back end runs it after the
// loop vectorizer, at the end of its pipeline.
struct UniformGathersPass : llvm::PassInfoMixin<UniformGathersPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-uniform-loads-before-rows`: loads of one address in blocks a
// work-item loop runs in every iteration or in none, made before the loop
// (uniform_loads_before_rows.cpp); the back end runs it right before the
// loop vectorizer.
struct UniformLoadsBeforeRowsPass : llvm::PassInfoMixin<UniformLoadsBeforeRowsPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-uniform-ifs-as-selects`: an `if` on a condition a work-item
// loop does not change, around code that may run when it need not, runs
// its body in every iteration and selects on the condition after it
// (uniform_ifs_as_selects.cpp); the back end runs it right before the loop
// vectorizer.
struct UniformIfsAsSelectsPass : llvm::PassInfoMixin<UniformIfsAsSelectsPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-active-rows-unguarded`: work-item loops that skip work-items on
// a flag they load run, where every flag of the row is on, in a copy
// without the test (active_rows_unguarded.cpp); the back end runs it right
// before the loop vectorizer.
struct ActiveRowsUnguardedPass : llvm::PassInfoMixin<ActiveRowsUnguardedPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-local-atomics-as-plain`: atomics on __local memory as plain
// accesses (local_atomics_as_plain.cpp); the back end runs it at its end.
struct LocalAtomicsAsPlainPass : llvm::PassInfoMixin<LocalAtomicsAsPlainPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-full-masked-stores-as-stores`: on CPUs with slow masked stores
// (AMD before Zen 4), masked stores in loops stored plainly when every lane
// is on (full_masked_stores_as_stores.cpp); the back end runs it at its end.
struct FullMaskedStoresAsStoresPass : llvm::PassInfoMixin<FullMaskedStoresAsStoresPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-fold-tails-of-copies`: on AVX-512 hosts, work-item loops that
// only move memory run their last, partial vector under a mask
// (fold_tails_of_copies.cpp); the back end runs it where its vectorizer
// starts.
struct FoldTailsOfCopiesPass : llvm::PassInfoMixin<FoldTailsOfCopiesPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-strided-loops-scalar`: a kernel's own loop whose accesses would
// all be gathers and scatters, computing little, is kept scalar
// (strided_loops_scalar.cpp); the back end runs it before the vectorizer.
struct StridedLoopsScalarPass : llvm::PassInfoMixin<StridedLoopsScalarPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-address-ors-as-adds`: `or disjoint` of a constant that indexes
// memory as the `add nuw nsw` it equals, which the code generator folds
// into addresses (address_ors_as_adds.cpp); the back end runs it at its end.
struct AddressOrsAsAddsPass : llvm::PassInfoMixin<AddressOrsAsAddsPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-skip-idle-masked-accesses`: masked loads, stores, gathers and
// scatters in loops made only when some lane is active
// (skip_idle_masked_accesses.cpp); the back end runs it at its end.
struct SkipIdleMaskedAccessesPass : llvm::PassInfoMixin<SkipIdleMaskedAccessesPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-align-stack-for-vector-calls`: functions that call functions on
// vectors align their stack to a cache line (align_stack_for_vector_calls.cpp);
// the back end runs it at its end.
struct AlignStackForVectorCallsPass : llvm::PassInfoMixin<AlignStackForVectorCallsPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-branches-as-selects`: a branch whose two ways compute a little
// arithmetic and meet again as selects, before the region transform
// (branches_as_selects.cpp).
struct BranchesAsSelectsPass : llvm::PassInfoMixin<BranchesAsSelectsPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-power-of-two-remainders`: `x % p == 0` with p a power of two
// as `(x & (p - 1)) == 0`, before the region transform hides that p is
// one (power_of_two_remainders.cpp).
struct PowerOfTwoRemaindersPass : llvm::PassInfoMixin<PowerOfTwoRemaindersPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-small-copies-as-scalars`: a memcpy, memmove or memset of a few
// bytes in a work-item loop as scalar loads and stores, before the loop
// vectorizer (small_copies_as_scalars.cpp); the back end runs it.
struct SmallCopiesAsScalarsPass : llvm::PassInfoMixin<SmallCopiesAsScalarsPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-scalarize-work-item-loops`: the vector values of functions with
// work-item loops as scalars, after inlining and before the loop
// vectorizer (scalarize_work_item_loops.cpp); the back end runs it.
struct ScalarizeWorkItemLoopsPass : llvm::PassInfoMixin<ScalarizeWorkItemLoopsPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-counters-from-work-item-id`: a work-item loop's counters that
// step with its id are computed from the id, so that the loop carries
// nothing else (counters_from_work_item_id.cpp); the back end runs it where
// its vectorizer starts.
struct CountersFromWorkItemIdPass : llvm::PassInfoMixin<CountersFromWorkItemIdPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-interleave-work-items`: a work-item loop around an inner loop
// carrying a floating-point value runs LANES work-items at a time, their
// inner loops jammed into one (interleave_work_items.cpp); the back end runs
// it where its vectorizer starts.
struct InterleaveWorkItemsPass : llvm::PassInfoMixin<InterleaveWorkItemsPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-latency-bound-work-items`: an innermost work-item loop of one
// block on vectors of its own, whose work is a long chain of dependent
// floating-point steps, runs K work-items at a time, their instructions
// interleaved (latency_bound_work_items.cpp); the back end runs it where its
// vectorizer starts.
struct LatencyBoundWorkItemsPass : llvm::PassInfoMixin<LatencyBoundWorkItemsPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-latency-bound-rows`: an innermost work-item loop of scalar code
// whose work is a long chain of dependent floating-point steps is
// interleaved twice by the vectorizer where its row's length is a multiple
// of the interleaved step, once elsewhere (latency_bound_rows.cpp); the
// back end runs it where its vectorizer starts.
struct LatencyBoundRowsPass : llvm::PassInfoMixin<LatencyBoundRowsPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-bounds-checks-as-ranges`: an innermost work-item loop whose body
// starts with a bounds check on its own index runs only over the
// work-items that pass it, unchecked (bounds_checks_as_ranges.cpp); the
// back end runs it where its vectorizer starts.
struct BoundsChecksAsRangesPass : llvm::PassInfoMixin<BoundsChecksAsRangesPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-index-choices-as-ranges`: an innermost work-item loop whose
// addresses choose by a test of its index (`min(x + 1, w - 1)`, `(lid + 1)
// % lsize`) runs the work-items where every test chooses the index in a
// copy without the choices (index_choices_as_ranges.cpp); the back end
// runs it where its vectorizer starts.
struct IndexChoicesAsRangesPass : llvm::PassInfoMixin<IndexChoicesAsRangesPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-libmvec-avx512-variants`: float sin, cos, tan, exp and pow
// calls name glibc's 16-lane versions on AVX-512 hosts; the back end runs
// it where its vectorizer starts (libmvec_avx512_variants.cpp). With
// `any_host` (`ferrocl-libmvec-avx512-variants-any-host`, the pass tests)
// whatever the host's registers.
struct LibmvecAvx512VariantsPass : llvm::PassInfoMixin<LibmvecAvx512VariantsPass> {
    bool any_host = false;
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-fallback-vector-variants`: calls of the builtins library's
// fallbacks (fallback_calls.h) name masked vector variants; the back end
// runs it where its vectorizer starts (fallback_vector_variants.cpp).
struct FallbackVectorVariantsPass : llvm::PassInfoMixin<FallbackVectorVariantsPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-expand-fallback-variants`: the variants' calls as a test of the
// mask and scalar calls; the back end runs it at its end
// (expand_fallback_variants.cpp).
struct ExpandFallbackVariantsPass : llvm::PassInfoMixin<ExpandFallbackVariantsPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-register-keepers-without-vzeroupper`: functions that keep every
// register for their callers are compiled for the host without vzeroupper
// (register_keepers_without_vzeroupper.cpp); the back end runs it at its
// end.
struct RegisterKeepersWithoutVzeroupperPass
    : llvm::PassInfoMixin<RegisterKeepersWithoutVzeroupperPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-scalarize-kernels`: the region pipeline's scalarizer, which
// leaves wide vector code as it is (scalarize_kernels.cpp).
struct ScalarizeKernelsPass : llvm::PassInfoMixin<ScalarizeKernelsPass> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// `ferrocl-mark-loops-for-unrolling`: the loops that get implicit barriers
// unrolled first (mark_loops_for_unrolling.cpp).
struct MarkLoopsForUnrollingPass : llvm::PassInfoMixin<MarkLoopsForUnrollingPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-sub-group-ids-from-local-ids`: the sub-group queries computed
// from the local linear id and sizes (sub_group_ids_from_local_ids.cpp).
struct SubGroupIdsFromLocalIdsPass : llvm::PassInfoMixin<SubGroupIdsFromLocalIdsPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-drop-needless-barriers`: a kernel's barrier that orders no
// memory access of one work-item against another's is removed
// (drop_needless_barriers.cpp).
struct DropNeedlessBarriersPass : llvm::PassInfoMixin<DropNeedlessBarriersPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-collective-waits-as-barriers`: a work-group function's wait, and
// a sub-group one where the group or its sub-groups may run as regions, is
// a barrier of the kernel (collective_waits_as_barriers.cpp).
struct CollectiveWaitsAsBarriersPass : llvm::PassInfoMixin<CollectiveWaitsAsBarriersPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-uniform-counters`: the uniform counters of loops with barriers
// named as uniform (uniform_counters.cpp).
struct UniformCountersPass : llvm::PassInfoMixin<UniformCountersPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-cut-uniform-branches`: uniform branches end regions
// (cut_uniform_branches.cpp). `ferrocl-cut-uniform-ifs-in-loops`: only the
// branches of an `if` inside a loop's body (in_loop_bodies).
struct CutUniformBranchesPass : llvm::PassInfoMixin<CutUniformBranchesPass> {
    bool in_loop_bodies = false;
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-implicit-barriers`: barriers at uniform loops carrying
// floating-point values (implicit_barriers.cpp).
struct ImplicitBarriersPass : llvm::PassInfoMixin<ImplicitBarriersPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-isolate-barriers`: each barrier alone in a block
// (isolate_barriers.cpp).
struct IsolateBarriersPass : llvm::PassInfoMixin<IsolateBarriersPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-rematerialize`: cheap values computed again where used across
// barriers (rematerialize.cpp).
struct RematerializePass : llvm::PassInfoMixin<RematerializePass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// The entries (driver.rs ENTRIES_PIPELINE), in their order.

// `ferrocl-region-entries`: kernels with barriers cut into regions, run by
// a work-group entry (region_entries.cpp).
struct RegionEntriesPass : llvm::PassInfoMixin<RegionEntriesPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-work-group-entries`: barrier-free kernels run in work-item
// loops by a work-group entry (work_group_entries.cpp).
struct WorkGroupEntriesPass : llvm::PassInfoMixin<WorkGroupEntriesPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-work-item-entries` (`ferrocl-all-work-item-entries`: `all`):
// each kernel's work-item entry (work_item_entries.cpp).
struct WorkItemEntriesPass : llvm::PassInfoMixin<WorkItemEntriesPass> {
    bool all = false;
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-block-kernel-entries`: an enqueued block's kernel known by its
// work-item entry (block_kernel_entries.cpp).
struct BlockKernelEntriesPass : llvm::PassInfoMixin<BlockKernelEntriesPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-host-calling-convention`: the module as the host's back end
// compiles it (host_calling_convention.cpp).
struct HostCallingConventionPass : llvm::PassInfoMixin<HostCallingConventionPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// What a whole program (after clLinkProgram) defines about its own memory.

// `ferrocl-local-variable-test`: `__ferrocl_is_local_variable`, whether a
// pointer lies in one of the program's __local variables
// (local_variable_test.cpp).
inline constexpr const char *LOCAL_VARIABLE_TEST = "__ferrocl_is_local_variable";
struct LocalVariableTestPass : llvm::PassInfoMixin<LocalVariableTestPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `ferrocl-global-variables-size`: `__ferrocl_global_variables_size`, the
// bytes of its program-scope variables (global_variables_size.cpp;
// binary.rs GLOBAL_VARIABLES_SIZE_SYMBOL).
inline constexpr const char *GLOBAL_VARIABLES_SIZE = "__ferrocl_global_variables_size";
struct GlobalVariablesSizePass : llvm::PassInfoMixin<GlobalVariablesSizePass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

} // namespace ferrocl
