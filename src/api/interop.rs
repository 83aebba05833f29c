//! Entry points: interop.

use crate::api::util::cl_entry;
use crate::cl::*;
#[allow(unused_imports)]
use std::ffi::{c_char, c_int, c_uchar, c_uint, c_void};

cl_entry! {
    fn clCreateFromGLBuffer(context: cl_context, flags: cl_mem_flags, bufobj: cl_GLuint, errcode_ret: *mut c_int) -> cl_mem, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clCreateFromGLTexture2D(context: cl_context, flags: cl_mem_flags, target: cl_GLenum, miplevel: cl_GLint, texture: cl_GLuint, errcode_ret: *mut cl_int) -> cl_mem, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clCreateFromGLTexture3D(context: cl_context, flags: cl_mem_flags, target: cl_GLenum, miplevel: cl_GLint, texture: cl_GLuint, errcode_ret: *mut cl_int) -> cl_mem, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clCreateFromGLRenderbuffer(context: cl_context, flags: cl_mem_flags, renderbuffer: cl_GLuint, errcode_ret: *mut cl_int) -> cl_mem, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clGetGLObjectInfo(memobj: cl_mem, gl_object_type: *mut cl_gl_object_type, gl_object_name: *mut cl_GLuint) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clGetGLTextureInfo(memobj: cl_mem, param_name: cl_gl_texture_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueAcquireGLObjects(command_queue: cl_command_queue, num_objects: cl_uint, mem_objects: *const cl_mem, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueReleaseGLObjects(command_queue: cl_command_queue, num_objects: cl_uint, mem_objects: *const cl_mem, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clGetGLContextInfoKHR(properties: *const cl_context_properties, param_name: cl_gl_context_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clCreateFromGLTexture(context: cl_context, flags: cl_mem_flags, target: cl_GLenum, miplevel: cl_GLint, texture: cl_GLuint, errcode_ret: *mut cl_int) -> cl_mem, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clCreateEventFromGLsyncKHR(context: cl_context, sync: cl_GLsync, errcode_ret: *mut cl_int) -> cl_event, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clCreateFromEGLImageKHR(context: cl_context, display: CLeglDisplayKHR, image: CLeglImageKHR, flags: cl_mem_flags, properties: *const cl_egl_image_properties_khr, errcode_ret: *mut cl_int) -> cl_mem, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueAcquireEGLObjectsKHR(command_queue: cl_command_queue, num_objects: cl_uint, mem_objects: *const cl_mem, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueReleaseEGLObjectsKHR(command_queue: cl_command_queue, num_objects: cl_uint, mem_objects: *const cl_mem, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clCreateEventFromEGLSyncKHR(context: cl_context, sync: CLeglSyncKHR, display: CLeglDisplayKHR, errcode_ret: *mut cl_int) -> cl_event, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clCreateSubDevicesEXT(in_device: cl_device_id, partition_properties: *const cl_device_partition_property_ext, num_entries: cl_uint, out_devices: *mut cl_device_id, num_devices: *mut cl_uint) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clRetainDeviceEXT(device: cl_device_id) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clReleaseDeviceEXT(device: cl_device_id) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }
}
