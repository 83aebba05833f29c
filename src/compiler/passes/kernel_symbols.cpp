// See kernel_symbols.h.
#include "kernel_symbols.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Instructions.h>

using namespace llvm;

namespace ferrocl {

namespace {

const StringRef PLAIN_BARRIERS[] = {
    IMPLICIT_BARRIER,
    BARRIER,
    "_Z18work_group_barrierj",
    "_Z18work_group_barrierj12memory_scope",
};

const StringRef SUB_GROUP_BARRIERS[] = {
    "_Z17sub_group_barrierj",
    "_Z17sub_group_barrierj12memory_scope",
};

// (kernel_abi.cpp has their loop twins, which the work-group entries call.)
const StringRef WORK_ITEM_FUNCTIONS[] = {
    "_Z13get_global_idj",       "_Z12get_local_idj",       "_Z20get_global_linear_idv",
    "_Z19get_local_linear_idv",
};

const StringRef UNIFORM_WORK_ITEM_FUNCTIONS[] = {
    "_Z12get_work_dimv",      "_Z15get_global_sizej", "_Z14get_local_sizej",
    "_Z23get_enqueued_local_sizej", "_Z14get_num_groupsj", "_Z12get_group_idj",
    "_Z17get_global_offsetj",
};

bool is_sub_group_identifier(StringRef id)
{
    // intel_sub_group_*: cl_intel_subgroups' shuffles, which DPC++'s
    // SPIR-V calls (the translator's names for OpSubgroupShuffleINTEL).
    return id.starts_with("sub_group_") || id.starts_with("intel_sub_group_") ||
           id.starts_with("get_sub_group_") ||
           id.starts_with("get_max_sub_group_") || id == "get_num_sub_groups" ||
           id == "get_enqueued_num_sub_groups";
}

template <size_t N> bool contains(const StringRef (&names)[N], StringRef name)
{
    for (StringRef n : names)
        if (n == name)
            return true;
    return false;
}

} // namespace

const Function *called_function(const Instruction &i)
{
    const auto *call = dyn_cast<CallBase>(&i);
    return call ? dyn_cast<Function>(call->getCalledOperand()->stripPointerCasts()) : nullptr;
}

const CallInst *call_of(const Value *v, StringRef name)
{
    const auto *call = dyn_cast<CallInst>(v);
    const Function *f = call ? called_function(*call) : nullptr;
    return f && f->getName() == name ? call : nullptr;
}

std::optional<unsigned> dimension_of(const Value *v, StringRef name)
{
    const CallInst *call = call_of(v, name);
    const auto *dim = call ? dyn_cast<ConstantInt>(call->getArgOperand(0)) : nullptr;
    if (!dim || dim->getZExtValue() > 2)
        return std::nullopt;
    return dim->getZExtValue();
}

bool is_size_query(const Value *v)
{
    for (StringRef size : {"_Z15get_global_sizej", "_Z14get_local_sizej",
                           "_Z23get_enqueued_local_sizej", "_Z14get_num_groupsj"})
        if (call_of(v, size))
            return true;
    return false;
}

bool is_kernel(const Function &f) { return f.getCallingConv() == CallingConv::SPIR_KERNEL; }

bool is_plain_barrier(StringRef name) { return contains(PLAIN_BARRIERS, name); }

bool is_sub_group_barrier(StringRef name) { return contains(SUB_GROUP_BARRIERS, name); }

bool calls_plain_barrier(const Instruction &i)
{
    const Function *f = called_function(i);
    return f && is_plain_barrier(f->getName());
}

StringRef mangled_identifier(StringRef name)
{
    if (!name.consume_front("_Z"))
        return {};
    size_t digits = name.find_if([](char c) { return c < '0' || c > '9'; });
    unsigned length = 0;
    if (digits == 0 || digits == StringRef::npos || name.take_front(digits).getAsInteger(10, length))
        return {};
    name = name.drop_front(digits);
    return length <= name.size() ? name.take_front(length) : StringRef();
}

bool is_wait(StringRef name)
{
    if (name == COLLECTIVE_WAIT || name == PROGRESS_POINT || name.starts_with("__work_group_") ||
        name.starts_with("__sub_group_"))
        return true;
    StringRef id = mangled_identifier(name);
    if (id.empty())
        return false;
    return id == "barrier" || id == "wait_group_events" || id.starts_with("work_group_") ||
           id.starts_with("async_work_group_") || is_sub_group_identifier(id);
}

bool is_atomic_builtin(StringRef name)
{
    StringRef id = mangled_identifier(name);
    return id.starts_with("atomic_") || id.starts_with("atom_");
}

bool is_pipe_builtin(StringRef name)
{
    return name.starts_with("__") && mangled_identifier(name).empty() &&
           (name.ends_with("_pipe") || name.ends_with("_pipe_2") || name.ends_with("_pipe_4"));
}

bool calls_wait(const Instruction &i)
{
    const Function *f = called_function(i);
    return f && is_wait(f->getName());
}

bool waits(const Function &f)
{
    for (const Instruction &i : instructions(f))
        if (calls_plain_barrier(i) || calls_wait(i))
            return true;
    return false;
}

Waits kernel_waits(const Function &f)
{
    Waits w;
    for (const Instruction &i : instructions(f)) {
        bool plain = calls_plain_barrier(i);
        w.plain_barriers = w.plain_barriers || plain;
        w.others = w.others || (!plain && calls_wait(i));
    }
    return w;
}

bool is_block_kernel(StringRef name)
{
    return name.starts_with("__") && name.contains("_block_invoke") && name.ends_with("_kernel");
}

bool is_work_item_function(StringRef name)
{
    return contains(WORK_ITEM_FUNCTIONS, name) || is_uniform_work_item_function(name);
}

bool is_uniform_work_item_function(StringRef name)
{
    return contains(UNIFORM_WORK_ITEM_FUNCTIONS, name);
}

} // namespace ferrocl
