// The interface between the runtime and a compiled program (abi.rs,
// include/ferrocl_kernel.h): the entries' names, the parts of the
// work-group context the entries read, and the work-item functions' loop
// twins (builtins/workitem.c). abi.rs's test `the_passes_agree_on_the_abi`
// checks these numbers against its own.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Metadata.h>

#include <cstdint>

namespace ferrocl {

// `void __ferrocl_wi_K(void **args, ctx *)`: runs kernel K for the
// work-item the context names (abi.rs ENTRY_PREFIX).
inline constexpr const char *WORK_ITEM_ENTRY_PREFIX = "__ferrocl_wi_";
// `void __ferrocl_wg_K(void **args, ctx *)`: runs K for the whole group in
// loops (abi.rs GROUP_ENTRY_PREFIX).
inline constexpr const char *GROUP_ENTRY_PREFIX = "__ferrocl_wg_";
// The thread's running context, which the work-item builtins read.
inline constexpr const char *CONTEXT = "__ferrocl_ctx";

// Offsets in `struct ferrocl_context` (abi.rs WorkGroupContext).
inline constexpr uint64_t CONTEXT_LOCAL_SIZE = 56;
inline constexpr uint64_t CONTEXT_FRAME = 200;
// The fields before local_id do not change while a group runs (work_dim to
// group_id): what the work-item functions' loop twins read.
inline constexpr uint64_t CONTEXT_LOCAL_ID = 152;
// The local ids a barrier-free work-group entry runs, [begin, end) in each
// dimension: the whole group, or one piece of it (SPLITTABLE_ATTRIBUTE).
inline constexpr uint64_t CONTEXT_ITEMS_BEGIN = 272;
inline constexpr uint64_t CONTEXT_ITEMS_END = 296;
// CL_DEVICE_MAX_WORK_GROUP_SIZE (abi.rs MAX_WORK_GROUP_SIZE).
inline constexpr uint64_t MAX_WORK_GROUP_SIZE = 1024;
// FERROCL_SUB_GROUP_SIZE: a sub-group is this many consecutive local linear
// ids, the last one of a group smaller, unless its kernel requires another
// of SUB_GROUP_SIZES.
inline constexpr uint64_t SUB_GROUP_SIZE = 8;
// cl_intel_required_subgroup_size: the sizes a kernel may require
// (intel_reqd_sub_group_size; abi.rs SUB_GROUP_SIZES).
inline constexpr uint64_t SUB_GROUP_SIZES[] = {8, 16, 32};

// Kernel `k`'s sub-group size: the one it requires when that is one of
// SUB_GROUP_SIZES (the driver refuses a program requiring another), else
// SUB_GROUP_SIZE.
inline uint64_t sub_group_size_of(const llvm::Function &k)
{
    const llvm::MDNode *md = k.getMetadata("intel_reqd_sub_group_size");
    if (!md || md->getNumOperands() != 1)
        return SUB_GROUP_SIZE;
    const auto *c = llvm::mdconst::dyn_extract<llvm::ConstantInt>(md->getOperand(0));
    if (!c)
        return SUB_GROUP_SIZE;
    for (uint64_t size : SUB_GROUP_SIZES)
        if (c->getValue() == size)
            return size;
    return SUB_GROUP_SIZE;
}
// The frame's alignment: the widest a slot gets (abi.rs WorkGroupContext::frame).
inline constexpr uint64_t FRAME_ALIGN = 64;
// Bytes the runtime adds to a region kernel's frame (abi.rs FRAME_SKEW): the
// slots' arrays start FRAME_ALIGN * min(k, FRAME_SKEW / FRAME_ALIGN - 1)
// bytes after their place, so that the same work-item's values in arrays a power
// of two apart (4-byte slots, 1,024 work-items) do not all fall in one
// cache set: 16 of them evicted each other from an 8-way L1 at every
// work-item, 70 times slower than with the skew.
inline constexpr uint64_t FRAME_SKEW = 4096;

// The attribute of a group entry whose kernel runs as regions: the frame
// bytes it needs per work-item (KernelInfo::frame_size).
inline constexpr const char *FRAME_SIZE_ATTRIBUTE = "ferrocl-frame-size";
// On a work-group entry whose innermost loop is not dimension 0's: that
// dimension (work_group_entries.cpp; KernelInfo::inner_dimension).
inline constexpr const char *INNER_DIMENSION_ATTRIBUTE = "ferrocl-inner-dimension";
// On a work-group entry whose work-items may run in pieces on several
// threads at once (work_group_entries.cpp; KernelInfo::splittable).
inline constexpr const char *SPLITTABLE_ATTRIBUTE = "ferrocl-splittable";
// A kernel whose barriers are its sub-groups' (collective_waits_as_barriers.cpp):
// its work-group entry runs the regions one sub-group after the other.
inline constexpr const char *SUB_GROUP_REGIONS_ATTRIBUTE = "ferrocl-sub-group-regions";
// Named metadata: the kernels with barriers that could not be cut into
// regions (they run on fibers; the build log says so).
inline constexpr const char *FIBER_KERNELS = "ferrocl.fibers";

// A work-item function and its twin, which takes the context and the
// local id as arguments (`i64 __ferrocl_loop_local_id(ctx, lx, ly, lz,
// dim)`): what a kernel's work-group copy calls instead.
struct LoopTwin {
    llvm::StringRef function;
    llvm::StringRef twin;
    bool returns_i32;
    bool takes_dimension;
};

// The twin of a work-item function, or null.
const LoopTwin *loop_twin(llvm::StringRef function);

// Whether `name` is a twin of a work-item function whose value is the same
// for the whole group (get_group_id's, not get_local_id's).
bool is_uniform_twin(llvm::StringRef name);

// The twin of get_local_id.
inline constexpr const char *LOCAL_ID_TWIN = "__ferrocl_loop_local_id";

// `@__ferrocl_ctx`, declared if it is not yet.
llvm::GlobalVariable *context_slot(llvm::Module &m);

// An entry's start: `void name(ptr %args, ptr %ctx)` with its first block,
// the context stored for the builtins, and `kernel`'s arguments loaded
// from `args` (by value; a byval argument as the entry's own copy,
// by_value_copy).
struct EntryStart {
    llvm::Function *entry;
    llvm::Value *context;
    llvm::SmallVector<llvm::Value *, 8> arguments;
};
EntryStart start_entry(llvm::Function &kernel, llvm::StringRef name, bool context_is_noalias);

// A copy of the struct that `param` passes by value, made where `b` is from
// the bytes at `from` (aligned `from_align`): a variable of the function
// being built, aligned as the struct and the parameter want.
llvm::AllocaInst *by_value_copy(llvm::IRBuilder<> &b, const llvm::Argument &param,
                                llvm::Value *from, llvm::Align from_align);

// A call to `callee` (a copy of `kernel` with more parameters) with the
// kernel's parameter attributes that calls must repeat (byval, align).
llvm::CallInst *call_copy(llvm::IRBuilder<> &b, llvm::Function &kernel, llvm::Function *callee,
                          llvm::ArrayRef<llvm::Value *> arguments);

} // namespace ferrocl
