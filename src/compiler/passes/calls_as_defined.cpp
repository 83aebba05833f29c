// `ferrocl-calls-as-defined`: a call whose function type differs from the
// definition it reaches passes its arguments and takes its result the way
// that definition's calling convention lowered them.
//
// The SPIR-V translator calls the builtins with OpenCL's own types (a
// double4 as <4 x double>, a float2 as <2 x float>), as SPIR's ABI has
// them; the builtins library is compiled by clang for the host, whose C ABI
// (x86-64 System V) passes a vector wider than 16 bytes in memory (a byval
// pointer), one of 8 bytes or less as an integer or a double (char2 as
// i16, float2 as double), and may return one through a hidden pointer
// (sret). Once the back end links the library, such a call reaches a
// definition of another type: undefined, and in practice wrong values
// (dpnp's float64 isinf, degrees and radians). OpenCL C kernels, compiled
// by the same clang, already call as the library defines; their calls are
// left alone.
//
// The back end runs this first (add_back_end_passes), after the link.
// Arguments and results change type through memory, as the C ABI would
// have stored them; each call gets the definition's parameter attributes
// (byval, sret, signext...). A call that no such rewrite explains (another
// number of arguments, variadic functions) is left as it was.
#include "passes.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

namespace {

// A slot for a `t` at the start of the caller's entry block: a static
// alloca, which SROA removes once the callee is inlined.
AllocaInst *slot(Function &caller, const DataLayout &dl, Type *t, Align align)
{
    IRBuilder<> b(&*caller.getEntryBlock().getFirstInsertionPt());
    AllocaInst *a = b.CreateAlloca(t, dl.getAllocaAddrSpace());
    a->setAlignment(std::max(align, dl.getPrefTypeAlign(t)));
    return a;
}

// The larger of two types by allocation size: the slot through which one
// is reinterpreted as the other holds either.
Type *larger(const DataLayout &dl, Type *a, Type *b)
{
    return dl.getTypeAllocSize(a) >= dl.getTypeAllocSize(b) ? a : b;
}

// `v` as a value of type `to`: a bitcast between first-class types of one
// size, else through memory (stored as it is, loaded as `to`).
Value *as_type(IRBuilder<> &b, Function &caller, const DataLayout &dl, Value *v, Type *to)
{
    Type *from = v->getType();
    if (from == to)
        return v;
    bool castable = !from->isAggregateType() && !to->isAggregateType() &&
                    !from->isPointerTy() && !to->isPointerTy() &&
                    dl.getTypeSizeInBits(from) == dl.getTypeSizeInBits(to);
    if (castable)
        return b.CreateBitCast(v, to);
    AllocaInst *a = slot(caller, dl, larger(dl, from, to), Align(1));
    b.CreateStore(v, a);
    return b.CreateLoad(to, a);
}

// Whether a value of type `from` can stand for one of type `to` in the
// rewrite: the same type, or neither a pointer (a pointer argument of
// another type is not an ABI difference) and both sized.
bool convertible(Type *from, Type *to)
{
    if (from == to)
        return true;
    return from->isSized() && to->isSized() && !from->isPointerTy() && !to->isPointerTy() &&
           !from->isVoidTy() && !to->isVoidTy();
}

// Rewrites `call` of `callee` to the callee's own type; whether it did.
bool call_as_defined(CallInst &call, Function &callee)
{
    FunctionType *have = call.getFunctionType(), *want = callee.getFunctionType();
    if (have == want || have->isVarArg() || want->isVarArg())
        return false;
    const DataLayout &dl = callee.getParent()->getDataLayout();
    // A hidden first parameter for the result (sret), when the call
    // expects the result returned.
    bool sret = want->getNumParams() > 0 && callee.hasParamAttribute(0, Attribute::StructRet) &&
                want->getReturnType()->isVoidTy() && !have->getReturnType()->isVoidTy();
    unsigned first = sret ? 1 : 0;
    if (want->getNumParams() != have->getNumParams() + first)
        return false;
    Type *result = have->getReturnType();
    if (!sret && !result->isVoidTy() && !convertible(want->getReturnType(), result))
        return false;
    if (!sret && result->isVoidTy() != want->getReturnType()->isVoidTy())
        return false;
    for (unsigned i = 0; i < have->getNumParams(); i++) {
        Type *param = want->getParamType(i + first), *arg = have->getParamType(i);
        Type *byval = callee.getParamByValType(i + first);
        if (byval ? arg != param && !convertible(arg, byval) : !convertible(arg, param))
            return false;
    }
    Function &caller = *call.getFunction();
    IRBuilder<> b(&call);
    SmallVector<Value *, 8> args;
    AllocaInst *returned = nullptr;
    if (sret) {
        Type *t = callee.getParamStructRetType(0);
        returned = slot(caller, dl, larger(dl, t, result), callee.getParamAlign(0).valueOrOne());
        args.push_back(returned);
    }
    for (unsigned i = 0; i < have->getNumParams(); i++) {
        Value *arg = call.getArgOperand(i);
        unsigned p = i + first;
        Type *byval = callee.getParamByValType(p);
        if (byval && arg->getType() != want->getParamType(p)) {
            // Passed in memory: a copy the callee may change.
            AllocaInst *copy = slot(caller, dl, larger(dl, arg->getType(), byval),
                                    callee.getParamAlign(p).valueOrOne());
            b.CreateStore(arg, copy);
            args.push_back(copy);
        } else {
            args.push_back(as_type(b, caller, dl, arg, want->getParamType(p)));
        }
    }
    CallInst *rewritten = b.CreateCall(want, &callee, args);
    // No tail marker: the call may now pass the caller's allocas (byval
    // copies, sret); the optimizer marks it again where it can.
    rewritten->setCallingConv(callee.getCallingConv());
    AttributeList attrs = callee.getAttributes();
    rewritten->setAttributes(AttributeList::get(call.getContext(),
                                                call.getAttributes().getFnAttrs(),
                                                attrs.getRetAttrs(),
                                                [&] {
                                                    SmallVector<AttributeSet, 8> params;
                                                    for (unsigned p = 0; p < want->getNumParams(); p++)
                                                        params.push_back(attrs.getParamAttrs(p));
                                                    return params;
                                                }()));
    rewritten->setDebugLoc(call.getDebugLoc());
    Value *value = nullptr;
    if (returned)
        value = b.CreateLoad(result, returned);
    else if (!result->isVoidTy())
        value = as_type(b, caller, dl, rewritten, result);
    if (value)
        call.replaceAllUsesWith(value);
    call.eraseFromParent();
    return true;
}

} // namespace

PreservedAnalyses CallsAsDefinedPass::run(Module &m, ModuleAnalysisManager &)
{
    SmallVector<std::pair<CallInst *, Function *>, 16> mismatched;
    for (Function &f : m)
        for (Instruction &i : instructions(f))
            if (auto *call = dyn_cast<CallInst>(&i)) {
                auto *callee = dyn_cast<Function>(call->getCalledOperand());
                if (callee && !callee->isDeclaration() &&
                    call->getFunctionType() != callee->getFunctionType())
                    mismatched.push_back({call, callee});
            }
    bool changed = false;
    for (auto [call, callee] : mismatched)
        changed |= call_as_defined(*call, *callee);
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
