//! Builds whose back end (LLVM's optimizer and code generator) runs in the
//! background (src/compiler/code.rs): programs built on several threads at
//! once each run their own code, and a process that builds programs and
//! exits at once, their code still compiling, exits cleanly. Before the
//! exit wait was registered after LLVM's lazily built tables, a Python
//! program building the benchmark corpus ended with "pure virtual method
//! called" and SIGSEGV at exit, every time.

mod common;
use common::*;
use std::ffi::c_void;
use std::ptr::{null, null_mut};

/// The environment variable that makes the test below the child process.
const CHILD: &str = "FERROCL_TEST_BUILD_AND_EXIT";

/// A program of loops over vectors, math builtins and a barrier, so that
/// the code generator and the linker do much; `n` makes each distinct.
fn source(n: usize) -> String {
    format!(
        "kernel void k{n}(global float4 *x, global float *y, local float *t, int m) {{\n\
             size_t i = get_global_id(0), l = get_local_id(0);\n\
             float4 a = x[i];\n\
             for (int j = 0; j < m; j++) a = mad(a, a, (float4)({n}.5f)) * rsqrt(a + 2.0f);\n\
             t[l] = a.x + sin(a.y) + exp(a.z) + a.w;\n\
             barrier(CLK_LOCAL_MEM_FENCE);\n\
             y[i] = t[(l + 1) % get_local_size(0)] / (float)(i + {n});\n\
         }}\n\
         kernel void j{n}(global double *z, global long *w) {{\n\
             size_t i = get_global_id(0);\n\
             z[i] = pow(z[i], {n}.25) + (double)w[i];\n\
             atomic_add((global int *)w, (int)i);\n\
         }}\n"
    )
}

#[test]
fn a_process_exits_cleanly_with_builds_in_the_background() {
    if std::env::var_os(CHILD).is_some() {
        select_ferrocl();
        let s = Setup::new(platforms()[0]);
        // Not released, not launched: at exit their code is still being
        // compiled, or waits its turn.
        for n in 0..24 {
            let _ = s.build(&source(n), None);
        }
        println!("built");
        // exit(), as C programs end: the C runtime's exit handlers run
        // (Setup's drop does not).
        std::process::exit(0);
    }
    let me = std::env::current_exe().expect("the test's executable");
    for round in 0..3 {
        let out = std::process::Command::new(&me)
            .args([
                "--exact",
                "a_process_exits_cleanly_with_builds_in_the_background",
            ])
            .arg("--nocapture")
            .env(CHILD, "1")
            // No binary cache: every build compiles.
            .env("FERROCL_CACHE_DIR", "")
            .output()
            .expect("the child runs");
        let said = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "round {round}: {:?}\n{said}",
            out.status
        );
        assert!(said.contains("built"), "round {round}: {said}");
    }
}

/// `x[i] = i * m + n` over 64 ints, by a kernel of the program `n`.
fn linear(n: i32) -> String {
    format!(
        "kernel void f(global int *x, int m) {{\n\
             int i = get_global_id(0);\n\
             x[i] = i * m + {n};\n\
         }}\n"
    )
}

/// Runs `f` of `p` on 64 ints with `m`: what it wrote.
fn run_linear(s: &Setup, p: cl_program, m: i32) -> Vec<i32> {
    let mut x = vec![-1i32; 64];
    let mut err = 0;
    // SAFETY: a buffer of x's 256 bytes; the kernel's two arguments with
    // their sizes; a blocking read into x.
    unsafe {
        let q = s.queue(0);
        let buf = clCreateBuffer(
            s.context,
            CL_MEM_READ_WRITE as cl_mem_flags,
            256,
            null_mut(),
            &mut err,
        );
        assert_eq!(err, CL_SUCCESS);
        let k = clCreateKernel(p, c"f".as_ptr(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        assert_eq!(
            clSetKernelArg(k, 0, 8, &buf as *const cl_mem as *const c_void),
            CL_SUCCESS
        );
        assert_eq!(
            clSetKernelArg(k, 1, 4, &m as *const i32 as *const c_void),
            CL_SUCCESS
        );
        let global = 64usize;
        assert_eq!(
            clEnqueueNDRangeKernel(q, k, 1, null(), &global, null(), 0, null(), null_mut()),
            CL_SUCCESS
        );
        let out = x.as_mut_ptr() as *mut c_void;
        assert_eq!(
            clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 256, out, 0, null(), null_mut()),
            CL_SUCCESS
        );
        clReleaseKernel(k);
        clReleaseMemObject(buf);
        clReleaseCommandQueue(q);
    }
    x
}

#[test]
fn builds_on_many_threads_each_run_their_own_code() {
    select_ferrocl();
    let s = Setup::new(platforms()[0]);
    // Four threads build four programs each, more jobs than cores: some
    // wait their turn. Each program runs once, after its thread built all
    // four, the last built first; a fifth program per thread is released
    // while it may still be compiling.
    std::thread::scope(|scope| {
        for t in 0..4 {
            let s = &s;
            scope.spawn(move || {
                let programs: Vec<(i32, cl_program)> = (0..4)
                    .map(|i| {
                        let n = 100 * t + i;
                        (n, s.build(&linear(n), None))
                    })
                    .collect();
                let dropped = s.build(&linear(100 * t + 99), None);
                // SAFETY: a program this thread built, not used after.
                unsafe { clReleaseProgram(dropped) };
                for &(n, p) in programs.iter().rev() {
                    let m = 3 + t;
                    let want: Vec<i32> = (0..64).map(|i| i * m + n).collect();
                    assert_eq!(run_linear(s, p, m), want, "program {n}");
                    // SAFETY: the program, not used after.
                    unsafe { clReleaseProgram(p) };
                }
            });
        }
    });
}
