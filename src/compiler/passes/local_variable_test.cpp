// `ferrocl-local-variable-test`: every program defines
//
//     bool __ferrocl_is_local_variable(const generic void *p);
//
// which to_local and get_fence (builtins/workitem.c) call: whether `p`
// lies in one of the program's kernel-scope __local variables, at the
// running thread's copy of it. Those variables are thread-local globals
// (one work-group runs on one thread at a time: thread_local_locals.cpp),
// so only the program knows where they are. Run on the whole program
// (after clLinkProgram), never per compiled object.
#include "passes.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

namespace {

constexpr unsigned LOCAL = 3, GENERIC = 4;

} // namespace

PreservedAnalyses LocalVariableTestPass::run(Module &m, ModuleAnalysisManager &)
{
    LLVMContext &ctx = m.getContext();
    Function *test = m.getFunction(LOCAL_VARIABLE_TEST);
    if (test && !test->isDeclaration())
        return PreservedAnalyses::all();
    auto *type = FunctionType::get(Type::getInt1Ty(ctx), {PointerType::get(ctx, GENERIC)}, false);
    if (!test)
        test = Function::Create(type, GlobalValue::ExternalLinkage, LOCAL_VARIABLE_TEST, m);
    test->setVisibility(GlobalValue::HiddenVisibility);
    test->addRetAttr(Attribute::ZExt);
    IRBuilder<> b(BasicBlock::Create(ctx, "", test));
    Type *i64 = b.getInt64Ty();
    Value *p = b.CreatePtrToInt(test->getArg(0), i64, "p");
    Value *in = b.getFalse();
    for (GlobalVariable &g : m.globals()) {
        // __local variables never have an initializer but undef or poison;
        // one with another (or none: defined elsewhere) is not taken for one.
        if (g.getAddressSpace() != LOCAL || !g.isThreadLocal() || !g.hasInitializer() ||
            !isa<UndefValue>(g.getInitializer()))
            continue;
        Value *lo = b.CreatePtrToInt(&g, i64);
        Value *hi = b.CreatePtrToInt(b.CreateConstGEP1_64(g.getValueType(), &g, 1), i64);
        Value *above = b.CreateICmpUGE(p, lo);
        Value *below = b.CreateICmpULT(p, hi);
        in = b.CreateOr(in, b.CreateAnd(above, below));
    }
    b.CreateRet(in);
    return PreservedAnalyses::none();
}

} // namespace ferrocl
