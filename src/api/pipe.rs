//! Entry points: pipes (OpenCL 3.0 section 5.4). A pipe is a memory object
//! whose bytes are a lock-free ring the kernels' pipe functions work on
//! (builtins/devenq.c): a header, one sequence word per packet slot, then
//! the packets. The host only creates it and reads its shape.

use crate::api::util::InfoOut;
use crate::cl::*;
use crate::core::context::Context;
use crate::core::memory::{Mem, PipeShape};
use crate::core::object::publish;
use std::ffi::c_void;

/// CL_DEVICE_PIPE_MAX_PACKET_SIZE.
pub const MAX_PACKET_SIZE: u32 = 1 << 20;
/// CL_DEVICE_MAX_PIPE_ARGS.
pub const MAX_PIPE_ARGS: u32 = 16;
/// CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS: reservations are ranges of the
/// ring, so any number may be active at once; this is what is promised.
pub const MAX_ACTIVE_RESERVATIONS: u32 = 1 << 16;

/// `struct ferrocl_pipe` (builtins/devenq.c): packet size, capacity, then
/// the write and read cursors on cache lines of their own.
const HEADER_BYTES: usize = 192;
const WRITE_NEXT: usize = 64;
const READ_NEXT: usize = 128;

/// The device's pipe queries: zeros while it reports no pipes.
pub fn device_pipe_info(param: cl_device_info, out: &InfoOut) -> Result<(), cl_int> {
    let on = crate::compiler::pipes_supported();
    let pick = |v: u32| if on { v } else { 0 };
    match param {
        CL_DEVICE_PIPE_SUPPORT => out.write(&(on as cl_bool)),
        CL_DEVICE_MAX_PIPE_ARGS => out.write(&pick(MAX_PIPE_ARGS)),
        CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS => out.write(&pick(MAX_ACTIVE_RESERVATIONS)),
        CL_DEVICE_PIPE_MAX_PACKET_SIZE => out.write(&pick(MAX_PACKET_SIZE)),
        _ => Err(CL_INVALID_VALUE),
    }
}

/// The pipe's bytes: header, sequence words, packets.
fn pipe_bytes(shape: PipeShape) -> Option<usize> {
    let slots = shape.max_packets as usize;
    slots
        .checked_mul(8 + shape.packet_size as usize)?
        .checked_add(HEADER_BYTES)
}

/// Writes an empty ring into a new pipe's (zeroed) bytes: every slot free
/// for the packet of its own index.
fn init_ring(mem: &Mem, shape: PipeShape) {
    let base = mem.host_address();
    // SAFETY: the pipe's allocation holds the header and one u64 per slot
    // (pipe_bytes), 128-byte aligned; nothing else sees it yet.
    unsafe {
        (base as *mut u32).write(shape.packet_size);
        (base as *mut u32).add(1).write(shape.max_packets);
        (base.add(WRITE_NEXT) as *mut u64).write(0);
        (base.add(READ_NEXT) as *mut u64).write(0);
        let seq = base.add(HEADER_BYTES) as *mut u64;
        for i in 0..shape.max_packets as usize {
            seq.add(i).write(i as u64);
        }
    }
}

fn pipe_of(pipe: cl_mem) -> Result<PipeShape, cl_int> {
    // "CL_INVALID_MEM_OBJECT if pipe is a not a valid pipe object."
    Mem::resolve(pipe)?.pipe.ok_or(CL_INVALID_MEM_OBJECT)
}

pub(crate) fn clCreatePipe(
    context: cl_context,
    flags: cl_mem_flags,
    pipe_packet_size: cl_uint,
    pipe_max_packets: cl_uint,
    properties: *const cl_pipe_properties,
) -> Result<cl_mem, cl_int> {
    let ctx = Context::resolve(context)?;
    // "CL_INVALID_OPERATION if no devices in context support pipes."
    if !crate::compiler::pipes_supported() {
        return Err(CL_INVALID_OPERATION);
    }
    // "Only CL_MEM_READ_WRITE and CL_MEM_HOST_NO_ACCESS can be
    // specified ... If the value specified for flags is 0, the default
    // is used which is CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS."
    let allowed = (CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS) as cl_mem_flags;
    if flags & !allowed != 0 {
        return Err(CL_INVALID_VALUE);
    }
    let flags = if flags == 0 { allowed } else { flags };
    // "Currently, in all OpenCL versions, properties must be NULL."
    if !properties.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    // "CL_INVALID_PIPE_SIZE if pipe_packet_size is 0 or the
    // pipe_packet_size exceeds CL_DEVICE_PIPE_MAX_PACKET_SIZE value
    // specified in table 4.3 (see clGetDeviceInfo) for all devices in
    // context or if pipe_max_packets is 0."
    if pipe_packet_size == 0 || pipe_packet_size > MAX_PACKET_SIZE || pipe_max_packets == 0 {
        return Err(CL_INVALID_PIPE_SIZE);
    }
    let shape = PipeShape {
        packet_size: pipe_packet_size,
        max_packets: pipe_max_packets,
    };
    let bytes = pipe_bytes(shape).ok_or(CL_MEM_OBJECT_ALLOCATION_FAILURE)?;
    if bytes as u64 > crate::core::device::Device::max_mem_alloc_size() {
        return Err(CL_MEM_OBJECT_ALLOCATION_FAILURE);
    }
    let mem = Mem::new_pipe(ctx, flags, shape, bytes)?;
    init_ring(&mem, shape);
    Ok(publish(mem))
}

pub(crate) fn clGetPipeInfo(
    pipe: cl_mem,
    param_name: cl_pipe_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    let shape = pipe_of(pipe)?;
    let out = InfoOut::new(param_value_size, param_value, param_value_size_ret);
    match param_name {
        CL_PIPE_PACKET_SIZE => out.write(&shape.packet_size),
        CL_PIPE_MAX_PACKETS => out.write(&shape.max_packets),
        // Pipes take no properties: an empty list.
        CL_PIPE_PROPERTIES => out.write::<[u8]>(&[]),
        _ => Err(CL_INVALID_VALUE),
    }
}
