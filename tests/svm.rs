//! Shared virtual memory through the loader: allocations of every kind,
//! the SVM commands on real data, and host threads sharing fine-grained
//! memory with atomics.

mod common;
use common::*;
use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};

type SvmFreeFn = unsafe extern "C" fn(cl_command_queue, cl_uint, *mut *mut c_void, *mut c_void);

#[link(name = "OpenCL")]
extern "C" {
    fn clSVMAlloc(
        c: cl_context,
        flags: cl_svm_mem_flags,
        size: usize,
        align: cl_uint,
    ) -> *mut c_void;
    fn clSVMFree(c: cl_context, p: *mut c_void);
    fn clEnqueueSVMMemcpy(
        q: cl_command_queue,
        blocking: cl_bool,
        dst: *mut c_void,
        src: *const c_void,
        size: usize,
        n: cl_uint,
        wait: *const cl_event,
        ev: *mut cl_event,
    ) -> cl_int;
    fn clEnqueueSVMMemFill(
        q: cl_command_queue,
        ptr: *mut c_void,
        pattern: *const c_void,
        pattern_size: usize,
        size: usize,
        n: cl_uint,
        wait: *const cl_event,
        ev: *mut cl_event,
    ) -> cl_int;
    fn clEnqueueSVMFree(
        q: cl_command_queue,
        n: cl_uint,
        ptrs: *mut *mut c_void,
        func: Option<SvmFreeFn>,
        user: *mut c_void,
        nw: cl_uint,
        wait: *const cl_event,
        ev: *mut cl_event,
    ) -> cl_int;
}

fn setup() -> Setup {
    select_ferrocl();
    Setup::new(platforms()[0])
}

const FINE: cl_svm_mem_flags = CL_MEM_SVM_FINE_GRAIN_BUFFER as cl_svm_mem_flags;
const ATOMICS: cl_svm_mem_flags = CL_MEM_SVM_ATOMICS as cl_svm_mem_flags;

#[test]
fn alloc_kinds_and_bad_arguments() {
    let s = setup();
    let rw = CL_MEM_READ_WRITE as cl_svm_mem_flags;
    let ro = CL_MEM_READ_ONLY as cl_svm_mem_flags;
    for flags in [0, rw, ro, FINE, FINE | ATOMICS] {
        // SAFETY: a valid context; the block is ours until freed.
        unsafe {
            let p = clSVMAlloc(s.context, flags, 1000, 0);
            assert!(!p.is_null());
            assert_eq!(p as usize % 128, 0);
            std::ptr::write_bytes(p as *mut u8, 0xcd, 1000);
            clSVMFree(s.context, p);
        }
    }
    // SAFETY: invalid arguments only produce NULL; frees of NULL or foreign
    // pointers are ignored.
    unsafe {
        assert!(clSVMAlloc(s.context, 0, 0, 0).is_null());
        assert!(clSVMAlloc(s.context, ATOMICS, 8, 0).is_null());
        assert!(clSVMAlloc(s.context, rw | ro, 8, 0).is_null());
        assert!(clSVMAlloc(s.context, 0, 8, 24).is_null());
        assert!(clSVMAlloc(std::ptr::null_mut(), 0, 8, 0).is_null());
        clSVMFree(s.context, std::ptr::null_mut());
        let mut local = 0u64;
        clSVMFree(s.context, &mut local as *mut u64 as *mut c_void);
    }
}

#[test]
fn fill_then_copy_in_order() {
    let s = setup();
    let q = s.queue(0);
    let n = 1 << 16;
    // SAFETY: valid queue; the SVM blocks hold n u32 each and stay allocated
    // until clFinish returns.
    unsafe {
        let a = clSVMAlloc(s.context, 0, n * 4, 0) as *mut u32;
        let b = clSVMAlloc(s.context, FINE, n * 4, 0) as *mut u32;
        let pattern = 0xdead_beefu32;
        let none = std::ptr::null_mut();
        assert_eq!(
            clEnqueueSVMMemFill(
                q,
                a.cast(),
                (&pattern as *const u32).cast(),
                4,
                n * 4,
                0,
                std::ptr::null(),
                none
            ),
            CL_SUCCESS
        );
        assert_eq!(
            clEnqueueSVMMemcpy(
                q,
                CL_TRUE,
                b.cast(),
                a.cast(),
                n * 4,
                0,
                std::ptr::null(),
                none
            ),
            CL_SUCCESS
        );
        let copied = std::slice::from_raw_parts(b, n);
        assert!(copied.iter().all(|&v| v == pattern));
        assert_eq!(
            clEnqueueSVMMemcpy(
                q,
                CL_TRUE,
                a.add(1).cast(),
                a.cast(),
                8,
                0,
                std::ptr::null(),
                none
            ),
            CL_MEM_COPY_OVERLAP
        );
        let mut list = [a.cast::<c_void>(), b.cast()];
        assert_eq!(
            clEnqueueSVMFree(
                q,
                2,
                list.as_mut_ptr(),
                None,
                std::ptr::null_mut(),
                0,
                std::ptr::null(),
                none
            ),
            CL_SUCCESS
        );
        assert_eq!(clFinish(q), CL_SUCCESS);
        clReleaseCommandQueue(q);
    }
}

static FREED: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn free_callback(
    _q: cl_command_queue,
    n: cl_uint,
    ptrs: *mut *mut c_void,
    user: *mut c_void,
) {
    // SAFETY: the implementation hands us its array of n pointers and the
    // context we passed as user data.
    unsafe {
        for i in 0..n as usize {
            clSVMFree(user as cl_context, *ptrs.add(i));
        }
    }
    FREED.fetch_add(n as usize, Ordering::SeqCst);
}

#[test]
fn enqueued_free_calls_back() {
    let s = setup();
    let q = s.queue(0);
    // SAFETY: valid queue and context; the callback frees the blocks.
    unsafe {
        let mut list = [
            clSVMAlloc(s.context, 0, 64, 0),
            clSVMAlloc(s.context, FINE, 64, 0),
        ];
        assert_eq!(
            clEnqueueSVMFree(
                q,
                2,
                list.as_mut_ptr(),
                Some(free_callback),
                s.context as *mut c_void,
                0,
                std::ptr::null(),
                std::ptr::null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(clFinish(q), CL_SUCCESS);
        clReleaseCommandQueue(q);
    }
    assert_eq!(FREED.load(Ordering::SeqCst), 2);
}

/// Host threads share a fine-grained SVM counter through atomics.
#[test]
fn host_threads_share_fine_grained_atomics() {
    let s = setup();
    // SAFETY: a fine-grained block big enough and aligned for an AtomicU32,
    // freed after every thread has joined.
    let p = unsafe { clSVMAlloc(s.context, FINE | ATOMICS, 4, 0) } as *mut AtomicU32;
    assert!(!p.is_null());
    // SAFETY: as above; initialised before any thread reads it.
    let counter: &AtomicU32 = unsafe {
        p.write(AtomicU32::new(0));
        &*p
    };
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                for _ in 0..100_000 {
                    counter.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
    });
    assert_eq!(counter.load(Ordering::SeqCst), 400_000);
    // SAFETY: no thread uses the block any more.
    unsafe { clSVMFree(s.context, p.cast()) };
}
