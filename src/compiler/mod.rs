//! The kernel compiler: OpenCL C source to a loaded shared object with one
//! work-item entry per kernel, and a work-group entry per kernel that can
//! run in work-item loops (see abi.rs for the calling convention). Rust
//! drives the steps, caches and loads; what reads or changes LLVM IR is C++
//! in passes/ and llvm_inprocess.cpp.
//!
//! This crate's interface is what the rest of ferrocl uses; the pipeline
//! behind `build` is the compiler work (issue 3). It knows nothing of CL
//! objects: what it reports in CL's terms (argument qualifiers, say) are
//! the numbers the passes write.

pub mod abi;
mod binary;
pub mod blocks;
mod code;
mod driver;
mod inprocess;
mod object_cache;
#[cfg(test)]
mod pass_tests;
pub mod spirv;
mod spirv_lowering;
#[cfg(test)]
mod tests;

pub use code::Code;
use code::PendingCode;
pub use driver::{BuildError, Input};

/// A kernel argument's access qualifier: the value of
/// `cl_kernel_arg_access_qualifier` (passes/kernel_description.cpp).
pub type ArgAccessQualifier = u32;
/// A kernel argument's type qualifiers: the bits of
/// `cl_kernel_arg_type_qualifier` (passes/kernel_description.cpp).
pub type ArgTypeQualifier = u64;

/// The version the compiler reports and keys its caches with: the
/// package's and a hash of the compiler's sources (build.rs).
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    "+",
    env!("FERROCL_COMPILER_HASH")
);

/// The OpenCL C extensions kernels may use: the device reports them, and the
/// front end defines their macros and nothing else (clang would otherwise
/// claim every extension it knows for this target).
pub const OPENCL_C_EXTENSIONS: &[(&str, (u32, u32, u32))] = &[
    ("cl_khr_byte_addressable_store", (1, 0, 0)),
    ("cl_khr_global_int32_base_atomics", (1, 0, 0)),
    ("cl_khr_global_int32_extended_atomics", (1, 0, 0)),
    ("cl_khr_local_int32_base_atomics", (1, 0, 0)),
    ("cl_khr_local_int32_extended_atomics", (1, 0, 0)),
    ("cl_khr_int64_base_atomics", (1, 0, 0)),
    ("cl_khr_int64_extended_atomics", (1, 0, 0)),
    ("cl_khr_fp64", (1, 0, 0)),
    // half arithmetic (the back end computes it in float, rounding each
    // result: F16C or AVX-512 FP16 conversions) and every builtin's half
    // overloads (builtins/lib/half.cl, and the sub-group and image
    // functions' in their files).
    ("cl_khr_fp16", (1, 0, 0)),
    // half, float and double atomic add/sub/min/max, and half's
    // load/store/exchange (builtins/lib/c11_atomic.cl), global and local:
    // CL_DEVICE_{HALF,SINGLE,DOUBLE}_FP_ATOMIC_CAPABILITIES_EXT.
    ("cl_ext_float_atomics", (1, 0, 0)),
    // bitfield_insert/extract, bit_reverse (builtins/lib/extended_integer.cl).
    ("cl_khr_extended_bit_ops", (1, 0, 0)),
    // dot, dot_acc_sat and the packed forms (the same file).
    ("cl_khr_integer_dot_product", (2, 0, 0)),
    // __builtin_expect and __builtin_assume: clang's own.
    ("cl_khr_expect_assume", (1, 0, 0)),
    // Sub-groups with independent forward progress: a loop that may wait
    // for another work-item gives way to the group's others each
    // iteration (passes/progress_in_waiting_loops.cpp, the fiber executor).
    ("cl_khr_subgroups", (1, 0, 0)),
    // Sub-group shuffles, rotates and clustered reductions
    // (builtins/lib/collective.cl), over __opencl_c_subgroups.
    ("cl_khr_subgroup_shuffle", (1, 0, 0)),
    ("cl_khr_subgroup_shuffle_relative", (1, 0, 0)),
    ("cl_khr_subgroup_rotate", (1, 0, 0)),
    ("cl_khr_subgroup_clustered_reduce", (1, 0, 0)),
    // broadcast, reduce and scans for 8- and 16-bit integers, broadcast
    // of vectors (the same file).
    ("cl_khr_subgroup_extended_types", (1, 0, 0)),
    // Votes, ballots and reductions and scans of the work-items that call
    // them together (builtins/lib/collective.cl): the fiber executor
    // gathers a sub-group's work-items waiting at one call site
    // (sched::ndrange::run_group_fibers).
    ("cl_khr_subgroup_non_uniform_vote", (1, 0, 0)),
    ("cl_khr_subgroup_ballot", (1, 0, 0)),
    ("cl_khr_subgroup_non_uniform_arithmetic", (1, 0, 0)),
    // Shuffles and block reads and writes of buffers (builtins/lib/
    // collective.cl) and 2D images (image.cl); declared to kernels by
    // builtins/lib/intel_subgroups.h (compiler::driver).
    ("cl_intel_subgroups", (1, 0, 0)),
    // Its 16-bit functions: intel_ broadcasts, reductions and scans of
    // short and ushort, ushort block reads and writes, the _ui names.
    ("cl_intel_subgroups_short", (1, 0, 0)),
    // Its 8-bit functions: intel_ broadcasts, reductions and scans of char
    // and uchar, uchar block reads and writes of buffers and 2D images.
    ("cl_intel_subgroups_char", (1, 0, 0)),
    // ulong block reads and writes of buffers and 2D images.
    ("cl_intel_subgroups_long", (1, 0, 0)),
    // intel_reqd_sub_group_size(8, 16 or 32) and CL_DEVICE_SUB_GROUP_SIZES_INTEL;
    // DPC++ reads the device's sub-group sizes only where it is reported.
    ("cl_intel_required_subgroup_size", (1, 0, 0)),
];

