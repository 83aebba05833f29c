//! Kernels and NDRange launches, with hand-written work-item entries in
//! place of compiled ones.

use crate::cl::*;
use crate::compiler::abi::{WorkGroupContext, WorkItemEntry};
use crate::compiler::{ArgSpace, Executable, KernelArg, KernelInfo};
use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::event::Event;
use crate::core::kernel::{Kernel, Launch, NdRange};
use crate::core::memory::Mem;
use crate::core::object::{handle_of, publish};
use crate::core::program::Program;
use crate::core::queue::{Queue, Sync};
use crate::entry_points::shims::{
    clCreateKernel, clCreateKernelsInProgram, clEnqueueNDRangeKernel, clEnqueueTask,
    clGetKernelInfo, clGetKernelWorkGroupInfo, clReleaseKernel, clSetKernelArg,
};
use std::collections::{HashMap, HashSet};
use std::ffi::c_void;
use std::sync::{Arc, LazyLock, Mutex};

fn arg(space: ArgSpace, size: usize, name: &str) -> KernelArg {
    KernelArg {
        space,
        size,
        type_name: if space == ArgSpace::Private {
            "uint"
        } else {
            "uint*"
        }
        .to_string(),
        name: name.to_string(),
        access: CL_KERNEL_ARG_ACCESS_NONE,
        type_qualifier: CL_KERNEL_ARG_TYPE_NONE as cl_kernel_arg_type_qualifier,
    }
}

fn global(name: &str) -> KernelArg {
    arg(ArgSpace::Global, 8, name)
}

fn kernel_info(name: &str, args: Vec<KernelArg>, barriers: bool) -> KernelInfo {
    KernelInfo {
        name: name.to_string(),
        args,
        reqd_work_group_size: None,
        work_group_size_hint: None,
        uses_barriers: barriers,
        group_entry: false,
        attributes: String::new(),
        local_variables_size: 0,
        frame_size: 0,
        uniform_work_groups: false,
        arg_info: true,
        denormals_are_zero: false,
        inner_dimension: 0,
        may_wait_for_others: false,
        splittable: false,
        required_sub_group_size: 0,
    }
}

/// The global id of the running work-item, as get_global_id computes it.
fn gid(ctx: &WorkGroupContext, d: usize) -> usize {
    ctx.global_offset[d] + ctx.group_id[d] * ctx.enqueued_local_size[d] + ctx.local_id[d]
}

/// The linear index of the work-item in the (offset-free) global range.
fn linear(ctx: &WorkGroupContext) -> usize {
    let g = |d| gid(ctx, d) - ctx.global_offset[d];
    g(0) + ctx.global_size[0] * (g(1) + ctx.global_size[1] * g(2))
}

/// The value of argument `i`, of type T.
///
/// # Safety
/// Argument i holds a T.
unsafe fn arg_value<T: Copy>(args: *const *mut c_void, i: usize) -> T {
    // SAFETY: the caller's promise: argument i holds a T.
    unsafe { *(*args.add(i) as *const T) }
}

/// c[i] = a[i] + b[i] for i < n.
unsafe extern "C" fn vadd(args: *const *mut c_void, ctx: *mut WorkGroupContext) {
    // SAFETY: the executor passes this test kernel's own arguments and a live context.
    unsafe {
        let ctx = &*ctx;
        let (a, b, c): (*const u32, *const u32, *mut u32) =
            (arg_value(args, 0), arg_value(args, 1), arg_value(args, 2));
        let n: u32 = arg_value(args, 3);
        let i = gid(ctx, 0);
        if i < n as usize {
            *c.add(i) = *a.add(i) + *b.add(i);
        }
    }
}

/// out[linear] = the global id (encoded); hits[linear] += 1; checks that the
/// local id lies in the group.
unsafe extern "C" fn ids(args: *const *mut c_void, ctx: *mut WorkGroupContext) {
    // SAFETY: the executor passes this test kernel's own arguments and a live context.
    unsafe {
        let ctx = &*ctx;
        let out: *mut u64 = arg_value(args, 0);
        let hits: *mut u32 = arg_value(args, 1);
        assert!((0..3).all(|d| ctx.local_id[d] < ctx.local_size[d]));
        let i = linear(ctx);
        *out.add(i) = (gid(ctx, 0) | gid(ctx, 1) << 20 | gid(ctx, 2) << 40) as u64;
        *hits.add(i) += 1;
    }
}

