//! Entry points: image.

use crate::api::util::cl_entry;
use crate::cl::*;
#[allow(unused_imports)]
use std::ffi::{c_char, c_int, c_uchar, c_uint, c_void};

cl_entry! {
    fn clCreateImage2D(context: cl_context, flags: cl_mem_flags, image_format: *const cl_image_format, image_width: usize, image_height: usize, image_row_pitch: usize, host_ptr: *mut c_void, errcode_ret: *mut cl_int) -> cl_mem, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clCreateImage3D(context: cl_context, flags: cl_mem_flags, image_format: *const cl_image_format, image_width: usize, image_height: usize, image_depth: usize, image_row_pitch: usize, image_slice_pitch: usize, host_ptr: *mut c_void, errcode_ret: *mut cl_int) -> cl_mem, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clCreateImage(context: cl_context, flags: cl_mem_flags, image_format: *const cl_image_format, image_desc: *const cl_image_desc, host_ptr: *mut c_void, errcode_ret: *mut cl_int) -> cl_mem, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clCreateImageWithProperties(context: cl_context, properties: *const cl_mem_properties, flags: cl_mem_flags, image_format: *const cl_image_format, image_desc: *const cl_image_desc, host_ptr: *mut c_void, errcode_ret: *mut cl_int) -> cl_mem, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clGetSupportedImageFormats(context: cl_context, flags: cl_mem_flags, image_type: cl_mem_object_type, num_entries: cl_uint, image_formats: *mut cl_image_format, num_image_formats: *mut cl_uint) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clGetImageInfo(image: cl_mem, param_name: cl_image_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueReadImage(command_queue: cl_command_queue, image: cl_mem, blocking_read: cl_bool, origin: *const usize, region: *const usize, row_pitch: usize, slice_pitch: usize, ptr: *mut c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueWriteImage(command_queue: cl_command_queue, image: cl_mem, blocking_write: cl_bool, origin: *const usize, region: *const usize, input_row_pitch: usize, input_slice_pitch: usize, ptr: *const c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueCopyImage(command_queue: cl_command_queue, src_image: cl_mem, dst_image: cl_mem, src_origin: *const usize, dst_origin: *const usize, region: *const usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueCopyImageToBuffer(command_queue: cl_command_queue, src_image: cl_mem, dst_buffer: cl_mem, src_origin: *const usize, region: *const usize, dst_offset: usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueCopyBufferToImage(command_queue: cl_command_queue, src_buffer: cl_mem, dst_image: cl_mem, src_offset: usize, dst_origin: *const usize, region: *const usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueMapImage(command_queue: cl_command_queue, image: cl_mem, blocking_map: cl_bool, map_flags: cl_map_flags, origin: *const usize, region: *const usize, image_row_pitch: *mut usize, image_slice_pitch: *mut usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event, errcode_ret: *mut cl_int) -> *mut c_void, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueFillImage(command_queue: cl_command_queue, image: cl_mem, fill_color: *const c_void, origin: *const usize, region: *const usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clCreateSampler(context: cl_context, normalized_coords: cl_bool, addressing_mode: cl_addressing_mode, filter_mode: cl_filter_mode, errcode_ret: *mut cl_int) -> cl_sampler, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clCreateSamplerWithProperties(arg1: cl_context, arg2: *const cl_sampler_properties, errcode_ret: *mut cl_int) -> cl_sampler, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clRetainSampler(sampler: cl_sampler) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clReleaseSampler(sampler: cl_sampler) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clGetSamplerInfo(sampler: cl_sampler, param_name: cl_sampler_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clCreatePipe(arg1: cl_context, arg2: cl_mem_flags, arg3: cl_uint, arg4: cl_uint, arg5: *const cl_pipe_properties, errcode_ret: *mut cl_int) -> cl_mem, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clGetPipeInfo(arg1: cl_mem, arg2: cl_pipe_info, arg3: usize, arg4: *mut c_void, arg5: *mut usize) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }
}
