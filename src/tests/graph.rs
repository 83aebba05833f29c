//! The scheduler's contract, tested on the core objects directly.

use crate::cl::*;
use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::event::{Event, Work};
use crate::core::queue::{Queue, Sync};
use crate::sched::pool::{Claims, Pace};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

fn queue(out_of_order: bool) -> Arc<Queue> {
    let ctx = Context::new(vec![Device::root().clone()], Vec::new(), None);
    let props = if out_of_order {
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE as cl_command_queue_properties
    } else {
        0
    };
    Queue::new(ctx, Device::root().clone(), props, Vec::new())
}

fn work(f: impl FnOnce() + Send + 'static) -> Option<Work> {
    Some(Box::new(move || {
        f();
        Ok(())
    }))
}

fn set_user_status(ev: &Arc<Event>, status: cl_int) {
    assert!(ev.claim_user_status());
    ev.end_user_event(status);
}

#[test]
fn in_order_queue_runs_commands_in_order() {
    let q = queue(false);
    let log = Arc::new(Mutex::new(Vec::new()));
    for i in 0..200 {
        let log = log.clone();
        q.enqueue(
            CL_COMMAND_NATIVE_KERNEL,
            &[],
            Sync::Command,
            work(move || log.lock().unwrap().push(i)),
        );
    }
    q.finish();
    assert_eq!(*log.lock().unwrap(), (0..200).collect::<Vec<_>>());
}

#[test]
fn user_event_gates_commands_and_completion_is_visible() {
    let q = queue(true);
    let gate = Event::new_user(q.context.clone());
    let ran = Arc::new(AtomicUsize::new(0));
    let events: Vec<_> = (0..10)
        .map(|_| {
            let ran = ran.clone();
            q.enqueue(
                CL_COMMAND_NATIVE_KERNEL,
                std::slice::from_ref(&gate),
                Sync::Command,
                work(move || {
                    ran.fetch_add(1, Ordering::Relaxed);
                }),
            )
        })
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert_eq!(
        ran.load(Ordering::Relaxed),
        0,
        "nothing runs before the gate opens"
    );
    assert!(events.iter().all(|e| e.status() == CL_SUBMITTED as cl_int));
    set_user_status(&gate, CL_COMPLETE);
    q.finish();
    assert_eq!(ran.load(Ordering::Relaxed), 10);
    assert!(events.iter().all(|e| e.status() == CL_COMPLETE));
}

