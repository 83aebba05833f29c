//! Reaching ferrocl as applications do: through the system ICD loader
//! (libOpenCL), with OCL_ICD_VENDORS naming the library cargo just built.
#![allow(dead_code)]

// The CL definitions: their own crate (src/cl), which exports no cl*
// symbols (the ferrocl rlib would put a second copy of its exported ones in
// front of the loader's).
pub use ferrocl_cl::*;
use std::ffi::{c_char, c_void};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Once;

pub type NativeFn = unsafe extern "C" fn(*mut c_void);
pub type EventCallback = unsafe extern "C" fn(cl_event, cl_int, *mut c_void);

/// Handles shared between threads: plain pointers.
#[derive(Clone, Copy)]
pub struct Shared<T>(pub T);
// SAFETY: CL handles may be used from any thread.
unsafe impl<T> Send for Shared<T> {}

/// Completion callbacks counted by `count_callback`.
pub static CALLBACKS: AtomicUsize = AtomicUsize::new(0);

/// An event callback that checks the command completed and counts it.
pub unsafe extern "C" fn count_callback(_e: cl_event, status: cl_int, _user: *mut c_void) {
    assert_eq!(status, CL_COMPLETE);
    CALLBACKS.fetch_add(1, Ordering::Relaxed);
}

#[link(name = "OpenCL")]
extern "C" {
    pub fn clGetPlatformIDs(
        n: cl_uint,
        platforms: *mut cl_platform_id,
        num: *mut cl_uint,
    ) -> cl_int;
    pub fn clGetPlatformInfo(
        p: cl_platform_id,
        name: cl_uint,
        size: usize,
        value: *mut c_void,
        ret: *mut usize,
    ) -> cl_int;
    pub fn clGetDeviceIDs(
        p: cl_platform_id,
        t: cl_device_type,
        n: cl_uint,
        d: *mut cl_device_id,
        num: *mut cl_uint,
    ) -> cl_int;
    pub fn clCreateContext(
        props: *const cl_context_properties,
        n: cl_uint,
        d: *const cl_device_id,
        notify: *const c_void,
        user: *mut c_void,
        err: *mut cl_int,
    ) -> cl_context;
    pub fn clReleaseContext(c: cl_context) -> cl_int;
    pub fn clCreateProgramWithSource(
        c: cl_context,
        n: cl_uint,
        s: *const *const c_char,
        l: *const usize,
        e: *mut cl_int,
    ) -> cl_program;
    pub fn clBuildProgram(
        p: cl_program,
        n: cl_uint,
        d: *const cl_device_id,
        o: *const c_char,
        f: *const c_void,
        u: *mut c_void,
    ) -> cl_int;
    pub fn clReleaseProgram(p: cl_program) -> cl_int;
    pub fn clGetProgramBuildInfo(
        p: cl_program,
        d: cl_device_id,
        name: cl_uint,
        size: usize,
        v: *mut c_void,
        r: *mut usize,
    ) -> cl_int;
    pub fn clCreateKernel(p: cl_program, name: *const c_char, e: *mut cl_int) -> cl_kernel;
    pub fn clSetKernelArg(k: cl_kernel, i: cl_uint, size: usize, v: *const c_void) -> cl_int;
    pub fn clReleaseKernel(k: cl_kernel) -> cl_int;
    pub fn clCreateBuffer(
        c: cl_context,
        flags: cl_mem_flags,
        size: usize,
        host: *mut c_void,
        e: *mut cl_int,
    ) -> cl_mem;
    pub fn clReleaseMemObject(m: cl_mem) -> cl_int;
    pub fn clEnqueueNDRangeKernel(
        q: cl_command_queue,
        k: cl_kernel,
        dim: cl_uint,
        offset: *const usize,
        global: *const usize,
        local: *const usize,
        n: cl_uint,
        wait: *const cl_event,
        ev: *mut cl_event,
    ) -> cl_int;
    pub fn clEnqueueReadBuffer(
        q: cl_command_queue,
        m: cl_mem,
        blocking: cl_bool,
        offset: usize,
        size: usize,
        ptr: *mut c_void,
        n: cl_uint,
        wait: *const cl_event,
        ev: *mut cl_event,
    ) -> cl_int;
    pub fn clCreateCommandQueueWithProperties(
        c: cl_context,
        d: cl_device_id,
        props: *const cl_queue_properties,
        err: *mut cl_int,
    ) -> cl_command_queue;
    pub fn clReleaseCommandQueue(q: cl_command_queue) -> cl_int;
    pub fn clFinish(q: cl_command_queue) -> cl_int;
    pub fn clEnqueueNativeKernel(
        q: cl_command_queue,
        f: NativeFn,
        args: *mut c_void,
        cb_args: usize,
        num_mem: cl_uint,
        mems: *const cl_mem,
        locs: *mut *const c_void,
        n: cl_uint,
        wait: *const cl_event,
        ev: *mut cl_event,
    ) -> cl_int;
    pub fn clEnqueueMarkerWithWaitList(
        q: cl_command_queue,
        n: cl_uint,
        wait: *const cl_event,
        ev: *mut cl_event,
    ) -> cl_int;
    pub fn clSetEventCallback(
        e: cl_event,
        t: cl_int,
        f: EventCallback,
        user: *mut c_void,
    ) -> cl_int;
    pub fn clRetainEvent(e: cl_event) -> cl_int;
    pub fn clReleaseEvent(e: cl_event) -> cl_int;
    pub fn clWaitForEvents(n: cl_uint, e: *const cl_event) -> cl_int;
}

