// The intervals of work_item_intervals.h.
#include "work_item_intervals.h"
#include "parallel_access.h"
#include "wide_vector_code.h"

#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/MemoryLocation.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace ferrocl {

const SCEVAddRecExpr *read_index(Value *v, Loop *l, ScalarEvolution &se)
{
    if (!v->getType()->isIntegerTy())
        return nullptr;
    const auto *index = dyn_cast<SCEVAddRecExpr>(se.getSCEV(v));
    unsigned width = v->getType()->getIntegerBitWidth();
    // The bounds are computed in twice the width; the counter of a
    // work-item loop runs over fewer than 2^32 work-items, so an index of 32
    // bits or more wraps at most once.
    if (!index || index->getLoop() != l || !index->isAffine() || width < 32 || width > 64)
        return nullptr;
    const auto *step = dyn_cast<SCEVConstant>(index->getStepRecurrence(se));
    if (!step || !step->getValue()->isOne() || !se.isLoopInvariant(index->getStart(), l))
        return nullptr;
    SCEVExpander expander(se, l->getHeader()->getDataLayout(), "bounds");
    if (!expander.isSafeToExpandAt(index->getStart(), l->getLoopPredecessor()->getTerminator()))
        return nullptr;
    return index;
}

std::optional<Test> read_test(Value *cond, bool negate, Loop *l, ScalarEvolution &se)
{
    Value *v = cond;
    match(cond, m_Freeze(m_Value(v)));
    auto *cmp = dyn_cast<ICmpInst>(v);
    if (!cmp)
        return std::nullopt;
    ICmpInst::Predicate pred = negate ? cmp->getInversePredicate() : cmp->getPredicate();
    Value *lhs = cmp->getOperand(0);
    Value *rhs = cmp->getOperand(1);
    if (l->isLoopInvariant(lhs)) {
        std::swap(lhs, rhs);
        pred = ICmpInst::getSwappedPredicate(pred);
    }
    if (!l->isLoopInvariant(rhs))
        return std::nullopt;
    const SCEVAddRecExpr *index = read_index(lhs, l, se);
    if (!index)
        return std::nullopt;
    return Test{pred, index, rhs};
}

Value *clamp(IRBuilder<> &b, Value *v, Value *from, Value *to)
{
    return b.CreateBinaryIntrinsic(Intrinsic::smin,
                                   b.CreateBinaryIntrinsic(Intrinsic::smax, v, from), to);
}

namespace {

// The iterations in [from, to) that pass `index PRED bound` where index =
// iteration + offset exactly (no wrap in the piece): an interval, clamped
// to [from, to); for `!=`, the part of them below the bound.
Interval interval_passing(IRBuilder<> &b, ICmpInst::Predicate pred, Value *offset, Value *bound,
                          Value *from, Value *to)
{
    Value *at = b.CreateSub(bound, offset); // the iteration whose index is the bound
    Value *after = b.CreateAdd(at, ConstantInt::get(bound->getType(), 1));
    switch (pred) {
    case ICmpInst::ICMP_EQ:
        return {clamp(b, at, from, to), clamp(b, after, from, to)};
    case ICmpInst::ICMP_SLT:
    case ICmpInst::ICMP_ULT:
    // `index != bound` holds everywhere but at one iteration, which is no
    // interval: the part below it, where `index < bound` (unsigned) holds,
    // is. A select's `index == n ? 0 : index` (LLVM's form of `(l + 1) %
    // n`) keeps the index where the test fails; read as `>=`, its copy ran
    // the last work-item alone, with the index n.
    case ICmpInst::ICMP_NE:
        return {from, clamp(b, at, from, to)};
    case ICmpInst::ICMP_SLE:
    case ICmpInst::ICMP_ULE:
        return {from, clamp(b, after, from, to)};
    case ICmpInst::ICMP_SGT:
    case ICmpInst::ICMP_UGT:
        return {clamp(b, after, from, to), to};
    case ICmpInst::ICMP_SGE:
    case ICmpInst::ICMP_UGE:
        return {clamp(b, at, from, to), to};
    default: // not a comparison of integers: no iteration
        return {from, from};
    }
}

} // namespace

