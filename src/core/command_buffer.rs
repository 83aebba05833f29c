//! Command buffers (cl_khr_command_buffer 0.9.8): commands validated and
//! recorded once, then enqueued any number of times as one command.
//!
//! A recorded command is its work kept as a shareable closure: the checks,
//! argument snapshots and buffer lookups of clEnqueue* are done when it is
//! recorded. An enqueue of the buffer is one command of its queue; when
//! that runs, it puts the recorded commands into the graph as events of
//! their own, linked as recorded (sync points and barriers on an
//! out-of-order queue, record order on an in-order one), so independent
//! commands run concurrently and a kernel whose children outlive it
//! (device-side enqueue) ends when they do, as on a queue. The enqueue's
//! event ends when the last of them has.

use crate::cl::*;
use crate::context::Context;
use crate::event::{Event, Stamp, Work};
use crate::memory::Mem;
use crate::object::{cl_object, lookup, Base, ObjectKind};
use crate::queue::Queue;
use crate::sched;
use std::sync::{Arc, Mutex, MutexGuard};

/// cl_khr_command_buffer 0.9.8 and cl_khr_command_buffer_mutable_dispatch
/// 0.9.5 names the system's CL/cl_ext.h (older provisional versions) lacks
/// or defines otherwise; clients compile against the current headers.
#[allow(non_camel_case_types)]
pub type cl_command_properties_khr = cl_properties;
pub const CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR: cl_device_info = 0x129A;
pub const CL_COMMAND_BUFFER_CONTEXT_KHR: cl_command_buffer_info_khr = 0x1299;
pub const CL_COMMAND_BUFFER_STATE_FINALIZED_KHR: cl_command_buffer_state_khr = 2;
pub const CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR: cl_mutable_command_info_khr = 0x12A2;
pub const CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR: cl_command_buffer_properties_khr = 0x12B7;
pub const CL_MUTABLE_DISPATCH_ASSERTS_KHR: cl_command_properties_khr = 0x12B8;
pub const CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR: cl_bitfield = 1 << 0;
/// CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR as 0.9.5 numbers it (the
/// system header's older version has 1).
pub const MUTABLE_DISPATCH_CONFIG: cl_uint = 0;

/// cl_mutable_dispatch_config_khr as 0.9.5 lays it out (without the older
/// version's leading type and next fields).
#[repr(C)]
pub struct MutableDispatchConfig {
    pub command: cl_mutable_command_khr,
    pub num_args: cl_uint,
    pub num_svm_args: cl_uint,
    pub num_exec_infos: cl_uint,
    pub work_dim: cl_uint,
    pub arg_list: *const cl_mutable_dispatch_arg_khr,
    pub arg_svm_list: *const cl_mutable_dispatch_arg_khr,
    pub exec_info_list: *const cl_mutable_dispatch_exec_info_khr,
    pub global_work_offset: *const usize,
    pub global_work_size: *const usize,
    pub local_work_size: *const usize,
}

/// A recorded command's work: run once per enqueue of its buffer, possibly
/// by several enqueues at once.
pub type Action = Arc<dyn Fn() -> Result<(), cl_int> + Send + Sync>;

/// What a recorded command runs: fixed at recording, or (a kernel launch
/// recorded as mutable) whatever its last update made it.
#[derive(Clone)]
pub enum Step {
    Fixed(Action),
    Mutable(Arc<crate::mutable_command::MutableCommand>),
}

impl Step {
    /// The work an enqueue made now runs: later updates do not reach it.
    /// None for a launch whose arguments are not all set.
    fn action(&self) -> Option<Action> {
        match self {
            Step::Fixed(action) => Some(action.clone()),
            Step::Mutable(command) => command.action(),
        }
    }
}

struct Recorded {
    step: Step,
    command_type: cl_command_type,
    /// The commands (indices) it waits for.
    deps: Vec<usize>,
    /// The memory objects the command uses: alive as long as the buffer.
    held: Vec<Arc<Mem>>,
}

#[derive(Default)]
struct State {
    finalized: bool,
    commands: Vec<Recorded>,
    /// The last barrier recorded (out-of-order queues): later commands
    /// wait for it.
    barrier: Option<usize>,
}

