//! Entry points: cl_khr_command_buffer 0.9.8. A command is recorded by the
//! same checks and the same work as its clEnqueue* twin (the `Sink` those
//! share), bound for the buffer instead of a queue; an enqueue of the
//! buffer is one command of its queue.

use crate::api::enqueue::{Command, Recording, Sink};
use crate::api::util::{c_array, property_list, property_pairs, InfoOut};
use crate::cl::*;
use crate::core::command_buffer::*;
use crate::core::object::{self, handle_of, publish};
use crate::core::queue::Queue;
use std::ffi::c_void;
use std::sync::Arc;

/// CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR: kernels that printf or
/// enqueue kernels run in a buffer as on a queue (the launch is the same
/// work), and a buffer may be enqueued again while an enqueue of it is
/// pending (its commands are immutable once recorded; an update of a
/// mutable one reaches later enqueues only).
pub(crate) const CAPABILITIES: cl_device_command_buffer_capabilities_khr =
    (CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR
        | CL_COMMAND_BUFFER_CAPABILITY_DEVICE_SIDE_ENQUEUE_KHR
        | CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR)
        as cl_device_command_buffer_capabilities_khr;

/// CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR: a buffer may be
/// created for, and enqueued on, in-order and out-of-order queues, with
/// profiling or without.
pub(crate) const SUPPORTED_QUEUE_PROPERTIES: cl_command_queue_properties =
    (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE)
        as cl_command_queue_properties;

/// CL_COMMAND_BUFFER_FLAGS_KHR bits a buffer may be created with.
const KNOWN_FLAGS: cl_command_buffer_flags_khr = CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR
    as cl_command_buffer_flags_khr
    | CL_COMMAND_BUFFER_MUTABLE_KHR as cl_command_buffer_flags_khr;

/// "CL_INCOMPATIBLE_COMMAND_QUEUE_KHR if the properties of [a queue] do
/// not contain the minimum properties specified by
/// CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR" (none), or hold
/// one CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR lacks; an
/// on-device queue is no host queue at all.
fn command_buffer_queue(handle: cl_command_queue) -> Result<Arc<Queue>, cl_int> {
    let q = Queue::resolve(handle)?;
    if q.on_device.is_some() {
        return Err(CL_INVALID_COMMAND_QUEUE);
    }
    if q.properties & !SUPPORTED_QUEUE_PROPERTIES != 0 {
        return Err(CL_INCOMPATIBLE_COMMAND_QUEUE_KHR);
    }
    Ok(q)
}

pub(crate) fn clCreateCommandBufferKHR(
    num_queues: cl_uint,
    queues: *const cl_command_queue,
    properties: *const cl_command_buffer_properties_khr,
) -> Result<cl_command_buffer_khr, cl_int> {
    // "CL_INVALID_VALUE if num_queues is not one" (without
    // cl_khr_command_buffer_multi_device), "... if queues is NULL".
    if num_queues != 1 || queues.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    let handles = c_array(queues, 1, CL_INVALID_VALUE)?;
    let queue = command_buffer_queue(handles[0])?;
    // "CL_INVALID_VALUE if values specified in properties are not valid,
    // or if the same property name is specified more than once."
    let pairs = property_pairs(properties);
    let mut flags = 0;
    for (i, &(name, value)) in pairs.iter().enumerate() {
        if pairs[..i].iter().any(|&(n, _)| n == name) {
            return Err(CL_INVALID_VALUE);
        }
        match name {
            n if n == CL_COMMAND_BUFFER_FLAGS_KHR as cl_command_buffer_properties_khr => {
                if value & !KNOWN_FLAGS != 0 {
                    return Err(CL_INVALID_VALUE);
                }
                flags = value;
            }
            CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR => {
                if value & !CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR != 0 {
                    return Err(CL_INVALID_VALUE);
                }
            }
            _ => return Err(CL_INVALID_VALUE),
        }
    }
    let buffer = CommandBuffer::new(queue, property_list(properties), flags);
    Ok(publish(buffer))
}

pub(crate) fn clFinalizeCommandBufferKHR(
    command_buffer: cl_command_buffer_khr,
) -> Result<(), cl_int> {
    CommandBuffer::resolve(command_buffer)?.finalize()
}

pub(crate) fn clRetainCommandBufferKHR(
    command_buffer: cl_command_buffer_khr,
) -> Result<(), cl_int> {
    object::retain::<CommandBuffer>(command_buffer)
}

