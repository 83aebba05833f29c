//! Entry points: kernels and their execution (NDRange launches, tasks,
//! native kernels).

use crate::api::enqueue::{Command, Sink};
use crate::api::util::{c_array, c_bytes, write_list, InfoOut};
use crate::cl::*;
use crate::compiler::ArgSpace;
use crate::core::caps::caps;
use crate::core::device::Device;
use crate::core::kernel::{Kernel, Launch, NdRange, SubGroups};
use crate::core::object::{app_ref_count, handle_of, publish, release, retain};
use crate::core::program::Program;
use crate::core::queue::Queue;
use std::ffi::{c_char, c_void};
use std::sync::Arc;

pub(crate) type NativeFn = unsafe extern "C" fn(*mut c_void);

/// The argument block of a native kernel, moved to the worker thread.
struct NativeArgs(Vec<u8>);

/// The device a per-device kernel query is about: "device ... can be NULL
/// if there is only one device associated with kernel"; CL_INVALID_DEVICE
/// if it is not one of the program's devices.
fn kernel_device(kernel: &Kernel, device: cl_device_id) -> Result<Arc<Device>, cl_int> {
    let devices = &kernel.program.devices;
    if device.is_null() {
        return match devices.as_slice() {
            [only] => Ok(only.clone()),
            _ => Err(CL_INVALID_DEVICE),
        };
    }
    let d = Device::resolve(device)?;
    if !devices.iter().any(|x| Arc::ptr_eq(x, &d)) {
        return Err(CL_INVALID_DEVICE);
    }
    Ok(d)
}

fn kernel_info(
    k: &Arc<Kernel>,
    handle: cl_kernel,
    param: cl_kernel_info,
    out: &InfoOut,
) -> Result<(), cl_int> {
    let ki = k.info();
    match param {
        CL_KERNEL_FUNCTION_NAME => out.write(&ki.name),
        CL_KERNEL_NUM_ARGS => out.write(&(ki.args.len() as cl_uint)),
        CL_KERNEL_REFERENCE_COUNT => out.write(&app_ref_count::<Kernel>(handle)?),
        CL_KERNEL_CONTEXT => out.write(&handle_of(k.context())),
        CL_KERNEL_PROGRAM => out.write(&handle_of(&k.program)),
        CL_KERNEL_ATTRIBUTES => out.write(&ki.attributes),
        _ => Err(CL_INVALID_VALUE),
    }
}

