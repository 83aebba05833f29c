//! Compiler tests: real builds with clang-19, entries called directly.

use super::abi::WorkGroupContext;
use super::driver::{build_cached, compile_with, BuildError, Input};
use super::*;
use std::ffi::{c_char, c_void};

/// A kernel's argument array: a pointer to each value, as the work-group
/// entry reads them.
macro_rules! kernel_args {
    ($($value:expr),* $(,)?) => {
        [$(&$value as *const _ as *mut c_void),*]
    };
}

/// Builds with a real work-item entry for every kernel: the tests run
/// them, and compare work-group entries with them.
fn compile(source: &str, options: &str) -> Result<Executable, BuildError> {
    compile_with(source, options, driver::WorkItemEntries::All)
}

const VADD: &str = r#"
typedef struct { float scale; int pad; long off; } params;
__kernel void vadd(__global const float *a, __global const float *b, __global float *c, params p, uint n) {
    size_t i = get_global_id(0);
    if (i < n) c[i] = (a[i] + b[i]) * p.scale + (float)p.off + sqrt(4.0f);
}
__kernel __attribute__((reqd_work_group_size(4, 1, 1)))
void sum(__global int *out, __local int *scratch) {
    __local int total[1];
    size_t l = get_local_id(0);
    scratch[l] = (int)get_global_id(0);
    if (l == 0) total[0] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&total[0], scratch[l]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) out[get_group_id(0)] = total[0];
}
"#;

unsafe extern "C" fn no_barrier(_: *mut WorkGroupContext, _: u32) {}
unsafe extern "C" fn no_printf(_: *mut WorkGroupContext, _: *const c_char, _: *mut c_void) -> i32 {
    0
}
/// CLK_ENQUEUE_FAILURE: these tests' kernels do not enqueue.
unsafe extern "C" fn no_enqueue(_: *mut WorkGroupContext, _: *const abi::EnqueueRequest) -> i32 {
    -101
}
unsafe extern "C" fn no_device_op(
    _: *mut WorkGroupContext,
    _: u32,
    _: *mut c_void,
    _: isize,
    _: *mut c_void,
) -> isize {
    0
}

/// A block of floats at a 128-byte boundary.
#[derive(Clone, Copy)]
#[repr(C, align(128))]
struct FloatBlock([f32; 32]);

/// Floats at a 128-byte boundary, as the runtime places buffers
/// (CL_DEVICE_MEM_BASE_ADDR_ALIGN): a kernel loads a float8 or float16 with
/// an aligned load, which faults on memory the allocator aligned less.
struct AlignedFloats {
    blocks: Vec<FloatBlock>,
    len: usize,
}

impl AlignedFloats {
    fn new(values: &[f32]) -> AlignedFloats {
        let blocks = vec![FloatBlock([0.0; 32]); values.len().div_ceil(32)];
        let mut floats = AlignedFloats {
            blocks,
            len: values.len(),
        };
        floats.copy_from_slice(values);
        floats
    }
}

impl std::ops::Deref for AlignedFloats {
    type Target = [f32];
    fn deref(&self) -> &[f32] {
        // SAFETY: the blocks are 32 floats each with no padding (128
        // bytes), and len is at most 32 per block.
        unsafe { std::slice::from_raw_parts(self.blocks.as_ptr() as *const f32, self.len) }
    }
}

impl std::ops::DerefMut for AlignedFloats {
    fn deref_mut(&mut self) -> &mut [f32] {
        // SAFETY: as in deref, and the borrow is exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.blocks.as_mut_ptr() as *mut f32, self.len) }
    }
}

fn ctx(global: usize, local: usize, group: usize) -> WorkGroupContext {
    WorkGroupContext {
        work_dim: 1,
        sub_group_size: abi::SUB_GROUP_SIZE as u32,
        global_offset: [0; 3],
        global_size: [global, 1, 1],
        local_size: [local, 1, 1],
        enqueued_local_size: [local, 1, 1],
        num_groups: [global.div_ceil(local), 1, 1],
        group_id: [group, 0, 0],
        local_id: [0; 3],
        barrier: no_barrier,
        printf_fn: no_printf,
        executor: std::ptr::null_mut(),
        frame: std::ptr::null_mut(),
        frame_end: std::ptr::null_mut(),
        collective_scratch: std::ptr::null_mut(),
        enqueue_fn: no_enqueue,
        device_op: no_device_op,
        device_side: std::ptr::null_mut(),
        local_arena_begin: std::ptr::null_mut(),
        local_arena_end: std::ptr::null_mut(),
        stack_top: std::ptr::null_mut(),
        items_begin: [0; 3],
        items_end: [local, 1, 1],
    }
}

#[test]
fn vector_add_metadata_and_run() {
    let exe = compile(VADD, "-cl-kernel-arg-info").unwrap_or_else(|e| panic!("{}", e.log()));
    assert_eq!(exe.kernels.len(), 2);
    let k = &exe.kernels[exe.kernel_index("vadd").unwrap()];
    assert!(!k.uses_barriers);
    let spaces: Vec<_> = k.args.iter().map(|a| a.space).collect();
    use ArgSpace::*;
    assert_eq!(spaces, [Global, Global, Global, Private, Private]);
    let sizes: Vec<_> = k.args.iter().map(|a| a.size).collect();
    assert_eq!(sizes, [8, 8, 8, 16, 4]);
    assert_eq!(k.args[0].type_name, "float*");
    assert_eq!(k.args[3].type_name, "params");
    assert_eq!(k.args[4].name, "n");
    assert!(k.arg_info && !k.denormals_are_zero);
    assert_eq!(
        k.args[0].type_qualifier,
        1, // CL_KERNEL_ARG_TYPE_CONST
    );
    let s = &exe.kernels[exe.kernel_index("sum").unwrap()];
    assert!(s.uses_barriers);
    assert_eq!(s.reqd_work_group_size, Some([4, 1, 1]));
    assert_eq!(s.args[1].space, Local);
    assert_eq!(s.attributes, "reqd_work_group_size(4,1,1)");

    // Run vadd for 6 work-items in two groups of 4 (the last one partial
    // is not exercised: n guards the tail).
    let a: Vec<f32> = (0..8).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..8).map(|i| 10.0 * i as f32).collect();
    let mut c = vec![0f32; 8];
    #[repr(C)]
    struct Params {
        scale: f32,
        pad: i32,
        off: i64,
    }
    let p = Params {
        scale: 2.0,
        pad: 0,
        off: 100,
    };
    let n: u32 = 6;
    let (pa, pb, pc) = (a.as_ptr(), b.as_ptr(), c.as_mut_ptr());
    let args = kernel_args![pa, pb, pc, p, n];
    let entry = exe.code().unwrap().entry(exe.kernel_index("vadd").unwrap());
    for g in 0..2 {
        let mut cx = ctx(8, 4, g);
        for l in 0..4 {
            cx.local_id[0] = l;
            // SAFETY: args match the kernel's parameters.
            unsafe { entry(args.as_ptr(), &mut cx) };
        }
    }
    for i in 0..8 {
        let want = if i < 6 {
            (a[i] + b[i]) * 2.0 + 102.0
        } else {
            0.0
        };
        assert_eq!(c[i], want, "c[{i}]");
    }

    // sum: the executor's barrier is a no-op here, so run the work-items of
    // one group in phases by hand is impossible; one work-item per group
    // (local size 1) still exercises __local variables and atomics.
    let mut out = [0i32; 3];
    let mut scratch = [0i32; 4];
    let (po, ps) = (out.as_mut_ptr(), scratch.as_mut_ptr());
    let args = kernel_args![po, ps];
    let entry = exe.code().unwrap().entry(exe.kernel_index("sum").unwrap());
    for g in 0..3 {
        let mut cx = ctx(3, 1, g);
        // SAFETY: as above.
        unsafe { entry(args.as_ptr(), &mut cx) };
    }
    assert_eq!(out, [0, 1, 2]);
}

/// Argument names only with -cl-kernel-arg-info; the flush mark only with
/// -cl-denorms-are-zero; both kept by the binary.
#[test]
fn build_options_marked_on_kernels() {
    let exe = compile(VADD, "-cl-denorms-are-zero").unwrap_or_else(|e| panic!("{}", e.log()));
    let k = &exe.kernels[exe.kernel_index("vadd").unwrap()];
    assert!(!k.arg_info && k.denormals_are_zero);
    assert!(k.args.iter().all(|a| a.name.is_empty()));
    assert_eq!(k.args[0].type_name, "float*");
    let loaded = Executable::load(&exe.code().unwrap().binary).unwrap();
    let l = &loaded.kernels[loaded.kernel_index("vadd").unwrap()];
    assert!(!l.arg_info && l.denormals_are_zero);
}

#[test]
fn compile_error_gives_log() {
    match compile(
        "__kernel void k(__global int *p) { p[0] = undeclared; }",
        "",
    ) {
        Err(BuildError::Failed(log)) => {
            assert!(log.contains("undeclared"), "{log}");
            assert!(log.contains("program.cl"), "{log}");
        }
        Err(e) => panic!("wrong error {e:?}"),
        Ok(_) => panic!("built"),
    }
}

#[test]
fn options() {
    assert!(matches!(compile("", "-bogus"), Err(BuildError::Options(_))));
    let src = "__kernel void k(__global int *p) { p[0] = VALUE; }";
    assert!(compile(src, "").is_err());
    let exe = compile(src, "-D VALUE=7 -cl-std=CL2.0 -cl-fast-relaxed-math").unwrap();
    let mut x = 0i32;
    let px = &mut x as *mut i32;
    let args = kernel_args![px];
    let mut cx = ctx(1, 1, 0);
    // SAFETY: one global pointer argument.
    unsafe { exe.code().unwrap().entry(0)(args.as_ptr(), &mut cx) };
    assert_eq!(x, 7);
}

