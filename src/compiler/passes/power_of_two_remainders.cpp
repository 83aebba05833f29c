// `ferrocl-power-of-two-remainders`: `x % p == 0` (and `!= 0`) where p is
// known to be a power of two becomes `(x & (p - 1)) == 0`.
//
// Why: tree reductions written for GPUs test `if (tid % (2 * s) == 0)` in
// a loop that doubles s around a barrier (Rodinia's backprop, the
// "interleaved" reduction of every CUDA course). LLVM rewrites the test
// itself when it sees that s doubles; but the region transform keeps the
// loop's counter in the group's memory across the barrier, and the back
// end, seeing a load, divided: an `idiv` of 10-20 cycles per work-item
// and round, a third of backprop's time. The pass runs before the region
// transform, while the counter is still the loop's recurrence. Equal to
// zero is the same test for signed and unsigned remainders, whatever the
// sign of x (p = INT_MIN included: x is 0 or INT_MIN either way). The
// remainder may be guard_division.cpp's, whose guards a power of two
// never trips.
#include "passes.h"

#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Transforms/Utils/Local.h>

#include <tuple>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace ferrocl {

namespace {

// `bad` is guard_division.cpp's test of `d`: `d == 0`, `d == -1` or both.
bool tests_zero_or_minus_one(Value *bad, Value *d)
{
    ICmpInst::Predicate pred;
    if (match(bad, m_ICmp(pred, m_Specific(d), m_Zero())) ||
        match(bad, m_ICmp(pred, m_Specific(d), m_AllOnes())))
        return pred == ICmpInst::ICMP_EQ;
    Value *a, *b;
    if (match(bad, m_Or(m_Value(a), m_Value(b))))
        return tests_zero_or_minus_one(a, d) && tests_zero_or_minus_one(b, d);
    return false;
}

// The divisor behind guard_division.cpp's `select (d == 0 | d == -1), 1, d`
// (`d` itself when it is a power of two, neither 0 nor -1).
Value *unguarded_divisor(Value *v)
{
    Value *bad, *d;
    if (match(v, m_Select(m_Value(bad), m_One(), m_Value(d))) && tests_zero_or_minus_one(bad, d))
        return d;
    return v;
}

// The remainder a compared value is: `rem`, or guard_division.cpp's
// `select (d == -1), 0, rem` (`rem` when d is not -1).
BinaryOperator *remainder_of(Value *v)
{
    Value *minus_one, *r;
    if (match(v, m_Select(m_Value(minus_one), m_Zero(), m_Value(r))))
        v = r;
    else
        minus_one = nullptr;
    auto *rem = dyn_cast<BinaryOperator>(v);
    if (!rem || (rem->getOpcode() != Instruction::SRem && rem->getOpcode() != Instruction::URem))
        return nullptr;
    if (minus_one && !tests_zero_or_minus_one(minus_one, unguarded_divisor(rem->getOperand(1))))
        return nullptr;
    return rem;
}

} // namespace

PreservedAnalyses PowerOfTwoRemaindersPass::run(Function &f, FunctionAnalysisManager &am)
{
    auto &assumptions = am.getResult<AssumptionAnalysis>(f);
    auto &dominators = am.getResult<DominatorTreeAnalysis>(f);
    const DataLayout &layout = f.getParent()->getDataLayout();
    // Each test, its remainder and the power of two it divides by.
    SmallVector<std::tuple<ICmpInst *, BinaryOperator *, Value *>, 4> tests;
    for (Instruction &i : instructions(f)) {
        auto *cmp = dyn_cast<ICmpInst>(&i);
        if (!cmp || !cmp->isEquality() || !match(cmp->getOperand(1), m_Zero()))
            continue;
        BinaryOperator *rem = remainder_of(cmp->getOperand(0));
        if (!rem)
            continue;
        // Not zero either: a power of two, never a division by zero (nor
        // by -1, which is not one).
        Value *p = unguarded_divisor(rem->getOperand(1));
        if (!isKnownToBeAPowerOfTwo(p, layout, /*OrZero=*/false, 0, &assumptions, rem, &dominators))
            continue;
        tests.push_back({cmp, rem, p});
    }
    for (auto [cmp, rem, p] : tests) {
        IRBuilder<> b(rem);
        Value *low = b.CreateAnd(rem->getOperand(0), b.CreateSub(p, ConstantInt::get(p->getType(), 1)),
                                 rem->getName() + ".low");
        // The remainder and its guards go unless something else uses them.
        Value *old = cmp->getOperand(0);
        cmp->setOperand(0, low);
        RecursivelyDeleteTriviallyDeadInstructions(old);
    }
    if (tests.empty())
        return PreservedAnalyses::all();
    PreservedAnalyses kept;
    kept.preserveSet<CFGAnalyses>();
    return kept;
}

} // namespace ferrocl
