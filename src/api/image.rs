//! Entry points: images and samplers. The device supports neither
//! (CL_DEVICE_IMAGE_SUPPORT is false), so creating one is
//! CL_INVALID_OPERATION ("no devices in context support images") and no
//! handle of these kinds is ever valid. Pipes are in pipe.rs.

use crate::cl::*;
#[allow(unused_imports)]
use std::ffi::{c_char, c_int, c_uchar, c_uint, c_void};

/// The image types of the "List of supported image types" table.
const IMAGE_TYPES: [cl_mem_object_type; 6] = [
    CL_MEM_OBJECT_IMAGE1D,
    CL_MEM_OBJECT_IMAGE1D_ARRAY,
    CL_MEM_OBJECT_IMAGE1D_BUFFER,
    CL_MEM_OBJECT_IMAGE2D,
    CL_MEM_OBJECT_IMAGE2D_ARRAY,
    CL_MEM_OBJECT_IMAGE3D,
];

pub(crate) fn clCreateImage2D(
    context: cl_context,
    _flags: cl_mem_flags,
    _image_format: *const cl_image_format,
    _image_width: usize,
    _image_height: usize,
    _image_row_pitch: usize,
    _host_ptr: *mut c_void,
) -> Result<cl_mem, cl_int> {
    crate::core::context::Context::resolve(context)?;
    Err(CL_INVALID_OPERATION)
}

pub(crate) fn clCreateImage3D(
    context: cl_context,
    _flags: cl_mem_flags,
    _image_format: *const cl_image_format,
    _image_width: usize,
    _image_height: usize,
    _image_depth: usize,
    _image_row_pitch: usize,
    _image_slice_pitch: usize,
    _host_ptr: *mut c_void,
) -> Result<cl_mem, cl_int> {
    crate::core::context::Context::resolve(context)?;
    Err(CL_INVALID_OPERATION)
}

pub(crate) fn clCreateImage(
    context: cl_context,
    _flags: cl_mem_flags,
    _image_format: *const cl_image_format,
    _image_desc: *const cl_image_desc,
    _host_ptr: *mut c_void,
) -> Result<cl_mem, cl_int> {
    crate::core::context::Context::resolve(context)?;
    Err(CL_INVALID_OPERATION)
}

pub(crate) fn clCreateImageWithProperties(
    context: cl_context,
    _properties: *const cl_mem_properties,
    _flags: cl_mem_flags,
    _image_format: *const cl_image_format,
    _image_desc: *const cl_image_desc,
    _host_ptr: *mut c_void,
) -> Result<cl_mem, cl_int> {
    crate::core::context::Context::resolve(context)?;
    Err(CL_INVALID_OPERATION)
}

pub(crate) fn clGetSupportedImageFormats(
    context: cl_context,
    flags: cl_mem_flags,
    image_type: cl_mem_object_type,
    num_entries: cl_uint,
    image_formats: *mut cl_image_format,
    num_image_formats: *mut cl_uint,
) -> Result<(), cl_int> {
    crate::core::context::Context::resolve(context)?;
    // "CL_INVALID_VALUE if flags or image_type are not valid, or if
    // num_entries is 0 and image_formats is not NULL." Flags are those
    // of the Memory Flags table (CL_MEM_KERNEL_READ_AND_WRITE included,
    // which only this query takes).
    crate::api::memory::check_flags(flags, crate::api::memory::IMAGE_FLAGS)?;
    if !IMAGE_TYPES.contains(&image_type) || (num_entries == 0 && !image_formats.is_null()) {
        return Err(CL_INVALID_VALUE);
    }
    // No image formats are supported.
    crate::api::util::write_out(num_image_formats, 0);
    Ok(())
}

pub(crate) fn clGetImageInfo(
    _image: cl_mem,
    _param_name: cl_image_info,
    _param_value_size: usize,
    _param_value: *mut c_void,
    _param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    Err(CL_INVALID_MEM_OBJECT)
}

pub(crate) fn clEnqueueReadImage(
    command_queue: cl_command_queue,
    _image: cl_mem,
    _blocking_read: cl_bool,
    _origin: *const usize,
    _region: *const usize,
    _row_pitch: usize,
    _slice_pitch: usize,
    _ptr: *mut c_void,
    _num_events_in_wait_list: cl_uint,
    _event_wait_list: *const cl_event,
    _event: *mut cl_event,
) -> Result<(), cl_int> {
    crate::core::queue::Queue::resolve(command_queue)?;
    Err(CL_INVALID_MEM_OBJECT)
}

