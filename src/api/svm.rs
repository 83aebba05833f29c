//! Entry points: shared virtual memory.
//!
//! The device is the host CPU, so SVM memory needs no copying, mapping or
//! migrating: map, unmap and migrate are ordered commands that do nothing,
//! and memcpy and fill work on any host pointer.

use crate::api::enqueue::{Command, HostPtr, Sink};
use crate::api::util::{c_array, migration_flags_known};
use crate::cl::*;
use crate::core::callback::Callback;
use crate::core::context::Context;
use crate::core::object::handle_of;
use crate::core::queue::Queue;
use crate::core::svm;
use std::ffi::c_void;

/// The pfn_free_func of clEnqueueSVMFree.
pub(crate) type SvmFreeFn =
    unsafe extern "C" fn(cl_command_queue, cl_uint, *mut *mut c_void, *mut c_void);

/// The pattern sizes clEnqueueSVMMemFill accepts.
const PATTERN_SIZES: [usize; 8] = [1, 2, 4, 8, 16, 32, 64, 128];

fn bool_arg(b: cl_bool) -> bool {
    b != CL_FALSE as cl_bool
}

pub(crate) fn clEnqueueSVMFree(
    command_queue: cl_command_queue,
    num_svm_pointers: cl_uint,
    svm_pointers: *mut *mut c_void,
    pfn_free_func: Option<SvmFreeFn>,
    user_data: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    let queue = Queue::resolve(command_queue)?;
    // "CL_INVALID_VALUE if num_svm_pointers is 0 and svm_pointers is
    // non-NULL, or if svm_pointers is NULL and num_svm_pointers is not 0."
    let pointers = c_array(
        svm_pointers as *const *mut c_void,
        num_svm_pointers as usize,
        CL_INVALID_VALUE,
    )?;
    // The application may reuse its array once the call returns: keep a
    // copy, which is also what the callback is handed.
    let mut pointers: Vec<HostPtr> = pointers.iter().map(|&p| HostPtr(p)).collect();
    let callback = pfn_free_func.map(|func| Callback { func, user_data });
    let cmd = Command::new(
        &queue,
        CL_COMMAND_SVM_FREE as cl_command_type,
        num_events_in_wait_list,
        event_wait_list,
        event,
    )?;
    let q = queue.clone();
    cmd.run(
        Box::new(move || {
            match callback {
                // "If pfn_free_func is specified, it will be called to
                // free the SVM pointers ... the OpenCL implementation
                // does not free them."
                Some(cb) => {
                    let list = if pointers.is_empty() {
                        std::ptr::null_mut()
                    } else {
                        pointers.as_mut_ptr() as *mut *mut c_void
                    };
                    // SAFETY: an application callback with the arguments
                    // the spec defines; HostPtr is a transparent newtype
                    // of a pointer, so the Vec is an array of them, alive
                    // for the duration of the call.
                    unsafe {
                        (cb.func)(handle_of(&q), pointers.len() as cl_uint, list, cb.user_data)
                    };
                }
                // "If pfn_free_func is NULL, the OpenCL implementation
                // frees the SVM pointers" (NULL and unknown pointers are
                // ignored, as clSVMFree does).
                None => {
                    for p in &pointers {
                        svm::free(&q.context, p.0);
                    }
                }
            }
            Ok(())
        }),
        false,
    )
}

pub(crate) fn clEnqueueSVMMemcpy(
    command_queue: cl_command_queue,
    blocking_copy: cl_bool,
    dst_ptr: *mut c_void,
    src_ptr: *const c_void,
    size: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    let wait = Sink::Queue(num_events_in_wait_list, event_wait_list, event);
    let kind = CL_COMMAND_SVM_MEMCPY as cl_command_type;
    memcpy_command(
        command_queue,
        kind,
        blocking_copy,
        dst_ptr,
        src_ptr,
        size,
        wait,
    )
}

