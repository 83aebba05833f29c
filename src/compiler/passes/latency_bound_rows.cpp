// `ferrocl-latency-bound-rows`: in the back end, before the loop
// vectorizer, an innermost work-item loop of scalar code (the vectorizer's
// to widen) whose work is one long chain of dependent floating-point steps
// gets a second copy that the vectorizer interleaves twice, chosen where
// the row's length is a multiple of twice the vector's lanes:
//
//     for (x = s; x < e; x++) B(x)     if ((e - s) % (2 * LANES) == 0)
//                                          for (x = s; x < e; x++) B(x)  // interleave 2
//                                      else
//                                          for (x = s; x < e; x++) B(x)  // interleave 1
//
// Why: each vector iteration of such a loop is one chain (Parboil's mri-q:
// a dot product, a sine and cosine's reduction and polynomials, a
// multiply-add into the sums, about 14 dependent steps of 4 cycles), and
// the core, whose schedulers fill with the chain's waiting steps, overlaps
// too little of the next iteration's: two vectors of work-items side by
// side in the code gave mri-q 30% (2.18 -> 1.55 ms on 2 Zen 3 cores).
// Work-item loops are otherwise never interleaved (parallel_access.cpp):
// a row shorter than the interleaved vector step, 8..15 work-items on
// AVX2, would run one work-item at a time in the remainder; the second
// copy keeps such rows (and every row whose length is no multiple of the
// step) on one vector at a time.
//
// Why it is sound: the two copies are the same code; only the vectorizer's
// interleave count differs.
#include "latency.h"
#include "parallel_access.h"
#include "passes.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/LoopIterator.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

using namespace llvm;

namespace ferrocl {

namespace {

constexpr unsigned LATENCY = STEP_LATENCY;
constexpr unsigned PIPES = STEP_PIPES;
// Latency-bound: the critical path at least BOUND times the throughput and
// at least MIN_CHAIN steps long, and at least STEPS_PER_ACCESS steps for
// each load and store (a loop that mostly moves memory waits on memory:
// clpeak's bandwidth kernels, one add a load, ran 8-20% slower
// interleaved).
constexpr unsigned BOUND = 3;
constexpr unsigned MIN_CHAIN = 8;
constexpr unsigned STEPS_PER_ACCESS = 2;

// Whether the loop's body, in its blocks' order, is one chain of steps
// long enough to leave the core waiting.
bool latency_bound(Loop &l, LoopInfo &loops)
{
    LoopBlocksRPO order(&l);
    order.perform(&loops);
    DenseMap<const Instruction *, unsigned> depth;
    unsigned path = 0, work = 0, accesses = 0;
    for (BasicBlock *block : order)
        for (Instruction &i : *block) {
            accesses += isa<LoadInst>(i) || isa<StoreInst>(i);
            // The id at the header starts the chain; merges take their
            // deepest incoming value.
            if (isa<PHINode>(i) && block == l.getHeader()) {
                depth[&i] = 0;
                continue;
            }
            unsigned d = 0;
            for (const Value *op : i.operands())
                if (auto *oi = dyn_cast<Instruction>(op))
                    if (auto it = depth.find(oi); it != depth.end())
                        d = std::max(d, it->second);
            if (is_float_step(i)) {
                d += LATENCY;
                work++;
            }
            depth[&i] = d;
            path = std::max(path, d);
        }
    unsigned throughput = std::max(1u, (work + PIPES - 1) / PIPES);
    return path >= BOUND * throughput && path >= MIN_CHAIN * LATENCY &&
           work >= STEPS_PER_ACCESS * accesses;
}

// The loop in the file's shape: an innermost work-item loop of scalar code
// with its counter, one exit block, and no value used after it.
std::optional<WorkItemCounter> read_loop(Loop &l)
{
    if (!is_work_item_loop(&l) || !l.getSubLoops().empty() || !l.getLoopPreheader() ||
        !l.getExitBlock() || !l.getExitBlock()->getSinglePredecessor() ||
        findOptionMDForLoop(&l, "ferrocl.rows.versioned"))
        return std::nullopt;
    std::optional<WorkItemCounter> counter = read_work_item_counter(l);
    if (!counter)
        return std::nullopt;
    for (BasicBlock *block : l.blocks())
        for (Instruction &i : *block) {
            Type *worked = isa<StoreInst>(i) ? cast<StoreInst>(i).getValueOperand()->getType()
                                             : i.getType();
            if (worked->isVectorTy())
                return std::nullopt; // latency_bound_work_items.cpp's
            for (const User *u : i.users())
                if (!l.contains(cast<Instruction>(u)))
                    return std::nullopt;
        }
    return counter;
}

// `loop`'s own loop ID with its interleave count set to `count` and the
// versioned mark added.
MDNode *with_interleave(MDNode *loop, unsigned count)
{
    LLVMContext &ctx = loop->getContext();
    auto *temporary = MDNode::getTemporary(ctx, {}).release();
    SmallVector<Metadata *, 8> items = {temporary};
    for (unsigned k = 1; k < loop->getNumOperands(); k++) {
        auto *item = dyn_cast<MDNode>(loop->getOperand(k));
        auto *name = item && item->getNumOperands() ? dyn_cast<MDString>(item->getOperand(0))
                                                    : nullptr;
        if (!name || (name->getString() != "llvm.loop.interleave.count" &&
                      name->getString() != "ferrocl.rows.versioned"))
            items.push_back(loop->getOperand(k));
    }
    Metadata *interleave[] = {
        MDString::get(ctx, "llvm.loop.interleave.count"),
        ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(ctx), count))};
    items.push_back(MDNode::get(ctx, interleave));
    items.push_back(MDNode::get(ctx, {MDString::get(ctx, "ferrocl.rows.versioned")}));
    MDNode *id = MDNode::getDistinct(ctx, items);
    id->replaceOperandWith(0, id);
    MDNode::deleteTemporary(temporary);
    return id;
}

