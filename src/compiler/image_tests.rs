//! The image builtins (builtins/lib/image.cl) on hand-made image
//! descriptors: conversions, addressing, filtering and queries.

use super::*;
use crate::abi::ImageDescriptor;

const CL_RGBA: i32 = 0x10B5;
const CL_R: i32 = 0x10B0;
const CL_UNORM_INT8: i32 = 0x10D2;
const CL_UNSIGNED_INT16: i32 = 0x10DB;
const CL_FLOAT: i32 = 0x10DE;
const CLK_NORMALIZED_COORDS_TRUE: usize = 1;
const CLK_ADDRESS_CLAMP_TO_EDGE: usize = 2;
const CLK_ADDRESS_CLAMP: usize = 4;
const CLK_ADDRESS_REPEAT: usize = 6;
const CLK_FILTER_NEAREST: usize = 0x10;
const CLK_FILTER_LINEAR: usize = 0x20;

const SOURCE: &str = r#"
__constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
__kernel void sample(__read_only image2d_t in, sampler_t s, __global float4 *out,
                     __global const float2 *coords) {
    size_t i = get_global_id(0);
    out[i] = read_imagef(in, s, coords[i]);
}
__kernel void copy_scaled(__read_only image2d_t in, __write_only image2d_t out) {
    int2 p = (int2)(get_global_id(0) % get_image_width(in), get_global_id(0) / get_image_width(in));
    write_imagef(out, p, read_imagef(in, edge, p + (int2)(1, 0)) * 0.5f);
}
__kernel void layers(__read_only image1d_array_t in, sampler_t s, __global uint4 *out) {
    out[get_global_id(0)] = read_imageui(in, s, (int2)(7, (int)get_global_id(0) * 3 - 3));
}
__kernel void integers(__read_only image2d_t in, __write_only image2d_t out, __global int *q) {
    int2 p = (int2)(get_global_id(0), 0);
    uint4 v = read_imageui(in, p);
    write_imageui(out, p, v * 1000u);
    q[0] = get_image_width(in);
    q[1] = get_image_height(in);
    q[2] = get_image_channel_order(in);
    q[3] = get_image_channel_data_type(in);
}
"#;

fn image(
    data: &mut [u8],
    width: i32,
    height: i32,
    order: i32,
    ty: i32,
    elem: i32,
) -> ImageDescriptor {
    ImageDescriptor {
        data: data.as_mut_ptr(),
        pitch_y: (width * elem) as u64,
        pitch_z: 0,
        width,
        height,
        depth: 0,
        array_size: 0,
        channel_order: order,
        channel_data_type: ty,
        element_size: elem,
        reserved: 0,
    }
}

/// Runs kernel `name` for `items` work-items, one group each.
fn run(exe: &Executable, name: &str, args: &[*mut c_void], items: usize) {
    let entry = exe.code().unwrap().entry(exe.kernel_index(name).unwrap());
    for g in 0..items {
        let mut cx = ctx(items, 1, g);
        // SAFETY: args match the kernel's parameters.
        unsafe { entry(args.as_ptr(), &mut cx) };
    }
}

#[test]
fn samplers_address_and_filter_as_the_spec_says() {
    let exe = compile(SOURCE, "").unwrap_or_else(|e| panic!("{}", e.log()));
    // A 4 x 2 float image: texel (x, y) = x + 10 y in red, 1 in alpha.
    let mut px: Vec<u8> = Vec::new();
    for y in 0..2 {
        for x in 0..4 {
            for v in [(x + 10 * y) as f32, 0.0, 0.0, 1.0] {
                px.extend_from_slice(&v.to_ne_bytes());
            }
        }
    }
    let desc = image(&mut px, 4, 2, CL_RGBA, CL_FLOAT, 16);
    let d = &desc as *const ImageDescriptor;
    let cases: &[(usize, [f32; 2], f32, f32)] = &[
        // (sampler, coordinate, red, alpha)
        (
            CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST,
            [1.5, 1.5],
            11.0,
            1.0,
        ),
        (
            CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST,
            [-3.0, 0.2],
            0.0,
            1.0,
        ),
        (
            CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST,
            [9.0, 7.0],
            13.0,
            1.0,
        ),
        // Outside under CLAMP: the border, transparent black for RGBA.
        (
            CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST,
            [-0.5, 0.5],
            0.0,
            0.0,
        ),
        // Linear: half way between texels 1 and 2 of row 0.
        (
            CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR,
            [2.0, 0.5],
            1.5,
            1.0,
        ),
        // A quarter of the way down to row 1 as well.
        (
            CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR,
            [2.0, 0.75],
            4.0,
            1.0,
        ),
        // Linear at the left edge under CLAMP blends with the border.
        (CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR, [0.0, 0.5], 0.0, 0.5),
        // Normalized and repeating: 1.125 wraps to 0.125, texel 0.5.
        (
            CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST,
            [1.125 + 0.25, 0.25],
            1.0,
            1.0,
        ),
    ];
    for &(smp, coord, red, alpha) in cases {
        let mut out = [0f32; 4];
        let coords = [coord];
        let (po, pc) = (out.as_mut_ptr(), coords.as_ptr());
        let args = kernel_args![d, smp, po, pc];
        run(&exe, "sample", &args, 1);
        assert_eq!(
            (out[0], out[3]),
            (red, alpha),
            "sampler {smp:#x} at {coord:?}"
        );
    }
}

