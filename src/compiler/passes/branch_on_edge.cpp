// See branch_on_edge.h.
#include "branch_on_edge.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

using namespace llvm;

namespace ferrocl {

BasicBlock *branch_on_edge(BasicBlock *from, BasicBlock *to, BasicBlock *otherwise,
                           Value *condition, const Twine &name)
{
    BasicBlock *test = BasicBlock::Create(to->getContext(), name, to->getParent(), to);
    BranchInst::Create(to, otherwise, condition, test);
    Instruction *term = from->getTerminator();
    for (unsigned k = 0; k < term->getNumSuccessors(); k++)
        if (term->getSuccessor(k) == to)
            term->setSuccessor(k, test);
    for (PHINode &phi : to->phis())
        phi.replaceIncomingBlockWith(from, test);
    return test;
}

void carry_past_skip(const Loop &l, BasicBlock *latch, BasicBlock *skip,
                     const SmallPtrSetImpl<PHINode *> &leave)
{
    // The latch's other predecessors in their order, the skipping edge last.
    SmallVector<BasicBlock *, 4> from;
    for (BasicBlock *p : predecessors(latch))
        if (p != skip)
            from.push_back(p);
    for (PHINode &phi : l.getHeader()->phis()) {
        auto *next = dyn_cast<Instruction>(phi.getIncomingValueForBlock(latch));
        if (leave.contains(&phi) || !next || !l.contains(next) ||
            next->getParent() == l.getHeader() || next->getParent() == latch)
            continue;
        PHINode *merged = PHINode::Create(phi.getType(), from.size() + 1, phi.getName() + ".latch");
        merged->insertBefore(latch->getFirstNonPHIIt());
        for (BasicBlock *p : from)
            merged->addIncoming(next, p);
        merged->addIncoming(&phi, skip);
        phi.setIncomingValueForBlock(latch, merged);
    }
}

} // namespace ferrocl
