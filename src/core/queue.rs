//! Command queues: where commands enter the graph. An in-order queue makes
//! each command wait on the one before; an out-of-order queue adds no
//! dependency but its barriers, so independent commands run concurrently.

use crate::cl::*;
use crate::context::Context;
use crate::device::Device;
use crate::event::{is_terminal, Event, Stamp, Work};
use crate::memory::Mem;
use crate::object::{cl_object, lookup, Base, ObjectKind};
use crate::sched;
use std::sync::{Arc, Mutex, Weak};

/// `#[repr(C)]` so that the ICD base comes first.
#[repr(C)]
pub struct Queue {
    base: Base,
    pub context: Arc<Context>,
    pub device: Arc<Device>,
    pub properties: cl_command_queue_properties,
    /// CL_QUEUE_PROPERTIES_ARRAY: what clCreateCommandQueueWithProperties got.
    pub properties_array: Vec<cl_queue_properties>,
    order: Mutex<Ordering>,
    /// An on-device queue's state (CL_QUEUE_ON_DEVICE): kernels enqueue on
    /// it, the host does not.
    pub on_device: Option<crate::device_enqueue::OnDevice>,
}

/// What later commands must wait for. Weak references: a queue must not
/// keep its finished commands alive (they hold the queue).
#[derive(Default)]
struct Ordering {
    /// In-order: the last command enqueued.
    last: Weak<Event>,
    /// Out-of-order: the last barrier.
    barrier: Weak<Event>,
    /// Out-of-order: commands that may not have completed.
    outstanding: Vec<Weak<Event>>,
    /// outstanding.len() after the last pruning, to prune in amortized O(1).
    pruned_len: usize,
}

/// How a command orders itself against the queue's other commands.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Sync {
    /// An ordinary command.
    Command,
    /// A marker: with no wait list, waits for every earlier command.
    Marker,
    /// A barrier: like a marker, and every later command waits for it.
    Barrier,
}

cl_object!(Queue, Queue, CL_INVALID_COMMAND_QUEUE, _cl_command_queue);

fn alive(ev: &Weak<Event>) -> Option<Arc<Event>> {
    ev.upgrade().filter(|e| !is_terminal(e.status()))
}

impl Queue {
    pub fn new(
        context: Arc<Context>,
        device: Arc<Device>,
        properties: cl_command_queue_properties,
        properties_array: Vec<cl_queue_properties>,
    ) -> Arc<Queue> {
        Queue::with_on_device(context, device, properties, properties_array, None)
    }

    /// A queue on the device (device-side enqueue's target) of
    /// `size_bytes` bytes.
    pub fn on_device(
        context: Arc<Context>,
        device: Arc<Device>,
        properties: cl_command_queue_properties,
        properties_array: Vec<cl_queue_properties>,
        size_bytes: u32,
    ) -> Arc<Queue> {
        let on_device = crate::device_enqueue::OnDevice::new(size_bytes);
        Queue::with_on_device(
            context,
            device,
            properties,
            properties_array,
            Some(on_device),
        )
    }

    fn with_on_device(
        context: Arc<Context>,
        device: Arc<Device>,
        properties: cl_command_queue_properties,
        properties_array: Vec<cl_queue_properties>,
        on_device: Option<crate::device_enqueue::OnDevice>,
    ) -> Arc<Queue> {
        Arc::new(Queue {
            base: Base::new(ObjectKind::Queue),
            context,
            device,
            properties,
            properties_array,
            order: Mutex::new(Ordering::default()),
            on_device,
        })
    }

    pub fn resolve(handle: cl_command_queue) -> Result<Arc<Queue>, cl_int> {
        lookup::<Queue>(handle)
    }

    pub fn out_of_order(&self) -> bool {
        self.properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE as cl_command_queue_properties != 0
    }

    /// Commands take timestamps: on profiling queues, and always on
    /// on-device queues (capture_event_profiling_info may ask for any
    /// child's).
    pub fn profiling(&self) -> bool {
        self.properties & CL_QUEUE_PROFILING_ENABLE as cl_command_queue_properties != 0
            || self.on_device.is_some()
    }

    /// Adds a command to the graph: it runs `work` (None: nothing to run)
    /// once every event of `wait_list` and the queue's implicit
    /// dependencies have completed. Commands are submitted at once, so
    /// clFlush has nothing left to do.
    pub fn enqueue(
        self: &Arc<Self>,
        command_type: cl_command_type,
        wait_list: &[Arc<Event>],
        sync: Sync,
        work: Option<Work>,
    ) -> Arc<Event> {
        self.enqueue_holding(command_type, wait_list, sync, work, Vec::new(), false)
    }

    /// `enqueue` of a command that uses the memory objects `held`: they
    /// stay alive until it has ended (Event::hold). `here`: the command is
    /// short, and runs on the calling thread if it is ready at once
    /// (sched::run_here).
    pub fn enqueue_holding(
        self: &Arc<Self>,
        command_type: cl_command_type,
        wait_list: &[Arc<Event>],
        sync: Sync,
        work: Option<Work>,
        held: Vec<Arc<Mem>>,
        here: bool,
    ) -> Arc<Event> {
        let ev = Event::new_command(self, command_type, work);
        ev.hold(held);
        for dep in wait_list {
            dep.add_successor(&ev, true);
        }
        {
            let mut order = self.order.lock().unwrap_or_else(|p| p.into_inner());
            if self.out_of_order() {
                if sync != Sync::Command && wait_list.is_empty() {
                    for dep in order.outstanding.iter().filter_map(alive) {
                        dep.add_successor(&ev, false);
                    }
                }
                if let Some(barrier) = alive(&order.barrier) {
                    barrier.add_successor(&ev, false);
                }
                if sync == Sync::Barrier {
                    order.barrier = Arc::downgrade(&ev);
                }
                order.outstanding.push(Arc::downgrade(&ev));
                if order.outstanding.len() > 2 * order.pruned_len + 64 {
                    order.outstanding.retain(|e| alive(e).is_some());
                    order.pruned_len = order.outstanding.len();
                }
            } else {
                if let Some(last) = alive(&order.last) {
                    last.add_successor(&ev, false);
                }
                order.last = Arc::downgrade(&ev);
            }
        }
        ev.advance(CL_SUBMITTED as cl_int, Stamp::Submit);
        if ev.release_dependency(false) {
            if here {
                sched::run_here(ev.clone());
            } else {
                sched::launch(ev.clone());
            }
        }
        ev
    }

    /// clFinish: blocks until every command enqueued so far has ended.
    pub fn finish(&self) {
        for ev in self.pending() {
            ev.wait();
        }
    }

    /// The events whose completion means every command enqueued so far
    /// has ended: the last one in order, or all outstanding ones.
    pub fn pending(&self) -> Vec<Arc<Event>> {
        let order = self.order.lock().unwrap_or_else(|p| p.into_inner());
        if self.out_of_order() {
            order.outstanding.iter().filter_map(alive).collect()
        } else {
            alive(&order.last).into_iter().collect()
        }
    }
}
