// `ferrocl-bounds-checks-as-ranges`: in the back end, right before the loop
// vectorizer, an innermost work-item loop whose body starts with a bounds
// check on its own index runs only the work-items that pass it, unchecked:
//
//     for (x = 0; x < n; x++)                  for (piece = 0; piece < 2; piece++)
//         if (base + x < m) {                      for (x = lo[piece]; x < hi[piece]; x++)
//             A(x)                                     A(x)
//         }
//
// Why: nearly every kernel checks `get_global_id(d) < size`. In the loop
// the vectorizer makes, the check is a mask computed for every vector from
// the lanes' indices, and every load and store of the body is masked
// (AVX-512 masked stores are slow on some cores). Rodinia's gaussian Fan2,
// `if (x < size - 1 - t && y < size - t) a[...] -= ...`, ran 2x slower than
// with the check on y left out, and Intel's CPU runtime 1.2x.
//
// The work-items that pass `v(i) PRED bound` (v the index the check reads:
// affine in the loop's counter with step one in its own integer type, the
// bound invariant) form one interval of the counter where v does not wrap
// around its type, so at most two intervals in all: the loop runs over each
// (the bounds computed once, before the loop, in an integer twice as wide,
// where nothing overflows). A check that is a conjunction (the body on its
// true edge) or disjunction (the body on its false edge) of one such test
// and tests the loop does not change runs the loop over nothing when those
// fail.
//
// Why it is sound: the work-items that fail the check do nothing; the
// loop's header (where the check is) and latch have no effects, the body is
// all that the check skips, and no value of the loop is used after it; so
// leaving those work-items out changes nothing. The others run in the same
// order as before. What it cannot read this way, it leaves alone.
//
// Only for long rows: cut into intervals, a row of 32 (PolyBench's 2dconv,
// fdtd2d) runs a scalar tail after each interval's vector loop, and ran
// 15-25% slower; a row of 1024 (Rodinia's nn, gaussian Fan2 with local
// size NULL) 1.7-6x faster. Which rows are long is known only at launch,
// so the function's body is copied: its entry takes the copy, where the
// loop is rewritten, when the loop's row is at least LONG_ROW long, and
// the body as it was otherwise. A copy of the whole body (not of the loop
// nest inside it): the values the intervals need then live in the copy
// only, where a copy beside the loop had the loop as it was spill vectors.
// A loop whose row is not known at the entry stays as it is, and so do
// kernels of several regions (only_region says why) and large ones: the
// copy doubles the back end's work on the function. Measured on
// 2 cores: nn 2,650 -> 270 us, Fan2 550 -> 300 us, the corpus's builds
// unchanged in their geometric mean (cutcp, Fan2 and nn 8-17 ms longer).
#include "parallel_access.h"
#include "passes.h"
#include "work_item_intervals.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace ferrocl {

