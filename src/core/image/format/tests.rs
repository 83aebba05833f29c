use super::*;

fn format(order: cl_channel_order, data_type: cl_channel_type) -> ImageFormat {
    ImageFormat::new(order, data_type).unwrap()
}

fn floats(f: &ImageFormat, bytes: &[u8]) -> [f32; 4] {
    match f.decode(bytes) {
        Color::Float(c) => c,
        other => panic!("{other:?}"),
    }
}

#[test]
fn invalid_descriptors_and_unsupported_formats_get_their_codes() {
    let invalid = CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    // Packed types only with CL_RGB / CL_RGBx, and CL_RGB only with them.
    assert_eq!(ImageFormat::new(CL_RGB, CL_UNORM_INT8), Err(invalid));
    assert_eq!(ImageFormat::new(CL_RGBA, CL_UNORM_SHORT_565), Err(invalid));
    // Orders limited to some types.
    assert_eq!(ImageFormat::new(CL_BGRA, CL_FLOAT), Err(invalid));
    assert_eq!(ImageFormat::new(CL_INTENSITY, CL_SIGNED_INT8), Err(invalid));
    assert_eq!(ImageFormat::new(CL_DEPTH, CL_UNORM_INT8), Err(invalid));
    assert_eq!(ImageFormat::new(CL_sRGBA, CL_UNORM_INT16), Err(invalid));
    assert_eq!(ImageFormat::new(CL_RG, CL_UNORM_INT_101010_2), Err(invalid));
    // Unknown values.
    assert_eq!(ImageFormat::new(0x1234, CL_FLOAT), Err(invalid));
    assert_eq!(ImageFormat::new(CL_RGBA, 0x1234), Err(invalid));
    // Valid, not supported.
    let unsupported = CL_IMAGE_FORMAT_NOT_SUPPORTED;
    assert_eq!(ImageFormat::new(CL_Rx, CL_FLOAT), Err(unsupported));
    assert_eq!(ImageFormat::new(CL_sRGB, CL_UNORM_INT8), Err(unsupported));
    assert_eq!(
        ImageFormat::new(CL_RGBA, CL_UNORM_INT_101010_2),
        Err(unsupported)
    );
    assert_eq!(
        ImageFormat::new(CL_DEPTH_STENCIL, CL_UNORM_INT24),
        Err(unsupported)
    );
    // Depth images are 2D images and 2D arrays.
    let depth = format(CL_DEPTH, CL_FLOAT);
    assert!(depth.supports(CL_MEM_OBJECT_IMAGE2D) && depth.supports(CL_MEM_OBJECT_IMAGE2D_ARRAY));
    assert!(!depth.supports(CL_MEM_OBJECT_IMAGE3D) && !depth.supports(CL_MEM_OBJECT_IMAGE1D));
}

#[test]
fn every_supported_format_is_valid_with_a_power_of_two_pixel() {
    let all = ImageFormat::all();
    for f in &all {
        assert_eq!(ImageFormat::new(f.order, f.data_type), Ok(*f));
        assert!(f.element_size().is_power_of_two(), "{f:?}");
    }
    // OpenCL 3.0's minimum lists (read-only, write-only, read-write).
    let plain = PLAIN_TYPES;
    for order in [CL_R, CL_RG, CL_RGBA] {
        for t in plain {
            assert!(all.contains(&format(order, t)), "{order:#x} {t:#x}");
        }
    }
    for (order, t) in [
        (CL_BGRA, CL_UNORM_INT8),
        (CL_sRGBA, CL_UNORM_INT8),
        (CL_DEPTH, CL_UNORM_INT16),
        (CL_DEPTH, CL_FLOAT),
        (CL_RGB, CL_UNORM_SHORT_565),
        (CL_RGB, CL_UNORM_SHORT_555),
        (CL_RGB, CL_UNORM_INT_101010),
    ] {
        assert!(all.contains(&format(order, t)), "{order:#x} {t:#x}");
    }
    // Each once.
    let mut sorted: Vec<_> = all.iter().map(|f| (f.order, f.data_type)).collect();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), all.len());
}

#[test]
fn element_sizes() {
    assert_eq!(format(CL_RGBA, CL_FLOAT).element_size(), 16);
    assert_eq!(format(CL_RGBA, CL_UNORM_INT8).element_size(), 4);
    assert_eq!(format(CL_RG, CL_HALF_FLOAT).element_size(), 4);
    assert_eq!(format(CL_R, CL_SNORM_INT16).element_size(), 2);
    assert_eq!(format(CL_RGB, CL_UNORM_SHORT_565).element_size(), 2);
    assert_eq!(format(CL_RGB, CL_UNORM_INT_101010).element_size(), 4);
    assert_eq!(format(CL_INTENSITY, CL_FLOAT).element_size(), 4);
    assert_eq!(format(CL_ARGB, CL_SIGNED_INT8).element_size(), 4);
}

