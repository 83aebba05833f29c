//! An executable's machine code: the loaded shared object and its entries,
//! ready now or still being compiled by a build's back end in the
//! background (driver.rs's `back_end`).
//!
//! Why in the background: the back end (LLVM's optimizer and code
//! generator) is most of a build's time, and an application does other
//! work between clBuildProgram and its first launch (creating buffers,
//! filling them). The build returns once everything that can fail has
//! been checked; whoever needs the code (a launch, CL_PROGRAM_BINARIES)
//! waits for it.

use std::sync::{Arc, Condvar, Mutex, OnceLock};

use super::abi;

/// The loaded machine code of a program.
pub struct Code {
    /// What CL_PROGRAM_BINARIES returns and clCreateProgramWithBinary takes.
    pub binary: Vec<u8>,
    entries: Vec<abi::WorkItemEntry>,
    /// Per kernel, its work-group entry if it has one.
    group_entries: Vec<Option<abi::WorkGroupEntry>>,
    /// The loaded shared object the entries point into (None for
    /// hand-assembled executables). Kept for as long as the entries.
    _library: Option<libloading::Library>,
    /// Bytes of the program-scope global variables, which live in this
    /// executable's own copy of the loaded object
    /// (CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE).
    pub global_variables_size: usize,
}

impl Code {
    /// Code of `entries` (one per kernel) in `library`.
    pub fn new(
        binary: Vec<u8>,
        entries: Vec<abi::WorkItemEntry>,
        group_entries: Vec<Option<abi::WorkGroupEntry>>,
        library: Option<libloading::Library>,
        global_variables_size: usize,
    ) -> Code {
        assert_eq!(entries.len(), group_entries.len());
        Code {
            binary,
            entries,
            group_entries,
            _library: library,
            global_variables_size,
        }
    }

    /// The work-item entry of kernel `index`.
    pub fn entry(&self, index: usize) -> abi::WorkItemEntry {
        self.entries[index]
    }

    /// The work-group entry of kernel `index`, if it has one (then the
    /// executor calls it once per work-group instead of `entry` per
    /// work-item).
    pub fn group_entry(&self, index: usize) -> Option<abi::WorkGroupEntry> {
        self.group_entries[index]
    }

    /// The kernel whose work-item entry is at `address` (what
    /// `__enqueue_kernel_*` receives for a block).
    pub fn kernel_of_entry(&self, address: usize) -> Option<usize> {
        self.entries.iter().position(|&e| e as usize == address)
    }
}

/// The code, or why the back end could not make it (its log).
pub type CodeResult = Result<Code, String>;

/// Code that is ready, or that a background job sets once.
#[derive(Clone)]
pub struct PendingCode(Arc<OnceLock<CodeResult>>);

impl PendingCode {
    /// Code not made yet: `set` makes it.
    pub fn new() -> PendingCode {
        PendingCode(Arc::new(OnceLock::new()))
    }

    /// Code ready now.
    pub fn ready(code: CodeResult) -> PendingCode {
        PendingCode(Arc::new(OnceLock::from(code)))
    }

    /// Makes the code; called once (a second call changes nothing).
    pub fn set(&self, code: CodeResult) {
        let _ = self.0.set(code);
    }

    /// The code, waiting for the back end if it is still compiling.
    pub fn wait(&self) -> Result<&Code, &str> {
        self.0.wait().as_ref().map_err(String::as_str)
    }
}

/// The back-end jobs of this process: how many are in flight (started or
/// waiting for a turn), how many run, and whether the process is exiting.
struct Jobs {
    in_flight: usize,
    running: usize,
    exiting: bool,
    /// Whether a back end has run to its end in this process (below).
    warm: bool,
    /// How many times the exit wait was registered (below).
    registered: usize,
}

static JOBS: (Mutex<Jobs>, Condvar) = (
    Mutex::new(Jobs {
        in_flight: 0,
        running: 0,
        exiting: false,
        warm: false,
        registered: 0,
    }),
    Condvar::new(),
);

fn jobs() -> std::sync::MutexGuard<'static, Jobs> {
    JOBS.0.lock().unwrap_or_else(|e| e.into_inner())
}

