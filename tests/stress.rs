//! 8 host threads each enqueue 10,000 commands on their own queue, each
//! waiting on the previous command of the neighbour thread's queue, with a
//! callback on every command: every command runs exactly once and nothing
//! deadlocks.

mod common;
use common::*;
use std::ffi::c_void;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier, Mutex};

const THREADS: usize = 8;
const COMMANDS: usize = 10_000;

static RUNS: [AtomicUsize; THREADS] = [const { AtomicUsize::new(0) }; THREADS];

unsafe extern "C" fn count_run(args: *mut c_void) {
    // SAFETY: the argument block holds the thread index we passed.
    let thread = unsafe { *(args as *const usize) };
    RUNS[thread].fetch_add(1, Ordering::Relaxed);
}

#[test]
fn eight_threads_ten_thousand_commands_each() {
    select_ferrocl();
    let platform = platforms()[0];
    let setup = Arc::new(Setup::new(platform));
    // The latest event of each thread's queue, for its neighbour to wait on.
    let latest: Arc<Vec<Mutex<Option<Shared<cl_event>>>>> =
        Arc::new((0..THREADS).map(|_| Mutex::new(None)).collect());
    let start = Arc::new(Barrier::new(THREADS));
    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let (setup, latest, start) = (setup.clone(), latest.clone(), start.clone());
            std::thread::spawn(move || {
                let ooo = if t % 2 == 0 {
                    0
                } else {
                    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE as u64
                };
                let q = Shared(setup.queue(ooo) as cl_event);
                start.wait();
                for i in 0..COMMANDS {
                    // Retained under the slot's lock, so its owner cannot
                    // release it in between.
                    let neighbour = {
                        let slot = latest[(t + 1) % THREADS].lock().unwrap();
                        if let Some(e) = *slot {
                            // SAFETY: the slot holds a reference to e.
                            assert_eq!(unsafe { clRetainEvent(e.0) }, CL_SUCCESS);
                        }
                        *slot
                    };
                    let mut ev = std::ptr::null_mut();
                    // SAFETY: valid queue and a retained wait event.
                    unsafe {
                        let wait: Vec<cl_event> = neighbour.map(|e| e.0).into_iter().collect();
                        let wait_ptr = if wait.is_empty() {
                            std::ptr::null()
                        } else {
                            wait.as_ptr()
                        };
                        let err = if i % 3 == 0 {
                            clEnqueueMarkerWithWaitList(
                                q.0 as cl_command_queue,
                                wait.len() as u32,
                                wait_ptr,
                                &mut ev,
                            )
                        } else {
                            let mut arg = t;
                            clEnqueueNativeKernel(
                                q.0 as cl_command_queue,
                                count_run,
                                &mut arg as *mut usize as *mut c_void,
                                std::mem::size_of::<usize>(),
                                0,
                                std::ptr::null(),
                                std::ptr::null_mut(),
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
                            clSetEventCallback(
                                ev,
                                CL_COMPLETE,
                                count_callback,
                                std::ptr::null_mut()
                            ),
                            CL_SUCCESS
                        );
                    }
                    let old = latest[t].lock().unwrap().replace(Shared(ev));
                    if let Some(old) = old {
                        // SAFETY: our reference to the replaced event.
                        unsafe { clReleaseEvent(old.0) };
                    }
                }
                // SAFETY: our queue.
                unsafe {
                    assert_eq!(clFinish(q.0 as cl_command_queue), CL_SUCCESS);
                    clReleaseCommandQueue(q.0 as cl_command_queue);
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("enqueueing thread");
    }
    let native_per_thread = (0..COMMANDS).filter(|i| i % 3 != 0).count();
    for (t, runs) in RUNS.iter().enumerate() {
        assert_eq!(
            runs.load(Ordering::Relaxed),
            native_per_thread,
            "thread {t}"
        );
    }
    // Callbacks run beside the commands after them; give the last ones a moment.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while CALLBACKS.load(Ordering::Relaxed) < THREADS * COMMANDS
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    assert_eq!(CALLBACKS.load(Ordering::Relaxed), THREADS * COMMANDS);
    for slot in latest.iter() {
        if let Some(e) = slot.lock().unwrap().take() {
            // SAFETY: the last events we still hold.
            unsafe { clReleaseEvent(e.0) };
        }
    }
}
