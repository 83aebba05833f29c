// `ferrocl-local-volatiles-as-plain`: volatile loads and stores of __local
// memory become plain ones, as the front end's module comes in.
//
// Why: `volatile` keeps every access as written, one by one, so LLVM never
// vectorizes it: SHOC's spmv_csr_vector declares its partial sums
// `__local volatile float partialSums[128]` (code written for GPUs' warps,
// which run in lockstep without barriers), and its reduction tree ran one
// work-item at a time, with the region around it, 0.7x PoCL's speed.
//
// Why it is sound: OpenCL's memory model (OpenCL 3.0, 3.3.6) gives volatile
// no meaning between work-items: two work-items' conflicting accesses not
// ordered by a barrier, an atomic or a fence are a data race, undefined
// behaviour, volatile or not. __local memory is the group's own, and no
// host thread or other command can touch it; a group runs on one thread,
// its work-items switching only at barriers (local_atomics_as_plain.cpp).
// Within one work-item a plain access sees what the volatile one would:
// its own last store. Accesses through generic pointers, which may point to
// global memory another command shares, stay volatile.
#include "kernel_symbols.h"
#include "passes.h"

#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

PreservedAnalyses LocalVolatilesAsPlainPass::run(Module &m, ModuleAnalysisManager &)
{
    bool changed = false;
    for (Function &f : m)
        for (Instruction &i : instructions(f)) {
            if (auto *load = dyn_cast<LoadInst>(&i); load && load->isVolatile() &&
                                                      !load->isAtomic() &&
                                                      load->getPointerAddressSpace() ==
                                                          LOCAL_ADDRESS_SPACE) {
                load->setVolatile(false);
                changed = true;
            } else if (auto *store = dyn_cast<StoreInst>(&i);
                       store && store->isVolatile() && !store->isAtomic() &&
                       store->getPointerAddressSpace() == LOCAL_ADDRESS_SPACE) {
                store->setVolatile(false);
                changed = true;
            }
        }
    if (!changed)
        return PreservedAnalyses::all();
    PreservedAnalyses kept;
    kept.preserveSet<CFGAnalyses>();
    return kept;
}

} // namespace ferrocl
