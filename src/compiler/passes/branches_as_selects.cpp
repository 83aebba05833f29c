// `ferrocl-branches-as-selects`: a two-way branch whose ways compute a
// little arithmetic and meet again (`c ? x : y` as the front end writes
// it without optimization: a branch, two short blocks, a phi) runs both
// ways' arithmetic in the branch's block and ends in a select per phi of
// the meeting block; the branch goes.
//
// Why: the region transform sees the front end's unoptimized IR. A phi is
// not cheap to compute again (rematerialize.cpp), so a clamped neighbour
// such as Rodinia hotspot's `E = (E > validXmax) ? validXmax : E`, used
// after a barrier, went to the frame per work-item, and each use of it as
// an index became a gather the vectorizer would not take: hotspot's
// stencil ran one work-item at a time. A uniform `validXmax = (blkXmax >
// cols - 1) ? 15 - (blkXmax - cols + 1) : 15` was a branch every
// work-item takes the same way, which cut_uniform_branches.cpp made the
// end of a region: hotspot was cut into 16 regions, most of them a
// work-item loop storing one value. As selects of arithmetic, they are
// straight code, which rematerialize.cpp computes again where it is used.
//
// Only ways of at most MAX_WAY instructions that may run when they need
// not (no memory, no calls, nothing that traps: isSafeToSpeculativelyExecute),
// into a meeting block that has just the two ways in. The meeting block
// then joins the branch's block, so that a choice nested in a way of
// another (`c ? (d ? x : y) : z`) leaves that way one short block too.
#include "passes.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

using namespace llvm;

namespace ferrocl {

namespace {

// Instructions a way may compute besides its branch: `c ? 15 - (m - n +
// 1) : 15` is three; both ways always run after the rewrite.
constexpr unsigned MAX_WAY = 8;

// `b` computes at most MAX_WAY instructions that may run speculatively and
// then branches to `to`, and its only predecessor is `from`.
bool short_way(const BasicBlock *b, const BasicBlock *from, const BasicBlock *to)
{
    const auto *br = dyn_cast<BranchInst>(b->getTerminator());
    if (!br || !br->isUnconditional() || br->getSuccessor(0) != to ||
        b->getSinglePredecessor() != from || b->size() > MAX_WAY + 1)
        return false;
    for (const Instruction &i : *b) {
        if (&i == br)
            break;
        if (isa<PHINode>(i) || isa<CallBase>(i) || i.mayReadOrWriteMemory() ||
            !isSafeToSpeculativelyExecute(&i))
            return false;
    }
    return true;
}

// The branch of `join`'s two ways in, when they are short blocks from the
// same block (a diamond) or one is short and comes from the other (a
// triangle); else null. Either way every path to `join` passes the
// branch's block, which therefore dominates it unless it is `join` (a
// loop).
BranchInst *short_choice(BasicBlock *join)
{
    BasicBlock *a = nullptr, *b = nullptr;
    for (BasicBlock *p : predecessors(join)) {
        if (!a)
            a = p;
        else if (!b && p != a)
            b = p;
        else
            return nullptr;
    }
    if (!a || !b)
        return nullptr;
    BasicBlock *from = nullptr;
    SmallPtrSet<BasicBlock *, 2> ways;
    if (a->getSinglePredecessor() && a->getSinglePredecessor() == b->getSinglePredecessor()) {
        from = a->getSinglePredecessor();
        ways = {a, b};
    } else if (b->getSinglePredecessor() == a) {
        from = a;
        ways = {join, b};
    } else if (a->getSinglePredecessor() == b) {
        from = b;
        ways = {join, a};
    } else {
        return nullptr;
    }
    auto *br = dyn_cast<BranchInst>(from->getTerminator());
    if (!br || !br->isConditional() || from == join)
        return nullptr;
    for (BasicBlock *p : {a, b})
        if (p != from && !short_way(p, from, join))
            return nullptr;
    BasicBlock *t = br->getSuccessor(0), *f = br->getSuccessor(1);
    if (t == f || !ways.contains(t) || !ways.contains(f))
        return nullptr;
    return br;
}

// The predecessor of `join` through which way `to` of the choosing block
// `from` arrives.
BasicBlock *arrives_from(BasicBlock *from, BasicBlock *to, BasicBlock *join)
{
    return to == join ? from : to;
}

void fold(BasicBlock *join, BranchInst *br)
{
    BasicBlock *from = br->getParent();
    BasicBlock *t = br->getSuccessor(0), *f = br->getSuccessor(1);
    BasicBlock *via_t = arrives_from(from, t, join), *via_f = arrives_from(from, f, join);
    // The ways' arithmetic, in order, before the branch: their operands
    // are defined in `from` or above (a way's only predecessor), and only
    // the way itself and join's phis use them.
    for (BasicBlock *way : {t, f}) {
        if (way == join)
            continue;
        while (&way->front() != way->getTerminator())
            way->front().moveBefore(br);
    }
    Value *c = br->getCondition();
    SmallVector<PHINode *, 4> phis;
    for (PHINode &phi : join->phis())
        phis.push_back(&phi);
    IRBuilder<> b(br);
    for (PHINode *phi : phis) {
        Value *x = phi->getIncomingValueForBlock(via_t), *y = phi->getIncomingValueForBlock(via_f);
        Value *v = x;
        if (x != y) {
            v = b.CreateSelect(c, x, y);
            v->takeName(phi);
        }
        phi->replaceAllUsesWith(v);
        phi->eraseFromParent();
    }
    b.CreateBr(join);
    br->eraseFromParent();
    for (BasicBlock *way : {t, f})
        if (way != join)
            way->eraseFromParent();
}

} // namespace

PreservedAnalyses BranchesAsSelectsPass::run(Function &f, FunctionAnalysisManager &)
{
    bool changed = false;
    for (bool again = true; again;) {
        again = false;
        for (auto it = f.begin(); it != f.end();) {
            BasicBlock *join = &*it;
            BranchInst *br = short_choice(join);
            if (!br) {
                ++it;
                continue;
            }
            BasicBlock *from = br->getParent();
            fold(join, br);
            MergeBlockIntoPredecessor(join);
            // `from` may now be a short way of a choice around it.
            it = from->getIterator();
            changed = again = true;
        }
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
