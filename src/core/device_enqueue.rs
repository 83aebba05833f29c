//! Device-side enqueue (OpenCL 3.0 section 3.2.3, OpenCL C 6.15.16): the
//! runtime's half of enqueue_kernel, enqueue_marker and the device events,
//! which compiled code calls through the work-group context.
//!
//! A child kernel is an ordinary command of the graph, on the on-device
//! queue the kernel named: its event waits on the child's wait list and,
//! with CLK_ENQUEUE_FLAGS_WAIT_KERNEL, on a gate event that ends when the
//! parent's NDRange has run (WAIT_WORK_GROUP: when the enqueuing work-group
//! has), and it runs on the device's worker pool like any command.
//!
//! Parent and children form a `Family`: the parent's kernel counts one, each
//! child one more. A command whose kernel enqueued children does not end
//! when its kernel returns (`sched::run` sees `DEFERRED`): the family ends
//! it when the count reaches zero, so "a command is complete when all its
//! work-groups and all its child kernels are", with the first negative
//! status among the kernel and its children. No worker ever waits for a
//! child, so nesting depth and the number of children are bounded by memory
//! and the queue's size, not by threads.
//!
//! clk_event_t values are `Arc<Event>` pointers (Arc::into_raw): one count
//! per reference the kernel holds; retain_event and release_event move it.

use crate::cl::*;
use crate::compiler::abi::{self, EnqueueRequest, NdRangeT, WorkGroupContext};
use crate::compiler::Executable;
use crate::context::Context;
use crate::event::{Event, Stamp};
use crate::kernel::{
    Arg, Dispatch, NdRange, MAX_WORK_GROUP_SIZE, PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
};
use crate::object::handle_of;
use crate::queue::Queue;
use crate::sched::ndrange::{self, linear_group_id};
use crate::sched::pool::Pool;
use crate::sched::{self, Command, Released, DEFERRED};
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

// OpenCL C's CLK_* codes (opencl-c-base.h).
const CLK_SUCCESS: i32 = 0;
const CLK_ENQUEUE_FAILURE: i32 = -101;
const CLK_INVALID_QUEUE: i32 = -102;
const CLK_INVALID_NDRANGE: i32 = -160;
const CLK_INVALID_EVENT_WAIT_LIST: i32 = -57;
const CLK_DEVICE_QUEUE_FULL: i32 = -161;
const CLK_INVALID_ARG_SIZE: i32 = -51;

const CLK_ENQUEUE_FLAGS_NO_WAIT: u32 = 0;
const CLK_ENQUEUE_FLAGS_WAIT_KERNEL: u32 = 1;
const CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP: u32 = 2;
const CLK_PROFILING_COMMAND_EXEC_TIME: isize = 1;

/// CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, what a queue created without
/// CL_QUEUE_SIZE gets: 32768 commands. A child is a heap-allocated command
/// of the graph, so the count is the only limit, and a kernel of 16384
/// work-items that each enqueue a child waiting for it (the Khronos CTS's
/// command-buffer device_enqueue test, which Intel's runtime passes) needs
/// that many.
pub const QUEUE_PREFERRED_SIZE: u32 = 2 << 20;
/// CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE.
pub const QUEUE_MAX_SIZE: u32 = 8 << 20;
/// CL_DEVICE_MAX_ON_DEVICE_QUEUES.
pub const MAX_QUEUES: u32 = 4;
/// CL_DEVICE_MAX_ON_DEVICE_EVENTS.
pub const MAX_EVENTS: u32 = 1 << 16;
/// The bytes of a device queue one enqueued command takes: a queue of
/// CL_QUEUE_SIZE bytes holds CL_QUEUE_SIZE / COMMAND_BYTES commands not yet
/// ended before enqueue_kernel answers CLK_DEVICE_QUEUE_FULL.
pub const COMMAND_BYTES: u32 = 64;

/// An on-device queue's own state.
pub struct OnDevice {
    /// CL_QUEUE_SIZE.
    pub size: u32,
    /// Commands enqueued and not yet ended.
    outstanding: AtomicUsize,
}

impl OnDevice {
    pub fn new(size: u32) -> OnDevice {
        OnDevice {
            size,
            outstanding: AtomicUsize::new(0),
        }
    }

    fn capacity(&self) -> usize {
        (self.size / COMMAND_BYTES).max(1) as usize
    }

