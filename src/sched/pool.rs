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
//! A command can also share its own work with the pool (`parallel_for`).
//! The calling thread starts alone: small work (most kernels of an event
//! chain) ends on it with no other thread touched, whatever the number of
//! workers. Only once the work left looks worth a wake-up
//! (`RECRUIT_ABOVE`) is it offered to the pool, and the offer spreads as a
//! tree: the caller wakes two workers, each that joins wakes up to two
//! more while chunks are left for them, so no thread pays for waking a
//! hundred. The calling thread never waits for a busy worker: it takes
//! chunks until none is left.
//!
//! A worker that helped with a loop then spins for the next one a while
//! (`spin_for_next_loop`), as many of them as cores are free: a sequence of
//! mid-sized kernels offers its groups within microseconds of the last, and
//! helpers that went to sleep came back tens of microseconds late (on 16
//! cores a 4,096 work-item kernel of 12.6 us took 21.9 shared, and one of
//! 65,536 ran only 1.5x faster than on one core).

use crate::Command;
use crate::{run, Spin};
use std::cell::Cell;
use std::collections::VecDeque;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::Thread;
use std::time::{Duration, Instant};

/// `parallel_for` offers its work to the pool once the work left is
/// estimated to take longer than this on the calling thread alone: below,
/// a wake-up (a futex call here, the woken thread's cache misses there)
/// costs more than it saves.
const RECRUIT_ABOVE: Duration = Duration::from_micros(10);

/// Whether `left` indices at `per_index` each are worth sharing: more than
/// RECRUIT_ABOVE, and, unless helpers are spinning for it (`hot`), more
/// than twice what getting help took lately (`HELP_NS`), which is tens of
/// microseconds on some machines (a 4096 work-item kernel of 9 us took
/// 27-36 us on 16 cores of a Xeon, its owner waking workers that came too
/// late to help). Hot helpers join at once: judged by HELP_NS, a loop that
/// sleeping workers had answered late was never offered again, and its
/// helpers never got hot.
fn worth_sharing(per_index: Duration, left: usize, hot: bool) -> bool {
    let work = work_of(per_index, left);
    work > RECRUIT_ABOVE
        && (hot || work > 2 * Duration::from_nanos(HELP_NS.load(Ordering::Relaxed)))
}

/// The time `left` indices take at `per_index` each.
fn work_of(per_index: Duration, left: usize) -> Duration {
    per_index.saturating_mul(left.min(u32::MAX as usize) as u32)
}

/// How long an offered loop waited for its first helper, lately (an
/// average that weighs the last offer by 1/8), in nanoseconds.
static HELP_NS: AtomicU64 = AtomicU64::new(0);

/// A wait for help longer than this counts as this long: the workers were
/// busy elsewhere, or the machine was, and one such wait must not keep
/// every later loop from being shared.
const HELP_COUNTS_AT_MOST: Duration = Duration::from_micros(100);

/// Counts one offer's wait for its first helper in HELP_NS.
fn helped_after(waited: Duration) {
    let waited = waited.min(HELP_COUNTS_AT_MOST).as_nanos() as u64;
    let old = HELP_NS.load(Ordering::Relaxed);
    HELP_NS.store(old - old / 8 + waited / 8, Ordering::Relaxed);
}

/// A chunk of a loop whose pace is known is at least this much work:
/// claims of smaller ones make every participant fight over the loop's
/// counter, and each chunk left over wakes one more worker.
const CHUNK_AT_LEAST: Duration = Duration::from_micros(4);

/// Work a helper should get, at the owner's pace: joining costs a helper
/// far more than the wait for it (its caches and predictors cold for the
/// kernel: on 16 cores of a Xeon, 10 us or more of body time each), so a
/// loop of 9 us shared by four took 30.
const HELPER_WORK_AT_LEAST: Duration = Duration::from_micros(8);

/// How many helpers `work` left at the owner's pace is worth.
fn helpers_for(work: Duration) -> usize {
    (work.as_nanos() / HELPER_WORK_AT_LEAST.as_nanos()).min(usize::MAX as u128) as usize
}

