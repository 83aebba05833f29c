//! ICD 2.0 (cl_khr_icd 2.0.0): a loader that manages dispatch installs its
//! dispatch data on the platform, and every object carries it after the
//! dispatch table pointer; it can ask for any entry point by name.

mod common;
use common::*;
use std::ffi::{c_char, c_void};

/// What a loader does: dlsym the library's clGetExtensionFunctionAddress
/// (the same library the system loader already opened for this process).
fn extension_function(name: &std::ffi::CStr) -> *mut c_void {
    let path = std::ffi::CString::new(ferrocl_library().to_str().unwrap()).unwrap();
    // SAFETY: dlopen/dlsym with valid C strings; the symbol has the
    // clGetExtensionFunctionAddress signature.
    unsafe {
        let lib = libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL);
        assert!(!lib.is_null());
        let sym = libc::dlsym(lib, c"clGetExtensionFunctionAddress".as_ptr());
        assert!(!sym.is_null());
        let get: unsafe extern "C" fn(*const c_char) -> *mut c_void = std::mem::transmute(sym);
        get(name.as_ptr())
    }
}

type SetDispatchData = unsafe extern "C" fn(cl_platform_id, *mut c_void) -> cl_int;
type GetFunctionAddress = unsafe extern "C" fn(cl_platform_id, *const c_char) -> *mut c_void;
type GetPlatformInfo =
    unsafe extern "C" fn(cl_platform_id, cl_uint, usize, *mut c_void, *mut usize) -> cl_int;

/// The second pointer of an ICD object: its dispatch data.
fn dispatch_data(handle: *mut c_void) -> *mut c_void {
    // SAFETY: every ferrocl handle starts with {dispatch, dispatch_data}.
    unsafe { *(handle as *const *mut c_void).add(1) }
}

/// The Khronos loader's ICD 2.0 tag (cl_icd.h), on 64-bit hosts.
const CL_ICD2_TAG_KHR: usize = 0x4F50_454E_434C_3331;

/// The Khronos loader takes a platform for ICD 2.0 only if both tagged
/// slots of its dispatch table hold the tag, clGetPlatformIDs' (0) and
/// clUnloadCompiler's (31); with one missing it skips the platform (the
/// loader bundled with dpctl's wheels listed no ferrocl device).
#[test]
fn both_dispatch_slots_carry_the_icd2_tag() {
    select_ferrocl();
    let platform = platforms()[0];
    // SAFETY: a ferrocl handle starts with its dispatch table pointer, a
    // table of function pointers of which these are the first 32.
    let slots = unsafe { std::slice::from_raw_parts(*(platform as *const *const usize), 32) };
    assert_eq!(slots[0], CL_ICD2_TAG_KHR);
    assert_eq!(slots[31], CL_ICD2_TAG_KHR);
    assert!(slots[1] != 0 && slots[30] != 0);
}

#[test]
fn loader_managed_dispatch_data_reaches_every_object() {
    select_ferrocl();
    let platform = platforms()[0];
    // SAFETY: NUL-terminated names; the functions have the ICD 2.0 signatures.
    unsafe {
        let set = extension_function(c"clIcdSetPlatformDispatchDataKHR");
        let get = extension_function(c"clIcdGetFunctionAddressForPlatformKHR");
        assert!(!set.is_null() && !get.is_null());
        let set: SetDispatchData = std::mem::transmute(set);
        let get: GetFunctionAddress = std::mem::transmute(get);

        let mut marker = 0u64;
        let data = &mut marker as *mut u64 as *mut c_void;
        assert_eq!(set(platform, data), CL_SUCCESS);
        assert_eq!(dispatch_data(platform as *mut c_void), data);
        let setup = Setup::new(platform);
        assert_eq!(dispatch_data(setup.context as *mut c_void), data);
        assert_eq!(dispatch_data(setup.device as *mut c_void), data);
        let q = setup.queue(0);
        assert_eq!(dispatch_data(q as *mut c_void), data);
        clReleaseCommandQueue(q);

        // Every entry point by name, callable.
        let info = get(platform, c"clGetPlatformInfo".as_ptr());
        assert!(!info.is_null());
        let info: GetPlatformInfo = std::mem::transmute(info);
        let mut size = 0;
        assert_eq!(
            info(
                platform,
                CL_PLATFORM_NAME,
                0,
                std::ptr::null_mut(),
                &mut size
            ),
            CL_SUCCESS
        );
        assert_eq!(size, "FerroCL".len() + 1);
        for name in [
            c"clCreateBuffer",
            c"clEnqueueNDRangeKernel",
            c"clSVMAlloc",
            c"clGetPlatformIDs",
        ] {
            assert!(!get(platform, name.as_ptr()).is_null(), "{name:?}");
        }
        assert!(get(platform, c"clNoSuchFunction".as_ptr()).is_null());
        // Restore: the loader in this process does not manage dispatch.
        assert_eq!(set(platform, std::ptr::null_mut()), CL_SUCCESS);
    }
}
