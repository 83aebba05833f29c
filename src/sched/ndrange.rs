//! Running an NDRange: the work-groups are spread over the device's
//! workers (`Pool::parallel_for`), each group runs on one thread with its
//! own context and __local buffers. When the groups are too few for the
//! workers, a kernel whose work-items cannot tell (KernelInfo::splittable)
//! has each group cut into pieces, ranges of its local ids, which run on
//! several threads at once (`pieces`).
//!
//! A kernel without barriers runs its work-items one after the other: in
//! the compiled work-group entry's loops when it has one, else by calling
//! its work-item entry for each. A
//! kernel with barriers runs each work-item on a fiber of its own: a
//! barrier suspends the work-item, and the group runs in rounds, every
//! work-item to its next barrier, in order, before the next round, so no
//! work-item passes a barrier before all have reached it.

use crate::cl::*;
use crate::compiler::abi::EnqueueRequest;
use crate::compiler::abi::MAX_ALIGN as BASE_ADDR_ALIGN;
use crate::compiler::abi::{
    WorkGroupContext, WorkItemEntry, NON_UNIFORM_WAIT, PROGRESS, SUB_GROUP_BARRIER,
};
use crate::compiler::{ArgSpace, Executable, KernelInfo};
use crate::pool::{Claims, Pool};
use crate::printf::{printf_entry, PrintfBuffer};
pub use crate::range::NdRange;
use corosensei::stack::{DefaultStack, Stack};
use corosensei::{Coroutine, CoroutineResult, Yielder};
use std::cell::RefCell;
use std::ffi::c_void;
use std::sync::Arc;

/// A work-item fiber's stack. Reserved, not committed: only the pages a
/// kernel touches cost memory.
const FIBER_STACK_SIZE: usize = 256 << 10;

/// One argument as the kernel receives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A value passed by copy.
    Bytes(Vec<u8>),
    /// A __global or __constant pointer (0: NULL).
    Pointer(usize),
    /// The size of a __local buffer, which each work-group gets its own
    /// of.
    Local(usize),
}

/// A kernel launch as the executor runs it: the kernel's code and its
/// argument values. Whoever makes one keeps the memory its pointers name
/// alive until it has run.
pub struct Dispatch {
    pub executable: Arc<Executable>,
    /// The kernel's index in `executable`.
    pub index: usize,
    pub args: Vec<Arg>,
    /// The kernel may share memory with host threads while it runs (SVM,
    /// the application's own memory): it must not run on a thread that
    /// such a host thread may be waiting on (see `is_short`).
    pub shares_host_memory: bool,
}

impl Dispatch {
    pub fn info(&self) -> &KernelInfo {
        &self.executable.kernels[self.index]
    }
}

/// One 128-byte-aligned block: argument values and __local buffers are
/// laid out in these, so every value is aligned for any OpenCL C type.
#[derive(Clone, Copy)]
#[repr(C, align(128))]
struct Block([u8; BASE_ADDR_ALIGN]);

fn blocks(bytes: usize) -> Vec<Block> {
    vec![Block([0; BASE_ADDR_ALIGN]); bytes.div_ceil(BASE_ADDR_ALIGN)]
}

/// The argument values of a launch laid out for the kernel: `slots[i]` is
/// the offset in `values` of argument i's value (the pointer, for a
/// buffer or a __local argument; the bytes for a value).
struct ArgBlock {
    values: Vec<Block>,
    slots: Vec<usize>,
    /// (argument, offset in the group's __local arena) of each __local
    /// argument.
    locals: Vec<(usize, usize)>,
    arena_size: usize,
}

fn round_up(n: usize) -> usize {
    n.div_ceil(BASE_ADDR_ALIGN) * BASE_ADDR_ALIGN
}

