// `ferrocl-loops-out-of-guards`: in a kernel without barriers, a loop that
// would get implicit barriers (group_uniformity.h, carries_compute and
// exits_uniformly) but sits behind a work-item's bounds check,
//
//     if (i < n && j < m) { A; for (k = 0; k < nk; k++) B; C }
//
// becomes a loop every work-item runs, its body guarded instead:
//
//     if (i < n && j < m) { A; active = true }
//     for (k = 0; k < nk; k++) if (active) B
//     if (active) C
//
// Why: nearly every kernel checks its bounds, and implicit barriers need a
// loop that all work-items reach. Behind the check, PolyBench's gemm, 2mm,
// syrk and their kind ran one work-item at a time, 3-7x slower than Intel's
// runtime; with the loop outside it the work-item loop runs inside each
// iteration and vectorizes with masked loads and stores.
//
// In a kernel with barriers (implicit ones: the pass runs again after
// implicit_barriers.cpp), the same for an innermost loop inside loops that
// all hold a barrier, guarded where all work-items go together in each
// iteration of those: Rodinia's kmeans, a loop over the features inside
// the loop over the clusters, both behind the point's bounds check, ran
// one work-item at a time, 7x slower than Intel's runtime.
//
// It changes no result: each work-item runs A, B and C as before, in the
// same order; the others run only the loop's control, which is uniform
// (the same counters and exit test for all, computed again from uniform
// values where the check held them) and has no side effects. Only bounds
// checks move (comparisons by order, not `==`: `if (id == 0) for ...`, one
// work-item's serial loop, would make every work-item pay its iterations).
// What the pass cannot prove it leaves alone: loops tested anywhere but at
// their header, headers that do more than compute the test, guards whose
// region does not rejoin at one block, control values it cannot compute
// again.
#include "branch_on_edge.h"
#include "group_uniformity.h"
#include "kernel_symbols.h"
#include "passes.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

using namespace llvm;

