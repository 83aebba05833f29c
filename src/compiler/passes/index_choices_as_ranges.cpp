// `ferrocl-index-choices-as-ranges`: in the back end, right before the
// loop vectorizer, an innermost work-item loop whose addresses choose
// between values by testing its own index runs the work-items for which
// every such test chooses the index in a copy of the loop where the
// choices are gone:
//
//     for (x = 0; x < n; x++)              for (piece = 0; piece < 5; piece++)
//         A[min(x + 1, w - 1)]                 for (x = lo[piece]; x < hi[piece]; x++)
//         B[(x + 1) % n]                           if (piece is 1 or 3)
//                                                      A[x + 1], B[x + 1]
//                                                  else
//                                                      A[min(x + 1, w - 1)], B[(x + 1) % n]
//
// (each piece's loop is its own copy, chosen once per piece). Why: a
// neighbour clamped at the row's ends (image filters, Rodinia's hotspot)
// or wrapped around the group (clpeak's local_bandwidth, `(lid + 1) %
// lsize`) is an address the vectorizer cannot see as contiguous, so every
// work-item's access became a gather; all but a few work-items take the
// index itself, contiguous. clpeak's local_bandwidth_v8 gathered each of
// its float8's components: 2.4x PoCL's time.
//
// The choices read: `select(index PRED bound, a, b)` where one arm is the
// index (or the only one that changes with it), `min`/`max` of an index and
// a bound, and `index % d` (the index while `index < d`; a signed
// remainder also needs d > 0). Each is a test on the index that holds in at
// most two intervals of the loop (work_item_intervals.h): before the
// indices wrap around their types, where every test holds is one interval,
// and after they all have, another. The copy runs those two; the loop as it
// was runs the rest, so nothing is assumed where an interval cannot be
// computed. Only for rows of MIN_ROW work-items or more (a row cut into
// pieces runs each piece's end one work-item at a time).
//
// On hosts with AVX-512 the chosen pieces have a second copy, for pieces
// shorter than SHORT_PIECE_VECTORS vectors, whose loop asks the vectorizer
// to put its tail under a mask (fold_tail_under_mask): hotspot's inner
// piece of 14 ran as a vector of 8 and 6 work-items one at a time, 1.7x
// the CPU time of one masked vector. Long pieces keep the plain copy.
//
// Why it is sound: in the intervals each test holds, so each choice is the
// value it chooses there; the work-items run in the same order as before.
// A remainder whose divisor is 0 (poison, or guard_division.cpp's 1) is
// never the index's: `index < d` fails.
#include "passes.h"
#include "wide_vector_code.h"
#include "work_item_intervals.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace ferrocl {

