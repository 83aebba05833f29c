//! Entry points: programs. Builds run synchronously through the kernel
//! compiler (crate::compiler); binaries are the compiler's own format.

use crate::api::device::resolve_devices;
use crate::api::util::{c_array, c_str, write_out, InfoOut};
use crate::cl::*;
use crate::compiler::{BuildError, Input};
use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::object::{self, handle_of, publish};
use crate::core::program::Program;
use std::ffi::{c_char, c_uchar, c_void};
use std::sync::Arc;

/// A program binary: an executable, or a compiled object or library.
enum Loaded {
    Executable(crate::compiler::Executable),
    Object(crate::compiler::Object),
}

pub(crate) type BuildNotify =
    Option<unsafe extern "C" fn(program: cl_program, user_data: *mut c_void)>;

/// The devices a build applies to: all of the program's, or a subset of
/// them ("CL_INVALID_DEVICE if any device in device_list is not in the list
/// of devices associated with program").
fn build_devices(
    program: &Program,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
) -> Result<(), cl_int> {
    if device_list.is_null() != (num_devices == 0) {
        return Err(CL_INVALID_VALUE);
    }
    if !device_list.is_null() {
        let devices = c_array(device_list, num_devices as usize, CL_INVALID_VALUE)?;
        for &d in devices {
            let dev = Device::resolve(d)?;
            if !program.devices.iter().any(|p| Arc::ptr_eq(p, &dev)) {
                return Err(CL_INVALID_DEVICE);
            }
        }
    }
    Ok(())
}

/// "CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL."
fn check_notify(pfn_notify: BuildNotify, user_data: *mut c_void) -> Result<(), cl_int> {
    if pfn_notify.is_none() && !user_data.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    Ok(())
}

/// CL_PROGRAM_BINARIES: the executable's binary, else the compiled
/// object's or library's, else nothing.
fn program_binary(p: &Program) -> Vec<u8> {
    if let Some(exe) = p.executable() {
        // The back end's code (waiting for it); none if it failed.
        return exe.code().map_or_else(|_| Vec::new(), |c| c.binary.clone());
    }
    p.object().map_or_else(Vec::new, |o| o.binary())
}

/// The spec's code for a build or compile step that failed: its own code
/// for bad options and for failure; "CL_COMPILER_NOT_AVAILABLE if program is
/// created with clCreateProgramWithSource and a compiler is not available".
/// Records a build step's outcome on the program (`finish`: the value, or
/// the log) and answers with the code for it: `bad_options` when the
/// options were refused, `failed` when the source was.
fn record_outcome<T>(
    outcome: Result<T, crate::compiler::BuildError>,
    finish: impl FnOnce(Result<T, String>),
    bad_options: cl_int,
    failed: cl_int,
) -> Result<(), cl_int> {
    use crate::compiler::BuildError;
    match outcome {
        Ok(value) => {
            finish(Ok(value));
            Ok(())
        }
        Err(e) => {
            let code = match e {
                BuildError::Options(_) => bad_options,
                BuildError::NoCompiler(_) => CL_COMPILER_NOT_AVAILABLE,
                BuildError::Failed(_) => failed,
            };
            finish(Err(e.log().to_string()));
            Err(code)
        }
    }
}

/// `f` on what a build or compile of `p` reads: its source, or its SPIR-V
/// module with the specialization constants set so far.
fn with_input<T>(
    p: &Program,
    f: impl FnOnce(Input) -> Result<T, BuildError>,
) -> Result<T, BuildError> {
    match &p.il {
        None => f(Input::Source(&p.source)),
        Some(il) => {
            let bytes = il
                .for_translator()
                .map_err(|why| BuildError::Failed(format!("ferrocl: {why}")))?;
            f(Input::SpirV(&bytes))
        }
    }
}

/// Calls the application's build callback, when it gave one.
fn notify_built(pfn_notify: BuildNotify, program: cl_program, user_data: *mut c_void) {
    if let Some(notify) = pfn_notify {
        // SAFETY: the application's build callback with its arguments.
        unsafe { notify(program, user_data) };
    }
}

fn options_text(options: *const c_char) -> Result<String, cl_int> {
    if options.is_null() {
        return Ok(String::new());
    }
    c_str(options, CL_INVALID_BUILD_OPTIONS).map(str::to_string)
}

