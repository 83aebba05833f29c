use super::*;
use crate::context::Context;
use crate::device::Device;
use crate::image::format::ImageFormat;
use crate::image::shape::{ImageDesc, ImageLimits};
use std::sync::Arc;

const LIMITS: ImageLimits = ImageLimits {
    max_2d: [16384, 16384],
    max_3d: [2048, 2048, 2048],
    max_array_size: 2048,
    max_buffer_pixels: 1 << 26,
};

fn context() -> Arc<Context> {
    Context::new(vec![Device::root().clone()], Vec::new(), None)
}

fn rw() -> cl_mem_flags {
    CL_MEM_READ_WRITE as cl_mem_flags
}

/// An image of `format` and `desc`, from `host` (at the descriptor's
/// pitches) when given.
fn image(
    ctx: &Arc<Context>,
    flags: cl_mem_flags,
    format: ImageFormat,
    desc: ImageDesc,
    host: Option<&mut [u8]>,
) -> Arc<Mem> {
    let (shape, pitches) = ImageShape::new(&desc, format, host.is_some(), &LIMITS).unwrap();
    let ptr = host.map_or(std::ptr::null_mut(), |h| h.as_mut_ptr());
    // SAFETY: the host memory, when given, holds the image at its pitches
    // and outlives the image in every test.
    unsafe { Mem::new_image(ctx.clone(), flags, shape, ptr, pitches, None, Vec::new()) }.unwrap()
}

fn desc2d(w: usize, h: usize) -> ImageDesc {
    ImageDesc {
        image_type: CL_MEM_OBJECT_IMAGE2D,
        width: w,
        height: h,
        ..ImageDesc::default()
    }
}

fn r8() -> ImageFormat {
    ImageFormat::new(CL_R, CL_UNSIGNED_INT8).unwrap()
}

/// Reads the whole image, packed tight.
fn read_all(img: &Mem) -> Vec<u8> {
    let shape = img.image.unwrap();
    let region = shape.extent();
    let layout = host_layout(&shape, region, 0, 0).unwrap();
    let mut out = vec![0u8; shape.byte_region(region).iter().product()];
    // SAFETY: `out` holds the whole image packed tight.
    unsafe { img.read_image([0; 3], region, out.as_mut_ptr(), &layout) };
    out
}

#[test]
fn a_copied_host_image_with_padded_rows_is_packed_tight() {
    let ctx = context();
    // 3 x 2 pixels of one byte, rows 5 bytes apart.
    let mut host = vec![1, 2, 3, 99, 99, 4, 5, 6, 99, 99];
    let mut d = desc2d(3, 2);
    d.row_pitch = 5;
    let flags = rw() | CL_MEM_COPY_HOST_PTR as cl_mem_flags;
    let img = image(&ctx, flags, r8(), d, Some(&mut host));
    assert_eq!(img.image.unwrap().row_pitch, 3);
    assert_eq!(img.size, 6);
    assert_eq!(read_all(&img), [1, 2, 3, 4, 5, 6]);
    // With USE_HOST_PTR the image is the host's memory, at its pitch.
    let flags = rw() | CL_MEM_USE_HOST_PTR as cl_mem_flags;
    let used = image(&ctx, flags, r8(), d, Some(&mut host));
    assert_eq!(used.image.unwrap().row_pitch, 5);
    assert_eq!(used.host_address(), host.as_mut_ptr());
    assert_eq!(read_all(&used), [1, 2, 3, 4, 5, 6]);
}

#[test]
fn reads_and_writes_of_sub_regions_with_host_pitches() {
    let ctx = context();
    let f = ImageFormat::new(CL_RG, CL_UNSIGNED_INT16).unwrap(); // 4 bytes
    let d = ImageDesc {
        image_type: CL_MEM_OBJECT_IMAGE3D,
        width: 4,
        height: 3,
        depth: 2,
        ..ImageDesc::default()
    };
    let img = image(&ctx, rw(), f, d, None);
    // A new image's contents are undefined: zero it first.
    img.fill_image(Color::Uint([0; 4]), [0; 3], [4, 3, 2])
        .unwrap();
    let shape = img.image.unwrap();
    // Write a 2 x 2 x 2 block at (1, 1, 0) from host rows 12 bytes apart,
    // slices 40 apart.
    let region = [2, 2, 2];
    let layout = host_layout(&shape, region, 12, 40).unwrap();
    let mut host = [0u8; 80];
    for z in 0..2 {
        for y in 0..2 {
            for b in 0..8 {
                host[z * 40 + y * 12 + b] = (1 + z * 16 + y * 8 + b) as u8;
            }
        }
    }
    // SAFETY: `host` holds the region at that layout.
    unsafe { img.write_image([1, 1, 0], region, host.as_ptr(), &layout) };
    let all = read_all(&img);
    for z in 0..2 {
        for y in 0..3 {
            for x in 0..4 {
                let px = &all[(z * 12 + y * 4 + x) * 4..][..4];
                let inside = (1..3).contains(&x) && (1..3).contains(&y);
                if inside {
                    let b0 = 1 + z * 16 + (y - 1) * 8 + (x - 1) * 4;
                    assert_eq!(px, [b0, b0 + 1, b0 + 2, b0 + 3].map(|b| b as u8));
                } else {
                    assert_eq!(px, [0; 4], "{x} {y} {z}");
                }
            }
        }
    }
    // Reading the block back at other pitches gives the same pixels.
    let tight = host_layout(&shape, region, 0, 0).unwrap();
    let mut back = vec![0u8; 32];
    // SAFETY: `back` holds the region packed tight.
    unsafe { img.read_image([1, 1, 0], region, back.as_mut_ptr(), &tight) };
    assert_eq!(&back[..8], &host[..8]);
    assert_eq!(&back[8..16], &host[12..20]);
    assert_eq!(&back[16..24], &host[40..48]);
    // Pitches too small for the region.
    assert_eq!(host_layout(&shape, region, 7, 0), Err(CL_INVALID_VALUE));
    assert_eq!(host_layout(&shape, region, 8, 15), Err(CL_INVALID_VALUE));
}