impl ArgBlock {
    fn new(launch: &Dispatch) -> ArgBlock {
        let mut slots = Vec::with_capacity(launch.args.len());
        let mut locals = Vec::new();
        let mut size = 0;
        let mut arena_size = 0;
        for (i, a) in launch.args.iter().enumerate() {
            slots.push(size);
            size += round_up(match a {
                Arg::Bytes(b) => b.len().max(1),
                _ => std::mem::size_of::<usize>(),
            });
            if let Arg::Local(n) = a {
                locals.push((i, arena_size));
                arena_size += round_up(*n);
            }
        }
        let mut values = blocks(size.max(1));
        let bytes = as_bytes(&mut values);
        for (a, &at) in launch.args.iter().zip(&slots) {
            let ptr = match a {
                Arg::Bytes(b) => {
                    bytes[at..at + b.len()].copy_from_slice(b);
                    continue;
                }
                Arg::Pointer(p) => *p,
                // Set per work-group.
                Arg::Local(_) => 0,
            };
            bytes[at..at + 8].copy_from_slice(&ptr.to_ne_bytes());
        }
        ArgBlock {
            values,
            slots,
            locals,
            arena_size,
        }
    }
}

fn as_bytes(blocks: &mut [Block]) -> &mut [u8] {
    // SAFETY: Block is plain bytes with no padding (128 bytes, align 128).
    unsafe {
        std::slice::from_raw_parts_mut(
            blocks.as_mut_ptr() as *mut u8,
            std::mem::size_of_val(blocks),
        )
    }
}

/// What one thread needs to run work-groups: its own copy of the argument
/// values, its own __local arena and the args array pointing into them.
struct GroupArgs {
    _values: Vec<Block>,
    arena: Vec<Block>,
    ptrs: Vec<*mut c_void>,
}

impl GroupArgs {
    fn new(block: &ArgBlock) -> GroupArgs {
        let mut values = block.values.clone();
        let mut arena = blocks(block.arena_size.max(1));
        let arena_base = arena.as_mut_ptr() as usize;
        let bytes = as_bytes(&mut values);
        for &(arg, off) in &block.locals {
            let at = block.slots[arg];
            bytes[at..at + 8].copy_from_slice(&(arena_base + off).to_ne_bytes());
        }
        let base = values.as_mut_ptr() as *mut u8;
        let ptrs = block
            .slots
            .iter()
            .map(|&o| base.wrapping_add(o) as *mut c_void)
            .collect();
        GroupArgs {
            _values: values,
            arena,
            ptrs,
        }
    }

    /// The __local argument arena, [begin, end) (WorkGroupContext).
    fn arena_range(&self) -> (*mut c_void, *mut c_void) {
        let range = self.arena.as_ptr_range();
        (range.start as *mut c_void, range.end as *mut c_void)
    }
}

/// ctx->barrier for kernels the compiler found no barrier in.
unsafe extern "C" fn barrier_unexpected(ctx: *mut WorkGroupContext, _flags: u32) {
    // SAFETY: the kernel passes the context it was called with.
    let ctx = unsafe { &*ctx };
    // One work-item alone passes any barrier.
    if ctx.local_size.iter().product::<usize>() == 1 {
        return;
    }
    eprintln!(
        "ferrocl: a kernel compiled without barrier support called barrier(); \
         the compiler must set KernelInfo::uses_barriers for it"
    );
    std::process::abort();
}

/// Where a suspended work-item waits: at a work-group barrier (every
/// work-item of the group), a sub-group barrier (its sub-group's only), or
/// a non-uniform sub-group function (with those of its sub-group at the
/// same call site).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wait {
    Group,
    SubGroup,
    NonUniform,
    /// At a loop's progress point: gives way to the group's other
    /// work-items, then runs on.
    Progress,
}

/// The fiber state ctx->executor points to while a group with barriers
/// runs: the yielder of the work-item running now.
struct Fibers {
    current: *const Yielder<(), Wait>,
}