namespace {

// Index tests of one check at most (`j > 0 && j < n - 1`: PolyBench's
// 2dconv); the intervals that pass them all are at most 2^MAX_TESTS.
constexpr unsigned MAX_TESTS = 2;

// The header's bounds check: the body (`body`, one successor of `br`; the
// other is the latch) runs for the work-items that pass `tests` and the
// tests the loop does not change (`invariant`: each must hold, or fail
// where `second` is true).
struct Guard {
    BranchInst *br;
    BasicBlock *body;
    SmallVector<Test, MAX_TESTS> tests;
    SmallVector<std::pair<Value *, bool>, 2> invariant;
};

// A branch of the body on `index == bound` (test.pred is EQ): one
// work-item at most takes its edge for equal, the others `other`.
struct Point {
    BranchInst *br;
    BasicBlock *other;
    Test test;
};

// A loop this pass rewrites: its row (the latch's `exit` test is `next ==
// end`), and the check or point it takes out.
struct Shape {
    Row row;
    std::optional<Guard> guard;
    std::optional<Point> point;
};

// Whether `b`'s instructions have no effect but on registers (loads are
// fine: skipping one changes nothing).
bool without_effects(const BasicBlock &b)
{
    for (const Instruction &i : b)
        if (i.mayHaveSideEffects() || isa<AllocaInst>(i))
            return false;
    return true;
}

// Reads the header's check `cond`: leaves joined by `and` when the body
// runs on its true edge, by `or` when on its false edge; up to MAX_TESTS
// leaves test an index by order or equality, the others are invariant.
bool read_check(Value *cond, bool negate, Loop *l, ScalarEvolution &se, Guard &g)
{
    Value *a, *b;
    if (!negate ? match(cond, m_LogicalAnd(m_Value(a), m_Value(b)))
                : match(cond, m_LogicalOr(m_Value(a), m_Value(b))))
        return read_check(a, negate, l, se, g) && read_check(b, negate, l, se, g);
    if (l->isLoopInvariant(cond)) {
        g.invariant.push_back({cond, negate});
        return true;
    }
    std::optional<Test> t =
        g.tests.size() < MAX_TESTS ? read_test(cond, negate, l, se) : std::nullopt;
    if (!t || (!ICmpInst::isRelational(t->pred) && t->pred != ICmpInst::ICMP_EQ))
        return false;
    g.tests.push_back(*t);
    return true;
}

std::optional<Guard> read_guard(Loop *l, ScalarEvolution &se)
{
    BasicBlock *header = l->getHeader();
    BasicBlock *latch = l->getLoopLatch();
    auto *br = dyn_cast<BranchInst>(header->getTerminator());
    if (!br || !br->isConditional())
        return std::nullopt;
    bool body_on_true = br->getSuccessor(1) == latch;
    if (!body_on_true && br->getSuccessor(0) != latch)
        return std::nullopt;
    BasicBlock *body = br->getSuccessor(body_on_true ? 0 : 1);
    // The work-items the check skips run the header and the latch only.
    if (body == latch || !without_effects(*header) || !without_effects(*latch) ||
        !latch->phis().empty())
        return std::nullopt;
    Guard g{br, body, {}, {}};
    if (!read_check(br->getCondition(), !body_on_true, l, se, g) || g.tests.empty())
        return std::nullopt;
    return g;
}

// The first branch of the body (not the guard's, not the latch's) on
// whether an index equals a bound.
std::optional<Point> read_point(Loop *l, ScalarEvolution &se, const BranchInst *guard)
{
    for (BasicBlock *b : l->blocks()) {
        auto *br = dyn_cast<BranchInst>(b->getTerminator());
        if (!br || !br->isConditional() || br == guard || b == l->getLoopLatch())
            continue;
        for (bool negate : {false, true}) {
            std::optional<Test> t = read_test(br->getCondition(), negate, l, se);
            if (t && t->pred == ICmpInst::ICMP_EQ)
                return Point{br, br->getSuccessor(negate ? 0 : 1), *t};
        }
    }
    return std::nullopt;
}

bool read_shape(Loop *l, ScalarEvolution &se, Shape &s)
{
    std::optional<Row> row = read_row(l);
    // The latch apart from the header (the guard's branch is the header's),
    // and `end` second in the exit test (the rewrite gives it another bound).
    if (!row || l->getLoopLatch() == l->getHeader() || row->exit->getOperand(0) != row->next)
        return false;
    s.row = *row;
    s.guard = read_guard(l, se);
    s.point = read_point(l, se, s.guard ? s.guard->br : nullptr);
    return s.guard || s.point;
}

// The intervals of iterations in [0, count) whose work-items pass the
// guard: those of its tests intersected.
SmallVector<Interval, 8> guarded(IRBuilder<> &b, const Guard &g, Value *count, Type *wide,
                                 SCEVExpander &expander)
{
    SmallVector<Interval, 8> pieces = {{ConstantInt::get(wide, 0), count}};
    for (const Test &t : g.tests) {
        SmallVector<Interval, 8> both;
        for (auto [lo, hi] : pieces)
            for (auto [tlo, thi] : intervals_passing(b, t, count, wide, expander))
                both.push_back({b.CreateBinaryIntrinsic(Intrinsic::smax, tlo, lo),
                                b.CreateBinaryIntrinsic(Intrinsic::smin, thi, hi)});
        pieces = both;
    }
    Value *holds = b.getTrue();
    for (auto [v, fails] : g.invariant) {
        Value *test = b.CreateFreeze(v);
        holds = b.CreateAnd(holds, fails ? b.CreateNot(test) : test);
    }
    for (Interval &i : pieces)
        i.second = b.CreateSelect(holds, i.second, i.first);
    return pieces;
}

// The iteration (in [0, 2^width)) whose index equals the point's bound.
Value *point_at(IRBuilder<> &b, const Point &p, Type *wide, SCEVExpander &expander)
{
    const Test &t = p.test;
    Value *first =
        expander.expandCodeFor(t.index->getStart(), t.index->getType(), &*b.GetInsertPoint());
    Value *at = b.CreateSub(b.CreateFreeze(t.bound), b.CreateFreeze(first));
    return b.CreateZExt(at, wide);
}

// Rewrites the loop of `s`, whose rows are long.
void rewrite(Shape &s, ScalarEvolution &se, const DataLayout &dl)
{
    const Row &r = s.row;
    Loop *l = r.loop;
    BasicBlock *header = l->getHeader();
    BasicBlock *latch = l->getLoopLatch();
    LLVMContext &ctx = header->getContext();
    auto [preheader, exit_block] = own_preheader_and_exit(l);
    // The loop as it was, copied, for the work-item at the point.
    ValueToValueMapTy map;
    if (s.point)
        copy_blocks(l->getBlocks(), ".unchanged", map);
    Type *counter_type = r.counter->getType();
    unsigned width = 32;
    if (s.guard)
        for (const Test &t : s.guard->tests)
            width = std::max(width, t.index->getType()->getIntegerBitWidth());
    if (s.point)
        width = std::max(width, s.point->test.index->getType()->getIntegerBitWidth());
    Type *wide = IntegerType::get(ctx, 2 * width);

    // Before the loop: the intervals.
    IRBuilder<> b(preheader->getTerminator());
    SCEVExpander expander(se, dl, "bounds");
    Value *count = b.CreateZExtOrTrunc(b.CreateSub(r.end, r.start), wide);
    Value *zero = ConstantInt::get(wide, 0);
    SmallVector<Interval, 8> pieces = {{zero, count}};
    if (s.guard)
        pieces = guarded(b, *s.guard, count, wide, expander);
    Value *at = nullptr;
    if (s.point) {
        at = point_at(b, *s.point, wide, expander);
        SmallVector<Interval, 8> around;
        Value *after = b.CreateAdd(at, ConstantInt::get(wide, 1));
        for (auto [lo, hi] : pieces) {
            around.push_back({lo, clamp(b, at, lo, hi)});
            around.push_back({clamp(b, after, lo, hi), hi});
        }
        pieces = around;
    }
    SmallVector<Interval, 8> counters;
    for (auto [lo, hi] : pieces)
        counters.push_back({b.CreateAdd(r.start, b.CreateTrunc(lo, counter_type)),
                            b.CreateAdd(r.start, b.CreateTrunc(hi, counter_type))});

    // The loop over the intervals.
    Pieces p = open_pieces(preheader, exit_block, counters);
    Function *f = header->getParent();
    // Then the copy for the point, if the loop has its work-item.
    BasicBlock *after_pieces = exit_block;
    if (s.point) {
        after_pieces = BasicBlock::Create(ctx, "unchanged", f, exit_block);
        IRBuilder<> pb(after_pieces);
        Value *from = pb.CreateAdd(r.start, pb.CreateTrunc(at, counter_type), "at");
        Value *to = pb.CreateAdd(from, ConstantInt::get(counter_type, 1), "at.next");
        pb.CreateCondBr(pb.CreateICmpULT(at, count), cast<BasicBlock>(map[header]), exit_block);
        auto *counter = cast<PHINode>(map[r.counter]);
        counter->setIncomingBlock(counter->getBasicBlockIndex(preheader), after_pieces);
        counter->setIncomingValueForBlock(after_pieces, from);
        cast<ICmpInst>(map[r.exit])->setOperand(1, to);
    }
    close_pieces(p, after_pieces);
    r.counter->setIncomingValueForBlock(p.enter, p.lo);
    r.exit->setOperand(1, p.hi);
    latch->getTerminator()->replaceSuccessorWith(exit_block, p.next);
    // In the intervals, the check always passes and no work-item is at
    // the point.
    for (auto [br, to] : {std::pair{s.guard ? s.guard->br : nullptr,
                                    s.guard ? s.guard->body : nullptr},
                          std::pair{s.point ? s.point->br : nullptr,
                                    s.point ? s.point->other : nullptr}}) {
        if (!br)
            continue;
        Value *cond = br->getCondition();
        BranchInst::Create(to, br->getParent());
        for (BasicBlock *succ : successors(br))
            if (succ != to)
                succ->removePredecessor(br->getParent());
        br->eraseFromParent();
        RecursivelyDeleteTriviallyDeadInstructions(cond);
    }
}

// Whether `v` is known before the function's first branch.
bool at_entry(const Value *v, const BasicBlock &entry)
{
    const auto *i = dyn_cast<Instruction>(v);
    return isa<Constant>(v) || isa<Argument>(v) || (i && i->getParent() == &entry);
}

// The largest body copied, in instructions: the copy doubles the back
// end's work on it.
constexpr unsigned MAX_COPIED = 1000;

// The one innermost work-item loop of `f`, if `f`'s body is worth
// copying: one region (a kernel without barriers; one with barriers runs
// groups its local memory is sized for, rarely rows of 256, and copying all
// its regions cost Rodinia's nw 2.5x its build time) and small. Null if not.
Loop *only_region(const Function &f, const LoopInfo &loops)
{
    Loop *region = nullptr;
    for (Loop *l : loops.getLoopsInPreorder())
        if (is_work_item_loop(l) && none_of(l->getSubLoops(), is_work_item_loop)) {
            if (region)
                return nullptr;
            region = l;
        }
    return f.getInstructionCount() <= MAX_COPIED ? region : nullptr;
}

// Copies the function's body after its entry block (`.long` blocks); the
// entry branches to the copy where `long_rows`. `map` takes the originals
// to the copies.
void copy_body_for_long_rows(Function &f, Value *long_rows, ValueToValueMapTy &map)
{
    BasicBlock &entry = f.getEntryBlock();
    Instruction *branch = entry.getTerminator();
    BasicBlock *rest = SplitBlock(&entry, branch, static_cast<DominatorTree *>(nullptr), nullptr,
                                  nullptr, "rows");
    SmallVector<BasicBlock *, 32> originals;
    for (BasicBlock &b : f)
        if (&b != &entry)
            originals.push_back(&b);
    copy_blocks(originals, ".long", map);
    Instruction *into_rest = entry.getTerminator();
    BranchInst::Create(cast<BasicBlock>(map[rest]), rest, long_rows, &entry);
    into_rest->eraseFromParent();
}

} // namespace

