// `ferrocl-active-rows-unguarded`: in the back end, right before the loop
// vectorizer, an innermost work-item loop whose header skips a work-item
// on a flag it loads (the per-work-item `guard.active` of a guard a loop was
// moved out of, loops_out_of_guards.cpp) runs, when every work-item of the
// row has the flag on, in a copy of the loop without the test:
//
//     for (x = 0; x < n; x++)           all = true;
//         if (active[x])                for (x = 0; x < n; x++) all &= active[x];
//             A(x)                      if (all) for (x = 0; x < n; x++) A(x)
//                                       else     (the loop as it was)
//
// Why: in the loop as it was, every access of A(x) is under the flag's
// mask. CPUs without AVX-512 have no fast gathers, so LLVM's vectorizer
// cannot give a masked lane of a load of one address (`y[j]`, the same in
// every work-item) a masked vector access: it prices the loop as a branch
// per lane and leaves it scalar. PolyBench's mvt (`x2[i] += a[j * n + i] *
// y2[j]` inside `if (i < n)`) ran one work-item at a time on a Zen 3 EPYC,
// at 0.48x of Intel's runtime. The guard of such a kernel nearly always
// passes; the copy's loads and stores are plain.
//
// Why it is sound: the check loads what the loop's header loads, for the
// same work-items, before the loop, and nothing in the loop may write it
// (alias analysis: the flags are in the frame, whose accesses carry their
// own scopes); where every flag is on, the test in each iteration would
// have taken the side the copy takes. Work-items run in the same order.
// A loop whose test reads no memory (a test of the index:
// bounds_checks_as_ranges.cpp) or reads it through anything but plain
// arithmetic is left alone, and so is one whose body loads nothing from an
// address the loop does not change (it vectorizes under its mask).
#include "passes.h"
#include "work_item_intervals.h"

#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Local.h>

using namespace llvm;