/// ctx->barrier for kernels with barriers: suspends the running
/// work-item until every work-item of the group (of its sub-group, for
/// sub_group_barrier) has reached the barrier.
unsafe extern "C" fn barrier_fiber(ctx: *mut WorkGroupContext, flags: u32) {
    // SAFETY: the kernel passes the context it was called with, whose
    // executor field run_group_fibers set to its live Fibers.
    let fibers = unsafe { (*ctx).executor as *mut Fibers };
    // SAFETY: `current` is the running fiber's yielder (set when the fiber
    // started or last resumed), alive as long as the fiber.
    let yielder = unsafe { &*(*fibers).current };
    yielder.suspend(if flags & PROGRESS != 0 {
        Wait::Progress
    } else if flags & NON_UNIFORM_WAIT != 0 {
        Wait::NonUniform
    } else if flags & SUB_GROUP_BARRIER != 0 {
        Wait::SubGroup
    } else {
        Wait::Group
    });
    // Resumed: this work-item runs again, so its yielder is current.
    // SAFETY: as above; the Fibers outlive every fiber of the group.
    unsafe { (*fibers).current = yielder };
}

thread_local! {
    /// Fiber stacks, kept for the next group this thread runs.
    static STACKS: RefCell<Vec<DefaultStack>> = const { RefCell::new(Vec::new()) };
}

fn take_stack() -> Result<DefaultStack, cl_int> {
    match STACKS.with(|s| s.borrow_mut().pop()) {
        Some(s) => Ok(s),
        None => DefaultStack::new(FIBER_STACK_SIZE).map_err(|_| CL_OUT_OF_RESOURCES),
    }
}

/// The calling thread's MXCSR (SSE's rounding, exception masks, denormal
/// modes and sticky flags).
#[cfg(target_arch = "x86_64")]
pub(super) fn read_mxcsr() -> u32 {
    let mut csr = 0u32;
    // SAFETY: stmxcsr stores the 32-bit MXCSR to the local's address.
    unsafe {
        std::arch::asm!("stmxcsr [{}]", in(reg) &mut csr, options(nostack, preserves_flags));
    }
    csr
}

/// Sets the calling thread's MXCSR.
///
/// # Safety
/// `csr` sets no reserved bit, and code that runs under it expects the
/// exceptions it unmasks (a value read_mxcsr returned, or one with only
/// mode bits changed, is fine).
#[cfg(target_arch = "x86_64")]
pub(super) unsafe fn write_mxcsr(csr: u32) {
    // SAFETY: the caller's contract; ldmxcsr loads the local's value.
    unsafe {
        std::arch::asm!("ldmxcsr [{}]", in(reg) &csr, options(nostack, preserves_flags));
    }
}

/// While alive, the thread runs with single-precision denormals flushed to
/// zero, as a kernel built with -cl-denorms-are-zero asks: x86's MXCSR
/// FTZ (results) and DAZ (inputs), put back as they were on drop, so the
/// worker's next command (or the application's own code, on a thread
/// that helps) sees the host's mode again. SSE has one mode for float and
/// double; "double precision denormalized numbers may also be flushed".
struct DenormalsAreZero {
    #[cfg(target_arch = "x86_64")]
    saved: u32,
}

#[cfg(target_arch = "x86_64")]
impl DenormalsAreZero {
    const FTZ: u32 = 1 << 15;
    const DAZ: u32 = 1 << 6;

    fn enter() -> DenormalsAreZero {
        let saved = read_mxcsr();
        // SAFETY: only the FTZ and DAZ mode bits are added to the current
        // value (no reserved bit, no exception unmasked).
        unsafe { write_mxcsr(saved | Self::FTZ | Self::DAZ) };
        DenormalsAreZero { saved }
    }
}

#[cfg(target_arch = "x86_64")]
impl Drop for DenormalsAreZero {
    fn drop(&mut self) {
        // SAFETY: the value read_mxcsr returned in enter().
        unsafe { write_mxcsr(self.saved) };
    }
}

/// Elsewhere denormals stay as the host has them (the flush is a hint).
#[cfg(not(target_arch = "x86_64"))]
impl DenormalsAreZero {
    fn enter() -> DenormalsAreZero {
        DenormalsAreZero {}
    }
}

