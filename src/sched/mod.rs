//! The executor: moves commands through the graph. A command is launched
//! when every event it waits on has completed (an acquire of their
//! release); it is dropped, ending with
//! CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, when one of them failed.

pub mod device_queue;
mod here;
pub mod host;
pub mod ndrange;
pub mod pool;
pub mod printf;
mod spin;

pub use here::run_here;
pub use spin::Spin;

use crate::cl::*;
use crate::core::event::{Event, Released, Stamp};
use std::sync::Arc;

/// What a command's work returns when the command ends later, not when the
/// work returns: a kernel whose children are still to run
/// (device_queue::Family ends it).
pub const DEFERRED: cl_int = cl_int::MIN;

thread_local! {
    /// The command this thread is running (see `running_command`).
    static RUNNING: std::cell::RefCell<Option<Arc<Event>>> = const { std::cell::RefCell::new(None) };
}

/// The command whose work the calling thread is running, if any.
pub fn running_command() -> Option<Arc<Event>> {
    RUNNING.with(|r| r.borrow().clone())
}

/// Releases a command whose dependencies are now all complete: runs
/// work-free commands (markers, barriers) and failed ones at once, hands
/// the rest to their device's pool. Loops instead of recursing, since one
/// completion can release a long chain of markers or failures.
pub fn launch(ready: Arc<Event>) {
    let mut todo = Released::new();
    let mut next = Some(ready);
    while let Some(ev) = next.take().or_else(|| todo.pop()) {
        settle_or_queue(ev, &mut todo);
    }
}

/// Either ends `ev` right here (adding what that released to `released`)
/// or queues it on its pool.
fn settle_or_queue(ev: Arc<Event>, released: &mut Released) {
    if ev.dependency_failed() {
        drop(ev.take_work());
        end(&ev, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, released);
    } else if !ev.has_work() {
        // Straight to CL_COMPLETE: RUNNING callbacks are due then too.
        end(&ev, CL_COMPLETE as cl_int, released);
    } else {
        let queue = ev.queue.as_ref().expect("only queued commands carry work");
        queue.device.pool().submit(ev.clone());
    }
}

/// Ends an event and adds the successors that became ready to `released`;
/// calls the event's callbacks after releasing the successors, then lets
/// go of the memory objects the command held (their destructor callbacks
/// see it ended).
pub fn end(ev: &Arc<Event>, status: cl_int, released: &mut Released) {
    let (successors, due) = ev.finish(status);
    let failed = status < 0;
    released.extend(
        successors
            .into_iter()
            .filter(|(s, propagate)| s.release_dependency(failed && *propagate))
            .map(|(s, _)| s),
    );
    ev.call(due, status);
    ev.release_held();
}

/// Ends a user event (clSetUserEventStatus) and launches what it released.
pub fn end_user_event(ev: &Arc<Event>, status: cl_int) {
    let mut released = Released::new();
    end(ev, status, &mut released);
    for ready in released {
        launch(ready);
    }
}

/// Runs one command on the current worker thread. Returns a released
/// successor that this thread may run next (saving a trip through the
/// pool's queue); the others are launched.
///
/// `before_end` is called just before the command's completion becomes
/// visible, when the application may enqueue more at once.
pub fn run(ev: Arc<Event>, before_end: &dyn Fn()) -> Option<Arc<Event>> {
    ev.advance(CL_RUNNING as cl_int, Stamp::Start);
    let status = match ev.take_work() {
        Some(work) => {
            let outer = RUNNING.with(|r| r.replace(Some(ev.clone())));
            let status = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)) {
                Ok(Ok(())) => CL_COMPLETE as cl_int,
                Ok(Err(code)) => code,
                Err(_) => CL_OUT_OF_RESOURCES,
            };
            RUNNING.with(|r| r.replace(outer));
            status
        }
        None => CL_COMPLETE as cl_int,
    };
    if status == DEFERRED {
        // Its family stamped its end and ends it (releasing its
        // successors), maybe already.
        before_end();
        return None;
    }
    ev.stamp(Stamp::End);
    before_end();
    let mut continuation = None;
    let mut released = Released::new();
    end(&ev, status, &mut released);
    for next in released {
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
