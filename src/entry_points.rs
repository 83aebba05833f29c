//! The one table of entry points. From it come the `extern "C"` form of
//! each (`shims`, which keeps panics from crossing the C ABI), the ICD
//! dispatch table, and the lookups by name of `clIcdGetFunctionAddressForPlatformKHR`
//! and `clGetExtensionFunctionAddress*` (icd.rs). The functions themselves
//! are ordinary Rust functions in `api/`, returning `Result`.
//!
//! A row: `kind name(C arguments [; errcode_ret]) -> C result = api module [reach];`
//! - `status`: the function returns `Result<(), cl_int>`; the entry point
//!   returns the code (CL_SUCCESS for `Ok`).
//! - `object`: the function takes the arguments before `errcode_ret` and
//!   returns `Result<T, cl_int>`; the entry point writes the code to
//!   `errcode_ret` (when not NULL) and returns the value, or NULL.
//! - `pointer`: no error code (clSVMAlloc): NULL on error.
//! - `void`: no result (clSVMFree): errors are ignored, as the spec says.
//! - `linked`: the function returns `Result<(T, cl_int), cl_int>`, a value
//!   together with a code (clLinkProgram: a failed link's program and its log).
//!
//! A panic becomes CL_OUT_OF_HOST_MEMORY (or NULL). `reach`: `table`, the
//! dispatch table's slot of that name, which the compiler checks against the
//! headers' signature; `extension`, also returned by
//! clGetExtensionFunctionAddress(ForPlatform).

use crate::api::context::NotifyArg;
use crate::api::kernel::NativeFn;
use crate::api::program::BuildNotify;
use crate::api::svm::SvmFreeFn;
use crate::cl::*;
use crate::core::command_buffer::cl_command_properties_khr;
use crate::core::context::ContextDestructor;
use crate::core::event::EventCallbackFn;
use crate::core::memory::MemDestructor;
use std::ffi::{c_char, c_uchar, c_void};

/// What the table says of one entry point.
pub struct Entry {
    pub name: &'static str,
    pub address: *mut c_void,
    /// It has the dispatch table's slot of its name.
    pub dispatch: bool,
    /// clGetExtensionFunctionAddress(ForPlatform) returns it.
    pub extension: bool,
}

/// The row named `name`.
pub fn entry(name: &str) -> Option<Entry> {
    entries().find(|e| e.name == name)
}

/// The `extern "C"` form of one row.
macro_rules! shim {
    (status $name:ident ($($arg:ident: $ty:ty),*) [] -> $ret:ty = $module:ident) => {
        #[allow(non_snake_case, clippy::too_many_arguments)]
        pub extern "C" fn $name($($arg: $ty),*) -> $ret {
            crate::api::util::status(std::panic::catch_unwind(std::panic::AssertUnwindSafe(
                || crate::api::$module::$name($($arg),*),
            )))
        }
    };
    (object $name:ident ($($arg:ident: $ty:ty),*) [$err:ident] -> $ret:ty = $module:ident) => {
        #[allow(non_snake_case, clippy::too_many_arguments)]
        pub extern "C" fn $name($($arg: $ty,)* $err: *mut cl_int) -> $ret {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(
                || crate::api::$module::$name($($arg),*),
            ));
            crate::api::util::object_or_null(result, $err)
        }
    };
    (pointer $name:ident ($($arg:ident: $ty:ty),*) [] -> $ret:ty = $module:ident) => {
        #[allow(non_snake_case, clippy::too_many_arguments)]
        pub extern "C" fn $name($($arg: $ty),*) -> $ret {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(
                || crate::api::$module::$name($($arg),*),
            ))
            .ok()
            .and_then(Result::ok)
            .unwrap_or(std::ptr::null_mut())
        }
    };
    (void $name:ident ($($arg:ident: $ty:ty),*) [] -> $ret:ty = $module:ident) => {
        #[allow(non_snake_case, clippy::too_many_arguments)]
        pub extern "C" fn $name($($arg: $ty),*) -> $ret {
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(
                || crate::api::$module::$name($($arg),*),
            ));
        }
    };
    (linked $name:ident ($($arg:ident: $ty:ty),*) [$err:ident] -> $ret:ty = $module:ident) => {
        #[allow(non_snake_case, clippy::too_many_arguments)]
        pub extern "C" fn $name($($arg: $ty,)* $err: *mut cl_int) -> $ret {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(
                || crate::api::$module::$name($($arg),*),
            ));
            let (value, code) = match result {
                Ok(Ok(value_and_code)) => value_and_code,
                Ok(Err(code)) => (std::ptr::null_mut(), code),
                Err(_) => (std::ptr::null_mut(), CL_OUT_OF_HOST_MEMORY),
            };
            crate::api::util::write_out($err, code);
            value
        }
    };
}

/// A row's dispatch slot, when its reach names `table`.
macro_rules! slot {
    ($table:ident, $name:ident, table $($reach:ident)*) => {
        $table.$name = Some(shims::$name);
    };
    ($table:ident, $name:ident, $($reach:ident)*) => {};
}

/// Whether a row's reach names `$want`.
macro_rules! reaches {
    ($want:ident;) => {
        false
    };
    (table; table $($reach:ident)*) => {
        true
    };
    (extension; extension $($reach:ident)*) => {
        true
    };
    ($want:ident; $other:ident $($reach:ident)*) => {
        reaches!($want; $($reach)*)
    };
}