// The file's transform: the copy runs rows of any length, the loop itself
// rows whose length is a multiple of `step`.
void version(Loop &l, const WorkItemCounter &counter, unsigned step, DominatorTree &tree,
             LoopInfo &loops)
{
    BasicBlock *check = l.getLoopPreheader();
    BasicBlock *exit = l.getExitBlock();
    BasicBlock *exiting = l.getExitingBlock();
    BasicBlock *preheader =
        SplitBlock(check, check->getTerminator(), &tree, &loops, nullptr, "rows.ph");
    ValueToValueMapTy map;
    SmallVector<BasicBlock *, 8> blocks;
    Loop *copy =
        cloneLoopWithPreheader(preheader, check, &l, map, ".rows1", &loops, &tree, blocks);
    remapInstructionsInBlocks(blocks, map);
    // Exit values: the copy's exiting block brings the same ones.
    for (PHINode &phi : exit->phis()) {
        Value *v = phi.getIncomingValueForBlock(exiting);
        Value *mapped = map.count(v) ? static_cast<Value *>(map[v]) : v;
        phi.addIncoming(mapped, cast<BasicBlock>(map[exiting]));
    }
    IRBuilder<> b(check->getTerminator());
    Value *start = counter.id->getIncomingValueForBlock(preheader);
    Value *rows = b.CreateSub(counter.end, start, "rows.length");
    Value *whole = b.CreateICmpEQ(
        b.CreateAnd(rows, ConstantInt::get(rows->getType(), step - 1)),
        ConstantInt::get(rows->getType(), 0), "rows.whole");
    b.CreateCondBr(whole, preheader, copy->getLoopPreheader());
    check->getTerminator()->eraseFromParent();
    tree.changeImmediateDominator(preheader, check);
    tree.changeImmediateDominator(copy->getLoopPreheader(), check);
    tree.changeImmediateDominator(exit, check);
    l.setLoopID(with_interleave(l.getLoopID(), 2));
    copy->setLoopID(with_interleave(l.getLoopID(), 1));
    formDedicatedExitBlocks(&l, &tree, &loops, nullptr, false);
    formDedicatedExitBlocks(copy, &tree, &loops, nullptr, false);
}

} // namespace

PreservedAnalyses LatencyBoundRowsPass::run(Function &f, FunctionAnalysisManager &fam)
{
    if (f.isDeclaration())
        return PreservedAnalyses::all();
    LoopInfo &loops = fam.getResult<LoopAnalysis>(f);
    DominatorTree &tree = fam.getResult<DominatorTreeAnalysis>(f);
    const TargetTransformInfo &tti = fam.getResult<TargetIRAnalysis>(f);
    unsigned bits =
        tti.getRegisterBitWidth(TargetTransformInfo::RGK_FixedWidthVector).getFixedValue();
    // Twice the lanes of a float vector: the interleaved step.
    unsigned step = 2 * bits / 32;
    if (step < 8)
        return PreservedAnalyses::all();
    SmallVector<std::pair<Loop *, WorkItemCounter>, 4> found;
    for (Loop *l : loops.getLoopsInPreorder())
        if (std::optional<WorkItemCounter> counter = read_loop(*l))
            if (latency_bound(*l, loops))
                found.emplace_back(l, *counter);
    if (found.empty())
        return PreservedAnalyses::all();
    for (auto &[l, counter] : found)
        version(*l, counter, step, tree, loops);
    PreservedAnalyses kept;
    kept.preserve<LoopAnalysis>();
    kept.preserve<DominatorTreeAnalysis>();
    return kept;
}

} // namespace ferrocl
