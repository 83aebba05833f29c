//! ferrocl: a CPU implementation of OpenCL 3.0, loaded through the ICD loader.
//!
//! `api` validates and translates the C calls, `core` owns the objects,
//! `sched` runs commands. See DESIGN.md in the project's shared folder.

/// The runtime's own objects (events, commands, their argument copies) come
/// from mimalloc: a command is allocated on the application's thread and
/// freed on a worker, and glibc frees such a block under the lock of the
/// application thread's arena, which that thread's next allocation waits
/// for. On two cores most of an event chain's futex calls were that lock.
/// Buffers and SVM stay on the system allocator (core::host_memory).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod api;
/// The C API's definitions, a crate of its own (src/cl).
pub use ferrocl_cl as cl;
/// The kernel compiler, a crate of its own (src/compiler): it knows nothing of CL objects.
pub use ferrocl_compiler as compiler;
/// The object model, a crate of its own (src/core).
pub use ferrocl_core as core;
mod entry_points;
mod icd;
/// The executor, a crate of its own (src/sched): it knows nothing of CL objects.
pub use ferrocl_sched as sched;
/// Tests that span the layers: the command graph on core's objects, kernel
/// launches through the API.
#[cfg(test)]
mod tests;
