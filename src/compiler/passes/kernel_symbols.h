// What ferrocl's passes know of the functions a kernel calls: barriers,
// waits, work-item functions. The names are the builtins' mangled ones
// and ferrocl's own (builtins/workitem.c defines those).
#pragma once

#include <optional>

#include <llvm/ADT/StringRef.h>

namespace llvm {
class CallInst;
class Function;
class Instruction;
class Value;
class Module;
} // namespace llvm

namespace ferrocl {

// A barrier the compiler adds (implicit_barriers.cpp, cut_uniform_branches.cpp):
// a region boundary that needs no synchronization when work-items run one
// by one (a no-op in builtins/workitem.c).
// OpenCL C's address spaces in clang's map (-ffake-address-space-map).
inline constexpr unsigned GLOBAL_ADDRESS_SPACE = 1;
// Nothing writes __constant memory while a kernel runs.
inline constexpr unsigned CONSTANT_ADDRESS_SPACE = 2;
inline constexpr unsigned LOCAL_ADDRESS_SPACE = 3;

inline constexpr const char *IMPLICIT_BARRIER = "__ferrocl_implicit_barrier";

// The wait inside the work-group (argument 0) and sub-group functions
// (builtins/lib/collective.cl).
inline constexpr const char *COLLECTIVE_WAIT = "__ferrocl_collective_wait";

// Where a loop that may wait for another work-item lets the group's others
// run (progress_in_waiting_loops.cpp, builtins/workitem.c): a wait, so the
// kernel runs on fibers.
inline constexpr const char *PROGRESS_POINT = "__ferrocl_progress";

// The name prefix of values the same in every work-item of a group: the
// region transform keeps them once per group (region_plan.h).
inline constexpr const char *UNIFORM_PREFIX = "__fcl.u.";

// The name prefix of a grid-stride loop's group counter
// (grid_stride_loops.cpp): the loop carries compute (group_uniformity.h).
inline constexpr const char *GRID_STRIDE_PREFIX = "__fcl.grid.";

// The name prefix of a work-item's flag that it passed a bounds check
// (loops_out_of_guards.cpp): a guard, like the check it stands for.
inline constexpr const char *GUARD_FLAG_PREFIX = "__fcl.guard.";

// The barrier a work-group function's wait becomes: `barrier(CLK_LOCAL_MEM_FENCE
// | CLK_GLOBAL_MEM_FENCE)`.
inline constexpr const char *BARRIER = "_Z7barrierj";

// The function `i` calls directly, or null (indirect calls, not a call).
const llvm::Function *called_function(const llvm::Instruction &i);

// `v` when it is a direct call of the function named `name`, else null.
const llvm::CallInst *call_of(const llvm::Value *v, llvm::StringRef name);

// The dimension (0, 1 or 2) a direct call `v` of the work-item function
// named `name` asks for, when its argument is a constant
// (`get_global_id(1)`: 1); none for other values.
std::optional<unsigned> dimension_of(const llvm::Value *v, llvm::StringRef name);

// Whether `v` is a direct call of a size a grid-stride loop steps by:
// get_global_size, get_local_size, get_enqueued_local_size or
// get_num_groups (grid_stride_loops.cpp; inline_into_kernels.cpp looks
// for them before it).
bool is_size_query(const llvm::Value *v);

// Whether `f` is an OpenCL kernel.
bool is_kernel(const llvm::Function &f);

// The barriers regions are cut at: barrier, work_group_barrier (both
// overloads) and the implicit barrier.
bool is_plain_barrier(llvm::StringRef name);

// sub_group_barrier (both overloads).
bool is_sub_group_barrier(llvm::StringRef name);

// Whether `i` calls a plain barrier.
bool calls_plain_barrier(const llvm::Instruction &i);

// Calls that make work-items wait for each other: barriers, work-group and
// sub-group functions, async copies and wait_group_events, clang's pipe
// reservations and ferrocl's collective wait. Known by exact identifiers,
// never by a part of a name.
bool is_wait(llvm::StringRef name);

// Whether `i` calls such a function.
bool calls_wait(const llvm::Instruction &i);

// Whether `f` calls a plain barrier or any other wait.
bool waits(const llvm::Function &f);

// What `f` waits at: plain barriers, and waits of other kinds.
struct Waits {
    bool plain_barriers = false;
    bool others = false;
};
Waits kernel_waits(const llvm::Function &f);

// The atomic builtins (`atomic_*`, `atom_*`, their identifiers mangled;
// the builtin library defines them only when linked for the back end).
bool is_atomic_builtin(llvm::StringRef name);

// clang's pipe functions (`__read_pipe_2`, `__reserve_write_pipe`,
// `__work_group_commit_read_pipe`, ...).
bool is_pipe_builtin(llvm::StringRef name);

// The OpenCL work-item functions (get_local_id and the others).
bool is_work_item_function(llvm::StringRef name);

// The work-item functions whose value is the same for the whole group
// (get_group_id, get_local_size, ...; not the ids of a work-item).
bool is_uniform_work_item_function(llvm::StringRef name);

// Whether a kernel is one clang made for a block that a kernel enqueues
// (`__X_block_invoke_kernel`, `__X_block_invoke_N_kernel`): names starting
// with two underscores are reserved, so no application kernel is named so.
// The application never sees them (not in the program's kernel list).
bool is_block_kernel(llvm::StringRef name);

// The identifier of a mangled name (`_Z3sinf`: `sin`); empty when the name
// is not mangled.
llvm::StringRef mangled_identifier(llvm::StringRef name);

} // namespace ferrocl
