//! Entry points: unified shared memory (cl_intel_unified_shared_memory),
//! the allocations SYCL (DPC++) and other SPIR-V clients use instead of
//! SVM.
//!
//! The device is the host CPU: host, device and shared allocations are one
//! memory, blocks of the SVM registry (core::svm) that remember their kind;
//! kernels read them as they read SVM pointers, with the host's C11
//! atomics; migration and advice change nothing.

use crate::api::enqueue::{Command, Sink};
use crate::api::svm::{fill_command, memcpy_command};
use crate::api::util::{c_array, migration_flags_known, property_pairs, InfoOut};
use crate::cl::*;
use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::kernel::Kernel;
use crate::core::object::{self, handle_of};
use crate::core::queue::Queue;
use crate::core::svm::{self, Usm};
use std::ffi::c_void;

/// Every capability, for every kind of allocation: the device is the host,
/// and its atomics are the host's.
pub(crate) const CAPABILITIES: cl_device_unified_shared_memory_capabilities_intel =
    (CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL
        | CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL
        | CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL
        | CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL)
        as cl_device_unified_shared_memory_capabilities_intel;

/// The flags CL_MEM_ALLOC_FLAGS_INTEL knows.
const KNOWN_ALLOC_FLAGS: cl_mem_alloc_flags_intel = (CL_MEM_ALLOC_WRITE_COMBINED_INTEL
    | CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL
    | CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL)
    as cl_mem_alloc_flags_intel;

/// The allocation flags of a property list: "CL_INVALID_PROPERTY if a
/// memory property name in properties is not a supported property name,
/// if the value specified for a supported property name is not valid, or
/// if the same property name is specified more than once."
fn alloc_flags(
    properties: *const cl_mem_properties_intel,
) -> Result<cl_mem_alloc_flags_intel, cl_int> {
    let placement = (CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL
        | CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL)
        as cl_mem_alloc_flags_intel;
    let mut flags = None;
    for (name, value) in property_pairs(properties) {
        if name != CL_MEM_ALLOC_FLAGS_INTEL as cl_mem_properties_intel || flags.is_some() {
            return Err(CL_INVALID_PROPERTY);
        }
        if value & !KNOWN_ALLOC_FLAGS != 0 || value & placement == placement {
            return Err(CL_INVALID_PROPERTY);
        }
        flags = Some(value);
    }
    Ok(flags.unwrap_or(0))
}

/// The device of a device or shared allocation: "CL_INVALID_DEVICE if
/// device is not a valid device or is not associated with context".
fn device_of(context: &Context, device: cl_device_id) -> Result<std::sync::Arc<Device>, cl_int> {
    let d = Device::resolve(device)?;
    if !context.has_device(&d) {
        return Err(CL_INVALID_DEVICE);
    }
    Ok(d)
}

fn alloc(
    context: cl_context,
    kind: cl_unified_shared_memory_type_intel,
    device: Option<cl_device_id>,
    properties: *const cl_mem_properties_intel,
    size: usize,
    alignment: cl_uint,
) -> Result<*mut c_void, cl_int> {
    let ctx = Context::resolve(context)?;
    let device = device.map(|d| device_of(&ctx, d)).transpose()?;
    let flags = alloc_flags(properties)?;
    let usm = Usm {
        kind,
        device,
        flags,
    };
    svm::alloc_usm(&ctx, usm, size, alignment)
}

pub(crate) fn clHostMemAllocINTEL(
    context: cl_context,
    properties: *const cl_mem_properties_intel,
    size: usize,
    alignment: cl_uint,
) -> Result<*mut c_void, cl_int> {
    alloc(
        context,
        CL_MEM_TYPE_HOST_INTEL,
        None,
        properties,
        size,
        alignment,
    )
}

pub(crate) fn clDeviceMemAllocINTEL(
    context: cl_context,
    device: cl_device_id,
    properties: *const cl_mem_properties_intel,
    size: usize,
    alignment: cl_uint,
) -> Result<*mut c_void, cl_int> {
    let kind = CL_MEM_TYPE_DEVICE_INTEL;
    alloc(context, kind, Some(device), properties, size, alignment)
}

