//! Entry points: memory objects (buffers and sub-buffers). The commands
//! that move their bytes are in api/transfer.rs.

use crate::api::util::{property_list, property_pairs, InfoOut};
use crate::cl::*;
use crate::core::callback::Callback;
use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::memory::{range_in_bounds, Mem, MemDestructor, BASE_ADDR_ALIGN};
use crate::core::object::{self, handle_of, publish};
use crate::core::svm;
use std::ffi::c_void;
use std::sync::Arc;

const ACCESS: u32 = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
const HOST_ACCESS: u32 = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
const HOST_PTR: u32 = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
/// The flags an image (and clGetSupportedImageFormats) takes.
pub const IMAGE_FLAGS: u32 = ACCESS | HOST_ACCESS | HOST_PTR | CL_MEM_KERNEL_READ_AND_WRITE;

fn has(flags: cl_mem_flags, bits: u32) -> bool {
    flags & bits as cl_mem_flags != 0
}

/// At most one of the bits in `group` is set.
fn at_most_one(flags: cl_mem_flags, group: u32) -> bool {
    (flags & group as cl_mem_flags).count_ones() <= 1
}

/// "CL_INVALID_VALUE if values specified in flags are not valid as defined
/// in the Memory Flags table": unknown bits, or flags the table says are
/// mutually exclusive (READ_WRITE/WRITE_ONLY/READ_ONLY;
/// HOST_WRITE_ONLY/HOST_READ_ONLY/HOST_NO_ACCESS; USE_HOST_PTR with
/// ALLOC_HOST_PTR or COPY_HOST_PTR).
pub fn check_flags(flags: cl_mem_flags, allowed: u32) -> Result<(), cl_int> {
    let use_and_other =
        has(flags, CL_MEM_USE_HOST_PTR) && has(flags, CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    if flags & !(allowed as cl_mem_flags) != 0
        || !at_most_one(flags, ACCESS)
        || !at_most_one(flags, HOST_ACCESS)
        || use_and_other
    {
        return Err(CL_INVALID_VALUE);
    }
    Ok(())
}

fn create_buffer(
    context: cl_context,
    properties: *const cl_mem_properties,
    flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
) -> Result<cl_mem, cl_int> {
    // "CL_INVALID_CONTEXT if context is not a valid context."
    let ctx = Context::resolve(context)?;
    // "CL_INVALID_PROPERTY if a property name in properties is not a
    // supported property name ..." (no buffer property is supported).
    if !property_pairs(properties).is_empty() {
        return Err(CL_INVALID_PROPERTY);
    }
    check_flags(flags, ACCESS | HOST_ACCESS | HOST_PTR)?;
    // "CL_INVALID_BUFFER_SIZE if size is 0, or if size is greater than
    // CL_DEVICE_MAX_MEM_ALLOC_SIZE ... for all devices in context."
    if size == 0 || size as u64 > Device::max_mem_alloc_size() {
        return Err(CL_INVALID_BUFFER_SIZE);
    }
    // "CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or
    // CL_MEM_COPY_HOST_PTR are set in flags or if host_ptr is not NULL but
    // CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set in flags."
    let wants_ptr = has(flags, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    if wants_ptr == host_ptr.is_null() {
        return Err(CL_INVALID_HOST_PTR);
    }
    // "CL_INVALID_BUFFER_SIZE if CL_MEM_USE_HOST_PTR is set in flags and
    // host_ptr is a pointer returned by clSVMAlloc and size is greater than
    // the size passed to clSVMAlloc."
    if has(flags, CL_MEM_USE_HOST_PTR)
        && svm::contains(&ctx, host_ptr, 0)
        && !svm::contains(&ctx, host_ptr, size)
    {
        return Err(CL_INVALID_BUFFER_SIZE);
    }
    // SAFETY: host_ptr is non-NULL exactly when USE/COPY_HOST_PTR is set,
    // and the application guarantees it points to size bytes (which, for
    // CL_MEM_USE_HOST_PTR, stay valid while the buffer lives).
    let mem = unsafe {
        Mem::new_buffer(
            ctx,
            flags,
            size,
            host_ptr as *mut u8,
            property_list(properties),
        )
    }?;
    Ok(publish(mem))
}

/// The flags of an object made over `parent`'s memory (a sub-buffer, or an
/// image over a buffer or image): host pointer flags are not given but
/// inherited, access flags not given are inherited and given ones may
/// not contradict the parent's (the same rules for clCreateSubBuffer and
/// clCreateImage with a mem_object).
pub(crate) fn inherited_flags(parent: &Mem, flags: cl_mem_flags) -> Result<cl_mem_flags, cl_int> {
    // "... or if flags specifies CL_MEM_USE_HOST_PTR or
    // CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR" (CL_INVALID_VALUE).
    check_flags(flags, ACCESS | HOST_ACCESS)?;
    // "CL_INVALID_VALUE if buffer was created with CL_MEM_WRITE_ONLY and
    // flags specifies CL_MEM_READ_WRITE or CL_MEM_READ_ONLY, or if buffer was
    // created with CL_MEM_READ_ONLY and flags specifies CL_MEM_READ_WRITE or
    // CL_MEM_WRITE_ONLY".
    let pf = parent.flags;
    if (has(pf, CL_MEM_WRITE_ONLY) && has(flags, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))
        || (has(pf, CL_MEM_READ_ONLY) && has(flags, CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))
    {
        return Err(CL_INVALID_VALUE);
    }
    // "CL_INVALID_VALUE if buffer was created with CL_MEM_HOST_WRITE_ONLY and
    // flags specify CL_MEM_HOST_READ_ONLY, or if buffer was created with
    // CL_MEM_HOST_READ_ONLY and flags specify CL_MEM_HOST_WRITE_ONLY, or if
    // buffer was created with CL_MEM_HOST_NO_ACCESS and flags specify
    // CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_WRITE_ONLY."
    if (has(pf, CL_MEM_HOST_WRITE_ONLY) && has(flags, CL_MEM_HOST_READ_ONLY))
        || (has(pf, CL_MEM_HOST_READ_ONLY) && has(flags, CL_MEM_HOST_WRITE_ONLY))
        || (has(pf, CL_MEM_HOST_NO_ACCESS)
            && has(flags, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))
    {
        return Err(CL_INVALID_VALUE);
    }
    Ok(parent.sub_buffer_flags(flags))
}

fn create_sub_buffer(
    buffer: cl_mem,
    flags: cl_mem_flags,
    create_type: cl_buffer_create_type,
    create_info: *const c_void,
) -> Result<cl_mem, cl_int> {
    // "CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object or is a
    // sub-buffer object."
    let parent = Mem::resolve_buffer(buffer)?;
    if parent.parent().is_some() {
        return Err(CL_INVALID_MEM_OBJECT);
    }
    let flags = inherited_flags(&parent, flags)?;
    // "CL_INVALID_VALUE if the value specified in buffer_create_type is not
    // valid." / "... if buffer_create_info is NULL."
    if create_type != CL_BUFFER_CREATE_TYPE_REGION || create_info.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    // SAFETY: for CL_BUFFER_CREATE_TYPE_REGION the application passes a
    // cl_buffer_region; read unaligned, it may sit anywhere.
    let region = unsafe { (create_info as *const cl_buffer_region).read_unaligned() };
    // "CL_INVALID_BUFFER_SIZE if the size field of the cl_buffer_region
    // structure passed in buffer_create_info is 0."
    if region.size == 0 {
        return Err(CL_INVALID_BUFFER_SIZE);
    }
    // "CL_INVALID_VALUE if the region specified by the cl_buffer_region
    // structure passed in buffer_create_info is out of bounds in buffer."
    if !range_in_bounds(region.origin, region.size, parent.size) {
        return Err(CL_INVALID_VALUE);
    }
    // "CL_MISALIGNED_SUB_BUFFER_OFFSET if there are no devices in context
    // associated with buffer for which the origin field of the
    // cl_buffer_region structure passed in buffer_create_info is aligned to
    // the CL_DEVICE_MEM_BASE_ADDR_ALIGN value."
    if !region.origin.is_multiple_of(BASE_ADDR_ALIGN) {
        return Err(CL_MISALIGNED_SUB_BUFFER_OFFSET);
    }
    Ok(publish(Mem::new_sub_buffer(
        &parent,
        flags,
        region.origin,
        region.size,
    )))
}

fn mem_info(
    mem: &Arc<Mem>,
    handle: cl_mem,
    param: cl_mem_info,
    out: &InfoOut,
) -> Result<(), cl_int> {
    match param {
        CL_MEM_TYPE => out.write(
            &(match (&mem.pipe, &mem.image) {
                (Some(_), _) => CL_MEM_OBJECT_PIPE,
                (_, Some(image)) => image.image_type,
                _ => CL_MEM_OBJECT_BUFFER,
            } as cl_mem_object_type),
        ),
        CL_MEM_FLAGS => out.write(&mem.flags),
        CL_MEM_SIZE => out.write(&mem.size),
        CL_MEM_HOST_PTR => out.write(&mem.host_ptr()),
        CL_MEM_MAP_COUNT => out.write(&(mem.map_count() as cl_uint)),
        CL_MEM_REFERENCE_COUNT => out.write(&object::app_ref_count::<Mem>(handle)?),
        CL_MEM_CONTEXT => out.write(&handle_of(&mem.context)),
        CL_MEM_ASSOCIATED_MEMOBJECT => {
            out.write(&mem.associated().map_or(std::ptr::null_mut(), handle_of))
        }
        CL_MEM_OFFSET => out.write(&mem.offset()),
        // "CL_TRUE if memobj is a buffer object that was created with
        // CL_MEM_USE_HOST_PTR or is a sub-buffer of a buffer object that was
        // created with CL_MEM_USE_HOST_PTR and the host_ptr specified when
        // the buffer object was created is a SVM pointer".
        CL_MEM_USES_SVM_POINTER => {
            let host_ptr = mem.host_ptr();
            out.write(&(!host_ptr.is_null() && svm::contains(&mem.context, host_ptr, 0)))
        }
        // "... if the properties argument specified in
        // clCreateBufferWithProperties ... was NULL, the implementation must
        // return param_value_size_ret equal to 0".
        CL_MEM_PROPERTIES => out.write(&mem.properties),
        _ => Err(CL_INVALID_VALUE),
    }
}

pub(crate) fn clCreateBuffer(
    context: cl_context,
    flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
) -> Result<cl_mem, cl_int> {
    create_buffer(context, std::ptr::null(), flags, size, host_ptr)
}

pub(crate) fn clCreateBufferWithProperties(
    context: cl_context,
    properties: *const cl_mem_properties,
    flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
) -> Result<cl_mem, cl_int> {
    create_buffer(context, properties, flags, size, host_ptr)
}

pub(crate) fn clCreateSubBuffer(
    buffer: cl_mem,
    flags: cl_mem_flags,
    buffer_create_type: cl_buffer_create_type,
    buffer_create_info: *const c_void,
) -> Result<cl_mem, cl_int> {
    create_sub_buffer(buffer, flags, buffer_create_type, buffer_create_info)
}

pub(crate) fn clRetainMemObject(memobj: cl_mem) -> Result<(), cl_int> {
    object::retain::<Mem>(memobj)
}

pub(crate) fn clReleaseMemObject(memobj: cl_mem) -> Result<(), cl_int> {
    object::release::<Mem>(memobj).map(drop)
}

pub(crate) fn clGetMemObjectInfo(
    memobj: cl_mem,
    param_name: cl_mem_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    let mem = Mem::resolve(memobj)?;
    mem_info(
        &mem,
        memobj,
        param_name,
        &InfoOut::new(param_value_size, param_value, param_value_size_ret),
    )
}

pub(crate) fn clSetMemObjectDestructorCallback(
    memobj: cl_mem,
    pfn_notify: Option<MemDestructor>,
    user_data: *mut c_void,
) -> Result<(), cl_int> {
    // "CL_INVALID_MEM_OBJECT if memobj is not a valid memory object."
    let mem = Mem::resolve(memobj)?;
    // "CL_INVALID_VALUE if pfn_notify is NULL."
    let func = pfn_notify.ok_or(CL_INVALID_VALUE)?;
    mem.add_destructor(Callback { func, user_data });
    Ok(())
}