#[test]
fn missing_builtin_is_named() {
    let log = compile(
        // An overloaded function the library lacks, declared as
        // opencl-c.h declares builtins.
        "int __attribute__((overloadable)) lacking_builtin(int2);
         __kernel void k(__global int *p) { p[0] = lacking_builtin((int2)(1, 2)); }",
        "-cl-std=CL2.0",
    )
    .err()
    .unwrap();
    assert!(
        log.log().contains("builtin lacking_builtin(int vector[2])"),
        "{}",
        log.log()
    );
}

#[test]
fn program_calling_libc_links() {
    // A 16 KiB copy: the code generator calls libc's memcpy, so this
    // object links with the system libraries (most link without them).
    let exe = compile(
        "typedef struct { int v[4096]; } big;\n\
         __kernel void k(__global big *d, __global const big *s, int n) {\n\
             big t = s[n]; t.v[n] += 1; d[get_global_id(0)] = t;\n\
         }",
        "",
    );
    assert!(exe.is_ok(), "{}", exe.err().unwrap().log());
}

#[test]
fn binary_round_trip_and_cache() {
    let dir = std::env::temp_dir().join(format!("ferrocl-cache-test-{}", std::process::id()));
    let src = "__kernel void twice(__global int *p, int k) { p[get_global_id(0)] *= 2 * k; }";
    let exe = build_cached(Input::Source(src), "", Some(&dir)).unwrap();
    // The code made (the back end may run in the background), the cache
    // holds its binary, and the next build is that binary.
    let binary = &exe.code().unwrap().binary;
    let kept: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "fcl"))
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    assert_eq!(kept, vec![binary.clone()]);
    let again = build_cached(Input::Source(src), "", Some(&dir)).unwrap();
    assert_eq!(&again.code().unwrap().binary, binary);
    let loaded = Executable::load(&exe.code().unwrap().binary).unwrap();
    assert_eq!(loaded.kernels[0].name, "twice");
    assert_eq!(loaded.kernels[0].args[1].size, 4);
    let mut v = [3i32, 4];
    let (pv, k) = (v.as_mut_ptr(), 5i32);
    let args = kernel_args![pv, k];
    run_as_executor(&loaded, 0, &args, 2);
    assert_eq!(v, [30, 40]);
    assert!(Executable::load(b"nonsense").is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A build the cache answers gives the log of the build that filled it
/// (its notes say which kernels take a slow path).
#[test]
fn cached_build_keeps_the_build_log() {
    let dir = std::env::temp_dir().join(format!("ferrocl-cache-log-test-{}", std::process::id()));
    let src = "kernel void spin(global atomic_int *f, global int *out) {\n\
                 if (get_local_id(0) == 0) { while (atomic_load(f) == 0) ; out[0] = 1; }\n\
                 if (get_local_id(0) == get_local_size(0) - 1) atomic_store(f, 1);\n\
               }";
    let first = build_cached(Input::Source(src), "-cl-std=CL3.0", Some(&dir)).unwrap();
    assert!(
        first
            .log
            .contains("kernel spin: a loop in it may wait for another work-item"),
        "{}",
        first.log
    );
    first.code().unwrap();
    let again = build_cached(Input::Source(src), "-cl-std=CL3.0", Some(&dir)).unwrap();
    assert_eq!(again.log, first.log);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A damaged cache file (a byte changed, cut short, emptied) is not
/// loaded: the build compiles again, runs, and writes a good file back.
#[test]
fn damaged_cache_files_are_rebuilt() {
    let dir = std::env::temp_dir().join(format!("ferrocl-cache-damage-{}", std::process::id()));
    let src = "__kernel void thrice(__global int *p) { p[get_global_id(0)] *= 3; }";
    let good = build_cached(Input::Source(src), "", Some(&dir))
        .unwrap()
        .code()
        .unwrap()
        .binary
        .clone();
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "fcl"))
        .expect("the cache file");
    type Damage = dyn Fn(&mut Vec<u8>);
    let damages: [&Damage; 5] = [
        &|b| {
            let mid = b.len() / 2;
            b[mid] ^= 0x40
        },
        &|b| b[30] ^= 1,
        &|b| *b.last_mut().unwrap() ^= 0x80,
        &|b| b.truncate(b.len() / 3),
        &|b| b.clear(),
    ];
    for (i, damage) in damages.iter().enumerate() {
        let mut bytes = good.clone();
        damage(&mut bytes);
        std::fs::write(&file, &bytes).unwrap();
        assert!(Executable::load(&bytes).is_err(), "damage {i} loads");
        let exe = build_cached(Input::Source(src), "", Some(&dir)).unwrap();
        let mut v = [1i32, 2, 3];
        let pv = v.as_mut_ptr();
        run_as_executor(&exe, 0, &kernel_args![pv], 3);
        assert_eq!(v, [3, 6, 9], "damage {i}");
        assert_eq!(
            std::fs::read(&file).unwrap(),
            good,
            "damage {i}: file rewritten"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

const LOOP_SRC: &str = r#"
#define REC 30
static size_t helper(size_t x) { return x * 3 + get_global_id(0); }
__attribute__((noinline)) size_t far_helper(size_t x) {
    return x * 7 + get_local_id(0) + 100 * get_global_id(1);
}
__kernel void all_ids(__global ulong *out) {
    __global ulong *o = out + get_global_linear_id() * REC;
    for (uint d = 0; d < 3; d++) {
        o[d] = get_global_id(d);
        o[3 + d] = get_local_id(d);
        o[6 + d] = get_group_id(d);
        o[9 + d] = get_local_size(d);
        o[12 + d] = get_num_groups(d);
        o[15 + d] = get_global_size(d);
        o[18 + d] = get_global_offset(d);
        o[21 + d] = get_enqueued_local_size(d);
    }
    o[24] = get_work_dim();
    o[25] = get_local_linear_id();
    o[26] = get_global_id(3) + 10 * get_local_id(4) + 100 * get_group_id(7);
    o[27] = get_local_size(3) + 10 * get_global_size(5) + 100 * get_num_groups(9);
    o[28] = get_global_id(0) + get_global_id(1) * 1000 + get_global_id(2) * 1000000;
    o[29] = 1;
}
__kernel void dyn_dim(__global ulong *out, uint d) {
    __global ulong *o = out + get_global_linear_id() * 5;
    o[0] = get_local_id(d);
    o[1] = get_global_id(d);
    o[2] = get_group_id(d);
    o[3] = get_local_size(d);
    o[4] = get_global_offset(d) + 1;
}
__kernel void calls_helper(__global ulong *out, uint d) {
    out[get_global_linear_id()] = helper(get_local_id(d)) + 1;
}
__kernel void calls_far(__global ulong *out, uint d) {
    out[get_global_linear_id()] = far_helper(d) + 1;
}
__kernel void calls_kernel(__global ulong *out, uint d) {
    calls_helper(out, d + 1);
    out[get_global_linear_id()] += get_local_linear_id();
}
__kernel void no_args(void) {
    __local ulong seen[1];
    seen[0] = get_local_id(0);
}
__kernel void saxpy(__global float *y, __global const float *x, float a, uint d) {
    size_t i = get_global_linear_id();
    y[i] = a * x[i] + y[i] + (float)d;
}
"#;

/// Runs every work-group of a range like the executor does: through the
/// kernel's work-group entry, with a frame for a region kernel's values,
/// or its work-item entry per work-item. The last groups are partial
/// where `local` does not divide `global`.
fn run_range(
    exe: &Executable,
    k: usize,
    args: &[*mut c_void],
    dims: u32,
    range: ([usize; 3], [usize; 3], [usize; 3]),
    group_entry: bool,
) {
    #[repr(align(64))]
    #[derive(Clone, Copy)]
    struct Line {
        _bytes: [u8; 64],
    }
    let (global, local, offset) = range;
    let bytes =
        exe.kernels[k].frame_size * local.iter().product::<usize>() + crate::abi::FRAME_SKEW;
    let mut frame = vec![Line { _bytes: [0; 64] }; bytes.div_ceil(64)];
    let groups = [0, 1, 2].map(|d| global[d].div_ceil(local[d]));
    for gz in 0..groups[2] {
        for gy in 0..groups[1] {
            for gx in 0..groups[0] {
                let group_id = [gx, gy, gz];
                let local_size =
                    [0, 1, 2].map(|d| local[d].min(global[d] - group_id[d] * local[d]));
                let frame = frame.as_mut_ptr_range();
                let mut cx = WorkGroupContext {
                    work_dim: dims,
                    global_offset: offset,
                    global_size: global,
                    local_size,
                    enqueued_local_size: local,
                    num_groups: groups,
                    group_id,
                    items_end: local_size,
                    ..ctx(1, 1, 0)
                };
                if group_entry {
                    let entry = exe
                        .code()
                        .unwrap()
                        .group_entry(k)
                        .expect("a work-group entry");
                    cx.frame = frame.start as *mut c_void;
                    cx.frame_end = frame.end as *mut c_void;
                    // SAFETY: args match the kernel's parameters; the frame
                    // holds frame_size bytes per work-item.
                    unsafe { entry(args.as_ptr(), &mut cx) };
                    continue;
                }
                for z in 0..local_size[2] {
                    for y in 0..local_size[1] {
                        for x in 0..local_size[0] {
                            cx.local_id = [x, y, z];
                            // SAFETY: as above.
                            unsafe { exe.code().unwrap().entry(k)(args.as_ptr(), &mut cx) };
                        }
                    }
                }
            }
        }
    }
}

/// Runs kernel `k` of a build for applications over one 1-D group of
/// `items` as the executor does: such a build has a real work-item entry
/// only where there is no work-group entry.
fn run_as_executor(exe: &Executable, k: usize, args: &[*mut c_void], items: usize) {
    let range = ([items, 1, 1], [items, 1, 1], [0; 3]);
    run_range(
        exe,
        k,
        args,
        1,
        range,
        exe.code().unwrap().group_entry(k).is_some(),
    );
}

#[test]
fn group_entries_match_work_item_entries() {
    // Optimized, helpers inlined by clang.
    check_group_entries("-cl-std=CL3.0", true);
    // The kernels' copies are noinline.
    check_group_entries("-cl-std=CL3.0 -cl-opt-disable", false);
}

fn check_group_entries(options: &str, optimized: bool) {
    let exe = compile(LOOP_SRC, options).unwrap_or_else(|e| panic!("{}", e.log()));
    let index = |n| exe.kernel_index(n).unwrap();
    if optimized {
        assert!(exe
            .code()
            .unwrap()
            .group_entry(index("calls_helper"))
            .is_some());
    }
    assert!(exe.code().unwrap().group_entry(index("no_args")).is_some());
    for (name, want) in [
        ("all_ids", true),
        ("dyn_dim", true),
        ("calls_far", false),
        ("saxpy", true),
    ] {
        let k = index(name);
        assert_eq!(exe.kernels[k].group_entry, want, "{name}");
        assert_eq!(exe.code().unwrap().group_entry(k).is_some(), want, "{name}");
    }
    // The flag survives the binary.
    let loaded = Executable::load(&exe.code().unwrap().binary).unwrap();
    assert!(loaded
        .code()
        .unwrap()
        .group_entry(index("all_ids"))
        .is_some());
    assert!(loaded
        .code()
        .unwrap()
        .group_entry(index("calls_far"))
        .is_none());

    // (work_dim, global, local, offset): non-uniform last groups in every
    // dimension, offsets, one group, one work-item per group.
    type Range = (u32, [usize; 3], [usize; 3], [usize; 3]);
    let ranges: &[Range] = &[
        (1, [37, 1, 1], [8, 1, 1], [5, 0, 0]),
        (1, [64, 1, 1], [64, 1, 1], [0, 0, 0]),
        (1, [5, 1, 1], [1, 1, 1], [3, 0, 0]),
        (2, [13, 7, 1], [4, 3, 1], [2, 9, 0]),
        (2, [16, 2, 1], [16, 2, 1], [0, 0, 0]),
        (3, [5, 6, 7], [2, 4, 3], [1, 2, 3]),
        (3, [4, 4, 4], [4, 2, 1], [0, 0, 0]),
    ];
    for &(dims, global, local, offset) in ranges {
        let n: usize = global.iter().product();
        let range = (global, local, offset);
        let run = |k: usize, rec: usize, d: u32, wg: bool| -> Vec<u64> {
            let mut out = vec![u64::MAX; n * rec];
            let po = out.as_mut_ptr();
            let args = kernel_args![po, d];
            run_range(&exe, k, &args, dims, range, wg);
            out
        };
        let what =
            format!("work_dim {dims}, global {global:?}, local {local:?}, offset {offset:?}");
        // Every builtin, every dimension.
        let k = index("all_ids");
        let wi = run(k, 30, 0, false);
        let wg = run(k, 30, 0, true);
        assert!(!wi.contains(&u64::MAX), "{what}: work-items missed");
        assert_eq!(wi, wg, "all_ids, {what}");
        for (i, rec) in wi.chunks(30).enumerate() {
            let gid = [
                i % global[0] + offset[0],
                (i / global[0]) % global[1] + offset[1],
                i / (global[0] * global[1]) + offset[2],
            ];
            assert_eq!(rec[..3], gid.map(|g| g as u64), "{what}");
            assert_eq!(rec[24], dims as u64);
            assert_eq!(rec[26], 0);
            assert_eq!(rec[27], 111);
        }
        // A runtime dimension, in range and past it.
        for d in 0..4 {
            let k = index("dyn_dim");
            let wi = run(k, 5, d, false);
            assert!(!wi.contains(&u64::MAX), "{what}");
            assert_eq!(wi, run(k, 5, d, true), "dyn_dim({d}), {what}");
            if d == 0 && local[0] > 1 {
                assert!(wi.chunks(5).any(|r| r[0] != 0), "{what}");
            }
        }
        // Helpers: inlined by clang (work-group entry), or not (work-item
        // entries only: the work-group run is the executor's fallback).
        for name in ["calls_helper", "calls_far", "calls_kernel"] {
            let k = index(name);
            let wi = run(k, 1, 0, false);
            assert!(!wi.contains(&u64::MAX), "{name}, {what}");
            let wg = run(k, 1, 0, exe.code().unwrap().group_entry(k).is_some());
            assert_eq!(wi, wg, "{name}, {what}");
        }
        // Floats, vectorized across work-items.
        let k = index("saxpy");
        let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
        let results: Vec<Vec<f32>> = [false, true]
            .iter()
            .map(|&wg| {
                let mut y: Vec<f32> = (0..n).map(|i| 1.0 + i as f32).collect();
                let (py, px, a, d) = (y.as_mut_ptr(), x.as_ptr(), 3.0f32, 2u32);
                let args = kernel_args![py, px, a, d];
                run_range(&exe, k, &args, dims, range, wg);
                y
            })
            .collect();
        for i in 0..n {
            assert_eq!(results[0][i], 3.0 * x[i] + 1.0 + i as f32 + 2.0, "{what}");
        }
        assert_eq!(results[0], results[1], "saxpy, {what}");
    }
}

#[test]
fn compile_objects_and_link() {
    let headers = [(
        "sub/h.h".to_string(),
        "#define K 5\nint f(int);\n".to_string(),
    )];
    let a = compile_object(
        Input::Source("#include \"sub/h.h\"\nint f(int x) { return x + K; }"),
        "",
        &headers,
    )
    .unwrap_or_else(|e| panic!("{}", e.log()));
    let b = compile_object(
        Input::Source("#include \"sub/h.h\"\n__kernel void k(__global int *p) { *p = f(*p) * K; }"),
        "",
        &headers,
    )
    .unwrap_or_else(|e| panic!("{}", e.log()));
    assert_eq!(a.kind, ObjectKind::Compiled);
    // A header outside the temporary directory is refused.
    let outside = [("../x.h".to_string(), String::new())];
    assert!(compile_object(Input::Source(""), "", &outside).is_err());
    let Linked::Library(lib) = link(&[&a], "-create-library").unwrap() else {
        panic!("not a library")
    };
    assert_eq!(lib.kind, ObjectKind::Library);
    let lib = Object::load(&lib.binary()).expect("library binary round trip");
    assert_eq!(lib.kind, ObjectKind::Library);
    let Linked::Executable(exe) = link(&[&b, &lib], "").unwrap() else {
        panic!("not an executable")
    };
    assert_eq!(exe.kernels.len(), 1);
    let mut x = 2i32;
    let px = &mut x as *mut i32;
    let args = kernel_args![px];
    run_as_executor(&exe, 0, &args, 1);
    assert_eq!(x, 35);
    assert!(
        matches!(link(&[&b], ""), Err(BuildError::Failed(l)) if l.contains("undefined function f"))
    );
    assert!(matches!(
        link(&[&b, &lib], "-bogus"),
        Err(BuildError::Options(_))
    ));
}

#[test]
fn barrier_kernels_run_as_regions_unless_optimization_is_off() {
    let src = r#"
void stage(local int *t, int v) { t[get_local_id(0)] = v; barrier(CLK_LOCAL_MEM_FENCE); }
kernel void in_function(global int *out, local int *t) {
    int keep = (int)get_local_id(0) * 3;
    for (int r = 0; r < 4; r++) stage(t, r);
    out[get_global_id(0)] = keep + t[0];
}
kernel void plain(global int *out) { out[get_global_id(0)] = 1; }
kernel void collective(global int *out, local int *t) {
    event_t e = async_work_group_copy(t, (global const int *)out, 4, 0);
    wait_group_events(1, &e);
    out[get_global_id(0)] = t[0];
}
"#;
    let exe = compile(src, "").unwrap_or_else(|e| panic!("{}", e.log()));
    let index = |n| exe.kernel_index(n).unwrap();
    let regions = &exe.kernels[index("in_function")];
    assert!(regions.uses_barriers && regions.group_entry);
    // `keep` lives across the barriers: one int per work-item.
    assert!(regions.frame_size >= 4, "frame {}", regions.frame_size);
    assert!(exe
        .code()
        .unwrap()
        .group_entry(index("in_function"))
        .is_some());
    assert!(exe.kernels[index("plain")].group_entry);
    // Other collective calls keep fibers.
    assert!(!exe.kernels[index("collective")].group_entry);
    let exe = compile(src, "-cl-opt-disable").unwrap_or_else(|e| panic!("{}", e.log()));
    assert!(!exe.kernels[exe.kernel_index("in_function").unwrap()].group_entry);
}

#[test]
fn uniform_float_loops_become_regions() {
    let src = r#"
kernel void uniform(global float *out, global const float *m, int n) {
    float s = 0;
    for (int k = 0; k < n; k++) s += m[get_global_id(0) * n + k];
    out[get_global_id(0)] = s;
}
kernel void divergent(global float *out, int n) {
    float s = 0;
    for (int k = 0; k < (int)get_local_id(0) + n; k++) s += k;
    out[get_global_id(0)] = s;
}
kernel void integer(global int *out, int n) {
    int s = 0;
    for (int k = 0; k < n; k++) s += k;
    out[get_global_id(0)] = s;
}
"#;
    let exe = compile(src, "").unwrap_or_else(|e| panic!("{}", e.log()));
    let info = |n| &exe.kernels[exe.kernel_index(n).unwrap()];
    // The sum and the counter live across the implicit barriers.
    assert!(info("uniform").group_entry && info("uniform").frame_size >= 8);
    assert!(!info("uniform").uses_barriers);
    // A trip count that differs between work-items, or no floating-point
    // value carried: plain work-item loops.
    for name in ["divergent", "integer"] {
        assert!(
            info(name).group_entry && info(name).frame_size == 0,
            "{name}"
        );
    }
}

#[test]
fn feature_macros_clang_does_not_set() {
    let cl30 = super::feature_defines("CL3.0");
    assert!(cl30.contains(&"-D__opencl_c_atomic_scope_device=1".to_string()));
    assert!(cl30.contains(&"-D__opencl_c_atomic_scope_all_devices=1".to_string()));
    assert!(cl30.contains(&"-Dcl_ext_float_atomics=1".to_string()));
    // OpenCL C 2.0: opencl-c-base.h defines the scope features itself.
    let cl20 = super::feature_defines("CL2.0");
    assert!(!cl20.iter().any(|d| d.contains("atomic_scope")));
    assert!(cl20.contains(&"-D__opencl_c_ext_fp32_global_atomic_add=1".to_string()));
}

#[test]
fn work_group_functions_run_as_regions() {
    let src = r#"
kernel void sum(global int *out, global const int *in) {
    int s = work_group_reduce_add(in[get_global_id(0)]);
    int any = work_group_any(s > 3);
    out[get_global_id(0)] = s + any + work_group_scan_inclusive_max(in[get_global_id(0)]);
}
kernel void sub(global int *out) { out[get_global_id(0)] = sub_group_reduce_add(1); }
kernel void sub_in_loop(global float *out, global const float *in, int n) {
    float s = 0;
    for (int k = 0; k < n; k++)
        s += sub_group_shuffle_down(in[get_global_id(0) + k], 1u) * get_sub_group_local_id();
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = s + get_sub_group_size() + get_num_sub_groups();
}
kernel void sub_divergent(global int *out) {
    if (get_sub_group_id() == 0) out[get_global_id(0)] = sub_group_reduce_add(1);
}
kernel void sub_divergent_and_barrier(global int *out, local int *t) {
    if (get_sub_group_id() == 0) t[get_local_id(0)] = sub_group_reduce_add(1);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = t[0];
}
kernel void sub_queries(global uint *out) {
    out[get_global_id(0)] = get_sub_group_local_id() + get_max_sub_group_size();
}
"#;
    let exe = compile(src, "-cl-std=CL3.0").unwrap_or_else(|e| panic!("{}", e.log()));
    let info = |n| &exe.kernels[exe.kernel_index(n).unwrap()];
    // The work-group functions' waits became the kernel's barriers.
    assert!(info("sum").uses_barriers && info("sum").group_entry);
    // So did the sub-group functions' that the whole group runs.
    assert!(info("sub").uses_barriers && info("sub").group_entry);
    assert!(info("sub_in_loop").uses_barriers && info("sub_in_loop").group_entry);
    // Behind a branch on the sub-group's id, a group barrier could wait for
    // work-items that never come: regions run a sub-group at a time.
    assert!(info("sub_divergent").uses_barriers && info("sub_divergent").group_entry);
    // With a barrier of the whole group as well, neither way holds: fibers.
    let mixed = info("sub_divergent_and_barrier");
    assert!(mixed.uses_barriers && !mixed.group_entry);
    // The queries alone are work-item arithmetic: no wait at all.
    assert!(!info("sub_queries").uses_barriers && info("sub_queries").group_entry);
}

#[test]
fn a_tree_reductions_stride_is_kept_once_per_group() {
    let src = r#"
kernel void reduce(global const float *x, global float *out, local float *tmp) {
    size_t l = get_local_id(0);
    tmp[l] = x[get_global_id(0)];
    for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < s) tmp[l] += tmp[l + s];
    }
    if (l == 0) out[get_group_id(0)] = tmp[0];
}
"#;
    let exe = compile(src, "").unwrap_or_else(|e| panic!("{}", e.log()));
    let info = &exe.kernels[exe.kernel_index("reduce").unwrap()];
    assert!(info.group_entry && info.uses_barriers);
    // Nothing per work-item: the stride (8 bytes), its staging copy and the
    // next region's number make the uniform area.
    assert_eq!(info.frame_size, 8 + 8 + 8);
}

#[test]
fn two_barriers_in_one_block_before_a_join_still_make_regions() {
    // The join's phi names the block the barriers split: it must name the
    // last piece, whatever order the splits are looked up in (this fell
    // back to fibers in about half of the builds).
    let src = r#"
kernel void uniform_branch(global int *out, local int *t) {
    size_t l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
    int v = (int)l;
    if (g % 2) {
        t[l] = v; barrier(CLK_LOCAL_MEM_FENCE);
        v = t[n - 1 - l] * 3; barrier(CLK_LOCAL_MEM_FENCE);
    } else {
        v += 1000;
    }
    out[get_global_id(0)] = v;
}
"#;
    for _ in 0..6 {
        let exe = compile(src, "").unwrap_or_else(|e| panic!("{}", e.log()));
        assert!(exe.kernels[0].group_entry && exe.kernels[0].uses_barriers);
    }
}

#[test]
fn helpers_named_like_collectives_are_no_barriers() {
    // Only the builtins' own names make work-items wait: a program's
    // `my_work_group_sum` once sent its kernel to the fibers (24-36x
    // slower).
    let src = r#"
int my_work_group_sum(int a, int b) { return a + b; }
int sub_group_like(int a) { return a - 1; }
int barrier_free(int a) { return 3 * a; }
kernel void named(global int *out, local int *t) {
    t[get_local_id(0)] = my_work_group_sum((int)get_local_id(0), 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = sub_group_like(barrier_free(t[0]));
}
kernel void plain(global int *out) { out[get_global_id(0)] = my_work_group_sum(1, 2); }
"#;
    let exe = compile(src, "").unwrap_or_else(|e| panic!("{}", e.log()));
    let named = &exe.kernels[exe.kernel_index("named").unwrap()];
    assert!(named.uses_barriers && named.group_entry);
    assert!(exe.kernels[exe.kernel_index("plain").unwrap()].group_entry);
}

#[test]
fn a_kernel_the_region_transform_cannot_cut_says_so_in_the_log() {
    // A private array aligned more than a frame slot can be, live across the
    // barrier (which orders the __local exchange): the kernel takes the
    // safe path (fibers), and the log says why.
    let src = r#"
kernel void aligned(global int *out, local int *t) {
    __attribute__((aligned(128))) int a[4];
    size_t l = get_local_id(0);
    for (int i = 0; i < 4; i++) a[i] = (int)l * i;
    t[l] = (int)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = a[l % 4] + t[0];
}
kernel void plain(global int *out, local int *t) {
    size_t l = get_local_id(0);
    t[l] = (int)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[l] = t[0];
}
"#;
    let exe = compile(src, "").unwrap_or_else(|e| panic!("{}", e.log()));
    let aligned = exe.kernels.iter().find(|k| k.name == "aligned").unwrap();
    let plain = exe.kernels.iter().find(|k| k.name == "plain").unwrap();
    assert!(aligned.uses_barriers && !aligned.group_entry);
    assert!(plain.uses_barriers && plain.group_entry);
    assert!(
        exe.log
            .contains("kernel aligned: its barriers could not be cut into regions"),
        "{}",
        exe.log
    );
    assert!(!exe.log.contains("kernel plain"), "{}", exe.log);
}

#[test]
fn the_passes_agree_on_the_abi() {
    // The entries the passes build read the context at these offsets and
    // lay out the frame so (passes/kernel_abi.h).
    let llvm = inprocess::llvm().expect("the in-process LLVM");
    let context_field = |name| llvm.abi_constant(name).map(|v| v as usize);
    assert_eq!(
        context_field("local_size"),
        Some(std::mem::offset_of!(WorkGroupContext, local_size))
    );
    assert_eq!(
        context_field("frame"),
        Some(std::mem::offset_of!(WorkGroupContext, frame))
    );
    assert_eq!(
        context_field("max_work_group_size"),
        Some(abi::MAX_WORK_GROUP_SIZE)
    );
    assert_eq!(
        context_field("local_id"),
        Some(std::mem::offset_of!(WorkGroupContext, local_id))
    );
    assert_eq!(
        context_field("items_begin"),
        Some(std::mem::offset_of!(WorkGroupContext, items_begin))
    );
    assert_eq!(
        context_field("items_end"),
        Some(std::mem::offset_of!(WorkGroupContext, items_end))
    );
    assert_eq!(context_field("frame_align"), Some(64));
    assert_eq!(context_field("frame_skew"), Some(crate::abi::FRAME_SKEW));
    assert_eq!(context_field("no such constant"), None);
}

#[test]
fn kernels_off_the_work_group_loops_say_why_in_the_log() {
    let src = r#"
__attribute__((noinline)) size_t lid(void) { return get_local_id(0); }
kernel void sub(global int *out, local int *t) {
    if (get_sub_group_id() == 0) t[get_local_id(0)] = sub_group_reduce_add(1);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = t[0];
}
kernel void helper(global int *out) { out[get_global_id(0)] = (int)lid(); }
kernel void fast(global int *out) { out[get_global_id(0)] = 1; }
"#;
    let exe = compile(src, "-cl-std=CL3.0").unwrap_or_else(|e| panic!("{}", e.log()));
    let log = &exe.log;
    assert!(
        log.contains("kernel sub: it calls sub-group functions")
            && log.contains("it runs one fiber per work-item"),
        "{log}"
    );
    assert!(
        log.contains("kernel helper: a function it calls asks for work-item ids itself")
            && log.contains("it runs one work-item at a time"),
        "{log}"
    );
    assert!(!log.contains("kernel fast"), "{log}");
    let off =
        compile(src, "-cl-std=CL3.0 -cl-opt-disable").unwrap_or_else(|e| panic!("{}", e.log()));
    assert!(
        off.log
            .contains("kernel sub: built with -cl-opt-disable; it runs one fiber per work-item"),
        "{}",
        off.log
    );
}

#[test]
fn kernels_that_may_wait_for_another_command_are_marked() {
    let src = r#"
kernel void plain(global float *out, global const float *in) {
    out[get_global_id(0)] = in[get_global_id(0)] * 2.0f;
}
kernel void local_atomics(global int *out, local int *count) {
    if (get_local_id(0) == 0) *count = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(count);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = *count;
}
kernel void global_atomics(global int *count) {
    atomic_inc(count);
}
kernel void spins_on_volatile(volatile global int *flag) {
    while (*flag == 0) {}
}
kernel void calls_an_atomic(global atomic_int *flag) {
    while (atomic_load(flag) == 0) {}
}
kernel void pipe_consumer(read_only pipe int p, global int *out) {
    int v;
    while (read_pipe(p, &v) != 0) {}
    out[0] = v;
}
"#;
    let exe = compile(src, "-cl-std=CL3.0").unwrap_or_else(|e| panic!("{}", e.log()));
    let waits = |n| exe.kernels[exe.kernel_index(n).unwrap()].may_wait_for_others;
    assert!(!waits("plain"));
    assert!(!waits("local_atomics"), "__local memory is the group's own");
    for name in [
        "global_atomics",
        "spins_on_volatile",
        "calls_an_atomic",
        "pipe_consumer",
    ] {
        assert!(waits(name), "{name}");
    }
}

#[test]
fn work_group_entries_run_the_contexts_range_and_say_when_it_may_be_cut() {
    let src = r#"
kernel void triangle(global float *out, int n) {
    int j = get_global_id(0);
    float s = 0.0f;
    // Down from n - j, the sum of j..n-1: a loop up from the global id
    // would get one counter for the group (grid_stride_loops.cpp) and run
    // as regions.
    for (int k = n - j; k > 0; k--)
        s += (float)(n - k);
    out[j] = s + get_local_id(0) * 1000.0f;
}
kernel void local_variable(global int *out) {
    local int shared[64];
    shared[get_local_id(0)] = 1;
    out[get_global_id(0)] = shared[get_local_id(0)];
}
kernel void local_argument(global int *out, local int *scratch) {
    scratch[get_local_id(0)] = 1;
    out[get_global_id(0)] = scratch[get_local_id(0)];
}
kernel void global_atomics(global int *count) {
    atomic_inc(count);
}
kernel void implicit_only(global float *out, global const float *a, int n) {
    float s = 0.0f;
    for (int k = 0; k < n; k++)
        s += a[k] * (float)get_global_id(0);
    out[get_global_id(0)] = s;
}
kernel void real_barrier(global float *out, global const float *a, int n) {
    float s = 0.0f;
    for (int k = 0; k < n; k++)
        s += a[k] * (float)get_global_id(0);
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[get_global_id(0)] = s;
}
kernel void enqueues(global int *out) {
    out[get_global_id(0)] = 1;
    if (get_global_id(0) == 0)
        enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),
                       ^{ out[0] = 2; });
}
"#;
    let exe = compile(src, "-cl-std=CL3.0").unwrap_or_else(|e| panic!("{}", e.log()));
    let info = |n| &exe.kernels[exe.kernel_index(n).unwrap()];
    assert!(info("triangle").group_entry && info("triangle").splittable);
    // Run as regions (its loop gets implicit barriers): whole groups. The
    // region entries' loops take no range (tried: reading it cost kernels
    // run as regions up to 1.6x, Rodinia's backprop among them).
    let implicit = info("implicit_only");
    assert!(implicit.group_entry && implicit.frame_size > 0);
    assert!(info("real_barrier").group_entry && info("real_barrier").frame_size > 0);
    for name in [
        "local_variable",
        "local_argument",
        "global_atomics",
        "enqueues",
        "implicit_only",
        "real_barrier",
    ] {
        assert!(!info(name).splittable, "{name}");
    }
    // The entry runs the local ids of [items_begin, items_end) only.
    let k = exe.kernel_index("triangle").unwrap();
    let entry = exe
        .code()
        .unwrap()
        .group_entry(k)
        .expect("a work-group entry");
    let n: i32 = 64;
    let mut out = vec![-1.0f32; 64];
    let po = out.as_mut_ptr();
    let args = kernel_args![po, n];
    for (begin, end) in [(0, 20), (20, 21), (40, 64), (30, 30)] {
        let mut cx = WorkGroupContext {
            items_begin: [begin, 0, 0],
            items_end: [end, 1, 1],
            ..ctx(64, 64, 0)
        };
        // SAFETY: args match the kernel's parameters.
        unsafe { entry(args.as_ptr(), &mut cx) };
    }
    for (j, &v) in out.iter().enumerate() {
        let ran = !(21..40).contains(&j);
        let want = if ran {
            (j..64).sum::<usize>() as f32 + j as f32 * 1000.0
        } else {
            -1.0
        };
        assert_eq!(v, want, "out[{j}]");
    }
}

