//! Entry points: command queues.

use crate::api::util::{property_list, property_pairs, InfoOut};
use crate::cl::*;
use crate::core::caps::caps;
use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::object::{self, handle_of, publish};
use crate::core::queue::Queue;
use std::ffi::c_void;

const HOST_QUEUE_PROPERTIES: cl_command_queue_properties = (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE
    | CL_QUEUE_PROFILING_ENABLE)
    as cl_command_queue_properties;

fn new_queue(
    context: cl_context,
    device: cl_device_id,
    properties: cl_command_queue_properties,
    properties_array: Vec<cl_queue_properties>,
    size: Option<cl_queue_properties>,
) -> Result<cl_command_queue, cl_int> {
    let ctx = Context::resolve(context)?;
    let dev = Device::resolve(device)?;
    if !ctx.has_device(&dev) {
        return Err(CL_INVALID_DEVICE);
    }
    let known = HOST_QUEUE_PROPERTIES
        | (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT) as cl_command_queue_properties;
    if properties & !known != 0 {
        return Err(CL_INVALID_VALUE);
    }
    let on_device = properties & CL_QUEUE_ON_DEVICE as cl_command_queue_properties != 0;
    let default = properties & CL_QUEUE_ON_DEVICE_DEFAULT as cl_command_queue_properties != 0;
    if !on_device && !default {
        return Ok(publish(Queue::new(ctx, dev, properties, properties_array)));
    }
    // "CL_QUEUE_ON_DEVICE_DEFAULT ... can only be used with CL_QUEUE_ON_DEVICE";
    // "CL_QUEUE_ON_DEVICE ... requires CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE".
    let ooo =
        properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE as cl_command_queue_properties != 0;
    if !on_device || !ooo {
        return Err(CL_INVALID_VALUE);
    }
    // "CL_INVALID_QUEUE_PROPERTIES if values specified in properties are
    // valid but are not supported by the device."
    let Some(limits) = caps().device_queues.as_ref() else {
        return Err(CL_INVALID_QUEUE_PROPERTIES);
    };
    // CL_QUEUE_SIZE "must be a value <= CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE"
    // (and a queue holds at least one command).
    let size = match size {
        None => limits.preferred_size,
        Some(s) if limits.size_allowed(s) => s as u32,
        Some(_) => return Err(CL_INVALID_VALUE),
    };
    let create = || Queue::on_device(ctx.clone(), dev.clone(), properties, properties_array, size);
    if default {
        // One default on-device queue per device and context: asking for
        // it again returns the same queue, one reference more.
        return Ok(publish(ctx.default_device_queue_or_create(&dev, create)));
    }
    Ok(publish(create()))
}

/// "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host
/// command-queue": on-device queues take commands from kernels only.
pub fn host_queue(command_queue: cl_command_queue) -> Result<std::sync::Arc<Queue>, cl_int> {
    let q = Queue::resolve(command_queue)?;
    if q.on_device.is_some() {
        return Err(CL_INVALID_COMMAND_QUEUE);
    }
    Ok(q)
}

pub(crate) fn clCreateCommandQueueWithProperties(
    context: cl_context,
    device: cl_device_id,
    properties: *const cl_queue_properties,
) -> Result<cl_command_queue, cl_int> {
    let mut bits: cl_command_queue_properties = 0;
    let mut size = None;
    let pairs = property_pairs(properties);
    for (i, &(name, value)) in pairs.iter().enumerate() {
        if pairs[..i].iter().any(|&(n, _)| n == name) {
            return Err(CL_INVALID_VALUE);
        }
        match name as u32 {
            CL_QUEUE_PROPERTIES => bits = value,
            // Only device queues have a size.
            CL_QUEUE_SIZE => {
                size = Some(value);
                if pairs.iter().all(|&(n, v)| {
                    n != CL_QUEUE_PROPERTIES as u64 || v & CL_QUEUE_ON_DEVICE as u64 == 0
                }) {
                    // Check context and device first: their errors come before.
                    Context::resolve(context)?;
                    Device::resolve(device)?;
                    return Err(CL_INVALID_VALUE);
                }
            }
            _ => {
                Context::resolve(context)?;
                Device::resolve(device)?;
                return Err(CL_INVALID_VALUE);
            }
        }
    }
    new_queue(context, device, bits, property_list(properties), size)
}