    /// Takes a slot for one command; false when the queue is full.
    fn take_slot(&self) -> bool {
        let cap = self.capacity();
        self.outstanding
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < cap).then_some(n + 1)
            })
            .is_ok()
    }

    fn release_slot(&self) {
        self.outstanding.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A kernel command and its children: see the module comment.
pub struct Family {
    /// The kernel itself (until it returns) and every child not yet ended.
    pending: AtomicUsize,
    /// CL_COMPLETE, or the first negative status of the kernel or a child.
    status: AtomicI32,
    /// The command to end when `pending` reaches zero (set when its kernel
    /// returns; None while it runs, or when the command never ran).
    event: Mutex<Option<Arc<Event>>>,
    /// The family this one is a child of.
    parent: Option<Arc<Family>>,
    /// The on-device queue a child holds a slot of.
    queue: Option<Arc<Queue>>,
    /// Ends when the kernel's NDRange has run (CLK_ENQUEUE_FLAGS_WAIT_KERNEL).
    kernel_done: OnceLock<Arc<Event>>,
}

impl Family {
    fn new(parent: Option<Arc<Family>>, queue: Option<Arc<Queue>>) -> Arc<Family> {
        Arc::new(Family {
            pending: AtomicUsize::new(1),
            status: AtomicI32::new(CL_COMPLETE as cl_int),
            event: Mutex::new(None),
            parent,
            queue,
            kernel_done: OnceLock::new(),
        })
    }

    fn add_child(&self) {
        self.pending.fetch_add(1, Ordering::AcqRel);
    }

    /// One member (the kernel or a child) ended with `status`. The last one
    /// ends the command and reports to the parent family.
    fn finish_one(&self, status: cl_int) {
        if status < 0 {
            let _ = self.status.compare_exchange(
                CL_COMPLETE as cl_int,
                status,
                Ordering::AcqRel,
                Ordering::Acquire,
            );
        }
        if self.pending.fetch_sub(1, Ordering::AcqRel) != 1 {
            return;
        }
        let status = self.status.load(Ordering::Acquire);
        let event = self.event.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(ev) = event {
            let mut released = Released::new();
            ev.end(status, &mut released);
            sched::launch_all(released);
        }
        if let Some(q) = &self.queue {
            if let Some(d) = &q.on_device {
                d.release_slot();
            }
        }
        if let Some(p) = &self.parent {
            p.finish_one(status);
        }
    }
}

/// Reports a child that never ran (its work dropped because a dependency
/// failed) to its family.
struct NeverRan(Option<Arc<Family>>);

impl NeverRan {
    fn disarm(mut self) -> Arc<Family> {
        self.0.take().expect("armed until run")
    }
}

impl Drop for NeverRan {
    fn drop(&mut self) {
        if let Some(f) = self.0.take() {
            f.finish_one(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        }
    }
}

/// One launch's device-side state, which ctx->device_side points to while
/// its work-groups run.
pub struct DeviceSide {
    /// The command running the launch (None outside the command graph).
    command: Option<Arc<Event>>,
    executable: Arc<Executable>,
    /// The launch's family: given for a child, made by its first
    /// enqueue for a kernel the application enqueued.
    family: OnceLock<Arc<Family>>,
    num_groups: [usize; 3],
    /// WAIT_WORK_GROUP gates by linear group index, made on demand.
    group_gates: Mutex<Vec<(usize, Arc<Event>)>>,
    has_group_gates: AtomicBool,
}

impl DeviceSide {
    pub fn new(
        executable: Arc<Executable>,
        range: &NdRange,
        family: Option<Arc<Family>>,
    ) -> DeviceSide {
        let cell = OnceLock::new();
        if let Some(f) = family {
            let _ = cell.set(f);
        }
        DeviceSide {
            command: sched::running_command().and_then(Event::of),
            executable,
            family: cell,
            num_groups: range.groups,
            group_gates: Mutex::new(Vec::new()),
            has_group_gates: AtomicBool::new(false),
        }
    }

    fn context(&self) -> Option<&Arc<Context>> {
        self.command.as_ref().map(|c| &c.context)
    }

    fn family(&self) -> &Arc<Family> {
        self.family.get_or_init(|| Family::new(None, None))
    }

    /// A work-group ended: releases the children waiting for it.
    fn release_group(&self, group: usize) {
        if !self.has_group_gates.load(Ordering::Acquire) {
            return;
        }
        let gate = {
            let mut gates = self.group_gates.lock().unwrap_or_else(|p| p.into_inner());
            gates
                .iter()
                .position(|(g, _)| *g == group)
                .map(|i| gates.swap_remove(i).1)
        };
        if let Some(gate) = gate {
            gate.end_user_event(CL_COMPLETE as cl_int);
        }
    }

    fn group_gate(&self, group: usize, context: &Arc<Context>) -> Arc<Event> {
        let mut gates = self.group_gates.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, g)) = gates.iter().find(|(g, _)| *g == group) {
            return g.clone();
        }
        let gate = Event::new_user(context.clone());
        gates.push((group, gate.clone()));
        self.has_group_gates.store(true, Ordering::Release);
        gate
    }

    /// The launch's kernel has run with `result`: without children that is
    /// the command's status; with children the family ends the command
    /// later, and this returns DEFERRED.
    pub fn finish(self, result: Result<(), cl_int>) -> Result<(), cl_int> {
        // Gates of groups that never ran (a failed launch) release their
        // children too.
        let gates =
            std::mem::take(&mut *self.group_gates.lock().unwrap_or_else(|p| p.into_inner()));
        for (_, gate) in gates {
            gate.end_user_event(CL_COMPLETE as cl_int);
        }
        let Some(family) = self.family.into_inner() else {
            return result;
        };
        if let Some(gate) = family.kernel_done.get() {
            gate.end_user_event(CL_COMPLETE as cl_int);
        }
        let status = match result {
            Ok(()) => CL_COMPLETE as cl_int,
            Err(code) => code,
        };
        match self.command {
            Some(command) => {
                command.stamp(Stamp::End);
                *family.event.lock().unwrap_or_else(|p| p.into_inner()) = Some(command);
                family.finish_one(status);
                Err(DEFERRED)
            }
            // Outside the graph nothing can be deferred (nothing enqueues
            // there: enqueue_kernel needs the command's context).
            None => result,
        }
    }
}