pub(crate) fn clCreateProgramWithSource(
    context: cl_context,
    count: cl_uint,
    strings: *mut *const c_char,
    lengths: *const usize,
) -> Result<cl_program, cl_int> {
    let ctx = Context::resolve(context)?;
    // "CL_INVALID_VALUE if count is zero or if strings or any entry in
    // strings is NULL."
    let parts = c_array(
        strings as *const *const c_char,
        count as usize,
        CL_INVALID_VALUE,
    )?;
    if parts.is_empty() {
        return Err(CL_INVALID_VALUE);
    }
    let mut source = Vec::new();
    for (i, &p) in parts.iter().enumerate() {
        if p.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // "If lengths is NULL, all strings ... are null-terminated"; a
        // zero entry means that string is null-terminated.
        let len = if lengths.is_null() {
            0
        } else {
            // SAFETY: lengths has count entries when not NULL.
            unsafe { *lengths.add(i) }
        };
        if len == 0 {
            source.extend_from_slice(c_str(p, CL_INVALID_VALUE)?.as_bytes());
        } else {
            // SAFETY: the application gives len readable bytes at p.
            source.extend_from_slice(unsafe { std::slice::from_raw_parts(p as *const u8, len) });
        }
    }
    let text = String::from_utf8_lossy(&source).into_owned();
    Ok(publish(Program::with_source(ctx, text)))
}

pub(crate) fn clCreateProgramWithBinary(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    lengths: *const usize,
    binaries: *mut *const c_uchar,
    binary_status: *mut cl_int,
) -> Result<cl_program, cl_int> {
    let ctx = Context::resolve(context)?;
    let devices = resolve_devices(device_list, num_devices)?;
    if devices.iter().any(|d| !ctx.has_device(d)) {
        return Err(CL_INVALID_DEVICE);
    }
    let lengths = c_array(lengths, num_devices as usize, CL_INVALID_VALUE)?;
    let binaries = c_array(
        binaries as *const *const c_uchar,
        num_devices as usize,
        CL_INVALID_VALUE,
    )?;
    if lengths.contains(&0) || binaries.iter().any(|b| b.is_null()) {
        return Err(CL_INVALID_VALUE);
    }
    // Every device is the same CPU: each binary is loaded to check it,
    // and the first one serves them all.
    let mut first = None;
    let mut all_ok = true;
    for i in 0..num_devices as usize {
        // SAFETY: binaries[i] holds lengths[i] bytes (checked non-NULL).
        let bytes = unsafe { std::slice::from_raw_parts(binaries[i], lengths[i]) };
        let status = match crate::compiler::Executable::load(bytes) {
            Ok(exe) => {
                first.get_or_insert(Loaded::Executable(exe));
                CL_SUCCESS
            }
            Err(_) => match crate::compiler::Object::load(bytes) {
                Some(obj) => {
                    first.get_or_insert(Loaded::Object(obj));
                    CL_SUCCESS
                }
                None => {
                    all_ok = false;
                    CL_INVALID_BINARY
                }
            },
        };
        if !binary_status.is_null() {
            // SAFETY: binary_status has num_devices entries when not NULL.
            write_out(unsafe { binary_status.add(i) }, status);
        }
    }
    match first {
        Some(Loaded::Executable(exe)) if all_ok => {
            Ok(publish(Program::with_binary(ctx, devices, exe)))
        }
        Some(Loaded::Object(obj)) if all_ok => {
            Ok(publish(Program::with_object(ctx, devices, obj, true)))
        }
        _ => Err(CL_INVALID_BINARY),
    }
}

pub(crate) fn clCreateProgramWithBuiltInKernels(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    kernel_names: *const c_char,
) -> Result<cl_program, cl_int> {
    let ctx = Context::resolve(context)?;
    let devices = resolve_devices(device_list, num_devices)?;
    if devices.iter().any(|d| !ctx.has_device(d)) {
        return Err(CL_INVALID_DEVICE);
    }
    c_str(kernel_names, CL_INVALID_VALUE)?;
    // "CL_INVALID_VALUE if kernel_names ... contains a kernel name that
    // is not supported by any of the devices": the device has none.
    Err(CL_INVALID_VALUE)
}