pub(crate) fn clCreateCommandQueue(
    context: cl_context,
    device: cl_device_id,
    properties: cl_command_queue_properties,
) -> Result<cl_command_queue, cl_int> {
    if properties & !HOST_QUEUE_PROPERTIES != 0 {
        Context::resolve(context)?;
        Device::resolve(device)?;
        return Err(CL_INVALID_VALUE);
    }
    new_queue(context, device, properties, Vec::new(), None)
}

pub(crate) fn clRetainCommandQueue(command_queue: cl_command_queue) -> Result<(), cl_int> {
    object::retain::<Queue>(command_queue)
}

pub(crate) fn clReleaseCommandQueue(command_queue: cl_command_queue) -> Result<(), cl_int> {
    // "clReleaseCommandQueue performs an implicit flush": commands are
    // submitted at enqueue, and pending ones keep the queue alive.
    object::release::<Queue>(command_queue)
}

pub(crate) fn clGetCommandQueueInfo(
    command_queue: cl_command_queue,
    param_name: cl_command_queue_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    let q = Queue::resolve(command_queue)?;
    let out = InfoOut::new(param_value_size, param_value, param_value_size_ret);
    match param_name {
        CL_QUEUE_CONTEXT => out.write(&handle_of(&q.context)),
        CL_QUEUE_DEVICE => out.write(&handle_of(&q.device)),
        CL_QUEUE_REFERENCE_COUNT => out.write(&object::app_ref_count::<Queue>(command_queue)?),
        CL_QUEUE_PROPERTIES => out.write(&q.properties),
        CL_QUEUE_PROPERTIES_ARRAY => out.write(&q.properties_array),
        // Host queues have no size.
        CL_QUEUE_SIZE => match &q.on_device {
            Some(d) => out.write(&d.size),
            None => Err(CL_INVALID_COMMAND_QUEUE),
        },
        // "Return the current default command-queue for the underlying
        // device": the same answer for host and on-device queues (NULL
        // while the device has none).
        CL_QUEUE_DEVICE_DEFAULT => out.write(
            &q.context
                .default_device_queue(&q.device)
                .map_or(std::ptr::null_mut(), |d| handle_of(&d)),
        ),
        _ => Err(CL_INVALID_VALUE),
    }
}

pub(crate) fn clSetCommandQueueProperty(
    command_queue: cl_command_queue,
    _properties: cl_command_queue_properties,
    _enable: cl_bool,
    _old_properties: *mut cl_command_queue_properties,
) -> Result<(), cl_int> {
    // Removed after OpenCL 1.0: queue properties are fixed at creation.
    Queue::resolve(command_queue)?;
    Err(CL_INVALID_OPERATION)
}

pub(crate) fn clFlush(command_queue: cl_command_queue) -> Result<(), cl_int> {
    // Every command is submitted when it is enqueued.
    host_queue(command_queue).map(drop)
}

pub(crate) fn clFinish(command_queue: cl_command_queue) -> Result<(), cl_int> {
    host_queue(command_queue)?.finish();
    Ok(())
}

pub(crate) fn clSetDefaultDeviceCommandQueue(
    context: cl_context,
    device: cl_device_id,
    command_queue: cl_command_queue,
) -> Result<(), cl_int> {
    // "CL_INVALID_OPERATION if device does not support a replaceable
    // default on-device queue."
    if caps().device_queues.is_none() {
        return Err(CL_INVALID_OPERATION);
    }
    let ctx = Context::resolve(context)?;
    let dev = Device::resolve(device)?;
    if !ctx.has_device(&dev) {
        return Err(CL_INVALID_DEVICE);
    }
    // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid
    // command-queue for device."
    let q = Queue::resolve(command_queue)?;
    if q.on_device.is_none()
        || !std::sync::Arc::ptr_eq(&q.device, &dev)
        || !std::sync::Arc::ptr_eq(&q.context, &ctx)
    {
        return Err(CL_INVALID_COMMAND_QUEUE);
    }
    ctx.set_default_device_queue(&q);
    Ok(())
}
