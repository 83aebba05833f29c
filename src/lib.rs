//! ferrocl: a CPU implementation of OpenCL 3.0, loaded through the ICD loader.
//!
//! `api` validates and translates the C calls, `core` owns the objects,
//! `sched` runs commands. See DESIGN.md in the project's shared folder.

mod api;
pub mod cl;
pub mod compiler;
pub mod core;
mod icd;
mod icd_names;
pub mod sched;
