//! Running the tools: clang-19 for the front end and for the back end (its
//! -O3 pipeline on the rewritten module, with the builtins bitcode linked in),
//! and the system linker through it for the shared object.

use super::{
    abi, binary, blocks, code, inprocess, object_cache, spirv, Code, Executable, KernelInfo,
    Linked, Object, ObjectKind,
};
use code::PendingCode;
use std::ffi::{OsStr, OsString};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

/// The builtins library (builtins/), compiled by build.rs.
static BUILTINS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/builtins.bc"));
/// builtins/lib/collective.cl alone (also part of BUILTINS): linked into a
/// module that calls work-group functions before the region transform, so
/// that their barriers become the kernel's own.
static COLLECTIVES: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/collective.bc"));

/// Why a build failed, so that the API can answer the right code.
#[derive(Debug)]
pub enum BuildError {
    /// An option the compiler does not know: CL_INVALID_BUILD_OPTIONS.
    Options(String),
    /// clang-19 is missing: CL_COMPILER_NOT_AVAILABLE.
    NoCompiler(String),
    /// The source did not compile or link: CL_BUILD_PROGRAM_FAILURE.
    Failed(String),
}

impl BuildError {
    pub fn log(&self) -> &str {
        match self {
            BuildError::Options(l) | BuildError::NoCompiler(l) | BuildError::Failed(l) => l,
        }
    }
}

/// A tool the compiler runs: the path in the environment variable `env`,
/// else `name` on PATH, else `fallback`; the first that is a file.
pub(crate) fn find_tool(env: &str, name: &str, fallback: &str) -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Some(p) = std::env::var_os(env) {
        candidates.push(PathBuf::from(p));
    }
    if let Some(path) = std::env::var_os("PATH") {
        candidates.extend(std::env::split_paths(&path).map(|d| d.join(name)));
    }
    candidates.push(PathBuf::from(fallback));
    candidates.into_iter().find(|p| p.is_file())
}

/// clang-19: FERROCL_CLANG, else clang-19 on PATH, else LLVM 19's own directory.
pub(crate) fn clang() -> Result<&'static Path, BuildError> {
    static CLANG: OnceLock<Option<PathBuf>> = OnceLock::new();
    CLANG
        .get_or_init(|| find_tool("FERROCL_CLANG", "clang-19", "/usr/lib/llvm-19/bin/clang"))
        .as_deref()
        .ok_or_else(|| {
            BuildError::NoCompiler(
                "ferrocl: clang-19 not found (install clang-19, or set FERROCL_CLANG to its path)"
                    .into(),
            )
        })
}

/// A directory removed when dropped, unless `detach` handed it on.
struct TempDir(PathBuf, AtomicBool);

