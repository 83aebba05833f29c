//! Issue 14's scheduler test on a pool of 24 workers (FERROCL_WORKERS, so
//! it runs on a 2-core machine too): 8 host threads enqueue at once on two
//! queues each (one in-order, one out-of-order), every command waiting on
//! the latest command of the neighbour thread. The commands are NDRange
//! kernels over disjoint slices of one buffer (mostly 64 work-items, some
//! large enough to be shared among workers) and markers, each with a
//! completion callback. Every work-item must run exactly once, every
//! callback must come, and a watchdog fails the test instead of letting a
//! deadlock hang it.

mod common;
use common::*;
use std::ffi::c_void;
use std::ptr::{null, null_mut};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier, Mutex};
use std::time::{Duration, Instant};

#[link(name = "OpenCL")]
extern "C" {
    fn clGetDeviceInfo(
        d: cl_device_id,
        name: cl_uint,
        size: usize,
        v: *mut c_void,
        r: *mut usize,
    ) -> cl_int;
}

const WORKERS: u32 = 24;
const THREADS: usize = 8;
const COMMANDS: usize = 4000;

/// Work-items of thread-local command `i` (0: a marker). Every 100th
/// kernel is long enough for its worker to share it with the pool.
fn items(i: usize) -> usize {
    match i % 100 {
        0 => 0,
        50 => 1 << 15,
        _ => 64,
    }
}

fn items_per_thread() -> usize {
    (0..COMMANDS).map(items).sum()
}

const SOURCE: &str = "kernel void count(global int *hits) { atomic_inc(&hits[get_global_id(0)]); }";

