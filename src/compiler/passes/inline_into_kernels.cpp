// `ferrocl-inline-into-kernels`: what reaches a barrier or a work-item
// function is marked `alwaysinline`, so that each kernel's barriers and
// work-item calls end up in its own body, where the region transform cuts
// them into regions and the work-group entry turns the ids into loop
// variables. Functions that must not be inlined (noinline, optnone under
// -cl-opt-disable) stay, and their callers keep running work-item by
// work-item or on fibers.
//
// It also decides whether the module's kernels become regions: when one
// calls a barrier or a work-group function's wait, or has a loop and
// floating-point arithmetic or integer products (which may get implicit
// barriers, group_uniformity.h is_uniform_compute_loop), or a loop stepping
// by a size (a grid-stride loop, grid_stride_loops.cpp), the module gets
// the named metadata `!ferrocl.regions`, which `ferrocl-if-regions`
// (if_regions.cpp) reads; kernels themselves are then inlined too (into
// the kernels that call them).
#include "kernel_symbols.h"
#include "passes.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

namespace {

bool is_target(const Function &f)
{
    StringRef n = f.getName();
    return is_plain_barrier(n) || n == COLLECTIVE_WAIT || is_work_item_function(n);
}

// The functions `v` names, through constant expressions (a function's
// address passed on, a block's invoke function).
void functions_named(const Value *v, SmallPtrSetImpl<const Function *> &out,
                     SmallPtrSetImpl<const Value *> &seen)
{
    if (!seen.insert(v).second)
        return;
    if (const auto *f = dyn_cast<Function>(v)) {
        out.insert(f);
        return;
    }
    if (const auto *c = dyn_cast<Constant>(v))
        if (!isa<GlobalValue>(c))
            for (const Value *op : c->operands())
                functions_named(op, out, seen);
}

// Whether `v`, through casts and a private variable it was stored to (the
// pass sees clang's code before mem2reg), is one of the sizes a
// grid-stride loop steps by (kernel_symbols.h is_size_query).
bool is_size(const Value *v, bool through_memory = true)
{
    while (const auto *cast = dyn_cast<CastInst>(v))
        v = cast->getOperand(0);
    if (is_size_query(v))
        return true;
    const auto *load = dyn_cast<LoadInst>(v);
    const auto *var = load ? dyn_cast<AllocaInst>(load->getPointerOperand()) : nullptr;
    if (!through_memory || !var)
        return false;
    for (const User *user : var->users())
        if (const auto *store = dyn_cast<StoreInst>(user);
            store && store->getPointerOperand() == var && is_size(store->getValueOperand(), false))
            return true;
    return false;
}

// Whether `f` adds a size to something: with a loop, it may have a
// grid-stride loop, which grid_stride_loops.cpp gives implicit barriers
// even when its body only counts (Hetero-Mark's histogram: each
// work-item walked the whole input with the global size's stride, 2.4x
// slower than Intel's runtime). That pass decides on the real loop.
bool adds_a_size(const Function &f)
{
    for (const Instruction &i : instructions(f))
        if (const auto *add = dyn_cast<BinaryOperator>(&i);
            add && add->getOpcode() == Instruction::Add &&
            (is_size(add->getOperand(0)) || is_size(add->getOperand(1))))
            return true;
    return false;
}

// Whether some kernel may have a loop worth implicit barriers: a back
// edge, and floating-point arithmetic or an integer product, or a size
// added (a grid-stride loop).
bool worth_trying(const Function &f)
{
    SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 4> back_edges;
    FindFunctionBackedges(f, back_edges);
    if (back_edges.empty())
        return false;
    if (adds_a_size(f))
        return true;
    for (const Instruction &i : instructions(f)) {
        unsigned op = i.getOpcode();
        if (op == Instruction::FAdd || op == Instruction::FMul || op == Instruction::FSub ||
            op == Instruction::Mul)
            return true;
        if (const auto *ii = dyn_cast<IntrinsicInst>(&i); ii && ii->getIntrinsicID() == Intrinsic::fmuladd)
            return true;
    }
    return false;
}

// Whether the module calls a plain barrier or a work-group function's wait.
bool calls_barriers(const Module &m)
{
    for (const Function &f : m)
        if (!f.use_empty() && (is_plain_barrier(f.getName()) || f.getName() == COLLECTIVE_WAIT))
            return true;
    return false;
}

} // namespace

PreservedAnalyses InlineIntoKernelsPass::run(Module &m, ModuleAnalysisManager &)
{
    bool regions = calls_barriers(m);
    // Per defined function, every function its body names.
    DenseMap<const Function *, SmallPtrSet<const Function *, 8>> named;
    for (const Function &f : m) {
        if (f.isDeclaration())
            continue;
        regions = regions || (is_kernel(f) && worth_trying(f));
        auto &out = named[&f];
        SmallPtrSet<const Value *, 32> seen;
        for (const Instruction &i : instructions(f))
            for (const Value *op : i.operands())
                functions_named(op, out, seen);
    }
    auto reaches = [&](const Function &f) {
        SmallPtrSet<const Function *, 32> seen;
        SmallVector<const Function *, 16> stack{&f};
        while (!stack.empty()) {
            const Function *g = stack.pop_back_val();
            if (!seen.insert(g).second)
                continue;
            auto it = named.find(g);
            if (it == named.end())
                continue;
            for (const Function *c : it->second) {
                if (is_target(*c))
                    return true;
                stack.push_back(c);
            }
        }
        return false;
    };
    bool changed = false;
    for (Function &f : m) {
        if (f.isDeclaration() || f.hasFnAttribute(Attribute::NoInline) ||
            f.hasFnAttribute(Attribute::OptimizeNone) || f.hasFnAttribute(Attribute::AlwaysInline))
            continue;
        if ((regions || !is_kernel(f)) && reaches(f)) {
            f.addFnAttr(Attribute::AlwaysInline);
            changed = true;
        }
    }
    if (regions) {
        m.getOrInsertNamedMetadata(REGIONS_METADATA);
        changed = true;
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