#[test]
fn a_1d_arrays_layers_are_its_rows() {
    let ctx = context();
    let d = ImageDesc {
        image_type: CL_MEM_OBJECT_IMAGE1D_ARRAY,
        width: 4,
        array_size: 3,
        ..ImageDesc::default()
    };
    let img = image(&ctx, rw(), r8(), d, None);
    img.fill_image(Color::Uint([0; 4]), [0; 3], [4, 3, 1])
        .unwrap();
    let shape = img.image.unwrap();
    // Two layers of 4 from host layers 6 bytes apart (row pitch 4).
    let layout = host_layout(&shape, [4, 2, 1], 0, 6).unwrap();
    let host = [1, 2, 3, 4, 0, 0, 5, 6, 7, 8];
    // SAFETY: `host` holds the two layers at that layout.
    unsafe { img.write_image([0, 1, 0], [4, 2, 1], host.as_ptr(), &layout) };
    assert_eq!(read_all(&img), [0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8]);
}

#[test]
fn fills_convert_the_colour_and_stay_in_their_region() {
    let ctx = context();
    let f = ImageFormat::new(CL_BGRA, CL_UNORM_INT8).unwrap();
    let img = image(&ctx, rw(), f, desc2d(4, 3), None);
    img.fill_image(Color::Float([0.0; 4]), [0; 3], [4, 3, 1])
        .unwrap();
    img.fill_image(Color::Float([1.0, 0.5, 0.0, 1.0]), [1, 1, 0], [2, 2, 1])
        .unwrap();
    let all = read_all(&img);
    for y in 0..3 {
        for x in 0..4 {
            let px = &all[(y * 4 + x) * 4..][..4];
            if (1..3).contains(&x) && (1..3).contains(&y) {
                assert_eq!(px, [0, 128, 255, 255]);
            } else {
                assert_eq!(px, [0; 4]);
            }
        }
    }
    assert_eq!(
        img.fill_image(Color::Uint([1; 4]), [0; 3], [1, 1, 1]),
        Err(CL_INVALID_VALUE)
    );
}

#[test]
fn copies_between_images_and_buffers() {
    let ctx = context();
    let mut host: Vec<u8> = (0..12).collect();
    let flags = rw() | CL_MEM_COPY_HOST_PTR as cl_mem_flags;
    let src = image(&ctx, flags, r8(), desc2d(4, 3), Some(&mut host));
    let dst = image(&ctx, rw(), r8(), desc2d(5, 5), None);
    dst.fill_image(Color::Uint([0; 4]), [0; 3], [5, 5, 1])
        .unwrap();
    src.copy_image_to([1, 1, 0], &dst, [0, 3, 0], [3, 2, 1]);
    let all = read_all(&dst);
    assert_eq!(&all[15..18], [5, 6, 7]);
    assert_eq!(&all[20..23], [9, 10, 11]);
    assert!(all[..15].iter().all(|&b| b == 0));
    // Image to buffer, packed tight from an offset, and back elsewhere.
    // SAFETY: no host pointer.
    let buf = unsafe { Mem::new_buffer(ctx.clone(), rw(), 16, std::ptr::null_mut(), Vec::new()) }
        .unwrap();
    src.copy_image_to_buffer([2, 0, 0], [2, 3, 1], &buf, 3);
    let mut bytes = vec![0u8; 16];
    // SAFETY: 16 bytes.
    unsafe { buf.read(0, bytes.as_mut_ptr(), 16) };
    assert_eq!(&bytes[3..9], [2, 3, 6, 7, 10, 11]);
    dst.copy_buffer_to_image(&buf, 3, [3, 0, 0], [2, 3, 1]);
    let all = read_all(&dst);
    assert_eq!(
        [all[3], all[4], all[8], all[9], all[13], all[14]],
        [2, 3, 6, 7, 10, 11]
    );
}

#[test]
fn a_1d_image_buffer_is_its_buffers_memory() {
    let ctx = context();
    let mut host: Vec<u8> = (0..32).collect();
    let flags = rw() | CL_MEM_COPY_HOST_PTR as cl_mem_flags;
    // SAFETY: `host` holds 32 bytes.
    let buf =
        unsafe { Mem::new_buffer(ctx.clone(), flags, 32, host.as_mut_ptr(), Vec::new()) }.unwrap();
    let f = ImageFormat::new(CL_RGBA, CL_UNSIGNED_INT8).unwrap();
    let d = ImageDesc {
        image_type: CL_MEM_OBJECT_IMAGE1D_BUFFER,
        width: 8,
        ..ImageDesc::default()
    };
    let (shape, _) = ImageShape::new(&d, f, false, &LIMITS).unwrap();
    // SAFETY: no host pointer.
    let img = unsafe {
        Mem::new_image(
            ctx.clone(),
            rw(),
            shape,
            std::ptr::null_mut(),
            None,
            Some(&buf),
            Vec::new(),
        )
    }
    .unwrap();
    assert_eq!(img.host_address(), buf.host_address());
    img.fill_image(Color::Uint([9; 4]), [1, 0, 0], [1, 1, 1])
        .unwrap();
    let mut bytes = vec![0u8; 32];
    // SAFETY: 32 bytes.
    unsafe { buf.read(0, bytes.as_mut_ptr(), 32) };
    assert_eq!(&bytes[..8], [0, 1, 2, 3, 9, 9, 9, 9]);
}
