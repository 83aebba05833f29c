//! Entry points: images and samplers. They work only where the device
//! reports images (core::caps::DeviceCaps::images, unless
//! FERROCL_IMAGES=0); otherwise creating one is CL_INVALID_OPERATION
//! ("no devices in context support images") and no handle of these kinds
//! is ever valid. Pipes are in pipe.rs.

use crate::api::enqueue::{Command, HostPtr, Sink};
use crate::api::memory::{check_flags, inherited_flags, IMAGE_FLAGS};
use crate::api::transfer::{check_host_access, map_in_place, triple, valid_map_flags};
use crate::api::util::{c_array, property_list, property_pairs, write_out, InfoOut};
use crate::cl::*;
use crate::core::caps::caps;
use crate::core::context::Context;
use crate::core::image::format::{Color, ColorKind, ImageFormat};
use crate::core::image::ops::host_layout;
use crate::core::image::shape::{HostPitches, ImageDesc, ImageShape};
use crate::core::memory::{range_in_bounds, Mem};
use crate::core::object::{self, handle_of, publish};
use crate::core::queue::Queue;
use crate::core::sampler::Sampler;
use std::ffi::c_void;
use std::sync::Arc;

/// The image types of the "List of supported image types" table.
const IMAGE_TYPES: [cl_mem_object_type; 6] = [
    CL_MEM_OBJECT_IMAGE1D,
    CL_MEM_OBJECT_IMAGE1D_ARRAY,
    CL_MEM_OBJECT_IMAGE1D_BUFFER,
    CL_MEM_OBJECT_IMAGE2D,
    CL_MEM_OBJECT_IMAGE2D_ARRAY,
    CL_MEM_OBJECT_IMAGE3D,
];

/// A context whose device has images: "CL_INVALID_OPERATION if there are
/// no devices in context that support images".
fn image_context(context: cl_context) -> Result<Arc<Context>, cl_int> {
    let ctx = Context::resolve(context)?;
    if caps().images.is_none() {
        return Err(CL_INVALID_OPERATION);
    }
    Ok(ctx)
}

fn has(flags: cl_mem_flags, bits: u32) -> bool {
    flags & bits as cl_mem_flags != 0
}

/// CL_DEVICE_IMAGE_PITCH_ALIGNMENT and CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT
/// (cl_khr_image2d_from_buffer), in pixels: a 2D image over a buffer may
/// have any row pitch and start anywhere its pixels are aligned to their
/// size, which every pitch that is a multiple of the pixel size keeps.
pub(crate) const IMAGE_FROM_BUFFER_ALIGNMENT: cl_uint = 1;

/// The memory object an image is made over (`cl_image_desc::mem_object`).
enum View {
    /// A 1D image buffer's buffer, or a 2D image's
    /// (cl_khr_image2d_from_buffer).
    Buffer(Arc<Mem>),
    /// A 2D image's 2D image, seen in another format.
    Image(Arc<Mem>),
}

/// The channel orders one image may be seen in through another (OpenCL
/// 3.0, 5.3.1.2: an sRGB order and its linear one, CL_DEPTH and CL_R).
const VIEW_ORDERS: [[cl_channel_order; 2]; 5] = [
    [CL_sRGBA, CL_RGBA],
    [CL_sBGRA, CL_BGRA],
    [CL_sRGB, CL_RGB],
    [CL_sRGBx, CL_RGBx],
    [CL_DEPTH, CL_R],
];

