// `ferrocl-fallback-vector-variants`: a call of a builtins library
// fallback (fallback_calls.h; float sin and cos for large arguments) names
// masked vector variants of it, of 2, 4, 8 and 16 lanes, for the loop
// vectorizer. The back end runs it where its vectorizer starts;
// `ferrocl-expand-fallback-variants` replaces the variants' calls after it.
//
// Why: sin(x) is straight-line float code guarded by `|x| <= 2^16`, with a
// call for the other arguments. The call is not speculatable, so in a
// work-item loop it sits in a block the vectorizer predicates, and with
// no masked variant it either scalarizes it lane by lane behind a branch
// per lane, or (given glibc's unmasked vector sinf) calls that for every
// vector. A masked variant becomes one test of the whole mask.
#include "fallback_calls.h"
#include "passes.h"

#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <string>

using namespace llvm;

namespace ferrocl {

namespace {

constexpr unsigned LANES[] = {2, 4, 8, 16};

// Whether `call` calls a fallback: a float function of one float.
bool calls_fallback(const CallInst &call)
{
    const Function *f = call.getCalledFunction();
    return f && f->getName().starts_with(FALLBACK_PREFIX) && call.getType()->isFloatTy() &&
           call.arg_size() == 1 && call.getArgOperand(0)->getType()->isFloatTy();
}

} // namespace

PreservedAnalyses FallbackVectorVariantsPass::run(Function &f, FunctionAnalysisManager &)
{
    if (f.isDeclaration())
        return PreservedAnalyses::all();
    Module &m = *f.getParent();
    bool changed = false;
    for (Instruction &i : instructions(f)) {
        auto *call = dyn_cast<CallInst>(&i);
        if (!call || !calls_fallback(*call))
            continue;
        StringRef name = call->getCalledFunction()->getName();
        SmallVector<std::string, 4> variants;
        VFABI::getVectorVariantNames(*call, variants);
        for (unsigned lanes : LANES) {
            std::string vector_name = (name + FALLBACK_VARIANT_INFIX + Twine(lanes)).str();
            // Declared until the vectorizer has looked for it; kept from
            // dead-code removal until expand_fallback_variants.cpp.
            if (!m.getFunction(vector_name)) {
                auto *values = FixedVectorType::get(call->getType(), lanes);
                auto *mask = FixedVectorType::get(Type::getInt1Ty(m.getContext()), lanes);
                Function *vector =
                    Function::Create(FunctionType::get(values, {values, mask}, false),
                                     GlobalValue::ExternalLinkage, vector_name, m);
                vector->setDoesNotAccessMemory();
                vector->setDoesNotThrow();
                appendToCompilerUsed(m, {vector});
            }
            std::string mangled =
                ("_ZGV_LLVM_M" + Twine(lanes) + "v_" + name + "(" + vector_name + ")").str();
            if (is_contained(variants, mangled))
                continue;
            variants.push_back(mangled);
            changed = true;
        }
        VFABI::setVectorVariantNames(call, variants);
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