SmallVector<Interval, 2> intervals_passing(IRBuilder<> &b, const Test &t, Value *count, Type *wide,
                                           SCEVExpander &expander)
{
    unsigned width = t.index->getType()->getIntegerBitWidth();
    bool is_signed = ICmpInst::isSigned(t.pred);
    auto extend = [&](Value *v) {
        // Frozen: where the check read poison, it passed or failed at will.
        v = b.CreateFreeze(v);
        return is_signed ? b.CreateSExtOrTrunc(v, wide) : b.CreateZExtOrTrunc(v, wide);
    };
    Value *first =
        expander.expandCodeFor(t.index->getStart(), t.index->getType(), &*b.GetInsertPoint());
    Value *start = extend(first);
    Value *bound = extend(t.bound);
    // The index runs up to its type's largest value, then on from its
    // smallest.
    unsigned wide_width = wide->getIntegerBitWidth();
    APInt max = is_signed ? APInt::getSignedMaxValue(width) : APInt::getMaxValue(width);
    Value *wraps_at = b.CreateAdd(b.CreateSub(ConstantInt::get(wide, max.zext(wide_width)), start),
                                  ConstantInt::get(wide, 1));
    Value *split = b.CreateBinaryIntrinsic(Intrinsic::smin, wraps_at, count);
    Value *wrapped =
        b.CreateSub(start, ConstantInt::get(wide, APInt::getOneBitSet(wide_width, width)));
    Value *zero = ConstantInt::get(wide, 0);
    return {interval_passing(b, t.pred, start, bound, zero, split),
            interval_passing(b, t.pred, wrapped, bound, split, count)};
}

std::optional<Row> read_row(Loop *l)
{
    if (!l->isInnermost() || !is_work_item_loop(l))
        return std::nullopt;
    BasicBlock *latch = l->getLoopLatch();
    BasicBlock *preheader = l->getLoopPredecessor();
    if (!latch || !preheader || !l->getExitBlock() || l->getExitingBlock() != latch)
        return std::nullopt;
    std::optional<WorkItemCounter> c = read_work_item_counter(*l);
    if (!c)
        return std::nullopt;
    // No value of the loop is used after it (LCSSA: none outside it).
    for (BasicBlock *b : l->blocks())
        for (Instruction &i : *b)
            for (User *u : i.users())
                if (!l->contains(cast<Instruction>(u)))
                    return std::nullopt;
    return Row{l, c->id, c->id->getIncomingValueForBlock(preheader), c->exit, c->next, c->end};
}

std::pair<BasicBlock *, BasicBlock *> own_preheader_and_exit(Loop *l)
{
    BasicBlock *header = l->getHeader();
    BasicBlock *latch = l->getLoopLatch();
    BasicBlock *preheader = l->getLoopPreheader();
    if (!preheader)
        preheader = SplitEdge(l->getLoopPredecessor(), header);
    BasicBlock *exit_block = l->getExitBlock();
    if (exit_block->getSinglePredecessor() != latch || !exit_block->phis().empty())
        exit_block = SplitEdge(latch, exit_block);
    return {preheader, exit_block};
}

Pieces open_pieces(BasicBlock *preheader, BasicBlock *exit_block, ArrayRef<Interval> counters)
{
    LLVMContext &ctx = preheader->getContext();
    BasicBlock *head = SplitBlock(preheader, preheader->getTerminator());
    head->setName("pieces");
    BasicBlock *enter = SplitBlock(head, head->getTerminator());
    enter->setName("pieces.enter");
    BasicBlock *next =
        BasicBlock::Create(ctx, "pieces.next", preheader->getParent(), exit_block);
    IRBuilder<> b(head->getTerminator());
    PHINode *piece = b.CreatePHI(b.getInt32Ty(), 2, "piece");
    piece->addIncoming(b.getInt32(0), preheader);
    Value *lo = counters[0].first, *hi = counters[0].second;
    for (unsigned i = 1; i < counters.size(); i++) {
        Value *is = b.CreateICmpEQ(piece, b.getInt32(i));
        lo = b.CreateSelect(is, counters[i].first, lo);
        hi = b.CreateSelect(is, counters[i].second, hi);
    }
    lo->setName("piece.lo");
    hi->setName("piece.hi");
    b.CreateCondBr(b.CreateICmpULT(lo, hi), enter, next);
    head->getTerminator()->eraseFromParent();
    return {head, enter, next, piece, lo, hi, unsigned(counters.size())};
}

