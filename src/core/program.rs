//! Programs. Until the kernel compiler lands a program holds its source and
//! the outcome of build attempts, which fail with "no compiler".

use crate::cl::*;
use crate::compiler::Executable;
use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::object::{lookup, Base, ClObject, ObjectKind};
use std::sync::{Arc, Mutex};

/// What the last build, compile or link did, per program (one device).
#[derive(Clone)]
pub struct BuildState {
    pub status: cl_build_status,
    pub options: String,
    pub log: String,
}

/// `#[repr(C)]` so that the ICD base comes first.
#[repr(C)]
pub struct Program {
    base: Base,
    pub context: Arc<Context>,
    pub devices: Vec<Arc<Device>>,
    pub source: String,
    build: Mutex<BuildState>,
    /// The result of the last successful build, if any.
    executable: Mutex<Option<Arc<Executable>>>,
}

impl ClObject for Program {
    const KIND: ObjectKind = ObjectKind::Program;
    const INVALID: cl_int = CL_INVALID_PROGRAM;
    type Raw = _cl_program;
    fn base(&self) -> &Base {
        &self.base
    }
}

/// The build log line when the device has no compiler.
pub const NO_COMPILER_LOG: &str =
    "ferrocl: this device has no OpenCL C compiler yet (CL_DEVICE_COMPILER_AVAILABLE is CL_FALSE)";

impl Program {
    pub fn with_source(context: Arc<Context>, source: String) -> Arc<Program> {
        let devices = context.devices.clone();
        Arc::new(Program {
            base: Base::new(ObjectKind::Program),
            context,
            devices,
            source,
            build: Mutex::new(BuildState {
                status: CL_BUILD_NONE,
                options: String::new(),
                log: String::new(),
            }),
            executable: Mutex::new(None),
        })
    }

    pub fn resolve(handle: cl_program) -> Result<Arc<Program>, cl_int> {
        lookup::<Program>(handle)
    }

    /// The built executable kernels are created from.
    pub fn executable(&self) -> Option<Arc<Executable>> {
        self.executable
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    pub fn set_executable(&self, exe: Arc<Executable>) {
        *self.executable.lock().unwrap_or_else(|p| p.into_inner()) = Some(exe);
    }

    pub fn build_state(&self) -> BuildState {
        self.build.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Records a build attempt that could not run for want of a compiler.
    pub fn fail_build(&self, options: &str) {
        *self.build.lock().unwrap_or_else(|p| p.into_inner()) = BuildState {
            status: CL_BUILD_ERROR,
            options: options.to_string(),
            log: NO_COMPILER_LOG.to_string(),
        };
    }
}