/// The OpenCL C 3.0 optional features implemented (CL_DEVICE_OPENCL_C_FEATURES).
pub const OPENCL_C_FEATURES: &[(&str, (u32, u32, u32))] = &[
    ("__opencl_c_int64", (3, 0, 0)),
    ("__opencl_c_fp64", (3, 0, 0)),
    ("__opencl_c_fp16", (3, 0, 0)),
    ("__opencl_c_work_group_collective_functions", (3, 0, 0)),
    ("__opencl_c_subgroups", (3, 0, 0)),
    // C11 atomics (builtins/lib/c11_atomic.cl): every order and scope, as
    // CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES reports.
    ("__opencl_c_atomic_order_acq_rel", (3, 0, 0)),
    ("__opencl_c_atomic_order_seq_cst", (3, 0, 0)),
    ("__opencl_c_atomic_scope_device", (3, 0, 0)),
    ("__opencl_c_atomic_scope_all_devices", (3, 0, 0)),
    // to_global/to_local/to_private/get_fence: builtins/workitem.c.
    ("__opencl_c_generic_address_space", (3, 0, 0)),
    // Data of the program's own loaded object (passes/global_variables_size.cpp
    // sizes it).
    ("__opencl_c_program_scope_global_variables", (3, 0, 0)),
    // cl_khr_integer_dot_product's inputs (builtins/lib/extended_integer.cl):
    // features too, which the Khronos CTS's features_macro compares with
    // this list.
    ("__opencl_c_integer_dot_product_input_4x8bit", (2, 0, 0)),
    (
        "__opencl_c_integer_dot_product_input_4x8bit_packed",
        (2, 0, 0),
    ),
];

