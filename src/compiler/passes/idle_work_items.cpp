// See idle_work_items.h.
#include "idle_work_items.h"
#include "group_uniformity.h"
#include "kernel_abi.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

using namespace llvm;

namespace ferrocl {

namespace {

bool is_local_id_0(const Value *v)
{
    const auto *call = dyn_cast<CallInst>(v);
    const Function *f = call ? call->getCalledFunction() : nullptr;
    if (!f || f->getName() != LOCAL_ID_TWIN || call->arg_size() != 5)
        return false;
    const auto *dim = dyn_cast<ConstantInt>(call->getArgOperand(4));
    return dim && dim->isZero();
}

// Whether `i` has no effect but on registers: no store except to a uniform
// slot or a temporary (an alloca that is no slot; none when
// `temporaries` is false), no call but to work-item functions' twins, no
// atomics.
bool pure(const Instruction &i, const RegionPlan &plan, bool temporaries)
{
    if (const auto *store = dyn_cast<StoreInst>(&i)) {
        const auto *a = dyn_cast<AllocaInst>(store->getPointerOperand());
        if (!store->isSimple() || !a || !temporaries)
            return false;
        const Slot *slot = plan.slot_of(a);
        return !slot || slot->uniform;
    }
    if (const auto *call = dyn_cast<CallBase>(&i)) {
        const Function *f = call->getCalledFunction();
        return isa<CallInst>(call) && f && f->getName().starts_with("__ferrocl_loop_");
    }
    if (const auto *load = dyn_cast<LoadInst>(&i))
        return load->isSimple();
    return !isa<AtomicRMWInst>(i) && !isa<AtomicCmpXchgInst>(i) && !isa<FenceInst>(i) &&
           !isa<UnreachableInst>(i);
}

// Integer arithmetic on the bound's inputs (no addresses).
bool arithmetic(const Instruction &i)
{
    switch (i.getOpcode()) {
    case Instruction::UDiv:
    case Instruction::SDiv:
    case Instruction::URem:
    case Instruction::SRem:
    case Instruction::Select:
    case Instruction::ICmp:
        return true;
    default:
        return is_cheap_operation(i) && !isa<GetElementPtrInst>(i);
    }
}

} // namespace

std::optional<Guard> find_guard(const RegionPlan &plan, unsigned r)
{
    if (r == 0)
        return std::nullopt;
    BasicBlock *start = plan.starts[r];
    const auto *br = dyn_cast<BranchInst>(start->getTerminator());
    if (!br || !br->isConditional())
        return std::nullopt;
    // The first block only computes (its effects would be skipped too).
    for (const Instruction &i : *start)
        if (&i != br && !pure(i, plan, false))
            return std::nullopt;
    const auto *cmp = dyn_cast<ICmpInst>(br->getCondition());
    if (!cmp || cmp->getParent() != start || !cmp->getOperand(0)->getType()->isIntegerTy(64))
        return std::nullopt;
    Value *lid, *bound;
    if (cmp->getPredicate() == ICmpInst::ICMP_ULT) {
        lid = cmp->getOperand(0);
        bound = cmp->getOperand(1);
    } else if (cmp->getPredicate() == ICmpInst::ICMP_UGT) {
        bound = cmp->getOperand(0);
        lid = cmp->getOperand(1);
    } else {
        return std::nullopt;
    }
    const auto *lid_call = dyn_cast<Instruction>(lid);
    if (!lid_call || lid_call->getParent() != start || !is_local_id_0(lid_call))
        return std::nullopt;
    // The bound and what it is computed from: uniform values only.
    SmallPtrSet<const Instruction *, 16> needed;
    SmallVector<Value *, 16> stack = {bound};
    while (!stack.empty()) {
        Value *v = stack.pop_back_val();
        auto *i = dyn_cast<Instruction>(v);
        if (!i) {
            if (!isa<Argument>(v) && !isa<Constant>(v))
                return std::nullopt;
            continue;
        }
        if (i->getParent() != start)
            return std::nullopt;
        if (!needed.insert(i).second)
            continue;
        if (const auto *load = dyn_cast<LoadInst>(i)) {
            const auto *a = dyn_cast<AllocaInst>(load->getPointerOperand());
            const Slot *slot = a ? plan.slot_of(a) : nullptr;
            if (!slot || !slot->uniform)
                return std::nullopt;
        } else if (const auto *call = dyn_cast<CallInst>(i)) {
            const Function *f = call->getCalledFunction();
            if (!f || !is_uniform_twin(f->getName()))
                return std::nullopt;
        } else if (arithmetic(*i)) {
            for (Value *op : i->operands())
                stack.push_back(op);
        } else {
            return std::nullopt;
        }
    }
    // A work-item failing the test has no effect of its own until the
    // region ends.
    SmallPtrSet<const BasicBlock *, 16> seen;
    SmallVector<BasicBlock *, 16> todo = {br->getSuccessor(1)};
    while (!todo.empty()) {
        BasicBlock *b = todo.pop_back_val();
        if (!seen.insert(b).second || plan.barriers.count(b))
            continue;
        for (const Instruction &i : *b)
            if (!pure(i, plan, true))
                return std::nullopt;
        // A branch on `get_local_id(0) == 0`: a skipped work-item takes its
        // false edge.
        const auto *term = dyn_cast<BranchInst>(b->getTerminator());
        const auto *eq = term && term->isConditional()
                             ? dyn_cast<ICmpInst>(term->getCondition())
                             : nullptr;
        const auto *zero = eq ? dyn_cast<ConstantInt>(eq->getOperand(1)) : nullptr;
        if (eq && eq->getPredicate() == ICmpInst::ICMP_EQ && zero && zero->isZero() &&
            zero->getType()->isIntegerTy(64) && is_local_id_0(eq->getOperand(0))) {
            todo.push_back(term->getSuccessor(1));
            continue;
        }
        for (BasicBlock *s : successors(b))
            todo.push_back(s);
    }
    Guard guard{bound, {}};
    for (Instruction &i : *start)
        if (needed.count(&i))
            guard.lines.push_back(&i);
    return guard;
}

} // namespace ferrocl
