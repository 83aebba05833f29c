//! Entry points: memory.

use crate::api::util::cl_entry;
use crate::cl::*;
#[allow(unused_imports)]
use std::ffi::{c_char, c_int, c_uchar, c_uint, c_void};

cl_entry! {
    fn clCreateBuffer(context: cl_context, flags: cl_mem_flags, size: usize, host_ptr: *mut c_void, errcode_ret: *mut cl_int) -> cl_mem, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clCreateBufferWithProperties(context: cl_context, properties: *const cl_mem_properties, flags: cl_mem_flags, size: usize, host_ptr: *mut c_void, errcode_ret: *mut cl_int) -> cl_mem, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clCreateSubBuffer(arg1: cl_mem, arg2: cl_mem_flags, arg3: cl_buffer_create_type, arg4: *const c_void, errcode_ret: *mut cl_int) -> cl_mem, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clRetainMemObject(memobj: cl_mem) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clReleaseMemObject(memobj: cl_mem) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clGetMemObjectInfo(memobj: cl_mem, param_name: cl_mem_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clSetMemObjectDestructorCallback(arg1: cl_mem, arg2: Option< unsafe extern "C" fn(arg1: cl_mem, arg2: *mut c_void), >, arg3: *mut c_void) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueReadBuffer(command_queue: cl_command_queue, buffer: cl_mem, blocking_read: cl_bool, offset: usize, cb: usize, ptr: *mut c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueWriteBuffer(command_queue: cl_command_queue, buffer: cl_mem, blocking_write: cl_bool, offset: usize, cb: usize, ptr: *const c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueCopyBuffer(command_queue: cl_command_queue, src_buffer: cl_mem, dst_buffer: cl_mem, src_offset: usize, dst_offset: usize, cb: usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueReadBufferRect(command_queue: cl_command_queue, buffer: cl_mem, blocking_read: cl_bool, buffer_origin: *const usize, host_origin: *const usize, region: *const usize, buffer_row_pitch: usize, buffer_slice_pitch: usize, host_row_pitch: usize, host_slice_pitch: usize, ptr: *mut c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueWriteBufferRect(command_queue: cl_command_queue, buffer: cl_mem, blocking_read: cl_bool, buffer_origin: *const usize, host_origin: *const usize, region: *const usize, buffer_row_pitch: usize, buffer_slice_pitch: usize, host_row_pitch: usize, host_slice_pitch: usize, ptr: *const c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueCopyBufferRect(command_queue: cl_command_queue, src_buffer: cl_mem, dst_buffer: cl_mem, src_origin: *const usize, dst_origin: *const usize, region: *const usize, src_row_pitch: usize, src_slice_pitch: usize, dst_row_pitch: usize, dst_slice_pitch: usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueFillBuffer(command_queue: cl_command_queue, buffer: cl_mem, pattern: *const c_void, pattern_size: usize, offset: usize, cb: usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueMapBuffer(command_queue: cl_command_queue, buffer: cl_mem, blocking_map: cl_bool, map_flags: cl_map_flags, offset: usize, cb: usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event, errcode_ret: *mut cl_int) -> *mut c_void, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueUnmapMemObject(command_queue: cl_command_queue, memobj: cl_mem, mapped_ptr: *mut c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueMigrateMemObjects(command_queue: cl_command_queue, num_mem_objects: cl_uint, mem_objects: *const cl_mem, flags: cl_mem_migration_flags, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }
}
