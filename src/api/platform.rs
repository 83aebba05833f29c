//! Entry points: the platform, timers, compiler unloading.

use crate::api::util::{write_list, write_out, InfoOut};
use crate::cl::*;
use crate::core::device::Device;
use crate::core::platform::host_timer_ns;
use crate::core::platform::{self, Platform};
use std::ffi::c_void;

/// The platform's extensions: those of every device (its one CPU device),
/// beyond core's (cl_khr_icd, cl_khr_extended_versioning): SYCL asks the
/// platform, not the device, whether it has unified shared memory.
fn extensions() -> Vec<(&'static str, (u32, u32, u32))> {
    let mut list = platform::EXTENSIONS.to_vec();
    list.push(("cl_intel_unified_shared_memory", (1, 0, 0)));
    if crate::compiler::spirv::il_supported() {
        list.push(("cl_khr_il_program", (1, 0, 0)));
    }
    list
}

fn platform_info(param: cl_platform_info, out: &InfoOut) -> Result<(), cl_int> {
    match param {
        CL_PLATFORM_PROFILE => out.write("FULL_PROFILE"),
        CL_PLATFORM_VERSION => {
            out.write(&format!("OpenCL 3.0 FerroCL {}", env!("CARGO_PKG_VERSION")))
        }
        CL_PLATFORM_NUMERIC_VERSION => out.write(&platform::make_version(3, 0, 0)),
        CL_PLATFORM_NAME => out.write(platform::PLATFORM_NAME),
        CL_PLATFORM_VENDOR => out.write(platform::VENDOR),
        CL_PLATFORM_EXTENSIONS => out.write(&platform::extension_string(&extensions())),
        CL_PLATFORM_EXTENSIONS_WITH_VERSION => out.write(&platform::name_versions(&extensions())),
        CL_PLATFORM_HOST_TIMER_RESOLUTION => out.write(&1u64),
        CL_PLATFORM_ICD_SUFFIX_KHR => out.write(platform::ICD_SUFFIX),
        _ => Err(CL_INVALID_VALUE),
    }
}

pub(crate) fn clGetPlatformIDs(
    num_entries: cl_uint,
    platforms: *mut cl_platform_id,
    num_platforms: *mut cl_uint,
) -> Result<(), cl_int> {
    // "CL_INVALID_VALUE if num_entries is equal to zero and platforms is
    // not NULL or if both num_platforms and platforms are NULL."
    write_list(&[Platform::handle()], num_entries, platforms, num_platforms)
}

pub(crate) fn clGetPlatformInfo(
    platform: cl_platform_id,
    param_name: cl_platform_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    Platform::resolve(platform)?;
    platform_info(
        param_name,
        &InfoOut::new(param_value_size, param_value, param_value_size_ret),
    )
}

pub(crate) fn clUnloadCompiler() -> Result<(), cl_int> {
    Ok(())
}

pub(crate) fn clUnloadPlatformCompiler(platform: cl_platform_id) -> Result<(), cl_int> {
    Platform::resolve(platform)?;
    Ok(())
}

pub(crate) fn clGetHostTimer(
    device: cl_device_id,
    host_timestamp: *mut cl_ulong,
) -> Result<(), cl_int> {
    Device::resolve(device)?;
    if host_timestamp.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    write_out(host_timestamp, host_timer_ns());
    Ok(())
}

pub(crate) fn clGetDeviceAndHostTimer(
    device: cl_device_id,
    device_timestamp: *mut cl_ulong,
    host_timestamp: *mut cl_ulong,
) -> Result<(), cl_int> {
    Device::resolve(device)?;
    if device_timestamp.is_null() || host_timestamp.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    // The device clock is the host's monotonic clock.
    let t = host_timer_ns();
    write_out(device_timestamp, t);
    write_out(host_timestamp, t);
    Ok(())
}
