//! Programs: source or binary, the outcome of the last build, and the
//! executable it produced.

use crate::cl::*;
use crate::compiler::{spirv, Executable, Object, ObjectKind as ObjKind};
use crate::context::Context;
use crate::device::Device;
use crate::object::{cl_object, lookup, Base, ObjectKind};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// What the last build, compile or link did, per program (one device).
#[derive(Clone)]
pub struct BuildState {
    pub status: cl_build_status,
    pub options: String,
    pub log: String,
    /// CL_PROGRAM_BINARY_TYPE.
    pub binary_type: cl_program_binary_type,
}

/// Where a program came from, which decides what a build may do with it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Origin {
    /// clCreateProgramWithSource (the source may be empty).
    Source,
    /// clCreateProgramWithBinary.
    Binary,
    /// clLinkProgram.
    Linked,
    /// clCreateProgramWithIL.
    Il,
}

/// A program's SPIR-V module: the bytes as given (CL_PROGRAM_IL), what
/// was read of them, and the values clSetProgramSpecializationConstant
/// gave its specialization constants (used by the builds after it).
pub struct Il {
    pub bytes: Vec<u8>,
    pub module: spirv::Module,
    spec_values: Mutex<BTreeMap<u32, Vec<u8>>>,
}

impl Il {
    /// Sets the specialization constant `id` to `value`: CL_INVALID_SPEC_ID
    /// if the module has none of that id, CL_INVALID_VALUE if `value` is
    /// not its size.
    pub fn specialize(&self, id: u32, value: &[u8]) -> Result<(), cl_int> {
        let c = self.module.spec_constant(id).ok_or(CL_INVALID_SPEC_ID)?;
        if c.size != value.len() {
            return Err(CL_INVALID_VALUE);
        }
        self.spec_values
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id, value.to_vec());
        Ok(())
    }

    /// The module as the translator reads it, with the specialization
    /// constants set so far; the build log's text if it cannot be read.
    pub fn for_translator(&self) -> Result<Vec<u8>, String> {
        let values = self.spec_values.lock().unwrap_or_else(|p| p.into_inner());
        self.module.for_translator(&values)
    }
}

/// `#[repr(C)]` so that the ICD base comes first.
#[repr(C)]
pub struct Program {
    base: Base,
    pub context: Arc<Context>,
    pub devices: Vec<Arc<Device>>,
    pub source: String,
    /// The SPIR-V module of a program created with one.
    pub il: Option<Il>,
    build: Mutex<BuildState>,
    /// The result of the last successful build, if any.
    executable: Mutex<Option<Arc<Executable>>>,
    /// The compiled object or library of the last clCompileProgram (or
    /// clLinkProgram -create-library, or a binary of one).
    object: Mutex<Option<Arc<Object>>>,
    origin: Origin,
    /// The kernel objects created from the program that still exist
    /// (Kernel's constructors and Drop keep the count).
    kernels: AtomicUsize,
}

cl_object!(Program, Program, CL_INVALID_PROGRAM, _cl_program);

impl BuildState {
    /// A state no build has touched yet: no options given.
    fn fresh(
        status: cl_build_status,
        log: String,
        binary_type: cl_program_binary_type,
    ) -> BuildState {
        BuildState {
            status,
            options: String::new(),
            log,
            binary_type,
        }
    }
}

impl Program {
    /// Every program starts here: what it holds and its build state.
    #[allow(clippy::too_many_arguments)]
    fn new(
        context: Arc<Context>,
        devices: Vec<Arc<Device>>,
        source: String,
        il: Option<Il>,
        build: BuildState,
        executable: Option<Executable>,
        object: Option<Object>,
        origin: Origin,
    ) -> Arc<Program> {
        Arc::new(Program {
            base: Base::new(ObjectKind::Program),
            context,
            devices,
            source,
            il,
            build: Mutex::new(build),
            executable: Mutex::new(executable.map(Arc::new)),
            object: Mutex::new(object.map(Arc::new)),
            origin,
            kernels: AtomicUsize::new(0),
        })
    }

    /// A program from a binary or a link: no source.
    fn without_source(
        context: Arc<Context>,
        devices: Vec<Arc<Device>>,
        build: BuildState,
        executable: Option<Executable>,
        object: Option<Object>,
        origin: Origin,
    ) -> Arc<Program> {
        let source = String::new();
        Program::new(
            context, devices, source, None, build, executable, object, origin,
        )
    }

    pub fn with_source(context: Arc<Context>, source: String) -> Arc<Program> {
        let devices = context.devices.clone();
        let build = BuildState::fresh(
            CL_BUILD_NONE,
            String::new(),
            CL_PROGRAM_BINARY_TYPE_NONE as cl_program_binary_type,
        );
        Program::new(
            context,
            devices,
            source,
            None,
            build,
            None,
            None,
            Origin::Source,
        )
    }

    /// A program of a SPIR-V module (clCreateProgramWithIL), its bytes
    /// already read into `module`.
    pub fn with_il(context: Arc<Context>, bytes: Vec<u8>, module: spirv::Module) -> Arc<Program> {
        let devices = context.devices.clone();
        let build = BuildState::fresh(
            CL_BUILD_NONE,
            String::new(),
            CL_PROGRAM_BINARY_TYPE_NONE as cl_program_binary_type,
        );
        let il = Il {
            bytes,
            module,
            spec_values: Mutex::new(BTreeMap::new()),
        };
        let source = String::new();
        Program::new(
            context,
            devices,
            source,
            Some(il),
            build,
            None,
            None,
            Origin::Il,
        )
    }