pub(crate) fn clReleaseCommandBufferKHR(
    command_buffer: cl_command_buffer_khr,
) -> Result<(), cl_int> {
    object::release::<CommandBuffer>(command_buffer)
}

pub(crate) fn clEnqueueCommandBufferKHR(
    num_queues: cl_uint,
    queues: *mut cl_command_queue,
    command_buffer: cl_command_buffer_khr,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    let buffer = CommandBuffer::resolve(command_buffer)?;
    // "CL_INVALID_OPERATION if command_buffer has not been finalized", or
    // (cl_khr_command_buffer_mutable_dispatch) is not executable: a launch
    // still lacks an argument. The work is the commands as they are now.
    let work = buffer.work().ok_or(CL_INVALID_OPERATION)?;
    // "CL_INVALID_VALUE if queues is NULL and num_queues is > 0, or queues
    // is not NULL and num_queues is 0", "... if num_queues is > 0 and not
    // the same value as num_queues set on command_buffer creation".
    let substitutes = c_array(
        queues as *const cl_command_queue,
        num_queues as usize,
        CL_INVALID_VALUE,
    )?;
    if substitutes.len() > 1 {
        return Err(CL_INVALID_VALUE);
    }
    let queue = match substitutes.first() {
        None => buffer.queue.clone(),
        Some(&handle) => {
            let q = command_buffer_queue(handle)?;
            // "CL_INVALID_CONTEXT if any element of queues does not have
            // the same context as the command-queue set on command_buffer
            // creation", "CL_INVALID_DEVICE if ... not ... the same device".
            if !Arc::ptr_eq(&q.context, &buffer.context) {
                return Err(CL_INVALID_CONTEXT);
            }
            if !Arc::ptr_eq(&q.device, &buffer.queue.device) {
                return Err(CL_INVALID_DEVICE);
            }
            q
        }
    };
    let cmd = Command::new(
        &queue,
        CL_COMMAND_COMMAND_BUFFER_KHR as cl_command_type,
        num_events_in_wait_list,
        event_wait_list,
        event,
    )?
    .holding(buffer.held());
    cmd.run(work, false)
}

pub(crate) fn clGetCommandBufferInfoKHR(
    command_buffer: cl_command_buffer_khr,
    param_name: cl_command_buffer_info_khr,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    let buffer = CommandBuffer::resolve(command_buffer)?;
    let out = InfoOut::new(param_value_size, param_value, param_value_size_ret);
    match param_name {
        CL_COMMAND_BUFFER_QUEUES_KHR => out.write(&vec![handle_of(&buffer.queue)]),
        CL_COMMAND_BUFFER_NUM_QUEUES_KHR => out.write(&(1 as cl_uint)),
        CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR => {
            out.write(&object::app_ref_count::<CommandBuffer>(command_buffer)?)
        }
        CL_COMMAND_BUFFER_STATE_KHR => out.write(&buffer.state()),
        CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR => out.write(&buffer.properties),
        CL_COMMAND_BUFFER_CONTEXT_KHR => out.write(&handle_of(&buffer.context)),
        _ => Err(CL_INVALID_VALUE),
    }
}

/// What every clCommand*KHR checks before its command's own checks, in
/// the spec's words: "CL_INVALID_COMMAND_BUFFER_KHR if command_buffer is
/// not a valid command-buffer", "CL_INVALID_COMMAND_QUEUE if command_queue
/// is not NULL" (without cl_khr_command_buffer_multi_device),
/// "CL_INVALID_OPERATION if command_buffer has been finalized",
/// "CL_INVALID_VALUE if mutable_handle is not NULL" (but for kernel
/// launches, which pass `mutable_allowed`), and
/// "CL_INVALID_SYNC_POINT_WAIT_LIST_KHR if sync_point_wait_list is NULL and
/// num_sync_points_in_wait_list is > 0, or sync_point_wait_list is not NULL
/// and num_sync_points_in_wait_list is 0, or if synchronization-point
/// objects in sync_point_wait_list are not valid synchronization-points".
struct Record<'a> {
    buffer: Arc<CommandBuffer>,
    waits: &'a [cl_sync_point_khr],
}

