//! Builds whose back end (LLVM's optimizer and code generator) runs in the
//! background (src/compiler/code.rs): a process that builds programs and
//! exits at once, their code still compiling, exits cleanly. Before the
//! exit wait was registered after LLVM's lazily built tables, a Python
//! program building the benchmark corpus ended with "pure virtual method
//! called" and SIGSEGV at exit, every time.

mod common;
use common::*;

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
