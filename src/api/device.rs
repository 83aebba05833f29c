//! Entry points: devices and sub-devices.

use crate::api::util::{c_array, write_list, InfoOut};
use crate::api::{command_buffer, mutable_dispatch};
use crate::cl::*;
use crate::core::command_buffer::CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR;
use crate::core::device::Device;
use crate::core::object::{self, handle_of, publish};
use crate::core::platform::{self, make_version, name_version, name_versions, Platform};
use std::ffi::c_void;
use std::sync::Arc;

/// Device extensions: only what is implemented and tested (the OpenCL C
/// ones are the compiler's).
fn device_extensions() -> Vec<(&'static str, (u32, u32, u32))> {
    let mut list = vec![("cl_khr_extended_versioning", (1, 0, 0))];
    if caps().images.is_some() {
        list.push(("cl_khr_image2d_from_buffer", (1, 0, 0)));
    }
    if crate::compiler::spirv::il_supported() {
        list.push(("cl_khr_il_program", (1, 0, 0)));
        // LinkOnceODR functions: the translator reads them, and linking
        // keeps them for the inputs after (llvm_inprocess.cpp).
        list.push(("cl_khr_spirv_linkonce_odr", (1, 0, 0)));
        // NoSignedWrap and NoUnsignedWrap become nsw and nuw (the
        // translator reads them): the Khronos CTS's ext_cl_khr_spirv_
        // no_integer_wrap_decoration tests pass.
        list.push(("cl_khr_spirv_no_integer_wrap_decoration", (1, 0, 0)));
        list.push(("cl_khr_spirv_queries", (1, 0, 0)));
    }
    list.push(("cl_intel_unified_shared_memory", (1, 0, 0)));
    list.push(("cl_khr_device_uuid", (1, 0, 0)));
    list.push(("cl_khr_suggested_local_work_size", (1, 0, 0)));
    // The provisional versions the Khronos CTS and current headers have.
    list.push(("cl_khr_command_buffer", (0, 9, 8)));
    list.push(("cl_khr_command_buffer_mutable_dispatch", (0, 9, 5)));
    list.extend(crate::compiler::opencl_c_extensions());
    list
}

/// The ILs the device reads (CL_DEVICE_ILS_WITH_VERSION): SPIR-V's
/// versions, where the translator is there (compiler::spirv).
fn ils() -> Vec<(&'static str, (u32, u32, u32))> {
    if !crate::compiler::spirv::il_supported() {
        return Vec::new();
    }
    let versions = crate::compiler::spirv::VERSIONS.iter();
    versions
        .map(|&(major, minor)| ("SPIR-V", (major, minor, 0)))
        .collect()
}

use crate::core::caps::{caps, DeviceQueueCaps};

/// cl_ext_float_atomics queries (not in the system's CL/cl_ext.h yet).
const CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT: cl_device_info = 0x4231;
const CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT: cl_device_info = 0x4232;
const CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT: cl_device_info = 0x4233;
/// cl_khr_kernel_clock (not in the system's CL/cl_ext.h yet).
const CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR: cl_device_info = 0x1076;
const CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR: cl_bitfield = 1 << 0;
const CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR: cl_bitfield = 1 << 1;
const CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR: cl_bitfield = 1 << 2;
/// cl_khr_spirv_queries (not in the system's CL/cl_ext.h yet).
const CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR: cl_device_info = 0x12B9;
const CL_DEVICE_SPIRV_EXTENSIONS_KHR: cl_device_info = 0x12BA;
const CL_DEVICE_SPIRV_CAPABILITIES_KHR: cl_device_info = 0x12BB;