/// The library next to this test binary (target/<profile>/libferrocl.so).
pub fn ferrocl_library() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    exe.parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>")
        .join("libferrocl.so")
}

static SELECT: Once = Once::new();

/// Points the loader at ferrocl alone (before the first CL call).
pub fn select_ferrocl() {
    SELECT.call_once(|| std::env::set_var("OCL_ICD_VENDORS", ferrocl_library()));
}

pub fn platform_name(p: cl_platform_id) -> String {
    let mut buf = vec![0u8; 256];
    let mut len = 0;
    // SAFETY: buf has 256 bytes; the loader writes at most that.
    let err = unsafe {
        clGetPlatformInfo(
            p,
            CL_PLATFORM_NAME,
            buf.len(),
            buf.as_mut_ptr() as *mut c_void,
            &mut len,
        )
    };
    assert_eq!(err, CL_SUCCESS);
    buf.truncate(len.saturating_sub(1));
    String::from_utf8(buf).unwrap()
}

pub fn platforms() -> Vec<cl_platform_id> {
    let mut n = 0;
    // SAFETY: querying the count only.
    let err = unsafe { clGetPlatformIDs(0, std::ptr::null_mut(), &mut n) };
    assert_eq!(err, CL_SUCCESS);
    let mut v = vec![std::ptr::null_mut(); n as usize];
    // SAFETY: v has room for n handles.
    let err = unsafe { clGetPlatformIDs(n, v.as_mut_ptr(), std::ptr::null_mut()) };
    assert_eq!(err, CL_SUCCESS);
    v
}

/// A context and a queue on a platform's CPU device.
pub struct Setup {
    pub context: cl_context,
    pub device: cl_device_id,
}

// SAFETY: CL handles may be used from any thread.
unsafe impl Send for Setup {}
// SAFETY: as above.
unsafe impl Sync for Setup {}

impl Setup {
    pub fn new(platform: cl_platform_id) -> Setup {
        let mut device = std::ptr::null_mut();
        let mut err = 0;
        // SAFETY: plain CL calls with valid out-pointers.
        unsafe {
            assert_eq!(
                clGetDeviceIDs(
                    platform,
                    CL_DEVICE_TYPE_ALL as u64,
                    1,
                    &mut device,
                    std::ptr::null_mut()
                ),
                CL_SUCCESS
            );
            let props = [
                CL_CONTEXT_PLATFORM as cl_context_properties,
                platform as cl_context_properties,
                0,
            ];
            let context = clCreateContext(
                props.as_ptr(),
                1,
                &device,
                std::ptr::null(),
                std::ptr::null_mut(),
                &mut err,
            );
            assert_eq!(err, CL_SUCCESS);
            Setup { context, device }
        }
    }

    /// The program of `source` built for the device with `options`;
    /// creating and building it must succeed.
    pub fn build(&self, source: &str, options: Option<&std::ffi::CStr>) -> cl_program {
        let (src, len, mut err) = (source.as_ptr() as *const c_char, source.len(), 0);
        let options = options.map_or(std::ptr::null(), |o| o.as_ptr());
        // SAFETY: one string of len bytes; a valid context and device, a
        // NUL-terminated option string or null.
        unsafe {
            let p = clCreateProgramWithSource(self.context, 1, &src, &len, &mut err);
            assert_eq!(err, CL_SUCCESS);
            let built = clBuildProgram(
                p,
                1,
                &self.device,
                options,
                std::ptr::null(),
                std::ptr::null_mut(),
            );
            assert_eq!(built, CL_SUCCESS);
            p
        }
    }

    pub fn queue(&self, properties: cl_command_queue_properties) -> cl_command_queue {
        let props = [CL_QUEUE_PROPERTIES as cl_queue_properties, properties, 0];
        let mut err = 0;
        // SAFETY: valid context, device and property list.
        let q = unsafe {
            clCreateCommandQueueWithProperties(self.context, self.device, props.as_ptr(), &mut err)
        };
        assert_eq!(err, CL_SUCCESS);
        q
    }
}

impl Drop for Setup {
    fn drop(&mut self) {
        // SAFETY: the context we created.
        unsafe { clReleaseContext(self.context) };
    }
}