impl TempDir {
    fn new() -> std::io::Result<TempDir> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos());
            let p =
                std::env::temp_dir().join(format!("ferrocl-{}-{n}-{nanos}", std::process::id()));
            match std::fs::create_dir(&p) {
                Ok(()) => return Ok(TempDir(p, AtomicBool::new(false))),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        // FERROCL_SAVE_TEMPS keeps each build's files (source, IR at each
        // step, shared object) for whoever works on the compiler.
        if std::env::var_os("FERROCL_SAVE_TEMPS").is_none() && !self.1.load(Ordering::Relaxed) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

impl TempDir {
    /// The same directory, which the returned value now removes (a job
    /// that outlives this one's owner takes it).
    fn detach(&self) -> TempDir {
        self.1.store(true, Ordering::Relaxed);
        TempDir(self.0.clone(), AtomicBool::new(false))
    }
}

/// `f()`, its wall time on stderr as `ferrocl: <step> <ms> ms` when
/// FERROCL_TIME_STEPS is set (for whoever works on build times).
fn timed<T>(step: &str, f: impl FnOnce() -> T) -> T {
    static ON: OnceLock<bool> = OnceLock::new();
    if !*ON.get_or_init(|| std::env::var_os("FERROCL_TIME_STEPS").is_some()) {
        return f();
    }
    let start = std::time::Instant::now();
    let out = f();
    eprintln!(
        "ferrocl: {step} {:.1} ms",
        start.elapsed().as_secs_f64() * 1e3
    );
    out
}

fn io_err(what: &str, e: std::io::Error) -> BuildError {
    BuildError::Failed(format!("ferrocl: {what}: {e}"))
}

/// Splits build options like a shell would (quotes group, no expansion).
fn tokenize(options: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let (mut quote, mut any) = (None, false);
    for c in options.chars() {
        match (quote, c) {
            (None, '"' | '\'') => {
                quote = Some(c);
                any = true;
            }
            (Some(q), _) if c == q => quote = None,
            (None, c) if c.is_whitespace() => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            _ => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

/// Whether the build options hold `option`.
fn has_option(options: &str, option: &str) -> bool {
    tokenize(options).iter().any(|t| t == option)
}

/// The clang arguments for a program's build options.
pub fn front_end_args(options: &str) -> Result<Vec<String>, BuildError> {
    const PASS: &[&str] = &[
        "-cl-single-precision-constant",
        "-cl-denorms-are-zero",
        "-cl-fp32-correctly-rounded-divide-sqrt",
        "-cl-mad-enable",
        "-cl-no-signed-zeros",
        "-cl-unsafe-math-optimizations",
        "-cl-finite-math-only",
        "-cl-fast-relaxed-math",
        "-cl-uniform-work-group-size",
        "-w",
        "-Werror",
    ];
    /// Accepted and without effect here.
    const IGNORE: &[&str] = &[
        "-cl-kernel-arg-info",
        // Sub-groups never make independent forward progress here.
        "-cl-no-subgroup-ifp",
        "-cl-strict-aliasing",
        "-g",
        "-create-library",
        "-enable-link-options",
    ];
    let mut std = "CL1.2".to_string();
    let mut args = Vec::new();
    let mut it = tokenize(options).into_iter();
    while let Some(t) = it.next() {
        if let Some(v) = t.strip_prefix("-cl-std=") {
            if !["CL1.0", "CL1.1", "CL1.2", "CL2.0", "CL3.0"].contains(&v) {
                return Err(BuildError::Options(format!(
                    "ferrocl: unsupported -cl-std={v}"
                )));
            }
            std = v.to_string();
        } else if t == "-D" || t == "-I" {
            let v = it
                .next()
                .ok_or_else(|| BuildError::Options(format!("ferrocl: {t} needs a value")))?;
            args.push(format!("{t}{v}"));
        } else if t == "-cl-opt-disable" {
            // "This option disables all optimizations": every function
            // becomes optnone, which the back end respects (and kernels
            // with barriers keep their fibers). Not by -O0, whose front
            // end drops C99 inline definitions: see front_end_passes.
            args.push(t);
        } else if t.starts_with("-D") || t.starts_with("-I") || PASS.contains(&t.as_str()) {
            args.push(t);
        } else if IGNORE.contains(&t.as_str()) {
        } else {
            return Err(BuildError::Options(format!(
                "ferrocl: unknown build option {t}"
            )));
        }
    }
    args.push(format!("-cl-std={std}"));
    args.push("-Xclang".to_string());
    args.push(super::extension_option());
    args.extend(super::feature_defines(&std));
    // The device's OpenCL version, which clang does not define.
    args.push("-D__OPENCL_VERSION__=300".to_string());
    Ok(args)
}

fn run(cmd: &mut Command) -> Result<(bool, String), BuildError> {
    let out = cmd.output().map_err(|e| {
        BuildError::NoCompiler(format!("ferrocl: cannot run {:?}: {e}", cmd.get_program()))
    })?;
    let mut log = String::from_utf8_lossy(&out.stderr).into_owned();
    log.push_str(&String::from_utf8_lossy(&out.stdout));
    Ok((out.status.success(), log))
}

/// `_Z3sinf` -> `sin`; other names unchanged.
fn plain_name(sym: &str) -> &str {
    let mangled = || {
        let r = sym.strip_prefix("_Z")?;
        let digits = r.find(|c: char| !c.is_ascii_digit())?;
        let n: usize = r[..digits].parse().ok()?;
        r.get(digits..digits + n)
    };
    mangled().unwrap_or(sym)
}

/// The linker's "undefined reference" (ld) or "undefined symbol" (lld)
/// lines as build-log messages.
fn undefined_builtins(log: &str) -> Vec<String> {
    let mut names: Vec<String> = log
        .lines()
        .filter_map(|l| {
            if let Some((_, name)) = l.split_once("error: undefined symbol: ") {
                return Some(name.trim().to_string());
            }
            let i = l.find("undefined reference to `")? + "undefined reference to `".len();
            let end = l[i..].find('\'')?;
            Some(l[i..i + end].to_string())
        })
        .collect();
    names.sort();
    names.dedup();
    names
        .iter()
        .map(|s| {
            if s.starts_with("_Z") || s.contains('(') {
                format!(
                    "ferrocl: builtin {} ({s}) is not implemented yet",
                    plain_name(s)
                )
            } else {
                // OpenCL C builtins are all overloaded (mangled, shown
                // demangled by the linker): this one is the program's.
                format!("ferrocl: undefined function {s} (defined in no linked program)")
            }
        })
        .collect()
}

/// Source to a loaded executable, without the cache, with the work-item
/// entries `entries` asks for.
#[cfg(test)]
pub fn compile_with(
    source: &str,
    options: &str,
    entries: WorkItemEntries,
) -> Result<Executable, BuildError> {
    compile_in(Input::Source(source), options, entries, None, None)
}

/// What a program is built from.
#[derive(Clone, Copy)]
pub enum Input<'a> {
    /// OpenCL C source.
    Source(&'a str),
    /// A SPIR-V module as the translator reads it (spirv.rs,
    /// `Module::for_translator`).
    SpirV(&'a [u8]),
}

/// `compile_with`, reusing the compiled code of the kernels in the cache
/// directory `objects` (object_cache.rs) when given.
fn compile_in(
    input: Input,
    options: &str,
    entries: WorkItemEntries,
    objects: Option<&Path>,
    keep: Option<PathBuf>,
) -> Result<Executable, BuildError> {
    // Timed apart from the front end: once per process.
    let llvm = timed("in-process LLVM", inprocess::llvm);
    in_temp_dir(|dir| {
        std::thread::scope(|scope| {
            // The builtins library's index (which of its files defines what)
            // is read once per process, on another core while the front end
            // runs; the back end's pruning then finds it open and reads the
            // files the program needs.
            if let (Some(llvm), Ok(_)) = (llvm, builtins()) {
                if !llvm.library_is_open() {
                    scope.spawn(|| llvm.open_library());
                }
            }
            let (text, log) = timed("front end", || match input {
                Input::Source(source) => front_end(dir, source, options, &[]),
                Input::SpirV(il) => il_front_end(dir, il, options),
            })?;
            back_end(dir, &text, log, entries, objects, keep.clone())
        })
    })
}

/// `build` run in a fresh temporary directory; run again in another when
/// it failed and its directory is gone: something cleaned the temporary
/// directory (`rm -rf /tmp/*`, a tmp cleaner) during the build, which is
/// no fault of the program's.
fn in_temp_dir<T>(build: impl Fn(&TempDir) -> Result<T, BuildError>) -> Result<T, BuildError> {
    let mut tries = 0;
    loop {
        let dir = TempDir::new().map_err(|e| io_err("temporary directory", e))?;
        let result = build(&dir);
        tries += 1;
        if result.is_ok() || tries == 3 || dir.0.is_dir() {
            return result;
        }
    }
}

/// Checks that the builtins library was built (it needs clang-19 at build
/// time).
fn builtins() -> Result<&'static [u8], BuildError> {
    if BUILTINS.is_empty() {
        return Err(BuildError::NoCompiler(
            "ferrocl: built without its builtins library (clang-19 was missing at build time)"
                .into(),
        ));
    }
    Ok(BUILTINS)
}

/// The declarations of cl_intel_subgroups' functions (defined in the
/// builtins library), which clang-19 declares for no target ferrocl
/// compiles for: included ahead of every OpenCL C source. Generated by
/// builtins/gen/gen_collective.py.
pub(crate) const INTEL_SUBGROUPS_H: &str = include_str!("../../builtins/lib/intel_subgroups.h");
const INTEL_SUBGROUPS_NAME: &str = "ferrocl_intel_subgroups.h";

/// clang's front end: OpenCL C source to textual LLVM IR (with the kernel
/// metadata), and the diagnostics. `headers` (include name, text) are
/// written next to the source, so `#include "name"` finds them.
fn front_end(
    dir: &TempDir,
    source: &str,
    options: &str,
    headers: &[(String, String)],
) -> Result<(String, String), BuildError> {
    let fe_args = front_end_args(options)?;
    let clang = clang()?;
    builtins()?;
    for (name, text) in headers {
        let rel = Path::new(name);
        if rel.is_absolute() || rel.components().any(|c| c.as_os_str() == "..") {
            return Err(BuildError::Failed(format!(
                "ferrocl: header include name {name} must be a relative path"
            )));
        }
        let path = dir.0.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io_err("writing a header", e))?;
        }
        std::fs::write(&path, text).map_err(|e| io_err("writing a header", e))?;
    }
    let src = dir.0.join("program.cl");
    std::fs::write(&src, source).map_err(|e| io_err("writing the source", e))?;
    let declarations = dir.0.join(INTEL_SUBGROUPS_NAME);
    std::fs::write(&declarations, INTEL_SUBGROUPS_H)
        .map_err(|e| io_err("writing the declarations", e))?;
    let ll = dir.0.join("program.ll");
    let mut args: Vec<OsString> = [
        "-x",
        "cl",
        "-target",
        "x86_64-unknown-linux-gnu",
        "-fPIC",
        "-fno-pie",
        "-Xclang",
        "-finclude-default-header",
        "-Xclang",
        "-ffake-address-space-map",
        // Pointer overloads named as SPIR names them (`PU3AS1f` for a
        // __global float *, `Pf` for a __private one), as the builtins
        // library is compiled (build.rs): the SPIR-V translator's calls
        // and the front end's find the same definitions.
        "-Xclang",
        "-faddress-space-map-mangling=yes",
        "-cl-kernel-arg-info",
        "-emit-llvm",
        "-S",
        "-O2",
        // Unoptimized IR (with -O2's TBAA and attributes): the back end
        // optimizes once, after the kernels are rewritten, and the region
        // transform sees barriers before anything moves code across them.
        "-Xclang",
        "-disable-llvm-passes",
        "-Wno-psabi",
        // printf is ours (builtins/workitem.c): no rewriting into puts/putchar.
        "-fno-builtin-printf",
    ]
    .iter()
    .map(OsString::from)
    .chain(fe_args.iter().map(OsString::from))
    .collect();
    if !headers.is_empty() {
        args.push(format!("-I{}", dir.0.display()).into());
    }
    args.extend(["-include".into(), declarations.into()]);
    args.extend([src.into(), "-o".into(), ll.clone().into()]);
    let passes = front_end_passes(options);
    let (ok, log) = run_clang_with(clang, dir, &args, Some(&passes))?;
    // Diagnostics name the source "program.cl", not the temporary path.
    let log = log.replace(&format!("{}/", dir.0.display()), "");
    if !ok {
        return Err(BuildError::Failed(log));
    }
    let text = std::fs::read_to_string(&ll).map_err(|e| io_err("reading clang's output", e))?;
    Ok((text, log))
}

/// The front end of a SPIR-V program: the translator (llvm-spirv, a tool:
/// it is built against LLVM 15) writes the module as LLVM bitcode, which
/// the in-process LLVM reads, makes like the front end's own for the host
/// (passes/spirv_module_as_host.cpp) and runs the front end's passes on:
/// textual LLVM IR, and the log.
fn il_front_end(dir: &TempDir, il: &[u8], options: &str) -> Result<(String, String), BuildError> {
    front_end_args(options)?;
    builtins()?;
    let translator = spirv::translator().ok_or_else(|| {
        BuildError::NoCompiler(
            "ferrocl: llvm-spirv-15 (the SPIR-V translator) not found (install llvm-spirv-15, \
             or set FERROCL_LLVM_SPIRV to its path)"
                .into(),
        )
    })?;
    let spv = dir.0.join("program.spv");
    std::fs::write(&spv, il).map_err(|e| io_err("writing the module", e))?;
    let bc = dir.0.join("program.bc");
    // CL2.0: SPIR-V's instructions become calls of OpenCL C's builtins
    // (with OpenCL 2.0's atomics and work-group functions), which the
    // builtins library defines.
    let (ok, log) = run(Command::new(translator)
        .args(["-r", "--spirv-target-env=CL2.0"])
        .arg(&spv)
        .arg("-o")
        .arg(&bc))?;
    let log = log.replace(&format!("{}/", dir.0.display()), "");
    if !ok {
        return Err(BuildError::Failed(format!(
            "ferrocl: the SPIR-V module does not translate to LLVM IR (llvm-spirv):\n{log}"
        )));
    }
    let ll = dir.0.join("program.ll");
    // instsimplify: the translator builds each work-item id as a vector
    // (`insertelement` of the three dimensions, then `extractelement` of
    // one, chosen by `select i1 true`) and reads a by-value argument
    // through a `bitcast` to the same type; folded, a local id is a call of
    // get_local_id again, and a group-wide value (a SYCL accessor's
    // offset, an indexer's stride) is seen as uniform (group_uniformity.h)
    // and as affine in the local id (rematerialize.cpp). Kept in these
    // forms, every work-item's index into dpnp's reductions was read back
    // from the frame, and each load a gather.
    let passes = format!(
        "ferrocl-spirv-module-as-host,function(instsimplify),{}",
        front_end_passes(options)
    );
    let outcome = in_process()?.opt_described(&bc, None, &passes, &ll, None);
    if !outcome.ok {
        return Err(BuildError::Failed(format!(
            "ferrocl: the SPIR-V module's LLVM IR is not usable:\n{}",
            outcome.log
        )));
    }
    let text = std::fs::read_to_string(&ll).map_err(|e| io_err("reading the module's IR", e))?;
    Ok((text, log))
}

/// The passes (llvm_inprocess.cpp, passes/) that run on the front end's
/// module before anything else reads it, for the build options `options`.
fn front_end_passes(options: &str) -> String {
    // C99 inline definitions link, integer division cannot trap, relaxed
    // division by a variable keeps its precision, __local variables are
    // one per worker thread, volatile __local accesses are plain, calls
    // of the non-uniform sub-group functions stay apart, casts of pointers
    // from generic to the space they visibly came from need no test
    // (passes/).
    let mut passes = "ferrocl-inline-definitions,ferrocl-guard-division,\
                      ferrocl-exact-division,ferrocl-thread-local-locals,\
                      ferrocl-local-volatiles-as-plain,ferrocl-non-uniform-calls-apart,\
                      ferrocl-known-address-space-casts"
        .to_string();
    // What the options ask of the kernels (passes/kernel_options.cpp).
    if !has_option(options, "-cl-kernel-arg-info") {
        passes.push_str(",ferrocl-drop-kernel-arg-names");
    }
    if has_option(options, "-cl-denorms-are-zero") {
        passes.push_str(",ferrocl-flush-denormals");
    }
    if has_option(options, "-cl-opt-disable") {
        passes.push_str(",ferrocl-opt-disable");
    }
    passes
}

/// The in-process compiler. ferrocl's passes are part of the language
/// (inline definitions link, division does not trap) and a tool clang
/// cannot run them, so without it there is no compiler.
fn in_process() -> Result<&'static inprocess::Llvm, BuildError> {
    inprocess::llvm().ok_or_else(|| {
        BuildError::NoCompiler(
            "ferrocl: the in-process compiler (LLVM 19, built into libferrocl_llvm) is not \
             available (FERROCL_IN_PROCESS=0, FERROCL_CLANG set, or LLVM's development files \
             missing at build time)"
                .into(),
        )
    })
}

/// clang with `args`, inside the process (inprocess.rs); (success,
/// diagnostics). Every file the arguments name is in `dir`, so that the
/// driver's jobs serve the next build with the same arguments.
fn run_clang(clang: &Path, dir: &TempDir, args: &[OsString]) -> Result<(bool, String), BuildError> {
    run_clang_with(clang, dir, args, None)
}

/// `run_clang`, with `passes` run on the IR the front end emits.
fn run_clang_with(
    clang: &Path,
    dir: &TempDir,
    args: &[OsString],
    passes: Option<&str>,
) -> Result<(bool, String), BuildError> {
    let llvm = in_process()?;
    // The driver finds its resource directory (opencl-c.h) next to the
    // real executable, as the tool does. `clang` is clang()'s, the same
    // for the life of the process: resolved once.
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    let exe =
        EXE.get_or_init(|| std::fs::canonicalize(clang).unwrap_or_else(|_| clang.to_path_buf()));
    let argv: Vec<&OsStr> = std::iter::once(exe.as_os_str())
        .chain(args.iter().map(|a| a.as_os_str()))
        .collect();
    let (outcome, jobs) = llvm.clang(&argv, passes, Some(&dir.0));
    let mut log = outcome.log;
    if !outcome.ok {
        return Ok((false, log));
    }
    // The linker, which the in-process driver leaves to us: lld in
    // process when it can, else the job's own program.
    for job in jobs {
        let (ok, job_log) = match llvm.lld(&job[1..]) {
            Some(outcome) => (outcome.ok, outcome.log),
            None => run(Command::new(&job[0]).args(&job[1..]))?,
        };
        log.push_str(&job_log);
        if !ok {
            return Ok((false, log));
        }
    }
    Ok((true, log))
}

/// The back end: the module's IR (one program, or several linked) with the
/// builtins, optimized, to a loaded shared object. With a cache directory
/// `objects`, a program of several kernels compiles one part per kernel,
/// and the parts compiled before (object_cache.rs) are not compiled again.
fn back_end(
    dir: &TempDir,
    text: &str,
    log: String,
    entries: WorkItemEntries,
    objects: Option<&Path>,
    keep: Option<PathBuf>,
) -> Result<Executable, BuildError> {
    let clang = clang()?;
    let mut log = log;
    let ll2 = dir.0.join("kernels.ll");
    let kernels = timed("entries", || ready(dir, text, entries, &ll2, &mut log))?;
    let app_kernels = kernels
        .iter()
        .filter(|k| !blocks::is_block_kernel(&k.name))
        .count();
    let objects = objects.filter(|_| app_kernels >= 2);
    let worth_splitting = std::fs::metadata(&ll2).is_ok_and(|m| m.len() >= SPLIT_MIN_BYTES);
    let bc = dir.0.join("builtins.bc");
    // The builtins it needs and its parts, each reading the module, at
    // the same time.
    let (pruned, parts) = std::thread::scope(|scope| {
        let parts = scope.spawn(|| match (objects, worth_splitting) {
            (Some(_), _) => timed("split", || split_kernels(dir, &ll2)),
            (None, true) => timed("split", || split_module(dir, &ll2)),
            (None, false) => Vec::new(),
        });
        let pruned = timed("builtins", || write_builtins(&ll2, &bc));
        (pruned, parts.join().unwrap_or_default())
    });
    let unresolved = pruned?;
    let log_file = keep.as_deref().map(log_file_of);
    let job = BackEnd::new(dir, clang, ll2, parts, bc, objects, keep);
    if job.reused > 0 {
        let _ = writeln!(
            log,
            "ferrocl: note: the compiled code of {} of the program's {} parts (a part per \
             kernel) was reused from an earlier build",
            job.reused,
            job.objects.len()
        );
    }
    // The log goes to the cache beside the binary, for a build that finds
    // the binary there to answer CL_PROGRAM_BUILD_LOG as this one does.
    if let Some(file) = &log_file {
        keep_in_cache(file, log.as_bytes());
    }
    // In the background only what cannot fail for the program's sake: a
    // module whose every call the builtins define (pruning found all) and
    // that the verifier passed. A call to something undefined is reported
    // by the build, with the linker's words, as before. Not the process's
    // first back end (code::background_allowed says why).
    if unresolved == Some(0) && !job.todo.is_empty() && code::background_allowed() {
        let pending = PendingCode::new();
        let (owned, names) = (dir.detach(), kernels.clone());
        code::in_background(&pending, move || {
            timed("back end (background)", || job.run(&owned, &names))
        });
        return Ok(Executable::new(kernels, pending, log));
    }
    let ran = timed("back end", || job.run(dir, &kernels));
    code::back_end_ran();
    match ran {
        Ok(code) => Ok(Executable::new(kernels, PendingCode::ready(Ok(code)), log)),
        Err(why) => Err(BuildError::Failed(log + &why)),
    }
}

/// The back end's work after the module is ready and pruned: its parts
/// compiled (those the cache lacks), linked, loaded.
struct BackEnd {
    clang: &'static Path,
    module: PathBuf,
    parts: Vec<PathBuf>,
    builtins: PathBuf,
    /// The object cache (object_cache.rs), when parts are kept there.
    cache: Option<PathBuf>,
    /// Each part's object file (the whole module's when there are no
    /// parts), and its cache key.
    objects: Vec<PathBuf>,
    keys: Vec<Option<u128>>,
    /// The parts to compile (the others' objects came from the cache).
    todo: Vec<usize>,
    reused: usize,
    /// The program cache's file for the binary, once made.
    keep: Option<PathBuf>,
}

impl BackEnd {
    /// The job for the module `module` of `dir` and its `parts`, with the
    /// objects that `cache` has already written.
    fn new(
        dir: &TempDir,
        clang: &'static Path,
        module: PathBuf,
        parts: Vec<PathBuf>,
        builtins: PathBuf,
        cache: Option<&Path>,
        keep: Option<PathBuf>,
    ) -> BackEnd {
        if parts.is_empty() {
            return BackEnd {
                clang,
                module,
                parts,
                builtins,
                cache: None,
                objects: vec![dir.0.join("kernels.o")],
                keys: vec![None],
                todo: vec![0],
                reused: 0,
                keep,
            };
        }
        let objects: Vec<PathBuf> = (0..parts.len())
            .map(|i| dir.0.join(format!("part{i}.o")))
            .collect();
        // Each part's key, and the parts whose object the cache has.
        let keys: Vec<Option<u128>> = parts
            .iter()
            .map(|p| cache.and_then(|_| std::fs::read(p).ok().map(|b| object_key(&b))))
            .collect();
        let mut todo = Vec::new();
        for (i, key) in keys.iter().enumerate() {
            let found = cache.zip(*key).and_then(|(c, k)| object_cache::find(c, k));
            match found.map(|o| std::fs::write(&objects[i], o)) {
                Some(Ok(())) => {}
                _ => todo.push(i),
            }
        }
        BackEnd {
            clang,
            module,
            reused: parts.len() - todo.len(),
            parts,
            builtins,
            cache: cache.map(Path::to_path_buf),
            objects,
            keys,
            todo,
            keep,
        }
    }

    /// Compiles, links and loads, in `dir`, the code of `kernels`; the
    /// back end's log when it fails.
    fn run(&self, dir: &TempDir, kernels: &[KernelInfo]) -> Result<Code, String> {
        let compiled = timed("compile", || self.compile(dir)).map_err(|e| e.log().to_string())?;
        let (mut ok, mut link_log) = compiled;
        let so = dir.0.join("program.so");
        if ok {
            (ok, link_log) = timed("link", || link_objects(self.clang, dir, &self.objects, &so))
                .map_err(|e| e.log().to_string())?;
        }
        if !ok {
            let missing = undefined_builtins(&link_log);
            return Err(match missing.is_empty() {
                true => format!("ferrocl: the back end failed:\n{link_log}"),
                false => missing.join("\n") + "\n",
            });
        }
        let so_bytes = std::fs::read(&so)
            .map_err(|e| io_err("reading the shared object", e).log().to_string())?;
        let bin = binary::encode(kernels, &so_bytes);
        if let Some(file) = &self.keep {
            keep_in_cache(file, &bin);
        }
        timed("load", || binary::load_so(kernels, bin, &so))
    }

    /// The compile step: each part to compile on the cores, or, without
    /// parts, the whole module; the parts compiled kept in the object
    /// cache. (Whether all compiled, the back end's messages.)
    fn compile(&self, dir: &TempDir) -> Result<(bool, String), BuildError> {
        if self.parts.is_empty() {
            return back_end_compile(
                self.clang,
                dir,
                &self.module,
                &self.builtins,
                &self.objects[0],
            );
        }
        let results = compile_parts(&self.todo, |i| {
            back_end_compile(
                self.clang,
                dir,
                &self.parts[i],
                &self.builtins,
                &self.objects[i],
            )
        });
        let (mut all_ok, mut logs) = (true, String::new());
        for (&i, result) in self.todo.iter().zip(results) {
            let (ok, log) = result?;
            all_ok &= ok;
            logs.push_str(&log);
            if let (true, Some(c), Some(k)) = (ok, &self.cache, self.keys[i]) {
                if let Ok(bytes) = std::fs::read(&self.objects[i]) {
                    object_cache::keep(c, k, &bytes);
                }
            }
        }
        Ok((all_ok, logs))
    }
}

/// The back end's link step: the objects `objects` to the shared object
/// `so`: (success, the log). With the system libraries (libm, libc,
/// libgcc) when the objects refer to a symbol none of them defines, else
/// without: most programs need nothing from them (the builtins library
/// defines what kernels call), and searching and reading them was most of
/// the linker's work.
fn link_objects(
    clang: &Path,
    dir: &TempDir,
    objects: &[PathBuf],
    so: &Path,
) -> Result<(bool, String), BuildError> {
    let paths: Vec<&Path> = objects.iter().map(PathBuf::as_path).collect();
    let self_contained =
        inprocess::llvm().and_then(|llvm| llvm.undefined_symbols(&paths)) == Some(0);
    let libraries: &[&str] = match self_contained {
        true => &["-nostdlib"],
        false => &["-lmvec", "-lm"],
    };
    let args: Vec<OsString> = [
        "-target",
        "x86_64-unknown-linux-gnu",
        "-shared",
        "-Wl,--no-undefined",
        "-nostartfiles",
    ]
    .iter()
    .map(OsString::from)
    .chain(objects.iter().map(OsString::from))
    .chain(["-o".into(), so.into()])
    .chain(libraries.iter().map(OsString::from))
    .collect();
    run_clang(clang, dir, &args)
}

/// A module of less IR text than this compiles whole: each part pays the
/// back end's fixed costs (pipeline and code generator set-up, the
/// builtins it needs, a driver run, a thread), which for the small
/// programs of the Khronos CTS (about 15 KiB, one kernel) cost more than
/// the second core saves (37 against 44 ms of CPU a build). The SGEMM
/// benchmark's two kernels are 126 KiB.
const SPLIT_MIN_BYTES: u64 = 64 << 10;

/// The module in `module` split into parts to compile on all cores at
/// once (inprocess.rs's `split`); none when it stays whole.
fn split_module(dir: &TempDir, module: &Path) -> Vec<PathBuf> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut parts: Vec<PathBuf> = (0..cores.min(MAX_PARTS))
        .map(|i| dir.0.join(format!("part{i}.bc")))
        .collect();
    let count = match inprocess::llvm() {
        // A module that cannot be split compiles whole; one that is
        // invalid fails there, with the back end's message.
        Some(llvm) if parts.len() > 1 => llvm.split(module, &parts),
        _ => 0,
    };
    parts.truncate(count);
    parts
}

