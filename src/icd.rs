//! The ICD face of the library: the dispatch table every object points to,
//! the three symbols loaders look up with dlsym, and ICD 2.0 loader-managed
//! dispatch data (cl_khr_icd 2.0).

use crate::api;
use crate::api::util::c_str;
use crate::cl::*;
use crate::core::platform::Platform;
use std::ffi::{c_char, c_void};
use std::sync::atomic::{AtomicPtr, Ordering};
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
    DispatchTable(cl_icd_dispatch {
        // ICD 2.0: the tag in this slot tells the Khronos loader that objects carry loader-managed dispatch data.
        // SAFETY: the loader reads this slot as a tag and never calls it.
        clGetPlatformIDs: unsafe {
            std::mem::transmute::<isize, cl_api_clGetPlatformIDs>(CL_ICD2_TAG_KHR)
        },
        clGetPlatformInfo: Some(api::platform::clGetPlatformInfo),
        clGetDeviceIDs: Some(api::device::clGetDeviceIDs),
        clGetDeviceInfo: Some(api::device::clGetDeviceInfo),
        clCreateContext: Some(api::context::clCreateContext),
        clCreateContextFromType: Some(api::context::clCreateContextFromType),
        clRetainContext: Some(api::context::clRetainContext),
        clReleaseContext: Some(api::context::clReleaseContext),
        clGetContextInfo: Some(api::context::clGetContextInfo),
        clCreateCommandQueue: Some(api::queue::clCreateCommandQueue),
        clRetainCommandQueue: Some(api::queue::clRetainCommandQueue),
        clReleaseCommandQueue: Some(api::queue::clReleaseCommandQueue),
        clGetCommandQueueInfo: Some(api::queue::clGetCommandQueueInfo),
        clSetCommandQueueProperty: Some(api::queue::clSetCommandQueueProperty),
        clCreateBuffer: Some(api::memory::clCreateBuffer),
        clCreateImage2D: Some(api::image::clCreateImage2D),
        clCreateImage3D: Some(api::image::clCreateImage3D),
        clRetainMemObject: Some(api::memory::clRetainMemObject),
        clReleaseMemObject: Some(api::memory::clReleaseMemObject),
        clGetSupportedImageFormats: Some(api::image::clGetSupportedImageFormats),
        clGetMemObjectInfo: Some(api::memory::clGetMemObjectInfo),
        clGetImageInfo: Some(api::image::clGetImageInfo),
        clCreateSampler: Some(api::image::clCreateSampler),
        clRetainSampler: Some(api::image::clRetainSampler),
        clReleaseSampler: Some(api::image::clReleaseSampler),
        clGetSamplerInfo: Some(api::image::clGetSamplerInfo),
        clCreateProgramWithSource: Some(api::program::clCreateProgramWithSource),
        clCreateProgramWithBinary: Some(api::program::clCreateProgramWithBinary),
        clRetainProgram: Some(api::program::clRetainProgram),
        clReleaseProgram: Some(api::program::clReleaseProgram),
        clBuildProgram: Some(api::program::clBuildProgram),
        clUnloadCompiler: Some(api::platform::clUnloadCompiler),
        clGetProgramInfo: Some(api::program::clGetProgramInfo),
        clGetProgramBuildInfo: Some(api::program::clGetProgramBuildInfo),
        clCreateKernel: Some(api::kernel::clCreateKernel),
        clCreateKernelsInProgram: Some(api::kernel::clCreateKernelsInProgram),
        clRetainKernel: Some(api::kernel::clRetainKernel),
        clReleaseKernel: Some(api::kernel::clReleaseKernel),
        clSetKernelArg: Some(api::kernel::clSetKernelArg),
        clGetKernelInfo: Some(api::kernel::clGetKernelInfo),
        clGetKernelWorkGroupInfo: Some(api::kernel::clGetKernelWorkGroupInfo),
        clWaitForEvents: Some(api::event::clWaitForEvents),
        clGetEventInfo: Some(api::event::clGetEventInfo),
        clRetainEvent: Some(api::event::clRetainEvent),
        clReleaseEvent: Some(api::event::clReleaseEvent),
        clGetEventProfilingInfo: Some(api::event::clGetEventProfilingInfo),
        clFlush: Some(api::queue::clFlush),
        clFinish: Some(api::queue::clFinish),
        clEnqueueReadBuffer: Some(api::transfer::clEnqueueReadBuffer),
        clEnqueueWriteBuffer: Some(api::transfer::clEnqueueWriteBuffer),
        clEnqueueCopyBuffer: Some(api::transfer::clEnqueueCopyBuffer),
        clEnqueueReadImage: Some(api::image::clEnqueueReadImage),
        clEnqueueWriteImage: Some(api::image::clEnqueueWriteImage),
        clEnqueueCopyImage: Some(api::image::clEnqueueCopyImage),
        clEnqueueCopyImageToBuffer: Some(api::image::clEnqueueCopyImageToBuffer),
        clEnqueueCopyBufferToImage: Some(api::image::clEnqueueCopyBufferToImage),
        clEnqueueMapBuffer: Some(api::transfer::clEnqueueMapBuffer),
        clEnqueueMapImage: Some(api::image::clEnqueueMapImage),
        clEnqueueUnmapMemObject: Some(api::transfer::clEnqueueUnmapMemObject),
        clEnqueueNDRangeKernel: Some(api::kernel::clEnqueueNDRangeKernel),
        clEnqueueTask: Some(api::kernel::clEnqueueTask),
        clEnqueueNativeKernel: Some(api::kernel::clEnqueueNativeKernel),
        clEnqueueMarker: Some(api::event::clEnqueueMarker),
        clEnqueueWaitForEvents: Some(api::event::clEnqueueWaitForEvents),
        clEnqueueBarrier: Some(api::event::clEnqueueBarrier),
        clGetExtensionFunctionAddress: Some(clGetExtensionFunctionAddress),
        clCreateFromGLBuffer: Some(api::interop::clCreateFromGLBuffer),
        clCreateFromGLTexture2D: Some(api::interop::clCreateFromGLTexture2D),
        clCreateFromGLTexture3D: Some(api::interop::clCreateFromGLTexture3D),
        clCreateFromGLRenderbuffer: Some(api::interop::clCreateFromGLRenderbuffer),
        clGetGLObjectInfo: Some(api::interop::clGetGLObjectInfo),
        clGetGLTextureInfo: Some(api::interop::clGetGLTextureInfo),
        clEnqueueAcquireGLObjects: Some(api::interop::clEnqueueAcquireGLObjects),
        clEnqueueReleaseGLObjects: Some(api::interop::clEnqueueReleaseGLObjects),
        clGetGLContextInfoKHR: Some(api::interop::clGetGLContextInfoKHR),
        clGetDeviceIDsFromD3D10KHR: std::ptr::null_mut(),
        clCreateFromD3D10BufferKHR: std::ptr::null_mut(),
        clCreateFromD3D10Texture2DKHR: std::ptr::null_mut(),
        clCreateFromD3D10Texture3DKHR: std::ptr::null_mut(),
        clEnqueueAcquireD3D10ObjectsKHR: std::ptr::null_mut(),
        clEnqueueReleaseD3D10ObjectsKHR: std::ptr::null_mut(),
        clSetEventCallback: Some(api::event::clSetEventCallback),
        clCreateSubBuffer: Some(api::memory::clCreateSubBuffer),
        clSetMemObjectDestructorCallback: Some(api::memory::clSetMemObjectDestructorCallback),
        clCreateUserEvent: Some(api::event::clCreateUserEvent),
        clSetUserEventStatus: Some(api::event::clSetUserEventStatus),
        clEnqueueReadBufferRect: Some(api::transfer::clEnqueueReadBufferRect),
        clEnqueueWriteBufferRect: Some(api::transfer::clEnqueueWriteBufferRect),
        clEnqueueCopyBufferRect: Some(api::transfer::clEnqueueCopyBufferRect),
        clCreateSubDevicesEXT: Some(api::interop::clCreateSubDevicesEXT),
        clRetainDeviceEXT: Some(api::interop::clRetainDeviceEXT),
        clReleaseDeviceEXT: Some(api::interop::clReleaseDeviceEXT),
        clCreateEventFromGLsyncKHR: Some(api::interop::clCreateEventFromGLsyncKHR),
        clCreateSubDevices: Some(api::device::clCreateSubDevices),
        clRetainDevice: Some(api::device::clRetainDevice),
        clReleaseDevice: Some(api::device::clReleaseDevice),
        clCreateImage: Some(api::image::clCreateImage),
        clCreateProgramWithBuiltInKernels: Some(api::program::clCreateProgramWithBuiltInKernels),
        clCompileProgram: Some(api::program::clCompileProgram),
        clLinkProgram: Some(api::program::clLinkProgram),
        clUnloadPlatformCompiler: Some(api::platform::clUnloadPlatformCompiler),
        clGetKernelArgInfo: Some(api::kernel::clGetKernelArgInfo),
        clEnqueueFillBuffer: Some(api::transfer::clEnqueueFillBuffer),
        clEnqueueFillImage: Some(api::image::clEnqueueFillImage),
        clEnqueueMigrateMemObjects: Some(api::transfer::clEnqueueMigrateMemObjects),
        clEnqueueMarkerWithWaitList: Some(api::event::clEnqueueMarkerWithWaitList),
        clEnqueueBarrierWithWaitList: Some(api::event::clEnqueueBarrierWithWaitList),
        clGetExtensionFunctionAddressForPlatform: Some(clGetExtensionFunctionAddressForPlatform),
        clCreateFromGLTexture: Some(api::interop::clCreateFromGLTexture),
        clGetDeviceIDsFromD3D11KHR: std::ptr::null_mut(),
        clCreateFromD3D11BufferKHR: std::ptr::null_mut(),
        clCreateFromD3D11Texture2DKHR: std::ptr::null_mut(),
        clCreateFromD3D11Texture3DKHR: std::ptr::null_mut(),
        clCreateFromDX9MediaSurfaceKHR: std::ptr::null_mut(),
        clEnqueueAcquireD3D11ObjectsKHR: std::ptr::null_mut(),
        clEnqueueReleaseD3D11ObjectsKHR: std::ptr::null_mut(),
        clGetDeviceIDsFromDX9MediaAdapterKHR: std::ptr::null_mut(),
        clEnqueueAcquireDX9MediaSurfacesKHR: std::ptr::null_mut(),
        clEnqueueReleaseDX9MediaSurfacesKHR: std::ptr::null_mut(),
        clCreateFromEGLImageKHR: Some(api::interop::clCreateFromEGLImageKHR),
        clEnqueueAcquireEGLObjectsKHR: Some(api::interop::clEnqueueAcquireEGLObjectsKHR),
        clEnqueueReleaseEGLObjectsKHR: Some(api::interop::clEnqueueReleaseEGLObjectsKHR),
        clCreateEventFromEGLSyncKHR: Some(api::interop::clCreateEventFromEGLSyncKHR),
        clCreateCommandQueueWithProperties: Some(api::queue::clCreateCommandQueueWithProperties),
        clCreatePipe: Some(api::pipe::clCreatePipe),
        clGetPipeInfo: Some(api::pipe::clGetPipeInfo),
        clSVMAlloc: Some(api::svm::clSVMAlloc),
        clSVMFree: Some(api::svm::clSVMFree),
        clEnqueueSVMFree: Some(api::svm::clEnqueueSVMFree),
        clEnqueueSVMMemcpy: Some(api::svm::clEnqueueSVMMemcpy),
        clEnqueueSVMMemFill: Some(api::svm::clEnqueueSVMMemFill),
        clEnqueueSVMMap: Some(api::svm::clEnqueueSVMMap),
        clEnqueueSVMUnmap: Some(api::svm::clEnqueueSVMUnmap),
        clCreateSamplerWithProperties: Some(api::image::clCreateSamplerWithProperties),
        clSetKernelArgSVMPointer: Some(api::kernel::clSetKernelArgSVMPointer),
        clSetKernelExecInfo: Some(api::kernel::clSetKernelExecInfo),
        clGetKernelSubGroupInfoKHR: Some(api::kernel::clGetKernelSubGroupInfoKHR),
        clCloneKernel: Some(api::kernel::clCloneKernel),
        clCreateProgramWithIL: Some(api::program::clCreateProgramWithIL),
        clEnqueueSVMMigrateMem: Some(api::svm::clEnqueueSVMMigrateMem),
        clGetDeviceAndHostTimer: Some(api::platform::clGetDeviceAndHostTimer),
        clGetHostTimer: Some(api::platform::clGetHostTimer),
        clGetKernelSubGroupInfo: Some(api::kernel::clGetKernelSubGroupInfo),
        clSetDefaultDeviceCommandQueue: Some(api::queue::clSetDefaultDeviceCommandQueue),
        clSetProgramReleaseCallback: Some(api::program::clSetProgramReleaseCallback),
        clSetProgramSpecializationConstant: Some(api::program::clSetProgramSpecializationConstant),
        clCreateBufferWithProperties: Some(api::memory::clCreateBufferWithProperties),
        clCreateImageWithProperties: Some(api::image::clCreateImageWithProperties),
        clSetContextDestructorCallback: Some(api::context::clSetContextDestructorCallback),
    })
});