/// clEnqueueSVMMemcpy and clEnqueueMemcpyINTEL: a copy between host
/// pointers, a command of type `kind`.
pub(crate) fn memcpy_command(
    command_queue: cl_command_queue,
    kind: cl_command_type,
    blocking_copy: cl_bool,
    dst_ptr: *mut c_void,
    src_ptr: *const c_void,
    size: usize,
    sink: Sink,
) -> Result<(), cl_int> {
    let queue = Queue::resolve(command_queue)?;
    // "CL_INVALID_VALUE if dst_ptr or src_ptr is NULL."
    if dst_ptr.is_null() || src_ptr.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    // "CL_MEM_COPY_OVERLAP if the values specified for dst_ptr, src_ptr
    // and size result in an overlapping copy."
    let (dst, src) = (dst_ptr as usize, src_ptr as usize);
    if size > 0 && dst < src.wrapping_add(size) && src < dst.wrapping_add(size) {
        return Err(CL_MEM_COPY_OVERLAP);
    }
    let cmd = Command::to(&queue, kind, sink)?;
    let (dst, src) = (HostPtr(dst_ptr), HostPtr(src_ptr as *mut c_void));
    cmd.run_replayable(
        move || {
            if size > 0 {
                // SAFETY: the application guarantees both pointers name
                // `size` bytes that stay valid until the command
                // completes; we checked the regions do not overlap.
                unsafe { std::ptr::copy_nonoverlapping(src.bytes(), dst.bytes(), size) };
            }
            Ok(())
        },
        bool_arg(blocking_copy),
    )
}

pub(crate) fn clEnqueueSVMMemFill(
    command_queue: cl_command_queue,
    svm_ptr: *mut c_void,
    pattern: *const c_void,
    pattern_size: usize,
    size: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    let wait = Sink::Queue(num_events_in_wait_list, event_wait_list, event);
    let kind = CL_COMMAND_SVM_MEMFILL as cl_command_type;
    fill_command(
        command_queue,
        kind,
        svm_ptr,
        pattern,
        pattern_size,
        size,
        wait,
    )
}

/// clEnqueueSVMMemFill, clEnqueueMemFillINTEL and clEnqueueMemsetINTEL:
/// a pattern repeated over host memory, a command of type `kind`.
pub(crate) fn fill_command(
    command_queue: cl_command_queue,
    kind: cl_command_type,
    svm_ptr: *mut c_void,
    pattern: *const c_void,
    pattern_size: usize,
    size: usize,
    sink: Sink,
) -> Result<(), cl_int> {
    let queue = Queue::resolve(command_queue)?;
    // "CL_INVALID_VALUE if svm_ptr is NULL."
    if svm_ptr.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    // "CL_INVALID_VALUE if pattern is NULL or if pattern_size is 0 or if
    // pattern_size is not one of {1, 2, 4, 8, 16, 32, 64, 128}."
    if pattern.is_null() || !PATTERN_SIZES.contains(&pattern_size) {
        return Err(CL_INVALID_VALUE);
    }
    // "CL_INVALID_VALUE if svm_ptr is not aligned to pattern_size bytes."
    if !(svm_ptr as usize).is_multiple_of(pattern_size) {
        return Err(CL_INVALID_VALUE);
    }
    // "CL_INVALID_VALUE if size is not a multiple of pattern_size."
    if !size.is_multiple_of(pattern_size) {
        return Err(CL_INVALID_VALUE);
    }
    // "The memory associated with pattern can be reused or freed after
    // the function returns": copy it now.
    // SAFETY: the application guarantees pattern points to pattern_size
    // bytes (not NULL, checked above).
    let pattern =
        unsafe { std::slice::from_raw_parts(pattern as *const u8, pattern_size) }.to_vec();
    let cmd = Command::to(&queue, kind, sink)?;
    let dst = HostPtr(svm_ptr);
    cmd.run_replayable(
        move || {
            // SAFETY: the application guarantees `size` writable bytes at
            // svm_ptr until the command completes.
            unsafe { crate::core::memory::fill(dst.bytes(), &pattern, size) };
            Ok(())
        },
        false,
    )
}

pub(crate) fn clEnqueueSVMMap(
    command_queue: cl_command_queue,
    blocking_map: cl_bool,
    flags: cl_map_flags,
    svm_ptr: *mut c_void,
    size: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    let queue = Queue::resolve(command_queue)?;
    // "CL_INVALID_VALUE if svm_ptr is NULL."
    if svm_ptr.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    // "CL_INVALID_VALUE if size is 0 or if values specified in map_flags
    // are not valid."
    if size == 0 || !map_flags_valid(flags) {
        return Err(CL_INVALID_VALUE);
    }
    // The host already sees the memory: an ordered command that does
    // nothing.
    Command::new(
        &queue,
        CL_COMMAND_SVM_MAP as cl_command_type,
        num_events_in_wait_list,
        event_wait_list,
        event,
    )?
    .run_nothing(bool_arg(blocking_map))
}