#[test]
fn normalized_writes_round_to_nearest_even_and_saturate() {
    let f = format(CL_RGBA, CL_UNORM_INT8);
    // 0.5 * 255 = 127.5: ties to even, 128. NaN is 0.
    let px = f.encode(Color::Float([0.5, 1.5, -0.2, f32::NAN])).unwrap();
    assert_eq!(px, [128, 255, 0, 0]);
    // The order puts the components in place.
    let bgra = format(CL_BGRA, CL_UNORM_INT8);
    assert_eq!(
        bgra.encode(Color::Float([1.0, 0.5, 0.0, 1.0])).unwrap(),
        [0, 128, 255, 255]
    );
    let argb = format(CL_ARGB, CL_UNORM_INT8);
    assert_eq!(
        argb.encode(Color::Float([1.0, 0.0, 0.0, 0.0])).unwrap(),
        [0, 255, 0, 0]
    );
    // Signed: -1 is -127, below saturates to -128, which reads as -1.
    let s = format(CL_R, CL_SNORM_INT8);
    assert_eq!(
        s.encode(Color::Float([-1.0, 0.0, 0.0, 0.0])).unwrap(),
        [0x81]
    );
    assert_eq!(
        s.encode(Color::Float([-2.0, 0.0, 0.0, 0.0])).unwrap(),
        [0x80]
    );
    assert_eq!(floats(&s, &[0x80]), [-1.0, 0.0, 0.0, 1.0]);
    let u16f = format(CL_R, CL_UNORM_INT16);
    let px = u16f.encode(Color::Float([0.25, 0.0, 0.0, 0.0])).unwrap();
    // 0.25 * 65535 = 16383.75.
    assert_eq!(px, 16384u16.to_ne_bytes());
}

#[test]
fn every_unorm8_value_reads_back_and_writes_to_itself() {
    let f = format(CL_R, CL_UNORM_INT8);
    for b in 0..=255u8 {
        let c = floats(&f, &[b]);
        assert_eq!(c[0], b as f32 / 255.0);
        assert_eq!(f.encode(Color::Float(c)).unwrap(), [b]);
    }
}

#[test]
fn packed_rgb() {
    let f = format(CL_RGB, CL_UNORM_SHORT_565);
    let word = |c: [f32; 4]| {
        let b = f.encode(Color::Float(c)).unwrap();
        u16::from_ne_bytes([b[0], b[1]])
    };
    assert_eq!(word([1.0, 1.0, 1.0, 0.0]), 0xffff);
    assert_eq!(word([1.0, 0.0, 0.0, 0.0]), 0xf800);
    assert_eq!(word([0.0, 1.0, 0.0, 0.0]), 0x07e0);
    assert_eq!(floats(&f, &0x07e0u16.to_ne_bytes()), [0.0, 1.0, 0.0, 1.0]);
    let f = format(CL_RGB, CL_UNORM_SHORT_555);
    let b = f.encode(Color::Float([0.0, 0.0, 1.0, 0.0])).unwrap();
    assert_eq!(u16::from_ne_bytes([b[0], b[1]]), 0x001f);
    let f = format(CL_RGB, CL_UNORM_INT_101010);
    let b = f.encode(Color::Float([1.0, 0.0, 1.0, 0.0])).unwrap();
    assert_eq!(u32::from_ne_bytes([b[0], b[1], b[2], b[3]]), 0x3ff0_03ff);
    assert_eq!(floats(&f, &b), [1.0, 0.0, 1.0, 1.0]);
}

