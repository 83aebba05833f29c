// `ferrocl-uniform-ifs-as-selects`: in the back end, right before the loop
// vectorizer, an `if` without `else` in an innermost work-item loop whose
// condition the loop does not change, and whose body is code that may run
// when it need not (arithmetic, no stores, no loads LLVM cannot prove
// safe), runs its body in every iteration; after it, each value the `if`
// chose is a select on the condition.
//
// Why: the vectorizer turns such an `if` into a mask, a vector of the one
// condition, and-ed into the mask of every branch inside the body; the
// x86 back end without AVX-512 keeps a vector of i1 made from a scalar as
// 16-bit lanes, so each inner mask was packed to 16 bits, and-ed, and
// widened again (six instructions), and each value merged twice.
// Parboil's cutcp tests `atom.w != 0` (the same atom for the whole group)
// around `if (r2 < cutoff2) energy += ...`: 14 of its 33 instructions per
// atom were masks. After the vectorizer, the select's chosen operand goes
// behind a branch on the scalar condition
// (chosen_operands_behind_branches.cpp), and the inner mask is the
// comparison alone.
//
// Why it is sound: the body computes nothing but values (no side effects,
// nothing that traps; llvm::isSafeToSpeculativelyExecute), so running it
// when the condition is false changes nothing but values the selects then
// drop. What the body computes from values that exist only when the
// condition holds (uniform_loads_before_rows.cpp leaves poison on the
// other path) may be poison: the branches inside the body test a `freeze`
// of their conditions, so that no branch depends on poison.
//
// Not for loops the vectorizer leaves scalar (vector code of the host's
// width, wide_vector_code.h, or vectorization turned off), where the
// branch skipped the body's work; and bodies of at most MAX_BODY
// instructions.
#include "parallel_access.h"
#include "passes.h"
#include "wide_vector_code.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

using namespace llvm;

