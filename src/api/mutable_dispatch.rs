//! Entry points: cl_khr_command_buffer_mutable_dispatch 0.9.5. A launch
//! recorded with a handle (core::mutable_command) may get new arguments,
//! exec info and sizes between enqueues of its buffer.

use crate::api::enqueue::Recording;
use crate::api::kernel::{check_range_of, launch_range, set_arg, set_exec_info};
use crate::api::util::{c_array, property_list, property_pairs, write_out, InfoOut};
use crate::cl::*;
use crate::core::command_buffer::*;
use crate::core::mutable_command::{MutableCommand, Prepared, Sizes};
use crate::core::object::{handle_of, publish};
use std::ffi::c_void;
use std::sync::Arc;

/// CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR: every field may change
/// (an update is a new snapshot of a private kernel copy).
pub(crate) const CAPABILITIES: cl_bitfield = (CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR
    | CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR
    | CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR
    | CL_MUTABLE_DISPATCH_ARGUMENTS_KHR
    | CL_MUTABLE_DISPATCH_EXEC_INFO_KHR)
    as cl_bitfield;

/// The bit of one updatable field.
fn field(bit: u32) -> cl_bitfield {
    bit as cl_bitfield
}

/// A launch's CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR (every capability
/// when not given), checking its properties: "CL_INVALID_VALUE if values
/// specified in properties are not valid".
pub(crate) fn updatable_fields(
    properties: *const cl_command_properties_khr,
) -> Result<cl_bitfield, cl_int> {
    let pairs = property_pairs(properties);
    let mut fields = CAPABILITIES;
    for (i, &(name, value)) in pairs.iter().enumerate() {
        if pairs[..i].iter().any(|&(n, _)| n == name) {
            return Err(CL_INVALID_VALUE);
        }
        match name {
            n if n == CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR as cl_command_properties_khr
                && value & !CAPABILITIES == 0 =>
            {
                fields = value
            }
            CL_MUTABLE_DISPATCH_ASSERTS_KHR
                if value & !CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR == 0 => {}
            _ => return Err(CL_INVALID_VALUE),
        }
    }
    Ok(fields)
}

/// A slice of `work_dim` values from an application array (None: NULL).
fn sizes_of<'a>(ptr: *const usize, work_dim: cl_uint) -> Option<&'a [usize]> {
    // SAFETY: a non-NULL array holds work_dim values.
    (!ptr.is_null()).then(|| unsafe { std::slice::from_raw_parts(ptr, work_dim as usize) })
}

fn padded(values: Option<&[usize]>, default: usize) -> [usize; 3] {
    let mut out = [default; 3];
    if let Some(v) = values {
        out[..v.len()].copy_from_slice(v);
    }
    out
}

/// clCommandNDRangeKernelKHR with a mutable_handle: the launch as a
/// handle of its own.
pub(crate) fn record(
    buffer: &Arc<CommandBuffer>,
    (properties, updatable): (*const cl_command_properties_khr, cl_bitfield),
    kernel: cl_kernel,
    work_dim: cl_uint,
    (offset, global, local): (*const usize, *const usize, *const usize),
    (waits, sync_point): (&[cl_sync_point_khr], *mut cl_sync_point_khr),
    mutable_handle: *mut cl_mutable_command_khr,
) -> Result<(), cl_int> {
    let (q, k, range) = launch_range(
        handle_of(&buffer.queue),
        kernel,
        work_dim,
        offset,
        global,
        local,
    )?;
    let sizes = Sizes {
        work_dim,
        offset: padded(sizes_of(offset, work_dim), 0),
        global: padded(sizes_of(global, work_dim), 1),
        local: sizes_of(local, work_dim).map(|l| padded(Some(l), 1)),
    };
    let command = MutableCommand::new(
        buffer,
        (property_list(properties), updatable),
        &k,
        sizes,
        range,
    )?;
    drop(q);
    let held = command.buffers();
    Recording {
        buffer,
        waits,
        sync_point,
    }
    .record(
        CL_COMMAND_NDRANGE_KERNEL as cl_command_type,
        Step::Mutable(command.clone()),
        held,
    )?;
    write_out(mutable_handle, publish(command));
    Ok(())
}