impl<'a> Record<'a> {
    fn check(
        command_buffer: cl_command_buffer_khr,
        command_queue: cl_command_queue,
        (num_sync_points, sync_points): (cl_uint, *const cl_sync_point_khr),
        mutable_handle: *mut cl_mutable_command_khr,
        mutable_allowed: bool,
    ) -> Result<Record<'a>, cl_int> {
        let buffer = CommandBuffer::resolve(command_buffer)?;
        if !command_queue.is_null() {
            return Err(CL_INVALID_COMMAND_QUEUE);
        }
        buffer.check_recording()?;
        if !mutable_handle.is_null() && !mutable_allowed {
            return Err(CL_INVALID_VALUE);
        }
        let waits = c_array(
            sync_points,
            num_sync_points as usize,
            CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
        )?;
        buffer.check_sync_points(waits)?;
        Ok(Record { buffer, waits })
    }

    /// `check` of a command other than a kernel launch: no mutable handle,
    /// and "CL_INVALID_VALUE if values specified in properties are not
    /// valid" (none are defined for them).
    fn command(
        command_buffer: cl_command_buffer_khr,
        (command_queue, properties): (cl_command_queue, *const cl_command_properties_khr),
        sync_points: (cl_uint, *const cl_sync_point_khr),
        mutable_handle: *mut cl_mutable_command_khr,
    ) -> Result<Record<'a>, cl_int> {
        let record = Record::check(
            command_buffer,
            command_queue,
            sync_points,
            mutable_handle,
            false,
        )?;
        if !property_pairs(properties).is_empty() {
            return Err(CL_INVALID_VALUE);
        }
        Ok(record)
    }

    /// The queue the command is checked against: the buffer's.
    fn queue(&self) -> cl_command_queue {
        handle_of(&self.buffer.queue)
    }

    fn sink(&self, sync_point: *mut cl_sync_point_khr) -> Sink<'_> {
        Sink::Record(Recording {
            buffer: &self.buffer,
            waits: self.waits,
            sync_point,
        })
    }
}

pub(crate) fn clCommandBarrierWithWaitListKHR(
    command_buffer: cl_command_buffer_khr,
    command_queue: cl_command_queue,
    properties: *const cl_command_properties_khr,
    num_sync_points_in_wait_list: cl_uint,
    sync_point_wait_list: *const cl_sync_point_khr,
    sync_point: *mut cl_sync_point_khr,
    mutable_handle: *mut cl_mutable_command_khr,
) -> Result<(), cl_int> {
    let record = Record::command(
        command_buffer,
        (command_queue, properties),
        (num_sync_points_in_wait_list, sync_point_wait_list),
        mutable_handle,
    )?;
    // Commands run in record order: a barrier orders nothing more.
    let queue = record.buffer.queue.clone();
    Command::to(
        &queue,
        CL_COMMAND_BARRIER as cl_command_type,
        record.sink(sync_point),
    )?
    .run_replayable(|| Ok(()), false)
}

pub(crate) fn clCommandCopyBufferKHR(
    command_buffer: cl_command_buffer_khr,
    command_queue: cl_command_queue,
    properties: *const cl_command_properties_khr,
    src_buffer: cl_mem,
    dst_buffer: cl_mem,
    src_offset: usize,
    dst_offset: usize,
    size: usize,
    num_sync_points_in_wait_list: cl_uint,
    sync_point_wait_list: *const cl_sync_point_khr,
    sync_point: *mut cl_sync_point_khr,
    mutable_handle: *mut cl_mutable_command_khr,
) -> Result<(), cl_int> {
    let record = Record::command(
        command_buffer,
        (command_queue, properties),
        (num_sync_points_in_wait_list, sync_point_wait_list),
        mutable_handle,
    )?;
    crate::api::transfer::copy_buffer(
        record.queue(),
        (src_buffer, dst_buffer),
        (src_offset, dst_offset),
        size,
        record.sink(sync_point),
    )
}