pub(crate) fn clCreateProgramWithIL(
    context: cl_context,
    il: *const c_void,
    length: usize,
) -> Result<cl_program, cl_int> {
    let ctx = Context::resolve(context)?;
    if il.is_null() || length == 0 {
        return Err(CL_INVALID_VALUE);
    }
    // "CL_INVALID_OPERATION if no devices in context support
    // intermediate language programs."
    if !crate::compiler::spirv::il_supported() {
        return Err(CL_INVALID_OPERATION);
    }
    // SAFETY: the application gives `length` readable bytes at `il`.
    let bytes = unsafe { std::slice::from_raw_parts(il as *const u8, length) }.to_vec();
    // "CL_INVALID_VALUE if ... the length-byte memory pointed to by il
    // does not contain well-formed intermediate language".
    let module = crate::compiler::spirv::Module::parse(&bytes).map_err(|_| CL_INVALID_VALUE)?;
    Ok(publish(Program::with_il(ctx, bytes, module)))
}

/// cl_khr_il_program's name for clCreateProgramWithIL.
pub(crate) fn clCreateProgramWithILKHR(
    context: cl_context,
    il: *const c_void,
    length: usize,
) -> Result<cl_program, cl_int> {
    clCreateProgramWithIL(context, il, length)
}

pub(crate) fn clRetainProgram(program: cl_program) -> Result<(), cl_int> {
    object::retain::<Program>(program)
}

pub(crate) fn clReleaseProgram(program: cl_program) -> Result<(), cl_int> {
    object::release::<Program>(program)
}

pub(crate) fn clBuildProgram(
    program: cl_program,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    pfn_notify: BuildNotify,
    user_data: *mut c_void,
) -> Result<(), cl_int> {
    let p = Program::resolve(program)?;
    build_devices(&p, num_devices, device_list)?;
    check_notify(pfn_notify, user_data)?;
    // "CL_INVALID_OPERATION if there are kernel objects attached to
    // program."
    if p.has_kernels() {
        return Err(CL_INVALID_OPERATION);
    }
    let options = options_text(options)?;
    let result =
        if let (true, Some(obj)) = (p.from_binary() && p.executable().is_none(), p.object()) {
            // A binary of a compiled object or library: linked into an
            // executable.
            crate::compiler::check_options(&options).map_err(|_| CL_INVALID_BUILD_OPTIONS)?;
            match crate::compiler::link(&[&obj], "") {
                Ok(crate::compiler::Linked::Executable(exe)) => {
                    p.finish_build(&options, Ok(exe));
                    Ok(())
                }
                Ok(crate::compiler::Linked::Library(_)) => Err(CL_BUILD_PROGRAM_FAILURE),
                Err(e) => {
                    p.finish_build(&options, Err(e.log().to_string()));
                    Err(CL_BUILD_PROGRAM_FAILURE)
                }
            }
        } else if p.from_binary() {
            // The binary is already an executable: building it succeeds.
            p.finish_binary_build(&options);
            Ok(())
        } else {
            record_outcome(
                with_input(&p, |input| crate::compiler::build_input(input, &options)),
                |outcome| {
                    p.finish_build(&options, outcome);
                },
                CL_INVALID_BUILD_OPTIONS,
                CL_BUILD_PROGRAM_FAILURE,
            )
        };
    notify_built(pfn_notify, program, user_data);
    result
}

pub(crate) fn clCompileProgram(
    program: cl_program,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    num_input_headers: cl_uint,
    input_headers: *const cl_program,
    header_include_names: *mut *const c_char,
    pfn_notify: BuildNotify,
    user_data: *mut c_void,
) -> Result<(), cl_int> {
    let p = Program::resolve(program)?;
    build_devices(&p, num_devices, device_list)?;
    check_notify(pfn_notify, user_data)?;
    // "CL_INVALID_VALUE if num_input_headers is zero and
    // header_include_names or input_headers are not NULL or if
    // num_input_headers is not zero and header_include_names or
    // input_headers are NULL."
    if (num_input_headers == 0) != (input_headers.is_null() && header_include_names.is_null())
        || (num_input_headers != 0 && (input_headers.is_null() || header_include_names.is_null()))
    {
        return Err(CL_INVALID_VALUE);
    }
    let handles = c_array(input_headers, num_input_headers as usize, CL_INVALID_VALUE)?;
    let names = c_array(
        header_include_names as *const *const c_char,
        num_input_headers as usize,
        CL_INVALID_VALUE,
    )?;
    let mut headers = Vec::with_capacity(handles.len());
    for (&h, &n) in handles.iter().zip(names) {
        let hp = Program::resolve(h)?;
        headers.push((c_str(n, CL_INVALID_VALUE)?.to_string(), hp.source.clone()));
    }
    // "CL_INVALID_OPERATION if program has no source or IL available",
    // and "if there are kernel objects attached to program".
    if !p.has_source() || p.has_kernels() {
        return Err(CL_INVALID_OPERATION);
    }
    let options = options_text(options).map_err(|_| CL_INVALID_COMPILER_OPTIONS)?;
    let result = record_outcome(
        with_input(&p, |input| {
            crate::compiler::compile_object(input, &options, &headers)
        }),
        |outcome| {
            p.finish_compile(&options, outcome);
        },
        CL_INVALID_COMPILER_OPTIONS,
        CL_COMPILE_PROGRAM_FAILURE,
    );
    notify_built(pfn_notify, program, user_data);
    result
}

