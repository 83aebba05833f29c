//! The compiler's LLVM steps inside the process: clang-19's driver and cc1,
//! `opt` with ferrocl's passes, `llvm-link` and builtins pruning, from
//! llvm_inprocess.cpp (built by build.rs against libclang-cpp and libLLVM
//! 19). Loaded on the first build, so an application that only loads cached
//! kernels never maps LLVM. A build then starts no clang, opt or llvm-link
//! process (each costs tens of ms just to load LLVM) and reads of the 3 MB
//! builtins library only the functions the program needs.
//!
//! When the object is missing (LLVM's development files were absent at
//! build time), cannot be loaded, FERROCL_CLANG names another clang, or
//! FERROCL_IN_PROCESS=0, no program builds (CL_COMPILER_NOT_AVAILABLE):
//! ferrocl's own passes run only here. Loading binaries still works.

use super::abi::{WorkGroupContext, FRAME_SKEW};
use std::ffi::{c_char, c_int, c_void, CStr, CString, OsStr};
use std::mem::offset_of;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The shared object, empty when build.rs could not build it.
static OBJECT: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/libferrocl_llvm.so"));
// BUILTIN_FAMILIES and BUILTIN_INDEX: the builtins library's files apart,
// for `prune`.
include!(concat!(env!("OUT_DIR"), "/families.rs"));

type ClangFn = unsafe extern "C" fn(
    c_int,
    *const *const c_char,
    *const c_char,
    *const c_char,
    *mut *mut c_char,
    *mut *mut c_char,
) -> c_int;
type OptFn = unsafe extern "C" fn(
    *const c_char,
    *const u8,
    usize,
    *const c_char,
    *const c_char,
    *mut *mut c_char,
    *mut *mut c_char,
) -> c_int;
type AbiConstantFn = unsafe extern "C" fn(*const c_char) -> i64;
type LinkFn =
    unsafe extern "C" fn(c_int, *const *const c_char, *const c_char, *mut *mut c_char) -> c_int;
type OpenFn = unsafe extern "C" fn(
    usize,
    *const *const u8,
    *const usize,
    *const u8,
    usize,
    *mut *mut c_char,
) -> *mut c_void;
type PruneFn = unsafe extern "C" fn(
    *mut c_void,
    *const c_char,
    *const c_char,
    *mut usize,
    *mut *mut c_char,
) -> c_int;
type FreeFn = unsafe extern "C" fn(*mut c_char);
type VerifyEachFn = unsafe extern "C" fn(c_int);
type LldFn = unsafe extern "C" fn(c_int, *const *const c_char, *mut *mut c_char) -> c_int;
type UndefinedFn = unsafe extern "C" fn(c_int, *const *const c_char) -> c_int;
type SplitFn = unsafe extern "C" fn(
    *const c_char,
    c_int,
    *const *const c_char,
    *mut c_int,
    *mut *mut c_char,
) -> c_int;

