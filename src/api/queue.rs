//! Entry points: command queues.

use crate::api::util::{cl_entry, info, property_list, property_pairs, write_info};
use crate::cl::*;
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
    if properties & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT) as cl_command_queue_properties
        != 0
    {
        // "CL_QUEUE_ON_DEVICE_DEFAULT ... can only be used with CL_QUEUE_ON_DEVICE";
        // "CL_QUEUE_ON_DEVICE ... requires CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE".
        let on_device = properties & CL_QUEUE_ON_DEVICE as cl_command_queue_properties != 0;
        let ooo =
            properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE as cl_command_queue_properties != 0;
        if !on_device || !ooo {
            return Err(CL_INVALID_VALUE);
        }
        // Valid, but device-side enqueue is not implemented yet.
        return Err(CL_INVALID_QUEUE_PROPERTIES);
    }
    Ok(publish(Queue::new(ctx, dev, properties, properties_array)))
}

cl_entry! {
    fn clCreateCommandQueueWithProperties(context: cl_context, device: cl_device_id, properties: *const cl_queue_properties, errcode_ret: *mut cl_int) -> cl_command_queue, errcode_ret {
        let mut bits: cl_command_queue_properties = 0;
        let pairs = property_pairs(properties);
        for (i, &(name, value)) in pairs.iter().enumerate() {
            if pairs[..i].iter().any(|&(n, _)| n == name) {
                return Err(CL_INVALID_VALUE);
            }
            match name as u32 {
                CL_QUEUE_PROPERTIES => bits = value,
                // Only device queues have a size.
                CL_QUEUE_SIZE => {
                    if pairs.iter().all(|&(n, v)| n != CL_QUEUE_PROPERTIES as u64 || v & CL_QUEUE_ON_DEVICE as u64 == 0) {
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
        new_queue(context, device, bits, property_list(properties))
    }

    fn clCreateCommandQueue(context: cl_context, device: cl_device_id, properties: cl_command_queue_properties, errcode_ret: *mut cl_int) -> cl_command_queue, errcode_ret {
        if properties & !HOST_QUEUE_PROPERTIES != 0 {
            Context::resolve(context)?;
            Device::resolve(device)?;
            return Err(CL_INVALID_VALUE);
        }
        new_queue(context, device, properties, Vec::new())
    }

    fn clRetainCommandQueue(command_queue: cl_command_queue) -> cl_int {
        object::retain::<Queue>(command_queue)
    }

    fn clReleaseCommandQueue(command_queue: cl_command_queue) -> cl_int {
        // "clReleaseCommandQueue performs an implicit flush": commands are
        // submitted at enqueue, and pending ones keep the queue alive.
        object::release::<Queue>(command_queue)
    }

    fn clGetCommandQueueInfo(command_queue: cl_command_queue, param_name: cl_command_queue_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) -> cl_int {
        let q = Queue::resolve(command_queue)?;
        let bytes = match param_name {
            CL_QUEUE_CONTEXT => info(&handle_of(&q.context)),
            CL_QUEUE_DEVICE => info(&handle_of(&q.device)),
            CL_QUEUE_REFERENCE_COUNT => info(&object::app_ref_count::<Queue>(command_queue)?),
            CL_QUEUE_PROPERTIES => info(&q.properties),
            CL_QUEUE_PROPERTIES_ARRAY => info(&q.properties_array),
            // Host queues have no size.
            CL_QUEUE_SIZE => Err(CL_INVALID_COMMAND_QUEUE),
            CL_QUEUE_DEVICE_DEFAULT => info(&std::ptr::null_mut::<c_void>()),
            _ => Err(CL_INVALID_VALUE),
        }?;
        write_info(&bytes, param_value_size, param_value, param_value_size_ret)
    }

    fn clSetCommandQueueProperty(command_queue: cl_command_queue, _properties: cl_command_queue_properties, _enable: cl_bool, _old_properties: *mut cl_command_queue_properties) -> cl_int {
        // Removed after OpenCL 1.0: queue properties are fixed at creation.
        Queue::resolve(command_queue)?;
        Err(CL_INVALID_OPERATION)
    }

    fn clFlush(command_queue: cl_command_queue) -> cl_int {
        // Every command is submitted when it is enqueued.
        Queue::resolve(command_queue).map(drop)
    }

    fn clFinish(command_queue: cl_command_queue) -> cl_int {
        Queue::resolve(command_queue)?.finish();
        Ok(())
    }

    fn clSetDefaultDeviceCommandQueue(_context: cl_context, _device: cl_device_id, _command_queue: cl_command_queue) -> cl_int {
        // "CL_INVALID_OPERATION if device does not support a replaceable
        // default on-device queue": no device here has on-device queues,
        // whatever the arguments.
        Err(CL_INVALID_OPERATION)
    }
}
