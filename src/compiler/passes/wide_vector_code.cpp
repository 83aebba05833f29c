// The element-by-element count behind is_wide_vector_code (see the header).
// Each load, store, arithmetic instruction, comparison, select and
// intrinsic or math call counts its result's (a store: its value's)
// elements; casts, shuffles, element insertions and extractions, phis and
// address arithmetic are how values move and count nothing.
#include "wide_vector_code.h"

#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/SubtargetFeature.h>

#include <algorithm>
#include <memory>
#include <string>

using namespace llvm;

namespace ferrocl {

namespace {

// The type whose elements `i` works on, or null when it does no counted
// work.
Type *worked_type(const Instruction &i)
{
    if (auto *store = dyn_cast<StoreInst>(&i))
        return store->getValueOperand()->getType();
    if (isa<LoadInst>(i) || isa<BinaryOperator>(i) || isa<UnaryOperator>(i) ||
        isa<SelectInst>(i))
        return i.getType();
    if (auto *cmp = dyn_cast<CmpInst>(&i))
        return cmp->getOperand(0)->getType();
    if (auto *call = dyn_cast<CallInst>(&i))
        return call->getType()->isVoidTy() ? nullptr : call->getType();
    return nullptr;
}

// What host_vector_bits says, asked of a target machine for the host.
unsigned ask_host_vector_bits()
{
    constexpr unsigned AT_LEAST = 256;
    std::string triple = sys::getProcessTriple(), err;
    const Target *target = TargetRegistry::lookupTarget(triple, err);
    if (!target)
        return AT_LEAST;
    std::unique_ptr<TargetMachine> machine(target->createTargetMachine(
        triple, sys::getHostCPUName(), host_features().getString(), TargetOptions(), std::nullopt));
    if (!machine)
        return AT_LEAST;
    LLVMContext context;
    Module m("host", context);
    m.setDataLayout(machine->createDataLayout());
    Function *f = Function::Create(FunctionType::get(Type::getVoidTy(context), false),
                                   GlobalValue::ExternalLinkage, "f", m);
    TypeSize bits = machine->getTargetTransformInfo(*f).getRegisterBitWidth(
        TargetTransformInfo::RGK_FixedWidthVector);
    return std::max(AT_LEAST, unsigned(bits.getFixedValue()));
}

} // namespace

SubtargetFeatures host_features()
{
    SubtargetFeatures features;
    for (const auto &[name, on] : sys::getHostCPUFeatures())
        features.AddFeature(name, on);
    return features;
}

unsigned host_vector_bits()
{
    static const unsigned bits = ask_host_vector_bits();
    return bits;
}

bool is_wide_vector_code(ArrayRef<const BasicBlock *> blocks, unsigned bits)
{
    uint64_t wide = 0, other = 0;
    for (const BasicBlock *block : blocks) {
        const DataLayout &layout = block->getModule()->getDataLayout();
        for (const Instruction &i : *block) {
            Type *type = worked_type(i);
            if (!type)
                continue;
            if (auto *vector = dyn_cast<FixedVectorType>(type)) {
                uint64_t elements = vector->getNumElements();
                if (layout.getTypeSizeInBits(vector) >= bits)
                    wide += elements;
                else
                    other += elements;
            } else if (type->isFloatingPointTy()) {
                other += 1;
            }
        }
    }
    return wide > 0 && wide >= 4 * other;
}

} // namespace ferrocl