/// The dispatch data the ICD 2.0 loader installed, copied into every object.
static DISPATCH_DATA: AtomicPtr<c_void> = AtomicPtr::new(std::ptr::null_mut());

pub fn dispatch_table() -> *const cl_icd_dispatch {
    &DISPATCH.0
}

pub fn platform_dispatch_data() -> *mut c_void {
    DISPATCH_DATA.load(Ordering::Acquire)
}

/// Extension functions reachable through clGetExtensionFunctionAddress*.
fn extension_function(name: &str) -> *mut c_void {
    match name {
        "clIcdGetPlatformIDsKHR" => clIcdGetPlatformIDsKHR as *mut c_void,
        "clIcdSetPlatformDispatchDataKHR" => clIcdSetPlatformDispatchDataKHR as *mut c_void,
        "clIcdGetFunctionAddressForPlatformKHR" => {
            clIcdGetFunctionAddressForPlatformKHR as *mut c_void
        }
        // cl_khr_subgroups.
        "clGetKernelSubGroupInfoKHR" => api::kernel::clGetKernelSubGroupInfoKHR as *mut c_void,
        _ => std::ptr::null_mut(),
    }
}

/// cl_khr_icd: the loader's way to enumerate our platform.
#[no_mangle]
pub extern "C" fn clIcdGetPlatformIDsKHR(
    num_entries: cl_uint,
    platforms: *mut cl_platform_id,
    num_platforms: *mut cl_uint,
) -> cl_int {
    api::platform::clGetPlatformIDs(num_entries, platforms, num_platforms)
}

#[no_mangle]
pub extern "C" fn clGetExtensionFunctionAddress(func_name: *const c_char) -> *mut c_void {
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
    api::platform::clGetPlatformInfo(
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
    DISPATCH_DATA.store(dispatch_data, Ordering::Release);
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
    crate::icd_names::lookup(&DISPATCH.0, name)
}