/// The module in `module` split into one part per kernel (inprocess.rs's
/// `split_kernels`), the unit of reuse of compiled code; none when it
/// stays whole.
fn split_kernels(dir: &TempDir, module: &Path) -> Vec<PathBuf> {
    let mut parts: Vec<PathBuf> = (0..MAX_KERNEL_PARTS)
        .map(|i| dir.0.join(format!("part{i}.bc")))
        .collect();
    let count = inprocess::llvm().map_or(0, |llvm| llvm.split_kernels(module, &parts));
    parts.truncate(count);
    parts
}

/// At most this many parts when split per kernel (the splitter's limit).
const MAX_KERNEL_PARTS: usize = 64;

/// One part's back-end compile: (success, the log).
type PartCompiled = Result<(bool, String), BuildError>;

/// `compile(i)` for each of `todo`, on as many threads as there are cores
/// (each part's back end is one thread's work): the results in `todo`'s
/// order.
fn compile_parts(
    todo: &[usize],
    compile: impl Fn(usize) -> PartCompiled + Sync,
) -> Vec<PartCompiled> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = AtomicU64::new(0);
    let results: Vec<Mutex<Option<PartCompiled>>> = todo.iter().map(|_| Mutex::new(None)).collect();
    let work = || loop {
        let n = next.fetch_add(1, Ordering::Relaxed) as usize;
        let Some(&i) = todo.get(n) else { break };
        let result = compile(i);
        *results[n].lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
    };
    std::thread::scope(|scope| {
        for _ in 0..cores.min(todo.len()) {
            // LLVM's passes recurse; as much stack as a main thread. A
            // thread that cannot start leaves its share to the others.
            let _ = std::thread::Builder::new()
                .stack_size(8 << 20)
                .spawn_scoped(scope, work);
        }
    });
    // Parts no thread took (none could start) are compiled here.
    results
        .into_iter()
        .enumerate()
        .map(|(n, r)| {
            r.into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .unwrap_or_else(|| compile(todo[n]))
        })
        .collect()
}

