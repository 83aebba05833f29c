// `ferrocl-full-masked-stores-as-stores`: on CPUs whose AVX masked stores
// are slow, a masked store in a loop stores plainly when every lane of its
// mask is on, and keeps its masked store for the vectors where some lane is
// off.
//
// Why: the loop vectorizer turns a guarded store (`if (i > 0 && i < n - 1)
// b[i] = ...`, a bounds check around a stencil) into a masked store, and
// LLVM's cost model prices `vmaskmovps` to memory like a plain store. On
// AMD's Zen 1 to 3 it is microcoded: about 6 ns a 256-bit vector on a Zen 3
// EPYC, against 0.75 for a plain store (a masked load costs what a load
// does). PolyBench's 2D convolution ran at 0.25x of Intel's runtime there,
// its work-item loop bound by the one masked store. A bounds check's mask is
// nearly always full: a test of it (vmovmskps, a compare, a branch the
// predictor learns) costs far less than the store it saves. CPUs with
// AVX-512 store under a mask register at full speed (Zen 4 too), and
// Intel's AVX2 masked stores are a micro-op or two: those keep their code.
// The back end runs the pass at the end of its -O3 pipeline, before
// `ferrocl-skip-idle-masked-accesses`, which then makes the masked store
// of a rarely active mask only when some lane is on.
#include "passes.h"
#include "wide_vector_code.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

using namespace llvm;

namespace ferrocl {

namespace {

// Whether `f` is compiled for a CPU whose masked stores are microcoded: an
// AMD family before Zen 4 (LLVM's znver1-3, and the Bulldozer and Jaguar
// families), without AVX-512. The function's own target attributes where
// it has them (the pass tests), else the host's, which the back end
// compiles for (-march=native).
bool slow_masked_stores(const Function &f)
{
    Attribute cpu_attribute = f.getFnAttribute("target-cpu");
    std::string cpu = cpu_attribute.isValid() ? cpu_attribute.getValueAsString().str()
                                              : sys::getHostCPUName().str();
    StringRef name(cpu);
    bool amd_before_zen4 = name == "znver1" || name == "znver2" || name == "znver3" ||
                           name.starts_with("bdver") || name.starts_with("btver");
    return amd_before_zen4 && !compiled_for_avx512(f);
}

// `store` as `if (all lanes on) plain store; else masked store`.
void store_plainly_when_full(IntrinsicInst *store)
{
    Value *value = store->getArgOperand(0);
    Value *address = store->getArgOperand(1);
    Value *mask = store->getArgOperand(3);
    Align align = cast<ConstantInt>(store->getArgOperand(2))->getAlignValue();
    IRBuilder<> b(store);
    Value *full = b.CreateAndReduce(mask);
    Instruction *plain_then = nullptr, *masked_else = nullptr;
    SplitBlockAndInsertIfThenElse(full, store->getIterator(), &plain_then, &masked_else);
    b.SetInsertPoint(plain_then);
    StoreInst *plain = b.CreateAlignedStore(value, address, align);
    // The same memory: the same alias scopes, access group, TBAA and
    // nontemporal hint.
    plain->copyMetadata(*store);
    store->moveBefore(masked_else);
}

} // namespace

PreservedAnalyses FullMaskedStoresAsStoresPass::run(Function &f, FunctionAnalysisManager &am)
{
    if (!slow_masked_stores(f))
        return PreservedAnalyses::all();
    const LoopInfo &loops = am.getResult<LoopAnalysis>(f);
    SmallVector<IntrinsicInst *, 8> stores;
    for (BasicBlock &b : f) {
        if (!loops.getLoopFor(&b))
            continue;
        for (Instruction &i : b) {
            auto *call = dyn_cast<IntrinsicInst>(&i);
            // A constant mask is all on (the access is as good as plain) or
            // off (left to the folds); scalable masks have no lanes to test.
            if (call && call->getIntrinsicID() == Intrinsic::masked_store &&
                !isa<Constant>(call->getArgOperand(3)) &&
                isa<FixedVectorType>(call->getArgOperand(3)->getType()))
                stores.push_back(call);
        }
    }
    for (IntrinsicInst *store : stores)
        store_plainly_when_full(store);
    return stores.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

} // namespace ferrocl