/// A shared allocation may name no device ("associated with no specific
/// device").
pub(crate) fn clSharedMemAllocINTEL(
    context: cl_context,
    device: cl_device_id,
    properties: *const cl_mem_properties_intel,
    size: usize,
    alignment: cl_uint,
) -> Result<*mut c_void, cl_int> {
    let device = (!device.is_null()).then_some(device);
    let kind = CL_MEM_TYPE_SHARED_INTEL;
    alloc(context, kind, device, properties, size, alignment)
}

/// Frees at once: the application makes sure no command still uses it
/// (clMemBlockingFreeINTEL waits). NULL is no error; a pointer that is not
/// the start of one of the context's allocations is CL_INVALID_VALUE.
pub(crate) fn clMemFreeINTEL(context: cl_context, ptr: *mut c_void) -> Result<(), cl_int> {
    let ctx = Context::resolve(context)?;
    if ptr.is_null() || svm::free_usm(&ctx, ptr) {
        Ok(())
    } else {
        Err(CL_INVALID_VALUE)
    }
}

/// "Blocks until all previously enqueued commands that may access ptr have
/// completed": every command queue of the context is finished first. From
/// an event callback (SYCL frees its temporaries so), on the thread that
/// completed a command, waiting may need that very thread: there the
/// pointer is freed once those commands end, without blocking. It is
/// checked at once either way.
pub(crate) fn clMemBlockingFreeINTEL(context: cl_context, ptr: *mut c_void) -> Result<(), cl_int> {
    let ctx = Context::resolve(context)?;
    if ptr.is_null() {
        return Ok(());
    }
    if !svm::starts_usm_allocation(&ctx, ptr) {
        return Err(CL_INVALID_VALUE);
    }
    let pending: Vec<_> = object::live::<Queue>()
        .into_iter()
        .filter(|q| std::ptr::eq(&*q.context, &*ctx))
        .flat_map(|q| q.pending())
        .collect();
    let address = ptr as usize;
    let free_after_pending = move || {
        for ev in &pending {
            ev.wait();
        }
        svm::free_usm(&ctx, address as *mut c_void);
    };
    if crate::core::event::in_event_callback() {
        std::thread::spawn(free_after_pending);
    } else {
        free_after_pending();
    }
    Ok(())
}

pub(crate) fn clGetMemAllocInfoINTEL(
    context: cl_context,
    ptr: *const c_void,
    param_name: cl_mem_info_intel,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    let ctx = Context::resolve(context)?;
    let out = InfoOut::new(param_value_size, param_value, param_value_size_ret);
    // What is not a USM allocation of the context is of unknown type, at
    // no base, of no size.
    let found = svm::describe(&ctx, ptr).filter(|f| f.usm.is_some());
    let usm = found.as_ref().and_then(|f| f.usm.as_ref());
    match param_name {
        CL_MEM_ALLOC_TYPE_INTEL => out.write(&usm.map_or(CL_MEM_TYPE_UNKNOWN_INTEL, |u| u.kind)),
        CL_MEM_ALLOC_BASE_PTR_INTEL => out.write(
            &found
                .as_ref()
                .map_or(std::ptr::null_mut(), |f| f.base as *mut c_void),
        ),
        CL_MEM_ALLOC_SIZE_INTEL => out.write(&found.as_ref().map_or(0, |f| f.size)),
        CL_MEM_ALLOC_DEVICE_INTEL => out.write(
            &usm.and_then(|u| u.device.as_ref())
                .map_or(std::ptr::null_mut(), handle_of),
        ),
        CL_MEM_ALLOC_FLAGS_INTEL => out.write(&usm.map_or(0, |u| u.flags)),
        _ => Err(CL_INVALID_VALUE),
    }
}

/// A USM pointer as a kernel argument: as an SVM pointer is.
pub(crate) fn clSetKernelArgMemPointerINTEL(
    kernel: cl_kernel,
    arg_index: cl_uint,
    arg_value: *const c_void,
) -> Result<(), cl_int> {
    Kernel::resolve(kernel)?.set_arg_svm(arg_index, arg_value)
}

