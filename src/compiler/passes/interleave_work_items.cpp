// `ferrocl-interleave-work-items`: in the back end, right before the loop
// vectorizer, a work-item loop around an inner loop that carries a
// floating-point value runs LANES work-items at a time, their inner loops
// jammed into one:
//
//     for (x = 0; x < n; x++)              for (x = 0; x < n; x += step)
//         if (g(x)) {                          if (n - x >= LANES && g(x) && ... && g(x + LANES - 1)) {
//             A(x)                                 A(x) ... A(x + LANES - 1)
//             for (k = 0; k < m; k++)              for (k = 0; k < m; k++)
//                 B(x, k)                              B(x, k) ... B(x + LANES - 1, k)
//             C(x)                                 C(x) ... C(x + LANES - 1)
//         }                                        step = LANES
//                                              } else { the loop's body for x; step = 1 }
//
// Why: such an inner loop is one chain of dependent additions per
// work-item (`c[i][j] += a[i][k] * a[j][k]`, PolyBench's syrk and gesummv),
// which LLVM may not reorder, and the work-item loop around it is not
// innermost, so nothing vectorizes; each work-item waits out the latency of
// every addition (4 cycles) in turn. Implicit barriers (implicit_barriers.cpp)
// put the work-item loop inside such a loop, but not where the loop walks
// each work-item's own row: the work-item loop would gather a column. Run
// side by side, LANES work-items' chains fill the pipeline, and each reads
// its own row in order.
//
// Why it is sound: it changes only the order between work-items, which
// nothing orders between two barriers but atomics and fences (OpenCL 3.0,
// 3.3.6.1: conflicting accesses of two work-items, neither happening before
// the other, are a data race, undefined behaviour); each work-item's own
// steps keep their order. The work-item's test g, evaluated early for the
// later work-items, is computed from the header's values, before any of
// its stores. So the loop may write memory only with plain stores of its
// access group (parallel_access.h: global, constant and local memory, the
// region frame; not private memory, which the work-items of the loop share
// one alloca of), and may call only functions without side effects; the
// inner loop must run the same number of times for every work-item
// (its trip count, to ScalarEvolution, does not depend on the work-item),
// so that only the last copy tests it. What it cannot prove, it leaves alone.
//
// The copies' accesses get alias scopes of their own (two work-items' accesses
// of one address, one a store, would be that data race), so that LLVM may
// keep apart what each work-item's chain reads and writes. A sum kept in
// memory may still overlap what its own work-item reads (the same buffer
// passed twice): the jammed loop is versioned on LLVM's run-time overlap
// tests (version()), and LICM keeps the sums in registers where they pass.
// Measured on 2 cores: PolyBench's syrk 70 -> 11.5 ms (Intel's CPU runtime
// 27), atax 9.8 -> 2.2 ms, gesummv 34 -> 25 ms.
//
// A loop between the two whose trip count is each work-item's own
// (PolyBench's correlation: `for (j2 = j1 + 1; j2 < m; j2++)` around the
// sum over i) is jammed too (interleave_nested()), NESTED_LANES work-items
// at a time: the jammed middle loop goes on while every lane's would, the
// inner loops jammed inside it, and each work-item then runs its own
// middle loop for the iterations left to it. Its guards (`j1 + 1 < m`) are
// tested for all lanes first, from code that touches no memory. The
// inner loop walks columns (`a[i * m + j]`), for which LLVM's versioning
// would assume m == 1, so version_sums() makes its own overlap tests.
// Measured on 2 cores: correlation 55-60 -> 46 ms a launch (Intel's
// runtime 35, PoCL 99).
#include "parallel_access.h"
#include "passes.h"

#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/Analysis/LoopAccessAnalysis.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/LoopVersioning.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <array>

using namespace llvm;