void close_pieces(const Pieces &p, BasicBlock *after)
{
    LLVMContext &ctx = p.head->getContext();
    IRBuilder<> b(p.next);
    Value *following = b.CreateAdd(p.piece, b.getInt32(1), "piece.next");
    p.piece->addIncoming(following, p.next);
    BranchInst *again =
        b.CreateCondBr(b.CreateICmpEQ(following, b.getInt32(p.count)), after, p.head);
    MDNode *unroll = MDNode::get(ctx, MDString::get(ctx, "llvm.loop.unroll.disable"));
    MDNode *id = MDNode::getDistinct(ctx, {nullptr, unroll});
    id->replaceOperandWith(0, id);
    again->setMetadata(LLVMContext::MD_loop, id);
}

bool rewrite_loops_one_at_a_time(Function &f, FunctionAnalysisManager &fam,
                                 function_ref<bool(Loop *, bool apply)> shape)
{
    SmallVector<BasicBlock *, 4> headers;
    for (Loop *l : fam.getResult<LoopAnalysis>(f).getLoopsInPreorder())
        if (shape(l, false))
            headers.push_back(l->getHeader());
    for (BasicBlock *header : headers) {
        fam.invalidate(f, PreservedAnalyses::none());
        Loop *l = fam.getResult<LoopAnalysis>(f).getLoopFor(header);
        if (l && l->getHeader() == header)
            shape(l, true);
    }
    return !headers.empty();
}

bool written_in_loop(Loop *l, LoadInst *load, AAResults &aa)
{
    MemoryLocation read(load->getPointerOperand(), LocationSize::beforeOrAfterPointer(),
                        load->getAAMetadata());
    for (BasicBlock *b : l->blocks())
        for (Instruction &w : *b)
            if (w.mayWriteToMemory() && isModSet(aa.getModRefInfo(&w, read)))
                return true;
    return false;
}

void copy_blocks(ArrayRef<BasicBlock *> blocks, const Twine &suffix, ValueToValueMapTy &map)
{
    SmallVector<BasicBlock *, 32> copies;
    for (BasicBlock *b : blocks) {
        BasicBlock *c = CloneBasicBlock(b, map, suffix, b->getParent());
        map[b] = c;
        copies.push_back(c);
    }
    remapInstructionsInBlocks(copies, map);
}

void fold_tail_under_mask(Instruction *latch_branch)
{
    if (!compiled_for_avx512(*latch_branch->getFunction()))
        return;
    LLVMContext &ctx = latch_branch->getContext();
    SmallVector<Metadata *, 8> items = {nullptr};
    if (MDNode *id = latch_branch->getMetadata(LLVMContext::MD_loop))
        for (unsigned k = 1; k < id->getNumOperands(); k++)
            items.push_back(id->getOperand(k));
    Metadata *predicate[] = {MDString::get(ctx, "llvm.loop.vectorize.predicate.enable"),
                             ConstantAsMetadata::get(ConstantInt::getTrue(ctx))};
    items.push_back(MDNode::get(ctx, predicate));
    MDNode *id = MDNode::getDistinct(ctx, items);
    id->replaceOperandWith(0, id);
    latch_branch->setMetadata(LLVMContext::MD_loop, id);
}

PreservedAnalyses kept_after_loop_hints(bool changed)
{
    if (!changed)
        return PreservedAnalyses::all();
    PreservedAnalyses kept;
    kept.preserveSet<CFGAnalyses>();
    kept.preserve<LoopAnalysis>();
    kept.preserve<ScalarEvolutionAnalysis>();
    return kept;
}

} // namespace ferrocl
