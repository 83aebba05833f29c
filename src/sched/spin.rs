//! How a thread waits a little before it sleeps: the application in clFinish
//! or clWaitForEvents, a worker with nothing to run, the owner of a parallel
//! loop waiting for its helpers.
//!
//! A futex wake-up costs tens of microseconds here, most commands less, so
//! waiting threads spin first, yielding now and then in case the thread they
//! wait for needs this core. But a yield hands the core to whichever thread
//! is runnable, and when that is another process's busy thread the scheduler
//! lets it run its whole time slice (milliseconds) before the yielding thread
//! gets the core back: with two busy processes beside it, an empty kernel's
//! round trip took 4 ms instead of 4 us (PoCL, which sleeps at once: 38 us).
//! So a yield that comes back after most of a time slice (`SLICE_LOST`),
//! with the wait not over and this process's busy workers leaving a core
//! for the waiting thread (so that the slice was not theirs), marks the
//! machine as contended, and for a while
//! waiting threads sleep at once, where a wake-up is prompt. The while
//! doubles each time it happens again (`Contention`), so a lasting load
//! costs a lost slice rarely, and a passing one changes the waits only
//! briefly. (Most short commands do not wait at all: sched::run_here.)

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How long a waiting thread (worker or host) spins before it sleeps.
const SPIN_BEFORE_SLEEP: Duration = Duration::from_micros(100);

/// Pauses between yields of a spinning thread (see Spin): when the cores
/// are oversubscribed (the application's other threads, other processes),
/// the thread waited for may need this core; 64 made an empty kernel's
/// round trip 7 us on two cores with a compiler running, 16 makes it 4.6,
/// and costs nothing measurable when the cores are free.
const SPINS_PER_YIELD: u32 = 16;

/// A yield that returns after this long gave the core away for a time
/// slice: spinning on this machine now costs more than sleeping. A slice
/// is milliseconds; a thread waited for that ran this long on this core
/// (one core, a long command) is not worth spinning for either.
const SLICE_LOST: Duration = Duration::from_micros(500);

/// How long waiting threads sleep at once after the first lost slice; it
/// doubles with each lost slice that follows, up to `QUIET_MAX_DOUBLINGS`
/// times (1.28 s): a lasting load then costs one slice every second or so.
const QUIET_FIRST: Duration = Duration::from_millis(10);
const QUIET_MAX_DOUBLINGS: u32 = 7;

/// Whether spinning is worth it on this machine now (see the module
/// comment). One for the process: the load it reacts to is the machine's.
struct Contention {
    /// Until when (ns since `epoch`) waiting threads sleep at once.
    quiet_until: AtomicU64,
    /// Lost slices since spinning last went well: the quiet period is
    /// QUIET_FIRST doubled this many times.
    doublings: AtomicU32,
    epoch: Instant,
}

impl Contention {
    fn new() -> Contention {
        Contention {
            quiet_until: AtomicU64::new(0),
            doublings: AtomicU32::new(0),
            epoch: Instant::now(),
        }
    }

    fn ns(&self, t: Instant) -> u64 {
        t.saturating_duration_since(self.epoch)
            .as_nanos()
            .min(u64::MAX as u128) as u64
    }

    /// Whether a thread starting to wait at `now` should sleep at once.
    fn quiet(&self, now: Instant) -> bool {
        self.ns(now) < self.quiet_until.load(Ordering::Relaxed)
    }

    /// Records a yield that came back at `now` after `took`.
    fn yielded(&self, took: Duration, now: Instant) {
        if took < SLICE_LOST {
            // Spinning works again: the next lost slice starts over. Read
            // first, so that spinning threads do not all write the line.
            if self.doublings.load(Ordering::Relaxed) != 0 && !self.quiet(now) {
                self.doublings.store(0, Ordering::Relaxed);
            }
            return;
        }
        let doublings = self.doublings.load(Ordering::Relaxed);
        let quiet = QUIET_FIRST * (1 << doublings);
        self.quiet_until
            .store(self.ns(now + quiet), Ordering::Relaxed);
        self.doublings
            .store((doublings + 1).min(QUIET_MAX_DOUBLINGS), Ordering::Relaxed);
    }
}

/// The process's contention.
fn contention() -> &'static Contention {
    static CONTENTION: OnceLock<Contention> = OnceLock::new();
    CONTENTION.get_or_init(Contention::new)
}

/// A waiting thread's turns before it sleeps (at most SPIN_BEFORE_SLEEP):
/// `pause`s, with a yield every SPINS_PER_YIELD in case the thread it
/// waits for needs this core. On a single core nothing the thread waits
/// for can happen while it runs, so there every turn yields: a worker and
/// the application that spun in turns on one core (64 pauses each, a few
/// us) made an empty kernel's round trip 7 us there. None at all while the
/// machine is contended (see the module comment).
pub struct Spin {
    start: Option<Instant>,
    turns: u32,
    /// The cores this process may use.
    cores: usize,
    /// The last yield's length and end, when it lost this core for a slice.
    lost: Option<(Duration, Instant)>,
    contention: &'static Contention,
}