namespace ferrocl {

namespace {

// Longer chains of control values are not computed again (fail closed).
constexpr unsigned MAX_CHAIN = 32;

// An instruction the loop's control may run for work-items the guard
// excluded, or compute again: no memory access, no trap, no side effect.
bool recomputable(const Instruction &i)
{
    if (isa<PHINode>(i))
        return false;
    if (isa<CallInst>(i)) {
        const Function *f = called_function(i);
        return f && is_uniform_work_item_function(f->getName());
    }
    return !i.mayReadOrWriteMemory() && isSafeToSpeculativelyExecute(&i);
}

// A conditional branch of the guard: a comparison by order (bounds
// checks), a test all work-items agree on, or the flag of a check this
// pass moved a loop out of (GUARD_FLAG_PREFIX).
bool bounds_check(const BranchInst &br, const GroupUniformity &u)
{
    if (br.isUnconditional() || u.uniform(br.getCondition()) ||
        br.getCondition()->getName().starts_with(GUARD_FLAG_PREFIX))
        return true;
    const auto *cmp = dyn_cast<ICmpInst>(br.getCondition());
    return cmp && !cmp->isEquality();
}

// The loop, its guard and what the pass found out about them.
struct Guarded {
    Loop *loop;
    BasicBlock *preheader, *header, *latch, *exit, *first_body;
    // The nearest block that dominates the loop and all work-items reach;
    // the block where its paths join again.
    BasicBlock *start, *join;
    // The guard's blocks before the loop (start and preheader among them)
    // and after it.
    SmallPtrSet<BasicBlock *, 16> before, after;
    SmallVector<PHINode *, 4> counters;
};

// Whether `v` can be had where all work-items meet before the loop: defined
// in a block that dominates the guard's start, or computed from such
// values by recomputable operations in the guard's blocks.
bool at_join(const Value *v, const Guarded &g, const DominatorTree &dt, unsigned depth)
{
    const auto *i = dyn_cast<Instruction>(v);
    if (!i || dt.dominates(i->getParent(), g.start))
        return true;
    if (depth > MAX_CHAIN || !g.before.contains(i->getParent()) || !recomputable(*i))
        return false;
    for (const Value *op : i->operands())
        if (!at_join(op, g, dt, depth + 1))
            return false;
    return true;
}

// Whether the loop's block `b` (its header or its latch) can run for
// every work-item: it only computes the loop's control, by recomputable
// operations on the header's values, its own, and values at_join.
bool runs_for_all(const BasicBlock &b, const Guarded &g, const DominatorTree &dt)
{
    for (const Instruction &i : b) {
        // The header's phis, and the latch's that only carry a value to
        // them (carries_only): a skipped body leaves those as they were.
        if (isa<PHINode>(i) && (&b == g.header || &b == g.latch))
            continue;
        if (!i.isTerminator() && !recomputable(i))
            return false;
        for (const Value *op : i.operands()) {
            const auto *def = dyn_cast<Instruction>(op);
            if (!def)
                continue;
            if (!g.loop->contains(def) ? !at_join(def, g, dt, 0)
                                       : def->getParent() != g.header && def->getParent() != &b)
                return false;
        }
    }
    return true;
}

// Whether each phi of the loop's `latch` only passes its value to a phi of
// the `header` (`s = c ? s + x : s` merged at the end of an iteration): a
// work-item that skips the body then passes the header phi's own value.
bool carries_only(const BasicBlock &latch, const BasicBlock &header)
{
    for (const PHINode &phi : latch.phis()) {
        if (!phi.hasOneUse())
            return false;
        const auto *to = dyn_cast<PHINode>(*phi.user_begin());
        if (!to || to->getParent() != &header || to->getIncomingValueForBlock(&latch) != &phi)
            return false;
    }
    return true;
}

// The loop `l` and its guard, when the pass can move the one out of the
// other.
std::optional<Guarded> find_guard(Function &f, Loop &l, const LoopInfo &loops,
                                  const DominatorTree &dt, const PostDominatorTree &pdt,
                                  const GroupUniformity &u)
{
    Guarded g{&l};
    g.preheader = l.getLoopPreheader();
    g.header = l.getHeader();
    g.latch = l.getLoopLatch();
    g.exit = l.getExitBlock();
    BasicBlock *entry = &f.getEntryBlock();
    if (!g.preheader || !g.latch || !g.exit || l.getExitingBlock() != g.header)
        return std::nullopt;
    // All work-items reach it already: implicit_barriers.cpp's case.
    if (u.together(g.preheader) || pdt.dominates(g.preheader, entry))
        return std::nullopt;
    // A loop inside others runs where all work-items go together in each
    // iteration of those: inside loops that all hold a barrier (implicit
    // ones included), itself without one.
    Loop *outer = l.getParentLoop();
    if (outer && (!l.getSubLoops().empty() || has_plain_barrier(l) || !only_barrier_loops(outer)))
        return std::nullopt;
    auto *test = dyn_cast<BranchInst>(g.header->getTerminator());
    auto *enter = dyn_cast<BranchInst>(g.preheader->getTerminator());
    if (!test || !test->isConditional() || !enter || enter->isConditional())
        return std::nullopt;
    g.first_body = test->getSuccessor(l.contains(test->getSuccessor(0)) ? 0 : 1);
    if (g.first_body == g.header || !carries_compute(l, u) || !exits_uniformly(l, g.counters))
        return std::nullopt;
    for (const DomTreeNode *n = dt.getNode(g.preheader)->getIDom(); n && !g.start;
         n = n->getIDom())
        if (u.together(n->getBlock()) || pdt.dominates(n->getBlock(), entry))
            g.start = n->getBlock();
    // The loop then starts where all work-items pass (implicit barriers
    // need that): on every path through the kernel, or, inside a loop,
    // where they go together in each of its iterations.
    if (!g.start || !(outer ? u.together(g.start) && outer->contains(g.start)
                            : pdt.dominates(g.start, entry)))
        return std::nullopt;
    const DomTreeNode *post = pdt.getNode(g.start);
    g.join = post && post->getIDom() ? post->getIDom()->getBlock() : nullptr;
    // A loop that left straight to the join would store the join's values
    // in its header, for every work-item.
    if (!g.join || g.join == g.exit || !dt.dominates(g.start, g.join) || g.join->isEHPad())
        return std::nullopt;
    if (outer && (!outer->contains(g.join) || g.join == outer->getHeader()))
        return std::nullopt;
    SmallPtrSet<BasicBlock *, 32> region;
    for (BasicBlock &b : f)
        if (&b != g.join && dt.dominates(g.start, &b) && !dt.dominates(g.join, &b))
            region.insert(&b);
    for (BasicBlock *b : l.blocks())
        if (!region.contains(b))
            return std::nullopt;
    SmallVector<BasicBlock *, 8> work{g.exit};
    while (!work.empty()) {
        BasicBlock *b = work.pop_back_val();
        if (b == g.join || !g.after.insert(b).second)
            continue;
        if (!region.contains(b) || l.contains(b))
            return std::nullopt;
        for (BasicBlock *s : successors(b))
            work.push_back(s);
    }
    for (BasicBlock *b : region)
        if (!l.contains(b) && !g.after.contains(b))
            g.before.insert(b);
    // Inside a loop, the guard's blocks run at most once per iteration of
    // it (no loop of their own): the flag below is set again in each.
    if (outer)
        for (BasicBlock *b : region)
            if (!l.contains(b) && loops.getLoopFor(b) != outer)
                return std::nullopt;
    if (!g.before.contains(g.preheader))
        return std::nullopt;
    for (BasicBlock *b : g.before) {
        auto *br = dyn_cast<BranchInst>(b->getTerminator());
        if (!br || !bounds_check(*br, u))
            return std::nullopt;
        for (BasicBlock *s : successors(b))
            if (!g.before.contains(s) && s != g.join && !(b == g.preheader && s == g.header))
                return std::nullopt;
    }
    // The control the work-items outside the guard run: the header and the
    // latch (a `for` loop's increment).
    if (g.latch == g.header || !carries_only(*g.latch, *g.header) ||
        !runs_for_all(*g.header, g, dt) || !runs_for_all(*g.latch, g, dt))
        return std::nullopt;
    for (PHINode *phi : g.counters)
        if (!at_join(phi->getIncomingValueForBlock(g.preheader), g, dt, 0))
            return std::nullopt;
    return g;
}

// The values of the guard's blocks that the loop's control uses, computed
// again where all work-items meet.
struct JoinCopies {
    JoinCopies(const Guarded &g, const DominatorTree &dt, BasicBlock *meet)
        : g(g), dt(dt), meet(meet)
    {
    }

