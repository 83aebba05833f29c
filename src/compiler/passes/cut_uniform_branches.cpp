// `ferrocl-cut-uniform-branches`: in a kernel cut into regions, a two-way
// branch every work-item takes the same way ends the region: each of its
// edges leads through a new block with an implicit barrier (unless its
// target starts with a barrier already), the work-items only note which
// edge they took (one value for all), and the work-group entry goes on
// with the region that edge starts.
//
// Why: a work-item loop around a region that tests a uniform value runs
// the test once per work-item; LLVM then copies the whole loop once per
// outcome of each such test (non-trivial unswitching) and vectorizes every
// copy: a loop four times unrolled with four exit tests became five
// vectorized copies of the region. Cut there, each region is straight code
// that vectorizes once.
//
// After implicit barriers (driver.rs runs it again, as
// `ferrocl-cut-uniform-ifs-in-loops`), only the `if`s inside loops' bodies:
// Parboil's mri-q tests `kGlobalIndex < numK` in each iteration of its
// k-loop, and LLVM computed cos and sin for every work-item of the
// iterations the test skips (half of them, NaNs): 3x slower. Cutting the
// loops' exit tests too made PolyBench's gemm and clpeak's float kernels
// 20% slower (a region per unrolled iteration).
//
// Only branches all work-items run together (group_uniformity.h), and only
// outside loops without barriers: those loops stay inside one region,
// where LLVM unrolls or vectorizes them whole. Not in kernels with other
// waits (async copies, sub-groups), which run on fibers.
#include "group_uniformity.h"
#include "kernel_symbols.h"
#include "passes.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

namespace {

bool starts_with_barrier(const BasicBlock &b)
{
    const Instruction *first = b.getFirstNonPHI();
    return first && calls_plain_barrier(*first);
}

// A branch of an `if` in `l`'s body: both ways stay in the loop and
// neither goes back to its header (an exit test, a `continue`).
bool if_in_loop_body(const BranchInst &br, const Loop *l)
{
    if (!l)
        return false;
    for (const BasicBlock *to : successors(&br))
        if (!l->contains(to) || to == l->getHeader())
            return false;
    return true;
}

} // namespace

PreservedAnalyses CutUniformBranchesPass::run(Module &m, ModuleAnalysisManager &mam)
{
    auto &fam = mam.getResult<FunctionAnalysisManagerModuleProxy>(m).getManager();
    LLVMContext &ctx = m.getContext();
    bool changed = false;
    for (Function &f : m) {
        if (f.isDeclaration() || !is_kernel(f))
            continue;
        Waits w = kernel_waits(f);
        if (!w.plain_barriers || w.others)
            continue;
        auto &loops = fam.getResult<LoopAnalysis>(f);
        GroupUniformity u(f);
        SmallVector<std::pair<BasicBlock *, BasicBlock *>, 8> cuts;
        for (BasicBlock &b : f) {
            auto *br = dyn_cast<BranchInst>(b.getTerminator());
            if (!br || !br->isConditional() || br->getSuccessor(0) == br->getSuccessor(1))
                continue;
            Loop *l = loops.getLoopFor(&b);
            if (!u.together(&b) || !only_barrier_loops(l) || !u.uniform(br->getCondition()))
                continue;
            if (in_loop_bodies && !if_in_loop_body(*br, l))
                continue;
            // In the branch's order (`successors()` of a branch lists its
            // false edge first).
            for (unsigned i = 0; i < 2; ++i)
                if (!starts_with_barrier(*br->getSuccessor(i)))
                    cuts.push_back({&b, br->getSuccessor(i)});
        }
        if (cuts.empty())
            continue;
        FunctionCallee implicit = m.getOrInsertFunction(
            IMPLICIT_BARRIER, FunctionType::get(Type::getVoidTy(ctx), false));
        unsigned n = 0;
        for (auto [from, to] : cuts) {
            BasicBlock *cut = BasicBlock::Create(ctx, "__fcl.cut." + Twine(n++), &f);
            CallInst::Create(implicit, {}, "", cut);
            BranchInst::Create(to, cut);
            from->getTerminator()->replaceSuccessorWith(to, cut);
            to->replacePhiUsesWith(from, cut);
        }
        fam.invalidate(f, PreservedAnalyses::none());
        changed = true;
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
