//! Generates the CL types, constants and the ICD dispatch table from the
//! system headers (Debian's opencl-headers), the one source of CL definitions.
use std::{
    env,
    path::{Path, PathBuf},
    process::Command,
};

/// Status codes (zero and below) become `cl_int`-compatible i32, enums and
/// bit flags u32, and the few 64-bit values u64: each constant then fits the
/// CL type it is used with, with a widening `as` at most.
#[derive(Debug)]
struct ConstantTypes;

impl bindgen::callbacks::ParseCallbacks for ConstantTypes {
    fn int_macro(&self, _name: &str, value: i64) -> Option<bindgen::callbacks::IntKind> {
        use bindgen::callbacks::IntKind;
        Some(if value <= 0 {
            IntKind::I32
        } else if value <= u32::MAX as i64 {
            IntKind::U32
        } else {
            IntKind::U64
        })
    }
}

/// The LLVM 19 tool `name`: from /usr/lib/llvm-19/bin, else `name-19` on PATH.
fn llvm_tool(name: &str) -> PathBuf {
    let p = PathBuf::from("/usr/lib/llvm-19/bin").join(name);
    if p.exists() {
        p
    } else {
        PathBuf::from(format!("{name}-19"))
    }
}

fn run(cmd: &mut Command) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("{cmd:?}: {}", String::from_utf8_lossy(&out.stderr)))
    }
}

/// Compiles builtins/ (C and OpenCL C) to one bitcode file the kernel
/// compiler links into every program.
fn build_builtins(out_dir: &Path) -> Result<(), String> {
    let clang = llvm_tool("clang");
    let common = [
        "-target",
        "x86_64-unknown-linux-gnu",
        "-fPIC",
        "-fno-pie",
        "-O2",
        "-emit-llvm",
        "-c",
        "-Wno-psabi",
    ];
    let wi = out_dir.join("workitem.bc");
    run(Command::new(&clang)
        .args(common)
        .args([
            "-x",
            "c",
            "-std=c11",
            "-fno-math-errno",
            "-Iinclude",
            "builtins/workitem.c",
            "-o",
        ])
        .arg(&wi))?;
    let math = out_dir.join("math.bc");
    run(Command::new(&clang)
        .args(common)
        .args(["-x", "cl", "-cl-std=CL1.2", "-w"])
        .args([
            "-Xclang",
            "-finclude-default-header",
            "-Xclang",
            "-ffake-address-space-map",
        ])
        .args(["builtins/math.cl", "-o"])
        .arg(&math))?;
    run(Command::new(llvm_tool("llvm-link"))
        .arg(&wi)
        .arg(&math)
        .arg("-o")
        .arg(out_dir.join("builtins.bc")))
}

fn main() {
    println!("cargo:rerun-if-changed=include/cl_wrapper.h");
    println!("cargo:rerun-if-changed=include/ferrocl_kernel.h");
    println!("cargo:rerun-if-changed=builtins");
    let out_dir = PathBuf::from(env::var("OUT_DIR").unwrap());
    if let Err(e) = build_builtins(&out_dir) {
        // The library still builds: the kernel compiler then reports that
        // its builtins are missing in each build log.
        println!("cargo:warning=ferrocl builtins not built (kernel compiler disabled): {e}");
        std::fs::write(out_dir.join("builtins.bc"), b"").unwrap();
    }
    let bindings = bindgen::Builder::default()
        .header("include/cl_wrapper.h")
        .allowlist_type("cl_.*|_cl_.*")
        .allowlist_var("CL_.*")
        .allowlist_type("cl_api_.*")
        .parse_callbacks(Box::new(ConstantTypes))
        .derive_default(true)
        .layout_tests(false)
        .generate()
        .expect("bindgen could not parse CL/cl_icd.h: install opencl-headers and libclang-19-dev");
    let out = PathBuf::from(env::var("OUT_DIR").unwrap()).join("cl_bindings.rs");
    bindings.write_to_file(out).expect("writing cl_bindings.rs");
}