impl View {
    /// Validates `mem_object` for an image of `desc` in `format`:
    /// "CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc are
    /// not valid" (a mem_object of no kind that image type takes, sizes
    /// that differ from the image's it is made over);
    /// "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if a 2D image is created from a
    /// buffer and the row pitch and base address alignment does not follow
    /// the rules ... or if a 2D image is created from a 2D image object and
    /// the rules described above are not followed" (the formats).
    fn of(
        ctx: &Arc<Context>,
        mem_object: cl_mem,
        desc: &ImageDesc,
        format: ImageFormat,
    ) -> Result<View, cl_int> {
        let m = Mem::resolve(mem_object).map_err(|_| CL_INVALID_IMAGE_DESCRIPTOR)?;
        if !Arc::ptr_eq(&m.context, ctx) {
            return Err(CL_INVALID_VALUE);
        }
        let element = format.element_size();
        match (desc.image_type, m.image, m.pipe) {
            (_, _, Some(_)) => Err(CL_INVALID_IMAGE_DESCRIPTOR),
            (CL_MEM_OBJECT_IMAGE1D_BUFFER, None, None) => Ok(View::Buffer(m)),
            (CL_MEM_OBJECT_IMAGE2D, None, None) => {
                let align = IMAGE_FROM_BUFFER_ALIGNMENT as usize * element;
                if !desc.row_pitch.is_multiple_of(align)
                    || !(m.host_address() as usize).is_multiple_of(align)
                {
                    return Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
                }
                Ok(View::Buffer(m))
            }
            (CL_MEM_OBJECT_IMAGE2D, Some(s), None) if s.image_type == CL_MEM_OBJECT_IMAGE2D => {
                let (a, b) = (s.format.order, format.order);
                let compatible = s.format.data_type == format.data_type
                    && (a == b || VIEW_ORDERS.iter().any(|p| p.contains(&a) && p.contains(&b)));
                if !compatible {
                    return Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
                }
                if desc.width != s.width
                    || desc.height != s.height
                    || ![0, s.row_pitch].contains(&desc.row_pitch)
                    || desc.slice_pitch != 0
                {
                    return Err(CL_INVALID_IMAGE_DESCRIPTOR);
                }
                Ok(View::Image(m))
            }
            _ => Err(CL_INVALID_IMAGE_DESCRIPTOR),
        }
    }

    fn memory(&self) -> &Arc<Mem> {
        match self {
            View::Buffer(m) | View::Image(m) => m,
        }
    }
}

fn create_image(
    context: cl_context,
    properties: *const cl_mem_properties,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_desc: *const cl_image_desc,
    host_ptr: *mut c_void,
) -> Result<cl_mem, cl_int> {
    let ctx = image_context(context)?;
    // No image property is supported.
    if !property_pairs(properties).is_empty() {
        return Err(CL_INVALID_PROPERTY);
    }
    check_flags(flags, IMAGE_FLAGS & !CL_MEM_KERNEL_READ_AND_WRITE)?;
    // "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if values specified in
    // image_format are not valid or if image_format is NULL."
    let format = c_array(image_format, 1, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)?[0];
    let format = ImageFormat::new(format.image_channel_order, format.image_channel_data_type)?;
    // "CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc are
    // not valid or if image_desc is NULL."
    let d = c_array(image_desc, 1, CL_INVALID_IMAGE_DESCRIPTOR)?[0];
    let desc = ImageDesc {
        image_type: d.image_type,
        width: d.image_width,
        height: d.image_height,
        depth: d.image_depth,
        array_size: d.image_array_size,
        row_pitch: d.image_row_pitch,
        slice_pitch: d.image_slice_pitch,
        num_mip_levels: d.num_mip_levels,
        num_samples: d.num_samples,
    };
    // SAFETY: the union's two members are the same pointer.
    let mem_object = unsafe { d.__bindgen_anon_1.mem_object };
    let limits = &caps().images.as_ref().expect("image_context").limits;
    let wants_ptr = has(flags, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    // "CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or
    // CL_MEM_COPY_HOST_PTR are set in flags or if host_ptr is not NULL but
    // CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set in flags."
    if wants_ptr == host_ptr.is_null() {
        return Err(CL_INVALID_HOST_PTR);
    }
    // An image over another object's memory: a 1D image buffer or a 2D
    // image over a buffer, a 2D image over another 2D image.
    let over = match mem_object.is_null() {
        true if desc.image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER => {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR)
        }
        true => None,
        false => Some(View::of(&ctx, mem_object, &desc, format)?),
    };
    let flags = match &over {
        Some(v) => inherited_flags(v.memory(), flags)?,
        None => flags,
    };
    let (shape, host) = match &over {
        Some(View::Image(image)) => {
            // The other image's shape and pitches, in the new format.
            let s = image.image.expect("an image");
            let pitches = HostPitches {
                row_pitch: s.row_pitch,
                slice_pitch: s.slice_pitch,
            };
            (ImageShape { format, ..s }, Some(pitches))
        }
        Some(View::Buffer(b)) => {
            let (shape, pitches) = ImageShape::new(&desc, format, true, limits)?;
            let pitches = pitches.expect("pitches given");
            // "CL_INVALID_IMAGE_SIZE if ... image_width * size of element
            // in bytes is greater than the size of the buffer object"; for
            // a 2D image, its rows at their pitch.
            let all = shape.byte_region(shape.extent());
            if !shape.host_layout(&pitches).in_bounds(all, b.size) {
                return Err(CL_INVALID_IMAGE_SIZE);
            }
            (shape, Some(pitches))
        }
        None => {
            let (shape, host) = ImageShape::new(&desc, format, !host_ptr.is_null(), limits)?;
            (shape, host.filter(|_| !host_ptr.is_null()))
        }
    };
    if !format.supports(desc.image_type) {
        return Err(CL_IMAGE_FORMAT_NOT_SUPPORTED);
    }
    // SAFETY: host_ptr is non-NULL exactly when USE/COPY_HOST_PTR is set,
    // and the application guarantees it holds the image at the pitches
    // given (valid, for USE_HOST_PTR, while the image lives).
    let mem = unsafe {
        Mem::new_image(
            ctx,
            flags,
            shape,
            host_ptr as *mut u8,
            host,
            over.as_ref().map(View::memory),
            property_list(properties),
        )
    }?;
    Ok(publish(mem))
}