#[test]
fn failed_user_event_fails_dependents_without_running_them() {
    let q = queue(false);
    let gate = Event::new_user(q.context.clone());
    let ran = Arc::new(AtomicUsize::new(0));
    let r = ran.clone();
    let dependent = q.enqueue(
        CL_COMMAND_NATIVE_KERNEL,
        std::slice::from_ref(&gate),
        Sync::Command,
        work(move || {
            r.fetch_add(1, Ordering::Relaxed);
        }),
    );
    // Waits on `dependent` through its wait list: fails too.
    let chained = q.enqueue(
        CL_COMMAND_MARKER,
        std::slice::from_ref(&dependent),
        Sync::Marker,
        None,
    );
    set_user_status(&gate, -42);
    assert_eq!(
        dependent.wait(),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
    );
    assert_eq!(chained.wait(), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_eq!(ran.load(Ordering::Relaxed), 0);
}

#[test]
fn out_of_order_barrier_orders_before_and_after() {
    let q = queue(true);
    let before = Arc::new(AtomicUsize::new(0));
    let seen_after = Arc::new(AtomicUsize::new(usize::MAX));
    for _ in 0..50 {
        let b = before.clone();
        q.enqueue(
            CL_COMMAND_NATIVE_KERNEL,
            &[],
            Sync::Command,
            work(move || {
                std::thread::sleep(std::time::Duration::from_micros(50));
                b.fetch_add(1, Ordering::SeqCst);
            }),
        );
    }
    q.enqueue(CL_COMMAND_BARRIER, &[], Sync::Barrier, None);
    let (b, s) = (before.clone(), seen_after.clone());
    q.enqueue(
        CL_COMMAND_NATIVE_KERNEL,
        &[],
        Sync::Command,
        work(move || {
            s.store(b.load(Ordering::SeqCst), Ordering::SeqCst);
        }),
    );
    q.finish();
    assert_eq!(seen_after.load(Ordering::SeqCst), 50);
}

#[test]
fn out_of_order_commands_run_concurrently() {
    if Device::root().compute_units < 2 {
        return;
    }
    let q = queue(true);
    // Two commands that can only finish if they run at the same time.
    let arrived = Arc::new(AtomicUsize::new(0));
    let events: Vec<_> = (0..2)
        .map(|_| {
            let a = arrived.clone();
            q.enqueue(
                CL_COMMAND_NATIVE_KERNEL,
                &[],
                Sync::Command,
                Some(Box::new(move || {
                    a.fetch_add(1, Ordering::SeqCst);
                    let start = std::time::Instant::now();
                    while a.load(Ordering::SeqCst) < 2 {
                        if start.elapsed().as_secs() > 5 {
                            return Err(-1);
                        }
                        std::hint::spin_loop();
                    }
                    Ok(())
                })),
            )
        })
        .collect();
    q.finish();
    assert!(events.iter().all(|e| e.status() == CL_COMPLETE));
}

#[test]
fn a_failing_command_ends_with_its_status() {
    let q = queue(false);
    let ev = q.enqueue(
        CL_COMMAND_NATIVE_KERNEL,
        &[],
        Sync::Command,
        Some(Box::new(|| Err(CL_OUT_OF_RESOURCES))),
    );
    assert_eq!(ev.wait(), CL_OUT_OF_RESOURCES);
    // The queue goes on: implicit order does not fail later commands.
    let next = q.enqueue(CL_COMMAND_MARKER, &[], Sync::Marker, None);
    assert_eq!(next.wait(), CL_COMPLETE);
}

#[test]
fn long_chains_of_markers_do_not_recurse() {
    let q = queue(true);
    let gate = Event::new_user(q.context.clone());
    let mut last = gate.clone();
    for _ in 0..100_000 {
        last = q.enqueue(CL_COMMAND_MARKER, &[last], Sync::Command, None);
    }
    set_user_status(&gate, CL_COMPLETE);
    assert_eq!(last.wait(), CL_COMPLETE);
}

/// The most commands of `q` that ran at the same time, over `n` commands.
fn peak_concurrency(q: &Arc<Queue>, n: usize) -> usize {
    let active = Arc::new(AtomicUsize::new(0));
    let peak = Arc::new(AtomicUsize::new(0));
    for _ in 0..n {
        let (a, p) = (active.clone(), peak.clone());
        q.enqueue(
            CL_COMMAND_NATIVE_KERNEL,
            &[],
            Sync::Command,
            work(move || {
                let now = a.fetch_add(1, Ordering::SeqCst) + 1;
                p.fetch_max(now, Ordering::SeqCst);
                std::thread::sleep(std::time::Duration::from_millis(2));
                a.fetch_sub(1, Ordering::SeqCst);
            }),
        );
    }
    q.finish();
    peak.load(Ordering::SeqCst)
}

#[test]
fn a_sub_device_runs_on_as_many_threads_as_it_has_compute_units() {
    let root = Device::root();
    let sub = Device::new_sub_device(
        root,
        Device::unplaced_part(1),
        vec![CL_DEVICE_PARTITION_EQUALLY as isize, 1, 0],
    );
    let ctx = Context::new(vec![sub.clone()], Vec::new(), None);
    let ooo = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE as cl_command_queue_properties;
    let q = Queue::new(ctx, sub, ooo, Vec::new());
    assert_eq!(peak_concurrency(&q, 8), 1);
    if root.compute_units >= 2 {
        assert!(peak_concurrency(&queue(true), 8) >= 2);
    }
}

/// Marks each index of `0..len` as run, checking none runs twice.
fn count_indices(pool: &crate::sched::pool::Pool, len: usize) -> Vec<usize> {
    let hits: Vec<AtomicUsize> = (0..len).map(|_| AtomicUsize::new(0)).collect();
    pool.parallel_for(len, 0, &Pace::default(), &|claims: &mut Claims<'_>| {
        for i in claims.flatten() {
            hits[i].fetch_add(1, Ordering::Relaxed);
        }
    })
    .unwrap();
    hits.into_iter().map(|h| h.into_inner()).collect()
}

