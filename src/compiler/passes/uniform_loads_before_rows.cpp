// `ferrocl-uniform-loads-before-rows`: in the back end, right before the
// loop vectorizer, a load in an innermost work-item loop from an address
// the loop does not change, in a block the loop runs in every iteration or
// in none (behind branches on values the loop does not change), moves
// before the loop, made there under the same conditions.
//
// Why: such a load reads one value for all work-items (an atom of
// Parboil's cutcp, `if (atom.w != 0) { dx = atom.x - x; ... }`, the atom
// the same for the whole group). LICM leaves it in the loop, since the
// block may not run; the vectorizer then has to mask it, and without
// AVX-512 (no fast gathers) it prices a masked load of one address as a
// branch per lane and leaves the whole loop scalar: cutcp ran one
// work-item at a time on a Zen 3 EPYC, at 0.2x of Intel's runtime.
//
// Why it is sound: the block runs in an iteration exactly when the
// conditions hold, and they are the same in every iteration, so the load
// runs before the loop exactly when it ran in the loop, at most once
// instead of once per work-item; nothing in the loop writes the memory it
// reads (alias analysis over all memory around the address, which the
// frame's alias scopes tell apart from a buffer's), so it reads what each
// iteration read. Loads with other conditions stay.
//
// A load moves on out of the loops around the row (a group's y and z
// loops) as far as its address and conditions stay the same, nothing in
// the outer loop writes what it reads, and the loop it leaves runs in
// every iteration of the outer one (whose only exit is its latch): cutcp's
// rows are 8 work-items long, and reading its 8 atoms again before each
// row of one vector cost as much as the row.
#include "parallel_access.h"
#include "passes.h"
#include "work_item_intervals.h"

#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

using namespace llvm;