pub(crate) fn clCreateImage2D(
    context: cl_context,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_width: usize,
    image_height: usize,
    image_row_pitch: usize,
    host_ptr: *mut c_void,
) -> Result<cl_mem, cl_int> {
    let desc = cl_image_desc {
        image_type: CL_MEM_OBJECT_IMAGE2D,
        image_width,
        image_height,
        image_row_pitch,
        ..Default::default()
    };
    create_image(
        context,
        std::ptr::null(),
        flags,
        image_format,
        &desc,
        host_ptr,
    )
}

pub(crate) fn clCreateImage3D(
    context: cl_context,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_width: usize,
    image_height: usize,
    image_depth: usize,
    image_row_pitch: usize,
    image_slice_pitch: usize,
    host_ptr: *mut c_void,
) -> Result<cl_mem, cl_int> {
    let desc = cl_image_desc {
        image_type: CL_MEM_OBJECT_IMAGE3D,
        image_width,
        image_height,
        image_depth,
        image_row_pitch,
        image_slice_pitch,
        ..Default::default()
    };
    create_image(
        context,
        std::ptr::null(),
        flags,
        image_format,
        &desc,
        host_ptr,
    )
}

pub(crate) fn clCreateImage(
    context: cl_context,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_desc: *const cl_image_desc,
    host_ptr: *mut c_void,
) -> Result<cl_mem, cl_int> {
    create_image(
        context,
        std::ptr::null(),
        flags,
        image_format,
        image_desc,
        host_ptr,
    )
}

pub(crate) fn clCreateImageWithProperties(
    context: cl_context,
    properties: *const cl_mem_properties,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_desc: *const cl_image_desc,
    host_ptr: *mut c_void,
) -> Result<cl_mem, cl_int> {
    create_image(
        context,
        properties,
        flags,
        image_format,
        image_desc,
        host_ptr,
    )
}

pub(crate) fn clGetSupportedImageFormats(
    context: cl_context,
    flags: cl_mem_flags,
    image_type: cl_mem_object_type,
    num_entries: cl_uint,
    image_formats: *mut cl_image_format,
    num_image_formats: *mut cl_uint,
) -> Result<(), cl_int> {
    Context::resolve(context)?;
    // "CL_INVALID_VALUE if flags or image_type are not valid, or if
    // num_entries is 0 and image_formats is not NULL." Flags are those
    // of the Memory Flags table (CL_MEM_KERNEL_READ_AND_WRITE included,
    // which only this query takes).
    check_flags(flags, IMAGE_FLAGS)?;
    if !IMAGE_TYPES.contains(&image_type) || (num_entries == 0 && !image_formats.is_null()) {
        return Err(CL_INVALID_VALUE);
    }
    // Every supported format, for every access and type.
    let formats: Vec<ImageFormat> = match caps().images {
        Some(_) => ImageFormat::all()
            .into_iter()
            .filter(|f| f.supports(image_type))
            .collect(),
        None => Vec::new(),
    };
    if !image_formats.is_null() {
        for (i, f) in formats.iter().take(num_entries as usize).enumerate() {
            // SAFETY: the application's array holds num_entries formats.
            unsafe {
                image_formats.add(i).write_unaligned(cl_image_format {
                    image_channel_order: f.order,
                    image_channel_data_type: f.data_type,
                })
            };
        }
    }
    write_out(num_image_formats, formats.len() as cl_uint);
    Ok(())
}

