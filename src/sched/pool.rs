//! The worker pool of a device: one thread per compute unit, taking ready
//! commands from a shared queue.
//!
//! Waking a sleeping thread costs tens of microseconds on this kind of
//! machine, more than most commands, so threads are woken only when no
//! awake worker will get to the command: a worker that runs out of work
//! spins for a while before it sleeps (at most one spins), `submit` wakes a
//! sleeper only when no worker is spinning, and a worker that takes a
//! command while more are waiting wakes one more, so parallel work spreads.

use crate::core::event::Event;
use crate::sched::{run, SPIN_BEFORE_SLEEP};
use std::cell::Cell;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

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

struct Ready {
    commands: VecDeque<Arc<Event>>,
    sleepers: usize,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Ready> {
        self.ready.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Takes a command; wakes one more worker when others are waiting.
    fn pop(&self) -> Option<Arc<Event>> {
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
        ready.commands.push_back(ev);
        s.queued.store(ready.commands.len(), Ordering::Release);
        if ready.sleepers > 0
            && s.spinning.load(Ordering::SeqCst) == 0
            && s.finishing.load(Ordering::SeqCst) == 0
        {
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
        let Some(ev) = found else {
            sleep_until_woken(s);
            continue;
        };
        s.running.fetch_add(1, Ordering::SeqCst);
        let mut next = Some(ev);
        while let Some(ev) = next {
            next = run(ev, &about_to_finish);
        }
        s.running.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Spins for a command if no other worker is spinning and a core is free
/// for it.
fn spin_for_command(s: &Shared) -> Option<Arc<Event>> {
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
