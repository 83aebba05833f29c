// `ferrocl-global-variables-size`: every program defines
// `__ferrocl_global_variables_size`, the bytes of its program-scope
// __global variables laid out one after the other
// (CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE), which binary.rs reads when
// the program is loaded. A constant the back end computes from the
// variables' types (LLVM's sizeof), so that it holds for the target's
// layout. Run on the whole program (after clLinkProgram).
#include "kernel_symbols.h"
#include "passes.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

PreservedAnalyses GlobalVariablesSizePass::run(Module &m, ModuleAnalysisManager &)
{
    if (GlobalVariable *done = m.getGlobalVariable(GLOBAL_VARIABLES_SIZE, true);
        done && done->hasInitializer())
        return PreservedAnalyses::all();
    SmallVector<Type *, 16> types;
    for (const GlobalVariable &g : m.globals())
        // Program-scope and static __global variables this program defines
        // (`constant` ones are in their own address space).
        if (g.getAddressSpace() == GLOBAL_ADDRESS_SPACE && !g.isConstant() && !g.isDeclaration())
            types.push_back(g.getValueType());
    LLVMContext &ctx = m.getContext();
    Constant *size = ConstantExpr::getSizeOf(StructType::get(ctx, types));
    new GlobalVariable(m, Type::getInt64Ty(ctx), true, GlobalValue::ExternalLinkage, size,
                       GLOBAL_VARIABLES_SIZE);
    return PreservedAnalyses::none();
}

} // namespace ferrocl
