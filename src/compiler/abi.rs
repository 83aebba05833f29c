//! The kernel ABI shared with compiled code: mirrors include/ferrocl_kernel.h.

use std::ffi::{c_char, c_void};

/// One work-group's context, read by the work-item builtins.
#[repr(C)]
pub struct WorkGroupContext {
    pub work_dim: u32,
    pub reserved: u32,
    pub global_offset: [usize; 3],
    pub global_size: [usize; 3],
    /// This work-group's size (smaller for the last, non-uniform group).
    pub local_size: [usize; 3],
    pub enqueued_local_size: [usize; 3],
    pub num_groups: [usize; 3],
    pub group_id: [usize; 3],
    /// The work-item running now (work-item entries only).
    pub local_id: [usize; 3],
    pub barrier: unsafe extern "C" fn(*mut WorkGroupContext, u32),
    pub printf_fn: unsafe extern "C" fn(*mut WorkGroupContext, *const c_char, *mut c_void) -> i32,
    /// Opaque to compiled code: the executor's own state.
    pub executor: *mut c_void,
    /// The group's arena of __local arguments, [begin, end): with the
    /// kernel's __local variables, what to_local and get_fence call local.
    pub local_arena_begin: *mut c_void,
    pub local_arena_end: *mut c_void,
    /// The highest address of the stack the running work-item uses (its
    /// fiber's, or the worker's above the kernel's frames): to_private.
    pub stack_top: *mut c_void,
}

/// `void __ferrocl_wi_K(void *const *args, struct ferrocl_wg_ctx *ctx)`:
/// runs the work-item `ctx.local_id`.
pub type WorkItemEntry = unsafe extern "C" fn(*const *mut c_void, *mut WorkGroupContext);

/// `void __ferrocl_wg_K(void *const *args, struct ferrocl_wg_ctx *ctx)`:
/// runs every work-item of the group (barrier-free kernels only; see
/// `KernelInfo::group_entry`). Dimensions at and past `ctx.work_dim` must
/// hold the defaults: sizes 1, ids and offsets 0.
pub type WorkGroupEntry = unsafe extern "C" fn(*const *mut c_void, *mut WorkGroupContext);

/// The prefix of each kernel's work-item entry symbol.
pub const ENTRY_PREFIX: &str = "__ferrocl_wi_";

/// The prefix of a kernel's work-group entry symbol.
pub const GROUP_ENTRY_PREFIX: &str = "__ferrocl_wg_";

/// Slots in `PrintfArgs` (FERROCL_PRINTF_MAX_SLOTS).
pub const PRINTF_MAX_SLOTS: usize = 256;

/// `struct ferrocl_printf_args`: printf's arguments, one 64-bit slot per
/// scalar, vector element and `*` width or precision, as the builtin
/// printf passes them to `printf_fn`.
#[repr(C)]
pub struct PrintfArgs {
    pub count: u64,
    pub slots: [u64; PRINTF_MAX_SLOTS],
}