macro_rules! entry_points {
    ($(
        $kind:ident $name:ident ($($arg:ident: $ty:ty),* $(; $err:ident)?) -> $ret:ty
            = $module:ident [$($reach:ident)+];
    )*) => {
        /// The `extern "C"` entry points, one per row.
        pub mod shims {
            use super::*;
            $(shim!($kind $name ($($arg: $ty),*) [$($err)?] -> $ret = $module);)*
        }

        /// The dispatch table: every row's slot, the others NULL.
        pub fn dispatch_table() -> cl_icd_dispatch {
            let mut table = cl_icd_dispatch::default();
            $(slot!(table, $name, $($reach)+);)*
            table
        }

        /// Every row.
        pub fn entries() -> impl Iterator<Item = Entry> {
            [$(Entry {
                name: stringify!($name),
                address: shims::$name as *mut c_void,
                dispatch: reaches!(table; $($reach)+),
                extension: reaches!(extension; $($reach)+),
            }),*]
            .into_iter()
        }
    };
}

entry_points! {
    // api/platform.rs
    status clGetPlatformIDs(
        num_entries: cl_uint,
        platforms: *mut cl_platform_id,
        num_platforms: *mut cl_uint
    ) -> cl_int = platform [table];
    status clGetPlatformInfo(
        platform: cl_platform_id,
        param_name: cl_platform_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize
    ) -> cl_int = platform [table];
    status clUnloadCompiler() -> cl_int = platform [table];
    status clUnloadPlatformCompiler(platform: cl_platform_id) -> cl_int = platform [table];
    status clGetHostTimer(
        device: cl_device_id,
        host_timestamp: *mut cl_ulong
    ) -> cl_int = platform [table];
    status clGetDeviceAndHostTimer(
        device: cl_device_id,
        device_timestamp: *mut cl_ulong,
        host_timestamp: *mut cl_ulong
    ) -> cl_int = platform [table];
    // api/device.rs
    status clGetDeviceIDs(
        platform: cl_platform_id,
        device_type: cl_device_type,
        num_entries: cl_uint,
        devices: *mut cl_device_id,
        num_devices: *mut cl_uint
    ) -> cl_int = device [table];
    status clGetDeviceInfo(
        device: cl_device_id,
        param_name: cl_device_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize
    ) -> cl_int = device [table];
    status clCreateSubDevices(
        in_device: cl_device_id,
        properties: *const cl_device_partition_property,
        num_devices: cl_uint,
        out_devices: *mut cl_device_id,
        num_devices_ret: *mut cl_uint
    ) -> cl_int = device [table];
    status clRetainDevice(device: cl_device_id) -> cl_int = device [table];
    status clReleaseDevice(device: cl_device_id) -> cl_int = device [table];
    // api/context.rs
    object clCreateContext(
        properties: *const cl_context_properties,
        num_devices: cl_uint,
        devices: *const cl_device_id,
        pfn_notify: NotifyArg,
        user_data: *mut c_void
        ; errcode_ret
    ) -> cl_context = context [table];
    object clCreateContextFromType(
        properties: *const cl_context_properties,
        device_type: cl_device_type,
        pfn_notify: NotifyArg,
        user_data: *mut c_void
        ; errcode_ret
    ) -> cl_context = context [table];
    status clRetainContext(context: cl_context) -> cl_int = context [table];
    status clReleaseContext(context: cl_context) -> cl_int = context [table];
    status clGetContextInfo(
        context: cl_context,
        param_name: cl_context_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize
    ) -> cl_int = context [table];
    status clSetContextDestructorCallback(
        context: cl_context,
        pfn_notify: Option<ContextDestructor>,
        user_data: *mut c_void
    ) -> cl_int = context [table];
    // api/queue.rs
    object clCreateCommandQueueWithProperties(
        context: cl_context,
        device: cl_device_id,
        properties: *const cl_queue_properties
        ; errcode_ret
    ) -> cl_command_queue = queue [table];
    object clCreateCommandQueue(
        context: cl_context,
        device: cl_device_id,
        properties: cl_command_queue_properties
        ; errcode_ret
    ) -> cl_command_queue = queue [table];
    status clRetainCommandQueue(command_queue: cl_command_queue) -> cl_int = queue [table];
    status clReleaseCommandQueue(command_queue: cl_command_queue) -> cl_int = queue [table];
    status clGetCommandQueueInfo(
        command_queue: cl_command_queue,
        param_name: cl_command_queue_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize
    ) -> cl_int = queue [table];
    status clSetCommandQueueProperty(
        command_queue: cl_command_queue,
        properties: cl_command_queue_properties,
        enable: cl_bool,
        old_properties: *mut cl_command_queue_properties
    ) -> cl_int = queue [table];
    status clFlush(command_queue: cl_command_queue) -> cl_int = queue [table];
    status clFinish(command_queue: cl_command_queue) -> cl_int = queue [table];
    status clSetDefaultDeviceCommandQueue(
        context: cl_context,
        device: cl_device_id,
        command_queue: cl_command_queue
    ) -> cl_int = queue [table];
    // api/memory.rs
    object clCreateBuffer(
        context: cl_context,
        flags: cl_mem_flags,
        size: usize,
        host_ptr: *mut c_void
        ; errcode_ret
    ) -> cl_mem = memory [table];
    object clCreateBufferWithProperties(
        context: cl_context,
        properties: *const cl_mem_properties,
        flags: cl_mem_flags,
        size: usize,
        host_ptr: *mut c_void
        ; errcode_ret
    ) -> cl_mem = memory [table];
    object clCreateSubBuffer(
        buffer: cl_mem,
        flags: cl_mem_flags,
        buffer_create_type: cl_buffer_create_type,
        buffer_create_info: *const c_void
        ; errcode_ret
    ) -> cl_mem = memory [table];
    status clRetainMemObject(memobj: cl_mem) -> cl_int = memory [table];
    status clReleaseMemObject(memobj: cl_mem) -> cl_int = memory [table];
    status clGetMemObjectInfo(
        memobj: cl_mem,
        param_name: cl_mem_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize
    ) -> cl_int = memory [table];
    status clSetMemObjectDestructorCallback(
        memobj: cl_mem,
        pfn_notify: Option<MemDestructor>,
        user_data: *mut c_void
    ) -> cl_int = memory [table];
    // api/image.rs
    object clCreateImage2D(
        context: cl_context,
        flags: cl_mem_flags,
        image_format: *const cl_image_format,
        image_width: usize,
        image_height: usize,
        image_row_pitch: usize,
        host_ptr: *mut c_void
        ; errcode_ret
    ) -> cl_mem = image [table];
    object clCreateImage3D(
        context: cl_context,
        flags: cl_mem_flags,
        image_format: *const cl_image_format,
        image_width: usize,
        image_height: usize,
        image_depth: usize,
        image_row_pitch: usize,
        image_slice_pitch: usize,
        host_ptr: *mut c_void
        ; errcode_ret
    ) -> cl_mem = image [table];
    object clCreateImage(
        context: cl_context,
        flags: cl_mem_flags,
        image_format: *const cl_image_format,
        image_desc: *const cl_image_desc,
        host_ptr: *mut c_void
        ; errcode_ret
    ) -> cl_mem = image [table];
    object clCreateImageWithProperties(
        context: cl_context,
        properties: *const cl_mem_properties,
        flags: cl_mem_flags,
        image_format: *const cl_image_format,
        image_desc: *const cl_image_desc,
        host_ptr: *mut c_void
        ; errcode_ret
    ) -> cl_mem = image [table];
    status clGetSupportedImageFormats(
        context: cl_context,
        flags: cl_mem_flags,
        image_type: cl_mem_object_type,
        num_entries: cl_uint,
        image_formats: *mut cl_image_format,
        num_image_formats: *mut cl_uint
    ) -> cl_int = image [table];
    status clGetImageInfo(
        image: cl_mem,
        param_name: cl_image_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize
    ) -> cl_int = image [table];
    status clEnqueueReadImage(
        command_queue: cl_command_queue,
        image: cl_mem,
        blocking_read: cl_bool,
        origin: *const usize,
        region: *const usize,
        row_pitch: usize,
        slice_pitch: usize,
        ptr: *mut c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = image [table];
    status clEnqueueWriteImage(
        command_queue: cl_command_queue,
        image: cl_mem,
        blocking_write: cl_bool,
        origin: *const usize,
        region: *const usize,
        input_row_pitch: usize,
        input_slice_pitch: usize,
        ptr: *const c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = image [table];
    status clEnqueueCopyImage(
        command_queue: cl_command_queue,
        src_image: cl_mem,
        dst_image: cl_mem,
        src_origin: *const usize,
        dst_origin: *const usize,
        region: *const usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = image [table];
    status clEnqueueCopyImageToBuffer(
        command_queue: cl_command_queue,
        src_image: cl_mem,
        dst_buffer: cl_mem,
        src_origin: *const usize,
        region: *const usize,
        dst_offset: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = image [table];
    status clEnqueueCopyBufferToImage(
        command_queue: cl_command_queue,
        src_buffer: cl_mem,
        dst_image: cl_mem,
        src_offset: usize,
        dst_origin: *const usize,
        region: *const usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = image [table];
    object clEnqueueMapImage(
        command_queue: cl_command_queue,
        image: cl_mem,
        blocking_map: cl_bool,
        map_flags: cl_map_flags,
        origin: *const usize,
        region: *const usize,
        image_row_pitch: *mut usize,
        image_slice_pitch: *mut usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
        ; errcode_ret
    ) -> *mut c_void = image [table];
    status clEnqueueFillImage(
        command_queue: cl_command_queue,
        image: cl_mem,
        fill_color: *const c_void,
        origin: *const usize,
        region: *const usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = image [table];
    object clCreateSampler(
        context: cl_context,
        normalized_coords: cl_bool,
        addressing_mode: cl_addressing_mode,
        filter_mode: cl_filter_mode
        ; errcode_ret
    ) -> cl_sampler = image [table];
    object clCreateSamplerWithProperties(
        context: cl_context,
        sampler_properties: *const cl_sampler_properties
        ; errcode_ret
    ) -> cl_sampler = image [table];
    status clRetainSampler(sampler: cl_sampler) -> cl_int = image [table];
    status clReleaseSampler(sampler: cl_sampler) -> cl_int = image [table];
    status clGetSamplerInfo(
        sampler: cl_sampler,
        param_name: cl_sampler_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize
    ) -> cl_int = image [table];
    // api/svm.rs
    status clEnqueueSVMFree(
        command_queue: cl_command_queue,
        num_svm_pointers: cl_uint,
        svm_pointers: *mut *mut c_void,
        pfn_free_func: Option<SvmFreeFn>,
        user_data: *mut c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = svm [table];
    status clEnqueueSVMMemcpy(
        command_queue: cl_command_queue,
        blocking_copy: cl_bool,
        dst_ptr: *mut c_void,
        src_ptr: *const c_void,
        size: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = svm [table];
    status clEnqueueSVMMemFill(
        command_queue: cl_command_queue,
        svm_ptr: *mut c_void,
        pattern: *const c_void,
        pattern_size: usize,
        size: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = svm [table];
    status clEnqueueSVMMap(
        command_queue: cl_command_queue,
        blocking_map: cl_bool,
        flags: cl_map_flags,
        svm_ptr: *mut c_void,
        size: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = svm [table];
    status clEnqueueSVMUnmap(
        command_queue: cl_command_queue,
        svm_ptr: *mut c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = svm [table];
    status clEnqueueSVMMigrateMem(
        command_queue: cl_command_queue,
        num_svm_pointers: cl_uint,
        svm_pointers: *mut *const c_void,
        sizes: *const usize,
        flags: cl_mem_migration_flags,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = svm [table];
    pointer clSVMAlloc(
        context: cl_context,
        flags: cl_svm_mem_flags,
        size: usize,
        alignment: cl_uint
    ) -> *mut c_void = svm [table];
    void clSVMFree(context: cl_context, svm_pointer: *mut c_void) -> () = svm [table];
    // api/usm.rs
    object clHostMemAllocINTEL(
        context: cl_context,
        properties: *const cl_mem_properties_intel,
        size: usize,
        alignment: cl_uint
        ; errcode_ret
    ) -> *mut c_void = usm [extension];
    object clDeviceMemAllocINTEL(
        context: cl_context,
        device: cl_device_id,
        properties: *const cl_mem_properties_intel,
        size: usize,
        alignment: cl_uint
        ; errcode_ret
    ) -> *mut c_void = usm [extension];
    object clSharedMemAllocINTEL(
        context: cl_context,
        device: cl_device_id,
        properties: *const cl_mem_properties_intel,
        size: usize,
        alignment: cl_uint
        ; errcode_ret
    ) -> *mut c_void = usm [extension];
    status clMemFreeINTEL(context: cl_context, ptr: *mut c_void) -> cl_int = usm [extension];
    status clMemBlockingFreeINTEL(
        context: cl_context,
        ptr: *mut c_void
    ) -> cl_int = usm [extension];
    status clGetMemAllocInfoINTEL(
        context: cl_context,
        ptr: *const c_void,
        param_name: cl_mem_info_intel,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize
    ) -> cl_int = usm [extension];
    status clSetKernelArgMemPointerINTEL(
        kernel: cl_kernel,
        arg_index: cl_uint,
        arg_value: *const c_void
    ) -> cl_int = usm [extension];
    status clEnqueueMemsetINTEL(
        command_queue: cl_command_queue,
        dst_ptr: *mut c_void,
        value: cl_int,
        size: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = usm [extension];
    status clEnqueueMemFillINTEL(
        command_queue: cl_command_queue,
        dst_ptr: *mut c_void,
        pattern: *const c_void,
        pattern_size: usize,
        size: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = usm [extension];
    status clEnqueueMemcpyINTEL(
        command_queue: cl_command_queue,
        blocking: cl_bool,
        dst_ptr: *mut c_void,
        src_ptr: *const c_void,
        size: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = usm [extension];
    status clEnqueueMigrateMemINTEL(
        command_queue: cl_command_queue,
        ptr: *const c_void,
        size: usize,
        flags: cl_mem_migration_flags,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = usm [extension];
    status clEnqueueMemAdviseINTEL(
        command_queue: cl_command_queue,
        ptr: *const c_void,
        size: usize,
        advice: cl_mem_advice_intel,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = usm [extension];
    // api/command_buffer.rs
    object clCreateCommandBufferKHR(
        num_queues: cl_uint,
        queues: *const cl_command_queue,
        properties: *const cl_command_buffer_properties_khr
        ; errcode_ret
    ) -> cl_command_buffer_khr = command_buffer [extension];
    status clFinalizeCommandBufferKHR(
        command_buffer: cl_command_buffer_khr
    ) -> cl_int = command_buffer [extension];
    status clRetainCommandBufferKHR(
        command_buffer: cl_command_buffer_khr
    ) -> cl_int = command_buffer [extension];
    status clReleaseCommandBufferKHR(
        command_buffer: cl_command_buffer_khr
    ) -> cl_int = command_buffer [extension];
    status clEnqueueCommandBufferKHR(
        num_queues: cl_uint,
        queues: *mut cl_command_queue,
        command_buffer: cl_command_buffer_khr,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = command_buffer [extension];
    status clGetCommandBufferInfoKHR(
        command_buffer: cl_command_buffer_khr,
        param_name: cl_command_buffer_info_khr,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize
    ) -> cl_int = command_buffer [extension];
    status clCommandBarrierWithWaitListKHR(
        command_buffer: cl_command_buffer_khr,
        command_queue: cl_command_queue,
        properties: *const cl_command_properties_khr,
        num_sync_points_in_wait_list: cl_uint,
        sync_point_wait_list: *const cl_sync_point_khr,
        sync_point: *mut cl_sync_point_khr,
        mutable_handle: *mut cl_mutable_command_khr
    ) -> cl_int = command_buffer [extension];
    status clCommandCopyBufferKHR(
        command_buffer: cl_command_buffer_khr,
        command_queue: cl_command_queue,
        properties: *const cl_command_properties_khr,
        src_buffer: cl_mem,
        dst_buffer: cl_mem,
        src_offset: usize,
        dst_offset: usize,
        size: usize,
        num_sync_points_in_wait_list: cl_uint,
        sync_point_wait_list: *const cl_sync_point_khr,
        sync_point: *mut cl_sync_point_khr,
        mutable_handle: *mut cl_mutable_command_khr
    ) -> cl_int = command_buffer [extension];
    status clCommandCopyBufferRectKHR(
        command_buffer: cl_command_buffer_khr,
        command_queue: cl_command_queue,
        properties: *const cl_command_properties_khr,
        src_buffer: cl_mem,
        dst_buffer: cl_mem,
        src_origin: *const usize,
        dst_origin: *const usize,
        region: *const usize,
        src_row_pitch: usize,
        src_slice_pitch: usize,
        dst_row_pitch: usize,
        dst_slice_pitch: usize,
        num_sync_points_in_wait_list: cl_uint,
        sync_point_wait_list: *const cl_sync_point_khr,
        sync_point: *mut cl_sync_point_khr,
        mutable_handle: *mut cl_mutable_command_khr
    ) -> cl_int = command_buffer [extension];
    status clCommandCopyBufferToImageKHR(
        command_buffer: cl_command_buffer_khr,
        command_queue: cl_command_queue,
        properties: *const cl_command_properties_khr,
        src_buffer: cl_mem,
        dst_image: cl_mem,
        src_offset: usize,
        dst_origin: *const usize,
        region: *const usize,
        num_sync_points_in_wait_list: cl_uint,
        sync_point_wait_list: *const cl_sync_point_khr,
        sync_point: *mut cl_sync_point_khr,
        mutable_handle: *mut cl_mutable_command_khr
    ) -> cl_int = command_buffer [extension];
    status clCommandCopyImageKHR(
        command_buffer: cl_command_buffer_khr,
        command_queue: cl_command_queue,
        properties: *const cl_command_properties_khr,
        src_image: cl_mem,
        dst_image: cl_mem,
        src_origin: *const usize,
        dst_origin: *const usize,
        region: *const usize,
        num_sync_points_in_wait_list: cl_uint,
        sync_point_wait_list: *const cl_sync_point_khr,
        sync_point: *mut cl_sync_point_khr,
        mutable_handle: *mut cl_mutable_command_khr
    ) -> cl_int = command_buffer [extension];
    status clCommandCopyImageToBufferKHR(
        command_buffer: cl_command_buffer_khr,
        command_queue: cl_command_queue,
        properties: *const cl_command_properties_khr,
        src_image: cl_mem,
        dst_buffer: cl_mem,
        src_origin: *const usize,
        region: *const usize,
        dst_offset: usize,
        num_sync_points_in_wait_list: cl_uint,
        sync_point_wait_list: *const cl_sync_point_khr,
        sync_point: *mut cl_sync_point_khr,
        mutable_handle: *mut cl_mutable_command_khr
    ) -> cl_int = command_buffer [extension];
    status clCommandFillBufferKHR(
        command_buffer: cl_command_buffer_khr,
        command_queue: cl_command_queue,
        properties: *const cl_command_properties_khr,
        buffer: cl_mem,
        pattern: *const c_void,
        pattern_size: usize,
        offset: usize,
        size: usize,
        num_sync_points_in_wait_list: cl_uint,
        sync_point_wait_list: *const cl_sync_point_khr,
        sync_point: *mut cl_sync_point_khr,
        mutable_handle: *mut cl_mutable_command_khr
    ) -> cl_int = command_buffer [extension];
    status clCommandFillImageKHR(
        command_buffer: cl_command_buffer_khr,
        command_queue: cl_command_queue,
        properties: *const cl_command_properties_khr,
        image: cl_mem,
        fill_color: *const c_void,
        origin: *const usize,
        region: *const usize,
        num_sync_points_in_wait_list: cl_uint,
        sync_point_wait_list: *const cl_sync_point_khr,
        sync_point: *mut cl_sync_point_khr,
        mutable_handle: *mut cl_mutable_command_khr
    ) -> cl_int = command_buffer [extension];
    status clCommandSVMMemcpyKHR(
        command_buffer: cl_command_buffer_khr,
        command_queue: cl_command_queue,
        properties: *const cl_command_properties_khr,
        dst_ptr: *mut c_void,
        src_ptr: *const c_void,
        size: usize,
        num_sync_points_in_wait_list: cl_uint,
        sync_point_wait_list: *const cl_sync_point_khr,
        sync_point: *mut cl_sync_point_khr,
        mutable_handle: *mut cl_mutable_command_khr
    ) -> cl_int = command_buffer [extension];
    status clCommandSVMMemFillKHR(
        command_buffer: cl_command_buffer_khr,
        command_queue: cl_command_queue,
        properties: *const cl_command_properties_khr,
        svm_ptr: *mut c_void,
        pattern: *const c_void,
        pattern_size: usize,
        size: usize,
        num_sync_points_in_wait_list: cl_uint,
        sync_point_wait_list: *const cl_sync_point_khr,
        sync_point: *mut cl_sync_point_khr,
        mutable_handle: *mut cl_mutable_command_khr
    ) -> cl_int = command_buffer [extension];
    status clCommandNDRangeKernelKHR(
        command_buffer: cl_command_buffer_khr,
        command_queue: cl_command_queue,
        properties: *const cl_command_properties_khr,
        kernel: cl_kernel,
        work_dim: cl_uint,
        global_work_offset: *const usize,
        global_work_size: *const usize,
        local_work_size: *const usize,
        num_sync_points_in_wait_list: cl_uint,
        sync_point_wait_list: *const cl_sync_point_khr,
        sync_point: *mut cl_sync_point_khr,
        mutable_handle: *mut cl_mutable_command_khr
    ) -> cl_int = command_buffer [extension];
    // api/mutable_dispatch.rs
    status clUpdateMutableCommandsKHR(
        command_buffer: cl_command_buffer_khr,
        num_configs: cl_uint,
        config_types: *const cl_uint,
        configs: *mut *const c_void
    ) -> cl_int = mutable_dispatch [extension];
    status clGetMutableCommandInfoKHR(
        command: cl_mutable_command_khr,
        param_name: cl_mutable_command_info_khr,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize
    ) -> cl_int = mutable_dispatch [extension];
    // api/pipe.rs
    object clCreatePipe(
        context: cl_context,
        flags: cl_mem_flags,
        pipe_packet_size: cl_uint,
        pipe_max_packets: cl_uint,
        properties: *const cl_pipe_properties
        ; errcode_ret
    ) -> cl_mem = pipe [table];
    status clGetPipeInfo(
        pipe: cl_mem,
        param_name: cl_pipe_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize
    ) -> cl_int = pipe [table];
    // api/program.rs
    object clCreateProgramWithSource(
        context: cl_context,
        count: cl_uint,
        strings: *mut *const c_char,
        lengths: *const usize
        ; errcode_ret
    ) -> cl_program = program [table];
    object clCreateProgramWithBinary(
        context: cl_context,
        num_devices: cl_uint,
        device_list: *const cl_device_id,
        lengths: *const usize,
        binaries: *mut *const c_uchar,
        binary_status: *mut cl_int
        ; errcode_ret
    ) -> cl_program = program [table];
    object clCreateProgramWithBuiltInKernels(
        context: cl_context,
        num_devices: cl_uint,
        device_list: *const cl_device_id,
        kernel_names: *const c_char
        ; errcode_ret
    ) -> cl_program = program [table];
    object clCreateProgramWithIL(
        context: cl_context,
        il: *const c_void,
        length: usize
        ; errcode_ret
    ) -> cl_program = program [table];
    object clCreateProgramWithILKHR(
        context: cl_context,
        il: *const c_void,
        length: usize
        ; errcode_ret
    ) -> cl_program = program [extension];
    status clRetainProgram(program: cl_program) -> cl_int = program [table];
    status clReleaseProgram(program: cl_program) -> cl_int = program [table];
    status clBuildProgram(
        program: cl_program,
        num_devices: cl_uint,
        device_list: *const cl_device_id,
        options: *const c_char,
        pfn_notify: BuildNotify,
        user_data: *mut c_void
    ) -> cl_int = program [table];
    status clCompileProgram(
        program: cl_program,
        num_devices: cl_uint,
        device_list: *const cl_device_id,
        options: *const c_char,
        num_input_headers: cl_uint,
        input_headers: *const cl_program,
        header_include_names: *mut *const c_char,
        pfn_notify: BuildNotify,
        user_data: *mut c_void
    ) -> cl_int = program [table];
    status clGetProgramInfo(
        program: cl_program,
        param_name: cl_program_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize
    ) -> cl_int = program [table];
    status clGetProgramBuildInfo(
        program: cl_program,
        device: cl_device_id,
        param_name: cl_program_build_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize
    ) -> cl_int = program [table];
    status clSetProgramReleaseCallback(
        program: cl_program,
        pfn_notify: BuildNotify,
        user_data: *mut c_void
    ) -> cl_int = program [table];
    status clSetProgramSpecializationConstant(
        program: cl_program,
        spec_id: cl_uint,
        spec_size: usize,
        spec_value: *const c_void
    ) -> cl_int = program [table];
    linked clLinkProgram(
        context: cl_context,
        num_devices: cl_uint,
        device_list: *const cl_device_id,
        options: *const c_char,
        num_input_programs: cl_uint,
        input_programs: *const cl_program,
        pfn_notify: BuildNotify,
        user_data: *mut c_void
        ; errcode_ret
    ) -> cl_program = program [table];
    // api/kernel.rs
    object clCreateKernel(
        program: cl_program,
        kernel_name: *const c_char
        ; errcode_ret
    ) -> cl_kernel = kernel [table];
    status clCreateKernelsInProgram(
        program: cl_program,
        num_kernels: cl_uint,
        kernels: *mut cl_kernel,
        num_kernels_ret: *mut cl_uint
    ) -> cl_int = kernel [table];
    status clRetainKernel(kernel: cl_kernel) -> cl_int = kernel [table];
    status clReleaseKernel(kernel: cl_kernel) -> cl_int = kernel [table];
    status clSetKernelArg(
        kernel: cl_kernel,
        arg_index: cl_uint,
        arg_size: usize,
        arg_value: *const c_void
    ) -> cl_int = kernel [table];
    status clGetKernelInfo(
        kernel: cl_kernel,
        param_name: cl_kernel_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize
    ) -> cl_int = kernel [table];
    status clGetKernelWorkGroupInfo(
        kernel: cl_kernel,
        device: cl_device_id,
        param_name: cl_kernel_work_group_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize
    ) -> cl_int = kernel [table];
    status clGetKernelArgInfo(
        kernel: cl_kernel,
        arg_indx: cl_uint,
        param_name: cl_kernel_arg_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize
    ) -> cl_int = kernel [table];
    status clEnqueueNDRangeKernel(
        command_queue: cl_command_queue,
        kernel: cl_kernel,
        work_dim: cl_uint,
        global_work_offset: *const usize,
        global_work_size: *const usize,
        local_work_size: *const usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = kernel [table];
    status clEnqueueTask(
        command_queue: cl_command_queue,
        kernel: cl_kernel,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = kernel [table];
    status clEnqueueNativeKernel(
        command_queue: cl_command_queue,
        user_func: Option<NativeFn>,
        args: *mut c_void,
        cb_args: usize,
        num_mem_objects: cl_uint,
        mem_list: *const cl_mem,
        args_mem_loc: *mut *const c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = kernel [table];
    status clSetKernelArgSVMPointer(
        kernel: cl_kernel,
        arg_index: cl_uint,
        arg_value: *const c_void
    ) -> cl_int = kernel [table];
    status clSetKernelExecInfo(
        kernel: cl_kernel,
        param_name: cl_kernel_exec_info,
        param_value_size: usize,
        param_value: *const c_void
    ) -> cl_int = kernel [table];
    object clCloneKernel(source_kernel: cl_kernel; errcode_ret) -> cl_kernel = kernel [table];
    status clGetKernelSubGroupInfo(
        kernel: cl_kernel,
        device: cl_device_id,
        param_name: cl_kernel_sub_group_info,
        input_value_size: usize,
        input_value: *const c_void,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize
    ) -> cl_int = kernel [table];
    status clGetKernelSuggestedLocalWorkSizeKHR(
        command_queue: cl_command_queue,
        kernel: cl_kernel,
        work_dim: cl_uint,
        global_work_offset: *const usize,
        global_work_size: *const usize,
        suggested_local_work_size: *mut usize
    ) -> cl_int = kernel [extension];
    status clGetKernelSubGroupInfoKHR(
        kernel: cl_kernel,
        device: cl_device_id,
        param_name: cl_kernel_sub_group_info,
        input_value_size: usize,
        input_value: *const c_void,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize
    ) -> cl_int = kernel [table extension];
    // api/event.rs
    status clWaitForEvents(
        num_events: cl_uint,
        event_list: *const cl_event
    ) -> cl_int = event [table];
    status clGetEventInfo(
        event: cl_event,
        param_name: cl_event_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize
    ) -> cl_int = event [table];
    status clRetainEvent(event: cl_event) -> cl_int = event [table];
    status clReleaseEvent(event: cl_event) -> cl_int = event [table];
    status clGetEventProfilingInfo(
        event: cl_event,
        param_name: cl_profiling_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize
    ) -> cl_int = event [table];
    status clSetEventCallback(
        event: cl_event,
        command_exec_callback_type: cl_int,
        pfn_notify: Option<EventCallbackFn>,
        user_data: *mut c_void
    ) -> cl_int = event [table];
    object clCreateUserEvent(context: cl_context; errcode_ret) -> cl_event = event [table];
    status clSetUserEventStatus(
        event: cl_event,
        execution_status: cl_int
    ) -> cl_int = event [table];
    status clEnqueueMarkerWithWaitList(
        command_queue: cl_command_queue,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = event [table];
    status clEnqueueBarrierWithWaitList(
        command_queue: cl_command_queue,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = event [table];
    status clEnqueueMarker(
        command_queue: cl_command_queue,
        event: *mut cl_event
    ) -> cl_int = event [table];
    status clEnqueueBarrier(command_queue: cl_command_queue) -> cl_int = event [table];
    status clEnqueueWaitForEvents(
        command_queue: cl_command_queue,
        num_events: cl_uint,
        event_list: *const cl_event
    ) -> cl_int = event [table];
    // api/transfer.rs
    status clEnqueueReadBuffer(
        command_queue: cl_command_queue,
        buffer: cl_mem,
        blocking_read: cl_bool,
        offset: usize,
        size: usize,
        ptr: *mut c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = transfer [table];
    status clEnqueueWriteBuffer(
        command_queue: cl_command_queue,
        buffer: cl_mem,
        blocking_write: cl_bool,
        offset: usize,
        size: usize,
        ptr: *const c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = transfer [table];
    status clEnqueueCopyBuffer(
        command_queue: cl_command_queue,
        src_buffer: cl_mem,
        dst_buffer: cl_mem,
        src_offset: usize,
        dst_offset: usize,
        size: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = transfer [table];
    status clEnqueueReadBufferRect(
        command_queue: cl_command_queue,
        buffer: cl_mem,
        blocking_read: cl_bool,
        buffer_origin: *const usize,
        host_origin: *const usize,
        region: *const usize,
        buffer_row_pitch: usize,
        buffer_slice_pitch: usize,
        host_row_pitch: usize,
        host_slice_pitch: usize,
        ptr: *mut c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = transfer [table];
    status clEnqueueWriteBufferRect(
        command_queue: cl_command_queue,
        buffer: cl_mem,
        blocking_write: cl_bool,
        buffer_origin: *const usize,
        host_origin: *const usize,
        region: *const usize,
        buffer_row_pitch: usize,
        buffer_slice_pitch: usize,
        host_row_pitch: usize,
        host_slice_pitch: usize,
        ptr: *const c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = transfer [table];
    status clEnqueueCopyBufferRect(
        command_queue: cl_command_queue,
        src_buffer: cl_mem,
        dst_buffer: cl_mem,
        src_origin: *const usize,
        dst_origin: *const usize,
        region: *const usize,
        src_row_pitch: usize,
        src_slice_pitch: usize,
        dst_row_pitch: usize,
        dst_slice_pitch: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = transfer [table];
    status clEnqueueFillBuffer(
        command_queue: cl_command_queue,
        buffer: cl_mem,
        pattern: *const c_void,
        pattern_size: usize,
        offset: usize,
        size: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = transfer [table];
    object clEnqueueMapBuffer(
        command_queue: cl_command_queue,
        buffer: cl_mem,
        blocking_map: cl_bool,
        map_flags: cl_map_flags,
        offset: usize,
        size: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
        ; errcode_ret
    ) -> *mut c_void = transfer [table];
    status clEnqueueUnmapMemObject(
        command_queue: cl_command_queue,
        memobj: cl_mem,
        mapped_ptr: *mut c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = transfer [table];
    status clEnqueueMigrateMemObjects(
        command_queue: cl_command_queue,
        num_mem_objects: cl_uint,
        mem_objects: *const cl_mem,
        flags: cl_mem_migration_flags,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = transfer [table];
    // api/interop.rs
    object clCreateFromGLBuffer(
        context: cl_context,
        flags: cl_mem_flags,
        bufobj: cl_GLuint
        ; errcode_ret
    ) -> cl_mem = interop [table];
    object clCreateFromGLTexture2D(
        context: cl_context,
        flags: cl_mem_flags,
        target: cl_GLenum,
        miplevel: cl_GLint,
        texture: cl_GLuint
        ; errcode_ret
    ) -> cl_mem = interop [table];
    object clCreateFromGLTexture3D(
        context: cl_context,
        flags: cl_mem_flags,
        target: cl_GLenum,
        miplevel: cl_GLint,
        texture: cl_GLuint
        ; errcode_ret
    ) -> cl_mem = interop [table];
    object clCreateFromGLRenderbuffer(
        context: cl_context,
        flags: cl_mem_flags,
        renderbuffer: cl_GLuint
        ; errcode_ret
    ) -> cl_mem = interop [table];
    status clGetGLObjectInfo(
        memobj: cl_mem,
        gl_object_type: *mut cl_gl_object_type,
        gl_object_name: *mut cl_GLuint
    ) -> cl_int = interop [table];
    status clGetGLTextureInfo(
        memobj: cl_mem,
        param_name: cl_gl_texture_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize
    ) -> cl_int = interop [table];
    status clEnqueueAcquireGLObjects(
        command_queue: cl_command_queue,
        num_objects: cl_uint,
        mem_objects: *const cl_mem,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = interop [table];
    status clEnqueueReleaseGLObjects(
        command_queue: cl_command_queue,
        num_objects: cl_uint,
        mem_objects: *const cl_mem,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = interop [table];
    status clGetGLContextInfoKHR(
        properties: *const cl_context_properties,
        param_name: cl_gl_context_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize
    ) -> cl_int = interop [table];
    object clCreateFromGLTexture(
        context: cl_context,
        flags: cl_mem_flags,
        target: cl_GLenum,
        miplevel: cl_GLint,
        texture: cl_GLuint
        ; errcode_ret
    ) -> cl_mem = interop [table];
    object clCreateEventFromGLsyncKHR(
        context: cl_context,
        sync: cl_GLsync
        ; errcode_ret
    ) -> cl_event = interop [table];
    object clCreateFromEGLImageKHR(
        context: cl_context,
        display: CLeglDisplayKHR,
        image: CLeglImageKHR,
        flags: cl_mem_flags,
        properties: *const cl_egl_image_properties_khr
        ; errcode_ret
    ) -> cl_mem = interop [table];
    status clEnqueueAcquireEGLObjectsKHR(
        command_queue: cl_command_queue,
        num_objects: cl_uint,
        mem_objects: *const cl_mem,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = interop [table];
    status clEnqueueReleaseEGLObjectsKHR(
        command_queue: cl_command_queue,
        num_objects: cl_uint,
        mem_objects: *const cl_mem,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event
    ) -> cl_int = interop [table];
    object clCreateEventFromEGLSyncKHR(
        context: cl_context,
        sync: CLeglSyncKHR,
        display: CLeglDisplayKHR
        ; errcode_ret
    ) -> cl_event = interop [table];
    status clCreateSubDevicesEXT(
        in_device: cl_device_id,
        partition_properties: *const cl_device_partition_property_ext,
        num_entries: cl_uint,
        out_devices: *mut cl_device_id,
        num_devices: *mut cl_uint
    ) -> cl_int = interop [table];
    status clRetainDeviceEXT(device: cl_device_id) -> cl_int = interop [table];
    status clReleaseDeviceEXT(device: cl_device_id) -> cl_int = interop [table];

}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dispatch table's slots, as the words a loader reads.
    fn slots(table: &cl_icd_dispatch) -> Vec<usize> {
        let words = std::mem::size_of::<cl_icd_dispatch>() / std::mem::size_of::<usize>();
        // SAFETY: the table is a repr(C) struct of pointer-sized optional
        // function pointers and pointers, read within its size.
        unsafe { std::slice::from_raw_parts(table as *const _ as *const usize, words) }.to_vec()
    }

    #[test]
    fn the_dispatch_table_holds_every_table_row_and_nothing_else() {
        let table = slots(&dispatch_table());
        let rows: Vec<Entry> = entries().filter(|e| e.dispatch).collect();
        assert_eq!(table.iter().filter(|&&w| w != 0).count(), rows.len());
        for row in &rows {
            assert!(
                table.contains(&(row.address as usize)),
                "{} has no slot",
                row.name
            );
        }
        let names: std::collections::HashSet<_> = entries().map(|e| e.name).collect();
        assert_eq!(names.len(), entries().count(), "a name appears twice");
        assert!(entry("clCreateBuffer").is_some_and(|e| e.dispatch && !e.extension));
        assert!(entry("clGetKernelSubGroupInfoKHR").is_some_and(|e| e.extension));
        assert!(entry("clNoSuchFunction").is_none());
    }
}
