//! Running a short command on the thread that enqueues it.
//!
//! Handing a command to a worker costs the application's thread and the
//! worker each a few cache misses on the command, its event and the pool's
//! queue, and the worker a wake-up when it slept: on a 16-core Xeon an
//! event chain of tiny kernels cost 2.4 us per kernel where one core, on
//! which the application and the worker take turns, managed 1.5. A command
//! that will take less than that (the last launch of the same kernel says
//! so) is run by the enqueuing thread itself, once it is ready: the
//! application gets its event back a little later, already complete, and
//! no other thread is touched. Long commands still go to the pool, so the
//! application keeps overlapping its own work with the device's.
//!
//! The thread must be able to run a kernel as a worker would: stack enough
//! for a worker's (kernels' private arrays live there), and the floating
//! point environment kernels expect (round to nearest, exceptions masked,
//! denormals kept), which an application may have changed on its own
//! thread.

use crate::Command;
use std::cell::{Cell, OnceCell};
use std::sync::Arc;

/// Stack a kernel may need: what a worker has (Rust's default for spawned
/// threads).
const WORKER_STACK: usize = 2 << 20;

thread_local! {
    /// This thread is running a command here (a callback of it enqueues
    /// another, say): the next one goes to the pool.
    static BUSY: Cell<bool> = const { Cell::new(false) };
    /// The lowest address of this thread's stack, None when unknown; looked
    /// up once (for the main thread glibc reads /proc/self/maps for it).
    static STACK_LOW: OnceCell<Option<usize>> = const { OnceCell::new() };
}

/// Runs the ready command `ev` on this thread when it can, else launches
/// it as usual (the pool, or at once when it has no work).
pub fn run_here(ev: Arc<dyn Command>) {
    if !ev.has_work() || ev.dependency_failed() || BUSY.with(|b| b.get()) || !fit_for_kernels() {
        super::launch(ev);
        return;
    }
    BUSY.with(|b| b.set(true));
    let next = super::run(ev, &|| {});
    BUSY.with(|b| b.set(false));
    if let Some(next) = next {
        super::launch(next);
    }
}

/// Whether this thread has a worker's stack left and the default floating
/// point environment.
fn fit_for_kernels() -> bool {
    default_float_environment() && stack_left().is_some_and(|left| left >= WORKER_STACK)
}

/// Bytes of stack below the caller's frame, None when unknown.
fn stack_left() -> Option<usize> {
    let low = STACK_LOW.with(|l| *l.get_or_init(stack_low))?;
    let here = 0u8;
    Some((std::ptr::addr_of!(here) as usize).saturating_sub(low))
}

/// The lowest address of the calling thread's stack.
fn stack_low() -> Option<usize> {
    // SAFETY: pthread_getattr_np initializes `attr` for the calling thread
    // (destroyed below); pthread_attr_getstack writes the two outputs.
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return None;
        }
        let mut addr: *mut libc::c_void = std::ptr::null_mut();
        let mut size: libc::size_t = 0;
        let ok = libc::pthread_attr_getstack(&attr, &mut addr, &mut size) == 0;
        libc::pthread_attr_destroy(&mut attr);
        (ok && !addr.is_null()).then_some(addr as usize)
    }
}

/// Round to nearest, every exception masked, denormals neither flushed
/// nor treated as zero: the MXCSR a worker runs kernels with.
#[cfg(target_arch = "x86_64")]
fn default_float_environment() -> bool {
    /// MXCSR's control bits (the low six are sticky exception flags).
    const CONTROL: u32 = !0x3f;
    const DEFAULT: u32 = 0x1f80;
    super::ndrange::read_mxcsr() & CONTROL == DEFAULT
}

#[cfg(not(target_arch = "x86_64"))]
fn default_float_environment() -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_test_threads_stack_is_known_and_has_room() {
        let left = stack_left().expect("pthread_getattr_np knows this thread's stack");
        assert!(left > 0);
        // Deeper frames have less left.
        fn deeper(depth: u32) -> usize {
            let pad = [0u8; 4096];
            std::hint::black_box(&pad);
            if depth == 0 {
                stack_left().unwrap()
            } else {
                deeper(depth - 1)
            }
        }
        assert!(deeper(4) < left);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn a_changed_rounding_mode_keeps_kernels_off_this_thread() {
        use crate::ndrange::{read_mxcsr, write_mxcsr};
        assert!(default_float_environment());
        let csr = read_mxcsr();
        // SAFETY: only the rounding mode changes (round toward zero, bits
        // 13-14); the value read above is put back below.
        unsafe { write_mxcsr(csr | 0x6000) };
        let fit = default_float_environment();
        // SAFETY: the value read_mxcsr returned.
        unsafe { write_mxcsr(csr) };
        assert!(!fit);
        assert!(default_float_environment());
    }
}
