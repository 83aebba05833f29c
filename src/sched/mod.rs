//! The executor: moves commands through the graph. A command is launched
//! when every event it waits on has completed (an acquire of their
//! release); it is dropped, ending with
//! CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, when one of them failed.
//!
//! A crate of its own below core: the graph's nodes are core's events,
//! which it sees only as `Command`s, and kernel launches come as
//! `ndrange::Dispatch`es.

/// The C API's definitions (src/cl).
pub use ferrocl_cl as cl;
/// The kernel compiler (src/compiler): the launch ABI and kernel facts.
pub use ferrocl_compiler as compiler;

mod here;
pub mod host;
pub mod ndrange;
pub mod pool;
pub mod printf;
pub mod range;
mod spin;
pub mod topology;

pub use here::run_here;
pub use spin::Spin;

use crate::cl::*;
use crate::pool::Pool;
use smallvec::SmallVec;
use std::any::Any;
use std::sync::Arc;

/// The work a command does on a worker thread. An error status ends the
/// command abnormally with that status.
pub type Work = Box<dyn FnOnce() -> Result<(), cl_int> + Send>;

/// A node of the command graph as the executor sees it. core's events are
/// the nodes: they keep the statuses, dependencies, callbacks and
/// timestamps; the executor decides where and when each runs.
pub trait Command: Send + Sync + 'static {
    /// Its work, taken once, by the thread that runs it.
    fn take_work(&self) -> Option<Work>;
    fn has_work(&self) -> bool;
    /// A command it waited on failed: it must not run.
    fn dependency_failed(&self) -> bool;
    /// The pool that runs its work (None: it has none to run).
    fn pool(&self) -> Option<&Arc<Pool>>;
    /// Its work starts on the calling thread (CL_RUNNING).
    fn started(&self);
    /// Its work returned; its completion is not visible yet.
    fn work_returned(&self);
    /// Ends it with CL_COMPLETE or a negative error, adding the commands
    /// that this made ready to `released` (for the caller to launch).
    fn end(&self, status: cl_int, released: &mut Released);
    /// The node as the object it is, for the layer that made it.
    fn into_any(self: Arc<Self>) -> Arc<dyn Any + Send + Sync>;
}

/// Commands a completion made ready. Most completions release one or two:
/// kept inline, no allocation per command.
pub type Released = SmallVec<[Arc<dyn Command>; 4]>;

/// What a command's work returns when the command ends later, not when the
/// work returns: a kernel whose children are still to run (core's
/// device-side enqueue ends it).
pub const DEFERRED: cl_int = cl_int::MIN;

thread_local! {
    /// The command this thread is running (see `running_command`).
    static RUNNING: std::cell::RefCell<Option<Arc<dyn Command>>> = const { std::cell::RefCell::new(None) };
}

/// The command whose work the calling thread is running, if any.
pub fn running_command() -> Option<Arc<dyn Command>> {
    RUNNING.with(|r| r.borrow().clone())
}

/// Releases a command whose dependencies are now all complete: runs
/// work-free commands (markers, barriers) and failed ones at once, hands
/// the rest to their device's pool. Loops instead of recursing, since one
/// completion can release a long chain of markers or failures.
pub fn launch(ready: Arc<dyn Command>) {
    let mut todo = Released::new();
    let mut next = Some(ready);
    while let Some(ev) = next.take().or_else(|| todo.pop()) {
        settle_or_queue(ev, &mut todo);
    }
}

/// Launches every command in `released`.
pub fn launch_all(released: Released) {
    for ready in released {
        launch(ready);
    }
}

/// Either ends `ev` right here (adding what that released to `released`)
/// or queues it on its pool.
fn settle_or_queue(ev: Arc<dyn Command>, released: &mut Released) {
    if ev.dependency_failed() {
        drop(ev.take_work());
        ev.end(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, released);
    } else if !ev.has_work() {
        // Straight to CL_COMPLETE: RUNNING callbacks are due then too.
        ev.end(CL_COMPLETE as cl_int, released);
    } else {
        let pool = ev.pool().expect("only queued commands carry work").clone();
        pool.submit(ev);
    }
}

/// Runs one command on the current worker thread. Returns a released
/// successor that this thread may run next (saving a trip through the
/// pool's queue); the others are launched.
///
/// `before_end` is called just before the command's completion becomes
/// visible, when the application may enqueue more at once.
pub fn run(ev: Arc<dyn Command>, before_end: &dyn Fn()) -> Option<Arc<dyn Command>> {
    ev.started();
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
        // Whoever deferred it stamped its end and ends it (releasing its
        // successors), maybe already.
        before_end();
        return None;
    }
    ev.work_returned();
    before_end();
    let mut continuation = None;
    let mut released = Released::new();
    ev.end(status, &mut released);
    for next in released {
        let same_pool = continuation.is_none()
            && !next.dependency_failed()
            && next.has_work()
            && match (next.pool(), ev.pool()) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
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