/// How many more workers each participant of a parallel loop wakes.
const WAKE_FAN_OUT: usize = 2;

/// A parallel loop's pace: how long one index took the last time the same
/// loop (a kernel's work-groups) ran, in nanoseconds, 0 before the first
/// run. The caller keeps it (compiler::Executable::group_pace).
///
/// Why: the calling thread judges whether its loop is worth sharing only
/// after its first index, and a loop of a few long indices (a kernel of
/// two work-groups, one of them most of the work) has by then run alone
/// for half its time. With the last run's pace the offer goes out at once.
pub type Pace = AtomicU64;

fn per_index(pace: &Pace) -> Duration {
    Duration::from_nanos(pace.load(Ordering::Relaxed))
}

/// Remembers a loop of `len` indices whose bodies took `busy` in all.
///
/// Body time, not the loop's length times its participants: a helper that
/// joins late (or finds nothing left) would count as busy all along, and a
/// loop shared once would then look worth sharing ever after, though alone
/// it took less than a wake-up (a 4096-work-item kernel settled at 8 us a
/// round trip shared, or 4.5 alone, by chance of its first runs).
fn record(pace: &Pace, busy: Duration, len: usize) {
    let per_index = busy.as_nanos() / len.max(1) as u128;
    pace.store(per_index.min(u64::MAX as u128) as u64, Ordering::Relaxed);
}

/// Workers of every pool running a command or helping with a loop: the
/// cores this process's workers occupy.
static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// How many workers are running commands or helping with loops now.
pub fn running_workers() -> usize {
    RUNNING.load(Ordering::Relaxed)
}

pub struct Pool {
    shared: Arc<Shared>,
    pub threads: usize,
}

struct Shared {
    ready: Mutex<Ready>,
    wake: Condvar,
    /// Commands in `ready`, readable without the lock (for spinning).
    queued: AtomicUsize,
    /// Parallel loops in `ready.jobs`, likewise.
    offered: AtomicUsize,
    /// A worker is spinning (at most one does).
    spinning: AtomicUsize,
    /// Workers spinning for the next parallel loop after helping with one.
    hot: AtomicUsize,
    /// Helpers the offered loops have chunks for: a hot helper joins only
    /// with one of these, so that a loop of three chunks does not bring
    /// fifteen spinners to the lock and the loop's counter.
    helpers_wanted: AtomicUsize,
    /// Workers that just completed a command and will look for the next
    /// one right away: the application, seeing the completion, often
    /// enqueues more, which they take without a wake-up.
    finishing: AtomicUsize,
    /// How many workers may be busy (running or spinning) before a spinner
    /// would take a core from the application's own threads.
    spin_limit: usize,
}

/// What a worker takes from the pool.
enum Task {
    /// A command to run.
    Command(Arc<dyn Command>),
    /// A running parallel loop to help with.
    Help(Arc<Job>),
}

struct Ready {
    commands: VecDeque<Arc<dyn Command>>,
    /// Parallel loops offered to the pool that may have chunks left.
    jobs: Vec<Arc<Job>>,
    sleepers: usize,
}

/// A body of a `parallel_for` panicked (the other indices still ran).
#[derive(Debug)]
pub struct Panicked;

/// What a participant of a parallel loop gets: the ranges it claimed, one
/// after the other.
pub type Claims<'a> = dyn Iterator<Item = Range<usize>> + 'a;