/// Per group: the sum of `input` over the group, by a tree reduction in
/// __local memory (power-of-two groups).
unsafe extern "C" fn reduce(args: *const *mut c_void, ctx: *mut WorkGroupContext) {
    // SAFETY: the executor passes this test kernel's own arguments and a live context.
    unsafe {
        let input: *const u32 = arg_value(args, 0);
        let out: *mut u32 = arg_value(args, 1);
        let scratch: *mut u32 = arg_value(args, 2);
        let lid = (*ctx).local_id[0];
        let ls = (*ctx).local_size[0];
        *scratch.add(lid) = *input.add(gid(&*ctx, 0));
        ((*ctx).barrier)(ctx, 1);
        let mut s = ls / 2;
        while s > 0 {
            if lid < s {
                *scratch.add(lid) += *scratch.add(lid + s);
            }
            ((*ctx).barrier)(ctx, 1);
            s /= 2;
        }
        // The context is shared: read this work-item's ids again after a
        // barrier.
        if (*ctx).local_id[0] == 0 {
            *out.add((*ctx).group_id[0]) = *scratch;
        }
    }
}

/// Each work-item publishes its global linear index in __local memory,
/// then (after a barrier) reads its neighbour's within the group.
unsafe extern "C" fn rotate(args: *const *mut c_void, ctx: *mut WorkGroupContext) {
    // SAFETY: the executor passes this test kernel's own arguments and a live context.
    unsafe {
        let out: *mut u64 = arg_value(args, 0);
        let scratch: *mut u64 = arg_value(args, 1);
        let flat = |c: &WorkGroupContext| {
            c.local_id[0] + c.local_size[0] * (c.local_id[1] + c.local_size[1] * c.local_id[2])
        };
        let me = flat(&*ctx);
        *scratch.add(me) = linear(&*ctx) as u64;
        ((*ctx).barrier)(ctx, 1);
        let c = &*ctx;
        let n = c.local_size.iter().product::<usize>();
        *out.add(linear(c)) = *scratch.add((flat(c) + 1) % n);
    }
}

/// out[i] = value.
unsafe extern "C" fn fill(args: *const *mut c_void, ctx: *mut WorkGroupContext) {
    // SAFETY: the executor passes this test kernel's own arguments and a live context.
    unsafe {
        let out: *mut u32 = arg_value(args, 0);
        let value: u32 = arg_value(args, 1);
        *out.add(gid(&*ctx, 0)) = value;
    }
}

static THREADS_SEEN: LazyLock<Mutex<HashMap<u32, HashSet<std::thread::ThreadId>>>> =
    LazyLock::new(Default::default);

/// Records which thread ran it (under the tag in argument 0), slowly.
unsafe extern "C" fn which_thread(args: *const *mut c_void, _ctx: *mut WorkGroupContext) {
    // SAFETY: argument 0 is this kernel's u32 tag.
    let tag: u32 = unsafe { arg_value(args, 0) };
    std::thread::sleep(std::time::Duration::from_micros(300));
    THREADS_SEEN
        .lock()
        .unwrap()
        .entry(tag)
        .or_default()
        .insert(std::thread::current().id());
}

fn executable() -> Arc<Executable> {
    let private = |n| arg(ArgSpace::Private, 4, n);
    let local = |n| arg(ArgSpace::Local, 8, n);
    let kernels: Vec<(KernelInfo, WorkItemEntry)> = vec![
        (
            kernel_info(
                "vadd",
                vec![global("a"), global("b"), global("c"), private("n")],
                false,
            ),
            vadd,
        ),
        (
            kernel_info("ids", vec![global("out"), global("hits")], false),
            ids,
        ),
        (
            kernel_info(
                "reduce",
                vec![global("in"), global("out"), local("scratch")],
                true,
            ),
            reduce,
        ),
        (
            kernel_info("rotate", vec![global("out"), local("scratch")], true),
            rotate,
        ),
        (
            kernel_info("fill", vec![global("out"), private("value")], false),
            fill,
        ),
        (
            kernel_info("which_thread", vec![private("tag")], false),
            which_thread,
        ),
        (
            KernelInfo {
                may_wait_for_others: true,
                splittable: false,
                required_sub_group_size: 0,
                ..kernel_info("fill_waiting", vec![global("out"), private("value")], false)
            },
            fill,
        ),
    ];
    let (infos, entries) = kernels.into_iter().unzip();
    Arc::new(Executable::from_parts(infos, Vec::new(), entries))
}