pub(crate) fn clGetProgramInfo(
    program: cl_program,
    param_name: cl_program_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    let p = Program::resolve(program)?;
    let out = InfoOut::new(param_value_size, param_value, param_value_size_ret);
    match param_name {
        CL_PROGRAM_REFERENCE_COUNT => out.write(&object::app_ref_count::<Program>(program)?),
        CL_PROGRAM_CONTEXT => out.write(&handle_of(&p.context)),
        CL_PROGRAM_NUM_DEVICES => out.write(&(p.devices.len() as cl_uint)),
        CL_PROGRAM_DEVICES => out.write(&p.devices.iter().map(handle_of).collect::<Vec<_>>()),
        CL_PROGRAM_SOURCE => out.write(&p.source),
        CL_PROGRAM_IL => out.write(&p.il.as_ref().map_or(&[][..], |il| &il.bytes[..]).to_vec()),
        CL_PROGRAM_BINARY_SIZES => {
            let size = program_binary(&p).len();
            out.write(&vec![size; p.devices.len()])
        }
        // An array of pointers the application owns, one per device,
        // each to CL_PROGRAM_BINARY_SIZES bytes (NULL entries skipped).
        CL_PROGRAM_BINARIES => {
            let size = p.devices.len() * std::mem::size_of::<*mut u8>();
            if !param_value.is_null() {
                if param_value_size < size {
                    return Err(CL_INVALID_VALUE);
                }
                let bin = program_binary(&p);
                // SAFETY: the application gives one pointer per device.
                let ptrs = unsafe {
                    std::slice::from_raw_parts(param_value as *const *mut u8, p.devices.len())
                };
                for &dst in ptrs.iter().filter(|d| !d.is_null()) {
                    // SAFETY: each non-NULL pointer has room for the
                    // size CL_PROGRAM_BINARY_SIZES reported.
                    unsafe { std::ptr::copy_nonoverlapping(bin.as_ptr(), dst, bin.len()) };
                }
            }
            write_out(param_value_size_ret, size);
            Ok(())
        }
        // "CL_INVALID_PROGRAM_EXECUTABLE if param_name is
        // CL_PROGRAM_NUM_KERNELS or CL_PROGRAM_KERNEL_NAMES and a
        // successful program executable has not been built."
        CL_PROGRAM_NUM_KERNELS | CL_PROGRAM_KERNEL_NAMES => {
            let exe = match p.executable() {
                Some(e) if p.build_state().status == CL_BUILD_SUCCESS => e,
                _ => return Err(CL_INVALID_PROGRAM_EXECUTABLE),
            };
            if param_name == CL_PROGRAM_NUM_KERNELS {
                out.write(&exe.visible_kernels().count())
            } else {
                out.write(
                    &exe.visible_kernels()
                        .map(|i| exe.kernels[i].name.as_str())
                        .collect::<Vec<_>>()
                        .join(";"),
                )
            }
        }
        CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT | CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT => {
            out.write(&false)
        }
        _ => Err(CL_INVALID_VALUE),
    }
}

pub(crate) fn clGetProgramBuildInfo(
    program: cl_program,
    device: cl_device_id,
    param_name: cl_program_build_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    let p = Program::resolve(program)?;
    let dev = Device::resolve(device)?;
    if !p.devices.iter().any(|d| Arc::ptr_eq(d, &dev)) {
        return Err(CL_INVALID_DEVICE);
    }
    let state = p.build_state();
    let out = InfoOut::new(param_value_size, param_value, param_value_size_ret);
    match param_name {
        CL_PROGRAM_BUILD_STATUS => out.write(&state.status),
        CL_PROGRAM_BUILD_OPTIONS => out.write(&state.options),
        CL_PROGRAM_BUILD_LOG => out.write(&state.log),
        CL_PROGRAM_BINARY_TYPE => out.write(&state.binary_type),
        // "The total amount of storage, in bytes, used by program
        // variables in the global address space": 0 until built.
        CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE => out.write(
            &p.executable()
                .map_or(0, |e| e.code().map_or(0, |c| c.global_variables_size)),
        ),
        _ => Err(CL_INVALID_VALUE),
    }
}

