// `ferrocl-grid-stride-loops`: in a kernel without barriers, a loop every
// work-item runs from its own id in steps of a group-wide size,
//
//     for (i = start + lid; i < n; i += global_size) body(i);
//
// (PyOpenCL's elementwise kernels, CUDA-style grid-stride loops) becomes a
// loop with one counter for the group, the work-item's index derived from
// it and its test guarding the body:
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
// values, in order, as before. Only loops whose index is not used after
// them, tested at their header with a latch that only steps, and whose
// other values do not change in the body (a sum in a phi, which the
// skipping path would have to carry: left alone).
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
    for (StringRef size : {"_Z15get_global_sizej", "_Z14get_local_sizej",
                           "_Z23get_enqueued_local_sizej", "_Z14get_num_groupsj"})
        if (call_of(v, size))
            return true;
    return false;
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
std::optional<std::pair<Value *, Value *>> split_start(Value *start, Instruction *at)
{
    IRBuilder<> b(at);
    Type *type = start->getType();
    if (const CallInst *gid = call_of(start, "_Z13get_global_idj")) {
        if (dimension_of(gid, "_Z13get_global_idj") != 0u)
            return std::nullopt;
        // get_global_id(0) = get_group_id(0) * get_enqueued_local_size(0)
        // + get_global_offset(0) + get_local_id(0), the first part from
        // functions the uniformity analysis knows are the group's.
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
        return std::make_pair(first, call("_Z12get_local_idj", "lid"));
    }
    Value *sum = start;
    Instruction::CastOps widen = Instruction::CastOpsEnd;
    if (auto *cast = dyn_cast<CastInst>(start); cast && (isa<SExtInst>(cast) || isa<ZExtInst>(cast))) {
        widen = cast->getOpcode();
        sum = cast->getOperand(0);
    }
    auto *add = dyn_cast<BinaryOperator>(sum);
    if (!add || add->getOpcode() != Instruction::Add)
        return std::nullopt;
    // The widening must not have wrapped the narrow sum.
    if ((widen == Instruction::SExt && !add->hasNoSignedWrap()) ||
        (widen == Instruction::ZExt && !add->hasNoUnsignedWrap()))
        return std::nullopt;
    for (unsigned k = 0; k < 2; k++) {
        Value *lid = add->getOperand(k), *rest = add->getOperand(1 - k);
        if (!local_id(lid) || !is_uniform(rest, {}))
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
    BinaryOperator *next;
    ICmpInst *test;
    BasicBlock *preheader, *latch, *first_body;
};

std::optional<Stride> find_stride(Loop &l, const GroupUniformity &u,
                                  const PostDominatorTree &pdt, BasicBlock *entry)
{
    Stride s{};
    s.preheader = l.getLoopPreheader();
    s.latch = l.getLoopLatch();
    BasicBlock *header = l.getHeader();
    if (!s.preheader || !s.latch || s.latch == header || l.getExitingBlock() != header ||
        !s.latch->phis().empty() || (!u.together(s.preheader) && !pdt.dominates(s.preheader, entry)))
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
    if (!s.index || s.index->getParent() != header || !is_uniform(s.test->getOperand(1), {}))
        return std::nullopt;
    s.next = dyn_cast<BinaryOperator>(s.index->getIncomingValueForBlock(s.latch));
    if (!s.next || s.next->getOpcode() != Instruction::Add || s.next->getParent() != s.latch ||
        s.next->getOperand(0) != s.index || !positive(s.next->getOperand(1), 0) ||
        !s.next->hasOneUse())
        return std::nullopt;
    // The latch only steps; the index is not used after the loop.
    for (Instruction &i : *s.latch)
        if (&i != s.next && !i.isTerminator() &&
            (i.mayHaveSideEffects() || i.mayReadFromMemory()))
            return std::nullopt;
    for (const User *user : s.index->users())
        if (!l.contains(cast<Instruction>(user)))
            return std::nullopt;
    // The header's other values must reach the latch on the path that
    // skips the body too (a sum kept in a phi would not).
    for (PHINode &phi : header->phis()) {
        const auto *next = dyn_cast<Instruction>(phi.getIncomingValueForBlock(s.latch));
        if (&phi != s.index && next && l.contains(next) && next->getParent() != header &&
            next->getParent() != s.latch)
            return std::nullopt;
    }
    return s;
}

// False, and nothing changed, when the index's start does not split.
bool rewrite(Loop &l, Stride &s)
{
    BasicBlock *header = l.getHeader();
    auto parts = split_start(s.index->getIncomingValueForBlock(s.preheader),
                             s.preheader->getTerminator());
    if (!parts)
        return false;
    // The group's counter, and the work-item's index from it.
    IRBuilder<> b(header, header->getFirstInsertionPt());
    PHINode *base = PHINode::Create(s.index->getType(), 2, Twine(GRID_STRIDE_PREFIX) + "0");
    base->insertBefore(s.index->getIterator());
    base->addIncoming(parts->first, s.preheader);
    Value *index = b.CreateAdd(base, parts->second, s.index->getName() + ".item");
    s.index->replaceAllUsesWith(index);
    s.next->setOperand(0, base);
    base->addIncoming(s.next, s.latch);
    s.index->eraseFromParent();
    // The group leaves when its first work-item's index does; each
    // work-item runs the body while its own test holds.
    auto *br = cast<BranchInst>(header->getTerminator());
    b.SetInsertPoint(br);
    Value *more = b.CreateICmp(s.test->getPredicate(), base, s.test->getOperand(1), "group.more");
    br->setCondition(more);
    branch_on_edge(header, s.first_body, s.latch, s.test, "stride.own");
    return true;
}

} // namespace

PreservedAnalyses GridStrideLoopsPass::run(Module &m, ModuleAnalysisManager &mam)
{
    auto &fam = mam.getResult<FunctionAnalysisManagerModuleProxy>(m).getManager();
    bool changed = false;
    for (Function &f : m) {
        if (f.isDeclaration() || !is_kernel(f) || waits(f))
            continue;
        auto &loops = fam.getResult<LoopAnalysis>(f);
        auto &pdt = fam.getResult<PostDominatorTreeAnalysis>(f);
        GroupUniformity u(f);
        SmallVector<std::pair<Loop *, Stride>, 2> found;
        for (Loop *l : loops)
            if (auto s = find_stride(*l, u, pdt, &f.getEntryBlock()))
                found.push_back({l, *s});
        bool any = false;
        for (auto &[l, s] : found)
            any = rewrite(*l, s) || any;
        if (any) {
            fam.invalidate(f, PreservedAnalyses::none());
            changed = true;
        }
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