struct Setup {
    queue: Arc<Queue>,
    program: Arc<Program>,
}

fn setup_on(device: Arc<Device>) -> Setup {
    let ctx = Context::new(vec![device.clone()], Vec::new(), None);
    let queue = Queue::new(ctx.clone(), device, 0, Vec::new());
    let program = Program::with_source(ctx, String::new());
    program.set_executable(executable());
    Setup { queue, program }
}

fn setup() -> Setup {
    setup_on(Device::root().clone())
}

/// A buffer of `n` T, published (so that it has a handle), and the handle.
fn buffer<T: Copy>(s: &Setup, data: &[T]) -> (Arc<Mem>, cl_mem) {
    let size = std::mem::size_of_val(data).max(1);
    // SAFETY: COPY_HOST_PTR from a live slice of `size` bytes.
    let mem = unsafe {
        Mem::new_buffer(
            s.queue.context.clone(),
            CL_MEM_READ_WRITE as cl_mem_flags | CL_MEM_COPY_HOST_PTR as cl_mem_flags,
            size,
            data.as_ptr() as *mut u8,
            Vec::new(),
        )
    }
    .unwrap();
    let handle = publish(mem.clone());
    (mem, handle)
}

fn read<T: Copy>(mem: &Mem, n: usize) -> Vec<T> {
    // SAFETY: the buffer holds n T, and no command runs on it now.
    unsafe { std::slice::from_raw_parts(mem.host_address() as *const T, n).to_vec() }
}

fn set_mem(k: &Kernel, i: u32, m: cl_mem) {
    k.set_arg(i, 8, Some(&(m as usize).to_ne_bytes())).unwrap();
}

fn set_u32(k: &Kernel, i: u32, v: u32) {
    k.set_arg(i, 4, Some(&v.to_ne_bytes())).unwrap();
}

/// Runs `k` over a range that need not be uniform, through the queue.
fn run(s: &Setup, k: &Kernel, dims: u32, off: &[usize], g: &[usize], l: Option<&[usize]>) {
    let threads = s.queue.device.pool().threads;
    let range = NdRange::new(k.info(), dims, Some(off), Some(g), l, false, threads)
        .unwrap()
        .unwrap();
    let launch = Launch::new(k, &s.queue.device).unwrap();
    let pool = s.queue.device.pool().clone();
    let ev = s.queue.enqueue(
        CL_COMMAND_NDRANGE_KERNEL,
        &[],
        Sync::Command,
        Some(Box::new(move || {
            crate::core::device_enqueue::execute(&pool, &launch.dispatch, &range, None)
        })),
    );
    assert_eq!(ev.wait(), CL_COMPLETE);
}

