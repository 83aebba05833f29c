// `ferrocl-scalar-libm`: the back end vectorizes calls to sin, cos, tan,
// exp, log and pow with glibc's vector versions (libmvec, driver.rs's
// -fveclib=libmvec), except the two whose vector versions miss OpenCL's
// bounds: float log (libmvec's logf: 3.94 ulp at worst over all floats,
// against 3) and double exp (3.13 ulp against 3, found by the Khronos
// test_math_brute_force). Their calls become calls of glibc's scalar
// logf and exp that the vectorizer cannot map (`nobuiltin` call sites),
// which it runs lane by lane as before. (OpenCL C's float log is the
// builtins library's own, which vectorizes: builtins/gen/gen_math.py.)
//
// The back end runs the pass first in its pipeline (registry.cpp), when
// the builtins library is linked in but not yet inlined.
#include "passes.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

namespace {

// The scalar function replacing `call`, or none.
StringRef scalar_name(const CallInst &call)
{
    Type *t = call.getType()->getScalarType();
    Intrinsic::ID id = call.getIntrinsicID();
    const Function *f = call.getCalledFunction();
    StringRef name = f ? f->getName() : "";
    if (t->isFloatTy() && (id == Intrinsic::log || name == "logf"))
        return "logf";
    if (t->isDoubleTy() && (id == Intrinsic::exp || name == "exp"))
        return "exp";
    return "";
}

Value *scalar_call(IRBuilder<> &b, FunctionCallee f, Value *x)
{
    CallInst *call = b.CreateCall(f, {x});
    call->addFnAttr(Attribute::NoBuiltin);
    call->setDoesNotAccessMemory();
    call->setDoesNotThrow();
    call->addFnAttr(Attribute::WillReturn);
    return call;
}

} // namespace

PreservedAnalyses ScalarLibmPass::run(Module &m, ModuleAnalysisManager &)
{
    SmallVector<CallInst *, 8> calls;
    for (Function &f : m)
        for (BasicBlock &b : f)
            for (Instruction &i : b)
                if (auto *call = dyn_cast<CallInst>(&i);
                    call && !call->isNoBuiltin() && !scalar_name(*call).empty())
                    calls.push_back(call);
    for (CallInst *call : calls) {
        Type *t = call->getType()->getScalarType();
        FunctionCallee f = m.getOrInsertFunction(scalar_name(*call), t, t);
        IRBuilder<> b(call);
        Value *x = call->getArgOperand(0);
        Value *result;
        if (auto *v = dyn_cast<FixedVectorType>(call->getType())) {
            result = PoisonValue::get(v);
            for (unsigned k = 0; k < v->getNumElements(); k++)
                result = b.CreateInsertElement(
                    result, scalar_call(b, f, b.CreateExtractElement(x, k)), k);
        } else if (call->getType()->isVectorTy()) {
            continue;
        } else {
            result = scalar_call(b, f, x);
        }
        result->takeName(call);
        call->replaceAllUsesWith(result);
        call->eraseFromParent();
    }
    return calls.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

} // namespace ferrocl