pub(crate) fn clGetImageInfo(
    image: cl_mem,
    param_name: cl_image_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    let m = Mem::resolve_image(image)?;
    let s = m.image.expect("resolve_image");
    let out = InfoOut::new(param_value_size, param_value, param_value_size_ret);
    match param_name {
        CL_IMAGE_FORMAT => out.write(&[s.format.order, s.format.data_type]),
        CL_IMAGE_ELEMENT_SIZE => out.write(&s.format.element_size()),
        CL_IMAGE_ROW_PITCH => out.write(&s.row_pitch),
        CL_IMAGE_SLICE_PITCH => out.write(&s.slice_pitch),
        CL_IMAGE_WIDTH => out.write(&s.width),
        CL_IMAGE_HEIGHT => out.write(&s.height),
        CL_IMAGE_DEPTH => out.write(&s.depth),
        CL_IMAGE_ARRAY_SIZE => out.write(&s.array_size),
        // The buffer a 1D image buffer or a 2D image is made over.
        CL_IMAGE_BUFFER => out.write(&match m.associated() {
            Some(b) if b.image.is_none() => handle_of(b),
            _ => std::ptr::null_mut(),
        }),
        CL_IMAGE_NUM_MIP_LEVELS | CL_IMAGE_NUM_SAMPLES => out.write(&0u32),
        _ => Err(CL_INVALID_VALUE),
    }
}

/// The queue and an image of the same context.
fn queue_and_image(
    queue: cl_command_queue,
    image: cl_mem,
) -> Result<(Arc<Queue>, Arc<Mem>), cl_int> {
    let q = Queue::resolve(queue)?;
    let m = Mem::resolve_image(image)?;
    if !Arc::ptr_eq(&q.context, &m.context) {
        return Err(CL_INVALID_CONTEXT);
    }
    Ok((q, m))
}

/// An origin and region of `m`, checked against it.
fn image_region(
    m: &Mem,
    origin: *const usize,
    region: *const usize,
) -> Result<([usize; 3], [usize; 3]), cl_int> {
    let (o, r) = (triple(origin)?, triple(region)?);
    m.image.expect("an image").check_region(o, r)?;
    Ok((o, r))
}

#[allow(clippy::too_many_arguments)]
fn read_write_image(
    queue: cl_command_queue,
    image: cl_mem,
    blocking: cl_bool,
    origin: *const usize,
    region: *const usize,
    pitches: (usize, usize),
    ptr: *mut c_void,
    write: bool,
    wait: (cl_uint, *const cl_event, *mut cl_event),
) -> Result<(), cl_int> {
    let (q, m) = queue_and_image(queue, image)?;
    let (o, r) = image_region(&m, origin, region)?;
    let layout = host_layout(&m.image.expect("an image"), r, pitches.0, pitches.1)?;
    if ptr.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    check_host_access(&m, !write, write)?;
    let kind = if write {
        CL_COMMAND_WRITE_IMAGE
    } else {
        CL_COMMAND_READ_IMAGE
    };
    let cmd =
        Command::new(&q, kind as cl_command_type, wait.0, wait.1, wait.2)?.holding(vec![m.clone()]);
    let hp = HostPtr(ptr);
    let work = move || {
        // SAFETY: the application keeps the host rectangle valid until the
        // command completes.
        unsafe {
            if write {
                m.write_image(o, r, hp.bytes(), &layout);
            } else {
                m.read_image(o, r, hp.bytes(), &layout);
            }
        }
        Ok(())
    };
    cmd.run(Box::new(work), blocking != 0)
}