#[test]
fn half_conversions_round_to_nearest_even() {
    assert_eq!(f32_to_f16(1.0), 0x3c00);
    assert_eq!(f32_to_f16(-2.0), 0xc000);
    assert_eq!(f32_to_f16(65504.0), 0x7bff);
    // Half way to the next (65536, not representable): ties to even is up,
    // to infinity.
    assert_eq!(f32_to_f16(65520.0), 0x7c00);
    assert_eq!(f32_to_f16(65519.0), 0x7bff);
    assert_eq!(f32_to_f16(f32::INFINITY), 0x7c00);
    assert!(f16_to_f32(f32_to_f16(f32::NAN)).is_nan());
    // Subnormals: 2^-24 is the smallest; half of it ties to 0 (even),
    // three halves to 2.
    assert_eq!(f32_to_f16(2f32.powi(-24)), 0x0001);
    assert_eq!(f32_to_f16(2f32.powi(-25)), 0x0000);
    assert_eq!(f32_to_f16(3.0 * 2f32.powi(-25)), 0x0002);
    assert_eq!(f32_to_f16(-2f32.powi(-26)), 0x8000);
    // Normal ties: 1 + 2^-11 is half way between 1 and 1 + 2^-10.
    assert_eq!(f32_to_f16(1.0 + 2f32.powi(-11)), 0x3c00);
    assert_eq!(f32_to_f16(1.0 + 3.0 * 2f32.powi(-11)), 0x3c02);
    // The largest subnormal rounds up into the smallest normal.
    assert_eq!(f32_to_f16(2f32.powi(-14) - 2f32.powi(-26)), 0x0400);
    // Every half but NaN survives a round trip through float.
    for h in 0..=u16::MAX {
        let f = f16_to_f32(h);
        if f.is_nan() {
            continue;
        }
        assert_eq!(f32_to_f16(f), h, "{h:#06x}");
    }
}

#[test]
fn srgb_converts_colour_but_not_alpha() {
    let f = format(CL_sRGBA, CL_UNORM_INT8);
    // Linear 0.5 is sRGB 0.7354, 187.5 of 255: ties to even, 188.
    let px = f.encode(Color::Float([0.5, 0.0, 1.0, 0.5])).unwrap();
    assert_eq!(px, [188, 0, 255, 128]);
    let c = floats(&f, &px);
    assert!((c[0] - 0.5).abs() < 0.003, "{c:?}");
    assert_eq!(c[3], 128.0 / 255.0);
    let bgra = format(CL_sBGRA, CL_UNORM_INT8);
    assert_eq!(
        bgra.encode(Color::Float([0.5, 0.0, 1.0, 0.5])).unwrap(),
        [255, 0, 188, 128]
    );
}

#[test]
fn integer_writes_saturate_and_kinds_must_match() {
    let i8f = format(CL_RGBA, CL_SIGNED_INT8);
    assert_eq!(
        i8f.encode(Color::Int([300, -300, 5, -5])).unwrap(),
        [127, 0x80, 5, 0xfb]
    );
    let u16f = format(CL_R, CL_UNSIGNED_INT16);
    assert_eq!(
        u16f.encode(Color::Uint([70000, 0, 0, 0])).unwrap(),
        65535u16.to_ne_bytes()
    );
    let i32f = format(CL_RG, CL_SIGNED_INT32);
    let px = i32f.encode(Color::Int([i32::MIN, 7, 0, 0])).unwrap();
    assert_eq!(i32f.decode(&px), Color::Int([i32::MIN, 7, 0, 1]));
    assert_eq!(i8f.encode(Color::Float([0.0; 4])), None);
    assert_eq!(u16f.encode(Color::Int([0; 4])), None);
    assert_eq!(format(CL_R, CL_FLOAT).encode(Color::Uint([0; 4])), None);
}

#[test]
fn missing_channels_read_as_zero_and_alpha_as_one() {
    let r = format(CL_R, CL_UNORM_INT8);
    assert_eq!(floats(&r, &[255]), [1.0, 0.0, 0.0, 1.0]);
    let a = format(CL_A, CL_UNORM_INT8);
    assert_eq!(floats(&a, &[0]), [0.0, 0.0, 0.0, 0.0]);
    let ra = format(CL_RA, CL_FLOAT);
    let px = ra.encode(Color::Float([0.25, 9.0, 9.0, 0.75])).unwrap();
    assert_eq!(floats(&ra, &px), [0.25, 0.0, 0.0, 0.75]);
    let i = format(CL_INTENSITY, CL_FLOAT);
    let px = i.encode(Color::Float([0.5, 9.0, 9.0, 9.0])).unwrap();
    assert_eq!(floats(&i, &px), [0.5; 4]);
    let l = format(CL_LUMINANCE, CL_HALF_FLOAT);
    let px = l.encode(Color::Float([0.5, 9.0, 9.0, 9.0])).unwrap();
    assert_eq!(floats(&l, &px), [0.5, 0.5, 0.5, 1.0]);
    let u = format(CL_RG, CL_UNSIGNED_INT8);
    assert_eq!(u.decode(&[3, 4]), Color::Uint([3, 4, 0, 1]));
}