/// Device-side enqueue and pipes: implemented, but clang-19 accepts
/// __opencl_c_device_enqueue only with __opencl_c_generic_address_space and
/// __opencl_c_program_scope_global_variables, and __opencl_c_pipes only with
/// the generic address space; each is reported once its prerequisites are
/// in OPENCL_C_FEATURES (OpenCL C 2.0 kernels have both regardless).
/// (feature, version, the features it needs).
type DependentFeature = (&'static str, (u32, u32, u32), &'static [&'static str]);

const DEPENDENT_FEATURES: &[DependentFeature] = &[
    (
        "__opencl_c_device_enqueue",
        (3, 0, 0),
        &[
            "__opencl_c_generic_address_space",
            "__opencl_c_program_scope_global_variables",
        ],
    ),
    (
        "__opencl_c_pipes",
        (3, 0, 0),
        &["__opencl_c_generic_address_space"],
    ),
];

fn has_feature(name: &str) -> bool {
    OPENCL_C_FEATURES.iter().any(|(n, _)| *n == name)
        || DEPENDENT_FEATURES
            .iter()
            .any(|(n, _, needs)| *n == name && needs.iter().all(|p| has_feature(p)))
}

/// Images (builtins/lib/image.cl and the runtime's image objects):
/// reported unless FERROCL_IMAGES=0 (a device without images, for
/// programs that take another path then). core::caps reads this too.
pub fn images_supported() -> bool {
    static ON: std::sync::LazyLock<bool> =
        std::sync::LazyLock::new(|| std::env::var("FERROCL_IMAGES").as_deref() != Ok("0"));
    *ON
}

/// The image features, when images are reported: 3D image writes are in
/// the builtins too.
const IMAGE_FEATURES: &[(&str, (u32, u32, u32))] = &[
    ("__opencl_c_images", (3, 0, 0)),
    ("__opencl_c_read_write_images", (3, 0, 0)),
    ("__opencl_c_3d_image_writes", (3, 0, 0)),
];

/// Every OpenCL C extension the device reports: OPENCL_C_EXTENSIONS, and
/// with images cl_khr_3d_image_writes (clang wants it set together with
/// __opencl_c_3d_image_writes), cl_khr_depth_images and
/// cl_khr_srgb_image_writes (kernels test its macro: the Khronos CTS's
/// compiler_defines_for_extensions).
pub fn opencl_c_extensions() -> Vec<(&'static str, (u32, u32, u32))> {
    let mut all = OPENCL_C_EXTENSIONS.to_vec();
    if kernel_clock_supported() {
        all.push(("cl_khr_kernel_clock", (1, 0, 0)));
    }
    if images_supported() {
        all.push(("cl_khr_3d_image_writes", (1, 0, 0)));
        all.push(("cl_khr_depth_images", (1, 0, 0)));
        all.push(("cl_khr_srgb_image_writes", (1, 0, 0)));
    }
    all
}

/// Every OpenCL C feature the device reports (CL_DEVICE_OPENCL_C_FEATURES).
pub fn opencl_c_features() -> Vec<(&'static str, (u32, u32, u32))> {
    let mut all = OPENCL_C_FEATURES.to_vec();
    if images_supported() {
        all.extend_from_slice(IMAGE_FEATURES);
    }
    all.extend(
        DEPENDENT_FEATURES
            .iter()
            .filter(|(name, _, _)| has_feature(name))
            .map(|&(name, version, _)| (name, version)),
    );
    all
}

/// What OpenCL C 2.0 requires of a device (OpenCL C 3.0 spec, "6.2.1
/// Features": the features a 2.0 device supports), images aside (optional
/// in 2.0 too, with CL_DEVICE_IMAGE_SUPPORT).
const OPENCL_C_2_0_FEATURES: &[&str] = &[
    "__opencl_c_atomic_order_acq_rel",
    "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_atomic_scope_device",
    "__opencl_c_atomic_scope_all_devices",
    "__opencl_c_device_enqueue",
    "__opencl_c_generic_address_space",
    "__opencl_c_pipes",
    "__opencl_c_program_scope_global_variables",
    "__opencl_c_work_group_collective_functions",
];

/// The device compiles all of OpenCL C 2.0 (CL_DEVICE_OPENCL_C_VERSION).
pub fn opencl_c_2_0() -> bool {
    OPENCL_C_2_0_FEATURES.iter().all(|f| has_feature(f))
}

/// The device has on-device queues (__opencl_c_device_enqueue).
pub fn device_enqueue_supported() -> bool {
    has_feature("__opencl_c_device_enqueue")
}

/// The device has pipes (__opencl_c_pipes).
pub fn pipes_supported() -> bool {
    has_feature("__opencl_c_pipes")
}

/// The front-end option that makes clang's extension and feature macros
/// match what the device reports.
pub fn extension_option() -> String {
    let enabled: Vec<String> = opencl_c_extensions()
        .into_iter()
        .chain(opencl_c_features())
        .map(|(name, _)| format!("+{name}"))
        .collect();
    format!("-cl-ext=-all,{}", enabled.join(","))
}

/// The extensions clang-19 knows only for SPIR targets (its header
/// declares their functions when their macros are defined), and
/// cl_intel_required_subgroup_size, whose attribute it knows but not its
/// macro: their macros and feature macros, defined directly. cl_ext_float_atomics: fp16,
/// fp32 and fp64, global and local.
const SPIR_ONLY_MACROS: &[&str] = &[
    "cl_khr_extended_bit_ops",
    "cl_khr_integer_dot_product",
    "__opencl_c_integer_dot_product_input_4x8bit",
    "__opencl_c_integer_dot_product_input_4x8bit_packed",
    "cl_khr_expect_assume",
    "cl_khr_subgroups",
    "cl_khr_subgroup_shuffle",
    "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroup_rotate",
    "cl_khr_subgroup_clustered_reduce",
    "cl_khr_subgroup_extended_types",
    "cl_khr_subgroup_non_uniform_vote",
    "cl_khr_subgroup_ballot",
    "cl_khr_subgroup_non_uniform_arithmetic",
    "cl_intel_subgroups",
    "cl_intel_subgroups_short",
    "cl_intel_subgroups_char",
    "cl_intel_subgroups_long",
    "cl_intel_required_subgroup_size",
    "cl_ext_float_atomics",
    "__opencl_c_ext_fp32_global_atomic_add",
    "__opencl_c_ext_fp32_local_atomic_add",
    "__opencl_c_ext_fp32_global_atomic_min_max",
    "__opencl_c_ext_fp32_local_atomic_min_max",
    "__opencl_c_ext_fp64_global_atomic_add",
    "__opencl_c_ext_fp64_local_atomic_add",
    "__opencl_c_ext_fp64_global_atomic_min_max",
    "__opencl_c_ext_fp64_local_atomic_min_max",
    "__opencl_c_ext_fp16_global_atomic_load_store",
    "__opencl_c_ext_fp16_local_atomic_load_store",
    "__opencl_c_ext_fp16_global_atomic_add",
    "__opencl_c_ext_fp16_local_atomic_add",
    "__opencl_c_ext_fp16_global_atomic_min_max",
    "__opencl_c_ext_fp16_local_atomic_min_max",
];

/// cl_khr_kernel_clock: clock_read_* read the time-stamp counter
/// (builtins/lib/kernel_clock.cl), a device-wide clock only where it is
/// invariant and the same on every core (/proc/cpuinfo's constant_tsc and
/// nonstop_tsc); its work-group and sub-group clocks are the same counter.
pub fn kernel_clock_supported() -> bool {
    static ON: std::sync::LazyLock<bool> = std::sync::LazyLock::new(|| {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let flags = cpuinfo.lines().find(|l| l.starts_with("flags"));
        flags.is_some_and(|l| {
            let has = |f: &str| l.split_whitespace().any(|w| w == f);
            has("constant_tsc") && has("nonstop_tsc")
        })
    });
    *ON
}

/// The macros of cl_khr_kernel_clock, which clang-19 defines for SPIR
/// targets only (its header then declares clock_read_*).
const KERNEL_CLOCK_MACROS: &[&str] = &[
    "cl_khr_kernel_clock",
    "__opencl_c_kernel_clock_scope_device",
    "__opencl_c_kernel_clock_scope_work_group",
    "__opencl_c_kernel_clock_scope_sub_group",
];

/// The -D options for the features and extensions `extension_option`
/// cannot set, for the `-cl-std` value `std` (e.g. "CL3.0").
pub fn feature_defines(std: &str) -> Vec<String> {
    // For OpenCL C 3.0, clang-19's -cl-ext leaves some feature macros
    // undefined (the atomic scopes it does not know; those it sets only for
    // SPIR targets, such as __opencl_c_work_group_collective_functions):
    // every reported feature is defined again (the same value, so
    // harmless). For 2.0, opencl-c-base.h defines them itself.
    let features = opencl_c_features()
        .into_iter()
        .map(|(name, _)| name)
        .filter(|_| std == "CL3.0");
    // clang defines cl_khr_srgb_image_writes only from OpenCL C 2.0 on;
    // the extension's macro is there whatever the version.
    let srgb = images_supported().then_some("cl_khr_srgb_image_writes");
    // "__IMAGE_SUPPORT__ ... is defined as the integer constant 1 if the
    // device supports images" (OpenCL C 6.12); clang defines it for SPIR
    // targets only.
    let image_support = images_supported().then_some("__IMAGE_SUPPORT__");
    let clock = KERNEL_CLOCK_MACROS
        .iter()
        .copied()
        .filter(|_| kernel_clock_supported());
    features
        .chain(SPIR_ONLY_MACROS.iter().copied())
        .chain(clock)
        .chain(srgb)
        .chain(image_support)
        .map(|name| format!("-D{name}=1"))
        .collect()
}

/// Where a kernel argument lives (kernel_arg_addr_space).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgSpace {
    /// A value passed by copy (scalar, vector, struct).
    Private,
    Global,
    Constant,
    Local,
}

/// One kernel argument, from the kernel's metadata.
#[derive(Clone, Debug)]
pub struct KernelArg {
    pub space: ArgSpace,
    /// For a Private argument, the size of its value in bytes; for pointers,
    /// the size of a pointer.
    pub size: usize,
    /// CL_KERNEL_ARG_TYPE_NAME, e.g. "float4*" or "uint".
    pub type_name: String,
    pub name: String,
    pub access: ArgAccessQualifier,
    pub type_qualifier: ArgTypeQualifier,
}

/// One kernel of a built program.
#[derive(Clone, Debug)]
pub struct KernelInfo {
    pub name: String,
    pub args: Vec<KernelArg>,
    /// __attribute__((reqd_work_group_size(x, y, z))).
    pub reqd_work_group_size: Option<[usize; 3]>,
    /// __attribute__((work_group_size_hint(x, y, z))).
    pub work_group_size_hint: Option<[usize; 3]>,
    /// The kernel calls barrier() (or a work-group function): its
    /// work-items must be able to suspend.
    pub uses_barriers: bool,
    /// The compiled program has a work-group entry for the kernel
    /// (`__ferrocl_wg_K`, abi::WorkGroupEntry), which runs all work-items of
    /// a group in loops. Barrier-free kernels only, and not those whose
    /// work-item functions are called outside the kernel's own body.
    pub group_entry: bool,
    /// CL_KERNEL_ATTRIBUTES.
    pub attributes: String,
    /// Bytes of __local variables declared in the kernel (or functions it
    /// calls), part of CL_KERNEL_LOCAL_MEM_SIZE.
    pub local_variables_size: usize,
    /// For a kernel with barriers that has a work-group entry: the bytes
    /// per work-item of the frame that keeps its values across barriers
    /// (`WorkGroupContext::frame`, see passes/region_entries.cpp).
    pub frame_size: usize,
    /// Launches must have uniform work-groups: the program was built for
    /// OpenCL C 1.x or with -cl-uniform-work-group-size (clang's kernel
    /// attribute "uniform-work-group-size").
    pub uniform_work_groups: bool,
    /// clGetKernelArgInfo answers: the build (or the compile that made
    /// the kernel) gave -cl-kernel-arg-info. The kernel keeps clang's
    /// `!kernel_arg_name` only then (passes/kernel_options.cpp).
    pub arg_info: bool,
    /// The kernel runs with single-precision denormals flushed to zero
    /// (-cl-denorms-are-zero; the executor sets the thread's FTZ/DAZ).
    pub denormals_are_zero: bool,
    /// The dimension whose work-item loop is innermost in the work-group
    /// entry (0 unless the kernel's memory is contiguous along y or z:
    /// passes/contiguous_dimension.h); a group the runtime sizes itself is
    /// longest along it.
    pub inner_dimension: usize,
    /// It may wait for another command running meanwhile (atomics,
    /// volatile accesses or pipes on memory others share:
    /// passes/kernel_calls.h may_wait_for_others), so it must not run on
    /// the enqueuing thread (sched::run_here).
    pub may_wait_for_others: bool,
    /// Its work-group entry may run one group in pieces (ranges of local
    /// ids, WorkGroupContext::items_begin/end) on several threads at once:
    /// the work-items cannot tell (passes/work_group_entries.cpp).
    pub splittable: bool,
    /// The sub-group size it requires (cl_intel_required_subgroup_size:
    /// intel_reqd_sub_group_size, SPIR-V's SubgroupSize), 0 if none; a
    /// program whose kernel requires a size not in abi::SUB_GROUP_SIZES
    /// does not build.
    pub required_sub_group_size: usize,
}

impl KernelInfo {
    /// The work-items of its sub-groups: what it requires, else the
    /// device's default.
    pub fn sub_group_size(&self) -> usize {
        match self.required_sub_group_size {
            0 => abi::SUB_GROUP_SIZE,
            size => size,
        }
    }
}

/// A built program: its kernels now, its machine code once the back end
/// made it (code.rs).
pub struct Executable {
    pub kernels: Vec<KernelInfo>,
    code: PendingCode,
    /// The compiler's diagnostics (warnings) for a successful build.
    pub log: String,
    /// Per kernel, nanoseconds one of its work-groups took in its last
    /// launch (0: not launched yet), whichever kernel object launched it:
    /// the scheduler's guess, at the next launch, of whether the groups are
    /// worth sharing among threads from the start (sched::pool::Pace).
    pub group_pace: Vec<std::sync::atomic::AtomicU64>,
}

/// Builds OpenCL C `source` with the program's build `options`, through
/// the on-disk cache. The error is the build log.
pub fn build(source: &str, options: &str) -> Result<Executable, String> {
    build_program(source, options).map_err(|e| e.log().to_string())
}

/// `build` with the kind of failure, for the API's error codes.
pub fn build_program(source: &str, options: &str) -> Result<Executable, BuildError> {
    build_input(Input::Source(source), options)
}

/// `build_program` of OpenCL C or of a SPIR-V module.
pub fn build_input(input: Input, options: &str) -> Result<Executable, BuildError> {
    driver::build_cached(input, options, driver::default_cache_dir().as_deref())
}

/// What clCompileProgram makes: a compiled object, or (clLinkProgram with
/// -create-library) a library. Both are clang's LLVM IR, kernel metadata
/// included; linking is llvm-link and the usual back end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectKind {
    Compiled,
    Library,
}