/// The loaded object's entry points.
pub struct Llvm {
    clang: ClangFn,
    opt: OptFn,
    link: LinkFn,
    library_open: OpenFn,
    library_prune: PruneFn,
    split: SplitFn,
    split_kernels: SplitFn,
    lld: LldFn,
    undefined_symbols: UndefinedFn,
    free: FreeFn,
    verify_each: VerifyEachFn,
    abi_constant: AbiConstantFn,
    /// The builtins library, opened lazily once (see `prune`).
    library: Mutex<Option<Library>>,
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
        let llvm = load().ok()?;
        // For a compiler developer: every pass of every build verified.
        if std::env::var_os("FERROCL_VERIFY_EACH").is_some_and(|v| v != "0") {
            llvm.verify_each(true);
        }
        Some(llvm)
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
    // Functions bound at their first call (RTLD_LAZY): binding all of
    // libclang-cpp's and libLLVM's up front took a tenth of the load, for
    // functions a build mostly never calls. The object was linked against
    // these very libraries (--no-undefined), so every one resolves.
    // SAFETY: loading our own object; its initializers are LLVM's and
    // clang's static constructors, which have no preconditions.
    let library = unsafe {
        libloading::os::unix::Library::open(Some(&path), libc::RTLD_LAZY | libc::RTLD_LOCAL)
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
        let llvm = Llvm {
            clang: symbol(&library, "ferrocl_llvm_clang")?,
            opt: symbol(&library, "ferrocl_llvm_opt")?,
            link: symbol(&library, "ferrocl_llvm_link")?,
            library_open: symbol(&library, "ferrocl_llvm_library_open")?,
            library_prune: symbol(&library, "ferrocl_llvm_library_prune")?,
            split: symbol(&library, "ferrocl_llvm_split")?,
            split_kernels: symbol(&library, "ferrocl_llvm_split_kernels")?,
            lld: symbol(&library, "ferrocl_llvm_lld")?,
            undefined_symbols: symbol(&library, "ferrocl_llvm_undefined_symbols")?,
            free: symbol(&library, "ferrocl_llvm_free")?,
            verify_each: symbol(&library, "ferrocl_llvm_verify_each")?,
            abi_constant: symbol(&library, "ferrocl_llvm_abi_constant")?,
            library: Mutex::new(None),
            _library: library,
        };
        // Programs built by an object whose ABI differs from this runtime's
        // would read the wrong fields: none are built then.
        let offsets = [
            ("local_size", offset_of!(WorkGroupContext, local_size)),
            ("frame", offset_of!(WorkGroupContext, frame)),
            ("local_id", offset_of!(WorkGroupContext, local_id)),
            ("items_begin", offset_of!(WorkGroupContext, items_begin)),
            ("items_end", offset_of!(WorkGroupContext, items_end)),
            ("frame_skew", FRAME_SKEW),
        ];
        for (name, value) in offsets {
            if llvm.abi_constant(name) != Some(value as u64) {
                return Err(format!("the compiler's {name} differs from the runtime's"));
            }
        }
        Ok(llvm)
    }
}

/// The function `name` of the object.
///
/// # Safety
/// `T` must be the function's type.
unsafe fn symbol<T: Copy>(library: &libloading::Library, name: &str) -> Result<T, String> {
    // SAFETY: the caller's type is the symbol's.
    unsafe { library.get::<T>(name.as_bytes()) }
        .map(|s| *s)
        .map_err(|e| e.to_string())
}

fn c_path(p: &Path) -> CString {
    c_string(p.as_os_str())
}

fn c_string(s: &OsStr) -> CString {
    // Paths and arguments here never hold NUL (they are ours or options
    // that were tokenized from a C string).
    CString::new(s.as_bytes()).unwrap_or_default()
}

/// C strings and the array of their pointers (an argv), alive together.
struct CStrings {
    _owned: Vec<CString>,
    pointers: Vec<*const c_char>,
}

