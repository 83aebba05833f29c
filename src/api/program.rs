//! Entry points: program.

use crate::api::util::cl_entry;
use crate::cl::*;
#[allow(unused_imports)]
use std::ffi::{c_char, c_int, c_uchar, c_uint, c_void};

cl_entry! {
    fn clCreateProgramWithSource(context: cl_context, count: cl_uint, strings: *mut *const c_char, lengths: *const usize, errcode_ret: *mut cl_int) -> cl_program, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clCreateProgramWithBinary(context: cl_context, num_devices: cl_uint, device_list: *const cl_device_id, lengths: *const usize, binaries: *mut *const c_uchar, binary_status: *mut cl_int, errcode_ret: *mut cl_int) -> cl_program, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clCreateProgramWithBuiltInKernels(context: cl_context, num_devices: cl_uint, device_list: *const cl_device_id, kernel_names: *const c_char, errcode_ret: *mut cl_int) -> cl_program, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clCreateProgramWithIL(context: cl_context, il: *const c_void, length: usize, errcode_ret: *mut cl_int) -> cl_program, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clRetainProgram(program: cl_program) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clReleaseProgram(program: cl_program) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clBuildProgram(program: cl_program, num_devices: cl_uint, device_list: *const cl_device_id, options: *const c_char, pfn_notify: Option< unsafe extern "C" fn(program: cl_program, user_data: *mut c_void), >, user_data: *mut c_void) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clCompileProgram(program: cl_program, num_devices: cl_uint, device_list: *const cl_device_id, options: *const c_char, num_input_headers: cl_uint, input_headers: *const cl_program, header_include_names: *mut *const c_char, pfn_notify: Option< unsafe extern "C" fn(program: cl_program, user_data: *mut c_void), >, user_data: *mut c_void) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clLinkProgram(context: cl_context, num_devices: cl_uint, device_list: *const cl_device_id, options: *const c_char, num_input_programs: cl_uint, input_programs: *const cl_program, pfn_notify: Option< unsafe extern "C" fn(program: cl_program, user_data: *mut c_void), >, user_data: *mut c_void, errcode_ret: *mut cl_int) -> cl_program, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clGetProgramInfo(program: cl_program, param_name: cl_program_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clGetProgramBuildInfo(program: cl_program, device: cl_device_id, param_name: cl_program_build_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clSetProgramReleaseCallback(program: cl_program, pfn_notify: Option< unsafe extern "C" fn(program: cl_program, user_data: *mut c_void), >, user_data: *mut c_void) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clSetProgramSpecializationConstant(program: cl_program, spec_id: cl_uint, spec_size: usize, spec_value: *const c_void) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }
}