#[test]
fn the_innermost_dimension_is_the_one_addresses_are_contiguous_in_through_loops_and_sizes() {
    // SHOC's Stencil2D: rows by a loop's counter times a size the kernel
    // asks for, columns by local id 1. Before loop counters and
    // get_local_size counted as unknown, x stayed innermost and every
    // access became a gather.
    let src = r#"
kernel void rows_by_counter(global float *out, global const float *in, int n) {
    int w = get_local_size(1) + 2;
    for (int i = 0; i < n; i++) {
        int row = get_local_id(0) * n + i;
        out[row * w + get_local_id(1)] = in[row * w + get_local_id(1) + 1];
    }
}
int flat(int row, int col, int width) { return (row + 1) * (width + 2) + col + 1; }
kernel void rows_by_helper(global float *out, global const float *in, int n) {
    int w = get_local_size(1);
    for (int i = 0; i < n; i++) {
        int row = get_local_id(0) * n + i;
        out[flat(row, get_local_id(1), w)] = in[flat(row - 1, get_local_id(1), w)];
    }
}
kernel void columns_by_x(global float *out, int n) {
    for (int i = 0; i < n; i++)
        out[i * get_global_size(0) + get_global_id(0)] = (float)i;
}
kernel void rows_by_private_index(global float *out, global const int *map) {
    int y = map[get_global_id(1)];
    out[y * 1024 + get_global_id(0)] = 1.0f;
}
"#;
    let exe = compile(src, "").unwrap_or_else(|e| panic!("{}", e.log()));
    let inner = |n| exe.kernels[exe.kernel_index(n).unwrap()].inner_dimension;
    assert_eq!(inner("rows_by_counter"), 1);
    // Through an index helper not inlined yet.
    assert_eq!(inner("rows_by_helper"), 1);
    assert_eq!(inner("columns_by_x"), 0);
    // A loaded index moves the address as the load's address does: y's row
    // is unknown, x stays innermost.
    assert_eq!(inner("rows_by_private_index"), 0);
}