pub struct Object {
    pub kind: ObjectKind,
    /// Textual LLVM IR.
    pub ir: String,
    /// The compiler's diagnostics (warnings).
    pub log: String,
}

/// What clLinkProgram makes.
pub enum Linked {
    Library(Object),
    Executable(Executable),
}

/// clCompileProgram: source, with `headers` (include name, text), or a
/// SPIR-V module, to a compiled object.
pub fn compile_object(
    input: Input,
    options: &str,
    headers: &[(String, String)],
) -> Result<Object, BuildError> {
    driver::compile_object(input, options, headers)
}

/// clLinkProgram: objects and libraries to a library or an executable.
pub fn link(objects: &[&Object], options: &str) -> Result<Linked, BuildError> {
    driver::link(objects, options)
}

/// Checks link options (CL_INVALID_LINKER_OPTIONS).
pub fn check_link_options(options: &str) -> Result<(), String> {
    driver::check_link_options(options).map_err(|e| e.log().to_string())
}

impl Object {
    /// CL_PROGRAM_BINARIES of a compiled object or library.
    pub fn binary(&self) -> Vec<u8> {
        binary::encode_object(self)
    }

    /// An object from its binary; None if `bytes` is not one.
    pub fn load(bytes: &[u8]) -> Option<Object> {
        binary::decode_object(bytes)
    }
}

