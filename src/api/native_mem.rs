//! Memory objects in a native kernel's argument block: each is replaced by
//! the address of its storage, which on a CPU is the host memory itself.

use crate::cl::*;
use crate::core::memory::Mem;
use crate::core::queue::Queue;
use std::ffi::c_void;
use std::sync::Arc;

/// Writes the storage address of `mems[i]` into `block` where `locs[i]`
/// pointed into the application's original block at `original`. Returns
/// the memory objects, for the command to hold until it has run.
pub fn patch_mem_args(
    queue: &Arc<Queue>,
    block: &mut [u8],
    original: *const u8,
    mems: &[cl_mem],
    locs: &[*const c_void],
) -> Result<Vec<Arc<Mem>>, cl_int> {
    let word = std::mem::size_of::<*mut u8>();
    let mut held = Vec::with_capacity(mems.len());
    for (&handle, &loc) in mems.iter().zip(locs) {
        // "CL_INVALID_MEM_OBJECT if one or more memory objects specified in
        // mem_list are not valid or are not buffer objects."
        let mem = Mem::resolve(handle)?;
        if !Arc::ptr_eq(&mem.context, &queue.context) {
            return Err(CL_INVALID_CONTEXT);
        }
        // args_mem_loc entries point into args, where the cl_mem value is.
        let offset = (loc as usize).wrapping_sub(original as usize);
        if offset.checked_add(word).is_none_or(|end| end > block.len()) {
            return Err(CL_INVALID_VALUE);
        }
        let address = mem.host_address() as usize;
        block[offset..offset + word].copy_from_slice(&address.to_ne_bytes());
        held.push(mem);
    }
    Ok(held)
}
