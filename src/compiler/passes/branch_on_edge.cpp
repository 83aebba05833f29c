// See branch_on_edge.h.
#include "branch_on_edge.h"

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

} // namespace ferrocl