#[test]
fn parallel_for_finishes_alone_when_every_worker_is_busy() {
    let sub = Device::new_sub_device(Device::root(), Device::unplaced_part(2), Vec::new());
    let ctx = Context::new(vec![sub.clone()], Vec::new(), None);
    let ooo = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE as cl_command_queue_properties;
    let q = Queue::new(ctx, sub.clone(), ooo, Vec::new());
    // Both workers blocked until the loop is done.
    let gate = Arc::new((Mutex::new(false), std::sync::Condvar::new()));
    let started = Arc::new(AtomicUsize::new(0));
    let events: Vec<_> = (0..2)
        .map(|_| {
            let (gate, started) = (gate.clone(), started.clone());
            q.enqueue(
                CL_COMMAND_NATIVE_KERNEL,
                &[],
                Sync::Command,
                work(move || {
                    started.fetch_add(1, Ordering::SeqCst);
                    let mut open = gate.0.lock().unwrap();
                    while !*open {
                        open = gate.1.wait(open).unwrap();
                    }
                }),
            )
        })
        .collect();
    while started.load(Ordering::SeqCst) < 2 {
        std::thread::yield_now();
    }
    assert_eq!(count_indices(sub.pool(), 1000), vec![1; 1000]);
    *gate.0.lock().unwrap() = true;
    gate.1.notify_all();
    for ev in events {
        assert_eq!(ev.wait(), CL_COMPLETE);
    }
    // Idle now: the workers help, and stale offers of help are harmless.
    for len in [0, 1, 7, 100_000] {
        assert_eq!(count_indices(sub.pool(), len), vec![1; len]);
    }
}

#[test]
fn parallel_for_from_inside_a_command_of_a_one_thread_device() {
    let sub = Device::new_sub_device(Device::root(), Device::unplaced_part(1), Vec::new());
    let ctx = Context::new(vec![sub.clone()], Vec::new(), None);
    let q = Queue::new(ctx, sub.clone(), 0, Vec::new());
    let result = Arc::new(Mutex::new(Vec::new()));
    let (r, dev) = (result.clone(), sub.clone());
    let ev = q.enqueue(
        CL_COMMAND_NATIVE_KERNEL,
        &[],
        Sync::Command,
        work(move || *r.lock().unwrap() = count_indices(dev.pool(), 500)),
    );
    assert_eq!(ev.wait(), CL_COMPLETE);
    assert_eq!(*result.lock().unwrap(), vec![1; 500]);
}

/// Runs `0..len` on `pool`, each index sleeping `each`; returns how many
/// distinct threads took part and checks every index ran once.
fn threads_taking_part(
    pool: &crate::sched::pool::Pool,
    len: usize,
    each: std::time::Duration,
    pace: &Pace,
) -> usize {
    let hits: Vec<AtomicUsize> = (0..len).map(|_| AtomicUsize::new(0)).collect();
    let threads = Mutex::new(std::collections::HashSet::new());
    pool.parallel_for(len, 1, pace, &|claims: &mut Claims<'_>| {
        threads.lock().unwrap().insert(std::thread::current().id());
        for i in claims.flatten() {
            hits[i].fetch_add(1, Ordering::Relaxed);
            std::thread::sleep(each);
        }
    })
    .unwrap();
    assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1));
    threads.into_inner().unwrap().len()
}

#[test]
fn small_loops_stay_on_the_calling_thread_and_long_ones_are_shared() {
    let pool = crate::sched::pool::Pool::new(4);
    // Tiny work is not worth a wake-up. A preemption in the middle can make
    // it look long, so one run of several must stay on the calling thread.
    assert!((0..5).any(|_| threads_taking_part(
        &pool,
        8,
        std::time::Duration::ZERO,
        &Pace::default()
    ) == 1));
    // Work far longer than a wake-up brings idle workers in.
    let long = std::time::Duration::from_micros(500);
    assert!(threads_taking_part(&pool, 64, long, &Pace::default()) > 1);
}

#[test]
fn a_loop_of_two_long_indices_is_shared_from_the_start_once_its_pace_is_known() {
    // PolyBench's correlation: two work-groups, the first most of the work.
    // Judged after its first index, the loop ran alone for that long.
    let pool = crate::sched::pool::Pool::new(2);
    let pace = Pace::default();
    let long = std::time::Duration::from_millis(20);
    threads_taking_part(&pool, 2, long, &pace);
    assert!(pace.load(Ordering::Relaxed) >= 10_000_000);
    // Knowing the pace, the calling thread offers the second index before
    // it runs the first (20 ms, far longer than a wake-up).
    assert_eq!(threads_taking_part(&pool, 2, long, &pace), 2);
}

#[test]
fn a_body_that_panics_or_returns_early_still_sees_every_index_once() {
    let pool = crate::sched::pool::Pool::new(3);
    let hits: Vec<AtomicUsize> = (0..1000).map(|_| AtomicUsize::new(0)).collect();
    let ran = pool.parallel_for(1000, 7, &Pace::default(), &|claims: &mut Claims<'_>| {
        // Takes one range per call: the pool calls again for the rest.
        let Some(range) = claims.next() else { return };
        for i in range.clone() {
            hits[i].fetch_add(1, Ordering::Relaxed);
        }
        if range.contains(&500) {
            panic!("a chunk fails");
        }
    });
    assert!(ran.is_err());
    assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1));
}

