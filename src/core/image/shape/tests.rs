use super::*;

const LIMITS: ImageLimits = ImageLimits {
    max_2d: [16384, 16384],
    max_3d: [2048, 2048, 2048],
    max_array_size: 2048,
    max_buffer_pixels: 1 << 26,
};

fn rgba8() -> ImageFormat {
    ImageFormat::new(CL_RGBA, CL_UNORM_INT8).unwrap()
}

fn desc(image_type: cl_mem_object_type, w: usize, h: usize, d: usize, n: usize) -> ImageDesc {
    ImageDesc {
        image_type,
        width: w,
        height: h,
        depth: d,
        array_size: n,
        ..ImageDesc::default()
    }
}

fn shape(d: &ImageDesc, host: bool) -> Result<(ImageShape, Option<HostPitches>), cl_int> {
    ImageShape::new(d, rgba8(), host, &LIMITS)
}

#[test]
fn each_type_gets_its_extent_pitches_and_size() {
    let cases = [
        (
            desc(CL_MEM_OBJECT_IMAGE1D, 10, 7, 7, 7),
            [10, 1, 1],
            40,
            0,
            40,
        ),
        (
            desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, 10, 7, 7, 7),
            [10, 1, 1],
            40,
            0,
            40,
        ),
        (
            desc(CL_MEM_OBJECT_IMAGE1D_ARRAY, 10, 7, 7, 3),
            [10, 3, 1],
            40,
            40,
            120,
        ),
        (
            desc(CL_MEM_OBJECT_IMAGE2D, 10, 5, 7, 7),
            [10, 5, 1],
            40,
            0,
            200,
        ),
        (
            desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, 10, 5, 7, 3),
            [10, 5, 3],
            40,
            200,
            600,
        ),
        (
            desc(CL_MEM_OBJECT_IMAGE3D, 10, 5, 4, 7),
            [10, 5, 4],
            40,
            200,
            800,
        ),
    ];
    for (d, extent, row, slice, size) in cases {
        let (s, host) = shape(&d, false).unwrap();
        assert_eq!(host, None);
        assert_eq!(s.extent(), extent, "{d:?}");
        assert_eq!((s.row_pitch, s.slice_pitch), (row, slice), "{d:?}");
        assert_eq!(s.size(), Some(size), "{d:?}");
    }
    // Sizes a type does not have read as 0 (clGetImageInfo).
    let (s, _) = shape(&desc(CL_MEM_OBJECT_IMAGE1D, 10, 7, 7, 7), false).unwrap();
    assert_eq!((s.height, s.depth, s.array_size), (0, 0, 0));
}

#[test]
fn bad_descriptors_and_sizes_get_their_codes() {
    let invalid = Err(CL_INVALID_IMAGE_DESCRIPTOR);
    assert_eq!(
        shape(&desc(CL_MEM_OBJECT_BUFFER, 4, 4, 1, 1), false),
        invalid
    );
    assert_eq!(
        shape(&desc(CL_MEM_OBJECT_IMAGE2D, 0, 4, 1, 1), false),
        invalid
    );
    assert_eq!(
        shape(&desc(CL_MEM_OBJECT_IMAGE2D, 4, 0, 1, 1), false),
        invalid
    );
    assert_eq!(
        shape(&desc(CL_MEM_OBJECT_IMAGE3D, 4, 4, 0, 1), false),
        invalid
    );
    assert_eq!(
        shape(&desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 4, 1, 0), false),
        invalid
    );
    let mut mip = desc(CL_MEM_OBJECT_IMAGE2D, 4, 4, 1, 1);
    mip.num_mip_levels = 1;
    assert_eq!(shape(&mip, false), invalid);
    // Pitches without a host pointer.
    let mut pitched = desc(CL_MEM_OBJECT_IMAGE2D, 4, 4, 1, 1);
    pitched.row_pitch = 64;
    assert_eq!(shape(&pitched, false), invalid);
    // Too small, or not a multiple of the element.
    pitched.row_pitch = 12;
    assert_eq!(shape(&pitched, true), invalid);
    pitched.row_pitch = 18;
    assert_eq!(shape(&pitched, true), invalid);
    let size = Err(CL_INVALID_IMAGE_SIZE);
    assert_eq!(
        shape(&desc(CL_MEM_OBJECT_IMAGE2D, 16385, 1, 1, 1), false),
        size
    );
    assert_eq!(
        shape(&desc(CL_MEM_OBJECT_IMAGE3D, 4, 4, 2049, 1), false),
        size
    );
    assert_eq!(
        shape(&desc(CL_MEM_OBJECT_IMAGE1D_ARRAY, 4, 1, 1, 2049), false),
        size
    );
    assert!(shape(&desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, 16385, 1, 1, 1), false).is_ok());
}

