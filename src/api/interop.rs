//! Entry points of the GL/EGL sharing and device-fission extensions. The
//! device reports none of them; a context is never a GL or EGL context, so
//! these answer with the code for that rather than leave holes in the
//! dispatch table.

use crate::cl::*;
#[allow(unused_imports)]
use std::ffi::{c_char, c_int, c_uchar, c_uint, c_void};

pub(crate) fn clCreateFromGLBuffer(
    _context: cl_context,
    _flags: cl_mem_flags,
    _bufobj: cl_GLuint,
) -> Result<cl_mem, cl_int> {
    Err(CL_INVALID_CONTEXT)
}

pub(crate) fn clCreateFromGLTexture2D(
    _context: cl_context,
    _flags: cl_mem_flags,
    _target: cl_GLenum,
    _miplevel: cl_GLint,
    _texture: cl_GLuint,
) -> Result<cl_mem, cl_int> {
    Err(CL_INVALID_CONTEXT)
}

pub(crate) fn clCreateFromGLTexture3D(
    _context: cl_context,
    _flags: cl_mem_flags,
    _target: cl_GLenum,
    _miplevel: cl_GLint,
    _texture: cl_GLuint,
) -> Result<cl_mem, cl_int> {
    Err(CL_INVALID_CONTEXT)
}

pub(crate) fn clCreateFromGLRenderbuffer(
    _context: cl_context,
    _flags: cl_mem_flags,
    _renderbuffer: cl_GLuint,
) -> Result<cl_mem, cl_int> {
    Err(CL_INVALID_CONTEXT)
}

pub(crate) fn clGetGLObjectInfo(
    _memobj: cl_mem,
    _gl_object_type: *mut cl_gl_object_type,
    _gl_object_name: *mut cl_GLuint,
) -> Result<(), cl_int> {
    Err(CL_INVALID_MEM_OBJECT)
}

pub(crate) fn clGetGLTextureInfo(
    _memobj: cl_mem,
    _param_name: cl_gl_texture_info,
    _param_value_size: usize,
    _param_value: *mut c_void,
    _param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    Err(CL_INVALID_MEM_OBJECT)
}

pub(crate) fn clEnqueueAcquireGLObjects(
    _command_queue: cl_command_queue,
    _num_objects: cl_uint,
    _mem_objects: *const cl_mem,
    _num_events_in_wait_list: cl_uint,
    _event_wait_list: *const cl_event,
    _event: *mut cl_event,
) -> Result<(), cl_int> {
    Err(CL_INVALID_CONTEXT)
}

pub(crate) fn clEnqueueReleaseGLObjects(
    _command_queue: cl_command_queue,
    _num_objects: cl_uint,
    _mem_objects: *const cl_mem,
    _num_events_in_wait_list: cl_uint,
    _event_wait_list: *const cl_event,
    _event: *mut cl_event,
) -> Result<(), cl_int> {
    Err(CL_INVALID_CONTEXT)
}

pub(crate) fn clGetGLContextInfoKHR(
    _properties: *const cl_context_properties,
    _param_name: cl_gl_context_info,
    _param_value_size: usize,
    _param_value: *mut c_void,
    _param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    Err(CL_INVALID_OPERATION)
}

pub(crate) fn clCreateFromGLTexture(
    _context: cl_context,
    _flags: cl_mem_flags,
    _target: cl_GLenum,
    _miplevel: cl_GLint,
    _texture: cl_GLuint,
) -> Result<cl_mem, cl_int> {
    Err(CL_INVALID_CONTEXT)
}

pub(crate) fn clCreateEventFromGLsyncKHR(
    _context: cl_context,
    _sync: cl_GLsync,
) -> Result<cl_event, cl_int> {
    Err(CL_INVALID_CONTEXT)
}

pub(crate) fn clCreateFromEGLImageKHR(
    _context: cl_context,
    _display: CLeglDisplayKHR,
    _image: CLeglImageKHR,
    _flags: cl_mem_flags,
    _properties: *const cl_egl_image_properties_khr,
) -> Result<cl_mem, cl_int> {
    Err(CL_INVALID_CONTEXT)
}

pub(crate) fn clEnqueueAcquireEGLObjectsKHR(
    _command_queue: cl_command_queue,
    _num_objects: cl_uint,
    _mem_objects: *const cl_mem,
    _num_events_in_wait_list: cl_uint,
    _event_wait_list: *const cl_event,
    _event: *mut cl_event,
) -> Result<(), cl_int> {
    Err(CL_INVALID_CONTEXT)
}

pub(crate) fn clEnqueueReleaseEGLObjectsKHR(
    _command_queue: cl_command_queue,
    _num_objects: cl_uint,
    _mem_objects: *const cl_mem,
    _num_events_in_wait_list: cl_uint,
    _event_wait_list: *const cl_event,
    _event: *mut cl_event,
) -> Result<(), cl_int> {
    Err(CL_INVALID_CONTEXT)
}

pub(crate) fn clCreateEventFromEGLSyncKHR(
    _context: cl_context,
    _sync: CLeglSyncKHR,
    _display: CLeglDisplayKHR,
) -> Result<cl_event, cl_int> {
    Err(CL_INVALID_CONTEXT)
}

pub(crate) fn clCreateSubDevicesEXT(
    _in_device: cl_device_id,
    _partition_properties: *const cl_device_partition_property_ext,
    _num_entries: cl_uint,
    _out_devices: *mut cl_device_id,
    _num_devices: *mut cl_uint,
) -> Result<(), cl_int> {
    Err(CL_INVALID_OPERATION)
}

pub(crate) fn clRetainDeviceEXT(_device: cl_device_id) -> Result<(), cl_int> {
    Err(CL_INVALID_OPERATION)
}

pub(crate) fn clReleaseDeviceEXT(_device: cl_device_id) -> Result<(), cl_int> {
    Err(CL_INVALID_OPERATION)
}