PreservedAnalyses BoundsChecksAsRangesPass::run(Function &f, FunctionAnalysisManager &fam)
{
    if (f.isDeclaration())
        return PreservedAnalyses::all();
    // The loop to rewrite (the only candidate: a rewritten loop is an
    // innermost work-item loop), its row's first and last counters known
    // at the entry.
    Loop *l = only_region(f, fam.getResult<LoopAnalysis>(f));
    Shape s;
    const BasicBlock &entry = f.getEntryBlock();
    if (!l || !read_shape(l, fam.getResult<ScalarEvolutionAnalysis>(f), s) ||
        !at_entry(s.row.start, entry) || !at_entry(s.row.end, entry))
        return PreservedAnalyses::all();
    // Long rows take the copy of the body, where the loop is rewritten.
    IRBuilder<> b(f.getEntryBlock().getTerminator());
    Value *long_rows = b.CreateICmpUGE(b.CreateSub(s.row.end, s.row.start),
                                       ConstantInt::get(s.row.end->getType(), LONG_ROW), "long.rows");
    ValueToValueMapTy map;
    copy_body_for_long_rows(f, long_rows, map);
    auto *header = cast<BasicBlock>(map[l->getHeader()]);
    fam.invalidate(f, PreservedAnalyses::none());
    // The copy, read again with analyses that see it.
    Loop *copy = fam.getResult<LoopAnalysis>(f).getLoopFor(header);
    ScalarEvolution &se = fam.getResult<ScalarEvolutionAnalysis>(f);
    Shape c;
    if (copy && copy->getHeader() == header && read_shape(copy, se, c)) {
        rewrite(c, se, f.getDataLayout());
        removeUnreachableBlocks(f);
    }
    return PreservedAnalyses::none();
}

} // namespace ferrocl