pub(crate) fn clEnqueueReadImage(
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
    event: *mut cl_event,
) -> Result<(), cl_int> {
    read_write_image(
        command_queue,
        image,
        blocking_read,
        origin,
        region,
        (row_pitch, slice_pitch),
        ptr,
        false,
        (num_events_in_wait_list, event_wait_list, event),
    )
}

pub(crate) fn clEnqueueWriteImage(
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
    event: *mut cl_event,
) -> Result<(), cl_int> {
    read_write_image(
        command_queue,
        image,
        blocking_write,
        origin,
        region,
        (input_row_pitch, input_slice_pitch),
        ptr as *mut c_void,
        true,
        (num_events_in_wait_list, event_wait_list, event),
    )
}

pub(crate) fn clEnqueueCopyImage(
    command_queue: cl_command_queue,
    src_image: cl_mem,
    dst_image: cl_mem,
    src_origin: *const usize,
    dst_origin: *const usize,
    region: *const usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    copy_image(
        command_queue,
        (src_image, dst_image),
        (src_origin, dst_origin, region),
        Sink::Queue(num_events_in_wait_list, event_wait_list, event),
    )
}

/// clEnqueueCopyImage and clCommandCopyImageKHR.
pub(crate) fn copy_image(
    command_queue: cl_command_queue,
    (src_image, dst_image): (cl_mem, cl_mem),
    (src_origin, dst_origin, region): (*const usize, *const usize, *const usize),
    sink: Sink,
) -> Result<(), cl_int> {
    let (q, src) = queue_and_image(command_queue, src_image)?;
    let (_, dst) = queue_and_image(command_queue, dst_image)?;
    // "CL_IMAGE_FORMAT_MISMATCH if src_image and dst_image do not use the
    // same image format."
    if src.image.expect("image").format != dst.image.expect("image").format {
        return Err(CL_IMAGE_FORMAT_MISMATCH);
    }
    let (so, r) = image_region(&src, src_origin, region)?;
    let (d, _) = image_region(&dst, dst_origin, region)?;
    // "CL_MEM_COPY_OVERLAP if src_image and dst_image are the same image
    // object and the source and destination regions overlap."
    if Arc::ptr_eq(&src, &dst) && (0..3).all(|k| so[k] < d[k] + r[k] && d[k] < so[k] + r[k]) {
        return Err(CL_MEM_COPY_OVERLAP);
    }
    let cmd = Command::to(&q, CL_COMMAND_COPY_IMAGE as cl_command_type, sink)?
        .holding(vec![src.clone(), dst.clone()]);
    cmd.run_replayable(
        move || {
            src.copy_image_to(so, &dst, d, r);
            Ok(())
        },
        false,
    )
}

/// What a copy between an image and a buffer names: the queue, the image
/// and the buffer of its context, and the image's origin and region, whose
/// pixels packed tight lie inside the buffer from `offset` ("CL_INVALID_VALUE
/// if the region specified by dst_offset and dst_offset + dst_cb refer to a
/// region outside dst_buffer", and likewise for the source).
type ImageAndBuffer = (Arc<Queue>, Arc<Mem>, Arc<Mem>, [usize; 3], [usize; 3]);

fn image_and_buffer(
    queue: cl_command_queue,
    image: cl_mem,
    origin: *const usize,
    region: *const usize,
    buffer: cl_mem,
    offset: usize,
) -> Result<ImageAndBuffer, cl_int> {
    let (q, img) = queue_and_image(queue, image)?;
    let buf = Mem::resolve_buffer(buffer)?;
    if !Arc::ptr_eq(&q.context, &buf.context) {
        return Err(CL_INVALID_CONTEXT);
    }
    let (o, r) = image_region(&img, origin, region)?;
    let b = img.image.expect("image").byte_region(r);
    let bytes = b[0]
        .checked_mul(b[1])
        .and_then(|n| n.checked_mul(b[2]))
        .ok_or(CL_INVALID_VALUE)?;
    if !range_in_bounds(offset, bytes, buf.size) {
        return Err(CL_INVALID_VALUE);
    }
    Ok((q, img, buf, o, r))
}

pub(crate) fn clEnqueueCopyImageToBuffer(
    command_queue: cl_command_queue,
    src_image: cl_mem,
    dst_buffer: cl_mem,
    src_origin: *const usize,
    region: *const usize,
    dst_offset: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    copy_image_to_buffer(
        command_queue,
        (src_image, dst_buffer),
        (src_origin, region),
        dst_offset,
        Sink::Queue(num_events_in_wait_list, event_wait_list, event),
    )
}

