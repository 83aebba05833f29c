//! The `extern "C"` entry points, one module per object family. Each
//! validates its arguments, translates them, and calls into `core`.

pub mod context;
pub mod device;
pub mod enqueue;
pub mod event;
pub mod image;
pub mod interop;
pub mod kernel;
pub mod memory;
pub mod native_mem;
pub mod pipe;
pub mod platform;
pub mod program;
pub mod queue;
pub mod svm;
pub mod transfer;
pub mod util;
