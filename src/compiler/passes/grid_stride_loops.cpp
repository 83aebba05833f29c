// `ferrocl-grid-stride-loops`: in a kernel without barriers, or before,
// between or after the barriers of one, a loop every work-item runs from
// its own id in steps of a group-wide size,
//
//     for (i = start + lid; i < n; i += global_size) body(i);
//
// (PyOpenCL's elementwise kernels, CUDA-style grid-stride loops, SHOC's
// reductions summing a block before their barriers) becomes a loop with
// one counter for the group, the work-item's index derived from it and
// its test guarding the body:
//
//     for (base = start; base < n; base += global_size) {
//         i = base + lid;
//         if (i < n) body(i);
//     }
//
// Its counter is named GRID_STRIDE_PREFIX, which makes the loop one
// carrying compute (group_uniformity.h), so the implicit barriers then
// put the work-item loop inside each iteration: the group's work-items
// touch consecutive elements together and the body vectorizes. Run as it
// was, each work-item walked the whole array with the global size's
// stride, one element at a time: 14x slower than Intel's runtime.
//
// It changes no result: the step is positive (a size), the local id is
// not negative, so base <= i, and the group's loop runs until no
// work-item's test holds, each work-item running the body for its own i
// values, in order, as before. (Indices are taken not to wrap, as the
// sizes they step by are taken to fit their type.) A value the loop
// carries in a phi (a sum) keeps its value on the path that skips the
// body. Only loops whose index is not used after them, tested at their
// header with a latch that only steps, without barriers or other waits
// inside.
//
// A loop behind a bounds check (`if (id >= n) return;` before it, as in
// Hetero-Mark's histogram) is rewritten too, its start's parts computed in
// the entry block: loops_out_of_guards.cpp then moves it out of the check.
// Where it stays behind a guard, each work-item runs it as before, plus
// iterations that skip the body until the group's counter, at most a
// group's size behind its index, reaches the end too: at most one with a
// step of a size, which is all such a loop may have (with a step of 1, a
// loop behind `if (lid == 7)` would run 7 empty iterations).
#include "branch_on_edge.h"
#include "group_uniformity.h"
#include "kernel_symbols.h"
#include "passes.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Local.h>

using namespace llvm;

