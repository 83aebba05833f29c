// See kernel_abi.h.
#include "kernel_abi.h"

#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

namespace {

const LoopTwin TWINS[] = {
    {"_Z12get_work_dimv", "__ferrocl_loop_work_dim", true, false},
    {"_Z15get_global_sizej", "__ferrocl_loop_global_size", false, true},
    {"_Z14get_local_sizej", "__ferrocl_loop_local_size", false, true},
    {"_Z23get_enqueued_local_sizej", "__ferrocl_loop_enqueued_local_size", false, true},
    {"_Z12get_local_idj", LOCAL_ID_TWIN, false, true},
    {"_Z14get_num_groupsj", "__ferrocl_loop_num_groups", false, true},
    {"_Z12get_group_idj", "__ferrocl_loop_group_id", false, true},
    {"_Z17get_global_offsetj", "__ferrocl_loop_global_offset", false, true},
    {"_Z13get_global_idj", "__ferrocl_loop_global_id", false, true},
    {"_Z20get_global_linear_idv", "__ferrocl_loop_global_linear_id", false, false},
    {"_Z19get_local_linear_idv", "__ferrocl_loop_local_linear_id", false, false},
};

// The twins of functions that differ between work-items.
const StringRef PER_WORK_ITEM_TWINS[] = {
    LOCAL_ID_TWIN,
    "__ferrocl_loop_global_id",
    "__ferrocl_loop_global_linear_id",
    "__ferrocl_loop_local_linear_id",
};

} // namespace

const LoopTwin *loop_twin(StringRef function)
{
    for (const LoopTwin &t : TWINS)
        if (t.function == function)
            return &t;
    return nullptr;
}

bool is_uniform_twin(StringRef name)
{
    bool twin = false;
    for (const LoopTwin &t : TWINS)
        twin |= t.twin == name;
    for (StringRef n : PER_WORK_ITEM_TWINS)
        if (n == name)
            return false;
    return twin;
}

GlobalVariable *context_slot(Module &m)
{
    if (GlobalVariable *g = m.getGlobalVariable(CONTEXT))
        return g;
    auto *g = new GlobalVariable(m, PointerType::get(m.getContext(), 0), false,
                                 GlobalValue::ExternalLinkage, nullptr, CONTEXT, nullptr,
                                 GlobalValue::GeneralDynamicTLSModel);
    g->setVisibility(GlobalValue::HiddenVisibility);
    return g;
}

EntryStart start_entry(Function &kernel, StringRef name, bool context_is_noalias)
{
    Module &m = *kernel.getParent();
    LLVMContext &ctx = m.getContext();
    Type *ptr = PointerType::get(ctx, 0);
    auto *type = FunctionType::get(Type::getVoidTy(ctx), {ptr, ptr}, false);
    Function *entry = Function::Create(type, GlobalValue::ExternalLinkage, name, m);
    Argument *args = entry->getArg(0), *context = entry->getArg(1);
    args->setName("args");
    context->setName("ctx");
    if (context_is_noalias) {
        entry->addParamAttr(1, Attribute::NoAlias);
        entry->addParamAttr(1, Attribute::ReadOnly);
    }
    IRBuilder<> b(BasicBlock::Create(ctx, "entry", entry));
    b.CreateStore(context, context_slot(m));
    EntryStart start{entry, context, {}};
    for (Argument &param : kernel.args()) {
        unsigned i = param.getArgNo();
        Value *slot = b.CreateGEP(ptr, args, b.getInt64(i), "s" + Twine(i));
        Value *pointer = b.CreateLoad(ptr, slot, "a" + Twine(i));
        // A struct passed by value: the entry's own copy. Why: the inliner
        // passes the argument block's bytes themselves to a kernel that
        // only reads its copy, and LLVM cannot tell the block from the
        // memory the work-item loops write (the region frame's uniform
        // slots), so it loaded the struct again for every work-item, and
        // kept every store of a value computed from it in the loop: dpctl's
        // reductions (an indexer passed by value) staged six uniform values
        // per work-item. A copy of the entry's own is values in registers.
        if (param.hasByValAttr()) {
            AllocaInst *copy = by_value_copy(b, param, pointer, Align(1));
            copy->setName("byval" + Twine(i));
            start.arguments.push_back(copy);
            continue;
        }
        start.arguments.push_back(
            b.CreateAlignedLoad(param.getType(), pointer, Align(1), "v" + Twine(i)));
    }
    return start;
}

AllocaInst *by_value_copy(IRBuilder<> &b, const Argument &param, Value *from, Align from_align)
{
    Type *type = param.getParamByValType();
    const DataLayout &dl = param.getParent()->getDataLayout();
    Align align = std::max(dl.getPrefTypeAlign(type), param.getParamAlign().valueOrOne());
    AllocaInst *copy = b.CreateAlloca(type, nullptr);
    copy->setAlignment(align);
    b.CreateMemCpy(copy, align, from, from_align, dl.getTypeAllocSize(type));
    return copy;
}

CallInst *call_copy(IRBuilder<> &b, Function &kernel, Function *callee, ArrayRef<Value *> arguments)
{
    CallInst *call = b.CreateCall(callee, arguments);
    for (Argument &param : kernel.args()) {
        unsigned i = param.getArgNo();
        if (!param.hasByValAttr())
            continue;
        call->addParamAttr(i, Attribute::getWithByValType(b.getContext(), param.getParamByValType()));
        if (MaybeAlign a = param.getParamAlign())
            call->addParamAttr(i, Attribute::getWithAlignment(b.getContext(), *a));
    }
    return call;
}

} // namespace ferrocl
