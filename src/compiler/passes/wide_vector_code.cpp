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

// The narrowest vector registers host_vector_bits gives (AVX's), and the
// width from which a kernel's own vectors fill a register on any host.
constexpr unsigned AVX_BITS = 256;

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
    std::string triple = sys::getProcessTriple(), err;
    const Target *target = TargetRegistry::lookupTarget(triple, err);
    if (!target)
        return AVX_BITS;
    std::unique_ptr<TargetMachine> machine(target->createTargetMachine(
        triple, sys::getHostCPUName(), host_features().getString(), TargetOptions(), std::nullopt));
    if (!machine)
        return AVX_BITS;
    LLVMContext context;
    Module m("host", context);
    m.setDataLayout(machine->createDataLayout());
    Function *f = Function::Create(FunctionType::get(Type::getVoidTy(context), false),
                                   GlobalValue::ExternalLinkage, "f", m);
    // The widest the host has, not what LLVM's tuning for it prefers
    // (host_vector_width.cpp says why).
    f->addFnAttr("prefer-vector-width", "512");
    TypeSize bits = machine->getTargetTransformInfo(*f).getRegisterBitWidth(
        TargetTransformInfo::RGK_FixedWidthVector);
    return std::max(AVX_BITS, unsigned(bits.getFixedValue()));
}

} // namespace

SubtargetFeatures host_features()
{
    SubtargetFeatures features;
    for (const auto &[name, on] : sys::getHostCPUFeatures())
        features.AddFeature(name, on);
    return features;
}

bool compiled_for_avx512(const Function &f)
{
    Attribute features = f.getFnAttribute("target-features");
    if (features.isValid())
        return features.getValueAsString().contains("+avx512f");
    return sys::getHostCPUFeatures().lookup("avx512f");
}

unsigned host_vector_bits()
{
    static const unsigned bits = ask_host_vector_bits();
    return bits;
}

bool is_wide_vector_code(ArrayRef<const BasicBlock *> blocks, unsigned bits)
{
    // Elements worked on in vectors of `bits` or more (`wide`), of 256 bits
    // up to `bits` (`mid`; none where `bits` is 256), in narrower vectors
    // and floating-point scalars (`narrow`); and how many of the first two
    // kinds are loaded or stored (`moved`).
    uint64_t wide = 0, mid = 0, narrow = 0, moved = 0;
    for (const BasicBlock *block : blocks) {
        const DataLayout &layout = block->getModule()->getDataLayout();
        for (const Instruction &i : *block) {
            Type *type = worked_type(i);
            if (!type)
                continue;
            if (auto *vector = dyn_cast<FixedVectorType>(type)) {
                uint64_t elements = vector->getNumElements();
                uint64_t size = layout.getTypeSizeInBits(vector);
                (size >= bits ? wide : size >= AVX_BITS ? mid : narrow) += elements;
                if (size >= AVX_BITS && (isa<LoadInst>(i) || isa<StoreInst>(i)))
                    moved += elements;
            } else if (type->isFloatingPointTy()) {
                narrow += 1;
            }
        }
    }
    if (wide > 0 && wide >= 4 * (mid + narrow))
        return true;
    // float8 on a host of 512-bit registers: split, each of its loads and
    // stores becomes a deinterleaving of 16 work-items' vectors, which costs
    // more than the wider arithmetic wins unless arithmetic outweighs them
    // (clpeak's global_bandwidth_v8 kept whole; its compute_sp_v8, chains
    // of multiply-adds, split: 1.7x faster as 16 lanes of work-items).
    uint64_t at_least_256 = wide + mid;
    return at_least_256 > 0 && at_least_256 >= 4 * narrow && 4 * moved >= at_least_256 - moved;
}

} // namespace ferrocl