#[test]
fn regions_of_a_kernel_contiguous_along_y_run_every_work_item_in_groups_one_wide_or_not() {
    // Memory contiguous along y and a value kept across a barrier: groups
    // one work-item wide run their y loop innermost, the others rows.
    let src = r#"
kernel void columns(global float *out, global const float *in, int n) {
    int x = get_global_id(0), y = get_global_id(1);
    float v = in[x * n + y] * 2.0f;
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[x * n + y] = v + in[x * n + (y + 1) % n];
}
"#;
    let exe = compile(src, "").unwrap_or_else(|e| panic!("{}", e.log()));
    let k = exe.kernel_index("columns").unwrap();
    let info = &exe.kernels[k];
    assert!(info.uses_barriers && info.frame_size > 0);
    // Groups the runtime sizes itself are then y-long, one work-item wide.
    assert_eq!(info.inner_dimension, 1);
    let (gx, n) = (4usize, 16i32);
    let input: Vec<f32> = (0..gx * n as usize).map(|i| (i * 7 % 13) as f32).collect();
    for local in [[1, 16], [1, 4], [2, 8], [4, 4]] {
        let mut out = vec![-1.0f32; input.len()];
        let (po, pi) = (out.as_mut_ptr(), input.as_ptr());
        let args = kernel_args![po, pi, n];
        let range = ([gx, n as usize, 1], [local[0], local[1], 1], [0; 3]);
        run_range(&exe, k, &args, 2, range, true);
        for x in 0..gx {
            for y in 0..n as usize {
                let at = x * n as usize + y;
                let want = 2.0 * input[at] + input[x * n as usize + (y + 1) % n as usize];
                assert_eq!(out[at], want, "local {local:?}, ({x}, {y})");
            }
        }
    }
}

