// The latency model of the passes that look for work-item loops bound by
// one chain of dependent steps (latency_bound_work_items.cpp,
// latency_bound_rows.cpp).
#pragma once

#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

namespace ferrocl {

// A floating-point step's latency in cycles (an FMA on Zen 3 and on
// Skylake), and how many the core starts a cycle.
constexpr unsigned STEP_LATENCY = 4;
constexpr unsigned STEP_PIPES = 2;

// Whether `i` is a floating-point add, multiply or multiply-add, on a
// scalar or a vector.
inline bool is_float_step(const llvm::Instruction &i)
{
    if (!i.getType()->isFPOrFPVectorTy())
        return false;
    if (const auto *op = llvm::dyn_cast<llvm::BinaryOperator>(&i))
        return op->getOpcode() == llvm::Instruction::FAdd ||
               op->getOpcode() == llvm::Instruction::FSub ||
               op->getOpcode() == llvm::Instruction::FMul;
    if (const auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&i))
        return call->getIntrinsicID() == llvm::Intrinsic::fma ||
               call->getIntrinsicID() == llvm::Intrinsic::fmuladd;
    return false;
}

} // namespace ferrocl