fn local_ids(ls: [usize; 3]) -> impl Iterator<Item = [usize; 3]> {
    (0..ls[2]).flat_map(move |z| (0..ls[1]).flat_map(move |y| (0..ls[0]).map(move |x| [x, y, z])))
}

/// Runs a group's work-items one after the other.
///
/// # Safety
/// `entry` is a work-item entry taking `args`; `ctx` describes the group.
unsafe fn run_group_loop(
    entry: WorkItemEntry,
    args: *const *mut c_void,
    ctx: &mut WorkGroupContext,
) {
    ctx.barrier = barrier_unexpected;
    for id in local_ids(ctx.local_size) {
        ctx.local_id = id;
        // SAFETY: the caller's contract.
        unsafe { entry(args, ctx) };
    }
}

/// Runs a group's work-items on fibers, in rounds from work-group barrier
/// to work-group barrier. Within a round each sub-group runs on its own,
/// in passes, until all its work-items wait at the work-group barrier (or
/// have ended): a sub-group barrier never waits for another sub-group.
/// After each pass every work-item of the sub-group waits somewhere; those
/// at a non-uniform function's call site run on together, with their mask,
/// the site lowest in the code first (as SIMD hardware reconverges: those
/// ahead of a branch wait for the ones still in it); only when none waits
/// at one do those at a sub-group barrier.
///
/// # Safety
/// As for run_group_loop.
unsafe fn run_group_fibers(
    entry: WorkItemEntry,
    args: *const *mut c_void,
    ctx: &mut WorkGroupContext,
) -> Result<(), cl_int> {
    let mut fibers = Fibers {
        current: std::ptr::null(),
    };
    let ids: Vec<[usize; 3]> = local_ids(ctx.local_size).collect();
    let sub_group_size = ctx.sub_group_size as usize;
    // One slot per work-item, the group's result, one per sub-group, one
    // active mask per sub-group, one call site per work-item
    // (include/ferrocl_kernel.h).
    let sub_groups = ids.len().div_ceil(sub_group_size);
    let masks = ids.len() + 1 + sub_groups;
    let sites = masks + sub_groups;
    let mut scratch = vec![0u64; sites + ids.len()];
    ctx.barrier = barrier_fiber;
    ctx.executor = &mut fibers as *mut Fibers as *mut c_void;
    ctx.collective_scratch = scratch.as_mut_ptr();
    let ctx_ptr: *mut WorkGroupContext = ctx;
    let state: *mut Fibers = &mut fibers;
    let scratch_ptr = scratch.as_mut_ptr();
    let mut items = Vec::with_capacity(ids.len());
    // Each fiber's stack top: private memory for to_private.
    let mut tops = Vec::with_capacity(ids.len());
    for _ in 0..ids.len() {
        let stack = take_stack()?;
        tops.push(stack.base().get() as *mut c_void);
        items.push(Some(Coroutine::with_stack(
            stack,
            move |yielder: &Yielder<(), Wait>, ()| {
                // SAFETY: `state` and `ctx_ptr` outlive the fibers (they
                // are this function's, and every fiber ends before it
                // returns); `entry` and `args` are the caller's.
                unsafe {
                    (*state).current = yielder;
                    entry(args, ctx_ptr);
                }
            },
        )));
    }
    // Per work-item: None while it may run, else where it waits.
    let mut waits: Vec<Option<Wait>> = vec![None; ids.len()];
    let mut running = items.len();
    while running > 0 {
        for (sub_group_id, first) in (0..items.len()).step_by(sub_group_size).enumerate() {
            let sub_group = first..(first + sub_group_size).min(items.len());
            loop {
                for i in sub_group.clone() {
                    let Some(fiber) = &mut items[i] else { continue };
                    if waits[i].is_some() {
                        continue;
                    }
                    // SAFETY: no fiber runs now; the next one reads its id here.
                    unsafe {
                        (*ctx_ptr).local_id = ids[i];
                        (*ctx_ptr).stack_top = tops[i];
                    }
                    match fiber.resume(()) {
                        CoroutineResult::Yield(wait) => waits[i] = Some(wait),
                        CoroutineResult::Return(()) => {
                            let done = items[i].take().expect("the fiber just ran");
                            STACKS.with(|s| s.borrow_mut().push(done.into_stack()));
                            running -= 1;
                        }
                    }
                }
                // Every live work-item of the sub-group waits: release the
                // next set, or end the sub-group's part of the round.
                let non_uniform: Vec<usize> = sub_group
                    .clone()
                    .filter(|&i| waits[i] == Some(Wait::NonUniform))
                    .collect();
                // SAFETY: no fiber runs now, and the scratch outlives them;
                // the fibers wrote their sites before they waited.
                let site = |i: usize| unsafe { *scratch_ptr.add(sites + i) };
                // The site lowest in the code first: work-items waiting
                // further on (after a branch the others are still in) wait
                // until those behind them have caught up.
                if let Some(next) = non_uniform.iter().map(|&i| site(i)).min() {
                    let mut mask = 0u64;
                    for &i in non_uniform.iter().filter(|&&i| site(i) == next) {
                        mask |= 1 << (i - first);
                        waits[i] = None;
                    }
                    // SAFETY: as above; the mask slot of this sub-group.
                    unsafe { *scratch_ptr.add(masks + sub_group_id) = mask };
                } else if sub_group.clone().any(|i| waits[i] == Some(Wait::Progress)) {
                    // A work-item gives way (it may wait for another
                    // sub-group): the others run before it tests again,
                    // and its sub-group's barrier waits for it.
                    break;
                } else {
                    let mut released = false;
                    for i in sub_group.clone() {
                        if waits[i] == Some(Wait::SubGroup) {
                            waits[i] = None;
                            released = true;
                        }
                    }
                    if !released {
                        break;
                    }
                }
            }
        }
        if waits.contains(&Some(Wait::Progress)) {
            // Those that gave way run again; the others keep waiting.
            for w in waits.iter_mut().filter(|w| **w == Some(Wait::Progress)) {
                *w = None;
            }
        } else {
            // Every work-item waits at the work-group barrier (or has ended).
            waits.fill(None);
        }
    }
    drop(scratch);
    Ok(())
}

