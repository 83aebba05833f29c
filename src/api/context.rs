//! Entry points: contexts.

use crate::api::device::{check_device_type, resolve_devices, selects_our_device};
use crate::api::util::{property_list, property_pairs, InfoOut};
use crate::cl::*;
use crate::core::callback::Callback;
use crate::core::context::{Context, ContextDestructor, ContextNotify};
use crate::core::device::Device;
use crate::core::object::{self, publish};
use crate::core::platform::Platform;
use std::ffi::c_void;
use std::sync::Arc;

pub(crate) type NotifyArg =
    Option<unsafe extern "C" fn(*const i8, *const c_void, usize, *mut c_void)>;

/// Checks the property list (CL_INVALID_PROPERTY for an unknown or repeated
/// name, CL_INVALID_PLATFORM for a platform that is not ours) and returns it
/// as given, for CL_CONTEXT_PROPERTIES.
fn context_properties(
    list: *const cl_context_properties,
) -> Result<Vec<cl_context_properties>, cl_int> {
    let pairs = property_pairs(list);
    for (i, &(name, value)) in pairs.iter().enumerate() {
        if pairs[..i].iter().any(|&(n, _)| n == name) {
            return Err(CL_INVALID_PROPERTY);
        }
        match name as u32 {
            CL_CONTEXT_PLATFORM => {
                Platform::resolve(value as cl_platform_id)?;
            }
            // "CL_INVALID_PROPERTY if ... the value specified for a
            // supported property name is not valid": a cl_bool.
            CL_CONTEXT_INTEROP_USER_SYNC => {
                if value != CL_TRUE as cl_context_properties
                    && value != CL_FALSE as cl_context_properties
                {
                    return Err(CL_INVALID_PROPERTY);
                }
            }
            _ => return Err(CL_INVALID_PROPERTY),
        }
    }
    Ok(property_list(list))
}

fn notify_callback(
    pfn_notify: NotifyArg,
    user_data: *mut c_void,
) -> Result<Option<Callback<ContextNotify>>, cl_int> {
    match pfn_notify {
        None if !user_data.is_null() => Err(CL_INVALID_VALUE),
        None => Ok(None),
        Some(func) => Ok(Some(Callback { func, user_data })),
    }
}

fn new_context(
    properties: *const cl_context_properties,
    devices: Vec<Arc<Device>>,
    pfn_notify: NotifyArg,
    user_data: *mut c_void,
) -> Result<cl_context, cl_int> {
    let props = context_properties(properties)?;
    let notify = notify_callback(pfn_notify, user_data)?;
    Ok(publish(Context::new(devices, props, notify)))
}

pub(crate) fn clCreateContext(
    properties: *const cl_context_properties,
    num_devices: cl_uint,
    devices: *const cl_device_id,
    pfn_notify: NotifyArg,
    user_data: *mut c_void,
) -> Result<cl_context, cl_int> {
    let devices = resolve_devices(devices, num_devices)?;
    new_context(properties, devices, pfn_notify, user_data)
}

pub(crate) fn clCreateContextFromType(
    properties: *const cl_context_properties,
    device_type: cl_device_type,
    pfn_notify: NotifyArg,
    user_data: *mut c_void,
) -> Result<cl_context, cl_int> {
    check_device_type(device_type)?;
    if !selects_our_device(device_type) {
        return Err(CL_DEVICE_NOT_FOUND);
    }
    new_context(
        properties,
        vec![Device::root().clone()],
        pfn_notify,
        user_data,
    )
}

pub(crate) fn clRetainContext(context: cl_context) -> Result<(), cl_int> {
    object::retain::<Context>(context)
}

pub(crate) fn clReleaseContext(context: cl_context) -> Result<(), cl_int> {
    object::release::<Context>(context)
}

pub(crate) fn clGetContextInfo(
    context: cl_context,
    param_name: cl_context_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    let ctx = Context::resolve(context)?;
    let out = InfoOut::new(param_value_size, param_value, param_value_size_ret);
    match param_name {
        CL_CONTEXT_REFERENCE_COUNT => out.write(&object::app_ref_count::<Context>(context)?),
        CL_CONTEXT_NUM_DEVICES => out.write(&(ctx.devices.len() as cl_uint)),
        CL_CONTEXT_DEVICES => out.write(
            &ctx.devices
                .iter()
                .map(object::handle_of)
                .collect::<Vec<_>>(),
        ),
        CL_CONTEXT_PROPERTIES => out.write(&ctx.properties),
        _ => Err(CL_INVALID_VALUE),
    }
}

pub(crate) fn clSetContextDestructorCallback(
    context: cl_context,
    pfn_notify: Option<ContextDestructor>,
    user_data: *mut c_void,
) -> Result<(), cl_int> {
    let ctx = Context::resolve(context)?;
    let func = pfn_notify.ok_or(CL_INVALID_VALUE)?;
    ctx.add_destructor(Callback { func, user_data });
    Ok(())
}