/// A list of static strings as cl_khr_spirv_queries returns them: an
/// array of `const char *`, empty without SPIR-V.
fn spirv_names(names: &[&'static std::ffi::CStr]) -> Vec<usize> {
    match crate::compiler::spirv::il_supported() {
        true => names.iter().map(|n| n.as_ptr() as usize).collect(),
        false => Vec::new(),
    }
}

/// The SPIR-V capabilities the device accepts (compiler::spirv::accepted),
/// with the images' where it has images; none without SPIR-V.
fn spirv_capabilities() -> Vec<u32> {
    use crate::compiler::spirv::accepted;
    if !crate::compiler::spirv::il_supported() {
        return Vec::new();
    }
    let mut list = accepted::CAPABILITIES.to_vec();
    if let Some(images) = caps().images.as_ref() {
        list.extend_from_slice(accepted::IMAGE_CAPABILITIES);
        if images.max_read_write_image_args > 0 {
            list.push(accepted::IMAGE_READ_WRITE);
        }
    }
    list
}

/// Global and local load/store/exchange, add/sub and min/max
/// (CL_DEVICE_{GLOBAL,LOCAL}_FP_ATOMIC_{LOAD_STORE,ADD,MIN_MAX}_EXT).
const FP_ATOMICS_GLOBAL_AND_LOCAL: cl_bitfield = 0x7 | 0x7 << 16;

/// CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE: 16 MiB.
const MAX_GLOBAL_VARIABLE_SIZE: usize = 16 << 20;

/// Every memory order and every scope from work-group up (the OpenCL C
/// features __opencl_c_atomic_order_* and __opencl_c_atomic_scope_* say the
/// same, in compiler::OPENCL_C_FEATURES).
const ATOMIC_ORDERS_AND_SCOPES: cl_device_atomic_capabilities = (CL_DEVICE_ATOMIC_ORDER_RELAXED
    | CL_DEVICE_ATOMIC_ORDER_ACQ_REL
    | CL_DEVICE_ATOMIC_ORDER_SEQ_CST
    | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP
    | CL_DEVICE_ATOMIC_SCOPE_DEVICE
    | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES)
    as cl_device_atomic_capabilities;

/// CL_DRIVER_VERSION: the package version and, as semver build metadata,
/// the hash of the compiler's sources and builtins (build.rs).
///
/// Why: applications cache program binaries under the driver version
/// (PyOpenCL keys its cache on it, with the platform and device strings).
/// With the package version alone, a rebuilt ferrocl was handed binaries
/// of an older compiler: code without its fixes, or, once the binary
/// format had grown, CL_INVALID_BINARY, on which PyOpenCL 2026.1.4 fails the
/// build instead of compiling again.
const DRIVER_VERSION: &str = crate::compiler::VERSION;

/// A UUID (cl_khr_device_uuid) as the 128-bit FNV-1a hash of `parts`: the
/// same parts, the same UUID in every process, as the extension wants
/// ("stable across processes and reboots").
fn uuid_of(parts: &[&str]) -> [u8; 16] {
    let mut h: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    for part in parts {
        for &b in part.as_bytes().iter().chain([0u8].iter()) {
            h ^= b as u128;
            h = h.wrapping_mul(0x0000_0000_0100_0000_0000_0000_0000_013b);
        }
    }
    h.to_le_bytes()
}

/// cl_khr_integer_dot_product: both input kinds, none of them faster than
/// the same arithmetic written out (six cl_bool: 8-bit unsigned, signed,
/// mixed, and the same saturating-accumulate forms).
const DOT_PRODUCT_CAPABILITIES: cl_device_integer_dot_product_capabilities_khr =
    (CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR
        | CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR)
        as cl_device_integer_dot_product_capabilities_khr;
const NOT_ACCELERATED: [cl_bool; 6] = [CL_FALSE as cl_bool; 6];
/// The header's name, which is not upper case (a pattern needs one).
const DOT_PRODUCT_ACCELERATION_4X8BIT_PACKED: cl_device_info =
    CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR;

fn device_info(
    dev: &Arc<Device>,
    handle: cl_device_id,
    param: cl_device_info,
    out: &InfoOut,
) -> Result<(), cl_int> {
    let h = caps().host;
    let max_alloc = Device::max_mem_alloc_size();
    let fp_config = {
        let mut c = CL_FP_DENORM
            | CL_FP_INF_NAN
            | CL_FP_ROUND_TO_NEAREST
            | CL_FP_ROUND_TO_ZERO
            | CL_FP_ROUND_TO_INF;
        if h.has_fma {
            c |= CL_FP_FMA;
        }
        c as cl_device_fp_config
    };
    match param {
        CL_DEVICE_TYPE => out.write(&(CL_DEVICE_TYPE_CPU as cl_device_type)),
        CL_DEVICE_VENDOR_ID => out.write(&match h.cpu_vendor.as_str() {
            "GenuineIntel" => 0x8086u32,
            "AuthenticAMD" => 0x1022,
            _ => 0,
        }),
        CL_DEVICE_MAX_COMPUTE_UNITS => out.write(&dev.compute_units),
        CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS => out.write(&3u32),
        CL_DEVICE_MAX_WORK_ITEM_SIZES => out.write(&[caps().max_work_group_size; 3]),
        CL_DEVICE_MAX_WORK_GROUP_SIZE => out.write(&caps().max_work_group_size),
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR | CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR => {
            out.write(&16u32)
        }
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT | CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT => {
            out.write(&8u32)
        }
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_INT
        | CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT => out.write(&4u32),
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG | CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG => {
            out.write(&2u32)
        }
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE | CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE => {
            out.write(&2u32)
        }
        // cl_khr_fp16: halves are converted to and from float eight at a
        // time (F16C), and computed as floats.
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF | CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF => {
            out.write(&8u32)
        }
        CL_DEVICE_MAX_CLOCK_FREQUENCY => out.write(&h.clock_mhz),
        CL_DEVICE_ADDRESS_BITS => out.write(&64u32),
        CL_DEVICE_MAX_MEM_ALLOC_SIZE => out.write(&max_alloc),
        CL_DEVICE_IMAGE_SUPPORT => out.write(&(caps().images.is_some() as cl_bool)),
        CL_DEVICE_MAX_READ_IMAGE_ARGS => out.write(
            &caps()
                .images
                .as_ref()
                .map_or(0u32, |i| i.max_read_image_args),
        ),
        CL_DEVICE_MAX_WRITE_IMAGE_ARGS => out.write(
            &caps()
                .images
                .as_ref()
                .map_or(0u32, |i| i.max_write_image_args),
        ),
        CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS => out.write(
            &caps()
                .images
                .as_ref()
                .map_or(0u32, |i| i.max_read_write_image_args),
        ),
        CL_DEVICE_MAX_SAMPLERS => {
            out.write(&caps().images.as_ref().map_or(0u32, |i| i.max_samplers))
        }
        // cl_khr_image2d_from_buffer, with images.
        CL_DEVICE_IMAGE_PITCH_ALIGNMENT | CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT => out.write(
            &caps()
                .images
                .as_ref()
                .map_or(0, |_| crate::api::image::IMAGE_FROM_BUFFER_ALIGNMENT),
        ),
        CL_DEVICE_IMAGE2D_MAX_WIDTH
        | CL_DEVICE_IMAGE2D_MAX_HEIGHT
        | CL_DEVICE_IMAGE3D_MAX_WIDTH
        | CL_DEVICE_IMAGE3D_MAX_HEIGHT
        | CL_DEVICE_IMAGE3D_MAX_DEPTH
        | CL_DEVICE_IMAGE_MAX_BUFFER_SIZE
        | CL_DEVICE_IMAGE_MAX_ARRAY_SIZE => {
            let limit = caps().images.as_ref().map_or(0, |i| {
                let l = &i.limits;
                match param {
                    CL_DEVICE_IMAGE2D_MAX_WIDTH => l.max_2d[0],
                    CL_DEVICE_IMAGE2D_MAX_HEIGHT => l.max_2d[1],
                    CL_DEVICE_IMAGE3D_MAX_WIDTH => l.max_3d[0],
                    CL_DEVICE_IMAGE3D_MAX_HEIGHT => l.max_3d[1],
                    CL_DEVICE_IMAGE3D_MAX_DEPTH => l.max_3d[2],
                    CL_DEVICE_IMAGE_MAX_BUFFER_SIZE => l.max_buffer_pixels,
                    _ => l.max_array_size,
                }
            });
            out.write(&limit)
        }
        CL_DEVICE_MAX_PARAMETER_SIZE => out.write(&1024usize),
        // In bits: 128-byte alignment, enough for the widest vector type.
        CL_DEVICE_MEM_BASE_ADDR_ALIGN => out.write(&1024u32),
        CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE => out.write(&128u32),
        CL_DEVICE_SINGLE_FP_CONFIG => out.write(&fp_config),
        // cl_khr_fp64: the host's doubles, with the same rounding and FMA.
        CL_DEVICE_DOUBLE_FP_CONFIG => out.write(&fp_config),
        // cl_khr_fp16: computed in float and rounded once (builtins/gen/
        // gen_half.py), so denormals, infinities and NaNs as IEEE's
        // binary16 has them; fma correctly rounded wherever it runs.
        CL_DEVICE_HALF_FP_CONFIG => {
            out.write(&(CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA))
        }
        CL_DEVICE_GLOBAL_MEM_CACHE_TYPE => out.write(&CL_READ_WRITE_CACHE),
        CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE => out.write(&h.cache_line),
        CL_DEVICE_GLOBAL_MEM_CACHE_SIZE => out.write(&h.global_cache),
        CL_DEVICE_GLOBAL_MEM_SIZE => out.write(&h.memory_bytes),
        CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE => out.write(&(1u64 << 20)),
        CL_DEVICE_MAX_CONSTANT_ARGS => out.write(&8u32),
        // Local memory is ordinary cached memory on a CPU.
        CL_DEVICE_LOCAL_MEM_TYPE => out.write(&CL_GLOBAL),
        CL_DEVICE_LOCAL_MEM_SIZE => out.write(&caps().local_mem_size),
        CL_DEVICE_ERROR_CORRECTION_SUPPORT => out.write(&false),
        CL_DEVICE_HOST_UNIFIED_MEMORY => out.write(&true),
        CL_DEVICE_PROFILING_TIMER_RESOLUTION => out.write(&1usize),
        CL_DEVICE_ENDIAN_LITTLE => out.write(&cfg!(target_endian = "little")),
        CL_DEVICE_AVAILABLE => out.write(&true),
        // clang-19 compiles OpenCL C; clCompileProgram/clLinkProgram are not
        // there yet, so no linker.
        CL_DEVICE_COMPILER_AVAILABLE => out.write(&true),
        CL_DEVICE_LINKER_AVAILABLE => out.write(&true),
        CL_DEVICE_EXECUTION_CAPABILITIES => {
            out.write(&((CL_EXEC_KERNEL | CL_EXEC_NATIVE_KERNEL) as cl_device_exec_capabilities))
        }
        CL_DEVICE_QUEUE_ON_HOST_PROPERTIES => out.write(
            &((CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE)
                as cl_command_queue_properties),
        ),
        CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES
        | CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES
        | CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE
        | CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE
        | CL_DEVICE_MAX_ON_DEVICE_QUEUES
        | CL_DEVICE_MAX_ON_DEVICE_EVENTS => device_enqueue_info(param, out),
        CL_DEVICE_PLATFORM => out.write(&Platform::handle()),
        CL_DEVICE_NAME => out.write(&h.cpu_name),
        CL_DEVICE_VENDOR => out.write(&h.cpu_vendor),
        CL_DRIVER_VERSION => out.write(DRIVER_VERSION),
        CL_DEVICE_PROFILE => out.write("FULL_PROFILE"),
        CL_DEVICE_VERSION => {
            out.write(&format!("OpenCL 3.0 FerroCL {}", env!("CARGO_PKG_VERSION")))
        }
        CL_DEVICE_NUMERIC_VERSION => out.write(&make_version(3, 0, 0)),
        // "The highest fully backwards compatible OpenCL C version": 2.0
        // once every feature OpenCL C 2.0 requires is reported.
        CL_DEVICE_OPENCL_C_VERSION => out.write(match caps().opencl_c_2_0 {
            true => "OpenCL C 2.0 FerroCL",
            false => "OpenCL C 1.2 FerroCL",
        }),
        // cl_khr_extended_versioning: the numeric form of CL_DEVICE_OPENCL_C_VERSION.
        CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR => out.write(&match caps().opencl_c_2_0 {
            true => make_version(2, 0, 0),
            false => make_version(1, 2, 0),
        }),
        CL_DEVICE_OPENCL_C_ALL_VERSIONS => {
            let mut all = vec![
                name_version("OpenCL C", make_version(1, 0, 0)),
                name_version("OpenCL C", make_version(1, 1, 0)),
                name_version("OpenCL C", make_version(1, 2, 0)),
            ];
            if caps().opencl_c_2_0 {
                all.push(name_version("OpenCL C", make_version(2, 0, 0)));
            }
            all.push(name_version("OpenCL C", make_version(3, 0, 0)));
            out.write(&all)
        }
        CL_DEVICE_OPENCL_C_FEATURES => {
            out.write(&name_versions(&crate::compiler::opencl_c_features()))
        }
        CL_DEVICE_EXTENSIONS => out.write(&platform::extension_string(&device_extensions())),
        CL_DEVICE_EXTENSIONS_WITH_VERSION => out.write(&name_versions(&device_extensions())),
        CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL
        | CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL
        | CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL
        | CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL
        | CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL => {
            out.write(&crate::api::usm::CAPABILITIES)
        }
        CL_DEVICE_ILS_WITH_VERSION => out.write(&name_versions(&ils())),
        CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR => out.write(&spirv_names(
            crate::compiler::spirv::accepted::EXTENDED_INSTRUCTION_SETS,
        )),
        CL_DEVICE_SPIRV_EXTENSIONS_KHR => {
            out.write(&spirv_names(crate::compiler::spirv::accepted::EXTENSIONS))
        }
        CL_DEVICE_SPIRV_CAPABILITIES_KHR => out.write(&spirv_capabilities()),
        CL_DEVICE_UUID_KHR => out.write(&uuid_of(&[
            "ferrocl device",
            &h.cpu_vendor,
            &h.cpu_name,
            &dev.compute_units.to_string(),
        ])),
        CL_DRIVER_UUID_KHR => out.write(&uuid_of(&["ferrocl driver", DRIVER_VERSION])),
        // No Windows LUID on Linux.
        CL_DEVICE_LUID_VALID_KHR => out.write(&false),
        CL_DEVICE_LUID_KHR => out.write(&[0u8; 8]),
        CL_DEVICE_NODE_MASK_KHR => out.write(&(0 as cl_uint)),
        CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR => out.write(&DOT_PRODUCT_CAPABILITIES),
        // Every scope where the extension is reported (one invariant
        // counter); elsewhere the query is not the device's.
        CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR => out.write(&command_buffer::CAPABILITIES),
        CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR => {
            out.write(&command_buffer::SUPPORTED_QUEUE_PROPERTIES)
        }
        CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR => {
            out.write(&(0 as cl_command_queue_properties))
        }
        CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR => out.write(&mutable_dispatch::CAPABILITIES),
        CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR if crate::compiler::kernel_clock_supported() => out
            .write(
                &(CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR
                    | CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR
                    | CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR),
            ),
        CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR
        | DOT_PRODUCT_ACCELERATION_4X8BIT_PACKED => out.write(&NOT_ACCELERATED),
        // "SPIR-V_1.0 SPIR-V_1.1 ...": the spec's form, <name>_<major>.<minor>.
        CL_DEVICE_IL_VERSION => out.write(
            &ils()
                .iter()
                .map(|(name, (major, minor, _))| format!("{name}_{major}.{minor}"))
                .collect::<Vec<_>>()
                .join(" "),
        ),
        CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION => out.write(&Vec::<cl_name_version>::new()),
        CL_DEVICE_BUILT_IN_KERNELS => out.write(""),
        CL_DEVICE_PRINTF_BUFFER_SIZE => out.write(&caps().printf_buffer_size),
        CL_DEVICE_PREFERRED_INTEROP_USER_SYNC => out.write(&true),
        CL_DEVICE_PARENT_DEVICE => {
            out.write(&dev.parent.as_ref().map_or(std::ptr::null_mut(), handle_of))
        }
        CL_DEVICE_PARTITION_MAX_SUB_DEVICES => out.write(&dev.compute_units),
        CL_DEVICE_PARTITION_PROPERTIES => {
            let kinds = [
                CL_DEVICE_PARTITION_EQUALLY as cl_device_partition_property,
                CL_DEVICE_PARTITION_BY_COUNTS as cl_device_partition_property,
                CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN as cl_device_partition_property,
            ];
            // By affinity domain where the host describes one.
            let listed = if dev.affinity_domains() != 0 { 3 } else { 2 };
            out.write(&kinds[..listed])
        }
        CL_DEVICE_PARTITION_AFFINITY_DOMAIN => out.write(&dev.affinity_domains()),
        CL_DEVICE_PARTITION_TYPE => out.write(&dev.partition),
        CL_DEVICE_REFERENCE_COUNT => out.write(&if dev.is_root() {
            1
        } else {
            object::app_ref_count::<Device>(handle)?
        }),
        // Program-scope global variables (__opencl_c_program_scope_global_variables)
        // are data of the program's loaded object: any size works; this is
        // what a single one may take (the spec's minimum is 64 KiB).
        CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE | CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE => {
            out.write(&MAX_GLOBAL_VARIABLE_SIZE)
        }
        CL_DEVICE_MAX_PIPE_ARGS
        | CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS
        | CL_DEVICE_PIPE_MAX_PACKET_SIZE
        | CL_DEVICE_PIPE_SUPPORT => crate::api::pipe::device_pipe_info(param, out),
        // Host memory is the device's: every SVM buffer is coherent, the
        // host's atomics work on it (kernel atomics are the host's C11
        // ones), and kernels use any host allocation at its own address
        // (fine-grain system SVM).
        CL_DEVICE_SVM_CAPABILITIES => out.write(
            &((CL_DEVICE_SVM_COARSE_GRAIN_BUFFER
                | CL_DEVICE_SVM_FINE_GRAIN_BUFFER
                | CL_DEVICE_SVM_FINE_GRAIN_SYSTEM
                | CL_DEVICE_SVM_ATOMICS) as cl_device_svm_capabilities),
        ),
        CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT
        | CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT
        | CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT => out.write(&0u32),
        // cl_intel_required_subgroup_size's query, which SYCL asks
        // whatever the extensions say (without an answer it assumed 1 and
        // padded dpnp's broadcasts by one lane, not eight): the sizes a
        // kernel may require, the default first.
        CL_DEVICE_SUB_GROUP_SIZES_INTEL => out.write(&caps().sub_group_sizes.to_vec()),
        CL_DEVICE_MAX_NUM_SUB_GROUPS => {
            out.write(&(caps().max_work_group_size.div_ceil(caps().sub_group_size) as cl_uint))
        }
        // A group's work-items run on one thread, switching where they
        // wait; a loop that may wait for another work-item (its exit
        // depends on an atomic or volatile read) gives way each iteration
        // (passes/progress_in_waiting_loops.cpp), so a sub-group spinning
        // on another lets it run.
        CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS => out.write(&true),
        // Atomics and fences are the host's C11 atomics (LLVM atomic
        // instructions with the same order, at system scope whatever the
        // OpenCL scope), so every order holds at every scope, up to other
        // devices and host threads sharing fine-grain SVM.
        CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES => out.write(&ATOMIC_ORDERS_AND_SCOPES),
        // Fences also at work-item scope (OpenCL C atomic_work_item_fence
        // with memory_scope_work_item).
        CL_DEVICE_ATOMIC_FENCE_CAPABILITIES => out.write(
            &(ATOMIC_ORDERS_AND_SCOPES
                | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM as cl_device_atomic_capabilities),
        ),
        // cl_ext_float_atomics: half, float and double atomics are LLVM's
        // atomicrmw fadd/fsub/fmin/fmax (builtins/lib/c11_atomic.cl; half's
        // a 16-bit compare-and-swap loop).
        CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT
        | CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT
        | CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT => out.write(&FP_ATOMICS_GLOBAL_AND_LOCAL),
        CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT => out.write(&caps().non_uniform_work_groups),
        CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT => out.write(&true),
        // __opencl_c_generic_address_space (compiler::OPENCL_C_FEATURES).
        CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT => out.write(&true),
        CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE => {
            out.write(&caps().preferred_work_group_size_multiple)
        }
        CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED => out.write("v0000-01-01-00"),
        _ => Err(CL_INVALID_VALUE),
    }
}

/// The on-device queue queries: zeros while the device reports no
/// device-side enqueue.
fn device_enqueue_info(param: cl_device_info, out: &InfoOut) -> Result<(), cl_int> {
    let queues = caps().device_queues.as_ref();
    let on = queues.is_some();
    let pick = |v: fn(&DeviceQueueCaps) -> u32| queues.map_or(0, v);
    match param {
        CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES => out.write(
            &(if on {
                CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE
            } else {
                0
            } as cl_command_queue_properties),
        ),
        CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES => out.write(
            &(if on {
                CL_DEVICE_QUEUE_SUPPORTED | CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT
            } else {
                0
            } as cl_device_device_enqueue_capabilities),
        ),
        CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE => out.write(&pick(|q| q.preferred_size)),
        CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE => out.write(&pick(|q| q.max_size)),
        CL_DEVICE_MAX_ON_DEVICE_QUEUES => out.write(&pick(|q| q.max_queues)),
        CL_DEVICE_MAX_ON_DEVICE_EVENTS => out.write(&pick(|q| q.max_events)),
        _ => Err(CL_INVALID_VALUE),
    }
}

pub(crate) fn clGetDeviceIDs(
    platform: cl_platform_id,
    device_type: cl_device_type,
    num_entries: cl_uint,
    devices: *mut cl_device_id,
    num_devices: *mut cl_uint,
) -> Result<(), cl_int> {
    Platform::resolve(platform)?;
    check_device_type(device_type)?;
    if !devices.is_null() && num_entries == 0 {
        return Err(CL_INVALID_VALUE);
    }
    if !selects_our_device(device_type) {
        return Err(CL_DEVICE_NOT_FOUND);
    }
    write_list(&[Device::root_handle()], num_entries, devices, num_devices)
}

pub(crate) fn clGetDeviceInfo(
    device: cl_device_id,
    param_name: cl_device_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    let dev = Device::resolve(device)?;
    device_info(
        &dev,
        device,
        param_name,
        &InfoOut::new(param_value_size, param_value, param_value_size_ret),
    )
}

pub(crate) fn clCreateSubDevices(
    in_device: cl_device_id,
    properties: *const cl_device_partition_property,
    num_devices: cl_uint,
    out_devices: *mut cl_device_id,
    num_devices_ret: *mut cl_uint,
) -> Result<(), cl_int> {
    let dev = Device::resolve(in_device)?;
    if properties.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    let props = partition_properties(properties)?;
    let partition = dev.partition(&props)?;
    let count = partition.parts.len();
    if !out_devices.is_null() && (num_devices as usize) < count {
        return Err(CL_INVALID_VALUE);
    }
    if !out_devices.is_null() {
        let handles: Vec<cl_device_id> = partition
            .parts
            .into_iter()
            .map(|part| {
                publish(Device::new_sub_device(
                    &dev,
                    part,
                    partition.properties.clone(),
                ))
            })
            .collect();
        write_list(&handles, num_devices, out_devices, std::ptr::null_mut())?;
    }
    if !num_devices_ret.is_null() {
        crate::api::util::write_out(num_devices_ret, count as cl_uint);
    }
    Ok(())
}

pub(crate) fn clRetainDevice(device: cl_device_id) -> Result<(), cl_int> {
    // Root devices are not reference counted.
    if Device::resolve(device)?.is_root() {
        return Ok(());
    }
    object::retain::<Device>(device)
}

pub(crate) fn clReleaseDevice(device: cl_device_id) -> Result<(), cl_int> {
    if Device::resolve(device)?.is_root() {
        return Ok(());
    }
    object::release::<Device>(device)
}

/// Reads a partition request: [EQUALLY, n, 0], [BY_COUNTS, c..., LIST_END, 0]
/// or [BY_AFFINITY_DOMAIN, domain, 0],
/// terminator included (CL_DEVICE_PARTITION_TYPE returns it as given).
fn partition_properties(
    list: *const cl_device_partition_property,
) -> Result<Vec<cl_device_partition_property>, cl_int> {
    if list.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    // SAFETY: a zero-terminated property list from the application; we
    // read only as far as its kind says it extends.
    let read = |i: usize| unsafe { *list.add(i) };
    let kind = read(0);
    let mut props = vec![kind];
    match kind as u32 {
        // "CL_INVALID_VALUE if values specified in properties are not
        // valid": EQUALLY splits into sub-devices of n compute units each,
        // so n is at least 1 (CL_INVALID_DEVICE_PARTITION_COUNT is
        // BY_COUNTS' code).
        CL_DEVICE_PARTITION_EQUALLY => match read(1) {
            n if n > 0 => props.push(n),
            _ => return Err(CL_INVALID_VALUE),
        },
        // One domain; whether the device has it, the device decides.
        CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN => props.push(read(1)),
        CL_DEVICE_PARTITION_BY_COUNTS => loop {
            let count = read(props.len());
            props.push(count);
            if count == CL_DEVICE_PARTITION_BY_COUNTS_LIST_END as isize {
                break;
            }
            if props.len() > 1024 {
                return Err(CL_INVALID_VALUE);
            }
        },
        _ => return Err(CL_INVALID_VALUE),
    }
    // A list names one partition scheme: what follows it is the
    // terminator, or the list is not valid. BY_COUNTS' LIST_END is 0
    // itself, and SYCL's lists end there ({BY_COUNTS, 1, 1, 0}): nothing
    // after it is read, which may be past the application's array.
    let ends_at_list_end =
        kind as u32 == CL_DEVICE_PARTITION_BY_COUNTS && CL_DEVICE_PARTITION_BY_COUNTS_LIST_END == 0;
    if !ends_at_list_end && read(props.len()) != 0 {
        return Err(CL_INVALID_VALUE);
    }
    props.push(0);
    Ok(props)
}

/// "CL_INVALID_DEVICE_TYPE if device_type is not a valid value."
pub fn check_device_type(device_type: cl_device_type) -> Result<(), cl_int> {
    let known = (CL_DEVICE_TYPE_DEFAULT
        | CL_DEVICE_TYPE_CPU
        | CL_DEVICE_TYPE_GPU
        | CL_DEVICE_TYPE_ACCELERATOR
        | CL_DEVICE_TYPE_CUSTOM) as cl_device_type;
    if device_type != CL_DEVICE_TYPE_ALL as cl_device_type
        && (device_type == 0 || device_type & !known != 0)
    {
        return Err(CL_INVALID_DEVICE_TYPE);
    }
    Ok(())
}

/// Whether a (valid) device type asks for the CPU device, the default one.
pub fn selects_our_device(device_type: cl_device_type) -> bool {
    device_type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT) as cl_device_type != 0
}

/// Resolves an application device list against the devices a context may use.
pub fn resolve_devices(
    devices: *const cl_device_id,
    count: cl_uint,
) -> Result<Vec<Arc<Device>>, cl_int> {
    let handles = c_array(devices, count as usize, CL_INVALID_VALUE)?;
    if handles.is_empty() {
        return Err(CL_INVALID_VALUE);
    }
    handles.iter().map(|&d| Device::resolve(d)).collect()
}

#[cfg(test)]
mod tests {
    use super::DRIVER_VERSION;

    #[test]
    fn the_driver_version_names_the_compiler() {
        let (package, compiler) = DRIVER_VERSION.split_once('+').expect("build metadata");
        assert_eq!(package, env!("CARGO_PKG_VERSION"));
        assert_eq!(compiler.len(), 16);
        assert!(compiler.bytes().all(|b| b.is_ascii_hexdigit()));
    }
}