impl CStrings {
    fn new<'a>(items: impl IntoIterator<Item = &'a OsStr>) -> CStrings {
        let owned: Vec<CString> = items.into_iter().map(c_string).collect();
        // Each CString's bytes stay where they are when `owned` moves.
        let pointers = owned.iter().map(|s| s.as_ptr()).collect();
        CStrings {
            _owned: owned,
            pointers,
        }
    }

    fn len(&self) -> c_int {
        self.pointers.len() as c_int
    }

    fn as_ptr(&self) -> *const *const c_char {
        self.pointers.as_ptr()
    }
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
    /// arguments, are returned for the caller to run. `passes` (a pipeline
    /// of LLVM's and ferrocl's passes) run in memory on the IR of a job
    /// that emits IR, before it is written. `dir`: the directory that holds
    /// all the files the arguments name and no other build's, which lets
    /// the driver's jobs be reused for the same arguments in another
    /// directory (llvm_inprocess.cpp, driver_plan).
    pub fn clang(
        &self,
        args: &[&OsStr],
        passes: Option<&str>,
        dir: Option<&Path>,
    ) -> (Outcome, Vec<Vec<String>>) {
        let argv = CStrings::new(args.iter().copied());
        let passes = passes.map(|p| CString::new(p).unwrap_or_default());
        let passes_ptr = passes.as_ref().map_or(std::ptr::null(), |p| p.as_ptr());
        let dir = dir.map(c_path);
        let dir_ptr = dir.as_ref().map_or(std::ptr::null(), |d| d.as_ptr());
        let (mut log, mut jobs) = (std::ptr::null_mut(), std::ptr::null_mut());
        // SAFETY: argv of argv.len() valid C strings, `passes` and `dir`
        // (each null or a C string) outlive the call; the out-pointers are
        // taken below.
        let status = unsafe {
            (self.clang)(
                argv.len(),
                argv.as_ptr(),
                passes_ptr,
                dir_ptr,
                &mut log,
                &mut jobs,
            )
        };
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

    /// From now on, every pipeline verifies the module after each pass
    /// (`on`), not only after the whole pipeline: for tests.
    pub fn verify_each(&self, on: bool) {
        // SAFETY: sets an atomic flag in the object.
        unsafe { (self.verify_each)(c_int::from(on)) }
    }

    #[cfg(test)]
    /// `opt -S <input> -passes=<passes> -o <output>`, first linking in what
    /// the module needs of the bitcode library `collectives` (if given) when
    /// it calls a collective function.
    pub fn opt(
        &self,
        input: &Path,
        collectives: Option<&[u8]>,
        passes: &str,
        output: &Path,
    ) -> Outcome {
        self.opt_described(input, collectives, passes, output, None)
    }

    /// `opt` as above, and the kernels of the module it wrote, described
    /// (passes/kernel_description.h) into `description`.
    pub fn opt_described(
        &self,
        input: &Path,
        collectives: Option<&[u8]>,
        passes: &str,
        output: &Path,
        description: Option<&mut String>,
    ) -> Outcome {
        let passes = CString::new(passes).unwrap_or_default();
        let (collectives, size) =
            collectives.map_or((std::ptr::null(), 0), |c| (c.as_ptr(), c.len()));
        let mut log = std::ptr::null_mut();
        let mut described = std::ptr::null_mut();
        let wanted = description.is_some();
        // SAFETY: valid C strings, and `size` bytes at `collectives` (or
        // null), for the call's duration; log and description taken below.
        let status = unsafe {
            (self.opt)(
                c_path(input).as_ptr(),
                collectives,
                size,
                passes.as_ptr(),
                c_path(output).as_ptr(),
                if wanted {
                    &mut described
                } else {
                    std::ptr::null_mut()
                },
                &mut log,
            )
        };
        let described = self.take(described);
        if let Some(d) = description {
            *d = described;
        }
        Outcome {
            ok: status == 0,
            log: self.take(log),
        }
    }

    /// A number of the ABI as the passes build it into programs
    /// (passes/kernel_abi.h), by name; None for a name it does not know.
    pub fn abi_constant(&self, name: &str) -> Option<u64> {
        let name = CString::new(name).ok()?;
        // SAFETY: a valid C string for the call's duration.
        let value = unsafe { (self.abi_constant)(name.as_ptr()) };
        u64::try_from(value).ok()
    }

    /// `llvm-link -S <inputs> -o <output>`.
    pub fn link(&self, inputs: &[&Path], output: &Path) -> Outcome {
        let inputs = CStrings::new(inputs.iter().map(|p| p.as_os_str()));
        let mut log = std::ptr::null_mut();
        // SAFETY: valid C strings for the call's duration; log taken below.
        let status = unsafe {
            (self.link)(
                inputs.len(),
                inputs.as_ptr(),
                c_path(output).as_ptr(),
                &mut log,
            )
        };
        Outcome {
            ok: status == 0,
            log: self.take(log),
        }
    }

    /// The linker job `args` (GNU ld's arguments, without the program) run
    /// by lld inside the process; None when it cannot (see
    /// llvm_inprocess.cpp), for the caller to run the job as a tool.
    pub fn lld(&self, args: &[String]) -> Option<Outcome> {
        let argv = CStrings::new(
            std::iter::once("ld.lld")
                .chain(args.iter().map(String::as_str))
                .map(OsStr::new),
        );
        let mut log = std::ptr::null_mut();
        // SAFETY: argv of argv.len() valid C strings that outlive the call;
        // log taken below.
        let status = unsafe { (self.lld)(argv.len(), argv.as_ptr(), &mut log) };
        let log = self.take(log);
        (status >= 0).then_some(Outcome {
            ok: status == 0,
            log,
        })
    }

    /// How many symbols the object files `objects` refer to that none of
    /// them defines; None if one cannot be read.
    pub fn undefined_symbols(&self, objects: &[&Path]) -> Option<usize> {
        let paths = CStrings::new(objects.iter().map(|p| p.as_os_str()));
        // SAFETY: as many valid C strings as the count says, for the call.
        let count = unsafe { (self.undefined_symbols)(paths.len(), paths.as_ptr()) };
        usize::try_from(count).ok()
    }

    /// Splits the module in `input` into at most `outputs.len()` modules
    /// (bitcode) that together define what it defines, for compiling on
    /// several cores: how many were written (0: the module stays whole,
    /// also when it is not valid IR, which the back end then reports).
    pub fn split(&self, input: &Path, outputs: &[PathBuf]) -> usize {
        self.split_with(self.split, input, outputs)
    }

    /// `split` into one module per kernel and one for the program's other
    /// entry points (at most `outputs.len()`), each named the same in
    /// every build, so that a kernel that did not change gives the same
    /// bitcode.
    pub fn split_kernels(&self, input: &Path, outputs: &[PathBuf]) -> usize {
        self.split_with(self.split_kernels, input, outputs)
    }

    fn split_with(&self, split: SplitFn, input: &Path, outputs: &[PathBuf]) -> usize {
        let outputs = CStrings::new(outputs.iter().map(|p| p.as_os_str()));
        let (mut parts, mut log) = (0, std::ptr::null_mut());
        // SAFETY: valid C strings for the call's duration, as many output
        // paths as the count says; parts and log written by the call, log
        // taken below.
        let status = unsafe {
            split(
                c_path(input).as_ptr(),
                outputs.len(),
                outputs.as_ptr(),
                &mut parts,
                &mut log,
            )
        };
        self.take(log);
        match status {
            0 => usize::try_from(parts).unwrap_or(0),
            _ => 0,
        }
    }

    /// Whether the builtins library is open (`prune` opens it).
    pub fn library_is_open(&self) -> bool {
        self.library
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some()
    }

    /// Opens the library ahead of `prune`, which finds it open.
    pub fn open_library(&self) {
        drop(self.opened());
    }

    /// The library, opened on the first call; None if it cannot be read.
    fn opened(&self) -> std::sync::MutexGuard<'_, Option<Library>> {
        let mut slot = self.library.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() && !BUILTIN_FAMILIES.is_empty() {
            let data: Vec<*const u8> = BUILTIN_FAMILIES.iter().map(|f| f.as_ptr()).collect();
            let sizes: Vec<usize> = BUILTIN_FAMILIES.iter().map(|f| f.len()).collect();
            let mut log = std::ptr::null_mut();
            // SAFETY: as many files as sizes, all 'static as the handle
            // requires, the index likewise; log is taken below.
            let handle = unsafe {
                (self.library_open)(
                    data.len(),
                    data.as_ptr(),
                    sizes.as_ptr(),
                    BUILTIN_INDEX.as_ptr(),
                    BUILTIN_INDEX.len(),
                    &mut log,
                )
            };
            self.take(log);
            *slot = (!handle.is_null()).then_some(Library(handle));
        }
        slot
    }

    /// Writes to `output` (bitcode) the definitions of the builtins
    /// library that the module in `input` needs, transitively. The library
    /// stays open: the files and functions read for one build serve the
    /// next.
    pub fn prune(&self, input: &Path, output: &Path) -> Pruned {
        let slot = self.opened();
        let Some(handle) = slot.as_ref() else {
            return Pruned::Failed;
        };
        let (mut log, mut unresolved) = (std::ptr::null_mut(), 0);
        // SAFETY: an open library handle, used by one thread at a time (the
        // lock is held); the strings for the call's duration; unresolved
        // and log written by the call, log taken below.
        let status = unsafe {
            (self.library_prune)(
                handle.0,
                c_path(input).as_ptr(),
                c_path(output).as_ptr(),
                &mut unresolved,
                &mut log,
            )
        };
        let log = self.take(log);
        match status {
            0 => Pruned::Done { unresolved },
            2 => Pruned::InvalidModule(log),
            _ => Pruned::Failed,
        }
    }
}

/// What `Llvm::prune` did.
pub enum Pruned {
    /// Written; `unresolved` names the module needs are not the library's
    /// (only the link finds them: libm's, or undefined).
    Done { unresolved: usize },
    /// The module is not valid IR (the log says why): no back end can
    /// take it.
    InvalidModule(String),
    /// The library could not be pruned (it can still be linked whole).
    Failed,
}

/// An opened bitcode library (llvm_inprocess.cpp's Library), never closed.
struct Library(*mut c_void);

// SAFETY: the handle is only used under Llvm::library's lock, by one thread
// at a time, which LLVM allows for a context and its modules.
unsafe impl Send for Library {}
