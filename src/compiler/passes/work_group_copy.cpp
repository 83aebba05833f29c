// See work_group_copy.h.
#include "work_group_copy.h"
#include "kernel_calls.h"

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>

using namespace llvm;

namespace ferrocl {

namespace {

// Each work-item function call in `f` a call to its twin on the copy's
// context and local id (parameters `first`..`first + 3`).
void call_twins(Function &f, unsigned first)
{
    Module &m = *f.getParent();
    LLVMContext &ctx = m.getContext();
    Type *i64 = Type::getInt64Ty(ctx), *ptr = PointerType::get(ctx, 0);
    SmallVector<CallInst *, 16> calls;
    for (Instruction &i : instructions(f))
        if (auto *call = dyn_cast<CallInst>(&i))
            if (Function *callee = call->getCalledFunction())
                if (loop_twin(callee->getName()))
                    calls.push_back(call);
    for (CallInst *call : calls) {
        const LoopTwin &t = *loop_twin(call->getCalledFunction()->getName());
        SmallVector<Type *, 5> params = {ptr, i64, i64, i64};
        SmallVector<Value *, 5> args = {f.getArg(first), f.getArg(first + 1),
                                        f.getArg(first + 2), f.getArg(first + 3)};
        if (t.takes_dimension) {
            params.push_back(Type::getInt32Ty(ctx));
            args.push_back(call->getArgOperand(0));
        }
        Type *ret = t.returns_i32 ? Type::getInt32Ty(ctx) : i64;
        FunctionCallee twin = m.getOrInsertFunction(t.twin, FunctionType::get(ret, params, false));
        // Not the builtin's call attributes (memory(none)): the twin reads
        // the context.
        auto *replacement = CallInst::Create(twin, args, "", call->getIterator());
        replacement->takeName(call);
        replacement->setDebugLoc(call->getDebugLoc());
        call->replaceAllUsesWith(replacement);
        call->eraseFromParent();
    }
}

} // namespace

Function *work_group_copy(Function &kernel, const ParallelAccess &access, ArrayRef<Type *> extra,
                          ArrayRef<const char *> extra_names, StringRef name)
{
    Module &m = *kernel.getParent();
    LLVMContext &ctx = m.getContext();
    Type *i64 = Type::getInt64Ty(ctx), *ptr = PointerType::get(ctx, 0);
    SmallVector<Type *, 16> params(kernel.getFunctionType()->params());
    params.append({ptr, i64, i64, i64});
    params.append(extra.begin(), extra.end());
    auto *type = FunctionType::get(kernel.getReturnType(), params, false);
    std::string copy_name = name.empty() ? (GROUP_COPY_PREFIX + kernel.getName()).str() : name.str();
    Function *copy = Function::Create(type, GlobalValue::InternalLinkage, copy_name, m);
    ValueToValueMapTy map;
    for (Argument &a : kernel.args()) {
        Argument *to = copy->getArg(a.getArgNo());
        to->setName(a.getName());
        map[&a] = to;
    }
    SmallVector<ReturnInst *, 4> returns;
    CloneFunctionInto(copy, &kernel, map, CloneFunctionChangeType::LocalChangesOnly, returns);
    copy->setCallingConv(CallingConv::C);
    copy->setLinkage(GlobalValue::InternalLinkage);
    copy->setDSOLocal(true);
    unsigned first = kernel.arg_size();
    const char *names[] = {"__ferrocl.ctx", "__ferrocl.lx", "__ferrocl.ly", "__ferrocl.lz"};
    for (unsigned i = 0; i < 4; i++)
        copy->getArg(first + i)->setName(names[i]);
    for (size_t i = 0; i < extra_names.size(); i++)
        copy->getArg(first + 4 + i)->setName(extra_names[i]);
    copy->addParamAttr(first, Attribute::NoCapture);
    copy->addParamAttr(first, Attribute::ReadOnly);
    for (unsigned i = 0; i < first; i++)
        copy->removeParamAttr(i, Attribute::NoAlias);
    copy->removeFnAttr(Attribute::Memory);
    if (!copy->hasFnAttribute(Attribute::NoInline))
        copy->addFnAttr(Attribute::AlwaysInline);
    call_twins(*copy, first);
    for (Instruction &i : instructions(*copy))
        access.tag_memory(i);
    return copy;
}

GroupEntryStart start_group_entry(Function &kernel, IRBuilder<> &b)
{
    Module &m = *kernel.getParent();
    GroupEntryStart start{start_entry(kernel, (GROUP_ENTRY_PREFIX + kernel.getName()).str(), true),
                          {},
                          nullptr,
                          nullptr};
    b.SetInsertPoint(&start.entry.entry->getEntryBlock());
    // Kernel-scope __local variables are thread-local: their addresses come
    // from one call that finds this object's thread-local block, which the
    // back end makes once per function when a first use dominates the
    // others (x86's local-dynamic clean-up), else in every region that uses
    // one. This empty use is that first one.
    auto locals = local_variables(kernel);
    if (!locals.empty()) {
        auto *v = const_cast<GlobalVariable *>(locals[0]);
        auto *type = FunctionType::get(b.getVoidTy(), {v->getType()}, false);
        b.CreateCall(InlineAsm::get(type, "", "r", true), {v});
    }
    MDNode *range = MDBuilder(m.getContext())
                        .createRange(APInt(64, 0), APInt(64, MAX_WORK_GROUP_SIZE + 1));
    Value *context = start.entry.context;
    Value *empty = nullptr;
    for (int d = 0; d < 3; d++) {
        Value *p = b.CreateInBoundsGEP(b.getInt8Ty(), context,
                                       b.getInt64(CONTEXT_LOCAL_SIZE + 8 * d), "ls.p" + Twine(d));
        LoadInst *size = b.CreateAlignedLoad(b.getInt64Ty(), p, Align(8), "ls" + Twine(d));
        size->setMetadata(LLVMContext::MD_range, range);
        start.local_size[d] = size;
        Value *zero = b.CreateICmpEQ(size, b.getInt64(0), "ls.zero" + Twine(d));
        empty = empty ? b.CreateOr(empty, zero) : zero;
    }
    empty->setName("ls.zero");
    start.empty = empty;
    AllocaInst *copy = b.CreateAlloca(ArrayType::get(b.getInt8Ty(), CONTEXT_LOCAL_ID), nullptr,
                                      "ctx.invariant");
    copy->setAlignment(Align(8));
    b.CreateMemCpy(copy, Align(8), context, Align(8), CONTEXT_LOCAL_ID);
    start.twin_context = copy;
    return start;
}

ItemRange load_item_range(IRBuilder<> &b, const GroupEntryStart &start)
{
    MDNode *ids = MDBuilder(b.getContext())
                      .createRange(APInt(64, 0), APInt(64, MAX_WORK_GROUP_SIZE + 1));
    ItemRange range{{}, {}, start.empty};
    for (unsigned d = 0; d < 3; d++) {
        auto field = [&](uint64_t offset, const char *name) {
            Value *p = b.CreateInBoundsGEP(b.getInt8Ty(), start.entry.context,
                                           b.getInt64(offset + 8 * d), Twine(name) + ".p" + Twine(d));
            LoadInst *v = b.CreateAlignedLoad(b.getInt64Ty(), p, Align(8), Twine(name) + Twine(d));
            v->setMetadata(LLVMContext::MD_range, ids);
            return v;
        };
        range.begin[d] = field(CONTEXT_ITEMS_BEGIN, "begin");
        range.end[d] = field(CONTEXT_ITEMS_END, "end");
        range.empty = b.CreateOr(range.empty, b.CreateICmpUGE(range.begin[d], range.end[d]));
    }
    range.empty->setName("no.items");
    return range;
}

} // namespace ferrocl