/// Checks build options without building (CL_INVALID_BUILD_OPTIONS).
pub fn check_options(options: &str) -> Result<(), String> {
    driver::front_end_args(options)
        .map(|_| ())
        .map_err(|e| e.log().to_string())
}

impl Executable {
    /// An executable of `kernels` whose code `code` makes.
    pub fn new(kernels: Vec<KernelInfo>, code: PendingCode, log: String) -> Executable {
        let group_pace = kernels.iter().map(|_| Default::default()).collect();
        Executable {
            kernels,
            code,
            log,
            group_pace,
        }
    }

    /// The machine code, once the back end made it (waiting for it if it
    /// is still compiling); the back end's log if it failed.
    pub fn code(&self) -> Result<&Code, &str> {
        self.code.wait()
    }

    /// Assembles an executable from its parts (the executor's tests, which
    /// run hand-written entries): work-item entries only.
    pub fn from_parts(
        kernels: Vec<KernelInfo>,
        binary: Vec<u8>,
        entries: Vec<abi::WorkItemEntry>,
    ) -> Executable {
        assert_eq!(kernels.len(), entries.len());
        let none = vec![None; entries.len()];
        let code = Code::new(binary, entries, none, None, 0);
        Executable::new(kernels, PendingCode::ready(Ok(code)), String::new())
    }

    /// An executable from a program binary (CL_PROGRAM_BINARIES).
    pub fn load(binary: &[u8]) -> Result<Executable, String> {
        binary::load(binary)
    }

    /// The application kernel named `name` (block kernels have no name the
    /// application may use).
    pub fn kernel_index(&self, name: &str) -> Option<usize> {
        self.kernels
            .iter()
            .position(|k| k.name == name && !blocks::is_block_kernel(name))
    }

    /// The indices of the kernels the application sees: all but the block
    /// kernels of device-side enqueue.
    pub fn visible_kernels(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.kernels.len()).filter(|&i| !blocks::is_block_kernel(&self.kernels[i].name))
    }
}