pub(crate) fn clEnqueueWriteImage(
    command_queue: cl_command_queue,
    _image: cl_mem,
    _blocking_write: cl_bool,
    _origin: *const usize,
    _region: *const usize,
    _input_row_pitch: usize,
    _input_slice_pitch: usize,
    _ptr: *const c_void,
    _num_events_in_wait_list: cl_uint,
    _event_wait_list: *const cl_event,
    _event: *mut cl_event,
) -> Result<(), cl_int> {
    crate::core::queue::Queue::resolve(command_queue)?;
    Err(CL_INVALID_MEM_OBJECT)
}

pub(crate) fn clEnqueueCopyImage(
    command_queue: cl_command_queue,
    _src_image: cl_mem,
    _dst_image: cl_mem,
    _src_origin: *const usize,
    _dst_origin: *const usize,
    _region: *const usize,
    _num_events_in_wait_list: cl_uint,
    _event_wait_list: *const cl_event,
    _event: *mut cl_event,
) -> Result<(), cl_int> {
    crate::core::queue::Queue::resolve(command_queue)?;
    Err(CL_INVALID_MEM_OBJECT)
}

pub(crate) fn clEnqueueCopyImageToBuffer(
    command_queue: cl_command_queue,
    _src_image: cl_mem,
    _dst_buffer: cl_mem,
    _src_origin: *const usize,
    _region: *const usize,
    _dst_offset: usize,
    _num_events_in_wait_list: cl_uint,
    _event_wait_list: *const cl_event,
    _event: *mut cl_event,
) -> Result<(), cl_int> {
    crate::core::queue::Queue::resolve(command_queue)?;
    Err(CL_INVALID_MEM_OBJECT)
}

pub(crate) fn clEnqueueCopyBufferToImage(
    command_queue: cl_command_queue,
    _src_buffer: cl_mem,
    _dst_image: cl_mem,
    _src_offset: usize,
    _dst_origin: *const usize,
    _region: *const usize,
    _num_events_in_wait_list: cl_uint,
    _event_wait_list: *const cl_event,
    _event: *mut cl_event,
) -> Result<(), cl_int> {
    crate::core::queue::Queue::resolve(command_queue)?;
    Err(CL_INVALID_MEM_OBJECT)
}

pub(crate) fn clEnqueueMapImage(
    command_queue: cl_command_queue,
    _image: cl_mem,
    _blocking_map: cl_bool,
    _map_flags: cl_map_flags,
    _origin: *const usize,
    _region: *const usize,
    _image_row_pitch: *mut usize,
    _image_slice_pitch: *mut usize,
    _num_events_in_wait_list: cl_uint,
    _event_wait_list: *const cl_event,
    _event: *mut cl_event,
) -> Result<*mut c_void, cl_int> {
    crate::core::queue::Queue::resolve(command_queue)?;
    Err(CL_INVALID_MEM_OBJECT)
}

pub(crate) fn clEnqueueFillImage(
    command_queue: cl_command_queue,
    _image: cl_mem,
    _fill_color: *const c_void,
    _origin: *const usize,
    _region: *const usize,
    _num_events_in_wait_list: cl_uint,
    _event_wait_list: *const cl_event,
    _event: *mut cl_event,
) -> Result<(), cl_int> {
    crate::core::queue::Queue::resolve(command_queue)?;
    Err(CL_INVALID_MEM_OBJECT)
}

pub(crate) fn clCreateSampler(
    context: cl_context,
    _normalized_coords: cl_bool,
    _addressing_mode: cl_addressing_mode,
    _filter_mode: cl_filter_mode,
) -> Result<cl_sampler, cl_int> {
    crate::core::context::Context::resolve(context)?;
    Err(CL_INVALID_OPERATION)
}

pub(crate) fn clCreateSamplerWithProperties(
    context: cl_context,
    _sampler_properties: *const cl_sampler_properties,
) -> Result<cl_sampler, cl_int> {
    crate::core::context::Context::resolve(context)?;
    Err(CL_INVALID_OPERATION)
}

pub(crate) fn clRetainSampler(_sampler: cl_sampler) -> Result<(), cl_int> {
    Err(CL_INVALID_SAMPLER)
}

pub(crate) fn clReleaseSampler(_sampler: cl_sampler) -> Result<(), cl_int> {
    Err(CL_INVALID_SAMPLER)
}

pub(crate) fn clGetSamplerInfo(
    _sampler: cl_sampler,
    _param_name: cl_sampler_info,
    _param_value_size: usize,
    _param_value: *mut c_void,
    _param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    Err(CL_INVALID_SAMPLER)
}