/// The cache key of the object compiled from the part `bitcode`: the
/// compiler's environment and the part.
fn object_key(bitcode: &[u8]) -> u128 {
    let mut h = Fnv::new();
    h.add(&environment_key().to_le_bytes());
    h.add(b"back end object");
    h.add(bitcode);
    h.0
}

/// At most this many parts (and back-end threads) per build.
const MAX_PARTS: usize = 8;

/// One back-end compile: the module in `module`, with what it needs of the
/// builtins in `builtins`, optimized to the object file `object`:
/// (success, the log).
fn back_end_compile(
    clang: &Path,
    dir: &TempDir,
    module: &Path,
    builtins: &Path,
    object: &Path,
) -> Result<(bool, String), BuildError> {
    let args: Vec<OsString> = [
        "-target",
        "x86_64-unknown-linux-gnu",
        "-O3",
        "-march=native",
        "-fPIC",
        "-c",
        "-Wno-override-module",
        // Loops start on a cache line: the barrier reduction ran at 28 or
        // 44 GB/s depending only on where its object's code began.
        "-falign-loops=64",
        // sin, cos, tan, exp, log and pow in a vectorized loop call glibc's
        // vector versions (libmvec, within OpenCL's bounds: see
        // builtins/README.md) instead of keeping the loop scalar around
        // one libm call per lane.
        "-fveclib=libmvec",
    ]
    .iter()
    .map(OsString::from)
    .chain([
        module.into(),
        "-Xclang".into(),
        "-mlink-builtin-bitcode".into(),
        "-Xclang".into(),
        builtins.into(),
        "-o".into(),
        object.into(),
    ])
    // FERROCL_BACK_END_OPTIONS: more clang options for this step, for
    // whoever studies its time (`-ftime-report`).
    .chain(back_end_options())
    .collect();
    run_clang(clang, dir, &args)
}

