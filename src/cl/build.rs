//! Generates the CL types, constants and the ICD dispatch table from the
//! system headers (Debian's opencl-headers), the one source of CL
//! definitions.
use std::{env, path::PathBuf};

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

fn main() {
    println!("cargo:rerun-if-changed=../../include/cl_wrapper.h");
    println!("cargo:rerun-if-changed=build.rs");
    let bindings = bindgen::Builder::default()
        .header("../../include/cl_wrapper.h")
        .allowlist_type("cl_.*|_cl_.*")
        .allowlist_var("CL_.*")
        .allowlist_type("cl_api_.*")
        .parse_callbacks(Box::new(ConstantTypes))
        .derive_default(true)
        .layout_tests(false)
        .generate()
        .expect("bindgen could not parse CL/cl_icd.h: install opencl-headers and libclang-19-dev");
    // bindgen's Default of a vector union (and of the dispatch table) zeroes
    // it in an unsafe block; the
    // crate denies unsafe blocks without a SAFETY line, and clippy does not
    // honour the `allow` around an `include!` for that lint.
    let text = bindings.to_string().replace(
        "::uninit();\n        unsafe {",
        "::uninit();\n        // SAFETY: these C types hold numbers and optional function pointers, and all-zero bytes are a value of each (0 or None).\n        unsafe {",
    );
    let out = PathBuf::from(env::var("OUT_DIR").unwrap()).join("cl_bindings.rs");
    std::fs::write(out, text).expect("writing cl_bindings.rs");
}