/// Runs every group of a 1-D range through kernel `k`'s work-group entry,
/// with a frame for a region kernel's values, the last group partial when
/// `local` does not divide `global`.
fn run_groups_with_frame(
    exe: &Executable,
    k: usize,
    args: &[*mut c_void],
    global: usize,
    local: usize,
) {
    run_range(
        exe,
        k,
        args,
        1,
        ([global, 1, 1], [local, 1, 1], [0; 3]),
        true,
    );
}

#[test]
fn a_histogram_in_a_grid_stride_loop_behind_a_bounds_check_runs_as_regions() {
    // Each work-item counts into a private array indexed by the data, in a
    // loop from its global id in steps of the global size, behind a check
    // that returns early (Hetero-Mark's histogram has this shape). The
    // loop gets one counter for the group, moves out of the check and gets
    // implicit barriers: the array lives in the frame, and every count
    // must still be right, in full groups and in a partial last one.
    // Two programs: only the second multiplies, which alone would make
    // its module worth regions (inline_into_kernels.cpp).
    let counts = r#"
kernel void counts(global const uint *in, global uint *out, uint bins, uint n) {
    uint id = get_global_id(0);
    uint step = get_global_size(0);
    if (id >= n)
        return;
    uint own[64];
    for (uint b = 0; b < bins; b++)
        own[b] = 0;
    for (uint i = id; i < n; i += step)
        own[in[i] % bins]++;
    for (uint b = 0; b < bins; b++)
        if (own[b] > 0)
            atomic_add(&out[b], own[b]);
}
"#;
    let counts_int = r#"
kernel void counts_int(global const int *in, global int *out, int bins, int n) {
    int step = get_local_size(0) * get_num_groups(0);
    int own[64];
    for (int b = 0; b < bins; b++)
        own[b] = 0;
    for (int i = get_global_id(0); i < n; i += step)
        own[in[i] % bins] += 1;
    for (int b = 0; b < bins; b++)
        atomic_add(&out[b], own[b]);
}
"#;
    let bins = 37u32;
    let input: Vec<u32> = (0..5000u32).map(|i| (i * 7919 + i / 3) % 1000).collect();
    for (name, src) in [("counts", counts), ("counts_int", counts_int)] {
        let exe = compile(src, "").unwrap_or_else(|e| panic!("{}", e.log()));
        let k = exe.kernel_index(name).unwrap();
        let info = &exe.kernels[k];
        // The private array (and the loop's state) lives in the frame.
        assert!(
            info.group_entry && info.frame_size >= 64 * 4,
            "{name}: frame {}",
            info.frame_size
        );
        for (n, global, local) in [
            (5000usize, 256usize, 64usize),
            (5000, 1000, 64),
            (37, 256, 64),
            (1, 16, 16),
            (4999, 96, 32),
        ] {
            // Each work-item's own walk, its step as the kernel computes it
            // (get_local_size is the partial group's own in counts_int).
            let mut want = vec![0u32; bins as usize];
            let groups = global.div_ceil(local);
            for id in 0..global {
                let step = match name {
                    "counts" => global,
                    _ => local.min(global - id / local * local) * groups,
                };
                for i in (id..n).step_by(step) {
                    want[(input[i] % bins) as usize] += 1;
                }
            }
            let mut out = vec![0u32; bins as usize];
            let (pi, po) = (input.as_ptr(), out.as_mut_ptr());
            let n32 = n as u32;
            let args = kernel_args![pi, po, bins, n32];
            run_groups_with_frame(&exe, k, &args, global, local);
            assert_eq!(out, want, "{name}: n {n}, global {global}, local {local}");
        }
    }
}

