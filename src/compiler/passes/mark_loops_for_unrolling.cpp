// `ferrocl-mark-loops-for-unrolling`: in a kernel without barriers, the
// loops that will get implicit barriers (implicit_barriers.cpp) get
// `llvm.loop.unroll.count`, so that `loop-unroll` next unrolls them (only
// them: the unroller's own heuristics stay for the back end) and an
// implicit barrier then starts every UNROLL iterations. The module is
// marked for `ferrocl-if-unrolling` (if_marked.cpp) when a loop was.
//
// Why UNROLL iterations per region: the work-item's sum stays in a register
// across them, and the loads of consecutive iterations overlap. Each
// iteration but the last keeps its exit test, so the region has UNROLL + 1
// ways out, and LLVM compiles a vectorized copy of the work-item loop for
// each: four iterations made naive SGEMM 1.4x faster than two (78 against
// 55 GFLOP/s) but its back end 1.5x slower (70 against 48 ms), the longest
// step of a cold build.
#include "group_uniformity.h"
#include "kernel_symbols.h"
#include "passes.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

namespace {

constexpr unsigned UNROLL = 2;

} // namespace

PreservedAnalyses MarkLoopsForUnrollingPass::run(Module &m, ModuleAnalysisManager &mam)
{
    auto &fam = mam.getResult<FunctionAnalysisManagerModuleProxy>(m).getManager();
    LLVMContext &ctx = m.getContext();
    bool changed = false;
    for (Function &f : m) {
        if (f.isDeclaration() || !is_kernel(f) || waits(f))
            continue;
        auto &loops = fam.getResult<LoopAnalysis>(f);
        auto &pdt = fam.getResult<PostDominatorTreeAnalysis>(f);
        GroupUniformity u(f);
        for (Loop *l : loops) {
            SmallVector<PHINode *, 4> counters;
            if (!is_uniform_compute_loop(*l, u, pdt, counters))
                continue;
            SmallVector<BasicBlock *, 2> latches;
            l->getLoopLatches(latches);
            for (BasicBlock *latch : latches) {
                Instruction *term = latch->getTerminator();
                if (!isa<BranchInst>(term) || term->getMetadata(LLVMContext::MD_loop))
                    continue;
                Metadata *count[] = {
                    MDString::get(ctx, "llvm.loop.unroll.count"),
                    ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(ctx), UNROLL))};
                Metadata *self[] = {nullptr, MDNode::get(ctx, count)};
                MDNode *loop = MDNode::getDistinct(ctx, self);
                loop->replaceOperandWith(0, loop);
                term->setMetadata(LLVMContext::MD_loop, loop);
                changed = true;
            }
        }
    }
    if (changed)
        m.getOrInsertNamedMetadata(UNROLLING_METADATA);
    // Metadata only: the IR's shape and values are unchanged.
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
