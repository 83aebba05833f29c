// `ferrocl-collective-waits-as-barriers`: a collective function's wait
// (`__ferrocl_collective_wait`, builtins/lib/collective.cl), inlined into a
// kernel, becomes a barrier of the kernel: collective.cl keeps its values
// in the group's scratch, so the region transform may cut the kernel there
// like at any barrier.
//
// - A work-group function's wait (argument 0): always; every work-item of
//   the group reaches it.
// - A sub-group function's wait (argument 1), and a sub_group_barrier, in
//   a kernel where all work-items of the group run them together
//   (group_uniformity.h): a plain barrier. There a barrier of the group
//   orders what the sub-group's would, and more, and every work-item
//   reaches it as often as the others.
// - Elsewhere (behind a branch on the sub-group's id, in a loop whose count
//   differs between sub-groups: DPC++'s sliding-window convolution) a
//   group barrier could wait for work-items that never come. When the
//   kernel has no other wait than its sub-groups', they all become
//   `barrier(flags | FERROCL_SUB_GROUP_BARRIER)` and the kernel gets
//   SUB_GROUP_REGIONS_ATTRIBUTE: the region transform cuts it there, and
//   its work-group entry runs the regions for one sub-group after the
//   other (region_entries.cpp), which OpenCL's rule makes correct (every
//   work-item of a sub-group reaches the sub-group's functions, in the same
//   order). Where regions cannot be made, the kernel runs on fibers, where
//   that flag makes the barrier the sub-group's (builtins/workitem.c).
// - A kernel with both (sub-group waits not run together, and barriers or
//   waits of the whole group) keeps its sub-group waits and runs on fibers.
//
// Why: on fibers, every work-item switching at every wait, sub-group
// functions ran about 100 times slower than as regions (dpnp's convolve, a
// sub-group shuffle per step).
#include "group_uniformity.h"
#include "kernel_abi.h"
#include "kernel_calls.h"
#include "kernel_symbols.h"
#include "passes.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include <optional>

using namespace llvm;

namespace ferrocl {

namespace {

// include/ferrocl_kernel.h FERROCL_SUB_GROUP_BARRIER.
constexpr uint64_t SUB_GROUP_BARRIER_FLAG = 0x80000000u;

enum class Wait { None, Group, SubGroup, Other };

// What kind of wait `call` is, and the fence flags its barrier takes.
Wait wait_of(const CallInst &call, uint64_t &flags)
{
    const Function *f = called_function(call);
    if (!f)
        return call.isInlineAsm() ? Wait::None : Wait::Other;
    StringRef name = f->getName();
    auto *first = call.arg_size() ? dyn_cast<ConstantInt>(call.getArgOperand(0)) : nullptr;
    if (name == COLLECTIVE_WAIT && call.arg_size() == 1 && first) {
        // CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE: the scratch is
        // global memory.
        flags = 3;
        return first->isZero() ? Wait::Group : Wait::SubGroup;
    }
    if (is_sub_group_barrier(name) && first) {
        flags = first->getZExtValue() & 0xffffffffu & ~SUB_GROUP_BARRIER_FLAG;
        return Wait::SubGroup;
    }
    if (is_plain_barrier(name) || is_wait(name))
        return Wait::Other;
    // A function of the module the inliner left may wait itself.
    if (!f->isDeclaration())
        for (const Function *g : reachable_functions(*f))
            if (waits(*g))
                return Wait::Other;
    return Wait::None;
}

struct Found {
    CallInst *call;
    uint64_t flags;
    bool together;
};

void replace_with_barrier(Module &m, CallInst *call, uint64_t flags)
{
    LLVMContext &ctx = m.getContext();
    Type *i32 = Type::getInt32Ty(ctx);
    FunctionCallee barrier =
        m.getOrInsertFunction(BARRIER, FunctionType::get(Type::getVoidTy(ctx), {i32}, false));
    auto *callee = cast<Function>(barrier.getCallee());
    CallInst *b = CallInst::Create(barrier, {ConstantInt::get(i32, flags)}, "", call->getIterator());
    b->setCallingConv(callee->getCallingConv());
    b->setDebugLoc(call->getDebugLoc());
    call->eraseFromParent();
}

} // namespace

PreservedAnalyses CollectiveWaitsAsBarriersPass::run(Module &m, ModuleAnalysisManager &)
{
    bool changed = false;
    for (Function &f : m) {
        if (f.isDeclaration())
            continue;
        SmallVector<Found, 8> found;
        std::optional<GroupUniformity> uniformity;
        bool group_waits = false, all_together = true;
        for (BasicBlock &b : f)
            for (Instruction &i : b) {
                auto *call = dyn_cast<CallInst>(&i);
                if (!call)
                    continue;
                uint64_t flags = 0;
                Wait w = wait_of(*call, flags);
                group_waits = group_waits || w == Wait::Group || w == Wait::Other;
                if (w != Wait::Group && w != Wait::SubGroup)
                    continue;
                bool together = w == Wait::Group;
                // Sub-group waits in kernels only: a function's caller may
                // call it in any control flow.
                if (w == Wait::SubGroup && is_kernel(f)) {
                    if (!uniformity)
                        uniformity.emplace(f);
                    together = uniformity->together(&b);
                }
                all_together = all_together && together;
                found.push_back({call, flags, together});
            }
        bool sub_groups = is_kernel(f) && !all_together && !group_waits;
        for (const Found &w : found) {
            if (sub_groups)
                replace_with_barrier(m, w.call, w.flags | SUB_GROUP_BARRIER_FLAG);
            else if (w.together)
                replace_with_barrier(m, w.call, w.flags);
            else
                continue;
            changed = true;
        }
        if (sub_groups)
            f.addFnAttr(SUB_GROUP_REGIONS_ATTRIBUTE);
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
