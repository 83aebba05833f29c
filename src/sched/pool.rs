//! The worker pool of a device: one thread per compute unit, taking ready
//! commands from a shared channel.

use crate::core::event::Event;
use crate::sched::{run, SPIN_BEFORE_SLEEP};
use crossbeam_channel::{unbounded, Receiver, Sender, TryRecvError};
use std::sync::Arc;
use std::time::Instant;

pub struct Pool {
    ready: Sender<Arc<Event>>,
    pub threads: usize,
}

impl Pool {
    pub fn new(threads: usize) -> Arc<Pool> {
        let (tx, rx) = unbounded::<Arc<Event>>();
        for i in 0..threads.max(1) {
            let rx = rx.clone();
            std::thread::Builder::new()
                .name(format!("ferrocl-worker-{i}"))
                .spawn(move || worker(rx))
                .expect("spawning a worker thread");
        }
        Arc::new(Pool { ready: tx, threads })
    }

    pub fn submit(&self, ev: Arc<Event>) {
        // The receivers live as long as the process; a send cannot fail.
        let _ = self.ready.send(ev);
    }
}

/// A worker spins for a while after its last command before it sleeps, so
/// that a stream of small commands costs no thread wake-ups.
fn worker(rx: Receiver<Arc<Event>>) {
    loop {
        let ev = match next_command(&rx) {
            Some(ev) => ev,
            None => return,
        };
        let mut next = Some(ev);
        while let Some(ev) = next {
            next = run(ev);
        }
    }
}

fn next_command(rx: &Receiver<Arc<Event>>) -> Option<Arc<Event>> {
    let start = Instant::now();
    let mut spins = 0u32;
    loop {
        match rx.try_recv() {
            Ok(ev) => return Some(ev),
            Err(TryRecvError::Disconnected) => return None,
            Err(TryRecvError::Empty) => {}
        }
        spins += 1;
        if spins.is_multiple_of(64) {
            if start.elapsed() > SPIN_BEFORE_SLEEP {
                return rx.recv().ok();
            }
            std::thread::yield_now();
        } else {
            std::hint::spin_loop();
        }
    }
}
