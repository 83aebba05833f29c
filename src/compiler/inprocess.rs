//! The compiler's LLVM steps inside the process: clang-19's driver and cc1,
//! `opt`, `llvm-link --only-needed` and builtins pruning, from
//! llvm_inprocess.cpp (built by build.rs against libclang-cpp and libLLVM
//! 19). Loaded on the first build, so an application that only loads cached
//! kernels never maps LLVM. A build then starts no clang, opt or llvm-link
//! process (each costs tens of ms just to load LLVM) and reads of the 3 MB
//! builtins library only the functions the program needs.
//!
//! When the object is missing (LLVM's development files were absent at
//! build time), cannot be loaded, FERROCL_CLANG names another clang, or
//! FERROCL_IN_PROCESS=0, driver.rs runs the same steps as tools.

use std::ffi::{c_char, c_int, CStr, CString, OsStr};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::OnceLock;

/// The shared object, empty when build.rs could not build it.
static OBJECT: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/libferrocl_llvm.so"));

type ClangFn =
    unsafe extern "C" fn(c_int, *const *const c_char, *mut *mut c_char, *mut *mut c_char) -> c_int;
type OptFn =
    unsafe extern "C" fn(*const c_char, *const c_char, *const c_char, *mut *mut c_char) -> c_int;
type PruneFn =
    unsafe extern "C" fn(*const c_char, *const u8, usize, *const c_char, *mut *mut c_char) -> c_int;
type FreeFn = unsafe extern "C" fn(*mut c_char);

/// The loaded object's entry points.
pub struct Llvm {
    clang: ClangFn,
    opt: OptFn,
    link_needed: OptFn,
    prune: PruneFn,
    free: FreeFn,
    /// Kept loaded for the life of the process (the fns above point into it).
    _library: libloading::Library,
}

/// A tool-like run's outcome: success, and its diagnostics.
pub struct Outcome {
    pub ok: bool,
    pub log: String,
}

/// The in-process compiler, if it can be used (see the module comment).
pub fn llvm() -> Option<&'static Llvm> {
    static LLVM: OnceLock<Option<Llvm>> = OnceLock::new();
    LLVM.get_or_init(|| {
        let off = std::env::var_os("FERROCL_IN_PROCESS").is_some_and(|v| v == "0");
        if off || OBJECT.is_empty() || std::env::var_os("FERROCL_CLANG").is_some() {
            return None;
        }
        load().ok()
    })
    .as_ref()
}

fn load() -> Result<Llvm, String> {
    // The object goes into an anonymous memory file (no path to clean up
    // or to collide with), opened through /proc.
    // SAFETY: memfd_create with a NUL-terminated name; the result is checked.
    let fd = unsafe { libc::memfd_create(c"ferrocl-llvm".as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error().to_string());
    }
    // SAFETY: fd is a fresh descriptor this File now owns.
    let mut file = unsafe { <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(fd) };
    std::io::Write::write_all(&mut file, OBJECT).map_err(|e| e.to_string())?;
    let path = format!("/proc/self/fd/{fd}");
    // SAFETY: loading our own object; its initializers are LLVM's and
    // clang's static constructors, which have no preconditions.
    let library = unsafe {
        libloading::os::unix::Library::open(Some(&path), libc::RTLD_NOW | libc::RTLD_LOCAL)
    }
    .map_err(|e| e.to_string())?;
    drop(file);
    let library: libloading::Library = library.into();
    // SAFETY: the symbols are llvm_inprocess.cpp's extern "C" functions,
    // with exactly these signatures.
    unsafe {
        let init: libloading::Symbol<unsafe extern "C" fn() -> c_int> = library
            .get(b"ferrocl_llvm_init\0")
            .map_err(|e| e.to_string())?;
        if init() != 0 {
            return Err("ferrocl_llvm_init failed".into());
        }
        Ok(Llvm {
            clang: *library
                .get(b"ferrocl_llvm_clang\0")
                .map_err(|e| e.to_string())?,
            opt: *library
                .get(b"ferrocl_llvm_opt\0")
                .map_err(|e| e.to_string())?,
            link_needed: *library
                .get(b"ferrocl_llvm_link_needed\0")
                .map_err(|e| e.to_string())?,
            prune: *library
                .get(b"ferrocl_llvm_prune\0")
                .map_err(|e| e.to_string())?,
            free: *library
                .get(b"ferrocl_llvm_free\0")
                .map_err(|e| e.to_string())?,
            _library: library,
        })
    }
}

