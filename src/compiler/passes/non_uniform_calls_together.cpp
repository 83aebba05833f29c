// `ferrocl-non-uniform-calls-together`: a kernel's call of a non-uniform
// sub-group function (cl_khr_subgroup_non_uniform_vote, _ballot,
// _non_uniform_arithmetic: builtins/lib/collective.cl, whose bodies wait
// with `__ferrocl_non_uniform_wait`) in a block all work-items of the group
// run together (group_uniformity.h) calls a twin of the function instead,
// inlined: its waits are the sub-group's collective waits
// (`__ferrocl_collective_wait(1)`; none where it exchanges no values), and
// the mask of the work-items that called it is every one of the sub-group's.
//
// Why: there the work-items active at the call are the whole sub-group,
// which the fiber executor would find out work-item by work-item, at the
// call's site, each function call switching fibers twice; as a collective
// wait, `ferrocl-collective-waits-as-barriers` makes the call a barrier of
// the kernel, and the kernel runs as compiled regions, vectorized across
// its work-items (code ported from CUDA calls ballots and votes in
// uniform code: a warp's vote, its first lane elected). The functions use
// the mask only for lanes below the sub-group's size (`mask >> i & 1`, i
// < g.count) or its lowest set bit, so all ones stands for "every one".
// Calls in divergent code, or in a helper the kernel has not inlined,
// stay as they are (fail closed). The twins are inlined here, after the
// region pipeline's inliner, and the module is marked for the region
// passes (REGIONS_METADATA).
#include "group_uniformity.h"
#include "kernel_symbols.h"
#include "passes.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>

using namespace llvm;

namespace ferrocl {

namespace {

constexpr StringLiteral NON_UNIFORM_WAIT = "__ferrocl_non_uniform_wait";

// The calls of `wait` in `f`'s body.
SmallVector<CallInst *, 4> waits_in(Function &f, const Function *wait)
{
    SmallVector<CallInst *, 4> calls;
    for (Instruction &i : instructions(f))
        if (auto *call = dyn_cast<CallInst>(&i); call && call->getCalledFunction() == wait)
            calls.push_back(call);
    return calls;
}

// Whether `f` exchanges values through memory (the sub-group's slots):
// touches memory other than by its waits and the work-item functions.
bool exchanges_values(Function &f, const Function *wait)
{
    for (Instruction &i : instructions(f)) {
        const auto *call = dyn_cast<CallInst>(&i);
        const Function *callee = call ? call->getCalledFunction() : nullptr;
        if (callee && (callee == wait || is_work_item_function(callee->getName())))
            continue;
        if (i.mayReadOrWriteMemory())
            return true;
    }
    return false;
}

// `f`'s twin for calls every work-item of the sub-group makes together:
// each non-uniform wait a collective wait of the sub-group, its mask all
// ones. A function that exchanges nothing (sub_group_elect: the lowest
// active lane, the first of the sub-group here) waits for nothing.
Function *twin_of(Function &f, Function *wait, FunctionCallee collective)
{
    ValueToValueMapTy map;
    Function *twin = CloneFunction(&f, map);
    twin->setName(f.getName() + ".together");
    twin->setLinkage(GlobalValue::InternalLinkage);
    twin->removeFnAttr(Attribute::NoInline);
    bool exchanges = exchanges_values(*twin, wait);
    for (CallInst *call : waits_in(*twin, wait)) {
        if (exchanges) {
            IRBuilder<> b(call);
            CallInst *together = b.CreateCall(collective, {b.getInt32(1)});
            together->setCallingConv(call->getCallingConv());
            together->setConvergent();
        }
        call->replaceAllUsesWith(ConstantInt::getAllOnesValue(call->getType()));
        call->eraseFromParent();
    }
    return twin;
}

} // namespace

PreservedAnalyses NonUniformCallsTogetherPass::run(Module &m, ModuleAnalysisManager &)
{
    Function *wait = m.getFunction(NON_UNIFORM_WAIT);
    if (!wait)
        return PreservedAnalyses::all();
    // The non-uniform functions: those whose bodies wait so.
    SmallPtrSet<const Function *, 16> non_uniform;
    for (User *u : wait->users())
        if (auto *call = dyn_cast<CallInst>(u); call && call->getCalledFunction() == wait)
            non_uniform.insert(call->getFunction());
    SmallVector<CallInst *, 8> calls;
    for (Function &k : m) {
        if (k.isDeclaration() || !is_kernel(k))
            continue;
        std::optional<GroupUniformity> uniformity;
        for (Instruction &i : instructions(k)) {
            auto *call = dyn_cast<CallInst>(&i);
            Function *callee = call ? call->getCalledFunction() : nullptr;
            if (!callee || !non_uniform.contains(callee))
                continue;
            if (!uniformity)
                uniformity.emplace(k);
            if (uniformity->together(call->getParent()))
                calls.push_back(call);
        }
    }
    if (calls.empty())
        return PreservedAnalyses::all();
    LLVMContext &ctx = m.getContext();
    FunctionCallee collective = m.getOrInsertFunction(
        COLLECTIVE_WAIT, FunctionType::get(Type::getVoidTy(ctx), {Type::getInt32Ty(ctx)}, false));
    if (auto *f = dyn_cast<Function>(collective.getCallee()); f && f->isDeclaration()) {
        f->setCallingConv(wait->getCallingConv());
        f->setConvergent();
    }
    DenseMap<Function *, Function *> twins;
    for (CallInst *call : calls) {
        Function *callee = call->getCalledFunction();
        Function *&twin = twins[callee];
        if (!twin)
            twin = twin_of(*callee, wait, collective);
        call->setCalledFunction(twin);
        InlineFunctionInfo info;
        InlineFunction(*call, info);
    }
    for (auto [callee, twin] : twins)
        if (twin->use_empty())
            twin->eraseFromParent();
    m.getOrInsertNamedMetadata(REGIONS_METADATA);
    return PreservedAnalyses::none();
}

} // namespace ferrocl