/// clEnqueueCopyImageToBuffer and clCommandCopyImageToBufferKHR.
pub(crate) fn copy_image_to_buffer(
    command_queue: cl_command_queue,
    (src_image, dst_buffer): (cl_mem, cl_mem),
    (src_origin, region): (*const usize, *const usize),
    dst_offset: usize,
    sink: Sink,
) -> Result<(), cl_int> {
    let (q, src, dst, o, r) = image_and_buffer(
        command_queue,
        src_image,
        src_origin,
        region,
        dst_buffer,
        dst_offset,
    )?;
    let cmd = Command::to(&q, CL_COMMAND_COPY_IMAGE_TO_BUFFER as cl_command_type, sink)?
        .holding(vec![src.clone(), dst.clone()]);
    cmd.run_replayable(
        move || {
            src.copy_image_to_buffer(o, r, &dst, dst_offset);
            Ok(())
        },
        false,
    )
}

pub(crate) fn clEnqueueCopyBufferToImage(
    command_queue: cl_command_queue,
    src_buffer: cl_mem,
    dst_image: cl_mem,
    src_offset: usize,
    dst_origin: *const usize,
    region: *const usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    copy_buffer_to_image(
        command_queue,
        (src_buffer, dst_image),
        src_offset,
        (dst_origin, region),
        Sink::Queue(num_events_in_wait_list, event_wait_list, event),
    )
}

/// clEnqueueCopyBufferToImage and clCommandCopyBufferToImageKHR.
pub(crate) fn copy_buffer_to_image(
    command_queue: cl_command_queue,
    (src_buffer, dst_image): (cl_mem, cl_mem),
    src_offset: usize,
    (dst_origin, region): (*const usize, *const usize),
    sink: Sink,
) -> Result<(), cl_int> {
    let (q, dst, src, o, r) = image_and_buffer(
        command_queue,
        dst_image,
        dst_origin,
        region,
        src_buffer,
        src_offset,
    )?;
    let cmd = Command::to(&q, CL_COMMAND_COPY_BUFFER_TO_IMAGE as cl_command_type, sink)?
        .holding(vec![src.clone(), dst.clone()]);
    cmd.run_replayable(
        move || {
            dst.copy_buffer_to_image(&src, src_offset, o, r);
            Ok(())
        },
        false,
    )
}

pub(crate) fn clEnqueueMapImage(
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
    event: *mut cl_event,
) -> Result<*mut c_void, cl_int> {
    let (q, m) = queue_and_image(command_queue, image)?;
    let (o, _) = image_region(&m, origin, region)?;
    let reads = map_flags & CL_MAP_READ as cl_map_flags != 0;
    let writes = map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) as cl_map_flags != 0;
    // "CL_INVALID_VALUE if ... image_row_pitch is NULL"; values in
    // map_flags must be valid.
    if image_row_pitch.is_null() || !valid_map_flags(map_flags) {
        return Err(CL_INVALID_VALUE);
    }
    let s = m.image.expect("image");
    // "CL_INVALID_VALUE if image is a 3D image, 1D or 2D image array
    // object and image_slice_pitch is NULL."
    let layered = matches!(
        s.image_type,
        CL_MEM_OBJECT_IMAGE3D | CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY
    );
    if layered && image_slice_pitch.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    check_host_access(&m, reads, writes)?;
    let cmd = Command::new(
        &q,
        CL_COMMAND_MAP_IMAGE as cl_command_type,
        num_events_in_wait_list,
        event_wait_list,
        event,
    )?
    .holding(vec![m.clone()]);
    write_out(image_row_pitch, s.row_pitch);
    write_out(image_slice_pitch, s.slice_pitch);
    map_in_place(cmd, &m, s.layout(o).base(), blocking_map != 0)
}

pub(crate) fn clEnqueueFillImage(
    command_queue: cl_command_queue,
    image: cl_mem,
    fill_color: *const c_void,
    origin: *const usize,
    region: *const usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    fill_image(
        command_queue,
        image,
        fill_color,
        (origin, region),
        Sink::Queue(num_events_in_wait_list, event_wait_list, event),
    )
}