namespace ferrocl {

namespace {

// The flag tests deeper than this are not read (fail closed).
constexpr unsigned MAX_CHAIN = 16;

struct Shape {
    Row row;
    BranchInst *guard;
    // The side of the guard that runs the work-item's body.
    BasicBlock *work;
    bool work_on_true;
    // What the guard's condition is computed from in the header, in the
    // header's order: arithmetic on the counter and loads.
    SmallVector<Instruction *, 8> chain;
};

// Whether `b` only goes on to the latch: the side of a guard that skips
// the work-item.
bool skips(BasicBlock *b, BasicBlock *latch)
{
    return b == latch || (b->size() == 1 && b->getSingleSuccessor() == latch);
}

// Collects in `chain` the header's instructions `v` is computed from, down
// to the loop's counter and invariants; false if one is a phi, a call or
// has effects, or lies outside the header.
bool read_chain(Value *v, const Row &r, SmallPtrSetImpl<Instruction *> &chain)
{
    auto *i = dyn_cast<Instruction>(v);
    if (!i || !r.loop->contains(i) || i == r.counter || chain.contains(i))
        return true;
    if (i->getParent() != r.loop->getHeader() || isa<PHINode>(i) || isa<CallBase>(i) ||
        chain.size() == MAX_CHAIN)
        return false;
    if (auto *load = dyn_cast<LoadInst>(i); load ? !load->isSimple() : i->mayHaveSideEffects())
        return false;
    chain.insert(i);
    for (Value *op : i->operands())
        if (!read_chain(op, r, chain))
            return false;
    return true;
}

bool read_shape(Loop *l, AAResults &aa, Shape &s)
{
    std::optional<Row> row = read_row(l);
    if (!row)
        return false;
    s.row = *row;
    BasicBlock *header = l->getHeader();
    BasicBlock *latch = l->getLoopLatch();
    auto *guard = dyn_cast<BranchInst>(header->getTerminator());
    if (header == latch || !guard || !guard->isConditional())
        return false;
    s.guard = guard;
    BasicBlock *on_true = guard->getSuccessor(0), *on_false = guard->getSuccessor(1);
    if (skips(on_false, latch) && !skips(on_true, latch))
        s.work = on_true, s.work_on_true = true;
    else if (skips(on_true, latch) && !skips(on_false, latch))
        s.work = on_false, s.work_on_true = false;
    else
        return false;
    // Only where the masks cost most: the body loads from an address the
    // loop does not change (mvt's `y2[j]`). A body without one vectorizes
    // under its mask, and a short row whose flags are mostly off (Rodinia's
    // backprop, `if (tx == 0)` in rows of 16) ran 3x slower checked.
    bool uniform_load = false;
    for (BasicBlock *b : l->blocks())
        if (b != header && b != latch)
            for (Instruction &i : *b)
                if (auto *load = dyn_cast<LoadInst>(&i))
                    uniform_load = uniform_load || l->isLoopInvariant(load->getPointerOperand());
    if (!uniform_load)
        return false;
    SmallPtrSet<Instruction *, 8> chain;
    if (!read_chain(guard->getCondition(), s.row, chain) || chain.empty())
        return false;
    bool loads = false;
    for (Instruction &i : *header)
        if (chain.contains(&i)) {
            s.chain.push_back(&i);
            loads = loads || isa<LoadInst>(i);
        }
    if (!loads)
        return false;
    // Nothing in the loop writes what the test reads.
    for (Instruction *i : s.chain)
        if (auto *load = dyn_cast<LoadInst>(i); load && written_in_loop(l, load, aa))
            return false;
    return true;
}

void rewrite(const Shape &s)
{
    const Row &r = s.row;
    Loop *l = r.loop;
    BasicBlock *header = l->getHeader();
    BasicBlock *latch = l->getLoopLatch();
    Function *f = header->getParent();
    LLVMContext &ctx = f->getContext();
    auto [preheader, exit_block] = own_preheader_and_exit(l);

    // The copy, where the guard always runs the body.
    ValueToValueMapTy map;
    copy_blocks(l->getBlocks(), ".active", map);
    auto *copied_guard = cast<BranchInst>(map[s.guard]);
    BasicBlock *copied_skip = copied_guard->getSuccessor(s.work_on_true ? 1 : 0);
    copied_skip->removePredecessor(copied_guard->getParent());
    BranchInst::Create(cast<BasicBlock>(map[s.work]), copied_guard);
    copied_guard->eraseFromParent();

    // Before both: whether every work-item of the row has the flag on, in
    // a loop over the same work-items.
    BasicBlock *check = BasicBlock::Create(ctx, "active.check", f, header);
    BasicBlock *decide = BasicBlock::Create(ctx, "active.decide", f, header);
    preheader->getTerminator()->replaceSuccessorWith(header, check);
    IRBuilder<> b(check);
    PHINode *id = b.CreatePHI(r.counter->getType(), 2, "active.id");
    PHINode *all = b.CreatePHI(b.getInt1Ty(), 2, "active.all");
    ValueToValueMapTy check_map;
    check_map[r.counter] = id;
    auto copy_into_check = [&](Instruction *i) {
        Instruction *c = i->clone();
        c->insertInto(check, check->end());
        check_map[i] = c;
        RemapInstruction(c, check_map, RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
        return c;
    };
    for (Instruction *i : s.chain)
        copy_into_check(i);
    b.SetInsertPoint(check);
    Value *on = check_map[s.guard->getCondition()];
    if (!s.work_on_true)
        on = b.CreateNot(on);
    Value *still = b.CreateAnd(all, on, "active.still");
    // The counter's next value (`id + 1`) and the exit test as the latch
    // has them (parallel_access.h, WorkItemCounter).
    Instruction *next = copy_into_check(cast<Instruction>(r.next));
    Instruction *exit = copy_into_check(r.exit);
    b.SetInsertPoint(check);
    auto *latch_branch = cast<BranchInst>(latch->getTerminator());
    bool stays_on_true = latch_branch->getSuccessor(0) == header;
    b.CreateCondBr(exit, stays_on_true ? check : decide, stays_on_true ? decide : check);
    id->addIncoming(r.start, preheader);
    id->addIncoming(next, check);
    all->addIncoming(ConstantInt::getTrue(ctx), preheader);
    all->addIncoming(still, check);

    b.SetInsertPoint(decide);
    b.CreateCondBr(still, cast<BasicBlock>(map[header]), header);
    for (BasicBlock *h : {header, cast<BasicBlock>(map[header])})
        for (PHINode &phi : h->phis()) {
            int from_before = phi.getBasicBlockIndex(preheader);
            if (from_before >= 0)
                phi.setIncomingBlock(from_before, decide);
        }
}

} // namespace

PreservedAnalyses ActiveRowsUnguardedPass::run(Function &f, FunctionAnalysisManager &fam)
{
    if (f.isDeclaration())
        return PreservedAnalyses::all();
    bool copied = rewrite_loops_one_at_a_time(f, fam, [&](Loop *l, bool apply) {
        Shape s;
        if (!read_shape(l, fam.getResult<AAManager>(f), s))
            return false;
        if (apply)
            rewrite(s);
        return true;
    });
    if (!copied)
        return PreservedAnalyses::all();
    removeUnreachableBlocks(f);
    return PreservedAnalyses::none();
}

} // namespace ferrocl