impl ndrange::DeviceEnqueue for DeviceSide {
    fn install(&self, ctx: &mut WorkGroupContext) {
        ctx.enqueue_fn = enqueue_entry;
        ctx.device_op = device_op_entry;
        ctx.device_side = self as *const DeviceSide as *mut c_void;
    }

    fn group_done(&self, group: usize) {
        self.release_group(group);
    }
}

/// Runs `launch` over `range` on `pool`'s workers, with device-side enqueue
/// available to its kernel; a member of `family` when it is a child. When
/// the kernel enqueued children, the command ends once they have: this
/// returns `sched::DEFERRED`.
pub fn execute(
    pool: &Pool,
    launch: &Dispatch,
    range: &NdRange,
    family: Option<Arc<Family>>,
) -> Result<(), cl_int> {
    let side = DeviceSide::new(launch.executable.clone(), range, family);
    let result = ndrange::execute(pool, launch, range, &side);
    side.finish(result)
}

unsafe extern "C" fn enqueue_entry(
    ctx: *mut WorkGroupContext,
    request: *const EnqueueRequest,
) -> i32 {
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // SAFETY: compiled code passes its own context, whose device_side
        // `install` set to the launch's live DeviceSide, and a request it
        // filled in (builtins/devenq.c).
        let (ctx, side, req) = unsafe {
            (
                &*ctx,
                &*((*ctx).device_side as *const DeviceSide),
                &*request,
            )
        };
        enqueue(ctx, side, req).err().unwrap_or(CLK_SUCCESS)
    }));
    run.unwrap_or(CLK_ENQUEUE_FAILURE)
}

unsafe extern "C" fn device_op_entry(
    ctx: *mut WorkGroupContext,
    op: u32,
    a: *mut c_void,
    b: isize,
    c: *mut c_void,
) -> isize {
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // SAFETY: as in enqueue_entry.
        let side = unsafe { &*((*ctx).device_side as *const DeviceSide) };
        device_op(side, op, a, b, c)
    }));
    run.unwrap_or(0)
}

/// `a` as the event it is (a clk_event_t the kernel holds a count of).
fn event_ref(a: *mut c_void) -> Option<std::mem::ManuallyDrop<Arc<Event>>> {
    if !is_event(a) {
        return None;
    }
    // SAFETY: a valid clk_event_t is an Arc<Event> pointer whose count the
    // kernel holds (it does not release it while using it).
    Some(std::mem::ManuallyDrop::new(unsafe {
        Arc::from_raw(a as *const Event)
    }))
}