#[test]
fn vector_add_through_the_api() {
    let s = setup();
    let n = 10_000usize;
    let a: Vec<u32> = (0..n as u32).collect();
    let b: Vec<u32> = (0..n as u32).map(|x| 3 * x + 1).collect();
    let (_, ha) = buffer(&s, &a);
    let (_, hb) = buffer(&s, &b);
    let (c, hc) = buffer(&s, &vec![0u32; n]);
    let prog = publish(s.program.clone());
    let q = publish(s.queue.clone());
    let mut err = 0;
    let k = clCreateKernel(prog, c"vadd".as_ptr(), &mut err);
    assert_eq!(err, CL_SUCCESS);
    for (i, h) in [ha, hb, hc].iter().enumerate() {
        let r = clSetKernelArg(k, i as u32, 8, h as *const cl_mem as *const c_void);
        assert_eq!(r, CL_SUCCESS);
    }
    // Not every argument is set yet.
    let global = [n];
    let launch = |local: *const usize| {
        clEnqueueNDRangeKernel(
            q,
            k,
            1,
            std::ptr::null(),
            global.as_ptr(),
            local,
            0,
            std::ptr::null(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(launch(std::ptr::null()), CL_INVALID_KERNEL_ARGS);
    let nn = n as u32;
    assert_eq!(
        clSetKernelArg(k, 3, 4, &nn as *const u32 as *const c_void),
        CL_SUCCESS
    );
    assert_eq!(launch(std::ptr::null()), CL_SUCCESS);
    s.queue.finish();
    let expect: Vec<u32> = (0..n).map(|i| a[i] + b[i]).collect();
    assert_eq!(read::<u32>(&c, n), expect);
    // An explicit local size that divides the range, and one that does not
    // (the kernel allows non-uniform groups: a smaller last one).
    assert_eq!(launch([16usize].as_ptr()), CL_SUCCESS);
    assert_eq!(launch([17usize].as_ptr()), CL_SUCCESS);
    assert_eq!(launch([2000usize].as_ptr()), CL_INVALID_WORK_ITEM_SIZE);
    s.queue.finish();
    assert_eq!(read::<u32>(&c, n), expect);
    // Info queries.
    let mut name = [0u8; 16];
    let mut size = 0;
    let r = clGetKernelInfo(
        k,
        CL_KERNEL_FUNCTION_NAME,
        16,
        name.as_mut_ptr() as *mut c_void,
        &mut size,
    );
    assert_eq!((r, &name[..size]), (CL_SUCCESS, &b"vadd\0"[..]));
    let mut wg = 0usize;
    let r = clGetKernelWorkGroupInfo(
        k,
        std::ptr::null_mut(),
        CL_KERNEL_WORK_GROUP_SIZE,
        8,
        &mut wg as *mut usize as *mut c_void,
        std::ptr::null_mut(),
    );
    assert_eq!((r, wg), (CL_SUCCESS, 1024));
    let r = clGetKernelWorkGroupInfo(
        k,
        std::ptr::null_mut(),
        CL_KERNEL_GLOBAL_WORK_SIZE,
        24,
        [0usize; 3].as_mut_ptr() as *mut c_void,
        std::ptr::null_mut(),
    );
    assert_eq!(r, CL_INVALID_VALUE);
    assert_eq!(clReleaseKernel(k), CL_SUCCESS);
    assert_eq!(clReleaseKernel(k), CL_INVALID_KERNEL);
}

#[test]
fn kernel_creation_errors_and_all_kernels() {
    let s = setup();
    let prog = publish(s.program.clone());
    let mut err = 0;
    assert!(clCreateKernel(prog, c"nope".as_ptr(), &mut err).is_null());
    assert_eq!(err, CL_INVALID_KERNEL_NAME);
    assert!(clCreateKernel(prog, std::ptr::null(), &mut err).is_null());
    assert_eq!(err, CL_INVALID_VALUE);
    let unbuilt = publish(Program::with_source(s.queue.context.clone(), String::new()));
    assert!(clCreateKernel(unbuilt, c"vadd".as_ptr(), &mut err).is_null());
    assert_eq!(err, CL_INVALID_PROGRAM_EXECUTABLE);
    let mut n = 0;
    assert_eq!(
        clCreateKernelsInProgram(prog, 0, std::ptr::null_mut(), &mut n),
        CL_SUCCESS
    );
    assert_eq!(n, 7);
    let mut ks = [std::ptr::null_mut(); 7];
    assert_eq!(
        clCreateKernelsInProgram(prog, 2, ks.as_mut_ptr(), &mut n),
        CL_INVALID_VALUE
    );
    assert_eq!(
        clCreateKernelsInProgram(prog, 7, ks.as_mut_ptr(), &mut n),
        CL_SUCCESS
    );
    assert!(ks.iter().all(|k| Kernel::resolve(*k).is_ok()));
    // A task: one work-item.
    let (out, h) = buffer(&s, &[0u32; 4]);
    let fill = ks[4];
    let seven = 7u32;
    assert_eq!(
        clSetKernelArg(fill, 0, 8, &h as *const cl_mem as *const c_void),
        CL_SUCCESS
    );
    assert_eq!(
        clSetKernelArg(fill, 1, 4, &seven as *const u32 as *const c_void),
        CL_SUCCESS
    );
    let q = publish(s.queue.clone());
    assert_eq!(
        clEnqueueTask(q, fill, 0, std::ptr::null(), std::ptr::null_mut()),
        CL_SUCCESS
    );
    s.queue.finish();
    assert_eq!(read::<u32>(&out, 4), [7, 0, 0, 0]);
    for k in ks {
        assert_eq!(clReleaseKernel(k), CL_SUCCESS);
    }
}

#[test]
fn every_work_item_runs_once_with_its_ids_in_1_2_and_3_dims() {
    let s = setup();
    let k = Kernel::new(&s.program, "ids").unwrap();
    type Case = (
        u32,
        &'static [usize],
        &'static [usize],
        Option<&'static [usize]>,
    );
    let cases: [Case; 8] = [
        (1, &[0], &[1000], None),
        (1, &[5], &[1000], Some(&[64])), // non-uniform last group
        (1, &[0], &[997], None),         // a prime: groups chosen to cover it
        (2, &[3, 7], &[33, 17], Some(&[8, 4])),
        (2, &[0, 0], &[64, 64], None),
        (3, &[1, 2, 3], &[9, 10, 11], Some(&[4, 3, 2])),
        (3, &[0, 0, 0], &[16, 16, 16], None),
        (1, &[0], &[1], None),
    ];
    for (dims, off, g, l) in cases {
        let n: usize = g.iter().product();
        let (out, ho) = buffer(&s, &vec![u64::MAX; n]);
        let (hits, hh) = buffer(&s, &vec![0u32; n]);
        set_mem(&k, 0, ho);
        set_mem(&k, 1, hh);
        run(&s, &k, dims, off, g, l);
        let hits = read::<u32>(&hits, n);
        assert!(
            hits.iter().all(|&h| h == 1),
            "{dims}D {g:?}/{l:?}: not once each"
        );
        let out = read::<u64>(&out, n);
        let mut i = 0;
        let at = |d: usize| g.get(d).copied().unwrap_or(1);
        let o = |d: usize| off.get(d).copied().unwrap_or(0) as u64;
        for z in 0..at(2) as u64 {
            for y in 0..at(1) as u64 {
                for x in 0..at(0) as u64 {
                    let want = (x + o(0)) | (y + o(1)) << 20 | (z + o(2)) << 40;
                    assert_eq!(out[i], want, "{dims}D {g:?}/{l:?} at {i}");
                    i += 1;
                }
            }
        }
    }
}

#[test]
fn local_memory_reduction_with_barriers() {
    let s = setup();
    let k = Kernel::new(&s.program, "reduce").unwrap();
    let input: Vec<u32> = (0..1 << 16).map(|i| (i * 7 + 3) % 1000).collect();
    let (_, hi) = buffer(&s, &input);
    for local in [1usize, 2, 64, 256, 1024] {
        let groups = input.len() / local;
        let (out, ho) = buffer(&s, &vec![0u32; groups]);
        set_mem(&k, 0, hi);
        set_mem(&k, 1, ho);
        k.set_arg(2, local * 4, None).unwrap();
        run(&s, &k, 1, &[0], &[input.len()], Some(&[local]));
        let want: Vec<u32> = input.chunks(local).map(|c| c.iter().sum()).collect();
        assert_eq!(read::<u32>(&out, groups), want, "groups of {local}");
    }
}

#[test]
fn barriers_hold_in_every_group_including_non_uniform_ones() {
    let s = setup();
    let k = Kernel::new(&s.program, "rotate").unwrap();
    type Case = (u32, &'static [usize], &'static [usize]);
    let cases: [Case; 3] = [
        (1, &[100], &[32]),
        (2, &[30, 21], &[8, 8]),
        (3, &[7, 6, 5], &[4, 2, 3]),
    ];
    for (dims, g, l) in cases {
        let n: usize = g.iter().product();
        let (out, ho) = buffer(&s, &vec![u64::MAX; n]);
        set_mem(&k, 0, ho);
        k.set_arg(1, 8 * l.iter().product::<usize>(), None).unwrap();
        run(&s, &k, dims, &[0, 0, 0][..dims as usize], g, Some(l));
        let out = read::<u64>(&out, n);
        // Recompute on the host: each group's members in local-id order.
        let at = |v: &[usize], d: usize| v.get(d).copied().unwrap_or(1);
        let gs = [0, 1, 2].map(|d| at(g, d));
        let ls = [0, 1, 2].map(|d| at(l, d));
        let mut members: HashMap<[usize; 3], Vec<(usize, usize)>> = HashMap::new();
        for z in 0..gs[2] {
            for y in 0..gs[1] {
                for x in 0..gs[0] {
                    let group = [x / ls[0], y / ls[1], z / ls[2]];
                    let lsz = [0, 1, 2].map(|d| ls[d].min(gs[d] - group[d] * ls[d]));
                    let flat = x % ls[0] + lsz[0] * (y % ls[1] + lsz[1] * (z % ls[2]));
                    members
                        .entry(group)
                        .or_default()
                        .push((flat, x + gs[0] * (y + gs[1] * z)));
                }
            }
        }
        for m in members.values_mut() {
            m.sort();
            for j in 0..m.len() {
                let (_, me) = m[j];
                let (_, next) = m[(j + 1) % m.len()];
                assert_eq!(out[me], next as u64, "{dims}D {g:?}/{l:?}");
            }
        }
    }
}

#[test]
fn work_groups_spread_over_the_devices_threads() {
    // A device of its own, so other tests' commands do not keep its
    // workers busy.
    let dev = Device::new_sub_device(Device::root(), Device::unplaced_part(2), Vec::new());
    let s = setup_on(dev);
    let k = Kernel::new(&s.program, "which_thread").unwrap();
    set_u32(&k, 0, 42);
    run(&s, &k, 1, &[0], &[400], Some(&[1]));
    let seen = THREADS_SEEN.lock().unwrap()[&42].len();
    assert!(seen >= 2, "work-groups ran on {seen} thread(s)");
}

#[test]
fn a_launch_keeps_the_arguments_it_was_enqueued_with() {
    let s = setup();
    let k = Kernel::new(&s.program, "fill").unwrap();
    let (first, h1) = buffer(&s, &[0u32; 64]);
    let (second, h2) = buffer(&s, &[0u32; 64]);
    let gate = Event::new_user(s.queue.context.clone());
    set_mem(&k, 0, h1);
    set_u32(&k, 1, 1);
    let range = NdRange::new(k.info(), 1, None, Some(&[64]), None, true, 2)
        .unwrap()
        .unwrap();
    let launch = Launch::new(&k, &s.queue.device).unwrap();
    let pool = s.queue.device.pool().clone();
    let ev = s.queue.enqueue(
        CL_COMMAND_NDRANGE_KERNEL,
        std::slice::from_ref(&gate),
        Sync::Command,
        Some(Box::new(move || {
            crate::core::device_enqueue::execute(&pool, &launch.dispatch, &range, None)
        })),
    );
    // Changed before the command runs: not seen by it.
    set_mem(&k, 0, h2);
    set_u32(&k, 1, 2);
    // The application lets go of the first buffer: the command holds it.
    drop(first);
    crate::core::object::release::<Mem>(h1).unwrap();
    assert!(gate.claim_user_status());
    gate.end_user_event(CL_COMPLETE);
    assert_eq!(ev.wait(), CL_COMPLETE);
    assert_eq!(read::<u32>(&second, 64), [0; 64]);
    let clone = k.clone_kernel();
    assert!(clone.snapshot().is_ok());
    run(&s, &clone, 1, &[0], &[64], None);
    assert_eq!(read::<u32>(&second, 64), [2; 64]);
}

#[test]
fn set_arg_errors() {
    let s = setup();
    let k = Kernel::new(&s.program, "reduce").unwrap();
    let (_, h) = buffer(&s, &[0u32; 4]);
    let hb = (h as usize).to_ne_bytes();
    assert_eq!(k.set_arg(3, 8, Some(&hb)), Err(CL_INVALID_ARG_INDEX));
    assert_eq!(k.set_arg(0, 4, Some(&hb[..4])), Err(CL_INVALID_ARG_SIZE));
    assert_eq!(
        k.set_arg(0, 8, Some(&0x1234usize.to_ne_bytes())),
        Err(CL_INVALID_MEM_OBJECT)
    );
    // A buffer of another context.
    let other = setup();
    let (_, foreign) = buffer(&other, &[0u32; 4]);
    assert_eq!(
        k.set_arg(0, 8, Some(&(foreign as usize).to_ne_bytes())),
        Err(CL_INVALID_MEM_OBJECT)
    );
    // NULL buffers: a NULL arg_value or a pointer to NULL.
    assert_eq!(k.set_arg(0, 8, None), Ok(()));
    assert_eq!(k.set_arg(1, 8, Some(&0usize.to_ne_bytes())), Ok(()));
    // __local: a size and no value.
    assert_eq!(k.set_arg(2, 0, None), Err(CL_INVALID_ARG_SIZE));
    assert_eq!(k.set_arg(2, 16, Some(&[0; 16])), Err(CL_INVALID_ARG_VALUE));
    assert_eq!(k.local_mem_used(), 0);
    assert_eq!(k.set_arg(2, 16, None), Ok(()));
    assert_eq!(k.local_mem_used(), 16);
    assert!(k.snapshot().is_ok());
    // Values: exactly their size, and not NULL.
    let f = Kernel::new(&s.program, "fill").unwrap();
    assert_eq!(f.set_arg(1, 8, Some(&[0; 8])), Err(CL_INVALID_ARG_SIZE));
    assert_eq!(f.set_arg(1, 4, None), Err(CL_INVALID_ARG_VALUE));
    assert_eq!(f.snapshot().err(), Some(CL_INVALID_KERNEL_ARGS));
    assert_eq!(
        f.set_arg_svm(1, std::ptr::null()),
        Err(CL_INVALID_ARG_VALUE)
    );
    assert_eq!(f.set_arg_svm(0, 0x1000 as *const c_void), Ok(()));
    // Too much __local memory for the device.
    k.set_arg(2, 1 << 40, None).unwrap();
    assert_eq!(
        Launch::new(&k, &s.queue.device).err(),
        Some(CL_OUT_OF_RESOURCES)
    );
    let _ = handle_of(&k);
}

#[test]
fn ndrange_validation() {
    let mut info = kernel_info("k", Vec::new(), false);
    let nd = |info: &KernelInfo,
              dims,
              off: Option<&[usize]>,
              g: Option<&[usize]>,
              l: Option<&[usize]>,
              uniform| { NdRange::new(info, dims, off, g, l, uniform, 2) };
    assert_eq!(
        nd(&info, 0, None, Some(&[1]), None, true),
        Err(CL_INVALID_WORK_DIMENSION)
    );
    assert_eq!(
        nd(&info, 4, None, Some(&[1; 4]), None, true),
        Err(CL_INVALID_WORK_DIMENSION)
    );
    // An empty range trivially succeeds.
    assert_eq!(nd(&info, 1, None, None, None, true), Ok(None));
    assert_eq!(nd(&info, 2, None, Some(&[4, 0]), None, true), Ok(None));
    assert_eq!(
        nd(&info, 1, Some(&[usize::MAX]), Some(&[2]), None, true),
        Err(CL_INVALID_GLOBAL_OFFSET)
    );
    assert_eq!(
        nd(&info, 1, None, Some(&[2048]), Some(&[2048]), true),
        Err(CL_INVALID_WORK_ITEM_SIZE)
    );
    assert_eq!(
        nd(&info, 2, None, Some(&[64, 64]), Some(&[64, 32]), true),
        Err(CL_INVALID_WORK_GROUP_SIZE)
    );
    assert_eq!(
        nd(&info, 1, None, Some(&[64]), Some(&[0]), true),
        Err(CL_INVALID_WORK_GROUP_SIZE)
    );
    assert_eq!(
        nd(&info, 1, None, Some(&[100]), Some(&[8]), true),
        Err(CL_INVALID_WORK_GROUP_SIZE)
    );
    let r = nd(&info, 1, None, Some(&[100]), Some(&[8]), false)
        .unwrap()
        .unwrap();
    assert_eq!((r.groups, r.local), ([13, 1, 1], [8, 1, 1]));
    // reqd_work_group_size: a local size must match it; none takes it.
    info.reqd_work_group_size = Some([4, 2, 1]);
    assert_eq!(
        nd(&info, 2, None, Some(&[8, 8]), Some(&[2, 4]), true),
        Err(CL_INVALID_WORK_GROUP_SIZE)
    );
    assert_eq!(
        nd(&info, 2, None, Some(&[8, 8]), None, true)
            .unwrap()
            .unwrap()
            .local,
        [4, 2, 1]
    );
    info.reqd_work_group_size = None;
    // A chosen local size divides the range when groups must be uniform,
    // stays within the limits, and leaves several groups per thread.
    for g in [
        [1usize, 1, 1],
        [1000, 1, 1],
        [997, 1, 1],
        [1 << 20, 1, 1],
        [640, 480, 1],
        [7, 64, 33],
    ] {
        for uniform in [true, false] {
            let r = nd(&info, 3, None, Some(&g), None, uniform)
                .unwrap()
                .unwrap();
            assert!(r.local.iter().product::<usize>() <= 1024, "{g:?}");
            if uniform {
                assert!(
                    (0..3).all(|d| g[d] % r.local[d] == 0),
                    "{g:?}: {:?}",
                    r.local
                );
            }
            let total: usize = g.iter().product();
            assert!(
                r.group_count() >= (total / 1024).min(8),
                "{g:?}: {:?}",
                r.local
            );
        }
    }
}

#[test]
fn a_launch_is_short_once_its_kernel_ran_fast_unless_it_shares_host_memory() {
    use std::sync::atomic::Ordering::Relaxed;
    let s = setup();
    let k = Kernel::new(&s.program, "fill").unwrap();
    let (_, h) = buffer(&s, &[0u32; 64]);
    set_mem(&k, 0, h);
    set_u32(&k, 1, 1);
    let range = |g: usize| {
        NdRange::new(k.info(), 1, None, Some(&[g]), Some(&[16]), true, 2)
            .unwrap()
            .unwrap()
    };
    let launch = Launch::new(&k, &s.queue.device).unwrap();
    assert!(!launch.is_short(Some(&range(64))), "no pace yet");
    assert!(launch.is_short(None), "an empty range is");
    // A run of the launch records its pace: 4 groups.
    run(&s, &k, 1, &[0], &[64], Some(&[16]));
    assert!(launch.dispatch.executable.group_pace[launch.dispatch.index].load(Relaxed) > 0);
    // 100 ns a group: 4 groups are short, 2^16 are not.
    launch.dispatch.executable.group_pace[launch.dispatch.index].store(100, Relaxed);
    assert!(launch.is_short(Some(&range(64))));
    assert!(!launch.is_short(Some(&range(1 << 20))));
    // Memory a host thread may touch meanwhile keeps it off the host's
    // thread: the application's own (CL_MEM_USE_HOST_PTR), fine-grain SVM.
    let host: &'static mut [u32] = Box::leak(vec![0u32; 64].into_boxed_slice());
    // SAFETY: USE_HOST_PTR of a leaked (never freed) array of 256 bytes.
    let own = unsafe {
        Mem::new_buffer(
            s.queue.context.clone(),
            CL_MEM_READ_WRITE as cl_mem_flags | CL_MEM_USE_HOST_PTR as cl_mem_flags,
            256,
            host.as_mut_ptr() as *mut u8,
            Vec::new(),
        )
    }
    .unwrap();
    set_mem(&k, 0, publish(own));
    let shared = Launch::new(&k, &s.queue.device).unwrap();
    assert!(!shared.is_short(Some(&range(64))));
    set_mem(&k, 0, h);
    k.set_fine_grain_system(true);
    let svm = Launch::new(&k, &s.queue.device).unwrap();
    assert!(!svm.is_short(Some(&range(64))));
    k.set_fine_grain_system(false);
    assert!(Launch::new(&k, &s.queue.device)
        .unwrap()
        .is_short(Some(&range(64))));
    // A kernel the compiler says may wait for another command (a pipe's
    // consumer, say) never is.
    let waiting = Kernel::new(&s.program, "fill_waiting").unwrap();
    set_mem(&waiting, 0, h);
    set_u32(&waiting, 1, 1);
    let launch = Launch::new(&waiting, &s.queue.device).unwrap();
    launch.dispatch.executable.group_pace[launch.dispatch.index].store(100, Relaxed);
    assert!(!launch.is_short(Some(&range(64))));
}