#[test]
fn neighbours_wrapped_around_the_group_or_clamped_to_the_row_read_the_right_work_items() {
    // Addresses that choose by a test of the work-item's index: a
    // neighbour around the group (clpeak's local_bandwidth rotates values
    // through local memory with `(lid + 1) % lsize`), and neighbours
    // clamped to the row (image filters). Rows of 256 work-items or more
    // run the work-items whose choice is the index itself in a copy of the
    // loop without the choices (index_choices_as_ranges.cpp), the others
    // in the loop as it was; shorter rows, and partial groups, the loop as
    // it was. Every work-item must read the same neighbour either way.
    let rotate = r#"
kernel void rotate(global float *out, local float *scratch, uint rounds, uint shift) {
    uint lid = get_local_id(0);
    uint lsize = get_local_size(0);
    uint next = (lid + shift) % lsize;
    int prev = ((int)lid + (int)lsize - 1) % (int)lsize;
    float v = (float)get_global_id(0);
    for (uint r = 0; r < rounds; r++) {
        scratch[lid] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        v = scratch[next] + 0.5f * (r == 0) * scratch[prev];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = v;
}
"#;
    let blur = r#"
kernel void blur(global const float *in, global float *out, int w, int period) {
    int x = get_global_id(0);
    out[x] = in[clamp(x - 1, 0, w - 1)] + 2.0f * in[x] + 4.0f * in[min(x + 1, w - 1)]
           + 8.0f * in[x % period];
}
"#;
    let exe = compile(rotate, "").unwrap_or_else(|e| panic!("{}", e.log()));
    let k = exe.kernel_index("rotate").unwrap();
    assert!(exe.kernels[k].group_entry);
    for (global, local, rounds, shift) in [
        (1024usize, 512usize, 3u32, 1u32),
        (1000, 300, 2, 1),
        (600, 300, 1, 7),
        (640, 64, 3, 1),
        (256, 256, 1, 255),
    ] {
        // The kernel, group by group, on the host.
        let mut want = vec![0f32; global];
        for start in (0..global).step_by(local) {
            let items = local.min(global - start);
            let mut v: Vec<f32> = (start..start + items).map(|g| g as f32).collect();
            for r in 0..rounds {
                let scratch = v.clone();
                for (lid, x) in v.iter_mut().enumerate() {
                    let next = (lid + shift as usize) % items;
                    let prev = (lid + items - 1) % items;
                    let first = if r == 0 { 1.0 } else { 0.0 };
                    *x = scratch[next] + 0.5 * first * scratch[prev];
                }
            }
            want[start..start + items].copy_from_slice(&v);
        }
        let mut out = vec![0f32; global];
        let mut scratch = vec![0f32; local];
        let (po, ps) = (out.as_mut_ptr(), scratch.as_mut_ptr());
        let args = kernel_args![po, ps, rounds, shift];
        run_groups_with_frame(&exe, k, &args, global, local);
        assert_eq!(
            out, want,
            "rotate: global {global}, local {local}, shift {shift}"
        );
    }

    let exe = compile(blur, "").unwrap_or_else(|e| panic!("{}", e.log()));
    let k = exe.kernel_index("blur").unwrap();
    for (w, local, period) in [
        (1000usize, 500usize, 7i32),
        (2048, 1024, 1000),
        (300, 100, 3),
    ] {
        let input: Vec<f32> = (0..w).map(|i| ((i * 37) % 101) as f32).collect();
        let want: Vec<f32> = (0..w)
            .map(|x| {
                let left = x.saturating_sub(1);
                let right = (x + 1).min(w - 1);
                input[left] + 2.0 * input[x] + 4.0 * input[right] + 8.0 * input[x % period as usize]
            })
            .collect();
        let mut out = vec![0f32; w];
        let (pi, po) = (input.as_ptr(), out.as_mut_ptr());
        let w32 = w as i32;
        let args = kernel_args![pi, po, w32, period];
        run_groups_with_frame(&exe, k, &args, w, local);
        assert_eq!(out, want, "blur: w {w}, local {local}, period {period}");
    }
}

#[test]
fn interleaved_vector_chains_give_each_work_item_its_own() {
    // clpeak's compute kernels: a float8 or float16 per work-item through a
    // chain of multiply-adds in a uniform loop. The work-item loop keeps the
    // kernel's vectors and runs several work-items side by side, their
    // steps interleaved, and the rest one at a time
    // (latency_bound_work_items.cpp); local sizes that leave remainders of
    // every length must give each work-item its own chain. (x * 0.5 is
    // exact, so the multiply-add rounds as the host's does.)
    for width in [8usize, 16] {
        let src = format!(
            r#"
kernel void chains(global float{width} *io, int rounds) {{
    float{width} x = io[get_global_id(0)];
    float{width} c = (float{width})(get_local_id(0));
    for (int r = 0; r < rounds; r++) {{
        x = x * 0.5f + c; x = x * 0.5f + c; x = x * 0.5f + c; x = x * 0.5f + c;
        x = x * 0.5f + c; x = x * 0.5f + c; x = x * 0.5f + c; x = x * 0.5f + c;
    }}
    io[get_global_id(0)] = x;
}}
"#
        );
        let exe = compile(&src, "").unwrap_or_else(|e| panic!("{}", e.log()));
        let k = exe.kernel_index("chains").unwrap();
        for (global, local, rounds) in [
            (104usize, 13usize, 3i32),
            (128, 64, 2),
            (21, 7, 1),
            (6, 3, 4),
        ] {
            let start: Vec<f32> = (0..global * width)
                .map(|v| (v % 97) as f32 - 40.0)
                .collect();
            let mut io = AlignedFloats::new(&start);
            let mut want = start;
            for (g, lanes) in want.chunks_mut(width).enumerate() {
                let c = (g % local) as f32;
                for x in lanes.iter_mut() {
                    for _ in 0..rounds * 8 {
                        *x = *x * 0.5 + c;
                    }
                }
            }
            let pio = io.as_mut_ptr();
            let args = kernel_args![pio, rounds];
            run_groups_with_frame(&exe, k, &args, global, local);
            assert_eq!(
                &io[..],
                &want[..],
                "float{width}: global {global}, local {local}, rounds {rounds}"
            );
        }
    }
}

#[test]
fn guarded_loops_and_local_histograms_give_every_work_item_its_due() {
    // A loop behind a bounds check (PolyBench's mvt: `if (i < n) for (j)
    // x[i] += a[j * n + i] * y[j]`): the loop runs all work-items with the
    // check kept per work-item as a flag, and rows whose flags are all on
    // run in a copy without it (active_rows_unguarded.cpp). Groups where
    // only some work-items pass must leave the others' x alone.
    let mvt = r#"
kernel void mvt(global const float *a, global float *x, global const float *y, int n) {
    int i = get_global_id(0);
    if (i < n) {
        for (int j = 0; j < n; j++)
            x[i] += a[j * n + i] * y[j];
    }
}
"#;
    let exe = compile(mvt, "").unwrap_or_else(|e| panic!("{}", e.log()));
    let k = exe.kernel_index("mvt").unwrap();
    for (n, local, global) in [(64usize, 32usize, 64usize), (50, 32, 64), (100, 16, 112)] {
        let a: Vec<f32> = (0..n * n).map(|v| (v % 7) as f32 - 3.0).collect();
        let y: Vec<f32> = (0..n).map(|j| (j % 5) as f32 * 0.5).collect();
        // Beyond n, x holds a marker the kernel must not touch.
        let mut x: Vec<f32> = (0..global)
            .map(|i| if i < n { 1.0 } else { -7.0 })
            .collect();
        let mut want = x.clone();
        for (i, w) in want.iter_mut().enumerate().take(n) {
            for (j, yj) in y.iter().enumerate() {
                *w += a[j * n + i] * yj;
            }
        }
        let (pa, px, py) = (a.as_ptr(), x.as_mut_ptr(), y.as_ptr());
        let n32 = n as i32;
        let args = kernel_args![pa, px, py, n32];
        run_groups_with_frame(&exe, k, &args, global, local);
        assert_eq!(x, want, "mvt: n {n}, local {local}, global {global}");
    }

    // Rodinia's kmeans: nested uniform loops behind `point_id < npoints`,
    // a sum per work-item in the frame beside its guard flag. The flag's
    // slot and the sum's are told apart (region_entries.cpp), so rows whose
    // flags are all on run unguarded; the last group's idle work-items
    // must still write nothing. (Integer values: every sum is exact.)
    let kmeans = r#"
kernel void nearest(global const float *feature, global const float *clusters,
                    global int *membership, int npoints, int nclusters, int nfeatures) {
    unsigned int point_id = get_global_id(0);
    int index = 0;
    if (point_id < npoints) {
        float min_dist = 3.4e38f;
        for (int i = 0; i < nclusters; i++) {
            float ans = 0;
            for (int l = 0; l < nfeatures; l++) {
                float d = feature[l * npoints + point_id] - clusters[i * nfeatures + l];
                ans += d * d;
            }
            if (ans < min_dist) {
                min_dist = ans;
                index = i;
            }
        }
        membership[point_id] = index;
    }
}
"#;
    let exe = compile(kmeans, "").unwrap_or_else(|e| panic!("{}", e.log()));
    let k = exe.kernel_index("nearest").unwrap();
    let (npoints, nclusters, nfeatures, local, global) =
        (100usize, 5usize, 7usize, 32usize, 128usize);
    let feature: Vec<f32> = (0..npoints * nfeatures)
        .map(|v| ((v * 37) % 101) as f32 - 50.0)
        .collect();
    let clusters: Vec<f32> = (0..nclusters * nfeatures)
        .map(|v| ((v * 53) % 97) as f32 - 48.0)
        .collect();
    let mut want = vec![-1i32; global];
    for (p, w) in want.iter_mut().enumerate().take(npoints) {
        let (mut best, mut index) = (f32::MAX, 0);
        for i in 0..nclusters {
            let mut ans = 0f32;
            for l in 0..nfeatures {
                let d = feature[l * npoints + p] - clusters[i * nfeatures + l];
                ans = d.mul_add(d, ans);
            }
            if ans < best {
                best = ans;
                index = i as i32;
            }
        }
        *w = index;
    }
    let mut membership = vec![-1i32; global];
    let (pf, pc, pm) = (feature.as_ptr(), clusters.as_ptr(), membership.as_mut_ptr());
    let (n32, k32, f32_) = (npoints as i32, nclusters as i32, nfeatures as i32);
    let args = kernel_args![pf, pc, pm, n32, k32, f32_];
    run_groups_with_frame(&exe, k, &args, global, local);
    assert_eq!(membership, want, "kmeans");

    // Atomics on __local bins (AMD's histogram sample): a work-group's
    // __local memory is its thread's own, so they become plain
    // read-modify-writes (local_atomics_as_plain.cpp); every increment must
    // still count, and a compare-exchange loop must still add.
    let histogram = r#"
kernel void histogram(global const uint *data, global uint *out, local uint *bins, uint per_item) {
    uint lid = get_local_id(0);
    for (uint b = lid; b < 64; b += get_local_size(0))
        bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = 0; i < per_item; i++) {
        uint v = data[get_global_id(0) * per_item + i];
        atom_inc(&bins[v % 64]);
        atomic_add(&bins[(v >> 8) % 64], 2u);
        uint old = bins[0], seen;
        while ((seen = atomic_cmpxchg(&bins[0], old, old + 1)) != old)
            old = seen;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = lid; b < 64; b += get_local_size(0))
        out[get_group_id(0) * 64 + b] = bins[b];
}
"#;
    let exe = compile(histogram, "").unwrap_or_else(|e| panic!("{}", e.log()));
    let k = exe.kernel_index("histogram").unwrap();
    let (global, local, per_item) = (256usize, 64usize, 5u32);
    let data: Vec<u32> = (0..global as u32 * per_item)
        .map(|v| v.wrapping_mul(2_654_435_761) >> 7)
        .collect();
    let mut want = vec![0u32; global / local * 64];
    for (group, bins) in want.chunks_mut(64).enumerate() {
        let items =
            &data[group * local * per_item as usize..(group + 1) * local * per_item as usize];
        for &v in items {
            bins[(v % 64) as usize] += 1;
            bins[((v >> 8) % 64) as usize] += 2;
            bins[0] += 1;
        }
    }
    let mut out = vec![0u32; want.len()];
    let mut bins = vec![0u32; 64];
    let (pd, po, pb) = (data.as_ptr(), out.as_mut_ptr(), bins.as_mut_ptr());
    let args = kernel_args![pd, po, pb, per_item];
    run_groups_with_frame(&exe, k, &args, global, local);
    assert_eq!(out, want, "histogram");
}