/// FERROCL_BACK_END_OPTIONS split at spaces; none when unset.
fn back_end_options() -> Vec<OsString> {
    std::env::var("FERROCL_BACK_END_OPTIONS")
        .map(|v| v.split_whitespace().map(OsString::from).collect())
        .unwrap_or_default()
}

/// Writes the builtins library for the module in `module` to `path`: when
/// in process, only what the module needs of it (the back end links only
/// that anyway, and reading all 11,000 functions of the library took most
/// of a build), else all of it. How many names the module needs that the
/// library does not define, when pruned (None: the whole library).
fn write_builtins(module: &Path, path: &Path) -> Result<Option<usize>, BuildError> {
    let library = builtins()?;
    if let Some(llvm) = inprocess::llvm() {
        match llvm.prune(module, path) {
            inprocess::Pruned::Done { unresolved } => return Ok(Some(unresolved)),
            // The tool would crash on it or reject it; in process it
            // must not get it.
            inprocess::Pruned::InvalidModule(log) => {
                return Err(BuildError::Failed(format!(
                    "ferrocl: the back end failed:\n{log}"
                )))
            }
            inprocess::Pruned::Failed => {}
        }
    }
    std::fs::write(path, library).map_err(|e| io_err("writing builtins", e))?;
    Ok(None)
}