#[test]
fn parallel_loops_from_many_threads_on_a_big_pool() {
    let pool = crate::sched::pool::Pool::new(24);
    std::thread::scope(|s| {
        for t in 0..6 {
            let pool = &pool;
            s.spawn(move || {
                for round in 0..50 {
                    let len = 1 + (t * 37 + round * 101) % 5000;
                    assert_eq!(count_indices(pool, len), vec![1; len]);
                }
            });
        }
    });
}

/// Runs `f` on a thread with a main thread's stack (8 MiB): test threads
/// have 2 MiB, less than run_here asks for.
fn on_big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

fn enqueue_here(
    q: &Arc<Queue>,
    wait: &[Arc<Event>],
    ran_on: Arc<Mutex<Option<std::thread::ThreadId>>>,
) -> Arc<Event> {
    q.enqueue_holding(
        CL_COMMAND_NDRANGE_KERNEL,
        wait,
        Sync::Command,
        work(move || *ran_on.lock().unwrap() = Some(std::thread::current().id())),
        Vec::new(),
        true,
    )
}

#[test]
fn a_short_ready_command_runs_on_the_enqueuing_thread_and_is_complete_on_return() {
    on_big_stack(|| {
        for out_of_order in [false, true] {
            let q = queue(out_of_order);
            let ran_on = Arc::new(Mutex::new(None));
            let ev = enqueue_here(&q, &[], ran_on.clone());
            assert_eq!(ev.status(), CL_COMPLETE as cl_int);
            assert_eq!(*ran_on.lock().unwrap(), Some(std::thread::current().id()));
            // The next command of an in-order queue is ready too.
            let ran_on = Arc::new(Mutex::new(None));
            let next = enqueue_here(&q, &[ev], ran_on.clone());
            assert_eq!(next.status(), CL_COMPLETE as cl_int);
            assert_eq!(*ran_on.lock().unwrap(), Some(std::thread::current().id()));
        }
    });
}

#[test]
fn a_short_command_that_must_wait_runs_on_a_worker_once_released() {
    on_big_stack(|| {
        let q = queue(true);
        let gate = Event::new_user(q.context.clone());
        let ran_on = Arc::new(Mutex::new(None));
        let ev = enqueue_here(&q, std::slice::from_ref(&gate), ran_on.clone());
        assert_eq!(ev.status(), CL_SUBMITTED as cl_int);
        set_user_status(&gate, CL_COMPLETE as cl_int);
        assert_eq!(ev.wait(), CL_COMPLETE as cl_int);
        let thread = ran_on.lock().unwrap().expect("it ran");
        assert_ne!(thread, std::thread::current().id());
    });
}

#[test]
fn a_command_enqueued_by_one_running_here_goes_to_the_pool() {
    on_big_stack(|| {
        let q = queue(true);
        let inner_on = Arc::new(Mutex::new(None));
        let inner_ev = Arc::new(Mutex::new(None));
        let (q2, on2, ev2) = (q.clone(), inner_on.clone(), inner_ev.clone());
        let outer = q.enqueue_holding(
            CL_COMMAND_NDRANGE_KERNEL,
            &[],
            Sync::Command,
            work(move || *ev2.lock().unwrap() = Some(enqueue_here(&q2, &[], on2))),
            Vec::new(),
            true,
        );
        assert_eq!(outer.status(), CL_COMPLETE as cl_int);
        let inner = inner_ev.lock().unwrap().take().unwrap();
        assert_eq!(inner.wait(), CL_COMPLETE as cl_int);
        let thread = inner_on.lock().unwrap().expect("it ran");
        assert_ne!(
            thread,
            std::thread::current().id(),
            "one command at a time here"
        );
    });
}

#[test]
fn a_thread_with_a_small_stack_hands_short_commands_to_the_pool() {
    let q = queue(true);
    let ran_on = Arc::new(Mutex::new(None));
    std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn({
            let ran_on = ran_on.clone();
            move || {
                let ev = enqueue_here(&q, &[], ran_on.clone());
                assert_eq!(ev.wait(), CL_COMPLETE as cl_int);
                let thread = ran_on.lock().unwrap().expect("it ran");
                assert_ne!(thread, std::thread::current().id());
            }
        })
        .unwrap()
        .join()
        .unwrap();
}
