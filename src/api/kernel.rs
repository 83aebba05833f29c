//! Entry points: kernel.

use crate::api::util::cl_entry;
use crate::cl::*;
#[allow(unused_imports)]
use std::ffi::{c_char, c_int, c_uchar, c_uint, c_void};

cl_entry! {
    fn clCreateKernel(program: cl_program, kernel_name: *const c_char, errcode_ret: *mut cl_int) -> cl_kernel, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clCreateKernelsInProgram(program: cl_program, num_kernels: cl_uint, kernels: *mut cl_kernel, num_kernels_ret: *mut cl_uint) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clRetainKernel(kernel: cl_kernel) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clReleaseKernel(kernel: cl_kernel) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clSetKernelArg(kernel: cl_kernel, arg_index: cl_uint, arg_size: usize, arg_value: *const c_void) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clGetKernelInfo(kernel: cl_kernel, param_name: cl_kernel_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clGetKernelWorkGroupInfo(kernel: cl_kernel, device: cl_device_id, param_name: cl_kernel_work_group_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clGetKernelArgInfo(kernel: cl_kernel, arg_indx: cl_uint, param_name: cl_kernel_arg_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueNDRangeKernel(command_queue: cl_command_queue, kernel: cl_kernel, work_dim: cl_uint, global_work_offset: *const usize, global_work_size: *const usize, local_work_size: *const usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueTask(command_queue: cl_command_queue, kernel: cl_kernel, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clEnqueueNativeKernel(command_queue: cl_command_queue, user_func: Option<unsafe extern "C" fn(arg1: *mut c_void)>, args: *mut c_void, cb_args: usize, num_mem_objects: cl_uint, mem_list: *const cl_mem, args_mem_loc: *mut *const c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clSetKernelArgSVMPointer(arg1: cl_kernel, arg2: cl_uint, arg3: *const c_void) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clSetKernelExecInfo(arg1: cl_kernel, arg2: cl_kernel_exec_info, arg3: usize, arg4: *const c_void) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clCloneKernel(source_kernel: cl_kernel, errcode_ret: *mut cl_int) -> cl_kernel, errcode_ret {
        Err(CL_INVALID_OPERATION)
    }

    fn clGetKernelSubGroupInfo(kernel: cl_kernel, device: cl_device_id, param_name: cl_kernel_sub_group_info, input_value_size: usize, input_value: *const c_void, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }

    fn clGetKernelSubGroupInfoKHR(arg1: cl_kernel, arg2: cl_device_id, arg3: cl_kernel_sub_group_info, arg4: usize, arg5: *const c_void, arg6: usize, arg7: *mut c_void, arg8: *mut usize) -> cl_int {
        Err(CL_INVALID_OPERATION)
    }
}
