//! Events: the nodes of the command graph. An event carries its command's
//! status, the commands waiting on it, the application's callbacks and the
//! profiling timestamps. The scheduler (sched/) moves it through its states.

use crate::callback::Callback;
use crate::cl::*;
use crate::context::Context;
use crate::memory::Mem;
use crate::object::{cl_object, lookup, Base, ObjectKind};
use crate::queue::Queue;
use crate::sched::host::now_ns;
use crate::sched::pool::Pool;
use crate::sched::{Command, Released};
use smallvec::SmallVec;
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

pub type EventCallbackFn = unsafe extern "C" fn(cl_event, cl_int, *mut c_void);

pub use crate::sched::Work;

/// Profiling timestamps, indexed as CL_PROFILING_COMMAND_* - QUEUED.
#[derive(Clone, Copy)]
pub enum Stamp {
    Queued = 0,
    Submit,
    Start,
    End,
    Complete,
}

struct Waiting {
    /// Commands that wait on this one, and whether a failure of this one
    /// fails them (true for wait-list dependencies, false for the implicit
    /// order of a queue, which orders commands without tying their fates).
    successors: Successors,
    /// Callbacks not yet called, with the status that triggers each.
    callbacks: Vec<(cl_int, Callback<EventCallbackFn>)>,
    /// Host threads blocked on `done`.
    sleepers: usize,
}

/// `#[repr(C)]` so that the ICD base comes first.
#[repr(C)]
pub struct Event {
    base: Base,
    pub context: Arc<Context>,
    /// None for user events.
    pub queue: Option<Arc<Queue>>,
    pub command_type: cl_command_type,
    /// CL_QUEUED, CL_SUBMITTED, CL_RUNNING, CL_COMPLETE or a negative error.
    status: AtomicI32,
    /// Dependencies not yet complete, plus one held while the command is
    /// being enqueued so that it cannot start half-linked.
    pending: AtomicUsize,
    /// A dependency ended abnormally: this command must not run.
    dependency_failed: AtomicBool,
    /// A user event's status has been set (it may be set only once).
    user_status_set: AtomicBool,
    work: Mutex<Option<Work>>,
    /// The memory objects the command uses, held until it has ended
    /// (`release_held`, after its status is final): "the memory object is
    /// deleted" (and its destructor callbacks run) only once no command
    /// uses it, so the last hold must not go with the work closure, which
    /// is dropped when it returns, while the command still reads
    /// CL_RUNNING.
    held: Mutex<Vec<Arc<Mem>>>,
    waiting: Mutex<Waiting>,
    done: Condvar,
    stamps: [AtomicU64; 5],
    /// The queue profiles its commands: take timestamps (a clock read
    /// each, saved where nobody will ask for them).
    profiled: bool,
    /// A callback was ever registered: status changes must then look for
    /// callbacks that became due (see `advance`).
    has_callbacks: AtomicBool,
}

cl_object!(Event, Event, CL_INVALID_EVENT, _cl_event);

