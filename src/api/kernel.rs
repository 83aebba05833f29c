//! Entry points: kernels and their execution. No kernel object can exist
//! before the compiler does, so kernel handles are all invalid; native
//! kernels (host functions run as commands) work.

use crate::api::enqueue::Command;
use crate::api::util::{c_array, c_str, cl_entry};
use crate::cl::*;
use crate::core::program::Program;
use crate::core::queue::Queue;
use std::ffi::{c_char, c_void};

type NativeFn = unsafe extern "C" fn(*mut c_void);

/// The argument block of a native kernel, moved to the worker thread.
struct NativeArgs(Vec<u8>);

/// "CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built
/// executable for program": none can be built yet.
fn no_executable(program: cl_program) -> Result<(), cl_int> {
    Program::resolve(program)?;
    Err(CL_INVALID_PROGRAM_EXECUTABLE)
}

cl_entry! {
    fn clCreateKernel(program: cl_program, kernel_name: *const c_char, errcode_ret: *mut cl_int) -> cl_kernel, errcode_ret {
        Program::resolve(program)?;
        c_str(kernel_name, CL_INVALID_VALUE)?;
        no_executable(program)?;
        Err(CL_INVALID_KERNEL_NAME)
    }

    fn clCreateKernelsInProgram(program: cl_program, _num_kernels: cl_uint, _kernels: *mut cl_kernel, _num_kernels_ret: *mut cl_uint) -> cl_int {
        no_executable(program)
    }

    fn clRetainKernel(_kernel: cl_kernel) -> cl_int {
        Err(CL_INVALID_KERNEL)
    }

    fn clReleaseKernel(_kernel: cl_kernel) -> cl_int {
        Err(CL_INVALID_KERNEL)
    }

    fn clSetKernelArg(_kernel: cl_kernel, _arg_index: cl_uint, _arg_size: usize, _arg_value: *const c_void) -> cl_int {
        Err(CL_INVALID_KERNEL)
    }

    fn clGetKernelInfo(_kernel: cl_kernel, _param_name: cl_kernel_info, _param_value_size: usize, _param_value: *mut c_void, _param_value_size_ret: *mut usize) -> cl_int {
        Err(CL_INVALID_KERNEL)
    }

    fn clGetKernelWorkGroupInfo(_kernel: cl_kernel, _device: cl_device_id, _param_name: cl_kernel_work_group_info, _param_value_size: usize, _param_value: *mut c_void, _param_value_size_ret: *mut usize) -> cl_int {
        Err(CL_INVALID_KERNEL)
    }

    fn clGetKernelArgInfo(_kernel: cl_kernel, _arg_indx: cl_uint, _param_name: cl_kernel_arg_info, _param_value_size: usize, _param_value: *mut c_void, _param_value_size_ret: *mut usize) -> cl_int {
        Err(CL_INVALID_KERNEL)
    }

    fn clEnqueueNDRangeKernel(command_queue: cl_command_queue, _kernel: cl_kernel, _work_dim: cl_uint, _global_work_offset: *const usize, _global_work_size: *const usize, _local_work_size: *const usize, _num_events_in_wait_list: cl_uint, _event_wait_list: *const cl_event, _event: *mut cl_event) -> cl_int {
        Queue::resolve(command_queue)?;
        Err(CL_INVALID_KERNEL)
    }

    fn clEnqueueTask(command_queue: cl_command_queue, _kernel: cl_kernel, _num_events_in_wait_list: cl_uint, _event_wait_list: *const cl_event, _event: *mut cl_event) -> cl_int {
        Queue::resolve(command_queue)?;
        Err(CL_INVALID_KERNEL)
    }

    fn clEnqueueNativeKernel(command_queue: cl_command_queue, user_func: Option<NativeFn>, args: *mut c_void, cb_args: usize, num_mem_objects: cl_uint, mem_list: *const cl_mem, args_mem_loc: *mut *const c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        let q = Queue::resolve(command_queue)?;
        // "CL_INVALID_VALUE if user_func is NULL."
        let func = user_func.ok_or(CL_INVALID_VALUE)?;
        // "CL_INVALID_VALUE if args is a NULL value and cb_args > 0, or if
        // args is a NULL value and num_mem_objects > 0", "... if args is not
        // NULL and cb_args is 0."
        let block = c_array(args as *const u8, cb_args, CL_INVALID_VALUE)?;
        if args.is_null() && num_mem_objects > 0 {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_VALUE if num_mem_objects > 0 and mem_list or
        // args_mem_loc are NULL", "... if num_mem_objects = 0 and mem_list or
        // args_mem_loc are not NULL."
        let mems = c_array(mem_list, num_mem_objects as usize, CL_INVALID_VALUE)?;
        let locs = c_array(args_mem_loc as *const *const c_void, num_mem_objects as usize, CL_INVALID_VALUE)?;
        let mut copy = block.to_vec();
        let held = crate::api::native_mem::patch_mem_args(&q, &mut copy, args as *const u8, mems, locs)?;
        let args = NativeArgs(copy);
        let cmd = Command::new(&q, CL_COMMAND_NATIVE_KERNEL as cl_command_type, num_events_in_wait_list, event_wait_list, event)?;
        cmd.run(Box::new(move || {
            let mut args = args;
            let ptr = if args.0.is_empty() { std::ptr::null_mut() } else { args.0.as_mut_ptr() as *mut c_void };
            // SAFETY: the application's native kernel, called with its own
            // copy of the argument block as the spec prescribes.
            unsafe { func(ptr) };
            // The buffers stay alive until the function has run.
            drop(held);
            Ok(())
        }), false)
    }

    fn clSetKernelArgSVMPointer(_kernel: cl_kernel, _arg_index: cl_uint, _arg_value: *const c_void) -> cl_int {
        Err(CL_INVALID_KERNEL)
    }

    fn clSetKernelExecInfo(_kernel: cl_kernel, _param_name: cl_kernel_exec_info, _param_value_size: usize, _param_value: *const c_void) -> cl_int {
        Err(CL_INVALID_KERNEL)
    }

    fn clCloneKernel(_source_kernel: cl_kernel, errcode_ret: *mut cl_int) -> cl_kernel, errcode_ret {
        Err(CL_INVALID_KERNEL)
    }

    fn clGetKernelSubGroupInfo(_kernel: cl_kernel, _device: cl_device_id, _param_name: cl_kernel_sub_group_info, _input_value_size: usize, _input_value: *const c_void, _param_value_size: usize, _param_value: *mut c_void, _param_value_size_ret: *mut usize) -> cl_int {
        Err(CL_INVALID_KERNEL)
    }

    fn clGetKernelSubGroupInfoKHR(_kernel: cl_kernel, _device: cl_device_id, _param_name: cl_kernel_sub_group_info, _input_value_size: usize, _input_value: *const c_void, _param_value_size: usize, _param_value: *mut c_void, _param_value_size_ret: *mut usize) -> cl_int {
        Err(CL_INVALID_KERNEL)
    }
}