namespace ferrocl {

namespace {

// Work-items run side by side: enough independent chains for two
// floating-point pipes of 4 cycles' latency.
constexpr unsigned LANES = 8;

// Work-items side by side around a middle loop: each reads its own two
// columns, whose addresses take registers (eight lanes spill them).
constexpr unsigned NESTED_LANES = 4;

// Inner loops and the code around them larger than this are left alone:
// the copies would spill.
constexpr unsigned MAX_INSTRUCTIONS = 120;

// Run-time tests of overlap beyond this many cost more than they may win.
constexpr unsigned MAX_CHECKS = 32;

// A work-item loop in the shape the pass handles, and its parts.
struct Shape {
    Loop *outer = nullptr, *inner = nullptr;
    BasicBlock *header = nullptr; // the id's phi, the test g, its branch
    BasicBlock *latch = nullptr;  // the id's increment and exit test only
    BasicBlock *enter = nullptr;  // the header's successor toward the inner loop
    BasicBlock *exit = nullptr;   // the inner loop's exit leading to the latch, if not it
    PHINode *id = nullptr;
    BinaryOperator *next = nullptr; // id + 1
    Value *end = nullptr;           // the loop ends when next == end
    Value *test = nullptr;          // g, or null when every work-item enters
    SmallVector<BasicBlock *, 8> fore; // from `enter` to the inner preheader
};

// Whether `l`'s work-items may be interleaved (parallel_access.h) and
// its code is small enough for LANES copies.
bool interleavable_code(const Loop &l)
{
    unsigned count = 0;
    for (const BasicBlock *b : l.blocks())
        count += b->size();
    return count <= MAX_INSTRUCTIONS && interleavable_work_items(l);
}

// Whether the inner loop carries a floating-point value from one iteration
// to the next, in a phi or in memory (a store to an address the loop does
// not change), unless LLVM may reassociate it (the vectorizer then widens
// the inner loop itself).
bool carries_float(Loop &inner, ScalarEvolution &se)
{
    for (const PHINode &phi : inner.getHeader()->phis())
        if (phi.getType()->isFloatingPointTy()) {
            const auto *update =
                dyn_cast<Instruction>(phi.getIncomingValueForBlock(inner.getLoopLatch()));
            if (!update || !isa<FPMathOperator>(update) || !update->hasAllowReassoc())
                return true;
        }
    for (BasicBlock *b : inner.blocks())
        for (Instruction &i : *b)
            if (auto *store = dyn_cast<StoreInst>(&i);
                store && store->getValueOperand()->getType()->isFloatingPointTy() &&
                se.isLoopInvariant(se.getSCEV(store->getPointerOperand()), &inner))
                return true;
    return false;
}

// Whether work-item loop `l` (its id `id`) may run its work-items side by
// side with their copies of `inner` jammed: an inner loop carrying a
// float whose trip count no work-item changes, code the copies may
// reorder, and a header without stores (the work-items' tests run before
// the earlier ones' code) that carries nothing but the id.
bool jammable(Loop &l, Loop &inner, PHINode *id, ScalarEvolution &se)
{
    const SCEV *trips = se.getBackedgeTakenCount(&inner);
    if (isa<SCEVCouldNotCompute>(trips) || !se.isLoopInvariant(trips, &l) ||
        !carries_float(inner, se) || !interleavable_code(l))
        return false;
    for (Instruction &i : *l.getHeader())
        if (i.mayWriteToMemory() || (isa<PHINode>(i) && &i != id))
            return false;
    return true;
}

// The work-item counter, with nothing else in the latch.
bool read_latch(Shape &s)
{
    std::optional<WorkItemCounter> counter = read_work_item_counter(*s.outer);
    if (!counter)
        return false;
    BasicBlock *latch = s.outer->getLoopLatch();
    auto [id, next, cmp, branch, end] = *counter;
    // Nothing else in the latch.
    for (Instruction &i : *latch)
        if (&i != next && &i != cmp && &i != branch)
            return false;
    s.latch = latch;
    s.id = id;
    s.next = next;
    s.end = end;
    return true;
}

// Reads `l` into `s` when it has the shape of the file's comment.
bool read_shape(Loop &l, ScalarEvolution &se, Shape &s)
{
    if (!is_work_item_loop(&l) || l.getSubLoops().size() != 1 || !l.getLoopPreheader())
        return false;
    Loop *inner = l.getSubLoops()[0];
    s.outer = &l;
    s.inner = inner;
    s.header = l.getHeader();
    if (!inner->getSubLoops().empty() || !read_latch(s))
        return false;
    BasicBlock *pre = inner->getLoopPreheader(), *ilatch = inner->getLoopLatch();
    BasicBlock *iheader = inner->getHeader();
    if (!pre || !ilatch || inner->getExitingBlock() != ilatch || !inner->getExitBlock())
        return false;
    // The inner loop leaves to the latch, or to a block of its own that
    // leads there.
    if (inner->getExitBlock() != s.latch) {
        s.exit = inner->getExitBlock();
        if (s.exit->getSinglePredecessor() != ilatch || s.exit->getSingleSuccessor() != s.latch)
            return false;
    }
    auto *back = dyn_cast<BranchInst>(ilatch->getTerminator());
    if (!back || !back->isConditional())
        return false;
    if (!jammable(l, *inner, s.id, se))
        return false;
    // The header: a branch to the inner loop's way, or a test whose other
    // way is the latch.
    auto *branch = dyn_cast<BranchInst>(s.header->getTerminator());
    if (!branch || s.header == pre || s.header == s.latch)
        return false;
    if (branch->isConditional()) {
        unsigned to_latch = branch->getSuccessor(0) == s.latch ? 0 : 1;
        if (branch->getSuccessor(to_latch) != s.latch ||
            branch->getSuccessor(1 - to_latch) == s.latch)
            return false;
        s.enter = branch->getSuccessor(1 - to_latch);
        s.test = branch->getCondition();
        if (to_latch == 0) // g is the branch's false way
            return false;
    } else {
        s.enter = branch->getSuccessor(0);
    }
    if (s.enter == iheader || s.enter->getSinglePredecessor() != s.header)
        return false;
    // The blocks from `enter` to the preheader lead nowhere else.
    SmallVector<BasicBlock *, 8> work{s.enter};
    SmallPtrSet<BasicBlock *, 8> seen{s.enter};
    while (!work.empty()) {
        BasicBlock *b = work.pop_back_val();
        s.fore.push_back(b);
        for (BasicBlock *succ : successors(b)) {
            if (succ == iheader && b == pre)
                continue;
            if (!l.contains(succ) || inner->contains(succ) || succ == s.latch ||
                succ == s.header || succ == s.exit)
                return false;
            if (seen.insert(succ).second)
                work.push_back(succ);
        }
    }
    if (!seen.count(pre))
        return false;
    for (BasicBlock *b : s.fore)
        for (BasicBlock *p : predecessors(b))
            if (p != s.header && !seen.count(p))
                return false;
    // Every block of the loop is one of the parts.
    return l.getNumBlocks() == 2 + (s.exit ? 1 : 0) + s.fore.size() + inner->getNumBlocks();
}

// The instructions of `blocks` that `conds` are computed from.
SmallPtrSet<Instruction *, 16> needed_code(ArrayRef<BasicBlock *> blocks, ArrayRef<Value *> conds)
{
    SmallPtrSet<Instruction *, 16> needed;
    SmallVector<Instruction *, 16> work;
    auto inside = [&](Value *v) {
        auto *i = dyn_cast<Instruction>(v);
        return i && is_contained(blocks, i->getParent()) ? i : nullptr;
    };
    for (Value *cond : conds)
        if (Instruction *i = inside(cond))
            work.push_back(i);
    while (!work.empty()) {
        Instruction *i = work.pop_back_val();
        if (!needed.insert(i).second)
            continue;
        for (Value *op : i->operands())
            if (Instruction *oi = inside(op))
                work.push_back(oi);
    }
    return needed;
}

// A work-item loop around a loop whose trip count differs from work-item
// to work-item, around an inner loop of the file's comment (PolyBench's
// correlation: `for (j2 = j1 + 1; j2 < m; j2++) for (i...) c += ...`):
//
//     x: id, g  ->  fore (a chain; guards may leave for the latch)  ->
//     middle preheader  ->  middle header (= the inner preheader)  ->
//     inner  ->  middle latch (= the inner exit)  ->  [exit]  ->  latch
struct NestedShape {
    Loop *outer = nullptr, *middle = nullptr, *inner = nullptr;
    BasicBlock *header = nullptr, *latch = nullptr, *enter = nullptr;
    BasicBlock *mpre = nullptr, *mheader = nullptr, *mlatch = nullptr;
    PHINode *id = nullptr;
    BinaryOperator *next = nullptr;
    Value *end = nullptr;
    Value *test = nullptr;
    SmallVector<BasicBlock *, 8> fore;  // enter .. the middle preheader, in order
    SmallVector<Value *, 4> guards;     // the fore's conditions to go on
};

bool read_nested_shape(Loop &l, ScalarEvolution &se, NestedShape &s)
{
    if (!is_work_item_loop(&l) || l.getSubLoops().size() != 1 || !l.getLoopPreheader())
        return false;
    Loop *middle = l.getSubLoops()[0];
    if (middle->getSubLoops().size() != 1)
        return false;
    Loop *inner = middle->getSubLoops()[0];
    if (!inner->getSubLoops().empty())
        return false;
    Shape flat;
    flat.outer = &l;
    if (!read_latch(flat))
        return false;
    s.outer = &l;
    s.middle = middle;
    s.inner = inner;
    s.header = l.getHeader();
    s.latch = flat.latch;
    s.id = flat.id;
    s.next = flat.next;
    s.end = flat.end;
    s.mpre = middle->getLoopPreheader();
    s.mheader = middle->getHeader();
    s.mlatch = middle->getLoopLatch();
    BasicBlock *ilatch = inner->getLoopLatch();
    if (!s.mpre || !s.mlatch || middle->getExitingBlock() != s.mlatch || !ilatch ||
        inner->getLoopPreheader() != s.mheader || inner->getExitingBlock() != ilatch ||
        inner->getExitBlock() != s.mlatch || s.mlatch->getSinglePredecessor() != ilatch ||
        middle->getNumBlocks() != inner->getNumBlocks() + 2)
        return false;
    auto *mhead_branch = dyn_cast<BranchInst>(s.mheader->getTerminator());
    auto *iback = dyn_cast<BranchInst>(ilatch->getTerminator());
    auto *mback = dyn_cast<BranchInst>(s.mlatch->getTerminator());
    if (!mhead_branch || mhead_branch->isConditional() || !iback || !iback->isConditional() ||
        !mback || !mback->isConditional())
        return false;
    // The middle loop leaves to the latch, or through an empty block of
    // its own to it.
    BasicBlock *mexit = middle->getExitBlock();
    if (!mexit || (mexit != s.latch && (mexit->getSinglePredecessor() != s.mlatch ||
                                        mexit->getSingleSuccessor() != s.latch ||
                                        mexit->size() != 1)))
        return false;
    if (!jammable(l, *inner, s.id, se))
        return false;
    auto *branch = dyn_cast<BranchInst>(s.header->getTerminator());
    if (!branch || s.header == s.latch)
        return false;
    if (branch->isConditional()) {
        if (branch->getSuccessor(1) != s.latch || branch->getSuccessor(0) == s.latch)
            return false;
        s.test = branch->getCondition();
    }
    s.enter = branch->getSuccessor(0);
    // The fore: a chain of blocks of one way in each, their guards' other
    // way the latch, up to the middle preheader.
    for (BasicBlock *b = s.enter;;) {
        if (!l.contains(b) || middle->contains(b) || b == s.latch || b == s.header ||
            b->getSinglePredecessor() == nullptr || !isa<BranchInst>(b->getTerminator()) ||
            s.fore.size() > 8)
            return false;
        s.fore.push_back(b);
        auto *br = cast<BranchInst>(b->getTerminator());
        if (b == s.mpre)
            break;
        if (br->isConditional()) {
            if (br->getSuccessor(1) != s.latch || br->getSuccessor(0) == s.latch)
                return false;
            s.guards.push_back(br->getCondition());
        }
        b = br->getSuccessor(0);
    }
    if (cast<BranchInst>(s.mpre->getTerminator())->isConditional())
        return false;
    // The guards are evaluated for every work-item before any runs: from
    // the header's code and fore code that touches no memory.
    SmallVector<BasicBlock *, 9> code{s.header};
    code.append(s.fore.begin(), s.fore.end());
    for (Instruction *i : needed_code(code, s.guards))
        if (i->getParent() != s.header &&
            (isa<PHINode>(i) || i->mayReadOrWriteMemory() || i->mayHaveSideEffects()))
            return false;
    // Every block of the loop is one of the parts.
    return l.getNumBlocks() ==
           2 + (mexit != s.latch ? 1 : 0) + s.fore.size() + middle->getNumBlocks();
}

// A copy of loop ID `old` as a loop ID of its own (two loops must not share
// one).
MDNode *fresh_loop_id(MDNode *old)
{
    SmallVector<Metadata *, 4> ops{nullptr};
    for (unsigned k = 1; k < old->getNumOperands(); k++)
        ops.push_back(old->getOperand(k));
    MDNode *id = MDNode::getDistinct(old->getContext(), ops);
    id->replaceOperandWith(0, id);
    return id;
}

// A block that tests `conds` for each of the work-items `ids` and goes to
// `all` when every one holds, to `some` otherwise: copies of the code of
// `blocks` (in their order) that the conditions need, with the id of each
// work-item for the first's. That code reads no phi but the id (checked
// by the caller) and writes no memory.
BasicBlock *lane_tests(Function &f, ArrayRef<BasicBlock *> blocks, ArrayRef<Value *> conds,
                       ArrayRef<Value *> ids, BasicBlock *all, BasicBlock *some)
{
    LLVMContext &ctx = f.getContext();
    BasicBlock *tests = BasicBlock::Create(ctx, "wi.tests", &f, all);
    IRBuilder<> t(tests);
    SmallPtrSet<Instruction *, 16> needed = needed_code(blocks, conds);
    Value *every = nullptr;
    for (Value *id : ids) {
        ValueToValueMapTy map;
        map[ids[0]] = id;
        for (BasicBlock *bb : blocks)
            for (Instruction &i : *bb) {
                if (!needed.count(&i))
                    continue;
                Instruction *c = i.clone();
                c->setName(i.getName() + ".wi");
                t.Insert(c);
                RemapInstruction(c, map, RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
                map[&i] = c;
            }
        for (Value *cond : conds) {
            Value *g = map.count(cond) ? static_cast<Value *>(map[cond]) : cond;
            every = every ? t.CreateAnd(every, g, "wi.all") : g;
        }
    }
    t.CreateCondBr(every, all, some);
    return tests;
}

// The start of `lanes` work-items side by side: the header's code moves
// to a block of its own, `one` (the way of one work-item), and the header
// computes whether `lanes` work-items remain (`room`) and their ids.
struct LaneStart {
    BasicBlock *one;
    Value *room;
    SmallVector<Value *, LANES> ids;
};

LaneStart start_lanes(BasicBlock *header, PHINode *id, Value *end, unsigned lanes)
{
    Type *id_type = id->getType();
    BasicBlock *one = header->splitBasicBlock(header->getFirstNonPHIIt(), "wi.one");
    IRBuilder<> b(header->getTerminator());
    Value *room =
        b.CreateICmpUGE(b.CreateSub(end, id), ConstantInt::get(id_type, lanes), "wi.room");
    SmallVector<Value *, LANES> ids{id};
    for (unsigned u = 1; u < lanes; u++)
        ids.push_back(b.CreateAdd(id, ConstantInt::get(id_type, u), "wi.id", true, true));
    return {one, room, ids};
}

// Lane u's copy of a loop header's phis, gathered into the jammed header
// `into` (lane 0's copy, which keeps its own): their ways in from the
// lane's latch copy `lane_latch` become `jam_latch`, the others `jam_pre`.
void gather_phis(BasicBlock *header, BasicBlock *into, BasicBlock *lane_latch,
                 BasicBlock *jam_latch, BasicBlock *jam_pre)
{
    for (PHINode &phi : make_early_inc_range(header->phis())) {
        for (unsigned k = 0; k < phi.getNumIncomingValues(); k++)
            phi.setIncomingBlock(k, phi.getIncomingBlock(k) == lane_latch ? jam_latch : jam_pre);
        if (header != into)
            phi.moveBefore(into->getFirstNonPHI());
    }
}

// The phis of a block entered one way only, replaced by their value.
void drop_single_way_phis(BasicBlock *b)
{
    for (PHINode &phi : make_early_inc_range(b->phis())) {
        phi.replaceAllUsesWith(phi.getIncomingValue(0));
        phi.eraseFromParent();
    }
}

// The loads and stores of `blocks` in lane u's alias scope.
void scope_lane(const DisjointScopes &scopes, ArrayRef<BasicBlock *> blocks, unsigned u)
{
    for (BasicBlock *bb : blocks)
        for (Instruction &i : *bb)
            if (isa<LoadInst>(i) || isa<StoreInst>(i))
                scopes.add(i, u);
}

// The lanes' copies, remapped: for each work-item `ids[u]`, the header's
// code `one` (lane 0's into `first`, the others' into new blocks before
// `before`), branching to its copy of `enter`, and copies of `originals`;
// maps[u] takes each original value and block to lane u's, copies[u]
// lists its blocks.
void copy_lanes(BasicBlock *one, BasicBlock *enter, ArrayRef<BasicBlock *> originals, PHINode *id,
                ArrayRef<Value *> ids, BasicBlock *first, BasicBlock *before,
                MutableArrayRef<ValueToValueMapTy> maps,
                MutableArrayRef<SmallVector<BasicBlock *, 16>> copies)
{
    Function &f = *one->getParent();
    for (unsigned u = 0; u < ids.size(); u++) {
        ValueToValueMapTy &map = maps[u];
        map[id] = ids[u];
        BasicBlock *code =
            u == 0 ? first : BasicBlock::Create(f.getContext(), "wi.lane", &f, before);
        for (Instruction &i : *one) {
            if (i.isTerminator())
                break;
            Instruction *c = i.clone();
            c->setName(i.getName());
            c->insertInto(code, code->end());
            map[&i] = c;
        }
        copies[u].push_back(code);
        map[one] = code;
        for (BasicBlock *bb : originals) {
            BasicBlock *c = CloneBasicBlock(bb, map, ".wi", &f);
            map[bb] = c;
            copies[u].push_back(c);
        }
        BranchInst::Create(cast<BasicBlock>(map[enter]), code);
    }
    for (unsigned u = 0; u < ids.size(); u++)
        remapInstructionsInBlocks(copies[u], maps[u]);
}

// Interleaves `s`'s work-items; returns the jammed loop's header.
BasicBlock *interleave(Shape &s)
{
    Function &f = *s.header->getParent();
    LLVMContext &ctx = f.getContext();
    Type *id_type = s.id->getType();
    auto [one, room, ids] = start_lanes(s.header, s.id, s.end, LANES);

    BasicBlock *fast_entry = BasicBlock::Create(ctx, "wi.lanes", &f, s.latch);
    BasicBlock *first = fast_entry;
    if (s.test)
        first = lane_tests(f, {one}, {s.test}, ids, fast_entry, one);
    s.header->getTerminator()->eraseFromParent();
    BranchInst::Create(first, one, room, s.header);

    // The lanes' copies: the header's code, the blocks before the inner
    // loop, the inner loop, its exit.
    DisjointScopes scopes(ctx, LANES, "ferrocl.work-items");
    BasicBlock *iheader = s.inner->getHeader(), *ilatch = s.inner->getLoopLatch(),
               *pre = s.inner->getLoopPreheader();
    auto *back = cast<BranchInst>(ilatch->getTerminator());
    bool stays_on_true = back->getSuccessor(0) == iheader;
    SmallVector<BasicBlock *, 16> originals(s.fore.begin(), s.fore.end());
    originals.append(s.inner->block_begin(), s.inner->block_end());
    if (s.exit)
        originals.push_back(s.exit);
    std::array<ValueToValueMapTy, LANES> maps;
    SmallVector<SmallVector<BasicBlock *, 16>, LANES> copies(LANES);
    copy_lanes(one, s.enter, originals, s.id, ids, fast_entry, s.latch, maps, copies);
    // Stitch: each preheader copy to the next lane's header code (the last
    // one into the jammed loop), each latch copy to the next lane's inner
    // header (the last one back to the first), each exit copy to the next.
    auto block = [&](unsigned u, BasicBlock *bb) { return cast<BasicBlock>(maps[u][bb]); };
    BasicBlock *jam_pre = block(LANES - 1, pre), *jam_header = block(0, iheader),
               *jam_latch = block(LANES - 1, ilatch);
    // An exit of the jammed loop's own (loop-simplify form, for versioning).
    BasicBlock *jam_exit = BasicBlock::Create(ctx, "wi.jammed.exit", &f, s.latch);
    BranchInst::Create(s.exit ? block(0, s.exit) : s.latch, jam_exit);
    for (unsigned u = 0; u < LANES; u++) {
        if (u + 1 < LANES) {
            Instruction *t = block(u, pre)->getTerminator();
            BranchInst::Create(block(u + 1, one), t);
            t->eraseFromParent();
        } else {
            block(u, pre)->getTerminator()->setSuccessor(0, jam_header);
        }
        // The inner header's phis, all in the jammed header.
        BasicBlock *h = block(u, iheader);
        gather_phis(h, jam_header, block(u, ilatch), jam_latch, jam_pre);
        auto *latch_branch = cast<BranchInst>(block(u, ilatch)->getTerminator());
        if (u + 1 < LANES) {
            BranchInst::Create(block(u + 1, iheader), latch_branch);
            latch_branch->eraseFromParent();
        } else {
            latch_branch->setSuccessor(stays_on_true ? 0 : 1, jam_header);
            latch_branch->setSuccessor(stays_on_true ? 1 : 0, jam_exit);
            if (MDNode *loop_id = latch_branch->getMetadata(LLVMContext::MD_loop))
                latch_branch->setMetadata(LLVMContext::MD_loop, fresh_loop_id(loop_id));
        }
        if (s.exit) {
            // The exit's phis: one way in, from this lane's latch copy.
            BasicBlock *e = block(u, s.exit);
            drop_single_way_phis(e);
            if (u > 0) {
                // Entered from the previous lane's exit, not from a latch.
                Instruction *t = block(u - 1, s.exit)->getTerminator();
                BranchInst::Create(e, t);
                t->eraseFromParent();
            }
        }
        // Alias scopes: this lane's accesses are apart from the others'.
        scope_lane(scopes, copies[u], u);
    }
    // The last lane's exit goes to the latch, which steps by LANES.
    BasicBlock *last_exit = s.exit ? block(LANES - 1, s.exit) : jam_exit;
    PHINode *step = PHINode::Create(id_type, 3, "wi.step");
    step->insertInto(s.latch, s.latch->begin());
    for (BasicBlock *p : predecessors(s.latch))
        if (p != last_exit)
            step->addIncoming(ConstantInt::get(id_type, 1), p);
    step->addIncoming(ConstantInt::get(id_type, LANES), last_exit);
    s.next->setOperand(1, step);
    return jam_header;
}

// The inner loop's counters that are the same in every lane (a start and
// a step of no work-item's: `i = 0; i++`): the lanes after the first use
// the first one's, so that the jammed loop keeps one counter, not one a lane.
template <typename Maps> void share_counters(const NestedShape &s, Maps &maps)
{
    BasicBlock *iheader = s.inner->getHeader(), *ilatch = s.inner->getLoopLatch();
    auto lane_free = [&](Value *v) { return isa<Constant>(v) || s.outer->isLoopInvariant(v); };
    for (PHINode &phi : iheader->phis()) {
        auto *inc = dyn_cast<BinaryOperator>(phi.getIncomingValueForBlock(ilatch));
        if (!lane_free(phi.getIncomingValueForBlock(s.mheader)) || !inc ||
            inc->getOpcode() != Instruction::Add || inc->getOperand(0) != &phi ||
            !lane_free(inc->getOperand(1)))
            continue;
        auto *first = cast<PHINode>(maps[0][&phi]);
        auto *first_inc = cast<Instruction>(maps[0][inc]);
        for (unsigned u = 1; u < NESTED_LANES; u++) {
            auto *own = cast<PHINode>(maps[u][&phi]);
            auto *own_inc = cast<Instruction>(maps[u][inc]);
            own->replaceAllUsesWith(first);
            own_inc->replaceAllUsesWith(first_inc);
            own_inc->eraseFromParent();
            own->eraseFromParent();
        }
    }
}

// Interleaves `s`'s work-items: their middle loops jammed into one that
// runs while every work-item's goes on, their inner loops jammed inside
// it; then each work-item's middle loop runs on alone for the iterations
// left to it. Returns the jammed inner loop's header.
BasicBlock *interleave_nested(NestedShape &s)
{
    Function &f = *s.header->getParent();
    LLVMContext &ctx = f.getContext();
    Type *id_type = s.id->getType();
    auto [one, room, ids] = start_lanes(s.header, s.id, s.end, NESTED_LANES);
    BasicBlock *fast_entry = BasicBlock::Create(ctx, "wi.lanes", &f, s.latch);
    SmallVector<Value *, 4> conds;
    if (s.test)
        conds.push_back(s.test);
    conds.append(s.guards.begin(), s.guards.end());
    SmallVector<BasicBlock *, 9> code{one};
    code.append(s.fore.begin(), s.fore.end());
    BasicBlock *first =
        conds.empty() ? fast_entry : lane_tests(f, code, conds, ids, fast_entry, one);
    s.header->getTerminator()->eraseFromParent();
    BranchInst::Create(first, one, room, s.header);

    BasicBlock *iheader = s.inner->getHeader(), *ilatch = s.inner->getLoopLatch();
    bool inner_stays_on_true =
        cast<BranchInst>(ilatch->getTerminator())->getSuccessor(0) == iheader;
    bool middle_stays_on_true =
        cast<BranchInst>(s.mlatch->getTerminator())->getSuccessor(0) == s.mheader;
    SmallVector<BasicBlock *, 16> originals(s.fore.begin(), s.fore.end());
    originals.append(s.middle->block_begin(), s.middle->block_end());
    DisjointScopes scopes(ctx, NESTED_LANES, "ferrocl.work-items");
    std::array<ValueToValueMapTy, NESTED_LANES> maps;
    SmallVector<SmallVector<BasicBlock *, 16>, NESTED_LANES> copies(NESTED_LANES);
    copy_lanes(one, s.enter, originals, s.id, ids, fast_entry, s.latch, maps, copies);
    auto block = [&](unsigned u, BasicBlock *bb) { return cast<BasicBlock>(maps[u][bb]); };
    auto redirect = [](BasicBlock *from, BasicBlock *to) {
        Instruction *t = from->getTerminator();
        BranchInst::Create(to, t);
        t->eraseFromParent();
    };
    const unsigned last = NESTED_LANES - 1;
    BasicBlock *jam_mpre = block(last, s.mpre), *jam_mheader = block(0, s.mheader),
               *jam_mlatch = block(last, s.mlatch), *jam_ipre = block(last, s.mheader),
               *jam_iheader = block(0, iheader), *jam_ilatch = block(last, ilatch);
    BasicBlock *jam_iexit = BasicBlock::Create(ctx, "wi.jammed.exit", &f, s.latch);
    BranchInst::Create(block(0, s.mlatch), jam_iexit);
    // Where the jammed middle loop ends: each work-item's own iterations
    // left, then the latch.
    BasicBlock *done = BasicBlock::Create(ctx, "wi.jammed.done", &f, s.latch);
    BranchInst::Create(s.latch, done);
    SmallVector<BasicBlock *, NESTED_LANES> rest_tests;
    for (unsigned u = 0; u < NESTED_LANES; u++)
        rest_tests.push_back(BasicBlock::Create(ctx, "wi.rest", &f, done));
    SmallVector<Value *, NESTED_LANES> goes_on;
    for (unsigned u = 0; u < NESTED_LANES; u++) {
        // The fore: guards hold (tested), each lane's chain into the next.
        for (BasicBlock *bb : s.fore) {
            auto *br = cast<BranchInst>(block(u, bb)->getTerminator());
            if (br->isConditional())
                redirect(block(u, bb), br->getSuccessor(0));
        }
        redirect(block(u, s.mpre), u + 1 < NESTED_LANES ? block(u + 1, one) : jam_mheader);
        // The middle header's phis, all in the jammed middle header.
        gather_phis(block(u, s.mheader), jam_mheader, block(u, s.mlatch), jam_mlatch, jam_mpre);
        redirect(block(u, s.mheader), u + 1 < NESTED_LANES ? block(u + 1, s.mheader) : jam_iheader);
        // The inner header's phis, all in the jammed inner header.
        gather_phis(block(u, iheader), jam_iheader, block(u, ilatch), jam_ilatch, jam_ipre);
        auto *ibranch = cast<BranchInst>(block(u, ilatch)->getTerminator());
        if (u + 1 < NESTED_LANES) {
            redirect(block(u, ilatch), block(u + 1, iheader));
        } else {
            ibranch->setSuccessor(inner_stays_on_true ? 0 : 1, jam_iheader);
            ibranch->setSuccessor(inner_stays_on_true ? 1 : 0, jam_iexit);
            if (MDNode *loop_id = ibranch->getMetadata(LLVMContext::MD_loop))
                ibranch->setMetadata(LLVMContext::MD_loop, fresh_loop_id(loop_id));
        }
        // The middle latch: its phis have one way in; it goes on to the
        // next lane's, the last one back while every lane goes on.
        BasicBlock *ml = block(u, s.mlatch);
        drop_single_way_phis(ml);
        auto *mbranch = cast<BranchInst>(ml->getTerminator());
        IRBuilder<> at(mbranch);
        Value *cond = mbranch->getCondition();
        goes_on.push_back(middle_stays_on_true ? cond : at.CreateNot(cond, "wi.goes.on"));
        if (u > 0)
            redirect(block(u - 1, s.mlatch), ml);
        scope_lane(scopes, copies[u], u);
    }
    {
        IRBuilder<> at(jam_mlatch->getTerminator());
        Value *every = goes_on[0];
        for (unsigned u = 1; u < NESTED_LANES; u++)
            every = at.CreateAnd(every, goes_on[u], "wi.all.go.on");
        MDNode *loop_id = jam_mlatch->getTerminator()->getMetadata(LLVMContext::MD_loop);
        jam_mlatch->getTerminator()->eraseFromParent();
        BranchInst *back = BranchInst::Create(jam_mheader, rest_tests[0], every, jam_mlatch);
        if (loop_id)
            back->setMetadata(LLVMContext::MD_loop, fresh_loop_id(loop_id));
    }
    // Each work-item's iterations left: a copy of the middle loop of its
    // own, from the values its lane had at the jammed loop's end.
    for (unsigned u = 0; u < NESTED_LANES; u++) {
        BasicBlock *after = u + 1 < NESTED_LANES ? rest_tests[u + 1] : done;
        BasicBlock *pre = BasicBlock::Create(ctx, "wi.rest.pre", &f, after);
        BranchInst::Create(pre, after, goes_on[u], rest_tests[u]);
        ValueToValueMapTy map;
        for (auto it = maps[u].begin(); it != maps[u].end(); ++it)
            map[it->first] = it->second;
        SmallVector<BasicBlock *, 8> rest;
        for (BasicBlock *bb : s.middle->blocks()) {
            BasicBlock *c = CloneBasicBlock(bb, map, ".wi.rest", &f);
            map[bb] = c;
            rest.push_back(c);
        }
        remapInstructionsInBlocks(rest, map);
        BasicBlock *rheader = cast<BasicBlock>(map[s.mheader]);
        BranchInst::Create(rheader, pre);
        for (PHINode &phi : s.mheader->phis()) {
            auto *c = cast<PHINode>(map[&phi]);
            int k = c->getBasicBlockIndex(block(u, s.mpre));
            c->setIncomingBlock(k, pre);
            c->setIncomingValue(k, maps[u][phi.getIncomingValueForBlock(s.mlatch)]);
        }
        auto *rback = cast<BranchInst>(cast<BasicBlock>(map[s.mlatch])->getTerminator());
        rback->setSuccessor(middle_stays_on_true ? 1 : 0, after);
        scope_lane(scopes, rest, u);
    }
    share_counters(s, maps);
    PHINode *step = PHINode::Create(id_type, 4, "wi.step");
    step->insertInto(s.latch, s.latch->begin());
    for (BasicBlock *p : predecessors(s.latch))
        if (p != done)
            step->addIncoming(ConstantInt::get(id_type, 1), p);
    step->addIncoming(ConstantInt::get(id_type, NESTED_LANES), done);
    s.next->setOperand(1, step);
    return jam_iheader;
}

// The jammed inner loop headed by `header` (nested shape) in two
// versions: where no sum kept in memory (a store to an address the loop
// does not change) overlaps what the loop reads or writes besides it, the
// accesses carry alias scopes that say so, and LICM keeps the sums in
// registers. The tests are ferrocl's own: LLVM's loop versioning (version())
// also assumes a stride it cannot see to be 1 (`a[i * m]`), which keeps a
// column walk on the slow version. Each access's range over the loop
// comes from ScalarEvolution; one it cannot bound leaves the loop alone.
void version_sums(BasicBlock *header, FunctionAnalysisManager &fam)
{
    Function &f = *header->getParent();
    LoopInfo &loops = fam.getResult<LoopAnalysis>(f);
    DominatorTree &dt = fam.getResult<DominatorTreeAnalysis>(f);
    ScalarEvolution &se = fam.getResult<ScalarEvolutionAnalysis>(f);
    AAResults &aa = fam.getResult<AAManager>(f);
    Loop *l = loops.getLoopFor(header);
    if (!l || l->getHeader() != header || !l->isLoopSimplifyForm() || !l->getSubLoops().empty())
        return;
    const SCEV *last = se.getBackedgeTakenCount(l);
    if (isa<SCEVCouldNotCompute>(last))
        return;
    const DataLayout &layout = f.getDataLayout();
    struct Access {
        Instruction *i;
        const SCEV *low, *high; // [low, high) over the loop
    };
    SmallVector<Access, 32> sums, all;
    for (BasicBlock *b : l->blocks())
        for (Instruction &i : *b) {
            if (!isa<LoadInst>(i) && !isa<StoreInst>(i)) {
                if (i.mayReadOrWriteMemory())
                    return;
                continue;
            }
            Value *ptr = getLoadStorePointerOperand(&i);
            Type *type = getLoadStoreType(&i);
            const SCEV *at = se.getSCEV(ptr);
            const SCEV *size = se.getConstant(
                layout.getIndexType(ptr->getType()), layout.getTypeStoreSize(type));
            const SCEV *low = nullptr, *high = nullptr;
            if (se.isLoopInvariant(at, l)) {
                low = at;
                high = se.getAddExpr(at, size);
            } else if (const auto *rec = dyn_cast<SCEVAddRecExpr>(at);
                       rec && rec->getLoop() == l && rec->isAffine()) {
                const SCEV *end = rec->evaluateAtIteration(last, se);
                low = se.getUMinExpr(rec->getStart(), end);
                high = se.getAddExpr(se.getUMaxExpr(rec->getStart(), end), size);
            } else {
                return;
            }
            all.push_back({&i, low, high});
            if (isa<StoreInst>(i) && se.isLoopInvariant(at, l))
                sums.push_back(all.back());
        }
    // The pairs to test: a sum and another access that may overlap it.
    SmallVector<std::pair<unsigned, unsigned>, MAX_CHECKS> pairs;
    for (unsigned k = 0; k < sums.size(); k++)
        for (unsigned a = 0; a < all.size(); a++) {
            if (all[a].i == sums[k].i ||
                aa.isNoAlias(MemoryLocation::get(sums[k].i), MemoryLocation::get(all[a].i)))
                continue;
            if (pairs.size() == MAX_CHECKS)
                return;
            pairs.push_back({k, a});
        }
    if (pairs.empty())
        return;
    BasicBlock *exit = l->getExitBlock();
    if (!exit)
        return;
    SCEVExpander expander(se, layout, "wi.sums");
    BasicBlock *pre = l->getLoopPreheader();
    Instruction *at = pre->getTerminator();
    for (auto [k, a] : pairs)
        for (const SCEV *bound : {sums[k].low, sums[k].high, all[a].low, all[a].high})
            if (!expander.isSafeToExpandAt(bound, at))
                return;
    formLCSSA(*l, dt, &loops, &se);
    IRBuilder<> b(at);
    Value *overlap = b.getFalse();
    for (auto [k, a] : pairs) {
        auto bound = [&](const SCEV *v) {
            return b.CreatePtrToInt(expander.expandCodeFor(v, nullptr, at), b.getInt64Ty());
        };
        Value *s_low = bound(sums[k].low), *s_high = bound(sums[k].high);
        Value *a_low = bound(all[a].low), *a_high = bound(all[a].high);
        overlap = b.CreateOr(overlap, b.CreateAnd(b.CreateICmpULT(s_low, a_high),
                                                  b.CreateICmpULT(a_low, s_high)),
                             "wi.sums.overlap");
    }
    // The slow version: a copy of the loop, entered where they overlap.
    ValueToValueMapTy map;
    SmallVector<BasicBlock *, 8> blocks;
    Loop *slow = cloneLoopWithPreheader(exit, pre, l, map, ".wi.overlap", &loops, &dt, blocks);
    remapInstructionsInBlocks(blocks, map);
    BasicBlock *slow_pre = slow->getLoopPreheader();
    for (PHINode &phi : exit->phis())
        for (unsigned k = 0, n = phi.getNumIncomingValues(); k < n; k++)
            if (l->contains(phi.getIncomingBlock(k))) {
                Value *v = phi.getIncomingValue(k);
                phi.addIncoming(map.count(v) ? static_cast<Value *>(map[v]) : v,
                                cast<BasicBlock>(map[phi.getIncomingBlock(k)]));
            }
    at->eraseFromParent();
    BranchInst::Create(slow_pre, header, overlap, pre);
    // The fast version: each sum in a scope of its own, apart from every
    // access tested against it.
    MDBuilder md(f.getContext());
    MDNode *domain = md.createAnonymousAliasScopeDomain("ferrocl.sums");
    SmallVector<MDNode *, 8> scopes;
    for (unsigned k = 0; k < sums.size(); k++)
        scopes.push_back(md.createAnonymousAliasScope(domain));
    auto add = [](Instruction *i, unsigned kind, MDNode *scope) {
        i->setMetadata(kind, MDNode::concatenate(i->getMetadata(kind),
                                                 MDNode::get(i->getContext(), {scope})));
    };
    for (unsigned k = 0; k < sums.size(); k++)
        add(sums[k].i, LLVMContext::MD_alias_scope, scopes[k]);
    for (auto [k, a] : pairs)
        add(all[a].i, LLVMContext::MD_noalias, scopes[k]);
}

// The jammed loop headed by `header` in two versions, when LLVM's loop
// access analysis finds the accesses of one work-item's copy that may
// overlap (a sum kept in memory, `c[i][j]`, and the rows the loop reads)
// and can test them at run time: in the version where they do not, LICM
// keeps the sums in registers (stored once, after the loop), each lane's
// chain no longer waiting on a store.
void version(BasicBlock *header, FunctionAnalysisManager &fam)
{
    Function &f = *header->getParent();
    LoopInfo &loops = fam.getResult<LoopAnalysis>(f);
    DominatorTree &dt = fam.getResult<DominatorTreeAnalysis>(f);
    ScalarEvolution &se = fam.getResult<ScalarEvolutionAnalysis>(f);
    Loop *l = loops.getLoopFor(header);
    if (!l || l->getHeader() != header || !l->isLoopSimplifyForm() || !l->getSubLoops().empty())
        return;
    formLCSSA(*l, dt, &loops, &se);
    const LoopAccessInfo &access = fam.getResult<LoopAccessAnalysis>(f).getInfo(*l);
    const RuntimePointerChecking *checking = access.getRuntimePointerChecking();
    if (!access.canVectorizeMemory() || !checking->Need || checking->getChecks().empty() ||
        checking->getChecks().size() > MAX_CHECKS)
        return;
    LoopVersioning versioning(access, checking->getChecks(), l, &loops, &dt, &se);
    versioning.versionLoop();
    versioning.annotateLoopWithNoAlias();
}

} // namespace

PreservedAnalyses InterleaveWorkItemsPass::run(Function &f, FunctionAnalysisManager &fam)
{
    if (f.isDeclaration())
        return PreservedAnalyses::all();
    LoopInfo &loops = fam.getResult<LoopAnalysis>(f);
    ScalarEvolution &se = fam.getResult<ScalarEvolutionAnalysis>(f);
    SmallVector<Shape, 4> found;
    SmallVector<NestedShape, 4> nested;
    for (Loop *l : loops.getLoopsInPreorder()) {
        Shape s;
        NestedShape n;
        if (read_shape(*l, se, s))
            found.push_back(s);
        else if (read_nested_shape(*l, se, n))
            nested.push_back(n);
    }
    if (found.empty() && nested.empty())
        return PreservedAnalyses::all();
    SmallVector<BasicBlock *, 4> jammed, jammed_nested;
    for (Shape &s : found)
        jammed.push_back(interleave(s));
    for (NestedShape &s : nested)
        jammed_nested.push_back(interleave_nested(s));
    for (BasicBlock *header : jammed) {
        fam.invalidate(f, PreservedAnalyses::none());
        version(header, fam);
    }
    for (BasicBlock *header : jammed_nested) {
        fam.invalidate(f, PreservedAnalyses::none());
        version_sums(header, fam);
    }
    return PreservedAnalyses::none();
}

} // namespace ferrocl