/// What a launch offers its kernel beyond the NDRange: device-side
/// enqueue, which the layer above provides (core::device_enqueue).
pub trait DeviceEnqueue: Sync {
    /// Points a work-group context's device-side callbacks at this launch.
    fn install(&self, ctx: &mut WorkGroupContext);
    /// The work-group with this linear id (`linear_group_id`) has ended.
    fn group_done(&self, group: usize);
}

/// A group's linear id as OpenCL numbers groups (x fastest).
pub fn linear_group_id(id: [usize; 3], groups: [usize; 3]) -> usize {
    (id[2] * groups[1] + id[1]) * groups[0] + id[0]
}

/// The device-side callbacks of a context outside any launch (tests).
///
/// # Safety
/// Any arguments: none is read.
pub unsafe extern "C" fn enqueue_unavailable(
    _ctx: *mut WorkGroupContext,
    _request: *const EnqueueRequest,
) -> i32 {
    /// CLK_ENQUEUE_FAILURE (opencl-c-base.h).
    const CLK_ENQUEUE_FAILURE: i32 = -101;
    CLK_ENQUEUE_FAILURE
}

/// See `enqueue_unavailable`.
///
/// # Safety
/// Any arguments: none is read.
pub unsafe extern "C" fn device_op_unavailable(
    _ctx: *mut WorkGroupContext,
    _op: u32,
    _a: *mut c_void,
    _b: isize,
    _c: *mut c_void,
) -> isize {
    0
}