impl Default for Spin {
    fn default() -> Spin {
        Spin::on(contention(), crate::host::HOST.cores as usize)
    }
}

impl Spin {
    /// A wait on `cores` that consults and updates `contention` (tests use
    /// their own).
    fn on(contention: &'static Contention, cores: usize) -> Spin {
        Spin {
            start: None,
            turns: 0,
            cores,
            lost: None,
            contention,
        }
    }

    /// One turn of waiting; false once it is time to sleep instead.
    pub fn turn(&mut self) -> bool {
        if let Some((took, at)) = self.lost.take() {
            // The yield lost this core for a slice and the wait is not
            // over. Whose slice: when this process's busy workers and
            // this thread fit the cores, another process's; else maybe
            // this process's own (a worker running a long command here),
            // which is no reason to stop spinning elsewhere.
            if super::pool::running_workers() < self.cores {
                self.contention.yielded(took, at);
            }
            return false;
        }
        let start = match self.start {
            Some(start) => start,
            None => {
                let now = Instant::now();
                if self.contention.quiet(now) {
                    return false;
                }
                *self.start.insert(now)
            }
        };
        self.turns += 1;
        let single_core = self.cores <= 1;
        if !single_core && !self.turns.is_multiple_of(SPINS_PER_YIELD) {
            std::hint::spin_loop();
            return true;
        }
        let before = Instant::now();
        if before - start > SPIN_BEFORE_SLEEP {
            return false;
        }
        std::thread::yield_now();
        let after = Instant::now();
        let took = after - before;
        if took >= SLICE_LOST {
            // Judged on the next turn, if any: the thread waited for may
            // have run that long here and ended the wait.
            self.lost = Some((took, after));
            return true;
        }
        self.contention.yielded(took, after);
        after - start < SPIN_BEFORE_SLEEP
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaked() -> &'static Contention {
        Box::leak(Box::new(Contention::new()))
    }

    #[test]
    fn a_lost_slice_makes_waiting_threads_sleep_at_once_for_a_while() {
        let c = leaked();
        let t0 = Instant::now();
        assert!(!c.quiet(t0));
        c.yielded(Duration::from_micros(20), t0);
        assert!(!c.quiet(t0), "a prompt yield changes nothing");
        c.yielded(Duration::from_millis(4), t0);
        assert!(c.quiet(t0));
        assert!(c.quiet(t0 + QUIET_FIRST - Duration::from_micros(1)));
        assert!(!c.quiet(t0 + QUIET_FIRST + Duration::from_micros(1)));
    }

    #[test]
    fn while_quiet_waiting_threads_sleep_at_once() {
        let c = leaked();
        // Quiet for good, so that a stalled test thread cannot outlive it.
        c.quiet_until.store(u64::MAX, Ordering::Relaxed);
        assert!(!Spin::on(c, 1).turn(), "one core");
        assert!(!Spin::on(c, 16).turn(), "more cores");
    }

    #[test]
    fn lost_slices_in_a_row_double_the_quiet_period_up_to_a_bound() {
        let c = leaked();
        let mut t = Instant::now();
        for n in 0..10u32 {
            c.yielded(Duration::from_millis(4), t);
            let quiet = QUIET_FIRST * (1 << n.min(QUIET_MAX_DOUBLINGS));
            assert!(
                c.quiet(t + quiet - Duration::from_micros(1)),
                "lost slice {n}"
            );
            assert!(
                !c.quiet(t + quiet + Duration::from_micros(1)),
                "lost slice {n}"
            );
            t += quiet + Duration::from_micros(2);
        }
        // A prompt yield once the quiet period is over starts over.
        c.yielded(Duration::from_micros(20), t);
        c.yielded(Duration::from_millis(4), t);
        assert!(!c.quiet(t + QUIET_FIRST + Duration::from_micros(1)));
    }

    #[test]
    fn a_prompt_yield_while_quiet_keeps_the_doubling() {
        let c = leaked();
        let t = Instant::now();
        c.yielded(Duration::from_millis(4), t);
        c.yielded(Duration::from_micros(20), t);
        let later = t + QUIET_FIRST + Duration::from_micros(2);
        c.yielded(Duration::from_millis(4), later);
        assert!(c.quiet(later + QUIET_FIRST + Duration::from_micros(1)));
    }

    #[test]
    fn spinning_on_a_free_machine_ends_after_its_time() {
        let mut spin = Spin::on(leaked(), crate::host::HOST.cores as usize);
        let start = Instant::now();
        while spin.turn() {}
        assert!(start.elapsed() >= SPIN_BEFORE_SLEEP);
    }
}