#[test]
fn host_pitches_default_to_tight_and_are_checked() {
    let mut d = desc(CL_MEM_OBJECT_IMAGE3D, 4, 3, 2, 1);
    let (s, host) = shape(&d, true).unwrap();
    assert_eq!(
        host,
        Some(HostPitches {
            row_pitch: 16,
            slice_pitch: 48
        })
    );
    assert_eq!(s.row_pitch, 16);
    d.row_pitch = 32;
    d.slice_pitch = 0;
    let (s, host) = shape(&d, true).unwrap();
    // The image's own memory stays tight.
    assert_eq!((s.row_pitch, s.slice_pitch), (16, 48));
    let host = host.unwrap();
    assert_eq!((host.row_pitch, host.slice_pitch), (32, 96));
    assert_eq!(
        s.host_layout(&host),
        RectLayout {
            origin: [0; 3],
            row_pitch: 32,
            slice_pitch: 96
        }
    );
    // The slice pitch must hold the rows and be a multiple of the row
    // pitch.
    d.slice_pitch = 64;
    assert_eq!(shape(&d, true), Err(CL_INVALID_IMAGE_DESCRIPTOR));
    d.slice_pitch = 112;
    assert_eq!(shape(&d, true), Err(CL_INVALID_IMAGE_DESCRIPTOR));
    d.slice_pitch = 128;
    assert!(shape(&d, true).is_ok());
    // A 1D array's layers need one row each.
    let mut a = desc(CL_MEM_OBJECT_IMAGE1D_ARRAY, 4, 1, 1, 3);
    a.slice_pitch = 16;
    let (s, host) = shape(&a, true).unwrap();
    assert_eq!(s.host_layout(&host.unwrap()).row_pitch, 16);
}

#[test]
fn regions_must_lie_inside_and_use_only_the_types_dimensions() {
    let (s, _) = shape(&desc(CL_MEM_OBJECT_IMAGE2D, 10, 5, 1, 1), false).unwrap();
    assert_eq!(s.check_region([0, 0, 0], [10, 5, 1]), Ok(()));
    assert_eq!(s.check_region([9, 4, 0], [1, 1, 1]), Ok(()));
    assert_eq!(s.check_region([9, 4, 0], [2, 1, 1]), Err(CL_INVALID_VALUE));
    assert_eq!(s.check_region([0, 0, 1], [1, 1, 1]), Err(CL_INVALID_VALUE));
    assert_eq!(s.check_region([0, 0, 0], [1, 1, 2]), Err(CL_INVALID_VALUE));
    assert_eq!(s.check_region([0, 0, 0], [0, 1, 1]), Err(CL_INVALID_VALUE));
    assert_eq!(
        s.check_region([usize::MAX, 0, 0], [2, 1, 1]),
        Err(CL_INVALID_VALUE)
    );
    // A 1D array's layers are its second dimension.
    let (a, _) = shape(&desc(CL_MEM_OBJECT_IMAGE1D_ARRAY, 10, 1, 1, 3), false).unwrap();
    assert_eq!(a.check_region([0, 2, 0], [10, 1, 1]), Ok(()));
    assert_eq!(a.check_region([0, 3, 0], [10, 1, 1]), Err(CL_INVALID_VALUE));
    assert_eq!(
        a.layout([2, 1, 0]),
        RectLayout {
            origin: [8, 1, 0],
            row_pitch: 40,
            slice_pitch: 40
        }
    );
    assert_eq!(a.byte_region([3, 2, 1]), [12, 2, 1]);
    let (v, _) = shape(&desc(CL_MEM_OBJECT_IMAGE3D, 10, 5, 4, 1), false).unwrap();
    assert_eq!(
        v.layout([1, 2, 3]),
        RectLayout {
            origin: [4, 2, 3],
            row_pitch: 40,
            slice_pitch: 200
        }
    );
    // The whole image's rectangle is in bounds of its size.
    for s in [s, a, v] {
        let all = s.byte_region(s.extent());
        assert!(s.layout([0; 3]).in_bounds(all, s.size().unwrap()));
    }
}