    const Guarded &g;
    const DominatorTree &dt;
    BasicBlock *meet;
    DenseMap<Value *, Value *> done;

    Value *get(Value *v)
    {
        auto *i = dyn_cast<Instruction>(v);
        if (!i || dt.dominates(i->getParent(), g.start))
            return v;
        if (auto it = done.find(v); it != done.end())
            return it->second;
        Instruction *copy = i->clone();
        copy->setName(i->getName() + ".again");
        for (Use &op : copy->operands())
            op.set(get(op.get()));
        copy->insertBefore(meet->getTerminator());
        done[v] = copy;
        return copy;
    }
};

void move_out_of_guard(Function &f, Guarded &g, const DominatorTree &dt)
{
    LLVMContext &ctx = f.getContext();
    BasicBlock *entry = &f.getEntryBlock();
    Instruction *alloca_at = &*entry->getFirstInsertionPt();
    SmallVector<AllocaInst *, 16> allocas;
    // The join's phis to memory first: their values from the guard's
    // skipping edges now travel through the loop.
    SmallVector<PHINode *, 4> join_phis;
    for (PHINode &phi : g.join->phis())
        join_phis.push_back(&phi);
    for (PHINode *phi : join_phis)
        allocas.push_back(DemotePHIToStack(phi, alloca_at->getIterator()));
    // Whether this work-item passed the guard.
    auto *active = new AllocaInst(Type::getInt1Ty(ctx), f.getParent()->getDataLayout().getAllocaAddrSpace(),
                                  Twine(GUARD_FLAG_PREFIX) + "active", alloca_at);
    allocas.push_back(active);
    // Cleared where all work-items pass, once per iteration of a loop
    // around the guard.
    new StoreInst(ConstantInt::getFalse(ctx), active, g.start->getTerminator());
    new StoreInst(ConstantInt::getTrue(ctx), active, g.preheader->getTerminator());
    // Where all work-items meet, then enter the loop.
    BasicBlock *meet = BasicBlock::Create(ctx, "guard.join", &f, g.header);
    BranchInst::Create(g.header, meet);
    for (BasicBlock *b : g.before) {
        Instruction *term = b->getTerminator();
        for (unsigned k = 0; k < term->getNumSuccessors(); k++)
            if (term->getSuccessor(k) == g.join)
                term->setSuccessor(k, meet);
    }
    g.preheader->getTerminator()->setSuccessor(0, meet);
    for (PHINode &phi : g.header->phis())
        phi.replaceIncomingBlockWith(g.preheader, meet);
    // Out of the loop: the guard's work-items go on after it, the others
    // to the join. (The flag's loads go in the header; promoted, they
    // become the join's phi.)
    Instruction *test = g.header->getTerminator();
    branch_on_edge(g.header, g.exit, g.join,
                   new LoadInst(Type::getInt1Ty(ctx), active, "guard.active.out", test),
                   "guard.exit");
    // Each iteration: the body for the guard's work-items; the latch, which
    // only counts, for all.
    BasicBlock *body = branch_on_edge(
        g.header, g.first_body, g.latch,
        new LoadInst(Type::getInt1Ty(ctx), active, "guard.active.in", test), "guard.body");
    for (PHINode &phi : g.latch->phis())
        phi.addIncoming(cast<PHINode>(*phi.user_begin()), body);
    JoinCopies again(g, dt, meet);
    SmallPtrSet<PHINode *, 4> counters(g.counters.begin(), g.counters.end());
    for (PHINode *phi : g.counters)
        phi->setIncomingValueForBlock(meet, again.get(phi->getIncomingValueForBlock(meet)));
    // A value the body computes (a sum) reaches the latch from the body;
    // past a skipped body it stays what it was.
    carry_past_skip(*g.loop, g.latch, body, counters);
    for (BasicBlock *b : {g.header, g.latch})
        for (Instruction &i : *b)
            if (!isa<PHINode>(i))
                for (Use &op : i.operands())
                    if (auto *def = dyn_cast<Instruction>(op.get());
                        def && !g.loop->contains(def))
                        op.set(again.get(def));
    // The guard's other values to memory where their uses no longer see
    // them (the loop's body, what follows it), then everything back to
    // registers.
    DominatorTree now(f);
    SmallVector<Instruction *, 16> demote;
    for (BasicBlock *b : g.before)
        for (Instruction &i : *b)
            if (!isa<AllocaInst>(i))
                for (const Use &use : i.uses())
                    if (!now.dominates(&i, use)) {
                        demote.push_back(&i);
                        break;
                    }
    for (Instruction *i : demote)
        allocas.push_back(DemoteRegToStack(*i, false, alloca_at->getIterator()));
    DominatorTree last(f);
    SmallVector<AllocaInst *, 16> promotable;
    for (AllocaInst *a : allocas)
        if (a && isAllocaPromotable(a))
            promotable.push_back(a);
    PromoteMemToReg(promotable, last);
}

} // namespace

PreservedAnalyses LoopsOutOfGuardsPass::run(Module &m, ModuleAnalysisManager &mam)
{
    auto &fam = mam.getResult<FunctionAnalysisManagerModuleProxy>(m).getManager();
    bool changed = false;
    for (Function &f : m) {
        if (f.isDeclaration() || !is_kernel(f))
            continue;
        Waits w = kernel_waits(f);
        if (w.others)
            continue;
        // One loop at a time, the analyses afresh after each.
        for (bool moved = true; moved;) {
            moved = false;
            auto &loops = fam.getResult<LoopAnalysis>(f);
            auto &dt = fam.getResult<DominatorTreeAnalysis>(f);
            auto &pdt = fam.getResult<PostDominatorTreeAnalysis>(f);
            GroupUniformity u(f);
            for (Loop *l : loops.getLoopsInPreorder()) {
                // Without barriers, loops at the kernel's top; with them
                // (implicit_barriers.cpp put some at such loops), the
                // innermost loops inside loops that hold one.
                if (!l->getParentLoop() && w.plain_barriers)
                    continue;
                std::optional<Guarded> g = find_guard(f, *l, loops, dt, pdt, u);
                if (!g)
                    continue;
                move_out_of_guard(f, *g, dt);
                fam.invalidate(f, PreservedAnalyses::none());
                moved = changed = true;
                break;
            }
        }
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