pub(crate) fn clEnqueueMemsetINTEL(
    command_queue: cl_command_queue,
    dst_ptr: *mut c_void,
    value: cl_int,
    size: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    // The byte is value's low byte, as memset's.
    let byte = value as u8;
    let wait = Sink::Queue(num_events_in_wait_list, event_wait_list, event);
    let kind = CL_COMMAND_MEMFILL_INTEL as cl_command_type;
    let pattern = &byte as *const u8 as *const c_void;
    fill_command(command_queue, kind, dst_ptr, pattern, 1, size, wait)
}

pub(crate) fn clEnqueueMemFillINTEL(
    command_queue: cl_command_queue,
    dst_ptr: *mut c_void,
    pattern: *const c_void,
    pattern_size: usize,
    size: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    let wait = Sink::Queue(num_events_in_wait_list, event_wait_list, event);
    let kind = CL_COMMAND_MEMFILL_INTEL as cl_command_type;
    fill_command(
        command_queue,
        kind,
        dst_ptr,
        pattern,
        pattern_size,
        size,
        wait,
    )
}

pub(crate) fn clEnqueueMemcpyINTEL(
    command_queue: cl_command_queue,
    blocking: cl_bool,
    dst_ptr: *mut c_void,
    src_ptr: *const c_void,
    size: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    let wait = Sink::Queue(num_events_in_wait_list, event_wait_list, event);
    let kind = CL_COMMAND_MEMCPY_INTEL as cl_command_type;
    memcpy_command(command_queue, kind, blocking, dst_ptr, src_ptr, size, wait)
}

/// An ordered command that changes nothing (the memory is already where
/// the device reads it), after the checks every USM command makes.
fn nothing(
    command_queue: cl_command_queue,
    kind: cl_command_type,
    ptr: *const c_void,
    sink: Sink,
) -> Result<(), cl_int> {
    let queue = Queue::resolve(command_queue)?;
    if ptr.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    Command::to(&queue, kind, sink)?.run_nothing(false)
}

pub(crate) fn clEnqueueMigrateMemINTEL(
    command_queue: cl_command_queue,
    ptr: *const c_void,
    _size: usize,
    flags: cl_mem_migration_flags,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    if !migration_flags_known(flags) {
        return Err(CL_INVALID_VALUE);
    }
    let wait = Sink::Queue(num_events_in_wait_list, event_wait_list, event);
    nothing(
        command_queue,
        CL_COMMAND_MIGRATEMEM_INTEL as cl_command_type,
        ptr,
        wait,
    )
}

/// Advice is a hint; a CPU has no use for any.
pub(crate) fn clEnqueueMemAdviseINTEL(
    command_queue: cl_command_queue,
    ptr: *const c_void,
    _size: usize,
    _advice: cl_mem_advice_intel,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    let wait = Sink::Queue(num_events_in_wait_list, event_wait_list, event);
    nothing(
        command_queue,
        CL_COMMAND_MEMADVISE_INTEL as cl_command_type,
        ptr,
        wait,
    )
}

/// clSetKernelExecInfo's USM names: the indirect-access switches (a
/// cl_bool each) and the list of USM pointers a kernel may reach; on a
/// CPU every allocation is reachable, so they are checked and kept no
/// further. None for other names.
pub(crate) fn exec_info(
    param_name: cl_kernel_exec_info,
    param_value_size: usize,
    param_value: *const c_void,
) -> Option<Result<(), cl_int>> {
    match param_name {
        CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL
        | CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL
        | CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL => Some(
            match param_value_size == std::mem::size_of::<cl_bool>() && !param_value.is_null() {
                true => Ok(()),
                false => Err(CL_INVALID_VALUE),
            },
        ),
        CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL => {
            let n = std::mem::size_of::<*const c_void>();
            Some(if param_value_size == 0 {
                Ok(())
            } else if !param_value_size.is_multiple_of(n) {
                Err(CL_INVALID_VALUE)
            } else {
                c_array(
                    param_value as *const usize,
                    param_value_size / n,
                    CL_INVALID_VALUE,
                )
                .map(|_| ())
            })
        }
        _ => None,
    }
}