/// Which kernels get a work-item entry that runs the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkItemEntries {
    /// Those the executor runs work-item by work-item: kernels without a
    /// work-group entry (the others' only traps:
    /// passes/work_item_entries.cpp).
    WhereRun,
    /// Every kernel (tests compare work-group entries with them).
    #[cfg(test)]
    All,
}

/// The whole program ready for the back end, written to `output`, and its
/// kernels: its definitions of what only the whole program knows
/// (PROGRAM_PASSES), where the region pipeline succeeds its kernels with
/// barriers cut into regions (REGIONS_PIPELINE, `ferrocl-region-entries`),
/// and its entries (ENTRIES_PIPELINE). Where the region passes fail, kernels
/// with barriers run on fibers, and the log says so.
fn ready(
    dir: &TempDir,
    text: &str,
    entries: WorkItemEntries,
    output: &Path,
    log: &mut String,
) -> Result<Vec<KernelInfo>, BuildError> {
    let entries = match entries {
        WorkItemEntries::WhereRun => ENTRIES_PIPELINE.to_string(),
        #[cfg(test)]
        WorkItemEntries::All => {
            ENTRIES_PIPELINE.replace("ferrocl-work-item-entries", "ferrocl-all-work-item-entries")
        }
    };
    // Calls of the collective functions linked below as they define them
    // (passes/calls_as_defined.cpp: a SPIR-V module's calls pass vectors as
    // SPIR does), so that the inliner can inline them.
    let full = format!(
        "ferrocl-calls-as-defined,{WAITING_LOOPS},{PROGRAM_PASSES},{REGIONS_PIPELINE},\
         ferrocl-region-entries,{entries}"
    );
    // The work-group and sub-group collective functions' bodies
    // (builtins/lib/collective.cl) for the passes to inline: their waits
    // become the kernel's barriers.
    let collectives = (!COLLECTIVES.is_empty()).then_some(COLLECTIVES);
    let description = match opt_with(dir, text, collectives, &full, output) {
        Ok(description) => description,
        Err(why) => {
            let _ = writeln!(
                log,
                "ferrocl: note: the region passes failed on this program, so its kernels \
                 with barriers run one fiber per work-item, correctly but more slowly:\n{why}"
            );
            let plain =
                format!("ferrocl-calls-as-defined,{WAITING_LOOPS},{PROGRAM_PASSES},{entries}");
            opt_with(dir, text, None, &plain, output).map_err(|why| {
                BuildError::Failed(format!("{log}ferrocl: the back end failed:\n{why}"))
            })?
        }
    };
    let (kernels, notes) = binary::parse_description(&description).map_err(BuildError::Failed)?;
    // cl_intel_required_subgroup_size: a kernel that requires sub-groups of
    // a size the device does not make cannot keep its promise.
    for k in &kernels {
        let size = k.required_sub_group_size;
        if size != 0 && !abi::SUB_GROUP_SIZES.contains(&size) {
            return Err(BuildError::Failed(format!(
                "{log}ferrocl: kernel `{}` requires sub-groups of {size} work-items \
                 (intel_reqd_sub_group_size); this device's have {:?} \
                 (CL_DEVICE_SUB_GROUP_SIZES_INTEL)\n",
                k.name,
                abi::SUB_GROUP_SIZES
            )));
        }
    }
    for note in notes {
        log.push_str(&note);
        log.push('\n');
    }
    Ok(kernels)
}

/// What every program defines about its own memory, computed on the whole
/// program (after clLinkProgram): `__ferrocl_is_local_variable` (for
/// to_local and get_fence) and `__ferrocl_global_variables_size`
/// (CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE).
const PROGRAM_PASSES: &str = "ferrocl-local-variable-test,ferrocl-global-variables-size";

/// Loops that may wait for another work-item of their group call the
/// progress point each iteration (passes/progress_in_waiting_loops.cpp),
/// which runs their kernels on fibers that give way there: sub-groups'
/// independent forward progress. On the whole program, before inlining.
const WAITING_LOOPS: &str = "ferrocl-progress-in-waiting-loops";