fn arg_info(
    k: &Kernel,
    index: cl_uint,
    param: cl_kernel_arg_info,
    out: &InfoOut,
) -> Result<(), cl_int> {
    let arg = k
        .info()
        .args
        .get(index as usize)
        .ok_or(CL_INVALID_ARG_INDEX)?;
    // "Kernel argument information is only available if the program
    // object associated with kernel is created with
    // clCreateProgramWithSource and the program executable was built with
    // the -cl-kernel-arg-info option specified in options argument to
    // clBuildProgram or clCompileProgram" (and binaries of such builds).
    if !k.info().arg_info {
        return Err(CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
    }
    match param {
        CL_KERNEL_ARG_ADDRESS_QUALIFIER => out.write(
            &(match arg.space {
                ArgSpace::Global => CL_KERNEL_ARG_ADDRESS_GLOBAL,
                ArgSpace::Local => CL_KERNEL_ARG_ADDRESS_LOCAL,
                ArgSpace::Constant => CL_KERNEL_ARG_ADDRESS_CONSTANT,
                ArgSpace::Private => CL_KERNEL_ARG_ADDRESS_PRIVATE,
            } as cl_kernel_arg_address_qualifier),
        ),
        CL_KERNEL_ARG_ACCESS_QUALIFIER => out.write(&arg.access),
        CL_KERNEL_ARG_TYPE_NAME => out.write(&arg.type_name),
        CL_KERNEL_ARG_TYPE_QUALIFIER => out.write(&arg.type_qualifier),
        CL_KERNEL_ARG_NAME => out.write(&arg.name),
        _ => Err(CL_INVALID_VALUE),
    }
}

fn work_group_info(
    k: &Kernel,
    param: cl_kernel_work_group_info,
    out: &InfoOut,
) -> Result<(), cl_int> {
    let ki = k.info();
    match param {
        // "CL_INVALID_VALUE if param_name is CL_KERNEL_GLOBAL_WORK_SIZE and
        // device is not a custom device and kernel is not a built-in
        // kernel."
        CL_KERNEL_GLOBAL_WORK_SIZE => Err(CL_INVALID_VALUE),
        CL_KERNEL_WORK_GROUP_SIZE => out.write(&caps().max_work_group_size),
        CL_KERNEL_COMPILE_WORK_GROUP_SIZE => out.write(&ki.reqd_work_group_size.unwrap_or([0; 3])),
        // __local arguments set so far, and the kernel's __local variables.
        CL_KERNEL_LOCAL_MEM_SIZE => {
            out.write(&(k.local_mem_used() + k.info().local_variables_size as u64))
        }
        CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE => {
            out.write(&caps().preferred_work_group_size_multiple)
        }
        // Private variables live on the work-item's own stack.
        CL_KERNEL_PRIVATE_MEM_SIZE => out.write(&0u64),
        _ => Err(CL_INVALID_VALUE),
    }
}

/// The number of dimensions an array of `bytes` bytes of size_t holds, if
/// it is 1 to 3.
fn dimensions(bytes: usize) -> Result<usize, cl_int> {
    let word = std::mem::size_of::<usize>();
    match bytes / word {
        n @ 1..=3 if bytes.is_multiple_of(word) => Ok(n),
        _ => Err(CL_INVALID_VALUE),
    }
}

/// clGetKernelSubGroupInfo's answer (core::kernel::SubGroups decides).
fn sub_group_info(
    k: &Kernel,
    param: cl_kernel_sub_group_info,
    input_size: usize,
    input: *const c_void,
    out: &InfoOut,
) -> Result<(), cl_int> {
    // "CL_INVALID_VALUE if param_name is CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE
    // and the size in bytes specified by input_value_size is not valid or if
    // input_value is NULL": a local size of 1 to 3 dimensions.
    let local_items = || -> Result<usize, cl_int> {
        let local = c_array(
            input as *const usize,
            dimensions(input_size)?,
            CL_INVALID_VALUE,
        )?;
        Ok(local.iter().product())
    };
    match param {
        CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE => {
            out.write(&SubGroups::of(k).max_size_for(local_items()?))
        }
        CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE => {
            out.write(&SubGroups::of(k).count_for(local_items()?))
        }
        CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT => {
            // The answer has as many dimensions as param_value_size holds;
            // the input is one size_t, the count.
            let dims = dimensions(out.capacity())?;
            if input_size != std::mem::size_of::<usize>() {
                return Err(CL_INVALID_VALUE);
            }
            let count = c_array(input as *const usize, 1, CL_INVALID_VALUE)?[0];
            out.write(&SubGroups::of(k).local_size_for_count(count, dims))
        }
        CL_KERNEL_MAX_NUM_SUB_GROUPS => out.write(&SubGroups::of(k).max_count()),
        // No attribute or IL execution mode sets it.
        CL_KERNEL_COMPILE_NUM_SUB_GROUPS => out.write(&0usize),
        // cl_intel_required_subgroup_size's: the size the kernel requires,
        // 0 for none, as Intel's runtime answers (SYCL ends the process on
        // an error here).
        CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL => out.write(&k.info().required_sub_group_size),
        _ => Err(CL_INVALID_VALUE),
    }
}

/// A launch's queue, kernel and range (None: empty).
type LaunchRange = (Arc<Queue>, Arc<Kernel>, Option<NdRange>);

/// What a launch of `kernel` on `command_queue` over the given sizes
/// would run, with the checks and error codes clEnqueueNDRangeKernel and
/// clGetKernelSuggestedLocalWorkSizeKHR share; None for an empty range.
pub(crate) fn launch_range(
    command_queue: cl_command_queue,
    kernel: cl_kernel,
    work_dim: cl_uint,
    offset: *const usize,
    global: *const usize,
    local: *const usize,
) -> Result<LaunchRange, cl_int> {
    let q = Queue::resolve(command_queue)?;
    let k = Kernel::resolve(kernel)?;
    if !(1..=3).contains(&work_dim) {
        return check_range_of(&q, &k, work_dim, [None; 3]).map(|r| (q, k, r));
    }
    let dims = work_dim as usize;
    let opt = |p: *const usize| {
        // SAFETY: a non-NULL array holds work_dim values.
        (!p.is_null()).then(|| unsafe { std::slice::from_raw_parts(p, dims) })
    };
    let range = check_range_of(&q, &k, work_dim, [opt(offset), opt(global), opt(local)])?;
    Ok((q, k, range))
}

/// launch_range of resolved objects, the offset, global and local sizes
/// given as slices of work_dim values (None: NULL).
pub(crate) fn check_range_of(
    q: &Queue,
    k: &Kernel,
    work_dim: cl_uint,
    [offset, global, local]: [Option<&[usize]>; 3],
) -> Result<Option<NdRange>, cl_int> {
    // "CL_INVALID_CONTEXT if context associated with command_queue and
    // kernel are not the same".
    if !Arc::ptr_eq(&q.context, k.context()) {
        return Err(CL_INVALID_CONTEXT);
    }
    // "CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built
    // program executable available for device associated with
    // command_queue."
    if !k.program.devices.iter().any(|d| Arc::ptr_eq(d, &q.device)) {
        return Err(CL_INVALID_PROGRAM_EXECUTABLE);
    }
    if !(1..=3).contains(&work_dim) {
        return Err(CL_INVALID_WORK_DIMENSION);
    }
    NdRange::new(
        k.info(),
        work_dim,
        offset,
        global,
        local,
        // "CL_INVALID_WORK_GROUP_SIZE if the program was compiled with
        // cl-uniform-work-group-size and the number of work-items specified
        // by global_work_size is not evenly divisible by size of work-group
        // given by local_work_size"; OpenCL C 1.x kernels too (clang marks
        // both alike).
        !caps().non_uniform_work_groups || k.info().uniform_work_groups,
        q.device.pool().threads,
    )
}

/// cl_khr_suggested_local_work_size: the local size a launch with a NULL
/// one would take.
pub(crate) fn clGetKernelSuggestedLocalWorkSizeKHR(
    command_queue: cl_command_queue,
    kernel: cl_kernel,
    work_dim: cl_uint,
    global_work_offset: *const usize,
    global_work_size: *const usize,
    suggested_local_work_size: *mut usize,
) -> Result<(), cl_int> {
    // "CL_INVALID_GLOBAL_WORK_SIZE if global_work_size is NULL or if any
    // of the values specified in global_work_size are 0."
    let dims = (work_dim as usize).min(3);
    let global = c_array(global_work_size, dims, CL_INVALID_GLOBAL_WORK_SIZE)?;
    if global_work_size.is_null() || global.contains(&0) {
        return Err(CL_INVALID_GLOBAL_WORK_SIZE);
    }
    let null = std::ptr::null();
    let (q, k, range) = launch_range(
        command_queue,
        kernel,
        work_dim,
        global_work_offset,
        global_work_size,
        null,
    )?;
    // "CL_INVALID_KERNEL_ARGS if all argument values for kernel have not
    // been set."
    Launch::new(&k, &q.device)?;
    if suggested_local_work_size.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    let range = range.ok_or(CL_INVALID_GLOBAL_WORK_SIZE)?;
    // SAFETY: the application gives room for work_dim values.
    let out = unsafe { std::slice::from_raw_parts_mut(suggested_local_work_size, dims) };
    out.copy_from_slice(&range.local[..dims]);
    Ok(())
}

/// clEnqueueNDRangeKernel and clEnqueueTask.
#[allow(clippy::too_many_arguments)]
fn enqueue_kernel(
    command_queue: cl_command_queue,
    kernel: cl_kernel,
    command_type: cl_command_type,
    work_dim: cl_uint,
    offset: *const usize,
    global: *const usize,
    local: *const usize,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    let (q, k, range) = launch_range(command_queue, kernel, work_dim, offset, global, local)?;
    let launch = Launch::new(&k, &q.device)?;
    let cmd = Command::new(&q, command_type, num_events, events, event)?
        .holding(launch.buffers())
        .here_if(launch.is_short(range.as_ref()));
    cmd.run(launch.work(&q.device, range), false)
}

/// clCommandNDRangeKernelKHR's launch, not mutable: checked and snapshot
/// as clEnqueueNDRangeKernel does.
pub(crate) fn record_kernel(
    command_queue: cl_command_queue,
    kernel: cl_kernel,
    work_dim: cl_uint,
    (offset, global, local): (*const usize, *const usize, *const usize),
    sink: Sink,
) -> Result<(), cl_int> {
    let (q, k, range) = launch_range(command_queue, kernel, work_dim, offset, global, local)?;
    let launch = Launch::new(&k, &q.device)?;
    let cmd = Command::to(&q, CL_COMMAND_NDRANGE_KERNEL as cl_command_type, sink)?
        .holding(launch.buffers());
    cmd.run_replayable(launch.action(&q.device, range), false)
}

pub(crate) fn clCreateKernel(
    program: cl_program,
    kernel_name: *const c_char,
) -> Result<cl_kernel, cl_int> {
    let p = Program::resolve(program)?;
    // "CL_INVALID_VALUE if kernel_name is NULL"; any bytes are a name,
    // and bytes that are no kernel's (not UTF-8, say) are
    // "CL_INVALID_KERNEL_NAME if kernel_name is not found in program".
    let name = c_bytes(kernel_name, CL_INVALID_VALUE)?;
    Ok(publish(Kernel::new(&p, name)?))
}

pub(crate) fn clCreateKernelsInProgram(
    program: cl_program,
    num_kernels: cl_uint,
    kernels: *mut cl_kernel,
    num_kernels_ret: *mut cl_uint,
) -> Result<(), cl_int> {
    let p = Program::resolve(program)?;
    let all = Kernel::all(&p)?;
    // "CL_INVALID_VALUE if kernels is not NULL and num_kernels is less
    // than the number of kernels in program."
    if !kernels.is_null() && (num_kernels as usize) < all.len() {
        return Err(CL_INVALID_VALUE);
    }
    if kernels.is_null() {
        crate::api::util::write_out(num_kernels_ret, all.len() as cl_uint);
        return Ok(());
    }
    let handles: Vec<cl_kernel> = all.into_iter().map(publish).collect();
    write_list(&handles, num_kernels.max(1), kernels, num_kernels_ret)
}

pub(crate) fn clRetainKernel(kernel: cl_kernel) -> Result<(), cl_int> {
    retain::<Kernel>(kernel)
}

pub(crate) fn clReleaseKernel(kernel: cl_kernel) -> Result<(), cl_int> {
    release::<Kernel>(kernel)
}

pub(crate) fn clSetKernelArg(
    kernel: cl_kernel,
    arg_index: cl_uint,
    arg_size: usize,
    arg_value: *const c_void,
) -> Result<(), cl_int> {
    set_arg(&*Kernel::resolve(kernel)?, arg_index, arg_size, arg_value)
}

/// clSetKernelArg on a resolved kernel (and a mutable launch's update).
pub(crate) fn set_arg(
    k: &Kernel,
    arg_index: cl_uint,
    arg_size: usize,
    arg_value: *const c_void,
) -> Result<(), cl_int> {
    let space = k
        .info()
        .args
        .get(arg_index as usize)
        .ok_or(CL_INVALID_ARG_INDEX)?
        .space;
    // Read the value only when its size is right (a wrong size is
    // answered without touching it), and never for a __local argument
    // (whose non-NULL value is an error).
    let expected = match space {
        ArgSpace::Local => None,
        ArgSpace::Global | ArgSpace::Constant => Some(std::mem::size_of::<cl_mem>()),
        ArgSpace::Private => Some(k.info().args[arg_index as usize].size),
    };
    let value: Option<&[u8]> = if arg_value.is_null() {
        None
    } else if expected == Some(arg_size) {
        // SAFETY: the application passes arg_size bytes at arg_value.
        Some(unsafe { std::slice::from_raw_parts(arg_value as *const u8, arg_size) })
    } else {
        Some(&[])
    };
    k.set_arg(arg_index, arg_size, value)
}

pub(crate) fn clGetKernelInfo(
    kernel: cl_kernel,
    param_name: cl_kernel_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    let k = Kernel::resolve(kernel)?;
    kernel_info(
        &k,
        kernel,
        param_name,
        &InfoOut::new(param_value_size, param_value, param_value_size_ret),
    )
}

pub(crate) fn clGetKernelWorkGroupInfo(
    kernel: cl_kernel,
    device: cl_device_id,
    param_name: cl_kernel_work_group_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    let k = Kernel::resolve(kernel)?;
    kernel_device(&k, device)?;
    work_group_info(
        &k,
        param_name,
        &InfoOut::new(param_value_size, param_value, param_value_size_ret),
    )
}

pub(crate) fn clGetKernelArgInfo(
    kernel: cl_kernel,
    arg_indx: cl_uint,
    param_name: cl_kernel_arg_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    let k = Kernel::resolve(kernel)?;
    arg_info(
        &k,
        arg_indx,
        param_name,
        &InfoOut::new(param_value_size, param_value, param_value_size_ret),
    )
}

pub(crate) fn clEnqueueNDRangeKernel(
    command_queue: cl_command_queue,
    kernel: cl_kernel,
    work_dim: cl_uint,
    global_work_offset: *const usize,
    global_work_size: *const usize,
    local_work_size: *const usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    enqueue_kernel(
        command_queue,
        kernel,
        CL_COMMAND_NDRANGE_KERNEL,
        work_dim,
        global_work_offset,
        global_work_size,
        local_work_size,
        num_events_in_wait_list,
        event_wait_list,
        event,
    )
}

pub(crate) fn clEnqueueTask(
    command_queue: cl_command_queue,
    kernel: cl_kernel,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    // "equivalent to calling clEnqueueNDRangeKernel with work_dim set to
    // 1, global_work_offset set to NULL, global_work_size[0] set to 1,
    // and local_work_size[0] set to 1."
    let one = [1usize];
    enqueue_kernel(
        command_queue,
        kernel,
        CL_COMMAND_TASK,
        1,
        std::ptr::null(),
        one.as_ptr(),
        one.as_ptr(),
        num_events_in_wait_list,
        event_wait_list,
        event,
    )
}

pub(crate) fn clEnqueueNativeKernel(
    command_queue: cl_command_queue,
    user_func: Option<NativeFn>,
    args: *mut c_void,
    cb_args: usize,
    num_mem_objects: cl_uint,
    mem_list: *const cl_mem,
    args_mem_loc: *mut *const c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
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
    let locs = c_array(
        args_mem_loc as *const *const c_void,
        num_mem_objects as usize,
        CL_INVALID_VALUE,
    )?;
    let mut copy = block.to_vec();
    let held =
        crate::api::native_mem::patch_mem_args(&q, &mut copy, args as *const u8, mems, locs)?;
    let args = NativeArgs(copy);
    let cmd = Command::new(
        &q,
        CL_COMMAND_NATIVE_KERNEL as cl_command_type,
        num_events_in_wait_list,
        event_wait_list,
        event,
    )?
    .holding(held);
    cmd.run(
        Box::new(move || {
            let mut args = args;
            let ptr = if args.0.is_empty() {
                std::ptr::null_mut()
            } else {
                args.0.as_mut_ptr() as *mut c_void
            };
            // SAFETY: the application's native kernel, called with its own
            // copy of the argument block as the spec prescribes.
            unsafe { func(ptr) };
            Ok(())
        }),
        false,
    )
}

pub(crate) fn clSetKernelArgSVMPointer(
    kernel: cl_kernel,
    arg_index: cl_uint,
    arg_value: *const c_void,
) -> Result<(), cl_int> {
    Kernel::resolve(kernel)?.set_arg_svm(arg_index, arg_value)
}

pub(crate) fn clSetKernelExecInfo(
    kernel: cl_kernel,
    param_name: cl_kernel_exec_info,
    param_value_size: usize,
    param_value: *const c_void,
) -> Result<(), cl_int> {
    set_exec_info(
        &*Kernel::resolve(kernel)?,
        param_name,
        param_value_size,
        param_value,
    )
}

/// clSetKernelExecInfo on a resolved kernel (and a mutable launch's
/// update).
pub(crate) fn set_exec_info(
    k: &Kernel,
    param_name: cl_kernel_exec_info,
    param_value_size: usize,
    param_value: *const c_void,
) -> Result<(), cl_int> {
    if let Some(result) = crate::api::usm::exec_info(param_name, param_value_size, param_value) {
        return result;
    }
    // CL_KERNEL_EXEC_INFO_SVM_PTRS: "To specify that no SVM allocations
    // will be accessed by a kernel other than those set as kernel
    // arguments, specify an empty set by passing param_value_size
    // equal to zero and param_value equal to NULL."
    if param_name == CL_KERNEL_EXEC_INFO_SVM_PTRS as cl_kernel_exec_info
        && param_value_size == 0
        && param_value.is_null()
    {
        k.set_svm_ptrs(Vec::new());
        return Ok(());
    }
    if param_value.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    match param_name {
        CL_KERNEL_EXEC_INFO_SVM_PTRS => {
            let n = std::mem::size_of::<*const c_void>();
            if param_value_size == 0 || !param_value_size.is_multiple_of(n) {
                return Err(CL_INVALID_VALUE);
            }
            let ptrs = c_array(
                param_value as *const usize,
                param_value_size / n,
                CL_INVALID_VALUE,
            )?;
            k.set_svm_ptrs(ptrs.to_vec());
            Ok(())
        }
        CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM => {
            if param_value_size != std::mem::size_of::<cl_bool>() {
                return Err(CL_INVALID_VALUE);
            }
            // SAFETY: checked to hold a cl_bool.
            let on =
                unsafe { (param_value as *const cl_bool).read_unaligned() } != CL_FALSE as cl_bool;
            // "CL_INVALID_OPERATION if param_name is
            // CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM and param_value
            // is CL_TRUE but no devices in the context associated with
            // kernel support fine-grain system SVM allocations": the
            // device does (CL_DEVICE_SVM_FINE_GRAIN_SYSTEM): a kernel
            // reaches any host memory at its own address.
            k.set_fine_grain_system(on);
            Ok(())
        }
        _ => Err(CL_INVALID_VALUE),
    }
}

pub(crate) fn clCloneKernel(source_kernel: cl_kernel) -> Result<cl_kernel, cl_int> {
    Ok(publish(Kernel::resolve(source_kernel)?.clone_kernel()))
}

pub(crate) fn clGetKernelSubGroupInfo(
    kernel: cl_kernel,
    device: cl_device_id,
    param_name: cl_kernel_sub_group_info,
    input_value_size: usize,
    input_value: *const c_void,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    let k = Kernel::resolve(kernel)?;
    kernel_device(&k, device)?;
    sub_group_info(
        &k,
        param_name,
        input_value_size,
        input_value,
        &InfoOut::new(param_value_size, param_value, param_value_size_ret),
    )
}

pub(crate) fn clGetKernelSubGroupInfoKHR(
    kernel: cl_kernel,
    device: cl_device_id,
    param_name: cl_kernel_sub_group_info,
    input_value_size: usize,
    input_value: *const c_void,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    // cl_khr_subgroups: the same queries (its two among them).
    clGetKernelSubGroupInfo(
        kernel,
        device,
        param_name,
        input_value_size,
        input_value,
        param_value_size,
        param_value,
        param_value_size_ret,
    )
}