/// Whether a back end may run in the background now: once one has run to
/// its end on a thread the application waited for (`back_end_ran`).
///
/// Why: LLVM's code generator and lld build some of their tables on
/// first use, in function-local statics whose destructors the C runtime
/// runs at exit, newest first. A background job at exit must be waited
/// for before any of those run; the wait is an exit handler too, so it
/// must be registered after them. The first back end of the process
/// builds them (a build of the whole corpus registered 64 such
/// destructors in its first back end and one more in the 35 after it);
/// it runs synchronously, and the wait is registered again as each job
/// starts and ends.
pub fn background_allowed() -> bool {
    jobs().warm
}

/// A back end has run to its end on the application's thread.
pub fn back_end_ran() {
    let mut jobs = jobs();
    jobs.warm = true;
    register_exit_wait(&mut jobs);
}

/// Registers the exit wait (again: the newest handler runs first). At
/// most `MAX_REGISTRATIONS` times, each an entry of the C runtime's list.
fn register_exit_wait(jobs: &mut Jobs) {
    const MAX_REGISTRATIONS: usize = 1024;
    if jobs.exiting || jobs.registered >= MAX_REGISTRATIONS {
        return;
    }
    jobs.registered += 1;
    // SAFETY: registers a function that takes no arguments and does not
    // unwind (it only waits on a lock and condition variable).
    unsafe { libc::atexit(wait_for_background_jobs) };
}

/// Runs `job` on a thread of its own, which sets `pending`; on this thread
/// when no thread can start. At most as many jobs run at once as there are
/// cores (each compiles its parts on the cores too); the others wait their
/// turn, and at exit those not started give up, their code an error.
/// `job` must not panic (a panic is caught and its code an error).
pub fn in_background(pending: &PendingCode, job: impl FnOnce() -> CodeResult + Send + 'static) {
    {
        let mut jobs = jobs();
        jobs.in_flight += 1;
        register_exit_wait(&mut jobs);
    }
    let done = pending.clone();
    let job = move || {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let turn = {
            let mut jobs = jobs();
            while jobs.running >= cores && !jobs.exiting {
                jobs = JOBS.1.wait(jobs).unwrap_or_else(|e| e.into_inner());
            }
            jobs.running += usize::from(!jobs.exiting);
            !jobs.exiting
        };
        let code = match turn {
            // A panic still sets the code (as a failure) and ends the job.
            true => std::panic::catch_unwind(std::panic::AssertUnwindSafe(job))
                .unwrap_or_else(|_| Err("ferrocl: the back end failed (internal error)".into())),
            false => Err("ferrocl: the back end did not run: the process is exiting".into()),
        };
        done.set(code);
        let mut jobs = jobs();
        jobs.running -= usize::from(turn);
        jobs.in_flight -= 1;
        register_exit_wait(&mut jobs);
        JOBS.1.notify_all();
    };
    // LLVM's passes recurse: as much stack as a main thread.
    let thread = std::thread::Builder::new()
        .name("ferrocl-back-end".into())
        .stack_size(8 << 20);
    // A thread that cannot start gives back its closure only by running
    // here: spawn it on a closure we keep a handle to.
    let slot = Arc::new(Mutex::new(Some(job)));
    let theirs = slot.clone();
    let spawned = thread.spawn(move || {
        let job = theirs.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(job) = job {
            job();
        }
    });
    if spawned.is_err() {
        let job = slot.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(job) = job {
            job();
        }
    }
}

/// The exit handler: jobs not started give up, those running are waited
/// for.
extern "C" fn wait_for_background_jobs() {
    let mut jobs = jobs();
    jobs.exiting = true;
    JOBS.1.notify_all();
    while jobs.in_flight > 0 {
        jobs = JOBS.1.wait(jobs).unwrap_or_else(|e| e.into_inner());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn background_code_is_waited_for() {
        let pending = PendingCode::new();
        in_background(&pending, || {
            std::thread::sleep(std::time::Duration::from_millis(20));
            Ok(Code::new(vec![7], Vec::new(), Vec::new(), None, 5))
        });
        let code = pending.wait().expect("code");
        assert_eq!(
            (code.binary.as_slice(), code.global_variables_size),
            (&[7u8][..], 5)
        );
    }

    #[test]
    fn a_failed_or_panicking_job_gives_its_failure() {
        let failed = PendingCode::new();
        in_background(&failed, || Err("no code".into()));
        assert_eq!(failed.wait().err(), Some("no code"));
        let panicked = PendingCode::new();
        in_background(&panicked, || panic!("a bug"));
        assert!(panicked
            .wait()
            .err()
            .is_some_and(|e| e.contains("internal error")));
    }
}