/// `#[repr(C)]` so that the ICD base comes first.
#[repr(C)]
pub struct CommandBuffer {
    base: Base,
    pub context: Arc<Context>,
    /// The queue it was created for: its commands' queue, and the one an
    /// enqueue without queues uses.
    pub queue: Arc<Queue>,
    /// CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR: as the application gave them.
    pub properties: Vec<cl_command_buffer_properties_khr>,
    pub flags: cl_command_buffer_flags_khr,
    state: Mutex<State>,
}

cl_object!(
    CommandBuffer,
    CommandBuffer,
    CL_INVALID_COMMAND_BUFFER_KHR,
    _cl_command_buffer_khr
);

fn lock(m: &Mutex<State>) -> MutexGuard<'_, State> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl CommandBuffer {
    pub fn new(
        queue: Arc<Queue>,
        properties: Vec<cl_command_buffer_properties_khr>,
        flags: cl_command_buffer_flags_khr,
    ) -> Arc<CommandBuffer> {
        Arc::new(CommandBuffer {
            base: Base::new(ObjectKind::CommandBuffer),
            context: queue.context.clone(),
            queue,
            properties,
            flags,
            state: Mutex::new(State::default()),
        })
    }

    pub fn resolve(handle: cl_command_buffer_khr) -> Result<Arc<CommandBuffer>, cl_int> {
        lookup::<CommandBuffer>(handle)
    }

    pub fn mutable(&self) -> bool {
        self.flags & CL_COMMAND_BUFFER_MUTABLE_KHR as cl_command_buffer_flags_khr != 0
    }

    pub fn finalized(&self) -> bool {
        lock(&self.state).finalized
    }

    /// CL_COMMAND_BUFFER_STATE_KHR: Recording until finalized, then
    /// Executable, or Finalized while a launch recorded without all its
    /// arguments (cl_khr_command_buffer_mutable_dispatch) waits for them.
    pub fn state(&self) -> cl_command_buffer_state_khr {
        let state = lock(&self.state);
        if !state.finalized {
            CL_COMMAND_BUFFER_STATE_RECORDING_KHR as cl_command_buffer_state_khr
        } else if state.commands.iter().all(|c| c.step.action().is_some()) {
            CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR
        } else {
            CL_COMMAND_BUFFER_STATE_FINALIZED_KHR
        }
    }

    /// "CL_INVALID_OPERATION if command_buffer has been finalized."
    pub fn check_recording(&self) -> Result<(), cl_int> {
        if self.finalized() {
            return Err(CL_INVALID_OPERATION);
        }
        Ok(())
    }

    /// "CL_INVALID_SYNC_POINT_WAIT_LIST_KHR if ... any of the sync points
    /// in the list are not valid": each names a command recorded before.
    pub fn check_sync_points(&self, points: &[cl_sync_point_khr]) -> Result<(), cl_int> {
        let recorded = lock(&self.state).commands.len();
        if points.iter().any(|&p| p == 0 || p as usize > recorded) {
            return Err(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
        }
        Ok(())
    }

    /// Appends a command of `command_type` that waits for the sync points
    /// `waits` (checked); returns its own sync point (never 0). On an
    /// in-order queue each command waits for the one before; on an
    /// out-of-order queue for its sync points and the last barrier, and a
    /// barrier without sync points for every command before it.
    pub fn record(
        &self,
        command_type: cl_command_type,
        waits: &[cl_sync_point_khr],
        step: Step,
        held: Vec<Arc<Mem>>,
    ) -> Result<cl_sync_point_khr, cl_int> {
        let mut state = lock(&self.state);
        if state.finalized {
            return Err(CL_INVALID_OPERATION);
        }
        let index = state.commands.len();
        let barrier = command_type == CL_COMMAND_BARRIER as cl_command_type;
        let mut deps: Vec<usize> = if !self.queue.out_of_order() {
            index.checked_sub(1).into_iter().collect()
        } else if barrier && waits.is_empty() {
            (0..index).collect()
        } else {
            let mut deps: Vec<usize> = waits.iter().map(|&p| p as usize - 1).collect();
            deps.extend(state.barrier);
            deps
        };
        deps.sort_unstable();
        deps.dedup();
        if barrier {
            state.barrier = Some(index);
        }
        state.commands.push(Recorded {
            step,
            command_type,
            deps,
            held,
        });
        Ok(state.commands.len() as cl_sync_point_khr)
    }

    /// clFinalizeCommandBufferKHR: "CL_INVALID_OPERATION if command_buffer
    /// is not in the Recording state".
    pub fn finalize(&self) -> Result<(), cl_int> {
        let mut state = lock(&self.state);
        if state.finalized {
            return Err(CL_INVALID_OPERATION);
        }
        state.finalized = true;
        Ok(())
    }

    /// The work of one enqueue: the commands as they are now, run on the
    /// enqueue's queue. None unless the buffer is executable.
    pub fn work(&self) -> Option<Work> {
        let state = lock(&self.state);
        if !state.finalized {
            return None;
        }
        let nodes = state
            .commands
            .iter()
            .map(|c| {
                Some(Node {
                    action: c.step.action()?,
                    command_type: c.command_type,
                    deps: c.deps.clone(),
                })
            })
            .collect::<Option<Vec<Node>>>()?;
        Some(Box::new(move || run_graph(nodes)))
    }

    /// The memory objects its commands use (an enqueue holds them until it
    /// has ended, as any command does).
    pub fn held(&self) -> Vec<Arc<Mem>> {
        lock(&self.state)
            .commands
            .iter()
            .flat_map(|c| c.held.iter().cloned())
            .collect()
    }
}

