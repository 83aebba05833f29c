// ferrocl's passes by name, so that pipeline strings (driver.rs, the pass
// tests in passes/tests/) can use them beside LLVM's own.
#include "passes.h"

#include <string>

using namespace llvm;

namespace ferrocl {

namespace {

template <typename Pass> void add(ModulePassManager &mpm) { mpm.addPass(Pass()); }

void add_all_work_item_entries(ModulePassManager &mpm)
{
    WorkItemEntriesPass pass;
    pass.all = true;
    mpm.addPass(std::move(pass));
}

void add_cut_uniform_ifs_in_loops(ModulePassManager &mpm)
{
    CutUniformBranchesPass pass;
    pass.in_loop_bodies = true;
    mpm.addPass(std::move(pass));
}

// Each pass's name in a pipeline, and what adds it.
const struct {
    StringRef name;
    void (*add)(ModulePassManager &);
} PASSES[] = {
    {"ferrocl-inline-definitions", add<InlineDefinitionsPass>},
    {"ferrocl-guard-division", add<GuardDivisionPass>},
    {"ferrocl-exact-division", add<ExactDivisionPass>},
    {"ferrocl-thread-local-locals", add<ThreadLocalLocalsPass>},
    {"ferrocl-local-volatiles-as-plain", add<LocalVolatilesAsPlainPass>},
    {"ferrocl-non-uniform-calls-apart", add<NonUniformCallsApartPass>},
    {"ferrocl-known-address-space-casts", add<KnownAddressSpaceCastsPass>},
    {"ferrocl-drop-kernel-arg-names", add<DropKernelArgNamesPass>},
    {"ferrocl-flush-denormals", add<FlushDenormalsPass>},
    {"ferrocl-opt-disable", add<OptDisablePass>},
    {"ferrocl-spirv-module-as-host", add<SpirvModuleAsHostPass>},
    {"ferrocl-calls-as-defined", add<CallsAsDefinedPass>},
    {"ferrocl-progress-in-waiting-loops", add<ProgressInWaitingLoopsPass>},
    {"ferrocl-inline-into-kernels", add<InlineIntoKernelsPass>},
    {"ferrocl-non-uniform-calls-together", add<NonUniformCallsTogetherPass>},
    {"ferrocl-grid-stride-loops", add<GridStrideLoopsPass>},
    {"ferrocl-scalar-libm", add<ScalarLibmPass>},
    {"ferrocl-host-vector-width", add<HostVectorWidthPass>},
    {"ferrocl-loops-out-of-guards", add<LoopsOutOfGuardsPass>},
    {"ferrocl-mark-loops-for-unrolling", add<MarkLoopsForUnrollingPass>},
    {"ferrocl-sub-group-ids-from-local-ids", add<SubGroupIdsFromLocalIdsPass>},
    {"ferrocl-drop-needless-barriers", add<DropNeedlessBarriersPass>},
    {"ferrocl-collective-waits-as-barriers", add<CollectiveWaitsAsBarriersPass>},
    {"ferrocl-uniform-counters", add<UniformCountersPass>},
    {"ferrocl-cut-uniform-branches", add<CutUniformBranchesPass>},
    {"ferrocl-cut-uniform-ifs-in-loops", add_cut_uniform_ifs_in_loops},
    {"ferrocl-implicit-barriers", add<ImplicitBarriersPass>},
    {"ferrocl-isolate-barriers", add<IsolateBarriersPass>},
    {"ferrocl-rematerialize", add<RematerializePass>},
    {"ferrocl-local-variable-test", add<LocalVariableTestPass>},
    {"ferrocl-region-entries", add<RegionEntriesPass>},
    {"ferrocl-work-group-entries", add<WorkGroupEntriesPass>},
    {"ferrocl-work-item-entries", add<WorkItemEntriesPass>},
    {"ferrocl-all-work-item-entries", add_all_work_item_entries},
    {"ferrocl-block-kernel-entries", add<BlockKernelEntriesPass>},
    {"ferrocl-host-calling-convention", add<HostCallingConventionPass>},
    {"ferrocl-global-variables-size", add<GlobalVariablesSizePass>},
    {"ferrocl-expand-fallback-variants", add<ExpandFallbackVariantsPass>},
};

template <typename Pass> void add_function(FunctionPassManager &fpm) { fpm.addPass(Pass()); }

// `-any-host`: the pass tests' variant, whatever the host's vector width.
template <bool any_host> void add_libmvec_avx512_variants(FunctionPassManager &fpm)
{
    LibmvecAvx512VariantsPass pass;
    pass.any_host = any_host;
    fpm.addPass(std::move(pass));
}

// The function passes' names in a pipeline, and what adds each.
const struct {
    StringRef name;
    void (*add)(FunctionPassManager &);
} FUNCTION_PASSES[] = {
    {"ferrocl-uniform-gathers", add_function<UniformGathersPass>},
    {"ferrocl-branches-as-selects", add_function<BranchesAsSelectsPass>},
    {"ferrocl-power-of-two-remainders", add_function<PowerOfTwoRemaindersPass>},
    {"ferrocl-align-stack-for-vector-calls", add_function<AlignStackForVectorCallsPass>},
    {"ferrocl-local-atomics-as-plain", add_function<LocalAtomicsAsPlainPass>},
    {"ferrocl-full-masked-stores-as-stores", add_function<FullMaskedStoresAsStoresPass>},
    {"ferrocl-skip-idle-masked-accesses", add_function<SkipIdleMaskedAccessesPass>},
    {"ferrocl-fallback-vector-variants", add_function<FallbackVectorVariantsPass>},
    {"ferrocl-register-keepers-without-vzeroupper",
     add_function<RegisterKeepersWithoutVzeroupperPass>},
    {"ferrocl-libmvec-avx512-variants", add_libmvec_avx512_variants<false>},
    {"ferrocl-libmvec-avx512-variants-any-host", add_libmvec_avx512_variants<true>},
    {"ferrocl-scalarize-kernels", add_function<ScalarizeKernelsPass>},
    {"ferrocl-small-copies-as-scalars", add_function<SmallCopiesAsScalarsPass>},
    {"ferrocl-scalarize-work-item-loops", add_function<ScalarizeWorkItemLoopsPass>},
    {"ferrocl-counters-from-work-item-id", add_function<CountersFromWorkItemIdPass>},
    {"ferrocl-interleave-work-items", add_function<InterleaveWorkItemsPass>},
    {"ferrocl-latency-bound-work-items", add_function<LatencyBoundWorkItemsPass>},
    {"ferrocl-latency-bound-rows", add_function<LatencyBoundRowsPass>},
    {"ferrocl-bounds-checks-as-ranges", add_function<BoundsChecksAsRangesPass>},
    {"ferrocl-index-choices-as-ranges", add_function<IndexChoicesAsRangesPass>},
    {"ferrocl-active-rows-unguarded", add_function<ActiveRowsUnguardedPass>},
    {"ferrocl-uniform-loads-before-rows", add_function<UniformLoadsBeforeRowsPass>},
    {"ferrocl-uniform-ifs-as-selects", add_function<UniformIfsAsSelectsPass>},
    {"ferrocl-chosen-operands-behind-branches", add_function<ChosenOperandsBehindBranchesPass>},
    {"ferrocl-address-ors-as-adds", add_function<AddressOrsAsAddsPass>},
    {"ferrocl-fold-tails-of-copies", add_function<FoldTailsOfCopiesPass>},
    {"ferrocl-strided-loops-scalar", add_function<StridedLoopsScalarPass>},
};

// A parsed pipeline as text again (PassBuilder parses nested pipelines
// only from text).
std::string pipeline_text(ArrayRef<PassBuilder::PipelineElement> pipeline)
{
    std::string text;
    for (const auto &element : pipeline) {
        if (!text.empty())
            text += ',';
        text += element.Name.str();
        if (!element.InnerPipeline.empty())
            text += "(" + pipeline_text(element.InnerPipeline) + ")";
    }
    return text;
}

} // namespace

void register_passes(PassBuilder &pb)
{
    pb.registerPipelineParsingCallback(
        [&pb](StringRef name, ModulePassManager &mpm,
              ArrayRef<PassBuilder::PipelineElement> inner) {
            const char *mark = name == "ferrocl-if-regions"     ? REGIONS_METADATA
                               : name == "ferrocl-if-unrolling" ? UNROLLING_METADATA
                                                                : nullptr;
            if (mark) {
                IfMarkedPass pass;
                pass.mark = mark;
                if (Error e = pb.parsePassPipeline(pass.inner, pipeline_text(inner))) {
                    // The pipeline does not parse; the caller reports it.
                    consumeError(std::move(e));
                    return false;
                }
                mpm.addPass(std::move(pass));
                return true;
            }
            for (const auto &pass : PASSES)
                if (pass.name == name) {
                    pass.add(mpm);
                    return true;
                }
            return false;
        });
    pb.registerPipelineParsingCallback(
        [](StringRef name, FunctionPassManager &fpm, ArrayRef<PassBuilder::PipelineElement>) {
            for (const auto &pass : FUNCTION_PASSES)
                if (pass.name == name) {
                    pass.add(fpm);
                    return true;
                }
            return false;
        });
}

void add_back_end_passes(PassBuilder &pb)
{
    pb.registerPipelineStartEPCallback(
        [](ModulePassManager &mpm, OptimizationLevel) {
            mpm.addPass(CallsAsDefinedPass());
            mpm.addPass(HostVectorWidthPass());
            mpm.addPass(ScalarLibmPass());
        });
    pb.registerVectorizerStartEPCallback([](FunctionPassManager &fpm, OptimizationLevel level) {
        if (level != OptimizationLevel::O0) {
            fpm.addPass(LibmvecAvx512VariantsPass());
            fpm.addPass(FallbackVectorVariantsPass());
            fpm.addPass(SmallCopiesAsScalarsPass());
            fpm.addPass(ScalarizeWorkItemLoopsPass());
            fpm.addPass(CountersFromWorkItemIdPass());
            fpm.addPass(InterleaveWorkItemsPass());
            fpm.addPass(BoundsChecksAsRangesPass());
            fpm.addPass(IndexChoicesAsRangesPass());
            fpm.addPass(ActiveRowsUnguardedPass());
            fpm.addPass(UniformLoadsBeforeRowsPass());
            fpm.addPass(UniformIfsAsSelectsPass());
            fpm.addPass(LatencyBoundWorkItemsPass());
            fpm.addPass(LatencyBoundRowsPass());
            fpm.addPass(FoldTailsOfCopiesPass());
            fpm.addPass(StridedLoopsScalarPass());
        }
    });
    // LLVM 19 has no hook at the vectorizer's end: at the pipeline's end.
    // Without clean-up passes after it: instcombine and simplifycfg over
    // the whole module again cost 40 % more back end on Parboil's mri-q, and
    // its rewrites are what the code generator wants already.
    pb.registerOptimizerLastEPCallback([](ModulePassManager &mpm, OptimizationLevel level) {
        if (level != OptimizationLevel::O0) {
            mpm.addPass(ExpandFallbackVariantsPass());
            FunctionPassManager fpm;
            fpm.addPass(UniformGathersPass());
            fpm.addPass(LocalAtomicsAsPlainPass());
            fpm.addPass(FullMaskedStoresAsStoresPass());
            fpm.addPass(SkipIdleMaskedAccessesPass());
            fpm.addPass(ChosenOperandsBehindBranchesPass());
            fpm.addPass(AddressOrsAsAddsPass());
            fpm.addPass(AlignStackForVectorCallsPass());
            mpm.addPass(createModuleToFunctionPassAdaptor(std::move(fpm)));
        }
        // At every level: the code around a call of such a function keeps
        // its values in registers even at -O0.
        mpm.addPass(createModuleToFunctionPassAdaptor(RegisterKeepersWithoutVzeroupperPass()));
    });
}

} // namespace ferrocl