/// CLK_NULL_EVENT is all ones; NULL is no event either.
fn is_event(a: *mut c_void) -> bool {
    !a.is_null() && a as usize != usize::MAX
}

fn device_op(side: &DeviceSide, op: u32, a: *mut c_void, b: isize, c: *mut c_void) -> isize {
    match op {
        abi::DEVICE_OP_RETAIN_EVENT => {
            if is_event(a) {
                // SAFETY: see event_ref.
                unsafe { Arc::increment_strong_count(a as *const Event) };
            }
            0
        }
        abi::DEVICE_OP_RELEASE_EVENT => {
            if is_event(a) {
                // SAFETY: see event_ref; this gives back one of the counts.
                unsafe { Arc::decrement_strong_count(a as *const Event) };
            }
            0
        }
        abi::DEVICE_OP_IS_VALID_EVENT => is_event(a) as isize,
        abi::DEVICE_OP_CREATE_USER_EVENT => match side.context() {
            Some(ctx) => Arc::into_raw(Event::new_user(ctx.clone())) as isize,
            None => usize::MAX as isize,
        },
        abi::DEVICE_OP_SET_USER_EVENT_STATUS => {
            // "status can be either CL_COMPLETE or a negative integer value
            // indicating an error."
            if let Some(ev) = event_ref(a) {
                let status = b as cl_int;
                if ev.is_user()
                    && (status == CL_COMPLETE as cl_int || status < 0)
                    && ev.claim_user_status()
                {
                    ev.end_user_event(status);
                }
            }
            0
        }
        abi::DEVICE_OP_CAPTURE_PROFILING => {
            if let Some(ev) = event_ref(a) {
                if b == CLK_PROFILING_COMMAND_EXEC_TIME && !c.is_null() {
                    capture_profiling(side, &ev, c as usize);
                }
            }
            0
        }
        abi::DEVICE_OP_DEFAULT_QUEUE => side
            .context()
            .zip(side.command.as_ref().and_then(|c| c.queue.as_ref()))
            .and_then(|(ctx, q)| ctx.default_device_queue(&q.device))
            .map_or(0, |q| handle_of(&q) as isize),
        abi::DEVICE_OP_KERNEL_WORK_GROUP_SIZE => MAX_WORK_GROUP_SIZE as isize,
        abi::DEVICE_OP_PREFERRED_MULTIPLE => PREFERRED_WORK_GROUP_SIZE_MULTIPLE as isize,
        _ => 0,
    }
}

/// capture_event_profiling_info: "the profiling information will be
/// available in value once the command identified by event has completed",
/// so a command waiting on the event writes it, as a member of the
/// family (the parent does not complete before the values are there).
fn capture_profiling(side: &DeviceSide, ev: &Arc<Event>, out: usize) {
    let Some(queue) = ev.queue.clone() else {
        return;
    };
    if crate::event::is_terminal(ev.status()) {
        // Already complete: the values are there at once.
        write_exec_times(ev, out);
        return;
    }
    let family = side.family().clone();
    family.add_child();
    let target = ev.clone();
    let guard = NeverRan(Some(family));
    let work: crate::event::Work = Box::new(move || {
        let family = guard.disarm();
        write_exec_times(&target, out);
        family.finish_one(CL_COMPLETE as cl_int);
        Ok(())
    });
    let cmd = Event::new_command(&queue, CL_COMMAND_MARKER, Some(work));
    // Not a wait-list dependency: a failed command has times too.
    ev.add_successor(&cmd, false);
    submit(cmd);
}

/// CLK_PROFILING_COMMAND_EXEC_TIME of a completed command: END - START,
/// then COMPLETE - START (with its children), in nanoseconds.
fn write_exec_times(ev: &Event, out: usize) {
    let start = ev.stamp_value(Stamp::Start);
    let end = ev.stamp_value(Stamp::End);
    let complete = ev.stamp_value(Stamp::Complete);
    let values = [end.saturating_sub(start), complete.saturating_sub(start)];
    // SAFETY: the kernel handed a __global pointer to two 64-bit values;
    // its buffer lives until the parent command ends, which waits for the
    // command writing them.
    unsafe { std::ptr::copy_nonoverlapping(values.as_ptr(), out as *mut u64, 2) };
}

