//! The ICD face of the library: the dispatch table every object points to,
//! the three symbols loaders look up with dlsym, and ICD 2.0 loader-managed
//! dispatch data (cl_khr_icd 2.0).

use crate::api::util::c_str;
use crate::cl::*;
use crate::core::object;
use crate::core::platform::Platform;
use crate::entry_points;
use std::ffi::{c_char, c_void};
use std::sync::LazyLock;

/// The ICD 2.0 tag (cl_khr_icd): an intptr_t placed in the clGetPlatformIDs
/// slot, which a dispatch-table-only loader never calls through.
const CL_ICD2_TAG_KHR: isize = 0x4F50_454E_434C_3331;

struct DispatchTable(cl_icd_dispatch);

// SAFETY: the table holds function pointers and null pointers only, and is
// never written after construction.
unsafe impl Sync for DispatchTable {}
// SAFETY: as above.
unsafe impl Send for DispatchTable {}

static DISPATCH: LazyLock<DispatchTable> = LazyLock::new(|| {
    let mut table = entry_points::dispatch_table();
    // ICD 2.0: the tag in this slot tells the Khronos loader that objects
    // carry loader-managed dispatch data; clIcdGetPlatformIDsKHR takes the
    // place of clGetPlatformIDs in every lookup by name.
    // SAFETY: the loader reads this slot as a tag and never calls it.
    table.clGetPlatformIDs =
        unsafe { std::mem::transmute::<isize, cl_api_clGetPlatformIDs>(CL_ICD2_TAG_KHR) };
    // The same tag in clUnloadCompiler's slot too: the Khronos loader
    // checks both since ICD 2.0 (loader/icd.c) and skips a platform whose
    // second tag is missing ("platform is missing tag in
    // clUnloadCompiler"), as the one bundled with dpctl's wheels did.
    // SAFETY: as above; clUnloadCompiler (OpenCL 1.0) has no other use.
    table.clUnloadCompiler =
        unsafe { std::mem::transmute::<isize, cl_api_clUnloadCompiler>(CL_ICD2_TAG_KHR) };
    table.clGetExtensionFunctionAddress = Some(clGetExtensionFunctionAddress);
    table.clGetExtensionFunctionAddressForPlatform = Some(clGetExtensionFunctionAddressForPlatform);
    DispatchTable(table)
});

/// Installs the dispatch table in core, for every object made after. A
/// loader reaches the library first through one of its three exported
/// symbols, and each calls this before anything else: no handle goes out
/// without the table.
fn install_dispatch_table() {
    object::install_dispatch_table(&DISPATCH.0);
}

/// Extension functions reachable through clGetExtensionFunctionAddress*:
/// the loader protocol's own, and the table's rows marked `extension`.
fn extension_function(name: &str) -> *mut c_void {
    match name {
        "clIcdGetPlatformIDsKHR" => clIcdGetPlatformIDsKHR as *mut c_void,
        "clIcdSetPlatformDispatchDataKHR" => clIcdSetPlatformDispatchDataKHR as *mut c_void,
        "clIcdGetFunctionAddressForPlatformKHR" => {
            clIcdGetFunctionAddressForPlatformKHR as *mut c_void
        }
        _ => entry_points::entry(name)
            .filter(|e| e.extension)
            .map_or(std::ptr::null_mut(), |e| e.address),
    }
}

/// cl_khr_icd: the loader's way to enumerate our platform.
#[no_mangle]
pub extern "C" fn clIcdGetPlatformIDsKHR(
    num_entries: cl_uint,
    platforms: *mut cl_platform_id,
    num_platforms: *mut cl_uint,
) -> cl_int {
    install_dispatch_table();
    entry_points::shims::clGetPlatformIDs(num_entries, platforms, num_platforms)
}

#[no_mangle]
pub extern "C" fn clGetExtensionFunctionAddress(func_name: *const c_char) -> *mut c_void {
    install_dispatch_table();
    extension_function_address(func_name)
}

/// The lookup both entry points share. clGetExtensionFunctionAddress is
/// an exported name, and so is the loader's: a call to it from here could
/// bind to the loader's (which knows no driver's functions), so the
/// platform form calls this instead.
fn extension_function_address(func_name: *const c_char) -> *mut c_void {
    std::panic::catch_unwind(|| {
        c_str(func_name, 0).map_or(std::ptr::null_mut(), extension_function)
    })
    .unwrap_or(std::ptr::null_mut())
}

#[allow(non_snake_case)]
extern "C" fn clGetExtensionFunctionAddressForPlatform(
    platform: cl_platform_id,
    func_name: *const c_char,
) -> *mut c_void {
    if Platform::resolve(platform).is_err() {
        return std::ptr::null_mut();
    }
    extension_function_address(func_name)
}

/// The loader's clGetPlatformInfo lookup by dlsym goes straight to ours.
#[no_mangle]
pub extern "C" fn clGetPlatformInfo(
    platform: cl_platform_id,
    param_name: cl_platform_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    install_dispatch_table();
    entry_points::shims::clGetPlatformInfo(
        platform,
        param_name,
        param_value_size,
        param_value,
        param_value_size_ret,
    )
}

/// ICD 2.0: the loader hands us the dispatch data to store in every object.
#[allow(non_snake_case)]
extern "C" fn clIcdSetPlatformDispatchDataKHR(
    platform: cl_platform_id,
    dispatch_data: *mut c_void,
) -> cl_int {
    let Ok(p) = Platform::resolve(platform) else {
        return CL_INVALID_PLATFORM;
    };
    object::set_loader_dispatch_data(dispatch_data);
    p.set_dispatch_data(dispatch_data);
    CL_SUCCESS
}

/// ICD 2.0: every entry point by name, for the loader's own dispatch table.
#[allow(non_snake_case)]
extern "C" fn clIcdGetFunctionAddressForPlatformKHR(
    platform: cl_platform_id,
    func_name: *const c_char,
) -> *mut c_void {
    if Platform::resolve(platform).is_err() {
        return std::ptr::null_mut();
    }
    let Ok(name) = c_str(func_name, 0) else {
        return std::ptr::null_mut();
    };
    if name == "clGetPlatformIDs" {
        return clIcdGetPlatformIDsKHR as *mut c_void;
    }
    core_function(name).unwrap_or_else(|| extension_function(name))
}

/// Looks an entry point up by name in the dispatch table.
fn core_function(name: &str) -> Option<*mut c_void> {
    match name {
        "clGetExtensionFunctionAddress" => Some(clGetExtensionFunctionAddress as *mut c_void),
        "clGetExtensionFunctionAddressForPlatform" => {
            Some(clGetExtensionFunctionAddressForPlatform as *mut c_void)
        }
        _ => entry_points::entry(name)
            .filter(|e| e.dispatch)
            .map(|e| e.address),
    }
}