/// The body of a parallel loop, its lifetime erased (see `Job::take_part`).
type Body = *const (dyn Fn(&mut Claims<'_>) + Sync);

/// A parallel loop over `0..len`, claimed in chunks of `chunk` indices.
struct Job {
    body: Body,
    len: usize,
    chunk: usize,
    /// The next index to claim.
    next: AtomicUsize,
    /// Indices whose body call is over.
    done: AtomicUsize,
    /// A body panicked.
    panicked: AtomicBool,
    /// Workers that joined the calling thread.
    joined: AtomicUsize,
    /// Nanoseconds spent in body calls, added before their last claim is
    /// counted done (so the owner sees all of it).
    busy_ns: AtomicU64,
    /// When the loop was offered to the pool.
    offered_at: std::sync::OnceLock<Instant>,
    /// The owner's time per index when it offered the loop (ns).
    pace_ns: AtomicU64,
    /// The thread waiting for the last index.
    owner: Thread,
}

// SAFETY: `body` is a `Sync` closure, only called while its owner waits in
// `parallel_for` (see `take_part`); the rest is atomics and a thread handle.
unsafe impl Send for Job {}
// SAFETY: as above.
unsafe impl Sync for Job {}

/// One participant's claims on a job.
struct Claiming<'a> {
    job: &'a Job,
    /// Claimed, not yet handed to the body.
    first: Option<Range<usize>>,
    /// Indices claimed whose body call is not yet over: counted in
    /// `job.done` only when the next claim succeeds or the body returns,
    /// so that the owner cannot return (and the body's borrows end) while
    /// a body call is still running.
    current: usize,
    /// The owner's watch on whether helpers are worth waking.
    recruit: Option<Recruit<'a>>,
    /// Indices this participant claimed.
    claimed: usize,
}

struct Recruit<'a> {
    pool: &'a Shared,
    job: &'a Arc<Job>,
    /// When the body took its first range: its set-up before that is paid
    /// once per thread, not per index, so it is left out of the pace.
    start: Option<Instant>,
    /// Indices this thread claimed so far.
    mine: usize,
    /// Its claims so far: the pace is looked at after the 1st, 4th, 16th,
    /// 64th... only, so a loop of many tiny chunks does not read the clock
    /// for each.
    claims: u32,
}

impl Claiming<'_> {
    fn claim(&mut self) -> Option<Range<usize>> {
        let job = self.job;
        // The owner's first claim is a single index: its time says whether
        // the rest is worth sharing before a whole chunk has gone by alone.
        let size = match &self.recruit {
            Some(r) if r.mine == 0 => 1,
            _ => job.chunk,
        };
        let start = job.next.fetch_add(size, Ordering::Relaxed);
        if start >= job.len {
            return None;
        }
        let range = start..(start + size).min(job.len);
        self.claimed += range.len();
        if let Some(r) = &mut self.recruit {
            r.mine += range.len();
            r.claims += 1;
        }
        Some(range)
    }

    /// Counts the indices of the last claim as done.
    fn settle(&mut self) {
        let n = std::mem::take(&mut self.current);
        // Release: the body's writes happen before the owner's return.
        if n > 0 && self.job.done.fetch_add(n, Ordering::AcqRel) + n == self.job.len {
            self.job.owner.unpark();
        }
    }

    /// For the owner: offers the job to the pool once the work left, at
    /// this thread's pace so far, is worth a wake-up.
    fn maybe_recruit(&mut self) {
        let Some(Recruit {
            start: Some(start),
            mine,
            claims,
            ..
        }) = &self.recruit
        else {
            return;
        };
        if !claims.is_power_of_two() || claims.trailing_zeros() % 2 != 0 {
            return;
        }
        let left = self
            .job
            .len
            .saturating_sub(self.job.next.load(Ordering::Relaxed));
        if left == 0 {
            self.recruit = None;
            return;
        }
        let per_index = start.elapsed() / (*mine).max(1) as u32;
        let hot = self
            .recruit
            .as_ref()
            .is_some_and(|r| r.pool.hot.load(Ordering::Relaxed) > 0);
        if worth_sharing(per_index, left, hot) {
            let r = self.recruit.take().expect("checked above");
            r.pool.offer(r.job, per_index);
        }
    }
}

impl Iterator for Claiming<'_> {
    type Item = Range<usize>;

    fn next(&mut self) -> Option<Range<usize>> {
        if let Some(first) = self.first.take() {
            if let Some(r) = &mut self.recruit {
                r.start.get_or_insert_with(Instant::now);
            }
            return Some(first);
        }
        self.maybe_recruit();
        let range = self.claim()?;
        self.settle();
        self.current = range.len();
        Some(range)
    }
}

