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
#include "parallel_access.h"
#include "passes.h"

#include <llvm/Analysis/LoopAccessAnalysis.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/LoopVersioning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <array>

using namespace llvm;

namespace ferrocl {

namespace {

// Work-items run side by side: enough independent chains for two
// floating-point pipes of 4 cycles' latency.
constexpr unsigned LANES = 8;

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
    const SCEV *trips = se.getBackedgeTakenCount(inner);
    if (isa<SCEVCouldNotCompute>(trips) || !se.isLoopInvariant(trips, &l) ||
        !carries_float(*inner, se) || !interleavable_code(l))
        return false;
    // The header: no store (the test is evaluated before the work-item's
    // earlier copies run), a branch to the inner loop's way, or a test
    // whose other way is the latch.
    for (Instruction &i : *s.header)
        if (i.mayWriteToMemory() || (isa<PHINode>(i) && &i != s.id))
            return false;
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

// Interleaves `s`'s work-items; returns the jammed loop's header.
BasicBlock *interleave(Shape &s)
{
    Function &f = *s.header->getParent();
    LLVMContext &ctx = f.getContext();
    Type *id_type = s.id->getType();
    // The header's code moves to a block of its own, `one`: the way of one
    // work-item.
    BasicBlock *one = s.header->splitBasicBlock(s.header->getFirstNonPHIIt(), "wi.one");
    IRBuilder<> b(s.header->getTerminator());
    Value *room = b.CreateICmpUGE(b.CreateSub(s.end, s.id), ConstantInt::get(id_type, LANES),
                                  "wi.room");
    SmallVector<Value *, LANES> ids{s.id};
    for (unsigned u = 1; u < LANES; u++)
        ids.push_back(b.CreateAdd(s.id, ConstantInt::get(id_type, u), "wi.id", true, true));

    BasicBlock *fast_entry = BasicBlock::Create(ctx, "wi.lanes", &f, s.latch);
    BasicBlock *first = fast_entry;
    if (s.test) {
        // g for each of the work-items, from a copy of the header's code it
        // needs (no phi but the id, no store: checked).
        BasicBlock *tests = BasicBlock::Create(ctx, "wi.tests", &f, fast_entry);
        IRBuilder<> t(tests);
        Value *all = nullptr;
        SmallPtrSet<Instruction *, 16> needed;
        SmallVector<Instruction *, 16> work;
        if (auto *ti = dyn_cast<Instruction>(s.test); ti && ti->getParent() == one)
            work.push_back(ti);
        while (!work.empty()) {
            Instruction *i = work.pop_back_val();
            if (!needed.insert(i).second)
                continue;
            for (Value *op : i->operands())
                if (auto *oi = dyn_cast<Instruction>(op); oi && oi->getParent() == one)
                    work.push_back(oi);
        }
        for (unsigned u = 0; u < LANES; u++) {
            ValueToValueMapTy map;
            map[s.id] = ids[u];
            for (Instruction &i : *one) {
                if (!needed.count(&i))
                    continue;
                Instruction *c = i.clone();
                c->setName(i.getName() + ".wi");
                t.Insert(c);
                RemapInstruction(c, map, RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
                map[&i] = c;
            }
            Value *g = map.count(s.test) ? static_cast<Value *>(map[s.test]) : s.test;
            all = all ? t.CreateAnd(all, g, "wi.all") : g;
        }
        t.CreateCondBr(all, fast_entry, one);
        first = tests;
    }
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
    for (unsigned u = 0; u < LANES; u++) {
        ValueToValueMapTy &map = maps[u];
        map[s.id] = ids[u];
        BasicBlock *code = u == 0 ? fast_entry : BasicBlock::Create(ctx, "wi.lane", &f, s.latch);
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
        BranchInst::Create(cast<BasicBlock>(map[s.enter]), code);
    }
    // Remap each copy, then stitch: each preheader copy to the next lane's
    // header code (the last one into the jammed loop), each latch copy to
    // the next lane's inner header (the last one back to the first), each
    // exit copy to the next.
    for (unsigned u = 0; u < LANES; u++)
        remapInstructionsInBlocks(copies[u], maps[u]);
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
        for (PHINode &phi : make_early_inc_range(h->phis())) {
            for (unsigned k = 0; k < phi.getNumIncomingValues(); k++)
                phi.setIncomingBlock(k, phi.getIncomingBlock(k) == block(u, ilatch) ? jam_latch
                                                                                   : jam_pre);
            if (u > 0)
                phi.moveBefore(jam_header->getFirstNonPHI());
        }
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
            for (PHINode &phi : make_early_inc_range(e->phis())) {
                phi.replaceAllUsesWith(phi.getIncomingValue(0));
                phi.eraseFromParent();
            }
            if (u > 0) {
                // Entered from the previous lane's exit, not from a latch.
                Instruction *t = block(u - 1, s.exit)->getTerminator();
                BranchInst::Create(e, t);
                t->eraseFromParent();
            }
        }
        // Alias scopes: this lane's accesses are apart from the others'.
        for (BasicBlock *bb : copies[u])
            for (Instruction &i : *bb)
                if (isa<LoadInst>(i) || isa<StoreInst>(i))
                    scopes.add(i, u);
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
    for (Loop *l : loops.getLoopsInPreorder()) {
        Shape s;
        if (read_shape(*l, se, s))
            found.push_back(s);
    }
    if (found.empty())
        return PreservedAnalyses::all();
    SmallVector<BasicBlock *, 4> jammed;
    for (Shape &s : found)
        jammed.push_back(interleave(s));
    for (BasicBlock *header : jammed) {
        fam.invalidate(f, PreservedAnalyses::none());
        version(header, fam);
    }
    return PreservedAnalyses::none();
}

} // namespace ferrocl