#[test]
fn unorm8_reads_and_writes_convert_and_queries_answer() {
    let exe = compile(SOURCE, "").unwrap_or_else(|e| panic!("{}", e.log()));
    // 3 x 1 RGBA8; copy_scaled writes (x+1's colour) / 2 at x, the last
    // clamped to the edge.
    let mut src = vec![0, 0, 0, 0, 255, 128, 2, 255, 101, 0, 0, 255];
    let mut dst = vec![0u8; 12];
    let (s, d) = (
        image(&mut src, 3, 1, CL_RGBA, CL_UNORM_INT8, 4),
        image(&mut dst, 3, 1, CL_RGBA, CL_UNORM_INT8, 4),
    );
    let (ps, pd) = (&s as *const ImageDescriptor, &d as *const ImageDescriptor);
    let args = kernel_args![ps, pd];
    run(&exe, "copy_scaled", &args, 3);
    // 255/2 = 127.5 -> 128 (ties to even), 128/2 = 64, 2/2 = 1, 101 / 2 =
    // 50.5 -> 50 (even), 255 / 2 -> 128.
    assert_eq!(dst, [128, 64, 1, 128, 50, 0, 0, 128, 50, 0, 0, 128]);

    let mut ints: Vec<u8> = [7u16, 8, 9].iter().flat_map(|v| v.to_ne_bytes()).collect();
    let mut out = vec![0u8; 6];
    let (i, o) = (
        image(&mut ints, 3, 1, CL_R, CL_UNSIGNED_INT16, 2),
        image(&mut out, 3, 1, CL_R, CL_UNSIGNED_INT16, 2),
    );
    let mut q = [0i32; 4];
    let (pi, po, pq) = (
        &i as *const ImageDescriptor,
        &o as *const ImageDescriptor,
        q.as_mut_ptr(),
    );
    let args = kernel_args![pi, po, pq];
    run(&exe, "integers", &args, 3);
    // 9000 fits in 16 bits; nothing saturates here.
    let got: Vec<u16> = out
        .chunks(2)
        .map(|b| u16::from_ne_bytes([b[0], b[1]]))
        .collect();
    assert_eq!(got, [7000, 8000, 9000]);
    assert_eq!(q, [3, 1, CL_R, CL_UNSIGNED_INT16]);
}

#[test]
fn an_array_layer_past_either_end_is_clamped_with_integer_coordinates() {
    // Found by the Khronos test_image_streams (1Darray, nearest): layers
    // outside the array read the border instead of the first or last one.
    let exe = compile(SOURCE, "").unwrap_or_else(|e| panic!("{}", e.log()));
    // 2 texels x 3 layers of R UINT16: texel (x, layer) = 10 layer + x.
    let mut px: Vec<u8> = (0..3u16)
        .flat_map(|l| (0..2u16).flat_map(move |x| (10 * l + x).to_ne_bytes()))
        .collect();
    let mut desc = image(&mut px, 2, 0, CL_R, CL_UNSIGNED_INT16, 2);
    desc.array_size = 3;
    desc.pitch_y = 4;
    let d = &desc as *const ImageDescriptor;
    // Layers -3, 0, 3, 6 read layers 0, 0, 2, 2; x = 7 clamps to the edge
    // (1). Before the fix the outside ones read the border, red 0.
    let smp = CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
    let mut out = [0u32; 16];
    let po = out.as_mut_ptr();
    let args = kernel_args![d, smp, po];
    run(&exe, "layers", &args, 4);
    let red: Vec<u32> = out.chunks(4).map(|c| c[0]).collect();
    assert_eq!(red, [1, 1, 21, 21]);
}
