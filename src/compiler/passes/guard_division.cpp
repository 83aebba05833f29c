// Integer division that cannot trap.
//
// Integer division by zero (and INT_MIN / -1) is undefined in OpenCL C, but
// on x86 it traps and would kill the application. Each `sdiv`, `udiv`,
// `srem` and `urem` whose divisor is not a constant known safe in every
// lane divides by 1 instead in those cases: for -1 the quotient becomes the
// negated dividend and the remainder 0, which are also the mathematical
// results; for 0 the result is the dividend (quotient) or 0 (remainder),
// any value being allowed.
#include "passes.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

namespace {

// Whether `divisor` is a constant no lane of which is 0 (or, for a signed
// division, -1). Undefined lanes are not safe.
bool safe_constant(Value *divisor, bool is_signed)
{
    auto *c = dyn_cast<Constant>(divisor);
    if (!c)
        return false;
    auto safe_lane = [&](Constant *lane) {
        auto *i = dyn_cast_or_null<ConstantInt>(lane);
        return i && !i->isZero() && !(is_signed && i->isMinusOne());
    };
    auto *vector = dyn_cast<FixedVectorType>(c->getType());
    if (!vector)
        return safe_lane(c);
    for (unsigned l = 0; l < vector->getNumElements(); l++)
        if (!safe_lane(c->getAggregateElement(l)))
            return false;
    return true;
}

// `divisor` with its undefined lanes (undef, poison, or not a plain
// integer) made 0, so that the guard divides by 1 there too.
Value *defined_lanes(Value *divisor)
{
    auto *c = dyn_cast<Constant>(divisor);
    if (!c)
        return divisor;
    Type *ty = c->getType();
    auto *vector = dyn_cast<FixedVectorType>(ty);
    if (!vector)
        return isa<ConstantInt>(c) ? c : Constant::getNullValue(ty);
    std::vector<Constant *> lanes;
    for (unsigned l = 0; l < vector->getNumElements(); l++) {
        Constant *lane = c->getAggregateElement(l);
        lanes.push_back(isa_and_nonnull<ConstantInt>(lane)
                            ? lane
                            : Constant::getNullValue(vector->getElementType()));
    }
    return ConstantVector::get(lanes);
}

bool is_signed(Instruction::BinaryOps code)
{
    return code == Instruction::SDiv || code == Instruction::SRem;
}

} // namespace

PreservedAnalyses GuardDivisionPass::run(Module &m, ModuleAnalysisManager &)
{
    std::vector<BinaryOperator *> divisions;
    for (Function &f : m)
        for (Instruction &i : instructions(f))
            if (auto *op = dyn_cast<BinaryOperator>(&i);
                op && op->isIntDivRem() &&
                !safe_constant(op->getOperand(1), is_signed(op->getOpcode())))
                divisions.push_back(op);
    for (BinaryOperator *op : divisions) {
        IRBuilder<> b(op);
        Value *a = op->getOperand(0), *divisor = defined_lanes(op->getOperand(1));
        Type *ty = divisor->getType();
        auto code = op->getOpcode();
        Value *zero = Constant::getNullValue(ty);
        Value *bad = b.CreateICmpEQ(divisor, zero, "fcl.div.zero");
        Value *minus_one = nullptr;
        if (is_signed(code)) {
            minus_one = b.CreateICmpEQ(divisor, Constant::getAllOnesValue(ty), "fcl.div.m1");
            bad = b.CreateOr(bad, minus_one, "fcl.div.bad");
        }
        Value *safe = b.CreateSelect(bad, ConstantInt::get(ty, 1), divisor, "fcl.div.d");
        // No `exact`: with the divisor replaced it may not hold.
        Value *result = b.CreateBinOp(code, a, safe, op->getName() + ".fcl");
        if (code == Instruction::SDiv)
            result = b.CreateSelect(minus_one, b.CreateNeg(a, "fcl.div.neg"), result);
        else if (code == Instruction::SRem)
            result = b.CreateSelect(minus_one, zero, result);
        if (auto *ri = dyn_cast<Instruction>(result))
            ri->copyMetadata(*op);
        op->replaceAllUsesWith(result);
        result->takeName(op);
        op->eraseFromParent();
    }
    return divisions.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

} // namespace ferrocl