/// clEnqueueFillImage and clCommandFillImageKHR.
pub(crate) fn fill_image(
    command_queue: cl_command_queue,
    image: cl_mem,
    fill_color: *const c_void,
    (origin, region): (*const usize, *const usize),
    sink: Sink,
) -> Result<(), cl_int> {
    let (q, m) = queue_and_image(command_queue, image)?;
    let (o, r) = image_region(&m, origin, region)?;
    // "CL_INVALID_VALUE if fill_color is NULL": four floats, ints or
    // unsigned ints by the format's kind.
    let words = c_array(fill_color as *const u32, 4, CL_INVALID_VALUE)?;
    let w = [words[0], words[1], words[2], words[3]];
    let color = match m.image.expect("image").format.color_kind() {
        ColorKind::Float => Color::Float(w.map(f32::from_bits)),
        ColorKind::Int => Color::Int(w.map(|v| v as i32)),
        ColorKind::Uint => Color::Uint(w),
    };
    let cmd =
        Command::to(&q, CL_COMMAND_FILL_IMAGE as cl_command_type, sink)?.holding(vec![m.clone()]);
    cmd.run_replayable(move || m.fill_image(color, o, r), false)
}

pub(crate) fn clCreateSampler(
    context: cl_context,
    normalized_coords: cl_bool,
    addressing_mode: cl_addressing_mode,
    filter_mode: cl_filter_mode,
) -> Result<cl_sampler, cl_int> {
    let ctx = image_context(context)?;
    let s = Sampler::new(
        ctx,
        normalized_coords != 0,
        addressing_mode,
        filter_mode,
        Vec::new(),
    )?;
    Ok(publish(s))
}

pub(crate) fn clCreateSamplerWithProperties(
    context: cl_context,
    sampler_properties: *const cl_sampler_properties,
) -> Result<cl_sampler, cl_int> {
    let ctx = image_context(context)?;
    // Defaults: normalized coordinates, CLAMP, NEAREST; each property at
    // most once ("CL_INVALID_VALUE if the property name in
    // sampler_properties is not a supported property name, if the value
    // specified for a supported property name is not valid, or if the same
    // property name is specified more than once").
    let (mut normalized, mut address, mut filter) = (true, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST);
    let mut seen = Vec::new();
    for (name, value) in property_pairs(sampler_properties) {
        if seen.contains(&name) {
            return Err(CL_INVALID_VALUE);
        }
        seen.push(name);
        match name as u32 {
            CL_SAMPLER_NORMALIZED_COORDS => normalized = value != 0,
            CL_SAMPLER_ADDRESSING_MODE => address = value as cl_addressing_mode,
            CL_SAMPLER_FILTER_MODE => filter = value as cl_filter_mode,
            _ => return Err(CL_INVALID_VALUE),
        }
    }
    let s = Sampler::new(
        ctx,
        normalized,
        address,
        filter,
        property_list(sampler_properties),
    )?;
    Ok(publish(s))
}

pub(crate) fn clRetainSampler(sampler: cl_sampler) -> Result<(), cl_int> {
    object::retain::<Sampler>(sampler)
}

pub(crate) fn clReleaseSampler(sampler: cl_sampler) -> Result<(), cl_int> {
    object::release::<Sampler>(sampler)
}

pub(crate) fn clGetSamplerInfo(
    sampler: cl_sampler,
    param_name: cl_sampler_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    let s = Sampler::resolve(sampler)?;
    let out = InfoOut::new(param_value_size, param_value, param_value_size_ret);
    match param_name {
        CL_SAMPLER_REFERENCE_COUNT => out.write(&object::app_ref_count::<Sampler>(sampler)?),
        CL_SAMPLER_CONTEXT => out.write(&handle_of(&s.context)),
        CL_SAMPLER_NORMALIZED_COORDS => out.write(&s.normalized_coords),
        CL_SAMPLER_ADDRESSING_MODE => out.write(&s.addressing_mode),
        CL_SAMPLER_FILTER_MODE => out.write(&s.filter_mode),
        CL_SAMPLER_PROPERTIES => out.write(&s.properties),
        _ => Err(CL_INVALID_VALUE),
    }
}