pub(crate) fn clSetProgramReleaseCallback(
    program: cl_program,
    pfn_notify: BuildNotify,
    _user_data: *mut c_void,
) -> Result<(), cl_int> {
    Program::resolve(program)?;
    if pfn_notify.is_none() {
        return Err(CL_INVALID_VALUE);
    }
    // "CL_INVALID_OPERATION if no devices in the context associated with
    // program support destructors for program scope global variables."
    Err(CL_INVALID_OPERATION)
}

pub(crate) fn clSetProgramSpecializationConstant(
    program: cl_program,
    spec_id: cl_uint,
    spec_size: usize,
    spec_value: *const c_void,
) -> Result<(), cl_int> {
    let p = Program::resolve(program)?;
    // "CL_INVALID_PROGRAM if program is not a valid program object
    // created from an intermediate language (e.g. SPIR-V)".
    let il = p.il.as_ref().ok_or(CL_INVALID_PROGRAM)?;
    if spec_value.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    // SAFETY: the application gives `spec_size` readable bytes at
    // `spec_value`.
    let value = unsafe { std::slice::from_raw_parts(spec_value as *const u8, spec_size) };
    il.specialize(spec_id, value)
}

/// clLinkProgram: a link that fails still returns its program (with the
/// log) together with CL_LINK_PROGRAM_FAILURE, so the program and the code
/// come back together.
#[allow(clippy::too_many_arguments)]
pub(crate) fn clLinkProgram(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    num_input_programs: cl_uint,
    input_programs: *const cl_program,
    pfn_notify: BuildNotify,
    user_data: *mut c_void,
) -> Result<(cl_program, cl_int), cl_int> {
    let ctx = Context::resolve(context)?;
    if device_list.is_null() != (num_devices == 0) {
        return Err(CL_INVALID_VALUE);
    }
    let devices = if device_list.is_null() {
        ctx.devices.clone()
    } else {
        let d = resolve_devices(device_list, num_devices)?;
        if d.iter().any(|d| !ctx.has_device(d)) {
            return Err(CL_INVALID_DEVICE);
        }
        d
    };
    check_notify(pfn_notify, user_data)?;
    if input_programs.is_null() != (num_input_programs == 0) || num_input_programs == 0 {
        return Err(CL_INVALID_VALUE);
    }
    let inputs = c_array(
        input_programs,
        num_input_programs as usize,
        CL_INVALID_VALUE,
    )?;
    let mut objects = Vec::with_capacity(inputs.len());
    for &h in inputs {
        let p = Program::resolve(h)?;
        // "CL_INVALID_OPERATION if ... input_programs ... are not compiled
        // binaries or libraries."
        match p.object() {
            Some(o) => objects.push(o),
            None => return Err(CL_INVALID_OPERATION),
        }
    }
    let options = options_text(options).map_err(|_| CL_INVALID_LINKER_OPTIONS)?;
    crate::compiler::check_link_options(&options).map_err(|_| CL_INVALID_LINKER_OPTIONS)?;
    let refs: Vec<&crate::compiler::Object> = objects.iter().map(|o| o.as_ref()).collect();
    use crate::compiler::{BuildError, Linked};
    let linked = crate::compiler::link(&refs, &options);
    if let Err(BuildError::NoCompiler(_)) = linked {
        return Err(CL_LINKER_NOT_AVAILABLE);
    }
    if let Err(BuildError::Options(_)) = linked {
        return Err(CL_INVALID_LINKER_OPTIONS);
    }
    let program = Program::linked(ctx, devices);
    let code = match linked {
        Ok(Linked::Library(obj)) => {
            program.finish_compile(&options, Ok(obj));
            CL_SUCCESS
        }
        Ok(Linked::Executable(exe)) => {
            program.finish_build(&options, Ok(exe));
            CL_SUCCESS
        }
        Err(e) => {
            program.finish_build(&options, Err(e.log().to_string()));
            CL_LINK_PROGRAM_FAILURE
        }
    };
    let handle = publish(program);
    notify_built(pfn_notify, handle, user_data);
    Ok((handle, code))
}