impl Job {
    /// Calls the body on claimed ranges until none is left to claim.
    /// `recruit`: the owner's watch on whether to offer the job. Returns
    /// this thread's time in body calls and the indices it claimed.
    fn take_part(&self, recruit: Option<Recruit<'_>>) -> (Duration, usize) {
        let mut claims = Claiming {
            job: self,
            first: None,
            current: 0,
            recruit,
            claimed: 0,
        };
        let mut own = Duration::ZERO;
        // Claim before calling the body: a body call always holds an
        // unfinished claim, so the owner (and the body) outlive it.
        while let Some(first) = claims.claim() {
            claims.current = first.len();
            claims.first = Some(first);
            // SAFETY: an index is claimed and not yet counted in `done`,
            // and `parallel_for` does not return (so the body lives on)
            // until every index is counted there.
            let body = unsafe { &*self.body };
            let began = Instant::now();
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| body(&mut claims)));
            let took = began.elapsed();
            own += took;
            let took = took.as_nanos().min(u64::MAX as u128) as u64;
            self.busy_ns.fetch_add(took, Ordering::Relaxed);
            if run.is_err() {
                self.panicked.store(true, Ordering::Relaxed);
            }
            // An unclaimed `first` (a body that returned early) was still
            // handed to the body: it counts as done with the rest.
            claims.first = None;
            claims.settle();
        }
        (own, claims.claimed)
    }

    fn unclaimed(&self) -> bool {
        self.next.load(Ordering::Relaxed) < self.len
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Ready> {
        self.ready.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Takes a command, else a parallel loop to help with; wakes one more
    /// worker when more commands are waiting.
    fn pop(&self) -> Option<Task> {
        if self.queued.load(Ordering::Acquire) == 0 && self.offered.load(Ordering::Acquire) == 0 {
            return None;
        }
        let mut ready = self.lock();
        if let Some(ev) = ready.commands.pop_front() {
            self.queued.store(ready.commands.len(), Ordering::Release);
            if !ready.commands.is_empty()
                && ready.sleepers > 0
                && self.spinning.load(Ordering::SeqCst) == 0
            {
                self.wake.notify_one();
            }
            return Some(Task::Command(ev));
        }
        self.prune(&mut ready);
        ready.jobs.first().cloned().map(Task::Help)
    }

    /// The owner's loop is over: it leaves the offered loops, and with none
    /// left, so do the hot helpers' tickets that no one took.
    fn retire(&self, job: &Arc<Job>) {
        let mut ready = self.lock();
        ready.jobs.retain(|j| !Arc::ptr_eq(j, job));
        self.prune(&mut ready);
    }

    /// Drops the offered loops that have no index left to claim.
    fn prune(&self, ready: &mut Ready) {
        ready.jobs.retain(|j| j.unclaimed());
        self.offered.store(ready.jobs.len(), Ordering::Release);
        if ready.jobs.is_empty() {
            self.helpers_wanted.store(0, Ordering::SeqCst);
        }
    }

    /// Offers a running parallel loop to the workers.
    fn offer(&self, job: &Arc<Job>, per_index: Duration) {
        let _ = job.offered_at.set(Instant::now());
        {
            let mut ready = self.lock();
            ready.jobs.push(job.clone());
            // The owner takes one chunk of those left.
            let left = job.len.saturating_sub(job.next.load(Ordering::Relaxed));
            job.pace_ns
                .store(per_index.as_nanos() as u64, Ordering::Relaxed);
            let chunks = left.div_ceil(job.chunk).saturating_sub(1);
            let worth = helpers_for(work_of(per_index, left));
            self.helpers_wanted
                .fetch_add(chunks.min(worth.max(1)), Ordering::SeqCst);
            self.offered.store(ready.jobs.len(), Ordering::Release);
        }
        self.spread(job);
    }

    /// Wakes up to WAKE_FAN_OUT sleepers for the chunks of `job` that no
    /// participant will get to soon (a spinner takes one share without
    /// a wake-up).
    fn spread(&self, job: &Job) {
        let left = job.len.saturating_sub(job.next.load(Ordering::Relaxed));
        let participants = job.joined.load(Ordering::Relaxed) + 1;
        let pace = Duration::from_nanos(job.pace_ns.load(Ordering::Relaxed));
        let worth = helpers_for(work_of(pace, left)).saturating_sub(participants - 1);
        let mut want = left
            .div_ceil(job.chunk)
            .saturating_sub(participants)
            .min(worth)
            .min(WAKE_FAN_OUT);
        if want > 0 && self.spinning.load(Ordering::SeqCst) > 0 {
            want -= 1;
        }
        // Hot helpers join without a wake-up too.
        want = want.saturating_sub(self.hot.load(Ordering::SeqCst));
        if want == 0 {
            return;
        }
        let sleepers = self.lock().sleepers;
        for _ in 0..want.min(sleepers) {
            self.wake.notify_one();
        }
    }
}

impl Pool {
    pub fn new(threads: usize) -> Arc<Pool> {
        Pool::on_cpus(threads, &[])
    }

    /// A pool whose workers run only on `cpus` (all CPUs when empty): a
    /// sub-device made by affinity domain keeps its work in its domain.
    pub fn on_cpus(threads: usize, cpus: &[usize]) -> Arc<Pool> {
        // The application enqueues and waits on a core of its own.
        let spin_limit = (crate::host::HOST.cores as usize).saturating_sub(1).max(1);
        Pool::start(threads, cpus, spin_limit)
    }

    fn start(threads: usize, cpus: &[usize], spin_limit: usize) -> Arc<Pool> {
        let shared = Arc::new(Shared {
            ready: Mutex::new(Ready {
                commands: VecDeque::new(),
                jobs: Vec::new(),
                sleepers: 0,
            }),
            wake: Condvar::new(),
            queued: AtomicUsize::new(0),
            offered: AtomicUsize::new(0),
            spinning: AtomicUsize::new(0),
            hot: AtomicUsize::new(0),
            helpers_wanted: AtomicUsize::new(0),
            finishing: AtomicUsize::new(0),
            spin_limit,
        });
        for i in 0..threads.max(1) {
            let shared = shared.clone();
            let cpus = cpus.to_vec();
            std::thread::Builder::new()
                .name(format!("ferrocl-worker-{i}"))
                .spawn(move || {
                    if !cpus.is_empty() {
                        crate::topology::pin_current_thread(&cpus);
                    }
                    worker(&shared)
                })
                .expect("spawning a worker thread");
        }
        Arc::new(Pool { shared, threads })
    }

    pub fn submit(&self, ev: Arc<dyn Command>) {
        let s = &self.shared;
        let mut ready = s.lock();
        ready.commands.push_back(ev);
        s.queued.store(ready.commands.len(), Ordering::Release);
        if ready.sleepers > 0
            && s.spinning.load(Ordering::SeqCst) == 0
            && s.hot.load(Ordering::SeqCst) == 0
            && s.finishing.load(Ordering::SeqCst) == 0
        {
            s.wake.notify_one();
        }
    }

    /// Calls `body` with claims on chunks of `0..len` (each index handed
    /// out exactly once), on the calling thread and on whichever workers
    /// join it; returns when every body call is over. A body should take
    /// every range its claims give: it is called again for the rest if it
    /// returns early. `chunk` is the chunk length (0: chosen here).
    ///
    /// The calling thread starts alone and offers the work to the pool
    /// only once what is left looks worth a wake-up (see the module
    /// comment), or at once when `pace` says so of the loop's last run;
    /// it never waits for a busy worker.
    pub fn parallel_for(
        &self,
        len: usize,
        chunk: usize,
        pace: &Pace,
        body: &(dyn Fn(&mut Claims<'_>) + Sync),
    ) -> Result<(), Panicked> {
        let chunk = if chunk == 0 {
            // A few chunks per thread, so uneven chunks balance out, each
            // at least CHUNK_AT_LEAST of work when the pace says.
            let per_thread = len.div_ceil(self.threads.max(1) * 4).max(1);
            let at_least = match per_index(pace).as_nanos() {
                0 => 1,
                ns => (CHUNK_AT_LEAST.as_nanos() / ns).max(1) as usize,
            };
            per_thread.max(at_least)
        } else {
            chunk
        };
        if len <= 1 || self.threads <= 1 {
            let began = Instant::now();
            let mut all = (len > 0).then_some(0..len).into_iter();
            let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| body(&mut all)));
            record(pace, began.elapsed(), len);
            return ran.map_err(|_| Panicked);
        }
        // SAFETY: (of the transmute) only the lifetime changes; bodies are
        // called only with a claimed index (`take_part`), and this function
        // does not return before every claimed index is done.
        let body: Body = unsafe {
            std::mem::transmute::<*const (dyn Fn(&mut Claims<'_>) + Sync + '_), Body>(body)
        };
        let job = Arc::new(Job {
            body,
            len,
            chunk,
            next: AtomicUsize::new(0),
            done: AtomicUsize::new(0),
            panicked: AtomicBool::new(false),
            joined: AtomicUsize::new(0),
            busy_ns: AtomicU64::new(0),
            offered_at: std::sync::OnceLock::new(),
            pace_ns: AtomicU64::new(0),
            owner: std::thread::current(),
        });
        // The first index is the caller's own: the rest is what to share.
        let hot = self.shared.hot.load(Ordering::Relaxed) > 0;
        let recruit = if worth_sharing(per_index(pace), len - 1, hot) {
            self.shared.offer(&job, per_index(pace));
            None
        } else {
            Some(Recruit {
                pool: &self.shared,
                job: &job,
                start: None,
                mine: 0,
                claims: 0,
            })
        };
        let (own_busy, own_indices) = job.take_part(recruit);
        if job.offered_at.get().is_some() {
            self.shared.retire(&job);
        }
        let mut spin = Spin::default();
        let mut spinning = true;
        while job.done.load(Ordering::Acquire) < len {
            spinning = spinning && spin.turn();
            if !spinning {
                // The participant that counts the last index unparks us.
                std::thread::park_timeout(Duration::from_millis(10));
            }
        }
        // The pace is the owner's own: helpers' time includes their
        // joining, and a loop once shared would look longer each time.
        if own_indices > 0 {
            record(pace, own_busy, own_indices);
        } else {
            record(
                pace,
                Duration::from_nanos(job.busy_ns.load(Ordering::Relaxed)),
                len,
            );
        }
        if job.panicked.load(Ordering::Relaxed) {
            return Err(Panicked);
        }
        Ok(())
    }
}

/// A worker's share of an offered parallel loop.
fn help(s: &Shared, job: &Job) {
    if job.joined.fetch_add(1, Ordering::Relaxed) == 0 {
        if let Some(at) = job.offered_at.get() {
            helped_after(at.elapsed());
        }
    }
    s.spread(job);
    job.take_part(None);
}

fn worker(s: &Shared) {
    let finishing = Cell::new(false);
    let about_to_finish = || {
        if !finishing.replace(true) {
            s.finishing.fetch_add(1, Ordering::SeqCst);
        }
    };
    // What a hot helper found while spinning for the next loop.
    let mut next_task: Option<Task> = None;
    loop {
        let found = next_task
            .take()
            .or_else(|| s.pop())
            .or_else(|| spin_for_command(s));
        // Taken a command, become the spinner, or about to sleep (and to
        // look at the queue under its lock): no longer finishing.
        if finishing.replace(false) {
            s.finishing.fetch_sub(1, Ordering::SeqCst);
        }
        let Some(task) = found else {
            sleep_until_woken(s);
            continue;
        };
        RUNNING.fetch_add(1, Ordering::SeqCst);
        let helped = match task {
            Task::Command(ev) => {
                let mut next = Some(ev);
                while let Some(ev) = next {
                    next = run(ev, &about_to_finish);
                }
                false
            }
            Task::Help(job) => {
                help(s, &job);
                true
            }
        };
        RUNNING.fetch_sub(1, Ordering::SeqCst);
        if helped {
            next_task = spin_for_next_loop(s);
        }
    }
}

/// After helping with a parallel loop: spins for the next loop (or a
/// command) instead of sleeping, when a core is free for it beside the
/// running workers, the other spinners and the application. Unlike the
/// one spinner of `spin_for_command`, every helper may: the next kernel of
/// a sequence is shared among all of them at once, none woken.
fn spin_for_next_loop(s: &Shared) -> Option<Task> {
    let others = s.hot.fetch_add(1, Ordering::SeqCst);
    let busy = RUNNING.load(Ordering::SeqCst) + s.spinning.load(Ordering::SeqCst) + others;
    let found = if busy >= s.spin_limit {
        None
    } else {
        // An offered loop with a ticket left for this helper.
        let wanted = || {
            s.offered.load(Ordering::Acquire) > 0
                && s.helpers_wanted
                    .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |w| w.checked_sub(1))
                    .is_ok()
        };
        let mut spin = Spin::default();
        loop {
            if s.queued.load(Ordering::Acquire) > 0 || wanted() {
                if let Some(task) = s.pop() {
                    break Some(task);
                }
            }
            if !spin.turn() {
                break None;
            }
        }
    };
    s.hot.fetch_sub(1, Ordering::SeqCst);
    found
}

/// Spins for a command if no other worker is spinning and a core is free
/// for it.
fn spin_for_command(s: &Shared) -> Option<Task> {
    if RUNNING.load(Ordering::SeqCst) + s.hot.load(Ordering::SeqCst) >= s.spin_limit
        || s.spinning
            .compare_exchange(0, 1, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
    {
        return None;
    }
    let mut spin = Spin::default();
    let found = loop {
        if s.queued.load(Ordering::Acquire) > 0 || s.offered.load(Ordering::Acquire) > 0 {
            // Stop counting as the spinner first, so that taking this
            // command wakes a sleeper for any that follow it.
            s.spinning.store(0, Ordering::SeqCst);
            if let Some(task) = s.pop() {
                return Some(task);
            }
            if s.spinning
                .compare_exchange(0, 1, Ordering::SeqCst, Ordering::SeqCst)
                .is_err()
            {
                return None;
            }
        }
        if !spin.turn() {
            break None;
        }
    };
    s.spinning.store(0, Ordering::SeqCst);
    found
}

/// Sleeps until a command or a parallel loop is offered. One offered after
/// this worker stopped spinning finds it among the sleepers, under the
/// lock. No timeout: an idle pool uses no CPU.
fn sleep_until_woken(s: &Shared) {
    let mut ready = s.lock();
    ready.sleepers += 1;
    loop {
        s.prune(&mut ready);
        if !ready.commands.is_empty() || !ready.jobs.is_empty() {
            break;
        }
        ready = s.wake.wait(ready).unwrap_or_else(|p| p.into_inner());
    }
    ready.sleepers -= 1;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every index of loops of many lengths, from several threads at once,
    /// seen exactly once, on a pool whose helpers all spin for the next
    /// loop (a spin limit as on a 16-core host, whatever this one has).
    #[test]
    fn hot_helpers_see_every_index_once() {
        let pool = Pool::start(8, &[], 7);
        let pace_of = |t: usize| Pace::new(if t.is_multiple_of(2) { 0 } else { 3_000 });
        std::thread::scope(|s| {
            for t in 0..3 {
                let pool = &pool;
                s.spawn(move || {
                    let pace = pace_of(t);
                    for round in 0..200 {
                        let len = 1 + (t * 37 + round * 101) % 3000;
                        let hits: Vec<AtomicUsize> =
                            (0..len).map(|_| AtomicUsize::new(0)).collect();
                        pool.parallel_for(len, 0, &pace, &|claims: &mut Claims<'_>| {
                            for i in claims.flatten() {
                                hits[i].fetch_add(1, Ordering::Relaxed);
                                // Some work, so that loops are shared.
                                (0..64).for_each(|k| {
                                    std::hint::black_box(k);
                                });
                            }
                        })
                        .unwrap();
                        assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1));
                    }
                });
            }
        });
        // No loop is offered now: no ticket is left for a helper to take.
        assert_eq!(pool.shared.offered.load(Ordering::SeqCst), 0);
        assert_eq!(pool.shared.helpers_wanted.load(Ordering::SeqCst), 0);
    }
}
