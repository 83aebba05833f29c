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
//
// Why the calls in such a loop stop being `convergent`: clang marks every
// OpenCL function convergent, and the unroller leaves no remainder
// iterations behind a convergent call, so it honours the count only when
// it divides the trip count. A loop `for (k = 0; k < 1024; k++)` tests its
// header 1025 times: instead of unrolling it twice, the unroller took the
// count as leave to unroll partially under its pragma threshold, by 205
// (Parboil's mri-q, with `cos` and `sin` in the loop: 2 s of back end). In
// a kernel that does not wait, only a wait's convergence means anything
// (inline_into_kernels.cpp inlined every function that reaches one), so
// the builtins the loop calls lose the attribute; a loop calling a
// function the attribute cannot be taken from is not unrolled. A loop of
// at most SHORT header tests keeps them: the unroller unrolls it whole,
// as the back end's full unroller would, and no implicit barrier is left
// (clpeak's `for (i = 0; i < 4; i++)` around a work-item's loads, whose
// kernels' code doubled when unrolled twice instead).
#include "group_uniformity.h"
#include "kernel_symbols.h"
#include "passes.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

namespace {

constexpr unsigned UNROLL = 2;
constexpr unsigned SHORT = 16;

// Whether `loop-unroll` may leave remainder iterations of `l` (see above),
// after taking `convergent` from the declarations it calls that do not
// wait; false when a call stays convergent (a definition, a wait).
bool allow_remainder(const Loop &l)
{
    SmallVector<Function *, 4> builtins;
    for (BasicBlock *b : l.blocks())
        for (Instruction &i : *b) {
            auto *call = dyn_cast<CallBase>(&i);
            if (!call || !call->isConvergent())
                continue;
            Function *callee = call->getCalledFunction();
            if (!callee || !callee->isDeclaration() || is_wait(callee->getName()))
                return false;
            builtins.push_back(callee);
        }
    for (BasicBlock *b : l.blocks())
        for (Instruction &i : *b)
            if (auto *call = dyn_cast<CallBase>(&i))
                call->removeFnAttr(Attribute::Convergent);
    for (Function *f : builtins)
        f->removeFnAttr(Attribute::Convergent);
    return true;
}

// Whether `loop-unroll` will unroll `l` UNROLL times as asked: when some
// exit's trip count is a known constant, the count must divide it unless
// remainder iterations are allowed (or the loop is short, see above).
bool unrolls_as_asked(const Loop &l, ScalarEvolution &se)
{
    unsigned trip = 0;
    SmallVector<BasicBlock *, 4> exiting;
    l.getExitingBlocks(exiting);
    for (BasicBlock *b : exiting)
        if (unsigned t = se.getSmallConstantTripCount(&l, b))
            trip = trip ? std::min(trip, t) : t;
    return trip == 0 || trip % UNROLL == 0 || trip <= SHORT || allow_remainder(l);
}

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
        auto &se = fam.getResult<ScalarEvolutionAnalysis>(f);
        GroupUniformity u(f);
        for (Loop *l : loops) {
            SmallVector<PHINode *, 4> counters;
            if (!is_uniform_compute_loop(*l, u, pdt, counters) || !unrolls_as_asked(*l, se))
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
