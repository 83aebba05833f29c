// See kernel_calls.h.
#include "kernel_calls.h"
#include "kernel_symbols.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

using namespace llvm;

namespace ferrocl {

namespace {

void named_through(const Value *v, SetVector<const GlobalValue *> &out,
                   SmallPtrSetImpl<const Value *> &seen)
{
    if (!seen.insert(v).second)
        return;
    if (const auto *g = dyn_cast<GlobalValue>(v)) {
        out.insert(g);
        return;
    }
    if (const auto *c = dyn_cast<Constant>(v))
        for (const Value *op : c->operands())
            named_through(op, out, seen);
}

// The globals `f`'s instructions name.
SetVector<const GlobalValue *> named(const Function &f)
{
    SetVector<const GlobalValue *> out;
    SmallPtrSet<const Value *, 32> seen;
    for (const Instruction &i : instructions(f))
        for (const Value *op : i.operands())
            if (isa<Constant>(op))
                named_through(op, out, seen);
    return out;
}

bool names_wait(const Function &f)
{
    for (const GlobalValue *g : named(f))
        if (isa<Function>(g) && (is_wait(g->getName()) || is_plain_barrier(g->getName())))
            return true;
    return false;
}

} // namespace

SetVector<const Function *> reachable_functions(const Function &kernel)
{
    SetVector<const Function *> seen;
    seen.insert(&kernel);
    for (size_t i = 0; i < seen.size(); i++)
        for (const GlobalValue *g : named(*seen[i]))
            if (const auto *f = dyn_cast<Function>(g))
                seen.insert(f);
    return seen;
}

bool uses_barriers(const Function &kernel)
{
    for (const Function *f : reachable_functions(kernel))
        if (is_wait(f->getName()))
            return true;
    return false;
}

namespace {

// Memory another command may share: not private (0) nor __local (3).
bool shared_memory(const Value *pointer)
{
    unsigned space = pointer->getType()->getPointerAddressSpace();
    return space != 0 && space != 3;
}

bool may_wait(const Instruction &i)
{
    if (const auto *rmw = dyn_cast<AtomicRMWInst>(&i))
        return shared_memory(rmw->getPointerOperand());
    if (const auto *cas = dyn_cast<AtomicCmpXchgInst>(&i))
        return shared_memory(cas->getPointerOperand());
    if (const auto *load = dyn_cast<LoadInst>(&i))
        return (load->isAtomic() || load->isVolatile()) &&
               shared_memory(load->getPointerOperand());
    if (const auto *store = dyn_cast<StoreInst>(&i))
        return (store->isAtomic() || store->isVolatile()) &&
               shared_memory(store->getPointerOperand());
    if (const auto *call = dyn_cast<CallBase>(&i)) {
        if (call->isInlineAsm())
            return true;
        const Function *f = called_function(i);
        if (!f)
            return false;
        // A pipe, whatever it is passed as, is shared; an atomic on the
        // group's own memory waits for no other command.
        if (is_pipe_builtin(f->getName()))
            return true;
        if (!is_atomic_builtin(f->getName()))
            return false;
        for (const Value *a : call->args())
            if (a->getType()->isPointerTy() && shared_memory(a))
                return true;
        return false;
    }
    return false;
}

} // namespace

bool may_wait_for_others(const Function &kernel)
{
    for (const Function *f : reachable_functions(kernel))
        for (const Instruction &i : instructions(*f))
            if (may_wait(i))
                return true;
    return false;
}

bool loop_safe(const Function &kernel)
{
    // What the kernel's callees reach, the kernel only if it is among them.
    SetVector<const Function *> seen;
    for (const GlobalValue *g : named(kernel))
        if (const auto *f = dyn_cast<Function>(g))
            seen.insert(f);
    for (size_t i = 0; i < seen.size(); i++)
        for (const GlobalValue *g : named(*seen[i]))
            if (const auto *f = dyn_cast<Function>(g)) {
                if (is_work_item_function(f->getName()))
                    return false;
                seen.insert(f);
            }
    return true;
}

bool only_own_barriers(const Function &kernel)
{
    for (const GlobalValue *g : named(kernel))
        if (isa<Function>(g) && is_wait(g->getName()) && !is_plain_barrier(g->getName()))
            return false;
    for (const Function *f : reachable_functions(kernel))
        if (f != &kernel && names_wait(*f))
            return false;
    return true;
}

bool may_run_in_pieces(const Function &kernel)
{
    for (const Argument &a : kernel.args())
        if (a.getType()->isPointerTy() && a.getType()->getPointerAddressSpace() == 3)
            return false;
    if (!local_variables(kernel).empty() || may_wait_for_others(kernel))
        return false;
    for (const Function *f : reachable_functions(kernel)) {
        StringRef name = f->getName();
        if (is_wait(name) && name != IMPLICIT_BARRIER)
            return false;
        // Device-side enqueue: a block's kernel passed to enqueue_kernel, or
        // the builtins (declared until the back end links them).
        if (is_block_kernel(name) || name.contains("enqueue"))
            return false;
        for (const Instruction &i : instructions(*f))
            if (const auto *call = dyn_cast<CallBase>(&i); call && call->isIndirectCall())
                return false;
    }
    return true;
}

bool calls_implicit_barrier(const Function &kernel)
{
    for (const GlobalValue *g : named(kernel))
        if (g->getName() == IMPLICIT_BARRIER)
            return true;
    return false;
}

SetVector<const GlobalVariable *> local_variables(const Function &kernel)
{
    SetVector<const GlobalVariable *> out;
    for (const Function *f : reachable_functions(kernel))
        for (const GlobalValue *g : named(*f))
            if (const auto *v = dyn_cast<GlobalVariable>(g))
                if (v->getAddressSpace() == 3)
                    out.insert(v);
    return out;
}

} // namespace ferrocl
