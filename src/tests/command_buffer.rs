//! Command buffers (core::command_buffer) enqueued on core queues: the
//! order their recorded commands run in and how a failure spreads.

use crate::cl::*;
use crate::core::command_buffer::{CommandBuffer, Step};
use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::queue::{Queue, Sync};
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

type Log = Arc<Mutex<Vec<String>>>;

/// Records a command that logs `name` (and fails with `fails`, if any)
/// after the sync points `waits`; returns its sync point.
fn record(
    b: &CommandBuffer,
    log: &Log,
    name: &str,
    waits: &[cl_sync_point_khr],
    fails: Option<cl_int>,
) -> cl_sync_point_khr {
    let log = log.clone();
    let name = name.to_string();
    let step = Step::Fixed(Arc::new(move || {
        log.lock().unwrap().push(name.clone());
        fails.map_or(Ok(()), Err)
    }));
    b.record(
        CL_COMMAND_NDRANGE_KERNEL as cl_command_type,
        waits,
        step,
        Vec::new(),
    )
    .unwrap()
}

fn barrier(b: &CommandBuffer) -> cl_sync_point_khr {
    let step = Step::Fixed(Arc::new(|| Ok(())));
    b.record(CL_COMMAND_BARRIER as cl_command_type, &[], step, Vec::new())
        .unwrap()
}

/// Enqueues `b` on its queue and waits: the enqueue's status.
fn run(b: &CommandBuffer) -> cl_int {
    let work = b.work().expect("executable");
    let ev = b.queue.enqueue(
        CL_COMMAND_COMMAND_BUFFER_KHR as cl_command_type,
        &[],
        Sync::Command,
        Some(work),
    );
    ev.wait()
}

fn position(log: &[String], name: &str) -> usize {
    log.iter().position(|n| n == name).unwrap()
}

#[test]
fn in_order_buffer_runs_in_record_order_every_enqueue() {
    let b = CommandBuffer::new(queue(false), Vec::new(), 0);
    let log = Log::default();
    for name in ["a", "b", "c", "d"] {
        record(&b, &log, name, &[], None);
    }
    assert!(b.work().is_none(), "enqueued before finalizing");
    b.finalize().unwrap();
    for _ in 0..3 {
        assert_eq!(run(&b), CL_COMPLETE as cl_int);
    }
    assert_eq!(*log.lock().unwrap(), ["a", "b", "c", "d"].repeat(3));
}

#[test]
fn out_of_order_buffer_keeps_sync_points_and_barriers() {
    let b = CommandBuffer::new(queue(true), Vec::new(), 0);
    let log = Log::default();
    let rounds = 20;
    for r in 0..rounds {
        let a = record(&b, &log, &format!("a{r}"), &[], None);
        let c = record(&b, &log, &format!("b{r}"), &[], None);
        record(&b, &log, &format!("after a and b{r}"), &[a, c], None);
        record(&b, &log, &format!("free{r}"), &[], None);
        barrier(&b);
        record(&b, &log, &format!("after the barrier{r}"), &[], None);
    }
    b.finalize().unwrap();
    assert_eq!(run(&b), CL_COMPLETE as cl_int);
    let log = log.lock().unwrap();
    assert_eq!(log.len(), 5 * rounds);
    for r in 0..rounds {
        let at = |name: &str| position(&log, &format!("{name}{r}"));
        // What waits for sync points comes after them; the barrier orders
        // the round's commands before everything recorded after it.
        assert!(at("a") < at("after a and b") && at("b") < at("after a and b"));
        let round = ["a", "b", "after a and b", "free"].map(at);
        assert!(round.iter().all(|&p| p < at("after the barrier")));
        if r + 1 < rounds {
            let next = position(&log, &format!("a{}", r + 1));
            assert!(round.iter().all(|&p| p < next));
        }
    }
}

#[test]
fn a_failed_command_fails_the_enqueue_and_what_waits_for_it() {
    let b = CommandBuffer::new(queue(true), Vec::new(), 0);
    let log = Log::default();
    let bad = record(&b, &log, "fails", &[], Some(CL_OUT_OF_RESOURCES));
    record(&b, &log, "waits for it", &[bad], None);
    record(&b, &log, "independent", &[], None);
    b.finalize().unwrap();
    assert_eq!(run(&b), CL_OUT_OF_RESOURCES);
    let log = log.lock().unwrap();
    assert!(log.iter().any(|n| n == "fails") && log.iter().any(|n| n == "independent"));
    assert!(!log.iter().any(|n| n == "waits for it"));
}

#[test]
fn sync_points_must_name_recorded_commands() {
    let b = CommandBuffer::new(queue(true), Vec::new(), 0);
    let log = Log::default();
    let first = record(&b, &log, "a", &[], None);
    assert_eq!(first, 1);
    assert_eq!(b.check_sync_points(&[first]), Ok(()));
    assert_eq!(
        b.check_sync_points(&[0]),
        Err(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR)
    );
    assert_eq!(
        b.check_sync_points(&[2]),
        Err(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR)
    );
    b.finalize().unwrap();
    assert_eq!(b.finalize(), Err(CL_INVALID_OPERATION));
    let step = Step::Fixed(Arc::new(|| Ok(())));
    assert_eq!(
        b.record(CL_COMMAND_BARRIER as cl_command_type, &[], step, Vec::new()),
        Err(CL_INVALID_OPERATION)
    );
}
