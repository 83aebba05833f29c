//! Programs through the loader: building OpenCL C, the build log of a
//! failing build, kernel names, and the binary round trip.

mod common;
use common::*;
use std::ffi::{c_char, c_void};
use std::ptr::{null, null_mut};

#[link(name = "OpenCL")]
extern "C" {
    fn clCreateProgramWithBinary(
        c: cl_context,
        n: cl_uint,
        d: *const cl_device_id,
        l: *const usize,
        b: *const *const u8,
        st: *mut cl_int,
        e: *mut cl_int,
    ) -> cl_program;
    fn clGetProgramInfo(
        p: cl_program,
        name: cl_uint,
        size: usize,
        v: *mut c_void,
        r: *mut usize,
    ) -> cl_int;
}

fn program(s: &Setup, src: &str) -> cl_program {
    let (p, len, mut err) = (src.as_ptr() as *const c_char, src.len(), 0);
    // SAFETY: one string of len bytes.
    let prog = unsafe { clCreateProgramWithSource(s.context, 1, &p, &len, &mut err) };
    assert_eq!(err, CL_SUCCESS);
    prog
}

fn bytes(f: impl Fn(usize, *mut c_void, *mut usize) -> cl_int) -> Vec<u8> {
    let mut n = 0;
    assert_eq!(f(0, null_mut(), &mut n), CL_SUCCESS);
    let mut v = vec![0u8; n];
    assert_eq!(f(n, v.as_mut_ptr() as *mut c_void, null_mut()), CL_SUCCESS);
    v
}

fn text(v: Vec<u8>) -> String {
    String::from_utf8_lossy(&v)
        .trim_end_matches('\0')
        .to_string()
}

#[test]
fn build_names_log_and_binary() {
    select_ferrocl();
    let s = Setup::new(platforms()[0]);
    let p = program(
        &s,
        "__kernel void a(__global int *x) { x[0] = 1; }\n__kernel void b(float f) { }\n",
    );
    // SAFETY: valid program; no options, no callback.
    let rc = unsafe { clBuildProgram(p, 0, null(), null(), null(), null_mut()) };
    assert_eq!(rc, CL_SUCCESS);
    // SAFETY: valid program and out-pointers throughout.
    let names = text(bytes(|n, v, r| {
        // SAFETY: valid objects; n, v and r are the query's size and out-pointers.
        unsafe { clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, n, v, r) }
    }));
    assert_eq!(names, "a;b");
    let sizes = bytes(|n, v, r| {
        // SAFETY: valid objects; n, v and r are the query's size and out-pointers.
        unsafe { clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, n, v, r) }
    });
    let size = usize::from_ne_bytes(sizes[..8].try_into().unwrap());
    assert!(size > 0);
    let mut bin = vec![0u8; size];
    let mut ptr = bin.as_mut_ptr();
    // SAFETY: one device, one pointer to size bytes.
    let rc = unsafe {
        clGetProgramInfo(
            p,
            CL_PROGRAM_BINARIES,
            8,
            &mut ptr as *mut _ as *mut c_void,
            null_mut(),
        )
    };
    assert_eq!(rc, CL_SUCCESS);

    let (bp, mut st, mut err) = (bin.as_ptr(), 0, 0);
    // SAFETY: one device, one binary of size bytes.
    let p2 = unsafe {
        clCreateProgramWithBinary(s.context, 1, &s.device, &size, &bp, &mut st, &mut err)
    };
    assert_eq!((err, st), (CL_SUCCESS, CL_SUCCESS));
    // SAFETY: as above.
    let rc = unsafe { clBuildProgram(p2, 0, null(), null(), null(), null_mut()) };
    assert_eq!(rc, CL_SUCCESS);
    let n = bytes(|n, v, r| {
        // SAFETY: valid objects; n, v and r are the query's size and out-pointers.
        unsafe { clGetProgramInfo(p2, CL_PROGRAM_NUM_KERNELS, n, v, r) }
    });
    assert_eq!(usize::from_ne_bytes(n[..8].try_into().unwrap()), 2);

    let junk = [1u8, 2, 3];
    let (jp, jl) = (junk.as_ptr(), junk.len());
    // SAFETY: as above.
    let bad =
        unsafe { clCreateProgramWithBinary(s.context, 1, &s.device, &jl, &jp, &mut st, &mut err) };
    assert!(bad.is_null());
    assert_eq!((err, st), (CL_INVALID_BINARY, CL_INVALID_BINARY));

    let f = program(&s, "__kernel void k(__global int *x) { x[0] = nope; }");
    // SAFETY: as above.
    let rc = unsafe { clBuildProgram(f, 0, null(), null(), null(), null_mut()) };
    assert_eq!(rc, CL_BUILD_PROGRAM_FAILURE);
    let log = text(bytes(|n, v, r| {
        // SAFETY: valid objects; n, v and r are the query's size and out-pointers.
        unsafe { clGetProgramBuildInfo(f, s.device, CL_PROGRAM_BUILD_LOG, n, v, r) }
    }));
    assert!(log.contains("nope"), "{log}");
    let opt = c"-no-such-option";
    // SAFETY: as above.
    let rc = unsafe { clBuildProgram(f, 0, null(), opt.as_ptr(), null(), null_mut()) };
    assert_eq!(rc, CL_INVALID_BUILD_OPTIONS);
    // SAFETY: releasing what was created.
    unsafe {
        clReleaseProgram(p);
        clReleaseProgram(p2);
        clReleaseProgram(f);
    }
}