pub(crate) fn clCommandCopyBufferRectKHR(
    command_buffer: cl_command_buffer_khr,
    command_queue: cl_command_queue,
    properties: *const cl_command_properties_khr,
    src_buffer: cl_mem,
    dst_buffer: cl_mem,
    src_origin: *const usize,
    dst_origin: *const usize,
    region: *const usize,
    src_row_pitch: usize,
    src_slice_pitch: usize,
    dst_row_pitch: usize,
    dst_slice_pitch: usize,
    num_sync_points_in_wait_list: cl_uint,
    sync_point_wait_list: *const cl_sync_point_khr,
    sync_point: *mut cl_sync_point_khr,
    mutable_handle: *mut cl_mutable_command_khr,
) -> Result<(), cl_int> {
    let record = Record::command(
        command_buffer,
        (command_queue, properties),
        (num_sync_points_in_wait_list, sync_point_wait_list),
        mutable_handle,
    )?;
    crate::api::transfer::copy_buffer_rect(
        record.queue(),
        (src_buffer, dst_buffer),
        (src_origin, dst_origin, region),
        (src_row_pitch, src_slice_pitch),
        (dst_row_pitch, dst_slice_pitch),
        record.sink(sync_point),
    )
}

pub(crate) fn clCommandCopyBufferToImageKHR(
    command_buffer: cl_command_buffer_khr,
    command_queue: cl_command_queue,
    properties: *const cl_command_properties_khr,
    src_buffer: cl_mem,
    dst_image: cl_mem,
    src_offset: usize,
    dst_origin: *const usize,
    region: *const usize,
    num_sync_points_in_wait_list: cl_uint,
    sync_point_wait_list: *const cl_sync_point_khr,
    sync_point: *mut cl_sync_point_khr,
    mutable_handle: *mut cl_mutable_command_khr,
) -> Result<(), cl_int> {
    let record = Record::command(
        command_buffer,
        (command_queue, properties),
        (num_sync_points_in_wait_list, sync_point_wait_list),
        mutable_handle,
    )?;
    crate::api::image::copy_buffer_to_image(
        record.queue(),
        (src_buffer, dst_image),
        src_offset,
        (dst_origin, region),
        record.sink(sync_point),
    )
}

pub(crate) fn clCommandCopyImageKHR(
    command_buffer: cl_command_buffer_khr,
    command_queue: cl_command_queue,
    properties: *const cl_command_properties_khr,
    src_image: cl_mem,
    dst_image: cl_mem,
    src_origin: *const usize,
    dst_origin: *const usize,
    region: *const usize,
    num_sync_points_in_wait_list: cl_uint,
    sync_point_wait_list: *const cl_sync_point_khr,
    sync_point: *mut cl_sync_point_khr,
    mutable_handle: *mut cl_mutable_command_khr,
) -> Result<(), cl_int> {
    let record = Record::command(
        command_buffer,
        (command_queue, properties),
        (num_sync_points_in_wait_list, sync_point_wait_list),
        mutable_handle,
    )?;
    crate::api::image::copy_image(
        record.queue(),
        (src_image, dst_image),
        (src_origin, dst_origin, region),
        record.sink(sync_point),
    )
}

pub(crate) fn clCommandCopyImageToBufferKHR(
    command_buffer: cl_command_buffer_khr,
    command_queue: cl_command_queue,
    properties: *const cl_command_properties_khr,
    src_image: cl_mem,
    dst_buffer: cl_mem,
    src_origin: *const usize,
    region: *const usize,
    dst_offset: usize,
    num_sync_points_in_wait_list: cl_uint,
    sync_point_wait_list: *const cl_sync_point_khr,
    sync_point: *mut cl_sync_point_khr,
    mutable_handle: *mut cl_mutable_command_khr,
) -> Result<(), cl_int> {
    let record = Record::command(
        command_buffer,
        (command_queue, properties),
        (num_sync_points_in_wait_list, sync_point_wait_list),
        mutable_handle,
    )?;
    crate::api::image::copy_image_to_buffer(
        record.queue(),
        (src_image, dst_buffer),
        (src_origin, region),
        dst_offset,
        record.sink(sync_point),
    )
}

pub(crate) fn clCommandFillBufferKHR(
    command_buffer: cl_command_buffer_khr,
    command_queue: cl_command_queue,
    properties: *const cl_command_properties_khr,
    buffer: cl_mem,
    pattern: *const c_void,
    pattern_size: usize,
    offset: usize,
    size: usize,
    num_sync_points_in_wait_list: cl_uint,
    sync_point_wait_list: *const cl_sync_point_khr,
    sync_point: *mut cl_sync_point_khr,
    mutable_handle: *mut cl_mutable_command_khr,
) -> Result<(), cl_int> {
    let record = Record::command(
        command_buffer,
        (command_queue, properties),
        (num_sync_points_in_wait_list, sync_point_wait_list),
        mutable_handle,
    )?;
    crate::api::transfer::fill_buffer(
        record.queue(),
        buffer,
        (pattern, pattern_size),
        offset,
        size,
        record.sink(sync_point),
    )
}