fn c_path(p: &Path) -> CString {
    c_string(p.as_os_str())
}

fn c_string(s: &OsStr) -> CString {
    // Paths and arguments here never hold NUL (they are ours or options
    // that were tokenized from a C string).
    CString::new(s.as_bytes()).unwrap_or_default()
}

impl Llvm {
    /// Takes a string the object allocated.
    fn take(&self, p: *mut c_char) -> String {
        if p.is_null() {
            return String::new();
        }
        // SAFETY: a NUL-terminated malloc'd string from the object, freed
        // once, here.
        unsafe {
            let s = CStr::from_ptr(p).to_string_lossy().into_owned();
            (self.free)(p);
            s
        }
    }

    /// clang's driver with `args` (args[0]: the clang executable): its
    /// compile jobs run here; the others (the linker), each as program and
    /// arguments, are returned for the caller to run.
    pub fn clang(&self, args: &[&OsStr]) -> (Outcome, Vec<Vec<String>>) {
        let owned: Vec<CString> = args.iter().map(|a| c_string(a)).collect();
        let ptrs: Vec<*const c_char> = owned.iter().map(|a| a.as_ptr()).collect();
        let (mut log, mut jobs) = (std::ptr::null_mut(), std::ptr::null_mut());
        // SAFETY: argv of len(ptrs) valid C strings that outlive the call;
        // the out-pointers are taken below.
        let status =
            unsafe { (self.clang)(ptrs.len() as c_int, ptrs.as_ptr(), &mut log, &mut jobs) };
        let log = self.take(log);
        let mut external = Vec::new();
        if !jobs.is_null() {
            // SAFETY: the object's job list: arguments each NUL-terminated,
            // a job ending with an empty argument, the list with one more NUL
            // (so an empty argument at the start of a job ends the list).
            unsafe {
                let mut p = jobs as *const c_char;
                loop {
                    let mut job = Vec::new();
                    loop {
                        let arg = CStr::from_ptr(p);
                        p = p.add(arg.to_bytes().len() + 1);
                        if arg.is_empty() {
                            break;
                        }
                        job.push(arg.to_string_lossy().into_owned());
                    }
                    if job.is_empty() {
                        break;
                    }
                    external.push(job);
                }
                (self.free)(jobs);
            }
        }
        (
            Outcome {
                ok: status == 0,
                log,
            },
            external,
        )
    }

    /// `opt -S <input> -scalarize-load-store -passes=<passes> -o <output>`.
    pub fn opt(&self, input: &Path, passes: &str, output: &Path) -> Outcome {
        let passes = CString::new(passes).unwrap_or_default();
        let mut log = std::ptr::null_mut();
        // SAFETY: valid C strings for the call's duration; log taken below.
        let status = unsafe {
            (self.opt)(
                c_path(input).as_ptr(),
                passes.as_ptr(),
                c_path(output).as_ptr(),
                &mut log,
            )
        };
        Outcome {
            ok: status == 0,
            log: self.take(log),
        }
    }

    /// `llvm-link -S <input> --only-needed <library> -o <output>`.
    pub fn link_needed(&self, input: &Path, library: &Path, output: &Path) -> Outcome {
        let mut log = std::ptr::null_mut();
        // SAFETY: valid C strings for the call's duration; log taken below.
        let status = unsafe {
            (self.link_needed)(
                c_path(input).as_ptr(),
                c_path(library).as_ptr(),
                c_path(output).as_ptr(),
                &mut log,
            )
        };
        Outcome {
            ok: status == 0,
            log: self.take(log),
        }
    }

    /// Writes to `output` (bitcode) the definitions of `library` (bitcode)
    /// that the module in `input` needs, transitively.
    pub fn prune(&self, input: &Path, library: &[u8], output: &Path) -> Outcome {
        let mut log = std::ptr::null_mut();
        // SAFETY: library is valid for its length; the strings for the
        // call's duration; log taken below.
        let status = unsafe {
            (self.prune)(
                c_path(input).as_ptr(),
                library.as_ptr(),
                library.len(),
                c_path(output).as_ptr(),
                &mut log,
            )
        };
        Outcome {
            ok: status == 0,
            log: self.take(log),
        }
    }
}
