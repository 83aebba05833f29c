// `ferrocl-known-address-space-casts`: a call of to_global, to_local or
// to_private (clang's `__to_global`, `__to_local`, `__to_private`) whose
// generic pointer visibly comes from a pointer of a named address space
// is answered in place: the same pointer when the spaces match, null when
// they differ.
//
// Why: SYCL's pointers are generic, and DPC++ casts them back to global
// (OpGenericCastToPtrExplicit, which the translator makes a call of
// `__to_global`) on each access through a multi_ptr: dpnp's isclose and
// where call it three times per chunk of eight elements, on a pointer it
// had just made generic from a global one. The library's answer
// (builtins/workitem.c) compares the pointer with the group's local arena,
// the program's __local variables and the stack, reading the stack
// pointer in inline assembly: per work-item, in a branch chain that keeps
// the work-item loop from vectorizing.
//
// Why it is sound: a pointer of the global, local or private space points
// into that space's memory (OpenCL C 6.7: the named address spaces are
// disjoint, and a cast from generic to a named space other than the
// pointer's own gives null). Only what the pass can see counts: the
// generic pointer must be an `addrspacecast` from global or local, or from
// private memory that is one of the function's own variables, reached
// through address arithmetic, casts, selects and phis whose ways all come
// from one such space. Anything else (an argument, a load, a call's
// result) keeps the library's test.
#include "kernel_symbols.h"
#include "passes.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>

#include <optional>

using namespace llvm;

namespace ferrocl {

namespace {

constexpr unsigned PRIVATE_ADDRESS_SPACE = 0;
constexpr unsigned GENERIC_ADDRESS_SPACE = 4;

// The named address space each cast asks for.
std::optional<unsigned> asked_space(StringRef name)
{
    if (name == "__to_global")
        return GLOBAL_ADDRESS_SPACE;
    if (name == "__to_local")
        return LOCAL_ADDRESS_SPACE;
    if (name == "__to_private")
        return PRIVATE_ADDRESS_SPACE;
    return std::nullopt;
}

// A way back to a phi the walk is already in: it adds no space of its own.
constexpr unsigned ANY_SPACE = ~0u;

// The one named address space every way to the generic pointer `v` starts
// in (ANY_SPACE: only ways back into a phi being walked), or nothing where
// a way starts anywhere the pass cannot see, or ways start in different
// spaces.
class SourceSpace {
  public:
    std::optional<unsigned> of(const Value *v)
    {
        if (!walked.insert(v).second)
            return ANY_SPACE;
        if (auto *cast = dyn_cast<AddrSpaceCastOperator>(v)) {
            unsigned from = cast->getSrcAddressSpace();
            const Value *source = cast->getPointerOperand();
            if (from == GLOBAL_ADDRESS_SPACE || from == LOCAL_ADDRESS_SPACE)
                return from;
            if (from == PRIVATE_ADDRESS_SPACE && isa<AllocaInst>(getUnderlyingObject(source)))
                return from;
            return std::nullopt;
        }
        if (auto *gep = dyn_cast<GEPOperator>(v))
            return of(gep->getPointerOperand());
        if (auto *cast = dyn_cast<BitCastOperator>(v))
            return of(cast->getOperand(0));
        if (auto *select = dyn_cast<SelectInst>(v))
            return same(of(select->getTrueValue()), of(select->getFalseValue()));
        if (auto *phi = dyn_cast<PHINode>(v)) {
            std::optional<unsigned> space = ANY_SPACE;
            for (const Value *in : phi->incoming_values())
                space = same(space, of(in));
            return space;
        }
        return std::nullopt;
    }

  private:
    static std::optional<unsigned> same(std::optional<unsigned> a, std::optional<unsigned> b)
    {
        if (!a || !b)
            return std::nullopt;
        if (*a == ANY_SPACE)
            return b;
        if (*b == ANY_SPACE || *a == *b)
            return a;
        return std::nullopt;
    }

    SmallPtrSet<const Value *, 16> walked;
};

} // namespace

PreservedAnalyses KnownAddressSpaceCastsPass::run(Module &m, ModuleAnalysisManager &)
{
    SmallVector<CallInst *, 8> calls;
    for (Function &f : m)
        for (Instruction &i : instructions(f))
            if (auto *call = dyn_cast<CallInst>(&i); call && call->arg_size() == 1)
                if (const Function *callee = call->getCalledFunction();
                    callee && asked_space(callee->getName()) &&
                    call->getType()->isPointerTy() &&
                    call->getArgOperand(0)->getType()->getPointerAddressSpace() ==
                        GENERIC_ADDRESS_SPACE)
                    calls.push_back(call);
    bool changed = false;
    for (CallInst *call : calls) {
        std::optional<unsigned> source = SourceSpace().of(call->getArgOperand(0));
        unsigned asked = *asked_space(call->getCalledFunction()->getName());
        auto *result = cast<PointerType>(call->getType());
        if (!source || *source == ANY_SPACE || result->getAddressSpace() != asked)
            continue;
        Value *answer = ConstantPointerNull::get(result);
        if (*source == asked) {
            answer = new AddrSpaceCastInst(call->getArgOperand(0), result, "", call->getIterator());
            answer->takeName(call);
        }
        call->replaceAllUsesWith(answer);
        call->eraseFromParent();
        changed = true;
    }
    if (!changed)
        return PreservedAnalyses::all();
    PreservedAnalyses kept;
    kept.preserveSet<CFGAnalyses>();
    return kept;
}

} // namespace ferrocl
