// A kernel's work-group copy, and the start of its work-group entry: what
// the barrier-free loops (work_group_entries.cpp) and the regions
// (region_entries.cpp) share.
#pragma once

#include "kernel_abi.h"
#include "parallel_access.h"

namespace ferrocl {

// The name prefix of a kernel's work-group copy (a `.` keeps it apart
// from any OpenCL C name).
inline constexpr const char *GROUP_COPY_PREFIX = "__ferrocl_wgbody.";

// The kernel's body as a function of the local id: the kernel's parameters
// and then `ptr %__ferrocl.ctx, i64 %__ferrocl.lx, .ly, .lz`, each call to
// a work-item function a call to its loop twin on those, its global,
// constant and local accesses tagged with `access`, internal and always
// inlined (unless the kernel must not be: -cl-opt-disable). Its parameters
// are not `noalias`: inlined, restrict leaves `noalias.scope.decl` calls in
// the work-item loop, which keep LLVM from treating it as parallel (the
// access group says more than restrict would). The kernel's memory effects
// are dropped (the copy reads the context). `extra` more parameters follow
// (the regions'), named `extra_names`.
llvm::Function *work_group_copy(llvm::Function &kernel, const ParallelAccess &access,
                                llvm::ArrayRef<llvm::Type *> extra = {},
                                llvm::ArrayRef<const char *> extra_names = {},
                                llvm::StringRef name = "");

// A work-group entry's start: the entry (`noalias readonly` context), its
// arguments, the group's local size (`ls0..2`: at most
// MAX_WORK_GROUP_SIZE, which LLVM is told, so that ids fit in 32 bits and
// an `int` index built from one is a consecutive access) and whether it is
// empty; the builder is at the end of the first block.
struct GroupEntryStart {
    EntryStart entry;
    llvm::Value *local_size[3];
    llvm::Value *empty;
    // What the copies get for the context: the group's own copy of the
    // fields the work-item functions' twins read (CONTEXT_LOCAL_ID bytes).
    // A store through a kernel's pointer cannot reach a local copy, so its
    // reads leave the work-item loops; read through the context itself,
    // they ran again after every store (a 3-D stencil ran 4x slower than
    // PoCL and did not vectorize).
    llvm::Value *twin_context;
};
GroupEntryStart start_group_entry(llvm::Function &kernel, llvm::IRBuilder<> &b);

// The local ids an entry runs (abi.rs WorkGroupContext::items_begin):
// `begin0..2` and `end0..2`, loaded at the builder, within the group (the
// runtime sees to it, and LLVM is told they are at most
// MAX_WORK_GROUP_SIZE), and `no.items`: the group or the range is empty.
// The emptiness test stays even though the runtime runs no empty range:
// under it LLVM knows each loop's trip count to be end - begin (without
// it, Rodinia's Fan2 ran 1.7x slower).
struct ItemRange {
    llvm::Value *begin[3];
    llvm::Value *end[3];
    llvm::Value *empty;
};
ItemRange load_item_range(llvm::IRBuilder<> &b, const GroupEntryStart &start);

} // namespace ferrocl