/// A launch expected to take less than this runs on the thread that
/// enqueues it (sched::run_here): about what handing it to a worker costs
/// (an empty kernel's round trip is 3-4 us on a 16-core Xeon).
const SHORT: std::time::Duration = std::time::Duration::from_micros(4);

/// Whether a launch of `range` (None: empty) is short enough to run on the
/// enqueuing thread: its kernel's last launch ran its groups at a pace
/// that makes this one shorter than SHORT, it shares no memory with host
/// threads while it runs (a host thread waiting on SVM for it, say, would
/// then wait on itself), and it cannot wait for another command (a pipe's
/// consumer enqueued before its producer would wait for ever).
pub fn is_short(launch: &Dispatch, range: Option<&NdRange>) -> bool {
    let Some(range) = range else {
        return true;
    };
    let pace =
        launch.executable.group_pace[launch.index].load(std::sync::atomic::Ordering::Relaxed);
    !launch.shares_host_memory
        && !launch.info().may_wait_for_others
        && pace > 0
        && (pace as u128) * (range.group_count() as u128) < SHORT.as_nanos()
}

/// The id of the `g`th group a launch runs: the kernel's inner dimension
/// (KernelInfo::inner_dimension) fastest, then the others x before y
/// before z.
///
/// Why: consecutive groups then touch consecutive memory. Rodinia's
/// gaussian Fan2 runs along y in rows of 1024 of a 2048-wide matrix; taken
/// x fastest, each group's 4 KiB began a new stream 8 KiB from the last and
/// the hardware prefetchers never caught up (3-4x slower than walking the
/// rows in order, in plain C too).
fn group_id_of(g: usize, groups: [usize; 3], inner: usize) -> [usize; 3] {
    let mut id = [0; 3];
    let mut rest = g;
    for d in walk_order(inner) {
        id[d] = rest % groups[d];
        rest /= groups[d];
    }
    id
}

/// group_id_of's order of dimensions, fastest first.
fn walk_order(inner: usize) -> [usize; 3] {
    let inner = if inner < 3 { inner } else { 0 };
    let mut order = [inner, 0, 0];
    for (slot, d) in order[1..].iter_mut().zip((0..3).filter(|&d| d != inner)) {
        *slot = d;
    }
    order
}

/// The id of the group after `id` in group_id_of's order (`order` from
/// walk_order): counted up in place, without group_id_of's division per
/// dimension. Why: SHOC's Triad runs 32,768 groups of 30 ns each, where
/// the executor's cost per group shows.
fn next_group_id(id: &mut [usize; 3], groups: [usize; 3], order: [usize; 3]) {
    for d in order {
        id[d] += 1;
        if id[d] < groups[d] {
            return;
        }
        id[d] = 0;
    }
}

/// How a launch's groups are cut into pieces that run on several threads
/// at once (KernelInfo::splittable): each group into `count` ranges of
/// `step` local ids along dimension `dim` (the last may be shorter, or
/// empty in a smaller last group).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pieces {
    dim: usize,
    step: usize,
    count: usize,
}

/// Local ids along a work-group entry's innermost loop (the vectorized
/// one) per piece at least: a few vectors of the widest registers.
const PIECE_LANES: usize = 32;

/// A group whose last launch took less than this stays whole: a piece's
/// set-up and claim cost about a microsecond at worst.
const PIECE_WORTH: std::time::Duration = std::time::Duration::from_micros(20);

