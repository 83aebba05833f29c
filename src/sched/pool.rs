//! The worker pool of a device: one thread per compute unit, taking ready
//! commands from a shared queue.
//!
//! Waking a sleeping thread costs tens of microseconds on this kind of
//! machine, more than most commands, so threads are woken only when no
//! awake worker will get to the command: a worker that runs out of work
//! spins for a while before it sleeps (at most one spins), `submit` wakes a
//! sleeper only when no worker is spinning, and a worker that takes a
//! command while more are waiting wakes one more, so parallel work spreads.
//!
//! A command can also share its own work with the pool (`parallel_for`):
//! the work is cut into chunks, idle workers are offered a share of it
//! through the same queue, and the calling thread takes chunks itself until
//! none is left, so it finishes alone when every other worker is busy.

use crate::core::event::Event;
use crate::sched::{run, SPIN_BEFORE_SLEEP};
use std::cell::Cell;
use std::collections::VecDeque;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::Thread;
use std::time::{Duration, Instant};

pub struct Pool {
    shared: Arc<Shared>,
    pub threads: usize,
}

struct Shared {
    ready: Mutex<Ready>,
    wake: Condvar,
    /// Commands in `ready`, readable without the lock (for spinning).
    queued: AtomicUsize,
    /// A worker is spinning (at most one does).
    spinning: AtomicUsize,
    /// Workers running commands.
    running: AtomicUsize,
    /// Workers that just completed a command and will look for the next
    /// one right away: the application, seeing the completion, often
    /// enqueues more, which they take without a wake-up.
    finishing: AtomicUsize,
    /// How many workers may be busy (running or spinning) before a spinner
    /// would take a core from the application's own threads.
    spin_limit: usize,
}

/// What a worker takes from the queue.
enum Task {
    /// A command to run.
    Command(Arc<Event>),
    /// An offer to help with a running command's chunks.
    Help(Arc<Job>),
}

struct Ready {
    commands: VecDeque<Task>,
    sleepers: usize,
}

/// A chunk of a `parallel_for` panicked (the other chunks still ran).
#[derive(Debug)]
pub struct Panicked;

/// The body of a parallel loop, its lifetime erased (see `Job::help`).
type Body = *const (dyn Fn(Range<usize>) + Sync);

/// A parallel loop over `0..len`, in chunks of `chunk`.
struct Job {
    body: Body,
    len: usize,
    chunk: usize,
    chunks: usize,
    /// The next chunk to claim.
    next: AtomicUsize,
    /// Chunks finished.
    done: AtomicUsize,
    /// A chunk panicked.
    panicked: AtomicBool,
    /// The thread waiting for the last chunk.
    owner: Thread,
}

// SAFETY: `body` is a `Sync` closure, only called while its owner waits in
// `parallel_for` (see `help`); the rest is atomics and a thread handle.
unsafe impl Send for Job {}
// SAFETY: as above.
unsafe impl Sync for Job {}

impl Job {
    /// Runs chunks until none is left to claim.
    fn help(&self) {
        loop {
            let c = self.next.fetch_add(1, Ordering::Relaxed);
            if c >= self.chunks {
                return;
            }
            let start = c * self.chunk;
            let range = start..(start + self.chunk).min(self.len);
            // SAFETY: chunk `c` was claimed, so it is not yet counted in
            // `done`, and `parallel_for` does not return (and the body
            // lives on) until every chunk is counted there.
            let body = unsafe { &*self.body };
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| body(range)));
            if run.is_err() {
                self.panicked.store(true, Ordering::Relaxed);
            }
            // Release: the chunk's writes happen before the owner's return.
            if self.done.fetch_add(1, Ordering::AcqRel) + 1 == self.chunks {
                self.owner.unpark();
            }
        }
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Ready> {
        self.ready.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Takes a command; wakes one more worker when others are waiting.
    fn pop(&self) -> Option<Task> {
        if self.queued.load(Ordering::Acquire) == 0 {
            return None;
        }
        let mut ready = self.lock();
        let ev = ready.commands.pop_front()?;
        self.queued.store(ready.commands.len(), Ordering::Release);
        if !ready.commands.is_empty()
            && ready.sleepers > 0
            && self.spinning.load(Ordering::SeqCst) == 0
        {
            self.wake.notify_one();
        }
        Some(ev)
    }
}

impl Pool {
    pub fn new(threads: usize) -> Arc<Pool> {
        let shared = Arc::new(Shared {
            ready: Mutex::new(Ready {
                commands: VecDeque::new(),
                sleepers: 0,
            }),
            wake: Condvar::new(),
            queued: AtomicUsize::new(0),
            spinning: AtomicUsize::new(0),
            running: AtomicUsize::new(0),
            finishing: AtomicUsize::new(0),
            // The application enqueues and waits on a core of its own.
            spin_limit: (crate::core::host::HOST.cores as usize)
                .saturating_sub(1)
                .max(1),
        });
        for i in 0..threads.max(1) {
            let shared = shared.clone();
            std::thread::Builder::new()
                .name(format!("ferrocl-worker-{i}"))
                .spawn(move || worker(&shared))
                .expect("spawning a worker thread");
        }
        Arc::new(Pool { shared, threads })
    }

