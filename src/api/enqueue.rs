//! What every clEnqueue* shares: the wait-list checks, handing the command
//! to its queue, the returned event and the blocking wait.

use crate::api::util::{c_array, write_out};
use crate::cl::*;
use crate::core::command_buffer::{CommandBuffer, Step};
use crate::core::event::{Event, Work};
use crate::core::memory::Mem;
use crate::core::object::publish;
use crate::core::queue::{Queue, Sync};
use std::ffi::c_void;
use std::sync::Arc;

/// A transfer of at most this many bytes is copied on the enqueuing thread
/// when it is ready at once (sched::run_here): in less time than handing
/// the command to a worker takes (a few microseconds).
pub const SHORT_TRANSFER: usize = 16 << 10;

/// An application pointer moved into a command's work: the memory a read,
/// write, copy or fill touches when the command runs.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub struct HostPtr(pub *mut c_void);

// SAFETY: the pointer is only an address here; the work that dereferences it
// runs when the command's dependencies allow, and the spec makes the
// application keep the memory valid and unused by others until the command
// completes.
unsafe impl Send for HostPtr {}
// SAFETY: as above; a recorded command's work may run from several enqueues
// at once, which the spec leaves to the application to order.
unsafe impl std::marker::Sync for HostPtr {}

impl HostPtr {
    /// The address as bytes (a method, so that a closure captures the
    /// whole HostPtr rather than its pointer field).
    pub fn bytes(self) -> *mut u8 {
        self.0 as *mut u8
    }
}

/// A command's wait list: most have an event or two, kept inline.
pub type WaitList = smallvec::SmallVec<[Arc<Event>; 4]>;

/// Resolves a wait list: "CL_INVALID_EVENT_WAIT_LIST if event_wait_list is
/// NULL and num_events_in_wait_list > 0, or event_wait_list is not NULL and
/// num_events_in_wait_list is 0, or if event objects in event_wait_list are
/// not valid events"; "CL_INVALID_CONTEXT if the context associated with
/// command_queue and events in event_wait_list are not the same".
pub fn wait_list(
    queue: &Queue,
    num_events: cl_uint,
    events: *const cl_event,
) -> Result<WaitList, cl_int> {
    let handles = c_array(events, num_events as usize, CL_INVALID_EVENT_WAIT_LIST)?;
    let list = handles
        .iter()
        .map(|&h| Event::resolve(h).map_err(|_| CL_INVALID_EVENT_WAIT_LIST))
        .collect::<Result<WaitList, _>>()?;
    if list
        .iter()
        .any(|e| !Arc::ptr_eq(&e.context, &queue.context))
    {
        return Err(CL_INVALID_CONTEXT);
    }
    Ok(list)
}

/// Where a validated command goes.
pub enum Sink<'a> {
    /// Into a queue's graph (clEnqueue*): the wait list's count and events,
    /// and the event out-parameter.
    Queue(cl_uint, *const cl_event, *mut cl_event),
    /// Into a command buffer's recording (clCommand*KHR), whose own checks
    /// (state, sync points) are done.
    Record(Recording<'a>),
}

/// A command bound for a command buffer: the sync points it waits for
/// (checked) and where its own goes.
pub struct Recording<'a> {
    pub buffer: &'a Arc<CommandBuffer>,
    pub waits: &'a [cl_sync_point_khr],
    pub sync_point: *mut cl_sync_point_khr,
}

impl Recording<'_> {
    /// Appends `step`, a command of `command_type`, and writes its sync
    /// point.
    pub fn record(
        self,
        command_type: cl_command_type,
        step: Step,
        held: Vec<Arc<Mem>>,
    ) -> Result<(), cl_int> {
        let point = self.buffer.record(command_type, self.waits, step, held)?;
        write_out(self.sync_point, point);
        Ok(())
    }
}

/// One validated command: enqueues it, returns its event to the
/// application when asked, and waits for it when the call is blocking;
/// or records it.
pub struct Command<'a> {
    pub queue: &'a Arc<Queue>,
    pub command_type: cl_command_type,
    pub wait: WaitList,
    pub event_out: *mut cl_event,
    /// The memory objects the command uses, kept until it has ended.
    held: Vec<Arc<Mem>>,
    /// Short: run it on this thread if it is ready (sched::run_here).
    here: bool,
    /// Recorded into a command buffer instead of enqueued.
    record: Option<Recording<'a>>,
}

impl<'a> Command<'a> {
    pub fn new(
        queue: &'a Arc<Queue>,
        command_type: cl_command_type,
        num_events: cl_uint,
        events: *const cl_event,
        event_out: *mut cl_event,
    ) -> Result<Command<'a>, cl_int> {
        Command::to(
            queue,
            command_type,
            Sink::Queue(num_events, events, event_out),
        )
    }

    /// A command of `queue` that goes to `sink`.
    pub fn to(
        queue: &'a Arc<Queue>,
        command_type: cl_command_type,
        sink: Sink<'a>,
    ) -> Result<Command<'a>, cl_int> {
        // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host
        // command-queue."
        if queue.on_device.is_some() {
            return Err(CL_INVALID_COMMAND_QUEUE);
        }
        let (wait, event_out, record) = match sink {
            Sink::Queue(n, events, out) => (wait_list(queue, n, events)?, out, None),
            Sink::Record(r) => (WaitList::new(), std::ptr::null_mut(), Some(r)),
        };
        Ok(Command {
            queue,
            command_type,
            wait,
            event_out,
            held: Vec::new(),
            here: false,
            record,
        })
    }

    /// The command uses `mems`: their destructor callbacks run (and their
    /// storage goes) only after it has ended, even once the application
    /// has released them.
    pub fn holding(mut self, mems: Vec<Arc<Mem>>) -> Self {
        self.held.extend(mems);
        self
    }

    /// The command is short enough to run on the enqueuing thread when it
    /// is ready at once (sched::run_here).
    pub fn here_if(mut self, short: bool) -> Self {
        self.here = short;
        self
    }

    /// Enqueues with the given ordering and work; blocking calls return
    /// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST when the command did not
    /// complete.
    pub fn submit(
        self,
        sync: Sync,
        work: Option<Work>,
        blocking: bool,
    ) -> Result<Arc<Event>, cl_int> {
        // A blocking call waits for the command anyway: its thread may as
        // well run it.
        let here = self.here || blocking;
        let ev =
            self.queue
                .enqueue_holding(self.command_type, &self.wait, sync, work, self.held, here);
        if !self.event_out.is_null() {
            write_out(self.event_out, publish(ev.clone()));
        }
        if blocking && ev.wait() < 0 {
            return Err(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        }
        Ok(ev)
    }

    /// An ordinary command.
    pub fn run(self, work: Work, blocking: bool) -> Result<(), cl_int> {
        self.submit(Sync::Command, Some(work), blocking).map(drop)
    }

    /// An ordinary command whose work may run again (and so may be
    /// recorded): enqueued, or recorded where the command is bound for a
    /// command buffer.
    pub fn run_replayable(
        mut self,
        action: impl Fn() -> Result<(), cl_int> + Send + std::marker::Sync + 'static,
        blocking: bool,
    ) -> Result<(), cl_int> {
        match self.record.take() {
            Some(recording) => {
                recording.record(self.command_type, Step::Fixed(Arc::new(action)), self.held)
            }
            None => self.run(Box::new(action), blocking),
        }
    }

    /// A command that only takes its place in the order (a map of memory
    /// the host already sees, say): run on this thread once ready.
    pub fn run_nothing(self, blocking: bool) -> Result<(), cl_int> {
        self.here_if(true).run(Box::new(|| Ok(())), blocking)
    }
}
