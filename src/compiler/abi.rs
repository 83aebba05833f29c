//! The kernel ABI shared with compiled code: mirrors include/ferrocl_kernel.h.

use std::ffi::{c_char, c_void};

/// One work-group's context, read by the work-item builtins.
#[repr(C)]
pub struct WorkGroupContext {
    pub work_dim: u32,
    /// The kernel's sub-group size (KernelInfo::sub_group_size).
    pub sub_group_size: u32,
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
    /// For a kernel with barriers run as compiled regions: the values that
    /// live across barriers (KernelInfo::frame_size bytes per work-item of
    /// the enqueued local size, aligned to passes/kernel_abi.h FRAME_ALIGN).
    pub frame: *mut c_void,
    /// The frame's end: values in the frame are private memory too
    /// (to_private, get_fence).
    pub frame_end: *mut c_void,
    /// The collective functions' scratch: one slot per work-item (by local
    /// linear id), the group's result slot, one result slot per sub-group.
    pub collective_scratch: *mut u64,
    /// enqueue_kernel and enqueue_marker (`entry` NULL).
    pub enqueue_fn: unsafe extern "C" fn(*mut WorkGroupContext, *const EnqueueRequest) -> i32,
    /// The device event, queue and kernel queries (DEVICE_OP_*).
    pub device_op:
        unsafe extern "C" fn(*mut WorkGroupContext, u32, *mut c_void, isize, *mut c_void) -> isize,
    /// Opaque to compiled code: the launch's device-side enqueue state.
    pub device_side: *mut c_void,
    /// The group's arena of __local arguments, [begin, end): with the
    /// kernel's __local variables, what to_local and get_fence call local.
    pub local_arena_begin: *mut c_void,
    pub local_arena_end: *mut c_void,
    /// The highest address of the stack the running work-item uses (its
    /// fiber's, or the worker's above the kernel's frames): to_private.
    pub stack_top: *mut c_void,
    /// The local ids a barrier-free kernel's work-group entry runs,
    /// [items_begin, items_end) in each dimension: the whole group, or one
    /// piece of it when the kernel is splittable (KernelInfo::splittable)
    /// and other threads run the other pieces. Never beyond `local_size`:
    /// the entry does not check.
    pub items_begin: [usize; 3],
    pub items_end: [usize; 3],
}

/// The most work-items a group has (CL_DEVICE_MAX_WORK_GROUP_SIZE and
/// each of CL_DEVICE_MAX_WORK_ITEM_SIZES): the passes size ids and frames
/// for it (passes/kernel_abi.h MAX_WORK_GROUP_SIZE).
pub const MAX_WORK_GROUP_SIZE: usize = 1024;

/// The largest alignment an OpenCL C type needs (a long16 or double16):
/// argument values, __local buffers and buffers are aligned to it.
pub const MAX_ALIGN: usize = 128;

/// FERROCL_SUB_GROUP_SIZE: a sub-group is this many consecutive local
/// linear ids (the last one of a group may be smaller), unless its kernel
/// requires another of SUB_GROUP_SIZES. Eight: the AVX2 float vector width
/// the work-item loops use.
pub const SUB_GROUP_SIZE: usize = 8;

/// cl_intel_required_subgroup_size: the sub-group sizes a kernel may
/// require (CL_DEVICE_SUB_GROUP_SIZES_INTEL; passes/kernel_abi.h
/// SUB_GROUP_SIZES): the vector widths of 32-bit lanes up to AVX-512's
/// and twice that, the warp size of code written for CUDA.
pub const SUB_GROUP_SIZES: [usize; 3] = [8, 16, 32];

/// Bytes a region kernel's frame has beyond KernelInfo::frame_size per
/// work-item: its arrays are skewed by cache lines so that they do not all
/// map to one cache set (passes/kernel_abi.h FRAME_SKEW).
pub const FRAME_SKEW: usize = 4096;

/// FERROCL_SUB_GROUP_BARRIER: or'ed into the barrier's flags by
/// sub_group_barrier, which waits for the caller's sub-group only.
pub const SUB_GROUP_BARRIER: u32 = 0x8000_0000;

/// FERROCL_NON_UNIFORM_WAIT: or'ed into the barrier's flags by the
/// non-uniform sub-group functions, which wait only with the work-items of
/// their sub-group at the same call site (include/ferrocl_kernel.h).
pub const NON_UNIFORM_WAIT: u32 = 0x4000_0000;
/// FERROCL_PROGRESS: or'ed into the barrier's flags by the progress point
/// of a loop that may wait for another work-item: the caller gives way.
pub const PROGRESS: u32 = 0x2000_0000;

/// `struct ferrocl_ndrange`: ndrange_t.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct NdRangeT {
    pub work_dim: u32,
    pub offset: [usize; 3],
    pub global: [usize; 3],
    /// 0: the implementation chooses.
    pub local: [usize; 3],
}

/// `struct ferrocl_image`: what an image argument points to (the pixels,
/// the step from one y and from one z to the next in bytes, the sizes, and
/// the format as CL_* values). A sampler argument is its CLK_* bits.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ImageDescriptor {
    pub data: *mut u8,
    pub pitch_y: u64,
    pub pitch_z: u64,
    pub width: i32,
    pub height: i32,
    pub depth: i32,
    pub array_size: i32,
    pub channel_order: i32,
    pub channel_data_type: i32,
    pub element_size: i32,
    pub reserved: i32,
}

/// `struct ferrocl_enqueue`: one enqueue_kernel or enqueue_marker call.
#[repr(C)]
pub struct EnqueueRequest {
    pub queue: *mut c_void,
    pub flags: u32,
    pub num_events: u32,
    pub ndrange: *const NdRangeT,
    pub wait_list: *const *mut c_void,
    pub event_ret: *mut *mut c_void,
    /// The block kernel's work-item entry; NULL for a marker.
    pub entry: *mut c_void,
    /// The block literal; its first 4 bytes are its size.
    pub block: *const c_void,
    pub num_locals: u32,
    pub reserved2: u32,
    pub local_sizes: *const usize,
}

/// FERROCL_DEVICE_OP_*.
pub const DEVICE_OP_RETAIN_EVENT: u32 = 1;
pub const DEVICE_OP_RELEASE_EVENT: u32 = 2;
pub const DEVICE_OP_CREATE_USER_EVENT: u32 = 3;
pub const DEVICE_OP_SET_USER_EVENT_STATUS: u32 = 4;
pub const DEVICE_OP_CAPTURE_PROFILING: u32 = 5;
pub const DEVICE_OP_DEFAULT_QUEUE: u32 = 6;
pub const DEVICE_OP_KERNEL_WORK_GROUP_SIZE: u32 = 7;
pub const DEVICE_OP_IS_VALID_EVENT: u32 = 8;
pub const DEVICE_OP_PREFERRED_MULTIPLE: u32 = 9;

/// `void __ferrocl_wi_K(void *const *args, struct ferrocl_wg_ctx *ctx)`:
/// runs the work-item `ctx.local_id`.
pub type WorkItemEntry = unsafe extern "C" fn(*const *mut c_void, *mut WorkGroupContext);

/// `void __ferrocl_wg_K(void *const *args, struct ferrocl_wg_ctx *ctx)`:
/// runs every work-item of the group (barrier-free kernels, and kernels
/// with barriers run as regions, which need `frame`; see
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
