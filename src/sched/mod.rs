//! The executor: moves commands through the graph. A command is launched
//! when every event it waits on has completed (an acquire of their
//! release); it is dropped, ending with
//! CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, when one of them failed.

pub mod pool;

use crate::cl::*;
use crate::core::event::{Event, Stamp};
use std::sync::Arc;
use std::time::Duration;

/// How long a waiting thread (worker or host) spins before it sleeps.
pub const SPIN_BEFORE_SLEEP: Duration = Duration::from_micros(100);

/// Releases a command whose dependencies are now all complete: runs
/// work-free commands (markers, barriers) and failed ones at once, hands
/// the rest to their device's pool. Loops instead of recursing, since one
/// completion can release a long chain of markers or failures.
pub fn launch(ready: Arc<Event>) {
    let mut todo = vec![ready];
    while let Some(ev) = todo.pop() {
        if let Some(next) = settle_or_queue(ev) {
            todo.extend(next);
        }
    }
}

/// Either ends `ev` right here (returning what that released) or queues it
/// on its pool (returning None).
fn settle_or_queue(ev: Arc<Event>) -> Option<Vec<Arc<Event>>> {
    if ev.dependency_failed() {
        drop(ev.take_work());
        return Some(end(&ev, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST));
    }
    if !ev.has_work() {
        ev.advance(CL_RUNNING as cl_int, Stamp::Start);
        return Some(end(&ev, CL_COMPLETE as cl_int));
    }
    let queue = ev.queue.as_ref().expect("only queued commands carry work");
    queue.device.pool().submit(ev.clone());
    None
}

/// Ends an event and returns the successors that became ready; calls the
/// event's callbacks after releasing the successors.
pub fn end(ev: &Arc<Event>, status: cl_int) -> Vec<Arc<Event>> {
    let (successors, due) = ev.finish(status);
    let failed = status < 0;
    let ready: Vec<Arc<Event>> = successors
        .into_iter()
        .filter(|(s, propagate)| s.release_dependency(failed && *propagate))
        .map(|(s, _)| s)
        .collect();
    ev.call(due, status);
    ready
}

/// Runs one command on the current worker thread. Returns a released
/// successor that this thread may run next (saving a trip through the
/// pool's queue); the others are launched.
pub fn run(ev: Arc<Event>) -> Option<Arc<Event>> {
    ev.advance(CL_RUNNING as cl_int, Stamp::Start);
    let status = match ev.take_work() {
        Some(work) => match std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)) {
            Ok(Ok(())) => CL_COMPLETE as cl_int,
            Ok(Err(code)) => code,
            Err(_) => CL_OUT_OF_RESOURCES,
        },
        None => CL_COMPLETE as cl_int,
    };
    ev.stamp(Stamp::End);
    let mut continuation = None;
    for next in end(&ev, status) {
        let same_pool = continuation.is_none()
            && !next.dependency_failed()
            && next.has_work()
            && match (&next.queue, &ev.queue) {
                (Some(a), Some(b)) => Arc::ptr_eq(&a.device, &b.device),
                _ => false,
            };
        if same_pool {
            continuation = Some(next);
        } else {
            launch(next);
        }
    }
    continuation
}

#[cfg(test)]
mod tests;