/// The pieces of a launch of `groups` groups whose enqueued local size is
/// `local`, on `threads` threads, for a kernel whose innermost work-item
/// loop runs along `inner` and whose groups took `pace` nanoseconds each
/// last time (0: not run yet); None: whole groups.
///
/// Only when the groups are too few to keep every thread busy and even out
/// uneven groups (four per thread), along the outermost loop that has more
/// than one local id (rows of a 2-D group, so the innermost loop keeps its
/// length), into at most as many pieces per group as make four per thread
/// overall.
fn pieces(
    local: [usize; 3],
    groups: usize,
    threads: usize,
    inner: usize,
    pace: u64,
) -> Option<Pieces> {
    let want = 4 * threads;
    if threads <= 1 || groups >= want || (pace != 0 && (pace as u128) < PIECE_WORTH.as_nanos()) {
        return None;
    }
    // The work-group entry's loops, outermost first (work_group_entries.cpp).
    let order = match inner {
        1 => [2, 0, 1],
        2 => [1, 0, 2],
        _ => [2, 1, 0],
    };
    let dim = order.into_iter().find(|&d| local[d] > 1)?;
    let lanes = if dim == order[2] { PIECE_LANES } else { 1 };
    let count = want.div_ceil(groups).min(local[dim].div_ceil(lanes));
    let step = local[dim].div_ceil(count).div_ceil(lanes) * lanes;
    let count = local[dim].div_ceil(step);
    (count > 1).then_some(Pieces { dim, step, count })
}