impl Drop for CommandBuffer {
    /// Its launches' handles (cl_mutable_command_khr) live as long as it.
    fn drop(&mut self) {
        for c in &lock(&self.state).commands {
            if let Step::Mutable(command) = &c.step {
                let _ = crate::object::release::<crate::mutable_command::MutableCommand>(
                    crate::object::handle_of(command),
                );
            }
        }
    }
}

/// One recorded command as an enqueue of its buffer runs it.
struct Node {
    action: Action,
    command_type: cl_command_type,
    deps: Vec<usize>,
}

/// The enqueue's work: puts `nodes` into the graph behind the running
/// command (the enqueue's event), on its queue, which ends when they all
/// have, with the first error among them (sched::DEFERRED: ended by the
/// last).
fn run_graph(nodes: Vec<Node>) -> Result<(), cl_int> {
    let running = sched::running_command().and_then(Event::of);
    let Some((enqueue, queue)) = running.and_then(|e| e.queue.clone().map(|q| (e, q))) else {
        // Not run as a command of the graph: in record order, here.
        return nodes.iter().try_for_each(|n| (n.action)());
    };
    if nodes.is_empty() {
        return Ok(());
    }
    let events: Vec<Arc<Event>> = nodes
        .iter()
        .map(|n| {
            let action = n.action.clone();
            let work: Work = Box::new(move || action());
            Event::new_command(&queue, n.command_type, Some(work))
        })
        .collect();
    let ended = events.clone();
    let join: Work = Box::new(move || {
        let status = ended
            .iter()
            .map(|e| e.status())
            .find(|&s| s < 0)
            .unwrap_or(CL_COMPLETE as cl_int);
        enqueue.stamp(Stamp::End);
        enqueue.end_user_event(status);
        Ok(())
    });
    let join = Event::new_command(
        &queue,
        CL_COMMAND_COMMAND_BUFFER_KHR as cl_command_type,
        Some(join),
    );
    for (node, event) in nodes.iter().zip(&events) {
        for &d in &node.deps {
            events[d].add_successor(event, true);
        }
        event.add_successor(&join, false);
    }
    for event in events.iter().chain([&join]) {
        event.advance(CL_SUBMITTED as cl_int, Stamp::Submit);
    }
    for event in events.iter().chain([&join]) {
        if event.release_dependency(false) {
            sched::launch(event.clone());
        }
    }
    Err(sched::DEFERRED)
}
