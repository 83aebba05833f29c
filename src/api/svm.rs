//! Entry points: svm.

use crate::api::util::cl_entry;
use crate::cl::*;
#[allow(unused_imports)]
use std::ffi::{c_char, c_int, c_uchar, c_uint, c_void};

cl_entry! {
    fn clEnqueueSVMFree(arg1: cl_command_queue, arg2: cl_uint, arg3: *mut *mut c_void, pfn_free_func: Option< unsafe extern "C" fn( arg1: cl_command_queue, arg2: cl_uint, arg3: *mut *mut c_void, arg4: *mut c_void, ), >, arg4: *mut c_void, arg5: cl_uint, arg6: *const cl_event, arg7: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueSVMMemcpy(arg1: cl_command_queue, arg2: cl_bool, arg3: *mut c_void, arg4: *const c_void, arg5: usize, arg6: cl_uint, arg7: *const cl_event, arg8: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueSVMMemFill(arg1: cl_command_queue, arg2: *mut c_void, arg3: *const c_void, arg4: usize, arg5: usize, arg6: cl_uint, arg7: *const cl_event, arg8: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueSVMMap(arg1: cl_command_queue, arg2: cl_bool, arg3: cl_map_flags, arg4: *mut c_void, arg5: usize, arg6: cl_uint, arg7: *const cl_event, arg8: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueSVMUnmap(arg1: cl_command_queue, arg2: *mut c_void, arg3: cl_uint, arg4: *const cl_event, arg5: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueSVMMigrateMem(command_queue: cl_command_queue, num_svm_pointers: cl_uint, svm_pointers: *mut *const c_void, sizes: *const usize, flags: cl_mem_migration_flags, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }
}

/// clSVMAlloc has no error code: NULL is its only failure report.
pub(crate) extern "C" fn clSVMAlloc(
    context: cl_context,
    flags: cl_svm_mem_flags,
    size: usize,
    alignment: cl_uint,
) -> *mut c_void {
    let _ = (context, flags, size, alignment);
    std::ptr::null_mut()
}

pub(crate) extern "C" fn clSVMFree(context: cl_context, svm_pointer: *mut c_void) {
    let _ = (context, svm_pointer);
}
