// `ferrocl-sub-group-ids-from-local-ids`: the sub-group queries
// (get_sub_group_local_id, get_sub_group_id, get_sub_group_size,
// get_num_sub_groups, get_max_sub_group_size, get_enqueued_num_sub_groups)
// computed in place from the work-item functions they are defined by
// (builtins/workitem.c; a sub-group is its kernel's sub-group size of
// consecutive local linear ids, the group's last one smaller; 8 here):
//
//     get_sub_group_local_id()  ->  trunc(get_local_linear_id() % 8)
//     get_sub_group_size()      ->  trunc(umin(8, items - lli / 8 * 8))
//
// Why: the region transform turns get_local_linear_id and get_local_size
// into the work-group entry's loop counters and context loads, but knows
// nothing of the sub-group queries, whose calls kept a kernel on fibers
// (kernel_symbols.h counts them among the waits). Computed from the
// work-item functions, a kernel with sub-group functions can become regions
// (collective_waits_as_barriers.cpp turns their waits into barriers), and
// the queries are as cheap as the local id. Runs before the inliner's marking
// (inline_into_kernels.cpp), so that helpers calling the queries reach a
// work-item function and are inlined like any other.
//
// The size is a constant where the code's kernel is known: in a kernel,
// its own (kernel_abi.h sub_group_size_of); in a helper, that of every
// kernel calling it when they agree. A helper that kernels of different
// sizes call (cl_intel_required_subgroup_size) keeps its calls, which read
// the launch's size from the context (builtins/workitem.c).
#include "kernel_abi.h"
#include "kernel_symbols.h"
#include "passes.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <optional>

using namespace llvm;

namespace ferrocl {

namespace {

enum class Query { LocalId, Id, Size, Count, MaxSize, EnqueuedCount };

const struct {
    StringRef name;
    Query query;
} QUERIES[] = {
    {"_Z22get_sub_group_local_idv", Query::LocalId},
    {"_Z16get_sub_group_idv", Query::Id},
    {"_Z18get_sub_group_sizev", Query::Size},
    {"_Z18get_num_sub_groupsv", Query::Count},
    {"_Z22get_max_sub_group_sizev", Query::MaxSize},
    {"_Z27get_enqueued_num_sub_groupsv", Query::EnqueuedCount},
};

// Builds the work-item function calls a query is made of, with the calling
// convention of the call it replaces (clang's for the module's builtins).
struct Builder {
    IRBuilder<> b;
    Module &m;
    CallingConv::ID cc;

    Value *call(StringRef name, ArrayRef<Value *> args)
    {
        Type *i64 = b.getInt64Ty();
        SmallVector<Type *, 1> params;
        for (Value *a : args)
            params.push_back(a->getType());
        FunctionCallee f = m.getOrInsertFunction(name, FunctionType::get(i64, params, false));
        if (auto *fn = dyn_cast<Function>(f.getCallee()); fn && fn->isDeclaration()) {
            fn->setCallingConv(cc);
            fn->setDoesNotThrow();
        }
        CallInst *c = b.CreateCall(f, args);
        c->setCallingConv(cc);
        return c;
    }

    // Work-items in the group (`size` get_local_size) or in an enqueued
    // group (get_enqueued_local_size): the product over the 3 dimensions.
    Value *items(StringRef size)
    {
        Value *n = nullptr;
        for (unsigned d = 0; d < 3; d++) {
            Value *s = call(size, {b.getInt32(d)});
            n = n ? b.CreateMul(n, s, "", true, true) : s;
        }
        return n;
    }

    Value *count(Value *items, uint64_t sub_group_size)
    {
        return b.CreateUDiv(b.CreateAdd(items, b.getInt64(sub_group_size - 1)),
                            b.getInt64(sub_group_size));
    }

    Value *compute(Query q, uint64_t sub_group_size)
    {
        Value *size = b.getInt64(sub_group_size);
        switch (q) {
        case Query::LocalId:
            return b.CreateURem(call("_Z19get_local_linear_idv", {}), size);
        case Query::Id:
            return b.CreateUDiv(call("_Z19get_local_linear_idv", {}), size);
        case Query::Size: {
            Value *id = b.CreateUDiv(call("_Z19get_local_linear_idv", {}), size);
            Value *left = b.CreateSub(items("_Z14get_local_sizej"), b.CreateMul(id, size));
            return b.CreateBinaryIntrinsic(Intrinsic::umin, left, size);
        }
        case Query::Count:
            return count(items("_Z14get_local_sizej"), sub_group_size);
        case Query::MaxSize:
            return b.CreateBinaryIntrinsic(Intrinsic::umin, items("_Z23get_enqueued_local_sizej"),
                                           size);
        case Query::EnqueuedCount:
            return count(items("_Z23get_enqueued_local_sizej"), sub_group_size);
        }
        return nullptr;
    }
};

// The sub-group size the code of each function runs with, where one is
// known (see above).
class SubGroupSizes {
  public:
    std::optional<uint64_t> of(const Function &f)
    {
        if (auto known = sizes_.find(&f); known != sizes_.end())
            return known->second;
        // A cycle (OpenCL C has no recursion): what its other callers say.
        if (!visiting_.insert(&f).second)
            return std::nullopt;
        std::optional<uint64_t> size;
        bool agree = true;
        auto meet = [&](std::optional<uint64_t> s) {
            if (!s || (size && *size != *s))
                agree = false;
            else
                size = s;
        };
        if (is_kernel(f))
            meet(sub_group_size_of(f));
        for (const User *u : f.users()) {
            const auto *call = dyn_cast<CallBase>(u);
            // Its address taken: run from who knows where.
            if (!call || call->getCalledOperand() != &f) {
                agree = false;
                continue;
            }
            if (!visiting_.contains(call->getFunction()))
                meet(of(*call->getFunction()));
        }
        visiting_.erase(&f);
        // No kernel calls it: it never runs under one.
        std::optional<uint64_t> result = agree ? size.value_or(SUB_GROUP_SIZE) : std::optional<uint64_t>();
        sizes_[&f] = result;
        return result;
    }

  private:
    DenseMap<const Function *, std::optional<uint64_t>> sizes_;
    SmallPtrSet<const Function *, 8> visiting_;
};

} // namespace

PreservedAnalyses SubGroupIdsFromLocalIdsPass::run(Module &m, ModuleAnalysisManager &)
{
    bool changed = false;
    SubGroupSizes sizes;
    for (const auto &q : QUERIES) {
        Function *f = m.getFunction(q.name);
        if (!f || !f->getReturnType()->isIntegerTy(32) || f->arg_size() != 0)
            continue;
        SmallVector<CallInst *, 8> calls;
        for (User *u : f->users())
            if (auto *call = dyn_cast<CallInst>(u); call && call->getCalledOperand() == f)
                calls.push_back(call);
        for (CallInst *call : calls) {
            std::optional<uint64_t> size = sizes.of(*call->getFunction());
            if (!size)
                continue;
            Builder b{IRBuilder<>(call), m, call->getCallingConv()};
            Value *v = b.b.CreateTrunc(b.compute(q.query, *size), call->getType());
            call->replaceAllUsesWith(v);
            call->eraseFromParent();
            changed = true;
        }
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
