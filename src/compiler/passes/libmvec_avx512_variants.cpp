// `ferrocl-libmvec-avx512-variants`: on a host with 512-bit vector
// registers (wide_vector_code.h host_vector_bits), calls of float sin,
// cos, tan, exp and pow also name glibc's 16-lane AVX-512 versions
// (_ZGVeN16v_sinf, ...) as their vector variants, beside the 8-lane AVX2
// ones LLVM 19's -fveclib=libmvec table knows (VecFuncs.def has no
// AVX-512 entries). The back end runs it where its vectorizer starts.
//
// Why: the loop vectorizer of an AVX-512 host widens a work-item loop to
// 16 lanes, but with only an 8-lane sin it either stays at 8 lanes or
// calls the 8-lane one twice; glibc's 16-lane sinf takes 0.31 ns a value
// where the 8-lane one takes 0.48 (Parboil's mri-q spent 40 % of its time
// in sin and cos before the builtins library computed float sin and cos
// itself). Their accuracy, measured over every float against
// glibc's double functions (benches/corpus/README.md), is within OpenCL's
// bounds like the 8-lane ones': only functions whose 8-lane version the
// vectorizer already uses are named, less float log (scalar_libm.cpp).
#include "passes.h"
#include "wide_vector_code.h"

#include <llvm/ADT/StringSwitch.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <string>

using namespace llvm;

namespace ferrocl {

namespace {

constexpr unsigned LANES = 16;

// The libm name of the function a float call computes: its callee's, or
// the one an intrinsic stands for; empty for other intrinsics.
StringRef libm_name(const CallInst &call)
{
    switch (call.getIntrinsicID()) {
    case Intrinsic::sin:
        return "sinf";
    case Intrinsic::cos:
        return "cosf";
    case Intrinsic::exp:
        return "expf";
    case Intrinsic::pow:
        return "powf";
    case Intrinsic::not_intrinsic:
        return call.getCalledFunction()->getName();
    default:
        return "";
    }
}

// The 16-lane libmvec function for a float call of `callee` (an intrinsic
// or the libm function), and its parameters' letters, or none.
std::pair<StringRef, StringRef> avx512_variant(const CallInst &call)
{
    if (!call.getCalledFunction() || !call.getType()->isFloatTy() || call.isNoBuiltin())
        return {};
    return StringSwitch<std::pair<StringRef, StringRef>>(libm_name(call))
        .Case("sinf", {"_ZGVeN16v_sinf", "v"})
        .Case("cosf", {"_ZGVeN16v_cosf", "v"})
        .Case("tanf", {"_ZGVeN16v_tanf", "v"})
        .Case("expf", {"_ZGVeN16v_expf", "v"})
        .Case("powf", {"_ZGVeN16vv_powf", "vv"})
        .Default({});
}

} // namespace

PreservedAnalyses LibmvecAvx512VariantsPass::run(Function &f, FunctionAnalysisManager &)
{
    if (f.isDeclaration() || (!any_host && host_vector_bits() < 512))
        return PreservedAnalyses::all();
    Module &m = *f.getParent();
    bool changed = false;
    for (Instruction &i : instructions(f)) {
        auto *call = dyn_cast<CallInst>(&i);
        if (!call)
            continue;
        auto [vector_name, parameters] = avx512_variant(*call);
        if (vector_name.empty())
            continue;
        // Its declaration, kept until the vectorizer has looked for it.
        if (!m.getFunction(vector_name)) {
            auto *lanes = FixedVectorType::get(call->getType(), LANES);
            SmallVector<Type *, 2> params(call->arg_size(), lanes);
            Function *vector = Function::Create(FunctionType::get(lanes, params, false),
                                                GlobalValue::ExternalLinkage, vector_name, m);
            vector->copyAttributesFrom(call->getCalledFunction());
            appendToCompilerUsed(m, {vector});
        }
        std::string mangled = ("_ZGV_LLVM_N16" + parameters + "_" +
                               call->getCalledFunction()->getName() + "(" + vector_name + ")")
                                  .str();
        SmallVector<std::string, 4> variants;
        VFABI::getVectorVariantNames(*call, variants);
        if (is_contained(variants, mangled))
            continue;
        variants.push_back(mangled);
        VFABI::setVectorVariantNames(call, variants);
        changed = true;
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
