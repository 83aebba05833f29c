//! Rebuilding a program after an edit to one of its kernels (issue 13):
//! the back end compiles that kernel only, the other kernels' compiled
//! code coming from the cache (the build log's note counts them), and
//! every kernel of the rebuilt program computes what its source says.

mod common;
use common::*;
use std::ffi::c_void;
use std::ptr::{null, null_mut};

/// Three kernels; `add`'s constant is what an edit changes.
fn source(add: i32) -> String {
    format!(
        "kernel void add(global int *x) {{ x[get_global_id(0)] += {add}; }}\n\
         kernel void twice(global int *x) {{ x[get_global_id(0)] *= 2; }}\n\
         kernel void sum(global int *x, local int *t) {{\n\
             size_t l = get_local_id(0);\n\
             t[l] = x[get_global_id(0)];\n\
             barrier(CLK_LOCAL_MEM_FENCE);\n\
             if (l == 0) {{ int s = 0; for (size_t i = 0; i < get_local_size(0); i++) s += t[i];\n\
                 x[get_global_id(0)] = s; }}\n\
         }}\n"
    )
}

/// The program built from `src`, and its build log.
fn build(s: &Setup, src: &str) -> (cl_program, String) {
    let prog = s.build(src, None);
    // SAFETY: a valid program and device, and out-pointers of the sizes
    // given.
    unsafe {
        let mut n = 0;
        let log_query = CL_PROGRAM_BUILD_LOG;
        assert_eq!(
            clGetProgramBuildInfo(prog, s.device, log_query, 0, null_mut(), &mut n),
            CL_SUCCESS
        );
        let mut log = vec![0u8; n];
        let buf = log.as_mut_ptr() as *mut c_void;
        assert_eq!(
            clGetProgramBuildInfo(prog, s.device, log_query, n, buf, null_mut()),
            CL_SUCCESS
        );
        let log = String::from_utf8_lossy(&log)
            .trim_end_matches('\0')
            .to_string();
        (prog, log)
    }
}

/// (reused, parts) from the build log's note, if it has one.
fn reused(log: &str) -> Option<(usize, usize)> {
    let rest = log.split("the compiled code of ").nth(1)?;
    let mut words = rest.split_whitespace();
    let reused = words.next()?.parse().ok()?;
    let parts = words.nth(3)?.parse().ok()?;
    Some((reused, parts))
}

/// 16 ints 0..16 through `add`, `twice` and `sum` (groups of 4) of `p`.
fn run(s: &Setup, q: cl_command_queue, p: cl_program) -> Vec<i32> {
    let mut x: Vec<i32> = (0..16).collect();
    let mut err = 0;
    // SAFETY: a buffer of x's 64 bytes, copied from x; kernels of a built
    // program with their arguments' sizes; a blocking read into x.
    unsafe {
        let flags = (CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR) as cl_mem_flags;
        let buf = clCreateBuffer(
            s.context,
            flags,
            64,
            x.as_mut_ptr() as *mut c_void,
            &mut err,
        );
        assert_eq!(err, CL_SUCCESS);
        for (name, local) in [(c"add", None), (c"twice", None), (c"sum", Some(4usize))] {
            let k = clCreateKernel(p, name.as_ptr(), &mut err);
            assert_eq!(err, CL_SUCCESS);
            let arg = &buf as *const cl_mem as *const c_void;
            assert_eq!(clSetKernelArg(k, 0, 8, arg), CL_SUCCESS);
            if let Some(l) = local {
                assert_eq!(clSetKernelArg(k, 1, l * 4, null()), CL_SUCCESS);
            }
            let local = local.as_ref().map_or(null(), |l| l as *const usize);
            let global = 16usize;
            assert_eq!(
                clEnqueueNDRangeKernel(q, k, 1, null(), &global, local, 0, null(), null_mut()),
                CL_SUCCESS
            );
            clReleaseKernel(k);
        }
        let out = x.as_mut_ptr() as *mut c_void;
        assert_eq!(
            clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 64, out, 0, null(), null_mut()),
            CL_SUCCESS
        );
        clReleaseMemObject(buf);
    }
    x
}

/// What `run` gives for `add`'s constant `add`.
fn expected(add: i32) -> Vec<i32> {
    let twice: Vec<i32> = (0..16).map(|i| (i + add) * 2).collect();
    (0..16)
        .map(|i| match i % 4 {
            0 => twice[i..i + 4].iter().sum(),
            _ => twice[i],
        })
        .collect()
}

#[test]
fn an_edit_to_one_kernel_compiles_that_kernel_only() {
    let cache = std::env::temp_dir().join(format!("ferrocl-rebuild-{}", std::process::id()));
    // Read at each build: a cache of this test's own.
    std::env::set_var("FERROCL_CACHE_DIR", &cache);
    select_ferrocl();
    let s = Setup::new(platforms()[0]);
    let q = s.queue(0);

    let (first, log) = build(&s, &source(1));
    assert_eq!(reused(&log), None, "nothing to reuse yet: {log}");
    assert_eq!(run(&s, q, first), expected(1));

    // `add` edited: its part alone is compiled.
    let (edited, log) = build(&s, &source(5));
    let (reused, parts) = reused(&log).unwrap_or_else(|| panic!("no reuse noted: {log}"));
    assert!(parts >= 3, "{log}");
    assert_eq!(reused, parts - 1, "{log}");
    assert_eq!(run(&s, q, edited), expected(5));

    // SAFETY: releasing what was created.
    unsafe {
        clReleaseProgram(first);
        clReleaseProgram(edited);
        clReleaseCommandQueue(q);
    }
    let _ = std::fs::remove_dir_all(&cache);
}