#[test]
fn many_threads_and_queues_with_cross_queue_dependencies_on_24_workers() {
    // Read when the device is first created: before any CL call.
    std::env::set_var("FERROCL_WORKERS", WORKERS.to_string());
    select_ferrocl();
    let done = Arc::new(AtomicBool::new(false));
    {
        let done = done.clone();
        std::thread::spawn(move || {
            let deadline = Instant::now() + Duration::from_secs(300);
            while !done.load(Ordering::Relaxed) {
                if Instant::now() > deadline {
                    eprintln!("many_workers: no progress after 300 s (deadlock?)");
                    std::process::abort();
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        });
    }
    let setup = Arc::new(Setup::new(platforms()[0]));
    let mut units: cl_uint = 0;
    // SAFETY: a cl_uint query into a cl_uint.
    let err = unsafe {
        clGetDeviceInfo(
            setup.device,
            CL_DEVICE_MAX_COMPUTE_UNITS,
            std::mem::size_of::<cl_uint>(),
            &mut units as *mut cl_uint as *mut c_void,
            null_mut(),
        )
    };
    assert_eq!((err, units), (CL_SUCCESS, WORKERS));

    let per_thread = items_per_thread();
    let total = per_thread * THREADS;
    let mut err = 0;
    let p = setup.build(SOURCE, None);
    // SAFETY: a valid context, a zero-initialized buffer of `total` ints.
    let (program, hits) = unsafe {
        let zeros = vec![0i32; total];
        let flags = (CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR) as cl_mem_flags;
        let hits = clCreateBuffer(
            setup.context,
            flags,
            total * 4,
            zeros.as_ptr() as *mut c_void,
            &mut err,
        );
        assert_eq!(err, CL_SUCCESS);
        (Shared(p), Shared(hits))
    };

    // The latest event of each thread, for its neighbour to wait on.
    let latest: Arc<Vec<Mutex<Option<Shared<cl_event>>>>> =
        Arc::new((0..THREADS).map(|_| Mutex::new(None)).collect());
    let start = Arc::new(Barrier::new(THREADS));
    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let (setup, latest, start) = (setup.clone(), latest.clone(), start.clone());
            std::thread::spawn(move || {
                let (program, hits) = (program, hits);
                let ooo = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE as cl_command_queue_properties;
                let queues = [Shared(setup.queue(0)), Shared(setup.queue(ooo))];
                let mut err = 0;
                // SAFETY: a built program, a kernel of this thread's own
                // (kernel arguments are not to be set from two threads).
                let kernel = unsafe {
                    let k = clCreateKernel(program.0, c"count".as_ptr(), &mut err);
                    assert_eq!(err, CL_SUCCESS);
                    let m = hits.0;
                    assert_eq!(
                        clSetKernelArg(
                            k,
                            0,
                            std::mem::size_of::<cl_mem>(),
                            &m as *const cl_mem as *const c_void
                        ),
                        CL_SUCCESS
                    );
                    k
                };
                let mut offset = t * per_thread;
                start.wait();
                for i in 0..COMMANDS {
                    let q = queues[i % 2].0;
                    // Retained under the slot's lock, so that its owner
                    // cannot release it in between.
                    let neighbour = {
                        let slot = latest[(t + 1) % THREADS].lock().unwrap();
                        if let Some(e) = *slot {
                            // SAFETY: the slot holds a reference to e.
                            assert_eq!(unsafe { clRetainEvent(e.0) }, CL_SUCCESS);
                        }
                        *slot
                    };
                    let wait: Vec<cl_event> = neighbour.map(|e| e.0).into_iter().collect();
                    let wait_ptr = if wait.is_empty() {
                        null()
                    } else {
                        wait.as_ptr()
                    };
                    let mut ev = null_mut();
                    let n = items(i);
                    // SAFETY: valid queue, kernel and retained wait event;
                    // the range is this thread's own slice of `hits`.
                    unsafe {
                        let err = if n == 0 {
                            clEnqueueMarkerWithWaitList(q, wait.len() as u32, wait_ptr, &mut ev)
                        } else {
                            clEnqueueNDRangeKernel(
                                q,
                                kernel,
                                1,
                                &offset,
                                &n,
                                null(),
                                wait.len() as u32,
                                wait_ptr,
                                &mut ev,
                            )
                        };
                        assert_eq!(err, CL_SUCCESS);
                        if let Some(w) = wait.first() {
                            clReleaseEvent(*w);
                        }
                        assert_eq!(
                            clSetEventCallback(ev, CL_COMPLETE, count_callback, null_mut()),
                            CL_SUCCESS
                        );
                    }
                    offset += n;
                    let old = latest[t].lock().unwrap().replace(Shared(ev));
                    if let Some(old) = old {
                        // SAFETY: our reference to the replaced event.
                        unsafe { clReleaseEvent(old.0) };
                    }
                }
                // SAFETY: our queues and kernel.
                unsafe {
                    for q in queues {
                        assert_eq!(clFinish(q.0), CL_SUCCESS);
                        clReleaseCommandQueue(q.0);
                    }
                    clReleaseKernel(kernel);
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("enqueueing thread");
    }
    for slot in latest.iter() {
        if let Some(e) = slot.lock().unwrap().take() {
            // SAFETY: the last reference this test holds.
            unsafe { clReleaseEvent(e.0) };
        }
    }

    let q = setup.queue(0);
    let mut seen = vec![0i32; total];
    // SAFETY: a blocking read of the whole buffer into `seen`.
    unsafe {
        assert_eq!(
            clEnqueueReadBuffer(
                q,
                hits.0,
                CL_TRUE,
                0,
                total * 4,
                seen.as_mut_ptr() as *mut c_void,
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        clReleaseCommandQueue(q);
        clReleaseMemObject(hits.0);
        clReleaseProgram(program.0);
    }
    if let Some(i) = seen.iter().position(|&h| h != 1) {
        panic!(
            "work-item {i} (thread {}) ran {} times",
            i / per_thread,
            seen[i]
        );
    }
    // Callbacks run beside the commands after them; give the last ones a moment.
    let deadline = Instant::now() + Duration::from_secs(10);
    while CALLBACKS.load(Ordering::Relaxed) < THREADS * COMMANDS && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(CALLBACKS.load(Ordering::Relaxed), THREADS * COMMANDS);
    done.store(true, Ordering::Relaxed);
}

const TRIANGLE: &str = r#"
kernel void triangle(global float *out, global int *runs, int n) {
    size_t j = get_global_id(0) + get_global_size(0) * get_global_id(1);
    float s = 0.0f;
    for (int k = (int)(j % 97); k < n; k++)
        s += 1.0f;
    out[j] = s;
    runs[j] = runs[j] + 1;
}
// Its loop has one trip count for every work-item: it gets implicit
// barriers and runs as regions.
kernel void uniform_loop(global float *out, global int *runs, int n) {
    size_t j = get_global_id(0) + get_global_size(0) * get_global_id(1);
    float s = 0.0f;
    for (int k = 0; k < n; k++)
        s += (float)((j + k) % 97 == 0);
    out[j] = s;
    runs[j] = runs[j] + 1;
}
"#;

/// Groups too few for 24 workers are cut into pieces that run on several
/// threads at once (sched/ndrange.rs `pieces`): every work-item still runs
/// exactly once, in 1-D and 2-D groups, uniform and not. A kernel run as
/// regions (implicit barriers) runs whole groups beside it.
#[test]
fn few_groups_cut_into_pieces_run_every_work_item_once_on_24_workers() {
    for (name, want) in [
        (
            c"triangle",
            (|j: usize, n: i32| (n - (j % 97) as i32).max(0) as f32) as fn(usize, i32) -> f32,
        ),
        (c"uniform_loop", |j, n| {
            (0..n as usize).filter(|k| (j + k) % 97 == 0).count() as f32
        }),
    ] {
        run_in_pieces(name, want);
    }
}

fn run_in_pieces(name: &std::ffi::CStr, want: fn(usize, i32) -> f32) {
    std::env::set_var("FERROCL_WORKERS", WORKERS.to_string());
    select_ferrocl();
    let setup = Setup::new(platforms()[0]);
    let q = setup.queue(0);
    let n: i32 = 300;
    let mut err = 0;
    let p = setup.build(TRIANGLE, Some(c"-cl-std=CL3.0"));
    // SAFETY: a built program with that kernel.
    let (program, kernel) = unsafe {
        let k = clCreateKernel(p, name.as_ptr(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        (p, k)
    };
    // (dimensions, global size, local size)
    let ranges: [(u32, [usize; 2], [usize; 2]); 4] = [
        (1, [1024, 1], [1024, 1]),
        (1, [1000, 1], [384, 1]),
        (2, [64, 40], [32, 8]),
        (2, [70, 20], [16, 16]),
    ];
    for (dims, global, local) in ranges {
        let items = global[0] * global[1];
        let zeros = vec![0i32; items];
        let mut out = vec![0f32; items];
        let mut runs = vec![0i32; items];
        // SAFETY: buffers of `items` elements, the kernel's three
        // arguments, a launch within them, blocking reads into vectors of
        // that length.
        unsafe {
            let flags = (CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR) as cl_mem_flags;
            let bytes = items * 4;
            let ptr = zeros.as_ptr() as *mut c_void;
            let out_mem = clCreateBuffer(setup.context, flags, bytes, ptr, &mut err);
            assert_eq!(err, CL_SUCCESS);
            let runs_mem = clCreateBuffer(setup.context, flags, bytes, ptr, &mut err);
            assert_eq!(err, CL_SUCCESS);
            let mem = std::mem::size_of::<cl_mem>();
            assert_eq!(
                clSetKernelArg(kernel, 0, mem, &out_mem as *const _ as *const c_void),
                0
            );
            assert_eq!(
                clSetKernelArg(kernel, 1, mem, &runs_mem as *const _ as *const c_void),
                0
            );
            assert_eq!(
                clSetKernelArg(kernel, 2, 4, &n as *const i32 as *const c_void),
                0
            );
            // Twice: the second launch knows how long the first's groups took.
            for _ in 0..2 {
                let launched = clEnqueueNDRangeKernel(
                    q,
                    kernel,
                    dims,
                    null(),
                    global.as_ptr(),
                    local.as_ptr(),
                    0,
                    null(),
                    null_mut(),
                );
                assert_eq!(launched, CL_SUCCESS);
            }
            for (m, to) in [
                (out_mem, out.as_mut_ptr() as *mut c_void),
                (runs_mem, runs.as_mut_ptr() as *mut c_void),
            ] {
                let read = clEnqueueReadBuffer(q, m, CL_TRUE, 0, bytes, to, 0, null(), null_mut());
                assert_eq!(read, CL_SUCCESS);
                clReleaseMemObject(m);
            }
        }
        for j in 0..items {
            assert_eq!(
                (out[j], runs[j]),
                (want(j, n), 2),
                "{name:?}: work-item {j} of {global:?} in groups of {local:?}"
            );
        }
    }
    // SAFETY: the objects created above.
    unsafe {
        clReleaseKernel(kernel);
        clReleaseProgram(program);
        clReleaseCommandQueue(q);
    }
}