/// The passes that make a module ready for the region transform, in their
/// order (src/compiler/passes/, each file says why):
/// - `ferrocl-sub-group-ids-from-local-ids`: the sub-group queries computed
///   from the local linear id and the group's size, which the region
///   transform knows;
/// - `ferrocl-inline-into-kernels` marks what reaches a barrier or a
///   work-item function `alwaysinline`, and the module when it has kernels
///   to cut into regions (barriers, work-group functions, or loops carrying
///   floating-point values); `always-inline` and `sroa` do the inlining;
/// - `ferrocl-non-uniform-calls-together`: a non-uniform sub-group
///   function called where the whole group runs together is inlined with
///   collective waits (and marks the module);
/// - on a marked module only (`ferrocl-if-regions`):
///   - `ferrocl-branches-as-selects`: `c ? x : y`, a branch of two short
///     ways and a phi, as a select (computed again where used, not kept
///     in the frame; no region ends at it);
///   - `ferrocl-power-of-two-remainders`: `tid % (2 * s) == 0` as a test
///     of low bits while the loop still shows that s doubles;
///   - `ferrocl-grid-stride-loops`: `for (i = start + lid; i < n; i +=
///     global_size)` with one counter for the group, the test guarding
///     the body;
///   - `ferrocl-loops-out-of-guards`: uniform loops behind a work-item's
///     bounds check run by all work-items, their bodies guarded instead;
///   - `ferrocl-mark-loops-for-unrolling`: the loops that will get implicit
///     barriers unrolled first, by `loop-unroll` (only those, only then);
///   - `ferrocl-drop-needless-barriers`: a barrier that orders no memory
///     access of one work-item against another's is removed (DPC++'s
///     sub-group loads into private arrays);
///   - `ferrocl-collective-waits-as-barriers`: an inlined work-group
///     function's wait is a barrier of the kernel, and so is a sub-group
///     function's or sub_group_barrier where the whole group runs it, or
///     in a kernel whose only waits are its sub-groups' (its regions then
///     run a sub-group at a time);
///   - `ferrocl-uniform-counters` and `ferrocl-cut-uniform-branches` in
///     kernels with barriers, `ferrocl-implicit-barriers` in the others;
///   - `ferrocl-loops-out-of-guards` and `ferrocl-implicit-barriers` again:
///     a loop nested in one that now has implicit barriers (kmeans' loop
///     over the features in its loop over the clusters) gets them too;
///   - `ferrocl-cut-uniform-ifs-in-loops`: an `if` on a uniform value in
///     such a loop's body ends its region (mri-q);
///   - `ferrocl-isolate-barriers`: each barrier alone in a block;
///   - `ferrocl-rematerialize`: cheap values computed again where used;
///   - `ferrocl-scalarize-kernels`: vector values split into scalars (the
///     work-item loops vectorize scalar code only: a float4 becomes four
///     vectors of lanes), except in kernels that are wide vector code;
///   - `reg2mem`: values used across blocks demoted to allocas.
const REGIONS_PIPELINE: &str = concat!(
    "ferrocl-sub-group-ids-from-local-ids,",
    "ferrocl-inline-into-kernels,always-inline,function(sroa),",
    "ferrocl-non-uniform-calls-together,",
    "ferrocl-if-regions(",
    "function(ferrocl-branches-as-selects,ferrocl-power-of-two-remainders),",
    "ferrocl-grid-stride-loops,ferrocl-loops-out-of-guards,ferrocl-mark-loops-for-unrolling,",
    "ferrocl-if-unrolling(function(loop-simplify,lcssa,",
    "loop-unroll<O3;no-partial;no-peeling;no-runtime;full-unroll-max=0>)),",
    "ferrocl-drop-needless-barriers,ferrocl-collective-waits-as-barriers,",
    "ferrocl-uniform-counters,ferrocl-cut-uniform-branches,ferrocl-implicit-barriers,",
    "ferrocl-loops-out-of-guards,ferrocl-implicit-barriers,ferrocl-cut-uniform-ifs-in-loops,",
    "ferrocl-isolate-barriers,ferrocl-rematerialize,",
    "function(ferrocl-scalarize-kernels,reg2mem))"
);

/// The entries every kernel gets, and the module made ready for the host's
/// back end (src/compiler/passes/, each file says why):
/// - `ferrocl-work-group-entries`: a work-group entry running the
///   barrier-free kernels in work-item loops (the region kernels got theirs
///   from `ferrocl-region-entries`);
/// - `ferrocl-work-item-entries`: each kernel's work-item entry;
/// - `ferrocl-block-kernel-entries`: an enqueued block's kernel known by its
///   work-item entry;
/// - `ferrocl-host-calling-convention`: the host's calling convention,
///   internal definitions, no target attributes, one set of forbidden
///   builtins (so that the inliner may inline any function into any).
const ENTRIES_PIPELINE: &str = concat!(
    "ferrocl-work-group-entries,ferrocl-work-item-entries,",
    "ferrocl-block-kernel-entries,ferrocl-host-calling-convention"
);

/// LLVM's `opt` running `passes` on a module, with what it needs of the
/// collective functions in the bitcode `collectives` linked in
/// first (inprocess.rs), writing the result to `output`: the kernels'
/// description (passes/kernel_description.h), or the reason (LLVM's
/// messages) it failed.
fn opt_with(
    dir: &TempDir,
    text: &str,
    collectives: Option<&[u8]>,
    passes: &str,
    output: &Path,
) -> Result<String, String> {
    let step = passes.split([',', '(']).next().unwrap_or("opt");
    timed(step, || {
        let input = dir.0.join(format!("{step}.in.ll"));
        std::fs::write(&input, text).map_err(|e| format!("writing IR: {e}"))?;
        let llvm = inprocess::llvm().ok_or("no in-process compiler")?;
        let mut description = String::new();
        let outcome =
            llvm.opt_described(&input, collectives, passes, output, Some(&mut description));
        match outcome.ok {
            true => Ok(description),
            false => Err(outcome.log),
        }
    })
}

/// clCompileProgram: source (and headers; a SPIR-V module has none) to a
/// compiled object.
pub fn compile_object(
    input: Input,
    options: &str,
    headers: &[(String, String)],
) -> Result<Object, BuildError> {
    in_temp_dir(|dir| {
        let (ir, log) = match input {
            Input::Source(source) => front_end(dir, source, options, headers)?,
            Input::SpirV(il) => il_front_end(dir, il, options)?,
        };
        Ok(Object {
            kind: ObjectKind::Compiled,
            ir,
            log,
        })
    })
}

/// The options clLinkProgram takes: (create a library, the log's notes).
fn link_args(options: &str) -> Result<bool, BuildError> {
    const ACCEPT: &[&str] = &[
        "-enable-link-options",
        "-cl-denorms-are-zero",
        "-cl-no-signed-zeros",
        "-cl-unsafe-math-optimizations",
        "-cl-finite-math-only",
        "-cl-fast-relaxed-math",
        "-cl-no-subgroup-ifp",
    ];
    let mut library = false;
    for t in tokenize(options) {
        if t == "-create-library" {
            library = true;
        } else if !ACCEPT.contains(&t.as_str()) {
            return Err(BuildError::Options(format!(
                "ferrocl: unknown link option {t}"
            )));
        }
    }
    Ok(library)
}

/// Checks link options without linking (CL_INVALID_LINKER_OPTIONS).
pub fn check_link_options(options: &str) -> Result<(), BuildError> {
    link_args(options).map(|_| ())
}

/// clLinkProgram: compiled objects and libraries to a library
/// (-create-library) or an executable. Linking is llvm-link on their IR,
/// then the back end for an executable.
pub fn link(objects: &[&Object], options: &str) -> Result<Linked, BuildError> {
    let library = link_args(options)?;
    builtins()?;
    in_temp_dir(|dir| link_in(dir, objects, options, library))
}