/// Each of `got` within 1e-4 of `want`, relative (absolute below 1).
fn assert_within_1e4(got: &[f32], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, (got, want)) in got.iter().zip(want).enumerate() {
        assert!(
            (*got as f64 - want).abs() <= 1e-4 * want.abs().max(1.0),
            "{what}: out[{i}] = {got}, want {want}"
        );
    }
}

#[test]
fn uniform_ifs_in_work_item_loops_skip_what_they_skipped() {
    // Parboil's cutcp: for each atom of a bin (the same for the whole
    // group), `if (q != 0)` around `if (r2 < cut2) energy += ...`. The
    // atom's loads move before the group's rows
    // (uniform_loads_before_rows.cpp) and the body becomes a select on
    // `q != 0` (uniform_ifs_as_selects.cpp), its work behind a branch after
    // the vectorizer (chosen_operands_behind_branches.cpp). Atoms of
    // no charge sit on lattice points, where the skipped body would give
    // infinities: each point must still sum only the charged atoms.
    let src = r#"
kernel void potential(global const float4 *atoms, int bins, float cut2, global float *out) {
    float x = get_global_id(0) * 0.5f, y = get_global_id(1) * 0.5f, z = get_global_id(2) * 0.5f;
    float energy = 0.f;
    for (int b = 0; b < bins; b++) {
        for (int m = 0; m < 8; m++) {
            float q = atoms[b * 8 + m].w;
            if (q != 0.f) {
                float dx = atoms[b * 8 + m].x - x;
                float dy = atoms[b * 8 + m].y - y;
                float dz = atoms[b * 8 + m].z - z;
                float r2 = dx * dx + dy * dy + dz * dz;
                if (r2 < cut2) {
                    float s = 1.f - r2 / cut2;
                    energy += q * rsqrt(r2) * s * s;
                }
            }
        }
    }
    out[(get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0)
        + get_global_id(0)] = energy;
}
"#;
    let exe = compile(src, "").unwrap_or_else(|e| panic!("{}", e.log()));
    let k = exe.kernel_index("potential").unwrap();
    let bins = 5usize;
    // Charged atoms between lattice points (r2 > 0), uncharged ones on them.
    let atoms: Vec<[f32; 4]> = (0..bins * 8)
        .map(|a| {
            let f = a as f32;
            if a % 3 == 1 {
                [(a % 8) as f32 * 0.5, (a % 5) as f32 * 0.5, 0.5, 0.0]
            } else {
                [
                    f * 0.37 % 4.0 + 0.1,
                    f * 0.71 % 3.0 + 0.2,
                    f * 0.13 % 2.0 + 0.3,
                    1.0 - f * 0.05,
                ]
            }
        })
        .collect();
    let cut2 = 6.0f32;
    for (global, local) in [
        ([8, 8, 2], [8, 8, 2]),
        ([12, 6, 4], [4, 3, 2]),
        ([10, 7, 3], [8, 4, 2]),
    ] {
        let mut want = vec![0f64; global.iter().product()];
        for z in 0..global[2] {
            for y in 0..global[1] {
                for x in 0..global[0] {
                    let p = [x as f64 * 0.5, y as f64 * 0.5, z as f64 * 0.5];
                    let mut e = 0f64;
                    for a in atoms.iter().filter(|a| a[3] != 0.0) {
                        let r2: f64 = (0..3).map(|d| (a[d] as f64 - p[d]).powi(2)).sum();
                        if r2 < cut2 as f64 {
                            let s = 1.0 - r2 / cut2 as f64;
                            e += a[3] as f64 / r2.sqrt() * s * s;
                        }
                    }
                    want[(z * global[1] + y) * global[0] + x] = e;
                }
            }
        }
        let mut out = vec![f32::NAN; want.len()];
        let (pa, po) = (atoms.as_ptr(), out.as_mut_ptr());
        let nbins = bins as i32;
        let args = kernel_args![pa, nbins, cut2, po];
        run_range(&exe, k, &args, 3, (global, local, [0; 3]), true);
        assert_within_1e4(&out, &want, &format!("global {global:?}, local {local:?}"));
    }
}

#[test]
fn reciprocal_square_roots_stay_within_their_bounds() {
    // rsqrt and 1/sqrt in a vectorized work-item loop and on float8: every
    // result within rsqrt's 2 ulp of 1/sqrt(x), subnormal inputs included,
    // and the special values exact. (The CPU's estimate refined by a
    // second-order step was within 1 ulp too, but no faster on Zen 3,
    // whose two FMA pipes it fills: benches/corpus/README.md, session 28.)
    let src = r#"
kernel void rsq(global const float *x, global float *r, global float *d, global float8 *w) {
    size_t i = get_global_id(0);
    r[i] = rsqrt(x[i]);
    d[i] = 1.0f / sqrt(x[i]);
    if (i % 8 == 0)
        w[i / 8] = rsqrt(vload8(i / 8, x));
}
"#;
    let exe = compile(src, "").unwrap_or_else(|e| panic!("{}", e.log()));
    let k = exe.kernel_index("rsq").unwrap();
    let specials = [
        0.0f32,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -1.0,
        f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::from_bits(0x007f_ffff),
        f32::from_bits(0x0000_6b15),
        f32::MAX,
        1.0,
        4.0,
        0.25,
    ];
    // Then every exponent with spread mantissas.
    let mut x: Vec<f32> = specials.to_vec();
    let mut bits = 0x0000_1234u32;
    while x.len() < 1 << 14 {
        x.push(f32::from_bits(bits % 0x7f80_0000));
        bits = bits.wrapping_mul(2_654_435_761).wrapping_add(0x9e37);
    }
    let n = x.len();
    let x = AlignedFloats::new(&x);
    let zeros = vec![0f32; n];
    let (mut r, mut d, mut w) = (
        AlignedFloats::new(&zeros),
        AlignedFloats::new(&zeros),
        AlignedFloats::new(&zeros),
    );
    let (px, pr, pd, pw) = (x.as_ptr(), r.as_mut_ptr(), d.as_mut_ptr(), w.as_mut_ptr());
    let args = kernel_args![px, pr, pd, pw];
    run_range(&exe, k, &args, 1, ([n, 1, 1], [256, 1, 1], [0; 3]), true);
    for (i, &v) in x.iter().enumerate() {
        let want = 1.0 / (v as f64).sqrt();
        for (what, got) in [("rsqrt", r[i]), ("1/sqrt", d[i]), ("rsqrt float8", w[i])] {
            let ok = if v == 0.0 {
                got == f32::INFINITY.copysign(v)
            } else if want.is_nan() {
                got.is_nan()
            } else if want == 0.0 {
                got == 0.0
            } else {
                // The ulp of the float nearest the exact result.
                let near = want as f32;
                let ulp = (f32::from_bits(near.to_bits() + 1) - near) as f64;
                ((got as f64 - want) / ulp).abs() <= 2.0
            };
            assert!(
                ok,
                "{what}({v:e} = {:#010x}) = {got:e}, want {want:e}",
                v.to_bits()
            );
        }
    }
}

