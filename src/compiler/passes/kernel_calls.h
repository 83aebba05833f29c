// What a kernel reaches through the functions it calls (and whose address
// it takes): which decides how it runs. Each function's "named" globals
// are those its instructions use, through constant expressions too.
#pragma once

#include <llvm/ADT/SetVector.h>

namespace llvm {
class Function;
class GlobalValue;
class GlobalVariable;
} // namespace llvm

namespace ferrocl {

// `kernel` and every function it names, directly or through the
// functions it names.
llvm::SetVector<const llvm::Function *> reachable_functions(const llvm::Function &kernel);

// The kernel calls a barrier, a work-group or sub-group function, or
// another wait (kernel_symbols.h is_wait), itself or in a function it
// reaches: its work-items must be able to wait for each other.
bool uses_barriers(const llvm::Function &kernel);

// Its work-item functions can become loop variables of a work-group entry:
// only the kernel's own body calls them (a function it calls that asks for
// them itself reads the running work-item from the context, which the
// work-group entry's loops do not update).
bool loop_safe(const llvm::Function &kernel);

// Its only waits are plain barriers in its own body (the functions it
// calls were inlined), as the region transform needs.
bool only_own_barriers(const llvm::Function &kernel);

// It may wait for another command running meanwhile: an atomic operation
// or a volatile access on memory that is not the work-group's or the
// work-item's own (address spaces 3 and 0), a call of an atomic builtin
// on such memory or of a pipe builtin (kernel_symbols.h is_atomic_builtin,
// is_pipe_builtin), or inline assembly, itself or in a function it
// reaches.
// Such a kernel must not run on the thread that enqueues it
// (sched::run_here): the command it waits for may be the next one that
// thread enqueues.
bool may_wait_for_others(const llvm::Function &kernel);

// Pieces of one of its work-groups (ranges of local ids) may run on
// several threads at once: its work-items cannot tell
// (work_group_entries.cpp marks barrier-free kernels' entries so; region
// entries take no range). No __local memory
// (variables are a thread's own copy, arguments a thread's arena), no
// barrier but implicit ones (implicit_barriers.cpp, which order nothing
// OpenCL orders), nothing that may wait for another work-item or command
// (may_wait_for_others), no device-side enqueue (a child may wait for its
// parent's work-group to end) and no call through a pointer. Fails closed.
bool may_run_in_pieces(const llvm::Function &kernel);

// It calls the implicit barrier (implicit_barriers.cpp) itself.
bool calls_implicit_barrier(const llvm::Function &kernel);

// The __local variables (address space 3 globals) the kernel's functions
// name.
llvm::SetVector<const llvm::GlobalVariable *> local_variables(const llvm::Function &kernel);

} // namespace ferrocl