namespace ferrocl {

namespace {

// Deeper chains are not followed (fail closed).
constexpr unsigned MAX_DEPTH = 8;

// A size: positive constants, get_global_size, get_local_size,
// get_enqueued_local_size, get_num_groups, and products and casts of them.
bool positive(const Value *v, unsigned depth)
{
    if (const auto *k = dyn_cast<ConstantInt>(v))
        return k->getValue().isStrictlyPositive();
    if (depth > MAX_DEPTH)
        return false;
    if (const auto *cast = dyn_cast<CastInst>(v))
        return (isa<SExtInst>(cast) || isa<ZExtInst>(cast) || isa<TruncInst>(cast)) &&
               positive(cast->getOperand(0), depth + 1);
    if (const auto *mul = dyn_cast<BinaryOperator>(v); mul && mul->getOpcode() == Instruction::Mul)
        return positive(mul->getOperand(0), depth + 1) && positive(mul->getOperand(1), depth + 1);
    // Of a dimension the call names itself: the step is built again in
    // the latch (rebuild_step).
    return is_size_query(v) && isa<Constant>(cast<CallInst>(v)->getArgOperand(0));
}

// A copy of `step` (what `positive` accepts) built with `b`.
Value *rebuild_step(Value *step, IRBuilder<> &b)
{
    if (isa<Constant>(step))
        return step;
    if (auto *cast = dyn_cast<CastInst>(step))
        return b.CreateCast(cast->getOpcode(), rebuild_step(cast->getOperand(0), b),
                            cast->getType());
    if (auto *mul = dyn_cast<BinaryOperator>(step))
        return b.CreateMul(rebuild_step(mul->getOperand(0), b),
                           rebuild_step(mul->getOperand(1), b));
    Instruction *call = cast<CallInst>(step)->clone();
    return b.Insert(call, step->getName());
}

// The step of `next`, the index's value in the next iteration: `index +
// step` (either order), or `trunc(ext(index) + step)` from a wider type
// (`int i; i += get_local_size(0)`), which is `index + trunc(step)`; null
// when it is neither, or the step is not positive.
Value *step_of(Value *next, const PHINode *index, bool &truncated)
{
    truncated = false;
    if (auto *t = dyn_cast<TruncInst>(next)) {
        next = t->getOperand(0);
        truncated = true;
    }
    auto *add = dyn_cast<BinaryOperator>(next);
    if (!add || add->getOpcode() != Instruction::Add)
        return nullptr;
    for (unsigned k = 0; k < 2; k++) {
        Value *from = add->getOperand(k), *step = add->getOperand(1 - k);
        if (truncated) {
            auto *ext = dyn_cast<CastInst>(from);
            if (!ext || !(isa<SExtInst>(ext) || isa<ZExtInst>(ext)))
                continue;
            from = ext->getOperand(0);
        }
        if (from == index && positive(step, 0))
            return step;
    }
    return nullptr;
}

// The local id of dimension 0, widened or narrowed (`int lid =
// get_local_id(0)`).
const Value *local_id(const Value *v)
{
    while (const auto *cast = dyn_cast<CastInst>(v)) {
        if (!isa<SExtInst>(cast) && !isa<ZExtInst>(cast) && !isa<TruncInst>(cast))
            return nullptr;
        v = cast->getOperand(0);
    }
    return dimension_of(v, "_Z12get_local_idj") == 0u ? v : nullptr;
}

// `start` as a uniform part plus the local id, both of start's type, built
// before `at`: start = u + lid, sext(u + nsw lid), zext(u + nuw lid), or
// get_global_id(0). Nothing is built when it does not split.
std::optional<std::pair<Value *, Value *>> split_start(Value *start, Instruction *at,
                                                       const GroupUniformity &u)
{
    IRBuilder<> b(at);
    Type *type = start->getType();
    // `uint i = get_global_id(0)`: the truncated id is the sum of the
    // truncated parts.
    Value *id = start;
    if (auto *t = dyn_cast<TruncInst>(start))
        id = t->getOperand(0);
    if (const CallInst *gid = call_of(id, "_Z13get_global_idj")) {
        if (dimension_of(gid, "_Z13get_global_idj") != 0u)
            return std::nullopt;
        // get_global_id(0) = get_group_id(0) * get_enqueued_local_size(0)
        // + get_global_offset(0) + get_local_id(0), the first part from
        // functions the uniformity analysis knows are the group's. Built
        // in the entry block, where every work-item has them: a loop
        // behind a bounds check then moves out of it
        // (loops_out_of_guards.cpp computes again only what is uniform).
        b.SetInsertPoint(at->getFunction()->getEntryBlock().getTerminator());
        Module &m = *at->getModule();
        auto call = [&](StringRef name, const char *what) {
            FunctionCallee f = m.getOrInsertFunction(name, gid->getFunctionType());
            return b.CreateCall(f, {b.getInt32(0)}, what);
        };
        // One statement each: the calls in their order.
        Value *group = call("_Z12get_group_idj", "group");
        Value *size = call("_Z23get_enqueued_local_sizej", "enqueued");
        Value *groups = b.CreateMul(group, size);
        Value *offset = call("_Z17get_global_offsetj", "offset");
        Value *first = b.CreateAdd(groups, offset, "group.start");
        Value *lid = call("_Z12get_local_idj", "lid");
        if (id != start)
            return std::make_pair(b.CreateTrunc(first, type, "group.start"),
                                  b.CreateTrunc(lid, type, "lid"));
        return std::make_pair(first, lid);
    }
    Value *sum = start;
    // sext or zext of a narrow sum, or trunc of a wide one (`uint i =
    // group * size + lid` computed in size_t): the parts are cast alike.
    Instruction::CastOps widen = Instruction::CastOpsEnd;
    if (auto *cast = dyn_cast<CastInst>(start);
        cast && (isa<SExtInst>(cast) || isa<ZExtInst>(cast) || isa<TruncInst>(cast))) {
        widen = cast->getOpcode();
        sum = cast->getOperand(0);
    }
    auto *add = dyn_cast<BinaryOperator>(sum);
    if (!add || add->getOpcode() != Instruction::Add)
        return std::nullopt;
    // The widening must not have wrapped the narrow sum (truncating a sum
    // is the sum of the truncated parts).
    if ((widen == Instruction::SExt && !add->hasNoSignedWrap()) ||
        (widen == Instruction::ZExt && !add->hasNoUnsignedWrap()))
        return std::nullopt;
    for (unsigned k = 0; k < 2; k++) {
        Value *lid = add->getOperand(k), *rest = add->getOperand(1 - k);
        if (!local_id(lid) || !u.uniform(rest))
            continue;
        if (widen != Instruction::CastOpsEnd) {
            lid = b.CreateCast(widen, lid, type, "lid");
            rest = b.CreateCast(widen, rest, type, "group.start");
        }
        return std::make_pair(rest, lid);
    }
    return std::nullopt;
}

// The loop's index phi and its pieces, when `l` is a grid-stride loop.
struct Stride {
    PHINode *index;
    Value *next, *step;
    bool truncated;
    ICmpInst *test;
    BasicBlock *preheader, *latch, *first_body;
};

// Whether `step` (which `positive` accepts) is at least the group's size in
// dimension 0: get_global_size, get_local_size or get_enqueued_local_size
// of dimension 0, or a product with one. A work-item's index is then less
// than one step past the group's counter.
bool covers_group(const Value *step, unsigned depth)
{
    if (depth > MAX_DEPTH)
        return false;
    if (const auto *cast = dyn_cast<CastInst>(step))
        return covers_group(cast->getOperand(0), depth + 1);
    if (const auto *mul = dyn_cast<BinaryOperator>(step); mul && mul->getOpcode() == Instruction::Mul)
        return covers_group(mul->getOperand(0), depth + 1) ||
               covers_group(mul->getOperand(1), depth + 1);
    for (StringRef size :
         {"_Z15get_global_sizej", "_Z14get_local_sizej", "_Z23get_enqueued_local_sizej"})
        if (dimension_of(step, size) == 0u)
            return true;
    return false;
}

std::optional<Stride> find_stride(Loop &l, const GroupUniformity &u,
                                  const PostDominatorTree &pdt, BasicBlock *entry)
{
    Stride s{};
    s.preheader = l.getLoopPreheader();
    s.latch = l.getLoopLatch();
    BasicBlock *header = l.getHeader();
    if (!s.preheader || !s.latch || s.latch == header || l.getExitingBlock() != header)
        return std::nullopt;
    auto *br = dyn_cast<BranchInst>(header->getTerminator());
    if (!br || !br->isConditional() || !l.contains(br->getSuccessor(0)))
        return std::nullopt;
    s.first_body = br->getSuccessor(0);
    s.test = dyn_cast<ICmpInst>(br->getCondition());
    if (!s.test || s.test->getParent() != header || !s.test->hasOneUse())
        return std::nullopt;
    ICmpInst::Predicate p = s.test->getPredicate();
    if (p != ICmpInst::ICMP_SLT && p != ICmpInst::ICMP_ULT && p != ICmpInst::ICMP_SLE &&
        p != ICmpInst::ICMP_ULE)
        return std::nullopt;
    s.index = dyn_cast<PHINode>(s.test->getOperand(0));
    if (!s.index || s.index->getParent() != header || !u.uniform(s.test->getOperand(1)))
        return std::nullopt;
    s.next = s.index->getIncomingValueForBlock(s.latch);
    s.step = step_of(s.next, s.index, s.truncated);
    if (!s.step)
        return std::nullopt;
    // Where not all work-items enter the loop, it may stay behind its
    // guard (loops_out_of_guards.cpp moves it out of bounds checks only):
    // each work-item then runs the iterations its index is past the
    // group's counter, which a step of a size bounds by one.
    if (!u.together(s.preheader) && !pdt.dominates(s.preheader, entry) &&
        !covers_group(s.step, 0))
        return std::nullopt;
    // The index is not used after the loop.
    for (const User *user : s.index->users())
        if (!l.contains(cast<Instruction>(user)))
            return std::nullopt;
    // Work-items that wait for each other inside would wait where only
    // some of them go.
    for (const BasicBlock *b : l.blocks())
        for (const Instruction &i : *b)
            if (calls_wait(i))
                return std::nullopt;
    return s;
}

// False, and nothing changed, when the index's start does not split.
bool rewrite(Loop &l, Stride &s, const GroupUniformity &u)
{
    BasicBlock *header = l.getHeader();
    auto parts = split_start(s.index->getIncomingValueForBlock(s.preheader),
                             s.preheader->getTerminator(), u);
    if (!parts)
        return false;
    // A latch of its own on the back edge, which the skipping path joins:
    // the loop's latch may be its body, with side effects.
    BasicBlock *latch = SplitEdge(s.latch, header);
    latch->setName(header->getName() + ".step");
    // The group's counter, and the work-item's index from it.
    IRBuilder<> b(header, header->getFirstInsertionPt());
    PHINode *base = PHINode::Create(s.index->getType(), 2, Twine(GRID_STRIDE_PREFIX) + "0");
    base->insertBefore(s.index->getIterator());
    base->addIncoming(parts->first, s.preheader);
    Value *index = b.CreateAdd(base, parts->second, s.index->getName() + ".item");
    IRBuilder<> step(latch->getTerminator());
    Value *by = rebuild_step(s.step, step);
    if (s.truncated)
        by = step.CreateTrunc(by, base->getType());
    Value *next = step.CreateAdd(base, by);
    base->addIncoming(next, latch);
    s.index->replaceAllUsesWith(index);
    s.index->eraseFromParent();
    // The work-item's old step, unless the body uses it.
    std::string name = s.next->getName().str();
    RecursivelyDeleteTriviallyDeadInstructions(s.next);
    next->setName(name);
    // The group leaves when its first work-item's index does; each
    // work-item runs the body while its own test holds.
    auto *br = cast<BranchInst>(header->getTerminator());
    b.SetInsertPoint(br);
    Value *more = b.CreateICmp(s.test->getPredicate(), base, s.test->getOperand(1), "group.more");
    br->setCondition(more);
    // The latch is the rewrite's own: the phis' next values made before it
    // are the body's.
    BasicBlock *own = branch_on_edge(header, s.first_body, latch, s.test, "stride.own");
    carry_past_skip(l, latch, own, SmallPtrSet<PHINode *, 1>());
    return true;
}

} // namespace

PreservedAnalyses GridStrideLoopsPass::run(Module &m, ModuleAnalysisManager &mam)
{
    auto &fam = mam.getResult<FunctionAnalysisManagerModuleProxy>(m).getManager();
    bool changed = false;
    for (Function &f : m) {
        if (f.isDeclaration() || !is_kernel(f) || kernel_waits(f).others)
            continue;
        auto &loops = fam.getResult<LoopAnalysis>(f);
        auto &pdt = fam.getResult<PostDominatorTreeAnalysis>(f);
        GroupUniformity u(f);
        SmallVector<std::pair<Loop *, Stride>, 2> found;
        for (Loop *l : loops)
            if (auto s = find_stride(*l, u, pdt, &f.getEntryBlock()))
                found.push_back({l, *s});
        bool any = false;
        // Judged again on the IR each rewrite leaves.
        for (auto &[l, s] : found)
            any = rewrite(*l, s, GroupUniformity(f)) || any;
        if (any) {
            fam.invalidate(f, PreservedAnalyses::none());
            changed = true;
        }
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
