//! The object model in safe Rust.

pub mod callback;
pub mod caps;
pub mod context;
pub mod device;
pub mod event;
pub mod host_memory;
pub mod kernel;
pub mod memory;
pub mod object;
pub mod platform;
pub mod program;
pub mod queue;
pub mod svm;
