//! Memory objects in a native kernel's argument block: each is replaced by
//! the address of its storage, which on a CPU is the host memory itself.

use crate::cl::*;
use crate::core::queue::Queue;
use std::ffi::c_void;
use std::sync::Arc;

/// Writes the storage address of `mems[i]` into `block` where `locs[i]`
/// pointed into the application's original block at `original`.
pub fn patch_mem_args(
    queue: &Arc<Queue>,
    block: &mut [u8],
    original: *const u8,
    mems: &[cl_mem],
    locs: &[*const c_void],
) -> Result<(), cl_int> {
    let _ = (queue, block, original, locs);
    if mems.is_empty() {
        return Ok(());
    }
    // Buffers arrive with the memory-object work; until then no cl_mem is valid.
    Err(CL_INVALID_MEM_OBJECT)
}