pub(crate) fn clCommandFillImageKHR(
    command_buffer: cl_command_buffer_khr,
    command_queue: cl_command_queue,
    properties: *const cl_command_properties_khr,
    image: cl_mem,
    fill_color: *const c_void,
    origin: *const usize,
    region: *const usize,
    num_sync_points_in_wait_list: cl_uint,
    sync_point_wait_list: *const cl_sync_point_khr,
    sync_point: *mut cl_sync_point_khr,
    mutable_handle: *mut cl_mutable_command_khr,
) -> Result<(), cl_int> {
    let record = Record::command(
        command_buffer,
        (command_queue, properties),
        (num_sync_points_in_wait_list, sync_point_wait_list),
        mutable_handle,
    )?;
    crate::api::image::fill_image(
        record.queue(),
        image,
        fill_color,
        (origin, region),
        record.sink(sync_point),
    )
}

pub(crate) fn clCommandSVMMemcpyKHR(
    command_buffer: cl_command_buffer_khr,
    command_queue: cl_command_queue,
    properties: *const cl_command_properties_khr,
    dst_ptr: *mut c_void,
    src_ptr: *const c_void,
    size: usize,
    num_sync_points_in_wait_list: cl_uint,
    sync_point_wait_list: *const cl_sync_point_khr,
    sync_point: *mut cl_sync_point_khr,
    mutable_handle: *mut cl_mutable_command_khr,
) -> Result<(), cl_int> {
    let record = Record::command(
        command_buffer,
        (command_queue, properties),
        (num_sync_points_in_wait_list, sync_point_wait_list),
        mutable_handle,
    )?;
    crate::api::svm::memcpy_command(
        record.queue(),
        CL_COMMAND_SVM_MEMCPY as cl_command_type,
        CL_FALSE as cl_bool,
        dst_ptr,
        src_ptr,
        size,
        record.sink(sync_point),
    )
}

pub(crate) fn clCommandSVMMemFillKHR(
    command_buffer: cl_command_buffer_khr,
    command_queue: cl_command_queue,
    properties: *const cl_command_properties_khr,
    svm_ptr: *mut c_void,
    pattern: *const c_void,
    pattern_size: usize,
    size: usize,
    num_sync_points_in_wait_list: cl_uint,
    sync_point_wait_list: *const cl_sync_point_khr,
    sync_point: *mut cl_sync_point_khr,
    mutable_handle: *mut cl_mutable_command_khr,
) -> Result<(), cl_int> {
    let record = Record::command(
        command_buffer,
        (command_queue, properties),
        (num_sync_points_in_wait_list, sync_point_wait_list),
        mutable_handle,
    )?;
    crate::api::svm::fill_command(
        record.queue(),
        CL_COMMAND_SVM_MEMFILL as cl_command_type,
        svm_ptr,
        pattern,
        pattern_size,
        size,
        record.sink(sync_point),
    )
}

pub(crate) fn clCommandNDRangeKernelKHR(
    command_buffer: cl_command_buffer_khr,
    command_queue: cl_command_queue,
    properties: *const cl_command_properties_khr,
    kernel: cl_kernel,
    work_dim: cl_uint,
    global_work_offset: *const usize,
    global_work_size: *const usize,
    local_work_size: *const usize,
    num_sync_points_in_wait_list: cl_uint,
    sync_point_wait_list: *const cl_sync_point_khr,
    sync_point: *mut cl_sync_point_khr,
    mutable_handle: *mut cl_mutable_command_khr,
) -> Result<(), cl_int> {
    let record = Record::check(
        command_buffer,
        command_queue,
        (num_sync_points_in_wait_list, sync_point_wait_list),
        mutable_handle,
        true,
    )?;
    let sizes = (global_work_offset, global_work_size, local_work_size);
    let updatable = crate::api::mutable_dispatch::updatable_fields(properties)?;
    if mutable_handle.is_null() {
        return crate::api::kernel::record_kernel(
            record.queue(),
            kernel,
            work_dim,
            sizes,
            record.sink(sync_point),
        );
    }
    crate::api::mutable_dispatch::record(
        &record.buffer,
        (properties, updatable),
        kernel,
        work_dim,
        sizes,
        (record.waits, sync_point),
        mutable_handle,
    )
}