namespace ferrocl {

namespace {

// The loads moved from one loop, at most (fail closed on huge loops).
constexpr unsigned MAX_LOADS = 64;

// When a block of the loop runs: in every iteration (no terms), or when
// each term's condition is as given.
using Condition = SmallVector<std::pair<Value *, bool>, 4>;

// The condition under which `b` runs, if it is one of invariant terms.
std::optional<Condition> runs_when(BasicBlock *b, Loop *l, const DominatorTree &dt,
                                   DenseMap<BasicBlock *, std::optional<Condition>> &known)
{
    if (auto it = known.find(b); it != known.end())
        return it->second;
    std::optional<Condition> c;
    if (dt.dominates(b, l->getLoopLatch())) {
        c = Condition{};
    } else if (BasicBlock *p = b->getSinglePredecessor(); p && l->contains(p) && p != b) {
        auto *br = dyn_cast<BranchInst>(p->getTerminator());
        if (br && br->isConditional() && l->isLoopInvariant(br->getCondition()) &&
            br->getSuccessor(0) != br->getSuccessor(1)) {
            if (std::optional<Condition> before = runs_when(p, l, dt, known)) {
                c = *before;
                c->push_back({br->getCondition(), br->getSuccessor(0) == b});
            }
        }
    }
    known[b] = c;
    return c;
}

// The loads of `l` to move, each with its condition.
SmallVector<std::pair<LoadInst *, Condition>, 8> loads_to_move(Loop *l, const DominatorTree &dt,
                                                               AAResults &aa)
{
    SmallVector<std::pair<LoadInst *, Condition>, 8> found;
    DenseMap<BasicBlock *, std::optional<Condition>> known;
    for (BasicBlock *b : l->blocks()) {
        // Loads the loop runs every iteration are LICM's.
        if (dt.dominates(b, l->getLoopLatch()))
            continue;
        for (Instruction &i : *b) {
            auto *load = dyn_cast<LoadInst>(&i);
            if (!load || !load->isSimple() || !l->isLoopInvariant(load->getPointerOperand()))
                continue;
            std::optional<Condition> c = runs_when(b, l, dt, known);
            if (!c || c->empty() || written_in_loop(l, load, aa))
                continue;
            found.push_back({load, *c});
            if (found.size() == MAX_LOADS)
                return found;
        }
    }
    return found;
}

// The outermost loop, `l` or one around it, before which `load` (of `l`,
// when `condition` holds) may run: each loop it leaves keeps its address
// and its condition, writes nothing it reads, and enters the loop inside
// in each of its iterations, all of which reach its latch.
Loop *outermost_before(Loop *l, LoadInst *load, const Condition &condition,
                       const DominatorTree &dt, AAResults &aa)
{
    Loop *target = l;
    for (Loop *outer = l->getParentLoop(); outer; outer = outer->getParentLoop()) {
        BasicBlock *entry = target->getLoopPredecessor();
        BasicBlock *latch = outer->getLoopLatch();
        if (!entry || !latch || outer->getExitingBlock() != latch ||
            !outer->getLoopPredecessor() || !dt.dominates(entry, latch) ||
            !outer->isLoopInvariant(load->getPointerOperand()))
            break;
        if (any_of(condition, [&](auto term) { return !outer->isLoopInvariant(term.first); }))
            break;
        if (written_in_loop(outer, load, aa))
            break;
        target = outer;
    }
    return target;
}

// Each load before the loop, in a block of its own that runs when its
// condition holds; in the loop, its value.
void move_before_loop(Loop *l, ArrayRef<std::pair<LoadInst *, Condition>> loads)
{
    BasicBlock *preheader = l->getLoopPreheader();
    if (!preheader)
        preheader = SplitEdge(l->getLoopPredecessor(), l->getHeader());
    LLVMContext &ctx = preheader->getContext();
    Function *f = preheader->getParent();
    for (auto &[load, condition] : loads) {
        BasicBlock *join = SplitBlock(preheader, preheader->getTerminator());
        BasicBlock *at = BasicBlock::Create(ctx, "uniform.load", f, join);
        IRBuilder<> b(preheader->getTerminator());
        Value *holds = nullptr;
        for (auto [value, on] : condition) {
            Value *term = on ? value : b.CreateNot(value);
            holds = holds ? b.CreateAnd(holds, term) : term;
        }
        b.CreateCondBr(holds, at, join);
        preheader->getTerminator()->eraseFromParent();
        load->moveBefore(BranchInst::Create(join, at));
        b.SetInsertPoint(join, join->begin());
        PHINode *value = b.CreatePHI(load->getType(), 2, load->getName() + ".before");
        load->replaceAllUsesWith(value);
        value->addIncoming(load, at);
        value->addIncoming(PoisonValue::get(load->getType()), preheader);
        // The loop's own accesses are the work-items'; this one is the
        // group's.
        load->setMetadata(LLVMContext::MD_access_group, nullptr);
        preheader = join;
    }
}

} // namespace

PreservedAnalyses UniformLoadsBeforeRowsPass::run(Function &f, FunctionAnalysisManager &fam)
{
    if (f.isDeclaration())
        return PreservedAnalyses::all();
    LoopInfo &loops = fam.getResult<LoopAnalysis>(f);
    SmallVector<BasicBlock *, 4> headers;
    for (Loop *l : loops.getLoopsInPreorder())
        if (l->isInnermost() && is_work_item_loop(l) && l->getLoopLatch() &&
            l->getLoopPredecessor())
            headers.push_back(l->getHeader());
    bool changed = false;
    for (BasicBlock *header : headers) {
        Loop *l = fam.getResult<LoopAnalysis>(f).getLoopFor(header);
        if (!l || l->getHeader() != header)
            continue;
        auto &dt = fam.getResult<DominatorTreeAnalysis>(f);
        auto &aa = fam.getResult<AAManager>(f);
        auto loads = loads_to_move(l, dt, aa);
        if (loads.empty())
            continue;
        // Grouped by the loop each moves before, in their order.
        SmallVector<std::pair<Loop *, SmallVector<std::pair<LoadInst *, Condition>, 8>>, 2> by;
        for (auto &[load, condition] : loads) {
            Loop *target = outermost_before(l, load, condition, dt, aa);
            auto it = find_if(by, [&](auto &g) { return g.first == target; });
            if (it == by.end())
                it = &by.emplace_back(target, SmallVector<std::pair<LoadInst *, Condition>, 8>{});
            it->second.push_back({load, condition});
        }
        for (auto &[target, group] : by)
            move_before_loop(target, group);
        fam.invalidate(f, PreservedAnalyses::none());
        changed = true;
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