/// Runs every work-group of `range` on `pool`'s threads (the calling thread
/// included), with `side`'s device-side enqueue.
pub fn execute(
    pool: &Pool,
    launch: &Dispatch,
    range: &NdRange,
    side: &dyn DeviceEnqueue,
) -> Result<(), cl_int> {
    let info = launch.info();
    debug_assert_eq!(info.args.len(), launch.args.len());
    debug_assert!(launch
        .args
        .iter()
        .zip(&info.args)
        .all(|(v, a)| matches!(v, Arg::Local(_)) == (a.space == ArgSpace::Local)));
    // The program's code, once its back end made it (code.rs): a build
    // whose back end failed after clBuildProgram returned runs nothing.
    let code = (launch.executable.code()).map_err(|_| CL_INVALID_PROGRAM_EXECUTABLE)?;
    let entry = code.entry(launch.index);
    let group_entry = code.group_entry(launch.index);
    let barriers = info.uses_barriers;
    let block = ArgBlock::new(launch);
    let failed = std::sync::atomic::AtomicI32::new(CL_SUCCESS);
    let groups = range.groups;
    let printf = PrintfBuffer::default();
    let group_pace = &launch.executable.group_pace[launch.index];
    let split = match group_entry {
        Some(_) if info.splittable => pieces(
            range.local,
            range.group_count(),
            pool.threads,
            info.inner_dimension,
            group_pace.load(std::sync::atomic::Ordering::Relaxed),
        ),
        _ => None,
    };
    // Called once per participating thread: the per-thread set-up below is
    // paid once, however many ranges of groups the thread then claims.
    let body = |claims: &mut Claims<'_>| {
        let _printf = printf.enter();
        let _denormals = info.denormals_are_zero.then(DenormalsAreZero::enter);
        let group_args = GroupArgs::new(&block);
        let args = group_args.ptrs.as_ptr();
        // Values that live across barriers, for kernels run as regions.
        let items = range.local.iter().product::<usize>();
        let frame_bytes = match info.frame_size {
            0 => 0,
            per_item => per_item * items + crate::compiler::abi::FRAME_SKEW,
        };
        let mut frame = blocks(frame_bytes);
        // The collective functions' scratch when they run as regions (the
        // fiber executor makes its own): a slot per work-item, the group's
        // result, one per sub-group (builtins/lib/collective.cl).
        let slots = items + 1 + items.div_ceil(info.sub_group_size());
        let mut scratch = vec![0u64; slots * usize::from(info.uses_barriers)];
        let (local_arena_begin, local_arena_end) = group_args.arena_range();
        // The kernel's frames (when it runs on this thread's stack) lie
        // below this one.
        let stack_marker = 0u8;
        let stack_top = std::ptr::addr_of!(stack_marker) as *mut c_void;
        // One context per thread: each group sets its own fields, and
        // those the executors below change are set again.
        let mut ctx = WorkGroupContext {
            work_dim: range.work_dim,
            sub_group_size: info.sub_group_size() as u32,
            global_offset: range.offset,
            global_size: range.global,
            local_size: range.local,
            enqueued_local_size: range.local,
            num_groups: groups,
            group_id: [0; 3],
            local_id: [0; 3],
            barrier: barrier_unexpected,
            printf_fn: printf_entry,
            executor: std::ptr::null_mut(),
            frame: frame.as_mut_ptr() as *mut c_void,
            frame_end: frame.as_mut_ptr_range().end as *mut c_void,
            collective_scratch: scratch.as_mut_ptr(),
            enqueue_fn: enqueue_unavailable,
            device_op: device_op_unavailable,
            device_side: std::ptr::null_mut(),
            local_arena_begin,
            local_arena_end,
            stack_top,
            items_begin: [0; 3],
            items_end: range.local,
        };
        side.install(&mut ctx);
        let collective_scratch = ctx.collective_scratch;
        // Runs the group ctx.group_id names, or one piece of it: false once
        // a group failed.
        let run = |ctx: &mut WorkGroupContext, piece: Option<(Pieces, usize)>| -> bool {
            for d in 0..3 {
                let size = range.local[d].min(range.global[d] - ctx.group_id[d] * range.local[d]);
                ctx.local_size[d] = size;
                ctx.items_begin[d] = 0;
                ctx.items_end[d] = size;
                ctx.local_id[d] = 0;
            }
            ctx.barrier = barrier_unexpected;
            ctx.executor = std::ptr::null_mut();
            ctx.collective_scratch = collective_scratch;
            if let Some((p, piece)) = piece {
                ctx.items_begin[p.dim] = (piece * p.step).min(ctx.local_size[p.dim]);
                ctx.items_end[p.dim] = ((piece + 1) * p.step).min(ctx.local_size[p.dim]);
                if ctx.items_begin[p.dim] == ctx.items_end[p.dim] {
                    return true;
                }
            }
            // SAFETY: the kernel's entry, with the argument array laid out
            // for it (ArgBlock) and a context describing this group.
            let result = unsafe {
                if let Some(group_entry) = group_entry {
                    group_entry(args, ctx);
                    Ok(())
                } else if barriers {
                    run_group_fibers(entry, args, ctx)
                } else {
                    run_group_loop(entry, args, ctx);
                    Ok(())
                }
            };
            // A split kernel enqueues no children (the compiler marks no
            // kernel that may: may_run_in_pieces), so no group gate waits
            // for its pieces.
            if piece.is_none() {
                side.group_done(linear_group_id(ctx.group_id, groups));
            }
            match result {
                Ok(()) => true,
                Err(code) => {
                    failed.store(code, std::sync::atomic::Ordering::Relaxed);
                    false
                }
            }
        };
        let order = walk_order(info.inner_dimension);
        for claim in claims {
            match split {
                None => {
                    ctx.group_id = group_id_of(claim.start, groups, info.inner_dimension);
                    for _ in claim {
                        if !run(&mut ctx, None) {
                            return;
                        }
                        next_group_id(&mut ctx.group_id, groups, order);
                    }
                }
                Some(p) => {
                    for unit in claim {
                        ctx.group_id = group_id_of(unit / p.count, groups, info.inner_dimension);
                        if !run(&mut ctx, Some((p, unit % p.count))) {
                            return;
                        }
                    }
                }
            }
        }
    };
    let ran = match split {
        None => pool.parallel_for(range.group_count(), 0, group_pace, &body),
        Some(p) => {
            // The pace is kept per group: a piece's is a share of it.
            use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
            let count = p.count as u64;
            let piece_pace = AtomicU64::new(group_pace.load(Relaxed) / count);
            let ran = pool.parallel_for(range.group_count() * p.count, 0, &piece_pace, &body);
            group_pace.store(piece_pace.load(Relaxed).saturating_mul(count), Relaxed);
            ran
        }
    };
    printf.flush();
    ran.map_err(|_| CL_OUT_OF_RESOURCES)?;
    match failed.into_inner() {
        CL_SUCCESS => Ok(()),
        code => Err(code),
    }
}

#[cfg(test)]
mod tests;