/// The event's dependencies are linked: releases the enqueue guard.
fn submit(ev: Arc<Event>) {
    ev.advance(CL_SUBMITTED as cl_int, Stamp::Submit);
    if ev.release_dependency(false) {
        sched::launch(ev);
    }
}

/// The wait list of an enqueue, resolved.
fn wait_list(req: &EnqueueRequest) -> Result<Vec<Arc<Event>>, i32> {
    let n = req.num_events as usize;
    // "CLK_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and
    // num_events_in_wait_list > 0, or if event_wait_list is not NULL and
    // num_events_in_wait_list is 0, or if event objects in event_wait_list
    // are not valid events."
    if req.wait_list.is_null() != (n == 0) {
        return Err(CLK_INVALID_EVENT_WAIT_LIST);
    }
    if n == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: the kernel's array of n events.
    let events = unsafe { std::slice::from_raw_parts(req.wait_list, n) };
    events
        .iter()
        .map(|&e| {
            event_ref(e)
                .map(|ev| Arc::clone(&ev))
                .ok_or(CLK_INVALID_EVENT_WAIT_LIST)
        })
        .collect()
}

/// The on-device queue a queue_t names.
fn device_queue(handle: *mut c_void, side: &DeviceSide) -> Result<Arc<Queue>, i32> {
    let q = Queue::resolve(handle as cl_command_queue).map_err(|_| CLK_INVALID_QUEUE)?;
    let same_context = side.context().is_some_and(|c| Arc::ptr_eq(c, &q.context));
    if q.on_device.is_none() || !same_context {
        return Err(CLK_INVALID_QUEUE);
    }
    Ok(q)
}

fn write_event(req: &EnqueueRequest, ev: &Arc<Event>) {
    if !req.event_ret.is_null() {
        // SAFETY: the kernel's clk_event_t out-parameter.
        unsafe { *req.event_ret = Arc::into_raw(ev.clone()) as *mut c_void };
    }
}

fn enqueue(ctx: &WorkGroupContext, side: &DeviceSide, req: &EnqueueRequest) -> Result<(), i32> {
    let queue = device_queue(req.queue, side)?;
    let context = side.context().ok_or(CLK_ENQUEUE_FAILURE)?.clone();
    let waits = wait_list(req)?;
    if req.entry.is_null() {
        // enqueue_marker: "CLK_INVALID_EVENT_WAIT_LIST if event_wait_list
        // is NULL" (a marker waits for the events it lists).
        if waits.is_empty() {
            return Err(CLK_INVALID_EVENT_WAIT_LIST);
        }
        let marker = Event::new_command(&queue, CL_COMMAND_MARKER, None);
        for w in &waits {
            w.add_successor(&marker, true);
        }
        write_event(req, &marker);
        submit(marker);
        return Ok(());
    }
    let flags = req.flags;
    if ![
        CLK_ENQUEUE_FLAGS_NO_WAIT,
        CLK_ENQUEUE_FLAGS_WAIT_KERNEL,
        CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP,
    ]
    .contains(&flags)
    {
        return Err(CLK_ENQUEUE_FAILURE);
    }
    // The parent kernel runs: its program's code is loaded.
    let index = (side.executable.code().ok())
        .and_then(|code| code.kernel_of_entry(req.entry as usize))
        .ok_or(CLK_ENQUEUE_FAILURE)?;
    let info = &side.executable.kernels[index];
    // SAFETY: the ndrange_t the kernel passed.
    let nd: NdRangeT = unsafe { *req.ndrange };
    let range = child_range(info, &nd, queue.device.pool().threads)?;
    let num_locals = req.num_locals as usize;
    if info.args.len() != 1 + num_locals {
        return Err(CLK_INVALID_ARG_SIZE);
    }
    let sizes: &[usize] = if num_locals == 0 {
        &[]
    } else {
        // SAFETY: the kernel's array of num_locals sizes.
        unsafe { std::slice::from_raw_parts(req.local_sizes, num_locals) }
    };
    // "CLK_INVALID_ARG_SIZE if any of the local memory pointer argument
    // sizes is 0."
    if sizes.contains(&0) {
        return Err(CLK_INVALID_ARG_SIZE);
    }
    if sizes.iter().sum::<usize>() as u64 > crate::kernel::local_mem_size() {
        return Err(CLK_INVALID_ARG_SIZE);
    }
    let block = BlockCopy::new(req.block).ok_or(CLK_ENQUEUE_FAILURE)?;
    let on_device = queue.on_device.as_ref().ok_or(CLK_INVALID_QUEUE)?;
    if !on_device.take_slot() {
        return Err(CLK_DEVICE_QUEUE_FULL);
    }
    let parent = side.family().clone();
    parent.add_child();
    let family = Family::new(Some(parent.clone()), Some(queue.clone()));
    let mut args = vec![Arg::Bytes(block.address().to_ne_bytes().to_vec())];
    args.extend(sizes.iter().map(|&n| Arg::Local(n)));
    let launch = Dispatch {
        executable: side.executable.clone(),
        index,
        args,
        // Children go to the pool (never run_here): what they touch does
        // not matter.
        shares_host_memory: true,
    };
    let pool = queue.device.pool().clone();
    let guard = NeverRan(Some(family));
    let work: crate::event::Work = Box::new(move || {
        let family = guard.disarm();
        let _block = block;
        execute(&pool, &launch, &range, Some(family))
    });
    let child = Event::new_command(&queue, CL_COMMAND_NDRANGE_KERNEL, Some(work));
    for w in &waits {
        w.add_successor(&child, true);
    }
    match flags {
        CLK_ENQUEUE_FLAGS_WAIT_KERNEL => {
            let gate = parent
                .kernel_done
                .get_or_init(|| Event::new_user(context.clone()));
            gate.add_successor(&child, false);
        }
        CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP => {
            let linear = linear_group_id(ctx.group_id, side.num_groups);
            side.group_gate(linear, &context)
                .add_successor(&child, false);
        }
        _ => {}
    }
    write_event(req, &child);
    submit(child);
    Ok(())
}

