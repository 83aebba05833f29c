//! Compiler tests: real builds with clang-19, entries called directly.

use super::abi::WorkGroupContext;
use super::driver::{build_cached, compile, BuildError};
use super::*;
use std::ffi::{c_char, c_void};

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

fn ctx(global: usize, local: usize, group: usize) -> WorkGroupContext {
    WorkGroupContext {
        work_dim: 1,
        reserved: 0,
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
    }
}

#[test]
fn vector_add_metadata_and_run() {
    let exe = compile(VADD, "").unwrap_or_else(|e| panic!("{}", e.log()));
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
    assert_eq!(
        k.args[0].type_qualifier,
        CL_KERNEL_ARG_TYPE_CONST as cl_kernel_arg_type_qualifier
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
    let args: [*mut c_void; 5] = [
        &pa as *const _ as *mut c_void,
        &pb as *const _ as *mut c_void,
        &pc as *const _ as *mut c_void,
        &p as *const _ as *mut c_void,
        &n as *const _ as *mut c_void,
    ];
    let entry = exe.entry(exe.kernel_index("vadd").unwrap());
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
    let args: [*mut c_void; 2] = [
        &po as *const _ as *mut c_void,
        &ps as *const _ as *mut c_void,
    ];
    let entry = exe.entry(exe.kernel_index("sum").unwrap());
    for g in 0..3 {
        let mut cx = ctx(3, 1, g);
        // SAFETY: as above.
        unsafe { entry(args.as_ptr(), &mut cx) };
    }
    assert_eq!(out, [0, 1, 2]);
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
    let args = [&px as *const _ as *mut c_void];
    let mut cx = ctx(1, 1, 0);
    // SAFETY: one global pointer argument.
    unsafe { exe.entry(0)(args.as_ptr(), &mut cx) };
    assert_eq!(x, 7);
}

#[test]
fn missing_builtin_is_named() {
    let log = compile(
        "__kernel void k(__global int *p) { p[0] = work_group_reduce_add(p[1]); }",
        "-cl-std=CL2.0",
    )
    .err()
    .unwrap();
    assert!(
        log.log().contains("builtin work_group_reduce_add"),
        "{}",
        log.log()
    );
}

#[test]
fn binary_round_trip_and_cache() {
    let dir = std::env::temp_dir().join(format!("ferrocl-cache-test-{}", std::process::id()));
    let src = "__kernel void twice(__global int *p, int k) { p[get_global_id(0)] *= 2 * k; }";
    let t = std::time::Instant::now();
    let exe = build_cached(src, "", Some(&dir)).unwrap();
    let cold = t.elapsed();
    let t = std::time::Instant::now();
    let again = build_cached(src, "", Some(&dir)).unwrap();
    let hot = t.elapsed();
    eprintln!("cold build {cold:?}, cached {hot:?}");
    assert!(hot < cold);
    assert_eq!(again.binary, exe.binary);
    let loaded = Executable::load(&exe.binary).unwrap();
    assert_eq!(loaded.kernels[0].name, "twice");
    assert_eq!(loaded.kernels[0].args[1].size, 4);
    let mut v = [3i32, 4];
    let (pv, k) = (v.as_mut_ptr(), 5i32);
    let args = [
        &pv as *const _ as *mut c_void,
        &k as *const _ as *mut c_void,
    ];
    let mut cx = ctx(2, 2, 0);
    for l in 0..2 {
        cx.local_id[0] = l;
        // SAFETY: the kernel's two arguments.
        unsafe { loaded.entry(0)(args.as_ptr(), &mut cx) };
    }
    assert_eq!(v, [30, 40]);
    assert!(Executable::load(b"nonsense").is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn compile_objects_and_link() {
    let headers = [(
        "sub/h.h".to_string(),
        "#define K 5\nint f(int);\n".to_string(),
    )];
    let a = compile_object(
        "#include \"sub/h.h\"\nint f(int x) { return x + K; }",
        "",
        &headers,
    )
    .unwrap_or_else(|e| panic!("{}", e.log()));
    let b = compile_object(
        "#include \"sub/h.h\"\n__kernel void k(__global int *p) { *p = f(*p) * K; }",
        "",
        &headers,
    )
    .unwrap_or_else(|e| panic!("{}", e.log()));
    assert_eq!(a.kind, ObjectKind::Compiled);
    // A header outside the temporary directory is refused.
    let outside = [("../x.h".to_string(), String::new())];
    assert!(compile_object("", "", &outside).is_err());
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
    let args = [&px as *const _ as *mut c_void];
    let mut cx = ctx(1, 1, 0);
    // SAFETY: one global pointer argument.
    unsafe { exe.entry(0)(args.as_ptr(), &mut cx) };
    assert_eq!(x, 35);
    assert!(
        matches!(link(&[&b], ""), Err(BuildError::Failed(l)) if l.contains("undefined function f"))
    );
    assert!(matches!(
        link(&[&b, &lib], "-bogus"),
        Err(BuildError::Options(_))
    ));
}
