// `ferrocl-chosen-operands-behind-branches`: at the end of the back end's
// pipeline, a select of vectors on a scalar condition whose true operand
// is computed by work nothing else uses, and enough of it, computes that
// operand behind a branch on the condition: the work runs only when the
// select chooses it.
//
// Why: uniform_ifs_as_selects.cpp makes an `if` on a value the same for
// the whole group into a select, so that the vectorizer vectorizes its
// loop; the `if` skipped its body, the select computes it for nothing
// when the condition is false. Parboil's cutcp keeps 8 atom slots per
// bin and fills 3 on average: `if (q != 0)` skipped 5 of 8 atoms' square
// roots and divisions (Intel's runtime, which keeps such branches in its
// vector code, ran cutcp 1.5x faster than ferrocl did with the selects).
//
// Why it is sound: the instructions moved compute values only (no memory
// access, no side effect), are used by nothing but the chosen operand,
// and move within their block to after everything else that comes
// before the select, so every operand they read is still computed
// before them; when the branch skips them the select would not have
// chosen their value.
//
// Not on masks (a branch on whether any lane is chosen): on cutcp's
// `r2 < cutoff2` it made the kernel 2x slower, the branch mispredicted.
#include "passes.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

using namespace llvm;

namespace ferrocl {

namespace {

// Instructions worth a branch: at least this many, or one that waits on
// the divider or calls a function.
constexpr unsigned MIN_WORK = 12;

// The instructions before `select` in its block that compute its true
// operand for it alone (in block order). One sweep backwards settles each
// instruction: its users in the block come after it.
SmallVector<Instruction *, 32> work_of(SelectInst &select)
{
    auto *root = dyn_cast<Instruction>(select.getTrueValue());
    if (!root || root->getParent() != select.getParent() || select.getFalseValue() == root ||
        select.getCondition() == root)
        return {};
    SmallPtrSet<Instruction *, 32> only;
    for (Instruction *i = select.getPrevNode(); i; i = i->getPrevNode()) {
        // A convergent call (a sub-group function) must not become
        // dependent on a condition it was not dependent on, even one
        // without memory effects.
        auto *call = dyn_cast<CallBase>(i);
        if (isa<PHINode>(i) || i->mayReadOrWriteMemory() || i->mayHaveSideEffects() ||
            (call && call->isConvergent()))
            continue;
        bool taken = !i->use_empty() && all_of(i->users(), [&](User *u) {
            auto *ui = dyn_cast<Instruction>(u);
            return ui && (i == root ? ui == &select : only.contains(ui));
        });
        if (taken)
            only.insert(i);
    }
    SmallVector<Instruction *, 32> work;
    if (!only.contains(root))
        return work;
    for (Instruction &i : *select.getParent())
        if (only.contains(&i))
            work.push_back(&i);
    return work;
}

bool worth_a_branch(ArrayRef<Instruction *> work)
{
    if (work.size() >= MIN_WORK)
        return true;
    return any_of(work, [](Instruction *i) {
        if (auto *call = dyn_cast<CallInst>(i)) {
            auto *intrinsic = dyn_cast<IntrinsicInst>(call);
            return !intrinsic || intrinsic->getIntrinsicID() == Intrinsic::sqrt;
        }
        unsigned op = i->getOpcode();
        return op == Instruction::FDiv || op == Instruction::FRem || op == Instruction::UDiv ||
               op == Instruction::SDiv || op == Instruction::URem || op == Instruction::SRem;
    });
}

// `select`'s true operand computed behind a branch on its condition.
void branch_around(SelectInst &select, ArrayRef<Instruction *> work)
{
    BasicBlock *head = select.getParent();
    BasicBlock *join = SplitBlock(head, &select, static_cast<DominatorTree *>(nullptr), nullptr,
                                  nullptr, "chosen.join");
    BasicBlock *chosen = BasicBlock::Create(head->getContext(), "chosen", head->getParent(), join);
    BranchInst *to_join = BranchInst::Create(join, chosen);
    for (Instruction *i : work)
        i->moveBefore(to_join);
    head->getTerminator()->eraseFromParent();
    BranchInst::Create(chosen, join, select.getCondition(), head);
    IRBuilder<> b(&select);
    PHINode *phi = b.CreatePHI(select.getType(), 2);
    phi->addIncoming(select.getTrueValue(), chosen);
    phi->addIncoming(select.getFalseValue(), head);
    phi->takeName(&select);
    select.replaceAllUsesWith(phi);
    select.eraseFromParent();
}

} // namespace

PreservedAnalyses ChosenOperandsBehindBranchesPass::run(Function &f, FunctionAnalysisManager &)
{
    SmallVector<SelectInst *, 16> selects;
    for (Instruction &i : instructions(f))
        if (auto *s = dyn_cast<SelectInst>(&i);
            s && s->getType()->isVectorTy() && !s->getCondition()->getType()->isVectorTy() &&
            !isa<Constant>(s->getCondition()))
            selects.push_back(s);
    bool changed = false;
    for (SelectInst *s : selects) {
        SmallVector<Instruction *, 32> work = work_of(*s);
        if (work.empty() || !worth_a_branch(work))
            continue;
        branch_around(*s, work);
        changed = true;
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
