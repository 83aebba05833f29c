//! The entry points, one module per object family: ordinary functions
//! returning `Result`, which entry_points.rs gives their `extern "C"` form.
//! Each validates its arguments, translates them, and calls into `core`.

// They keep the C names and argument lists of the functions they implement.
#![allow(non_snake_case, clippy::too_many_arguments)]

pub mod command_buffer;
pub mod context;
pub mod device;
pub mod enqueue;
pub mod event;
pub mod image;
pub mod interop;
pub mod kernel;
pub mod memory;
pub mod mutable_dispatch;
pub mod native_mem;
pub mod pipe;
pub mod platform;
pub mod program;
pub mod queue;
pub mod svm;
pub mod transfer;
pub mod usm;
pub mod util;