/// `link` in the directory `dir`; `library`: -create-library.
fn link_in(
    dir: &TempDir,
    objects: &[&Object],
    options: &str,
    library: bool,
) -> Result<Linked, BuildError> {
    let mut inputs = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        let p = dir.0.join(format!("input{i}.ll"));
        std::fs::write(&p, &o.ir).map_err(|e| io_err("writing a linker input", e))?;
        inputs.push(p);
    }
    let linked = dir.0.join("linked.ll");
    let inputs: Vec<&Path> = inputs.iter().map(|p| p.as_path()).collect();
    let outcome = in_process()?.link(&inputs, &linked);
    let (ok, log) = (outcome.ok, outcome.log);
    let log = log.replace(&format!("{}/", dir.0.display()), "");
    if !ok {
        return Err(BuildError::Failed(format!(
            "ferrocl: linking failed:\n{log}"
        )));
    }
    let ir = std::fs::read_to_string(&linked).map_err(|e| io_err("reading the linked IR", e))?;
    // -cl-denorms-are-zero is a link option too: then every kernel
    // flushes, whatever its compile asked.
    let ir = match has_option(options, "-cl-denorms-are-zero") {
        true => {
            let flushed = dir.0.join("flushed.ll");
            opt_with(dir, &ir, None, "ferrocl-flush-denormals", &flushed)
                .and_then(|_| std::fs::read_to_string(&flushed).map_err(|e| e.to_string()))
                .map_err(|why| {
                    BuildError::Failed(format!(
                        "ferrocl: marking the kernels to flush denormals failed:\n{why}"
                    ))
                })?
        }
        false => ir,
    };
    if library {
        return Ok(Linked::Library(Object {
            kind: ObjectKind::Library,
            ir,
            log,
        }));
    }
    let objects = default_cache_dir();
    back_end(
        dir,
        &ir,
        log,
        WorkItemEntries::WhereRun,
        objects.as_deref(),
        None,
    )
    .map(Linked::Executable)
}

/// What the cache key covers besides source and options: the compiler
/// binary, ferrocl's compiler sources and builtins, and the host CPU (code
/// is -march=native).
fn environment_key() -> u128 {
    static KEY: OnceLock<u128> = OnceLock::new();
    *KEY.get_or_init(|| {
        let mut h = Fnv::new();
        h.add(env!("CARGO_PKG_VERSION").as_bytes());
        h.add(env!("FERROCL_COMPILER_HASH").as_bytes());
        h.add(BUILTINS);
        if let Ok(c) = clang() {
            h.add(c.as_os_str().as_encoded_bytes());
            if let Ok(m) = std::fs::metadata(c) {
                h.add(&m.len().to_le_bytes());
                if let Ok(t) = m.modified() {
                    h.add(format!("{t:?}").as_bytes());
                }
            }
        }
        // What kernels are told the device has (FERROCL_IMAGES=0 takes
        // images away, the kernel clock depends on the CPU).
        for (name, _) in crate::opencl_c_extensions()
            .into_iter()
            .chain(crate::opencl_c_features())
        {
            h.add(name.as_bytes());
        }
        if let Ok(cpu) = std::fs::read_to_string("/proc/cpuinfo") {
            for l in cpu
                .lines()
                .filter(|l| l.starts_with("model name") || l.starts_with("flags"))
                .take(2)
            {
                h.add(l.as_bytes());
            }
        }
        h.0
    })
}

/// FNV-1a, 128-bit: stable across runs and Rust versions.
struct Fnv(u128);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0x6c62272e07bb014262b821756295c58d)
    }
    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u128;
            self.0 = self.0.wrapping_mul(0x0000000001000000000000000000013B);
        }
        // Length-delimit each part.
        for &b in &(bytes.len() as u64).to_le_bytes() {
            self.0 ^= b as u128;
            self.0 = self.0.wrapping_mul(0x0000000001000000000000000000013B);
        }
    }
}

/// The default cache directory: FERROCL_CACHE_DIR (empty disables the
/// cache), else $XDG_CACHE_HOME/ferrocl, else ~/.cache/ferrocl.
pub fn default_cache_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("FERROCL_CACHE_DIR") {
        return (!d.is_empty()).then(|| PathBuf::from(d));
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")))?;
    Some(base.join("ferrocl"))
}

/// Builds through the on-disk cache in `cache` (None: no cache).
pub fn build_cached(
    input: Input,
    options: &str,
    cache: Option<&Path>,
) -> Result<Executable, BuildError> {
    // Bad options are reported before any cache lookup.
    front_end_args(options)?;
    let Some(dir) = cache else {
        return compile_in(input, options, WorkItemEntries::WhereRun, None, None);
    };
    let mut h = Fnv::new();
    h.add(&environment_key().to_le_bytes());
    match input {
        Input::Source(source) => h.add(source.as_bytes()),
        Input::SpirV(il) => {
            // Apart from any source of the same bytes, and keyed on the
            // translator that read it.
            h.add(b"SPIR-V");
            h.add(spirv::translator().map_or(&b""[..], |p| p.as_os_str().as_encoded_bytes()));
            h.add(il);
        }
    }
    h.add(options.as_bytes());
    let file = dir.join(format!("{:032x}.fcl", h.0));
    if let Ok(bytes) = std::fs::read(&file) {
        if let Ok(mut exe) = Executable::load(&bytes) {
            // The notes and warnings of the build that made it.
            exe.log = std::fs::read_to_string(log_file_of(&file)).unwrap_or_default();
            return Ok(exe);
        }
    }
    // The binary goes to the cache once the back end made it.
    compile_in(
        input,
        options,
        WorkItemEntries::WhereRun,
        Some(dir),
        Some(file),
    )
}

/// The cache file of the build log of the program binary in `file`.
fn log_file_of(file: &Path) -> PathBuf {
    file.with_extension("log")
}

/// Writes the program binary (or its log) `binary` to the cache file
/// `file`: whole under a temporary name, then renamed, so that readers
/// never see half a file. A cache that cannot be written is no error.
fn keep_in_cache(file: &Path, binary: &[u8]) {
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let (Some(dir), Some(name)) = (file.parent(), file.file_name()) else {
        return;
    };
    if std::fs::create_dir_all(dir).is_ok() {
        let n = WRITES.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(
            ".{}.{}.{n}.tmp",
            name.to_string_lossy(),
            std::process::id()
        ));
        if std::fs::write(&tmp, binary)
            .and_then(|()| std::fs::rename(&tmp, file))
            .is_err()
        {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}

/// Writes `bytes` to a temporary file and calls `f` with its path.
pub fn with_temp_file<T>(
    name: impl AsRef<OsStr>,
    bytes: &[u8],
    f: impl FnOnce(&Path) -> T,
) -> Result<T, String> {
    let dir = TempDir::new().map_err(|e| format!("ferrocl: temporary directory: {e}"))?;
    let p = dir.0.join(name.as_ref());
    std::fs::write(&p, bytes).map_err(|e| format!("ferrocl: writing {}: {e}", p.display()))?;
    Ok(f(&p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_whose_directory_vanished_runs_again() {
        let calls = std::cell::Cell::new(0);
        let result = in_temp_dir(|dir| {
            calls.set(calls.get() + 1);
            if calls.get() == 1 {
                // Another process cleans the temporary directory.
                std::fs::remove_dir_all(&dir.0).unwrap();
                return Err(BuildError::Failed("reading clang's output".into()));
            }
            Ok(dir.0.is_dir())
        });
        assert!(result.unwrap());
        assert_eq!(calls.get(), 2);
        // A build that fails with its directory still there fails once.
        calls.set(0);
        assert!(in_temp_dir(|_| -> Result<(), _> {
            calls.set(calls.get() + 1);
            Err(BuildError::Failed("a compile error".into()))
        })
        .is_err());
        assert_eq!(calls.get(), 1);
    }
}