/// Validates a child's ndrange_t: "CLK_INVALID_NDRANGE if ndrange is not a
/// valid ND-range descriptor or if the program was compiled with
/// -cl-uniform-work-group-size and the local_work_size is specified in
/// ndrange but the global_work_size specified in ndrange is not a multiple
/// of the local_work_size". Non-uniform work-groups are fine otherwise
/// (OpenCL C 2.0).
fn child_range(
    info: &crate::compiler::KernelInfo,
    nd: &NdRangeT,
    threads: usize,
) -> Result<NdRange, i32> {
    let dims = nd.work_dim as usize;
    if !(1..=3).contains(&dims) {
        return Err(CLK_INVALID_NDRANGE);
    }
    let global = &nd.global[..dims];
    let local = &nd.local[..dims];
    if global.contains(&0) {
        return Err(CLK_INVALID_NDRANGE);
    }
    // A local size of 0 lets the implementation choose; all or none.
    let chosen = local.iter().all(|&l| l == 0);
    if !chosen && local.contains(&0) {
        return Err(CLK_INVALID_NDRANGE);
    }
    let range = NdRange::new(
        info,
        nd.work_dim,
        Some(&nd.offset[..dims]),
        Some(global),
        (!chosen).then_some(local),
        false,
        threads,
    )
    .map_err(|_| CLK_INVALID_NDRANGE)?;
    range.ok_or(CLK_INVALID_NDRANGE)
}

/// A copy of a block literal: the parent's is on its work-item's stack.
struct BlockCopy(Vec<Aligned>);

#[derive(Clone, Copy)]
#[repr(C, align(128))]
struct Aligned([u8; 128]);

impl BlockCopy {
    /// The block literal at `block`: `<{ i32 size, i32 align, ptr invoke,
    /// captures... }>`, `size` bytes in all.
    fn new(block: *const c_void) -> Option<BlockCopy> {
        if block.is_null() {
            return None;
        }
        // SAFETY: clang's block literal starts with its size.
        let size = unsafe { (block as *const u32).read_unaligned() } as usize;
        if !(16..=(1 << 20)).contains(&size) {
            return None;
        }
        let mut copy = vec![Aligned([0; 128]); size.div_ceil(128)];
        // SAFETY: the literal is `size` bytes; the copy has room for them.
        unsafe {
            std::ptr::copy_nonoverlapping(block as *const u8, copy.as_mut_ptr() as *mut u8, size)
        };
        Some(BlockCopy(copy))
    }

    fn address(&self) -> usize {
        self.0.as_ptr() as usize
    }
}