namespace ferrocl {

namespace {

// Instructions of a body that runs in every iteration, at most.
constexpr unsigned MAX_BODY = 128;

// Ifs made selects in one loop, at most (each pass over the loop finds one).
constexpr unsigned MAX_IFS = 64;

// An `if` without `else`: `branch` jumps on `condition` into `body`
// (entered by `first` alone) or past it, to `join`, where the body's
// edges end too.
struct UniformIf {
    BranchInst *branch;
    BasicBlock *first;
    BasicBlock *join;
    SmallVector<BasicBlock *, 8> body;
};

// Whether the vectorizer may vectorize `l` (no metadata that turns it off).
bool may_vectorize(const Loop &l)
{
    if (std::optional<bool> on = getOptionalBoolLoopAttribute(&l, "llvm.loop.vectorize.enable");
        on && !*on)
        return false;
    std::optional<int> width = getOptionalIntLoopAttribute(&l, "llvm.loop.vectorize.width");
    return !width || *width != 1;
}

// The blocks of `l` that `first` dominates, if they are a body `branch`
// may skip: entered through `first` alone, left to `join` alone, code
// that may run when it need not, at most MAX_BODY instructions.
std::optional<SmallVector<BasicBlock *, 8>> body_from(BasicBlock *first, BasicBlock *join,
                                                      const Loop &l, const DominatorTree &dt)
{
    SmallVector<BasicBlock *, 8> body;
    for (BasicBlock *b : l.blocks())
        if (dt.dominates(first, b))
            body.push_back(b);
    if (is_contained(body, join) || is_contained(body, l.getHeader()))
        return std::nullopt;
    unsigned count = 0;
    for (BasicBlock *b : body) {
        for (BasicBlock *to : successors(b))
            if (to != join && !is_contained(body, to))
                return std::nullopt;
        for (Instruction &i : *b) {
            if (isa<PHINode>(i) || isa<DbgInfoIntrinsic>(i))
                continue;
            if (i.isTerminator()) {
                if (!isa<BranchInst>(i))
                    return std::nullopt;
                continue;
            }
            if (++count > MAX_BODY || i.mayHaveSideEffects() || !isSafeToSpeculativelyExecute(&i))
                return std::nullopt;
        }
    }
    return body;
}

// An `if` of `l` on a condition `l` does not change, if there is one.
std::optional<UniformIf> find_uniform_if(const Loop &l, const DominatorTree &dt)
{
    for (BasicBlock *b : l.blocks()) {
        auto *br = dyn_cast<BranchInst>(b->getTerminator());
        if (!br || !br->isConditional() || !l.isLoopInvariant(br->getCondition()))
            continue;
        for (unsigned k = 0; k < 2; k++) {
            BasicBlock *first = br->getSuccessor(k), *join = br->getSuccessor(1 - k);
            if (first == join || !l.contains(first) || !l.contains(join) ||
                first->getSinglePredecessor() != b || join == l.getHeader())
                continue;
            if (auto body = body_from(first, join, l, dt))
                return UniformIf{br, first, join, std::move(*body)};
        }
    }
    return std::nullopt;
}

// The body of `u` runs in every iteration; the values its join chose
// between the body's and the skip's are selects on its condition.
void make_selects(UniformIf &u)
{
    BasicBlock *from = u.branch->getParent();
    // A join that other paths reach too gets a block of its own for the
    // branch's and the body's edges (each block once: a block may branch
    // to the join twice), where the selects go.
    SmallVector<BasicBlock *, 8> inside;
    bool others = false;
    for (BasicBlock *p : predecessors(u.join)) {
        if (p != from && !is_contained(u.body, p))
            others = true;
        else if (!is_contained(inside, p))
            inside.push_back(p);
    }
    BasicBlock *join = others ? SplitBlockPredecessors(u.join, inside, ".uniform.if") : u.join;
    Value *condition = u.branch->getCondition();
    bool body_when_true = u.branch->getSuccessor(0) == u.first;
    IRBuilder<> b(join, join->getFirstInsertionPt());
    for (PHINode &phi : make_early_inc_range(join->phis())) {
        Value *skipped = phi.getIncomingValueForBlock(from);
        phi.removeIncomingValue(from, /*DeletePHIIfEmpty=*/false);
        Value *chosen = body_when_true ? b.CreateSelect(condition, &phi, skipped)
                                       : b.CreateSelect(condition, skipped, &phi);
        chosen->setName(phi.getName() + ".if");
        phi.replaceUsesWithIf(chosen, [&](Use &use) { return use.getUser() != chosen; });
    }
    // The body's own branches test no poison.
    for (BasicBlock *bb : u.body)
        if (auto *br = dyn_cast<BranchInst>(bb->getTerminator()); br && br->isConditional()) {
            // Always: LLVM deems a branch's condition not poison because
            // the branch would be undefined otherwise.
            Value *c = br->getCondition();
            if (!isa<Constant>(c))
                br->setCondition(new FreezeInst(c, c->getName() + ".fr", br));
        }
    BranchInst::Create(u.first, u.branch);
    u.branch->eraseFromParent();
}

} // namespace

PreservedAnalyses UniformIfsAsSelectsPass::run(Function &f, FunctionAnalysisManager &fam)
{
    if (f.isDeclaration())
        return PreservedAnalyses::all();
    LoopInfo &loops = fam.getResult<LoopAnalysis>(f);
    SmallVector<BasicBlock *, 4> headers;
    for (Loop *l : loops.getLoopsInPreorder())
        if (l->isInnermost() && is_work_item_loop(l) && may_vectorize(*l)) {
            SmallVector<const BasicBlock *, 16> blocks(l->blocks());
            if (!is_wide_vector_code(blocks, host_vector_bits()))
                headers.push_back(l->getHeader());
        }
    bool changed = false;
    for (BasicBlock *header : headers) {
        for (unsigned n = 0; n < MAX_IFS; n++) {
            Loop *l = fam.getResult<LoopAnalysis>(f).getLoopFor(header);
            if (!l || l->getHeader() != header)
                break;
            std::optional<UniformIf> u =
                find_uniform_if(*l, fam.getResult<DominatorTreeAnalysis>(f));
            if (!u)
                break;
            make_selects(*u);
            fam.invalidate(f, PreservedAnalyses::none());
            changed = true;
        }
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
