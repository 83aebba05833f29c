//! The object model in safe Rust: platform, devices, contexts, queues,
//! events, memory, programs and kernels, and what each does. A crate of its
//! own (src/core) below the API: it uses the executor (sched) and the
//! compiler, and nothing above it.

/// The C API's definitions (src/cl).
pub use ferrocl_cl as cl;
/// The kernel compiler (src/compiler).
pub use ferrocl_compiler as compiler;
/// The executor (src/sched).
pub use ferrocl_sched as sched;

pub mod callback;
pub mod caps;
pub mod command_buffer;
pub mod context;
pub mod device;
pub mod device_enqueue;
pub mod event;
pub mod host_memory;
pub mod image;
pub mod kernel;
pub mod memory;
pub mod mutable_command;
pub mod object;
pub mod platform;
pub mod program;
pub mod queue;
pub mod sampler;
pub mod svm;