    pub fn submit(&self, ev: Arc<Event>) {
        let s = &self.shared;
        let mut ready = s.lock();
        ready.commands.push_back(Task::Command(ev));
        s.queued.store(ready.commands.len(), Ordering::Release);
        if ready.sleepers > 0
            && s.spinning.load(Ordering::SeqCst) == 0
            && s.finishing.load(Ordering::SeqCst) == 0
        {
            s.wake.notify_one();
        }
    }
}

impl Pool {
    /// Calls `body` on chunks of `0..len` (each index exactly once), on the
    /// calling thread and on whichever of the pool's workers are idle;
    /// returns when every chunk has run. `chunk` is the chunk length (0:
    /// chosen here). Never waits for a busy worker: the caller runs every
    /// chunk nobody else took.
    pub fn parallel_for(
        &self,
        len: usize,
        chunk: usize,
        body: &(dyn Fn(Range<usize>) + Sync),
    ) -> Result<(), Panicked> {
        let chunk = if chunk == 0 {
            // A few chunks per thread, so uneven chunks balance out.
            len.div_ceil(self.threads.max(1) * 4).max(1)
        } else {
            chunk
        };
        let chunks = len.div_ceil(chunk);
        if chunks <= 1 || self.threads <= 1 {
            return std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                if len > 0 {
                    body(0..len)
                }
            }))
            .map_err(|_| Panicked);
        }
        // SAFETY (of the transmute): only the lifetime changes; `help`
        // calls the body only for claimed chunks, and this function does
        // not return before every claimed chunk is done.
        let body: Body =
            unsafe { std::mem::transmute::<*const (dyn Fn(Range<usize>) + Sync + '_), Body>(body) };
        let job = Arc::new(Job {
            body,
            len,
            chunk,
            chunks,
            next: AtomicUsize::new(0),
            done: AtomicUsize::new(0),
            panicked: AtomicBool::new(false),
            owner: std::thread::current(),
        });
        self.offer_help(&job, (chunks - 1).min(self.threads - 1));
        job.help();
        let start = Instant::now();
        while job.done.load(Ordering::Acquire) < chunks {
            if start.elapsed() < SPIN_BEFORE_SLEEP {
                std::hint::spin_loop();
            } else {
                std::thread::park_timeout(Duration::from_millis(1));
            }
        }
        if job.panicked.load(Ordering::Relaxed) {
            return Err(Panicked);
        }
        Ok(())
    }

    /// Queues `helpers` offers of help with `job`, waking sleeping workers
    /// to take them.
    fn offer_help(&self, job: &Arc<Job>, helpers: usize) {
        let s = &self.shared;
        let mut ready = s.lock();
        for _ in 0..helpers {
            ready.commands.push_back(Task::Help(job.clone()));
        }
        s.queued.store(ready.commands.len(), Ordering::Release);
        for _ in 0..helpers.min(ready.sleepers) {
            s.wake.notify_one();
        }
    }
}

fn worker(s: &Shared) {
    let finishing = Cell::new(false);
    let about_to_finish = || {
        if !finishing.replace(true) {
            s.finishing.fetch_add(1, Ordering::SeqCst);
        }
    };
    loop {
        let found = s.pop().or_else(|| spin_for_command(s));
        // Taken a command, become the spinner, or about to sleep (and to
        // look at the queue under its lock): no longer finishing.
        if finishing.replace(false) {
            s.finishing.fetch_sub(1, Ordering::SeqCst);
        }
        let Some(task) = found else {
            sleep_until_woken(s);
            continue;
        };
        s.running.fetch_add(1, Ordering::SeqCst);
        match task {
            Task::Command(ev) => {
                let mut next = Some(ev);
                while let Some(ev) = next {
                    next = run(ev, &about_to_finish);
                }
            }
            Task::Help(job) => job.help(),
        }
        s.running.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Spins for a command if no other worker is spinning and a core is free
/// for it.
fn spin_for_command(s: &Shared) -> Option<Task> {
    if s.running.load(Ordering::SeqCst) >= s.spin_limit
        || s.spinning
            .compare_exchange(0, 1, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
    {
        return None;
    }
    let start = Instant::now();
    let mut spins = 0u32;
    let found = loop {
        if s.queued.load(Ordering::Acquire) > 0 {
            // Stop counting as the spinner first, so that taking this
            // command wakes a sleeper for any that follow it.
            s.spinning.store(0, Ordering::SeqCst);
            if let Some(ev) = s.pop() {
                return Some(ev);
            }
            if s.spinning
                .compare_exchange(0, 1, Ordering::SeqCst, Ordering::SeqCst)
                .is_err()
            {
                return None;
            }
        }
        spins += 1;
        if spins.is_multiple_of(64) {
            if start.elapsed() > SPIN_BEFORE_SLEEP {
                break None;
            }
            std::thread::yield_now();
        } else {
            std::hint::spin_loop();
        }
    };
    s.spinning.store(0, Ordering::SeqCst);
    found
}

/// Sleeps until a command is queued. A command queued after this worker
/// stopped spinning finds it among the sleepers, under the lock.
fn sleep_until_woken(s: &Shared) {
    let mut ready = s.lock();
    ready.sleepers += 1;
    while ready.commands.is_empty() {
        ready = s.wake.wait(ready).unwrap_or_else(|p| p.into_inner());
    }
    ready.sleepers -= 1;
}