namespace {

// Choices one loop's copy leaves out at most; each costs a few
// instructions before the loop.
constexpr unsigned MAX_CHOICES = 4;

// Rows at least this long run in pieces. Not only long rows
// (work_item_intervals.h LONG_ROW, where a bounds check's pieces pay off):
// a loop whose loads are gathers stays scalar on CPUs without fast gathers
// (the vectorizer prices each lane's load), so a row of 16 (Rodinia
// hotspot's groups, `E = min(tx + 1, validXmax)`) ran all 16 work-items
// one at a time; in pieces, its 14 inner work-items run as a vector of 8
// and 6 one at a time. hotspot 101-128 -> 82-94 ms of CPU a launch on a
// Zen 3 EPYC.
constexpr uint64_t MIN_ROW = 16;

// Pieces shorter than this many vectors of 32-bit elements run in the
// copy whose tail is under a mask, where the host has fast masks
// (fold_tail_under_mask).
constexpr uint64_t SHORT_PIECE_VECTORS = 2;

// The largest loop copied, in instructions.
constexpr unsigned MAX_LOOP = 400;

// A choice of the loop: `value` is `taken` where `test` holds (and, for
// a signed remainder, where its divisor `positive` is above 0).
struct Choice {
    Instruction *value;
    Value *taken;
    Test test;
    Value *positive;
};

// The choices of a loop found so far, by value.
using Choices = SmallDenseMap<const Value *, Choice, MAX_CHOICES>;

// `v` as an index of `l`, or a choice that takes one (`clamp(x - 1, 0,
// w - 1)` is a min of a max of the index).
const SCEVAddRecExpr *index_of(Value *v, Loop *l, ScalarEvolution &se, const Choices &found)
{
    if (auto it = found.find(v); it != found.end())
        v = it->second.taken;
    return read_index(v, l, se);
}

// Whether `v` ends in an address: the address of a load or store, through
// arithmetic, casts, choices and getelementptrs.
bool feeds_address(Instruction *v)
{
    SmallVector<Instruction *, 16> work = {v};
    SmallPtrSet<Instruction *, 32> seen = {v};
    while (!work.empty()) {
        Instruction *i = work.pop_back_val();
        for (User *u : i->users()) {
            auto *ui = dyn_cast<Instruction>(u);
            if (!ui || !seen.insert(ui).second || seen.size() > 64)
                continue;
            if (auto *load = dyn_cast<LoadInst>(ui); load && load->getPointerOperand() == i)
                return true;
            if (auto *store = dyn_cast<StoreInst>(ui); store && store->getPointerOperand() == i)
                return true;
            if (isa<BinaryOperator>(ui) || isa<CastInst>(ui) || isa<GetElementPtrInst>(ui) ||
                isa<SelectInst>(ui) || isa<MinMaxIntrinsic>(ui))
                work.push_back(ui);
        }
    }
    return false;
}

// `i` as a choice of `l` on its index, or none.
std::optional<Choice> read_choice(Instruction &i, Loop *l, ScalarEvolution &se,
                                  const Choices &found)
{
    if (auto *sel = dyn_cast<SelectInst>(&i)) {
        if (!sel->getType()->isIntegerTy())
            return std::nullopt;
        std::optional<Test> t = read_test(sel->getCondition(), false, l, se);
        if (!t)
            return std::nullopt;
        // The arm to keep: the index itself, or the only arm that changes
        // with it (a clamp's bound does not).
        Value *arms[2] = {sel->getTrueValue(), sel->getFalseValue()};
        int keep = -1;
        for (int k = 0; k < 2 && keep < 0; k++)
            if (se.getSCEV(arms[k]) == t->index)
                keep = k;
        for (int k = 0; k < 2 && keep < 0; k++)
            if (!l->isLoopInvariant(arms[k]) && l->isLoopInvariant(arms[1 - k]))
                keep = k;
        if (keep < 0)
            return std::nullopt;
        if (keep == 1)
            t = read_test(sel->getCondition(), true, l, se);
        return Choice{&i, arms[keep], *t, nullptr};
    }
    if (auto *mm = dyn_cast<MinMaxIntrinsic>(&i)) {
        for (int k = 0; k < 2; k++) {
            Value *v = mm->getOperand(k), *bound = mm->getOperand(1 - k);
            const SCEVAddRecExpr *index =
                l->isLoopInvariant(bound) ? index_of(v, l, se, found) : nullptr;
            if (!index)
                continue;
            // min(v, b) is v while v <= b; max(v, b) while v >= b.
            ICmpInst::Predicate pred = ICmpInst::getNonStrictPredicate(mm->getPredicate());
            return Choice{&i, v, Test{pred, index, bound}, nullptr};
        }
        return std::nullopt;
    }
    unsigned op = i.getOpcode();
    if (op == Instruction::URem || op == Instruction::SRem) {
        Value *v = i.getOperand(0), *d = i.getOperand(1);
        const SCEVAddRecExpr *index = l->isLoopInvariant(d) ? index_of(v, l, se, found) : nullptr;
        if (!index)
            return std::nullopt;
        return Choice{&i, v, Test{ICmpInst::ICMP_ULT, index, d},
                      op == Instruction::SRem ? d : nullptr};
    }
    return std::nullopt;
}

// A loop this pass rewrites: its row and the choices it takes out.
struct Shape {
    Row row;
    SmallVector<Choice, MAX_CHOICES> choices;
};

bool read_shape(Loop *l, ScalarEvolution &se, Shape &s)
{
    std::optional<Row> row = read_row(l);
    if (!row)
        return false;
    unsigned size = 0;
    for (BasicBlock *b : l->blocks())
        size += b->size();
    if (size > MAX_LOOP)
        return false;
    s.row = *row;
    // Found again until none is new: a choice may read one found later
    // (the loop's blocks are not in order).
    Choices found;
    for (bool grew = true; grew;) {
        grew = false;
        for (BasicBlock *b : l->blocks())
            for (Instruction &i : *b) {
                if (found.contains(&i))
                    continue;
                std::optional<Choice> choice = read_choice(i, l, se, found);
                if (!choice || !feeds_address(&i))
                    continue;
                if (found.size() == MAX_CHOICES)
                    return false;
                found[&i] = *choice;
                grew = true;
            }
    }
    // In the loop's order (the map's is the pointers'), so that a kernel
    // gets the same code in every build.
    for (BasicBlock *b : l->blocks())
        for (Instruction &i : *b)
            if (auto it = found.find(&i); it != found.end())
                s.choices.push_back(it->second);
    return !s.choices.empty();
}

// Rewrites the loop of `s` into pieces.
void rewrite(Shape &s, ScalarEvolution &se, const DataLayout &dl)
{
    const Row &r = s.row;
    Loop *l = r.loop;
    BasicBlock *header = l->getHeader();
    BasicBlock *latch = l->getLoopLatch();
    LLVMContext &ctx = header->getContext();
    auto [preheader, exit_block] = own_preheader_and_exit(l);
    // The copy without the choices; on hosts with fast masks a second one
    // for short pieces, its tail under a mask (fold_tail_under_mask: a
    // row of 16 clamped at both ends leaves 14 work-items), where a long
    // piece keeps its plain vectors (clpeak's local_bandwidth_v4, rows of
    // 256 float4s, took 4x the time with every vector under a mask).
    auto copy_without_choices = [&](ValueToValueMapTy &map, const Twine &suffix) {
        copy_blocks(l->getBlocks(), suffix, map);
        for (const Choice &c : s.choices) {
            auto *copy = cast<Instruction>(map[c.value]);
            Value *taken = map.lookup(c.taken);
            copy->replaceAllUsesWith(taken ? taken : c.taken);
            RecursivelyDeleteTriviallyDeadInstructions(copy);
        }
    };
    ValueToValueMapTy map, short_map;
    copy_without_choices(map, ".chosen");
    bool short_copy = compiled_for_avx512(*header->getParent());
    if (short_copy) {
        copy_without_choices(short_map, ".chosen.short");
        fold_tail_under_mask(cast<BasicBlock>(short_map[latch])->getTerminator());
    }

    // Before the loop: the two intervals where every test holds.
    unsigned width = 32;
    for (const Choice &c : s.choices)
        width = std::max(width, c.test.index->getType()->getIntegerBitWidth());
    Type *wide = IntegerType::get(ctx, 2 * width);
    Type *counter_type = r.counter->getType();
    IRBuilder<> b(preheader->getTerminator());
    SCEVExpander expander(se, dl, "bounds");
    Value *count = b.CreateZExtOrTrunc(b.CreateSub(r.end, r.start), wide);
    Interval before = {ConstantInt::get(wide, 0), count}, after = before;
    Value *holds = b.CreateICmpUGE(count, ConstantInt::get(wide, MIN_ROW));
    for (const Choice &c : s.choices) {
        SmallVector<Interval, 2> passing = intervals_passing(b, c.test, count, wide, expander);
        for (auto [all, one] : {std::pair{&before, passing[0]}, std::pair{&after, passing[1]}})
            *all = {b.CreateBinaryIntrinsic(Intrinsic::smax, all->first, one.first),
                    b.CreateBinaryIntrinsic(Intrinsic::smin, all->second, one.second)};
        if (c.positive)
            holds = b.CreateAnd(holds, b.CreateICmpSGT(b.CreateFreeze(c.positive),
                                                       ConstantInt::get(c.positive->getType(), 0)));
    }
    // Pieces [0, p1) as it was, [p1, p2) chosen, [p2, p3) as it was,
    // [p3, p4) chosen, [p4, count) as it was; all as it was where the
    // tests cannot hold (p1 = count: every interval ends by count, so the
    // later cuts are count too).
    Value *p1 = b.CreateSelect(holds, before.first, count);
    Value *p2 = b.CreateBinaryIntrinsic(Intrinsic::smax, before.second, p1);
    Value *p3 = b.CreateBinaryIntrinsic(Intrinsic::smax, after.first, p2);
    Value *p4 = b.CreateBinaryIntrinsic(Intrinsic::smax, after.second, p3);
    Value *cuts[] = {ConstantInt::get(wide, 0), p1, p2, p3, p4, count};
    constexpr unsigned PIECES = 5;
    SmallVector<Interval, PIECES> counters;
    for (unsigned k = 0; k < PIECES; k++)
        counters.push_back({b.CreateAdd(r.start, b.CreateTrunc(cuts[k], counter_type)),
                            b.CreateAdd(r.start, b.CreateTrunc(cuts[k + 1], counter_type))});

    // The loop over the pieces: pieces 1 and 3 in the copy.
    Pieces p = open_pieces(preheader, exit_block, counters);
    b.SetInsertPoint(p.enter->getTerminator());
    Value *chosen = b.CreateTrunc(p.piece, b.getInt1Ty(), "piece.chosen");
    // The chosen pieces enter their copy from `chosen_entry`: `enter`, or
    // with a copy for short pieces, a block of its own that picks one.
    BasicBlock *chosen_entry = p.enter, *chosen_target = cast<BasicBlock>(map[header]);
    if (short_copy) {
        chosen_entry = BasicBlock::Create(ctx, "pieces.chosen", header->getParent(), exit_block);
        IRBuilder<> pick(chosen_entry);
        Value *length = pick.CreateSub(p.hi, p.lo);
        // (Vectors of AVX-512, which the copy is for: 16 lanes of 32 bits.)
        uint64_t short_length = SHORT_PIECE_VECTORS * 16;
        Value *is_short = pick.CreateICmpULT(
            length, ConstantInt::get(counter_type, short_length), "piece.short");
        pick.CreateCondBr(is_short, cast<BasicBlock>(short_map[header]), chosen_target);
        chosen_target = chosen_entry;
    }
    b.CreateCondBr(chosen, chosen_target, header);
    p.enter->getTerminator()->eraseFromParent();
    close_pieces(p, exit_block);

    // Each loop runs a piece: from lo, until hi, then to the next.
    struct Run {
        PHINode *counter;
        ICmpInst *exit;
        BasicBlock *latch, *entry;
    };
    auto run_of = [&](ValueToValueMapTy &m) {
        return Run{cast<PHINode>(m[r.counter]), cast<ICmpInst>(m[r.exit]),
                   cast<BasicBlock>(m[latch]), chosen_entry};
    };
    SmallVector<Run, 3> runs = {{r.counter, r.exit, latch, p.enter}, run_of(map)};
    if (short_copy)
        runs.push_back(run_of(short_map));
    for (auto [counter, exit, from_latch, entry] : runs) {
        // (Splitting the preheader moved the loop's own edge to `enter`,
        // not the copies'.)
        int from_before = counter->getBasicBlockIndex(preheader);
        if (from_before >= 0)
            counter->setIncomingBlock(from_before, entry);
        counter->setIncomingValueForBlock(entry, p.lo);
        exit->setOperand(exit->getOperand(0) == r.end ? 0 : 1, p.hi);
        from_latch->getTerminator()->replaceSuccessorWith(exit_block, p.next);
    }
}

} // namespace

PreservedAnalyses IndexChoicesAsRangesPass::run(Function &f, FunctionAnalysisManager &fam)
{
    if (f.isDeclaration())
        return PreservedAnalyses::all();
    bool cut = rewrite_loops_one_at_a_time(f, fam, [&](Loop *l, bool apply) {
        ScalarEvolution &se = fam.getResult<ScalarEvolutionAnalysis>(f);
        Shape s;
        if (!read_shape(l, se, s))
            return false;
        if (apply)
            rewrite(s, se, f.getDataLayout());
        return true;
    });
    return cut ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