#[test]
fn clamped_neighbours_after_barriers_keep_their_clamps() {
    // Rodinia hotspot's shape: the block's valid range from `c ? x : y` on
    // the group id (the same for the whole group), each work-item's
    // neighbours clamped to it with `c ? x : y`, used in a loop of barriers.
    // The front end writes each choice as a branch and a phi;
    // branches_as_selects.cpp makes them selects, which rematerialize.cpp
    // computes again after the barriers (a copy built on a copy included),
    // and index_choices_as_ranges.cpp runs the work-items whose neighbours
    // are not clamped apart. Blocks start one column and one row before the
    // grid, so the first and last groups clamp on both sides.
    let src = r#"
kernel void smooth(global const float *in, global float *out, int n, int iters) {
    local float t[BS][BS];
    local float u[BS][BS];
    int tx = get_local_id(0), ty = get_local_id(1);
    int x0 = get_group_id(0) * BS - 1, y0 = get_group_id(1) * BS - 1;
    int x = x0 + tx, y = y0 + ty;
    int xmin = (x0 < 0) ? -x0 : 0;
    int xmax = (x0 + BS - 1 > n - 1) ? BS - 1 - (x0 + BS - n) : BS - 1;
    int ymin = (y0 < 0) ? -y0 : 0;
    int ymax = (y0 + BS - 1 > n - 1) ? BS - 1 - (y0 + BS - n) : BS - 1;
    int W = tx - 1, E = tx + 1, N = ty - 1, S = ty + 1;
    W = (W < xmin) ? xmin : W;
    E = (E > xmax) ? xmax : E;
    N = (N < ymin) ? ymin : N;
    S = (S > ymax) ? ymax : S;
    t[ty][tx] = (x >= 0 && x < n && y >= 0 && y < n) ? in[y * n + x] : 0.f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < iters; i++) {
        u[ty][tx] = t[ty][tx] + 0.25f * (t[ty][E] + t[ty][W] + t[N][tx] + t[S][tx] - 4.f * t[ty][tx]);
        barrier(CLK_LOCAL_MEM_FENCE);
        t[ty][tx] = u[ty][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (x >= 0 && x < n && y >= 0 && y < n)
        out[y * n + x] = t[ty][tx];
}
"#;
    let (n, iters) = (21usize, 3i32);
    let input: Vec<f32> = (0..n * n).map(|i| ((i * 37) % 101) as f32 * 0.5).collect();
    for bs in [8usize, 16] {
        let exe = compile(src, &format!("-DBS={bs}")).unwrap_or_else(|e| panic!("{}", e.log()));
        let k = exe.kernel_index("smooth").unwrap();
        // The same per group on the host, in f64.
        let groups = (n + 1).div_ceil(bs);
        let mut want = vec![f64::NAN; n * n];
        for gy in 0..groups {
            for gx in 0..groups {
                let (x0, y0) = ((gx * bs) as i64 - 1, (gy * bs) as i64 - 1);
                let (n_, b) = (n as i64, bs as i64);
                let range = |o: i64| {
                    let lo = if o < 0 { -o } else { 0 };
                    let hi = if o + b - 1 > n_ - 1 {
                        b - 1 - (o + b - n_)
                    } else {
                        b - 1
                    };
                    (lo, hi)
                };
                let ((xmin, xmax), (ymin, ymax)) = (range(x0), range(y0));
                let inside = |x: i64, y: i64| x >= 0 && x < n_ && y >= 0 && y < n_;
                let mut t = vec![vec![0f64; bs]; bs];
                for ty in 0..b {
                    for tx in 0..b {
                        let (x, y) = (x0 + tx, y0 + ty);
                        if inside(x, y) {
                            t[ty as usize][tx as usize] = input[(y * n_ + x) as usize] as f64;
                        }
                    }
                }
                for _ in 0..iters {
                    let mut u = t.clone();
                    for ty in 0..b {
                        for tx in 0..b {
                            let (w, e) = ((tx - 1).max(xmin) as usize, (tx + 1).min(xmax) as usize);
                            let (no, s) =
                                ((ty - 1).max(ymin) as usize, (ty + 1).min(ymax) as usize);
                            let (tx, ty) = (tx as usize, ty as usize);
                            let c = t[ty][tx];
                            u[ty][tx] =
                                c + 0.25 * (t[ty][e] + t[ty][w] + t[no][tx] + t[s][tx] - 4.0 * c);
                        }
                    }
                    t = u;
                }
                for ty in 0..b {
                    for tx in 0..b {
                        let (x, y) = (x0 + tx, y0 + ty);
                        if inside(x, y) {
                            want[(y * n_ + x) as usize] = t[ty as usize][tx as usize];
                        }
                    }
                }
            }
        }
        let mut out = vec![f32::NAN; n * n];
        let (pi, po) = (input.as_ptr(), out.as_mut_ptr());
        let (nn, it) = (n as i32, iters);
        let args = kernel_args![pi, po, nn, it];
        let g = groups * bs;
        run_range(&exe, k, &args, 2, ([g, g, 1], [bs, bs, 1], [0; 3]), true);
        assert_within_1e4(&out, &want, &format!("BS={bs}"));
    }
}

#[test]
fn next_work_item_around_the_group_wraps_for_the_last() {
    // `t[(l + 1) % n]` with size_t ids: LLVM writes the remainder as `l + 1
    // == n ? 0 : l + 1`, a test `!=` where the index is kept, which
    // index_choices_as_ranges.cpp read as `>=` and ran the last work-item
    // of each row in its copy without the choice: it read t[n]. Rows of 16
    // and 64 (cut into pieces since MIN_ROW) and 256 (a long row).
    let src = r#"
kernel void next_around(global int *out, global const int *in) {
    local int t[256];
    size_t l = get_local_id(0), n = get_local_size(0);
    t[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = t[(l + 1) % n];
}
"#;
    let exe = compile(src, "").unwrap_or_else(|e| panic!("{}", e.log()));
    let k = exe.kernel_index("next_around").unwrap();
    for local in [16usize, 64, 256] {
        let global = 4 * local;
        let input: Vec<i32> = (0..global as i32).map(|i| 3 * i + 1).collect();
        let mut out = vec![-1i32; global];
        let (po, pi) = (out.as_mut_ptr(), input.as_ptr());
        let args = kernel_args![po, pi];
        run_range(
            &exe,
            k,
            &args,
            1,
            ([global, 1, 1], [local, 1, 1], [0; 3]),
            true,
        );
        for (i, got) in out.iter().enumerate() {
            let base = i - i % local;
            let want = input[base + (i % local + 1) % local];
            assert_eq!(*got, want, "local {local}: out[{i}]");
        }
    }
}

// Beside this file: a tests/ folder would be cargo's integration tests.
#[path = "image_tests.rs"]
mod images;

/// Every builtin a kernel can call is defined by the builtins library: the
/// declarations of clang-19's opencl-c.h and of the header the driver
/// includes ahead of every source (cl_intel_subgroups' functions) under the
/// macros the kernels' front end defines (the reported extensions and
/// features), by mangled name, against the library's index. (Kernels get clang's lazily made
/// declarations, which follow the same header; a declaration that nothing
/// defines fails at link time, in the user's build.)
#[test]
fn every_declared_builtin_is_defined() {
    let dir = std::env::temp_dir().join(format!("ferrocl-declared-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("all.cl");
    std::fs::write(dir.join("intel.h"), driver::INTEL_SUBGROUPS_H).unwrap();
    std::fs::write(&src, "#include <opencl-c.h>\n#include \"intel.h\"\n").unwrap();
    let out = std::process::Command::new(driver::clang().unwrap())
        .args(["-x", "cl", "-target", "x86_64-unknown-linux-gnu"])
        .args(["-Xclang", "-ffake-address-space-map"])
        .args(["-Xclang", "-faddress-space-map-mangling=yes"])
        .args(driver::front_end_args("").unwrap())
        .args(["-Xclang", "-ast-dump=json", "-fsyntax-only"])
        .arg(&src)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dump = String::from_utf8_lossy(&out.stdout);
    let defined: std::collections::HashSet<&str> = inprocess::BUILTIN_INDEX
        .lines()
        .filter_map(|l| l.split('\t').next())
        .collect();
    const KEY: &str = "\"mangledName\": \"";
    let mut declared = std::collections::BTreeSet::new();
    let mut rest = dump.as_ref();
    while let Some(at) = rest.find(KEY) {
        rest = &rest[at + KEY.len()..];
        let end = rest.find('"').unwrap();
        declared.insert(&rest[..end]);
        rest = &rest[end..];
    }
    assert!(
        declared.len() > 10_000,
        "only {} declarations",
        declared.len()
    );
    // cl_khr_fp16's overloads are among them (sin(half)), and the intel
    // header's (a uchar16 block read).
    assert!(declared.contains("_Z3sinDh"));
    assert!(declared.contains("_Z31intel_sub_group_block_read_uc16PU3AS1Kh"));
    let missing: Vec<&str> = declared
        .into_iter()
        .filter(|name| !defined.contains(name))
        .filter(|name| !writes_to_read_only_image(name))
        .collect();
    assert!(
        missing.is_empty(),
        "{} undefined: {:?}",
        missing.len(),
        &missing[..missing.len().min(40)]
    );
}

/// opencl-c.h's block writes to read-only images, which no kernel can call
/// (the library has none).
fn writes_to_read_only_image(name: &str) -> bool {
    name.contains("block_write") && name.contains("_ro")
}