pub(crate) fn clEnqueueSVMUnmap(
    command_queue: cl_command_queue,
    svm_ptr: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    let queue = Queue::resolve(command_queue)?;
    // "CL_INVALID_VALUE if svm_ptr is NULL."
    if svm_ptr.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    Command::new(
        &queue,
        CL_COMMAND_SVM_UNMAP as cl_command_type,
        num_events_in_wait_list,
        event_wait_list,
        event,
    )?
    .run_nothing(false)
}

pub(crate) fn clEnqueueSVMMigrateMem(
    command_queue: cl_command_queue,
    num_svm_pointers: cl_uint,
    svm_pointers: *mut *const c_void,
    sizes: *const usize,
    flags: cl_mem_migration_flags,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    let queue = Queue::resolve(command_queue)?;
    // "CL_INVALID_VALUE if num_svm_pointers is zero or svm_pointers is
    // NULL."
    if num_svm_pointers == 0 || svm_pointers.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    let pointers = c_array(
        svm_pointers as *const *const c_void,
        num_svm_pointers as usize,
        CL_INVALID_VALUE,
    )?;
    // "If sizes is NULL, then all allocations containing any pointer in
    // svm_pointers are migrated."
    let sizes = if sizes.is_null() {
        &[][..]
    } else {
        c_array(sizes, num_svm_pointers as usize, CL_INVALID_VALUE)?
    };
    // "CL_INVALID_VALUE if sizes[i] is non-zero range [svm_pointers[i],
    // svm_pointers[i]+sizes[i]) is not contained within an existing
    // clSVMAlloc allocation."
    for (i, &p) in pointers.iter().enumerate() {
        let len = sizes.get(i).copied().unwrap_or(0);
        if len != 0 && !svm::contains(&queue.context, p, len) {
            return Err(CL_INVALID_VALUE);
        }
    }
    // "CL_INVALID_VALUE if flags is not 0 or is not any of the values
    // described in the table above."
    if !migration_flags_known(flags) {
        return Err(CL_INVALID_VALUE);
    }
    // Host and device share one memory: nothing moves.
    Command::new(
        &queue,
        CL_COMMAND_SVM_MIGRATE_MEM as cl_command_type,
        num_events_in_wait_list,
        event_wait_list,
        event,
    )?
    .run_nothing(false)
}

/// Map flags are CL_MAP_READ and/or CL_MAP_WRITE, or
/// CL_MAP_WRITE_INVALIDATE_REGION alone: "CL_MAP_WRITE_INVALIDATE_REGION
/// ... is mutually exclusive with CL_MAP_READ or CL_MAP_WRITE".
fn map_flags_valid(flags: cl_map_flags) -> bool {
    let rw = (CL_MAP_READ | CL_MAP_WRITE) as cl_map_flags;
    let invalidate = CL_MAP_WRITE_INVALIDATE_REGION as cl_map_flags;
    flags & !(rw | invalidate) == 0 && !(flags & invalidate != 0 && flags & rw != 0)
}

/// clSVMAlloc has no error code: NULL is its only failure report.
pub(crate) fn clSVMAlloc(
    context: cl_context,
    flags: cl_svm_mem_flags,
    size: usize,
    alignment: cl_uint,
) -> Result<*mut c_void, cl_int> {
    // "clSVMAlloc will fail if context is not a valid context", as well as
    // for bad flags, size or alignment (see core::svm::alloc).
    let ctx = Context::resolve(context)?;
    svm::alloc(&ctx, flags, size, alignment)
}

/// clSVMFree frees at once: "the application must ensure that [commands
/// using the buffer] have completed"; clEnqueueSVMFree is the deferred
/// form. "If a NULL pointer is passed in svm_pointer, no action occurs";
/// an invalid context, or a pointer that is not the start of a live
/// allocation of that context, is ignored as well.
pub(crate) fn clSVMFree(context: cl_context, svm_pointer: *mut c_void) -> Result<(), cl_int> {
    let ctx = Context::resolve(context)?;
    svm::free(&ctx, svm_pointer);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_flags() {
        let (r, w, inv) = (
            CL_MAP_READ as u64,
            CL_MAP_WRITE as u64,
            CL_MAP_WRITE_INVALIDATE_REGION as u64,
        );
        for ok in [0, r, w, r | w, inv] {
            assert!(map_flags_valid(ok));
        }
        for bad in [inv | r, inv | w, 8, 1 << 40] {
            assert!(!map_flags_valid(bad));
        }
    }
}