    /// A program holding a compiled object or library (a binary of one, or
    /// what clLinkProgram made with -create-library).
    pub fn with_object(
        context: Arc<Context>,
        devices: Vec<Arc<Device>>,
        object: Object,
        from_binary: bool,
    ) -> Arc<Program> {
        let status = if from_binary {
            CL_BUILD_NONE
        } else {
            CL_BUILD_SUCCESS
        };
        let origin = if from_binary {
            Origin::Binary
        } else {
            Origin::Linked
        };
        let build = BuildState::fresh(status, object.log.clone(), object_binary_type(object.kind));
        Program::without_source(context, devices, build, None, Some(object), origin)
    }

    /// The program clLinkProgram returns: its outcome recorded with
    /// finish_build or set_object.
    pub fn linked(context: Arc<Context>, devices: Vec<Arc<Device>>) -> Arc<Program> {
        let build = BuildState::fresh(
            CL_BUILD_IN_PROGRESS,
            String::new(),
            CL_PROGRAM_BINARY_TYPE_NONE as cl_program_binary_type,
        );
        Program::without_source(context, devices, build, None, None, Origin::Linked)
    }

    /// The compiled object or library, if the program holds one.
    pub fn object(&self) -> Option<Arc<Object>> {
        self.object
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Records a compile's (or a library link's) outcome.
    pub fn finish_compile(&self, options: &str, result: Result<Object, String>) -> bool {
        let mut b = self.build.lock().unwrap_or_else(|p| p.into_inner());
        let mut o = self.object.lock().unwrap_or_else(|p| p.into_inner());
        b.options = options.to_string();
        match result {
            Ok(obj) => {
                b.status = CL_BUILD_SUCCESS;
                b.log = obj.log.clone();
                b.binary_type = object_binary_type(obj.kind);
                *o = Some(Arc::new(obj));
                // A compiled program has no executable until linked.
                *self.executable.lock().unwrap_or_else(|p| p.into_inner()) = None;
                true
            }
            Err(log) => {
                b.status = CL_BUILD_ERROR;
                b.log = log;
                b.binary_type = CL_PROGRAM_BINARY_TYPE_NONE as cl_program_binary_type;
                *o = None;
                *self.executable.lock().unwrap_or_else(|p| p.into_inner()) = None;
                false
            }
        }
    }

    /// A program from a binary (clCreateProgramWithBinary), already loaded.
    pub fn with_binary(
        context: Arc<Context>,
        devices: Vec<Arc<Device>>,
        exe: Executable,
    ) -> Arc<Program> {
        let build = BuildState::fresh(
            CL_BUILD_NONE,
            String::new(),
            CL_PROGRAM_BINARY_TYPE_EXECUTABLE as cl_program_binary_type,
        );
        Program::without_source(context, devices, build, Some(exe), None, Origin::Binary)
    }

    /// Whether the program was created from a binary.
    pub fn from_binary(&self) -> bool {
        self.origin == Origin::Binary
    }

    /// Whether the program was created from source or IL: it has source
    /// (even an empty string) or a module to compile.
    pub fn has_source(&self) -> bool {
        matches!(self.origin, Origin::Source | Origin::Il)
    }

    /// Records a build's outcome: the executable on success (replacing the
    /// previous one), the status, options and log either way.
    pub fn finish_build(&self, options: &str, result: Result<Executable, String>) -> bool {
        let (state, exe) = match result {
            Ok(exe) => (
                BuildState {
                    status: CL_BUILD_SUCCESS,
                    options: options.to_string(),
                    log: exe.log.clone(),
                    binary_type: CL_PROGRAM_BINARY_TYPE_EXECUTABLE as cl_program_binary_type,
                },
                Some(Arc::new(exe)),
            ),
            Err(log) => (
                BuildState {
                    status: CL_BUILD_ERROR,
                    options: options.to_string(),
                    log,
                    binary_type: CL_PROGRAM_BINARY_TYPE_NONE as cl_program_binary_type,
                },
                None,
            ),
        };
        let ok = exe.is_some();
        if ok {
            *self.object.lock().unwrap_or_else(|p| p.into_inner()) = None;
        }
        if ok || !self.from_binary() {
            *self.executable.lock().unwrap_or_else(|p| p.into_inner()) = exe;
        }
        *self.build.lock().unwrap_or_else(|p| p.into_inner()) = state;
        ok
    }

    /// A successful build of a binary program: its executable stays.
    pub fn finish_binary_build(&self, options: &str) {
        let mut b = self.build.lock().unwrap_or_else(|p| p.into_inner());
        b.status = CL_BUILD_SUCCESS;
        b.options = options.to_string();
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

    /// A kernel object of this program was created.
    pub fn kernel_attached(&self) {
        self.kernels.fetch_add(1, Ordering::Relaxed);
    }

    /// A kernel object of this program is gone.
    pub fn kernel_detached(&self) {
        self.kernels.fetch_sub(1, Ordering::Relaxed);
    }

    /// Whether kernel objects are attached to the program: its build,
    /// which they were made from, cannot be replaced.
    pub fn has_kernels(&self) -> bool {
        self.kernels.load(Ordering::Relaxed) != 0
    }

    pub fn build_state(&self) -> BuildState {
        self.build.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

fn object_binary_type(kind: ObjKind) -> cl_program_binary_type {
    (match kind {
        ObjKind::Compiled => CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
        ObjKind::Library => CL_PROGRAM_BINARY_TYPE_LIBRARY,
    }) as cl_program_binary_type
}