thread_local! {
    /// How many application event callbacks this thread is inside.
    static IN_CALLBACK: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Whether the calling thread is running an application's event callback:
/// the thread that completed a command (a worker the queue's later commands
/// may need), where blocking until other commands end can deadlock.
pub fn in_event_callback() -> bool {
    IN_CALLBACK.with(|c| c.get() > 0)
}

/// A status is terminal once the command completed or failed.
pub fn is_terminal(status: cl_int) -> bool {
    status <= CL_COMPLETE as cl_int
}

impl Event {
    fn new(
        context: Arc<Context>,
        queue: Option<Arc<Queue>>,
        command_type: cl_command_type,
        status: cl_int,
        work: Option<Work>,
    ) -> Arc<Event> {
        let profiled = queue.as_ref().is_some_and(|q| q.profiling());
        let ev = Arc::new(Event {
            base: Base::new(ObjectKind::Event),
            context,
            queue,
            command_type,
            status: AtomicI32::new(status),
            pending: AtomicUsize::new(1),
            dependency_failed: AtomicBool::new(false),
            user_status_set: AtomicBool::new(false),
            work: Mutex::new(work),
            held: Mutex::new(Vec::new()),
            waiting: Mutex::new(Waiting {
                successors: Successors::new(),
                callbacks: Vec::new(),
                sleepers: 0,
            }),
            done: Condvar::new(),
            stamps: Default::default(),
            profiled,
            has_callbacks: AtomicBool::new(false),
        });
        ev.stamp(Stamp::Queued);
        ev
    }

    /// A command's event, CL_QUEUED, with its dependency guard held.
    pub fn new_command(
        queue: &Arc<Queue>,
        command_type: cl_command_type,
        work: Option<Work>,
    ) -> Arc<Event> {
        Event::new(
            queue.context.clone(),
            Some(queue.clone()),
            command_type,
            CL_QUEUED as cl_int,
            work,
        )
    }

    /// "The execution status of the user event object created is set to
    /// CL_SUBMITTED."
    pub fn new_user(context: Arc<Context>) -> Arc<Event> {
        Event::new(context, None, CL_COMMAND_USER, CL_SUBMITTED as cl_int, None)
    }

    pub fn resolve(handle: cl_event) -> Result<Arc<Event>, cl_int> {
        lookup::<Event>(handle)
    }

    pub fn status(&self) -> cl_int {
        self.status.load(Ordering::Acquire)
    }

    pub fn is_user(&self) -> bool {
        self.queue.is_none()
    }

    /// Claims the one clSetUserEventStatus a user event accepts.
    pub fn claim_user_status(&self) -> bool {
        !self.user_status_set.swap(true, Ordering::AcqRel)
    }

    /// Ends a user event with `status` (after claim_user_status) and runs
    /// what that releases.
    pub fn end_user_event(&self, status: cl_int) {
        let mut released = Released::new();
        self.end(status, &mut released);
        crate::sched::launch_all(released);
    }

    pub fn stamp(&self, which: Stamp) {
        if self.profiled {
            self.stamps[which as usize].store(now_ns(), Ordering::Relaxed);
        }
    }

    pub fn stamp_value(&self, which: Stamp) -> u64 {
        self.stamps[which as usize].load(Ordering::Relaxed)
    }

    fn lock(&self) -> MutexGuard<'_, Waiting> {
        self.waiting.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Keeps `mems` alive until the command has ended.
    pub fn hold(&self, mems: Vec<Arc<Mem>>) {
        self.held
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .extend(mems);
    }

    /// Lets go of what `hold` kept: called once the command has ended.
    pub fn release_held(&self) {
        let held = std::mem::take(&mut *self.held.lock().unwrap_or_else(|p| p.into_inner()));
        // Dropped outside the lock: a last reference runs the
        // application's destructor callbacks.
        drop(held);
    }

    pub fn take_work(&self) -> Option<Work> {
        self.work.lock().unwrap_or_else(|p| p.into_inner()).take()
    }

    pub fn has_work(&self) -> bool {
        self.work
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .is_some()
    }

    pub fn dependency_failed(&self) -> bool {
        self.dependency_failed.load(Ordering::Acquire)
    }

    /// Makes `next` wait on this event; with `propagate_failure`, an
    /// abnormal end of this event fails `next` (the spec's rule for events
    /// in a wait list). Nothing to wait for when this event already ended.
    pub fn add_successor(&self, next: &Arc<Event>, propagate_failure: bool) {
        let mut w = self.lock();
        let status = self.status();
        if is_terminal(status) {
            if status < 0 && propagate_failure {
                next.dependency_failed.store(true, Ordering::Release);
            }
            return;
        }
        next.pending.fetch_add(1, Ordering::AcqRel);
        w.successors.push((next.clone(), propagate_failure));
    }

    /// One dependency less; true when none remain (the command is ready).
    pub fn release_dependency(&self, failed: bool) -> bool {
        if failed {
            self.dependency_failed.store(true, Ordering::Release);
        }
        self.pending.fetch_sub(1, Ordering::AcqRel) == 1
    }

    /// Moves to a non-terminal status (SUBMITTED, RUNNING) and calls the
    /// callbacks registered for it.
    pub fn advance(&self, status: cl_int, stamp: Stamp) {
        self.stamp(stamp);
        // Without callbacks no lock is needed. SeqCst pairs with
        // add_callback: either it sees this status, or this sees its flag.
        self.status.store(status, Ordering::SeqCst);
        if !self.has_callbacks.load(Ordering::SeqCst) {
            return;
        }
        let due = {
            let mut w = self.lock();
            self.status.store(status, Ordering::Release);
            take_due(&mut w.callbacks, status)
        };
        self.call(due, status);
    }

    /// Ends the event with CL_COMPLETE or a negative error. Completing is a
    /// release: everything the command wrote happens-before whatever a
    /// waiter does after seeing the status. Returns the commands that wait
    /// on it, for the scheduler to release.
    fn finish(&self, status: cl_int) -> (Successors, Vec<DueCallback>) {
        if self.profiled {
            // A command that did no work starts and ends now.
            let now = now_ns();
            for s in [Stamp::Start, Stamp::End, Stamp::Complete] {
                if self.stamp_value(s) == 0 {
                    self.stamps[s as usize].store(now, Ordering::Relaxed);
                }
            }
        }
        let mut w = self.lock();
        self.status.store(status, Ordering::Release);
        if w.sleepers > 0 {
            self.done.notify_all();
        }
        let successors = std::mem::take(&mut w.successors);
        let due = take_due(&mut w.callbacks, status);
        (successors, due)
    }

    /// Calls callbacks taken by `finish` (after the successors were released,
    /// so callbacks stay off the critical path).
    fn call(&self, due: Vec<DueCallback>, status: cl_int) {
        // The handle is the event's address (object::handle_of).
        let handle = self as *const Event as cl_event;
        for (trigger, cb) in due {
            let reported = if status < 0 { status } else { trigger };
            IN_CALLBACK.with(|c| c.set(c.get() + 1));
            // SAFETY: an application callback with the arguments the spec
            // defines; we hold the event alive for the call.
            unsafe { (cb.func)(handle, reported, cb.user_data) };
            IN_CALLBACK.with(|c| c.set(c.get() - 1));
        }
    }

    /// clSetEventCallback: called once the status reaches `trigger`, at once
    /// when it already has.
    pub fn add_callback(self: &Arc<Self>, trigger: cl_int, cb: Callback<EventCallbackFn>) {
        let status = {
            let mut w = self.lock();
            self.has_callbacks.store(true, Ordering::SeqCst);
            let status = self.status.load(Ordering::SeqCst);
            if status > trigger {
                w.callbacks.push((trigger, cb));
                return;
            }
            status
        };
        self.call(vec![(trigger, cb)], status);
    }

    /// Blocks until the event ends; returns its final status. Spins briefly
    /// first: a futex wake costs tens of microseconds here, most commands
    /// less.
    pub fn wait(&self) -> cl_int {
        let mut spin = crate::sched::Spin::default();
        loop {
            let s = self.status();
            if is_terminal(s) {
                return s;
            }
            if !spin.turn() {
                break;
            }
        }
        let mut w = self.lock();
        w.sleepers += 1;
        while !is_terminal(self.status()) {
            w = self.done.wait(w).unwrap_or_else(|p| p.into_inner());
        }
        w.sleepers -= 1;
        self.status()
    }
}

/// Commands waiting on an event, and whether its failure fails them. Most
/// events have one or two: kept inline, no allocation per command.
pub type Successors = SmallVec<[(Arc<Event>, bool); 2]>;

impl Command for Event {
    fn take_work(&self) -> Option<Work> {
        Event::take_work(self)
    }

    fn has_work(&self) -> bool {
        Event::has_work(self)
    }

    fn dependency_failed(&self) -> bool {
        Event::dependency_failed(self)
    }

    fn pool(&self) -> Option<&Arc<Pool>> {
        self.queue.as_ref().map(|q| q.device.pool())
    }

    fn started(&self) {
        self.advance(CL_RUNNING as cl_int, Stamp::Start);
    }

    fn work_returned(&self) {
        self.stamp(Stamp::End);
    }

    /// Ends the event, releases the successors this made ready, calls the
    /// callbacks after that (off the successors' critical path), then lets
    /// go of the memory objects the command held (their destructor
    /// callbacks see it ended).
    fn end(&self, status: cl_int, released: &mut Released) {
        let (successors, due) = self.finish(status);
        let failed = status < 0;
        for (next, propagate) in successors {
            if next.release_dependency(failed && propagate) {
                released.push(next);
            }
        }
        self.call(due, status);
        self.release_held();
    }

    fn into_any(self: Arc<Self>) -> Arc<dyn std::any::Any + Send + Sync> {
        self
    }
}

impl Event {
    /// The event of a command the graph holds.
    pub fn of(command: Arc<dyn Command>) -> Option<Arc<Event>> {
        command.into_any().downcast().ok()
    }
}

pub type DueCallback = (cl_int, Callback<EventCallbackFn>);

/// Removes and returns, in registration order, the callbacks whose trigger
/// status has been reached (statuses count down towards CL_COMPLETE).
fn take_due(callbacks: &mut Vec<DueCallback>, status: cl_int) -> Vec<DueCallback> {
    if callbacks.is_empty() {
        return Vec::new();
    }
    let (due, later): (Vec<_>, Vec<_>) = callbacks.drain(..).partition(|(t, _)| status <= *t);
    *callbacks = later;
    due
}