/// One cl_mutable_dispatch_config_khr, checked and snapshot.
fn prepare(
    buffer: &Arc<CommandBuffer>,
    config: &MutableDispatchConfig,
) -> Result<(Arc<MutableCommand>, Prepared), cl_int> {
    let command = MutableCommand::resolve(config.command)?;
    if !command
        .buffer
        .upgrade()
        .is_some_and(|b| Arc::ptr_eq(&b, buffer))
    {
        return Err(CL_INVALID_MUTABLE_COMMAND_KHR);
    }
    let wants = |field: cl_bitfield, asked: bool| {
        // "CL_INVALID_OPERATION if ... the field was not made updatable".
        if asked && command.updatable & field == 0 {
            Err(CL_INVALID_OPERATION)
        } else {
            Ok(())
        }
    };
    wants(
        field(CL_MUTABLE_DISPATCH_ARGUMENTS_KHR),
        config.num_args > 0 || config.num_svm_args > 0,
    )?;
    wants(
        field(CL_MUTABLE_DISPATCH_EXEC_INFO_KHR),
        config.num_exec_infos > 0,
    )?;
    wants(
        field(CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR),
        !config.global_work_offset.is_null(),
    )?;
    wants(
        field(CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR),
        !config.global_work_size.is_null(),
    )?;
    wants(
        field(CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR),
        !config.local_work_size.is_null(),
    )?;
    let (kernel, old) = {
        let current = command.current();
        (current.kernel.clone_kernel(), current.sizes)
    };
    // "work_dim ... 0 means no change"; the dimensions cannot change.
    if config.work_dim != 0 && config.work_dim != old.work_dim {
        return Err(CL_INVALID_VALUE);
    }
    let args = c_array(config.arg_list, config.num_args as usize, CL_INVALID_VALUE)?;
    for a in args {
        set_arg(&kernel, a.arg_index, a.arg_size, a.arg_value)?;
    }
    let svm_args = c_array(
        config.arg_svm_list,
        config.num_svm_args as usize,
        CL_INVALID_VALUE,
    )?;
    for a in svm_args {
        kernel.set_arg_svm(a.arg_index, a.arg_value)?;
    }
    let infos = c_array(
        config.exec_info_list,
        config.num_exec_infos as usize,
        CL_INVALID_VALUE,
    )?;
    for e in infos {
        set_exec_info(&kernel, e.param_name, e.param_value_size, e.param_value)?;
    }
    let dims = old.work_dim;
    let sizes = Sizes {
        work_dim: dims,
        offset: sizes_of(config.global_work_offset, dims)
            .map_or(old.offset, |o| padded(Some(o), 0)),
        global: sizes_of(config.global_work_size, dims).map_or(old.global, |g| padded(Some(g), 1)),
        local: sizes_of(config.local_work_size, dims)
            .map(|l| padded(Some(l), 1))
            .or(old.local),
    };
    let n = dims as usize;
    let range = check_range_of(
        &command.queue,
        &kernel,
        dims,
        [
            Some(&sizes.offset[..n]),
            Some(&sizes.global[..n]),
            sizes.local.as_ref().map(|l| &l[..n]),
        ],
    )?;
    let prepared = command.prepare(kernel, sizes, range)?;
    Ok((command, prepared))
}

pub(crate) fn clUpdateMutableCommandsKHR(
    command_buffer: cl_command_buffer_khr,
    num_configs: cl_uint,
    config_types: *const cl_uint,
    configs: *mut *const c_void,
) -> Result<(), cl_int> {
    let buffer = CommandBuffer::resolve(command_buffer)?;
    // "CL_INVALID_OPERATION if command_buffer has not been finalized", "...
    // was not created with the CL_COMMAND_BUFFER_MUTABLE_KHR flag".
    if !buffer.finalized() || !buffer.mutable() {
        return Err(CL_INVALID_OPERATION);
    }
    let types = c_array(config_types, num_configs as usize, CL_INVALID_VALUE)?;
    let configs = c_array(
        configs as *const *const c_void,
        num_configs as usize,
        CL_INVALID_VALUE,
    )?;
    // Every configuration is checked before any takes effect: a failing
    // update changes nothing.
    let mut prepared = Vec::with_capacity(configs.len());
    for (&kind, &config) in types.iter().zip(configs) {
        if kind != MUTABLE_DISPATCH_CONFIG || config.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: a configuration of this type is a
        // cl_mutable_dispatch_config_khr (checked not NULL).
        let config = unsafe { &*(config as *const MutableDispatchConfig) };
        prepared.push(prepare(&buffer, config)?);
    }
    for (command, update) in prepared {
        command.commit(update);
    }
    Ok(())
}

pub(crate) fn clGetMutableCommandInfoKHR(
    command: cl_mutable_command_khr,
    param_name: cl_mutable_command_info_khr,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    let c = MutableCommand::resolve(command)?;
    let out = InfoOut::new(param_value_size, param_value, param_value_size_ret);
    let current = c.current();
    let dims = current.sizes.work_dim as usize;
    match param_name {
        CL_MUTABLE_COMMAND_COMMAND_QUEUE_KHR => out.write(&handle_of(&c.queue)),
        CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR => out.write(
            &c.buffer
                .upgrade()
                .map_or(std::ptr::null_mut(), |b| handle_of(&b)),
        ),
        CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR => {
            out.write(&(CL_COMMAND_NDRANGE_KERNEL as cl_command_type))
        }
        CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR => out.write(&c.properties),
        CL_MUTABLE_DISPATCH_KERNEL_KHR => out.write(&handle_of(&c.kernel)),
        CL_MUTABLE_DISPATCH_DIMENSIONS_KHR => out.write(&current.sizes.work_dim),
        CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR => {
            out.write(&current.sizes.offset[..dims].to_vec())
        }
        CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR => {
            out.write(&current.sizes.global[..dims].to_vec())
        }
        CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR => out.write(&current.local[..dims].to_vec()),
        _ => Err(CL_INVALID_VALUE),
    }
}
