//! Images and samplers through the loader, as an image-filtering program
//! uses them: create, write, sample in a kernel, read back, fill, copy,
//! map, and the error codes on the way.
mod common;
use common::*;
use std::ffi::c_void;
use std::ptr::{null, null_mut};

#[link(name = "OpenCL")]
extern "C" {
    fn clGetDeviceInfo(
        d: cl_device_id,
        p: cl_uint,
        s: usize,
        v: *mut c_void,
        r: *mut usize,
    ) -> cl_int;
    fn clGetSupportedImageFormats(
        c: cl_context,
        f: cl_mem_flags,
        t: cl_mem_object_type,
        n: cl_uint,
        out: *mut cl_image_format,
        num: *mut cl_uint,
    ) -> cl_int;
    fn clCreateImage(
        c: cl_context,
        f: cl_mem_flags,
        fmt: *const cl_image_format,
        desc: *const cl_image_desc,
        host: *mut c_void,
        err: *mut cl_int,
    ) -> cl_mem;
    fn clGetImageInfo(m: cl_mem, p: cl_uint, s: usize, v: *mut c_void, r: *mut usize) -> cl_int;
    fn clGetMemObjectInfo(m: cl_mem, p: cl_uint, s: usize, v: *mut c_void, r: *mut usize)
        -> cl_int;
    fn clCreateSampler(
        c: cl_context,
        normalized: cl_bool,
        address: cl_addressing_mode,
        filter: cl_filter_mode,
        err: *mut cl_int,
    ) -> cl_sampler;
    fn clGetSamplerInfo(
        s: cl_sampler,
        p: cl_uint,
        n: usize,
        v: *mut c_void,
        r: *mut usize,
    ) -> cl_int;
    fn clReleaseSampler(s: cl_sampler) -> cl_int;
    fn clEnqueueReadImage(
        q: cl_command_queue,
        i: cl_mem,
        blocking: cl_bool,
        origin: *const usize,
        region: *const usize,
        row: usize,
        slice: usize,
        ptr: *mut c_void,
        n: cl_uint,
        w: *const cl_event,
        e: *mut cl_event,
    ) -> cl_int;
    fn clEnqueueFillImage(
        q: cl_command_queue,
        i: cl_mem,
        color: *const c_void,
        origin: *const usize,
        region: *const usize,
        n: cl_uint,
        w: *const cl_event,
        e: *mut cl_event,
    ) -> cl_int;
    fn clEnqueueCopyImageToBuffer(
        q: cl_command_queue,
        i: cl_mem,
        b: cl_mem,
        origin: *const usize,
        region: *const usize,
        offset: usize,
        n: cl_uint,
        w: *const cl_event,
        e: *mut cl_event,
    ) -> cl_int;
    fn clEnqueueMapImage(
        q: cl_command_queue,
        i: cl_mem,
        blocking: cl_bool,
        flags: cl_map_flags,
        origin: *const usize,
        region: *const usize,
        row: *mut usize,
        slice: *mut usize,
        n: cl_uint,
        w: *const cl_event,
        e: *mut cl_event,
        err: *mut cl_int,
    ) -> *mut c_void;
    fn clEnqueueUnmapMemObject(
        q: cl_command_queue,
        m: cl_mem,
        p: *mut c_void,
        n: cl_uint,
        w: *const cl_event,
        e: *mut cl_event,
    ) -> cl_int;
}

const SOURCE: &str = r#"
// Half way between each texel and the next along x: a two-tap box blur.
__kernel void blur(__read_only image2d_t in, __write_only image2d_t out, sampler_t s) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float2 at = (float2)(p.x + 1.0f, p.y + 0.5f);
    write_imagef(out, p, read_imagef(in, s, at));
}
__kernel void touch(__global float *buffer) { buffer[0] = 1.0f; }
// Depth images (cl_khr_depth_images): one float a texel.
__kernel void depth(__read_only image2d_depth_t in, __write_only image2d_depth_t out,
                    sampler_t s, __global float *probe) {
    int2 p = (int2)(get_global_id(0), 0);
    write_imagef(out, p, read_imagef(in, p) * 2.0f);
    probe[get_global_id(0)] = read_imagef(in, s, (float2)(get_global_id(0) + 1.0f, 0.5f));
    probe[4] = get_image_width(in);
}
"#;

fn rgba8() -> cl_image_format {
    cl_image_format {
        image_channel_order: CL_RGBA,
        image_channel_data_type: CL_UNORM_INT8,
    }
}

fn desc2d(w: usize, h: usize, row_pitch: usize) -> cl_image_desc {
    cl_image_desc {
        image_type: CL_MEM_OBJECT_IMAGE2D,
        image_width: w,
        image_height: h,
        image_row_pitch: row_pitch,
        ..Default::default()
    }
}

fn size_info(f: impl Fn(usize, *mut c_void) -> cl_int) -> usize {
    let mut v = 0usize;
    assert_eq!(f(8, &mut v as *mut usize as *mut c_void), CL_SUCCESS);
    v
}

#[test]
fn an_image_filter_runs_and_images_answer_as_the_spec_says() {
    select_ferrocl();
    let s = Setup::new(platforms()[0]);
    let q = s.queue(0);
    // SAFETY: (the whole test) CL calls with valid handles, out-pointers
    // and host memory that outlives each command (blocking or finished).
    unsafe {
        let mut support: cl_bool = 0;
        let info = CL_DEVICE_IMAGE_SUPPORT;
        let p = &mut support as *mut cl_bool as *mut c_void;
        assert_eq!(
            clGetDeviceInfo(s.device, info, 4, p, null_mut()),
            CL_SUCCESS
        );
        assert_eq!(support, CL_TRUE);
        let mut n = 0;
        let flags = CL_MEM_READ_ONLY as cl_mem_flags;
        let err = clGetSupportedImageFormats(
            s.context,
            flags,
            CL_MEM_OBJECT_IMAGE2D,
            0,
            null_mut(),
            &mut n,
        );
        assert_eq!(err, CL_SUCCESS);
        let mut formats = vec![rgba8(); n as usize];
        let err = clGetSupportedImageFormats(
            s.context,
            flags,
            CL_MEM_OBJECT_IMAGE2D,
            n,
            formats.as_mut_ptr(),
            null_mut(),
        );
        assert_eq!(err, CL_SUCCESS);
        assert!(formats.iter().any(|f| f.image_channel_order == CL_BGRA));

        // A 4 x 2 RGBA8 image from host rows 20 bytes apart: red = 40 x.
        let (w, h) = (4usize, 2usize);
        let mut host = vec![0u8; 20 * h];
        for y in 0..h {
            for x in 0..w {
                host[y * 20 + x * 4..][..4].copy_from_slice(&[(40 * x) as u8, y as u8, 0, 255]);
            }
        }
        let mut err = 0;
        let copy = (CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR) as cl_mem_flags;
        let src = clCreateImage(
            s.context,
            copy,
            &rgba8(),
            &desc2d(w, h, 20),
            host.as_mut_ptr() as *mut c_void,
            &mut err,
        );
        assert_eq!(err, CL_SUCCESS);
        let dst = clCreateImage(
            s.context,
            CL_MEM_READ_WRITE as cl_mem_flags,
            &rgba8(),
            &desc2d(w, h, 0),
            null_mut(),
            &mut err,
        );
        assert_eq!(err, CL_SUCCESS);
        assert_eq!(
            size_info(|n, v| clGetImageInfo(src, CL_IMAGE_WIDTH, n, v, null_mut())),
            4
        );
        assert_eq!(
            size_info(|n, v| clGetImageInfo(src, CL_IMAGE_ROW_PITCH, n, v, null_mut())),
            16
        );
        assert_eq!(
            size_info(|n, v| clGetImageInfo(src, CL_IMAGE_ELEMENT_SIZE, n, v, null_mut())),
            4
        );
        let mut ty: cl_mem_object_type = 0;
        let tp = &mut ty as *mut cl_mem_object_type as *mut c_void;
        assert_eq!(
            clGetMemObjectInfo(src, CL_MEM_TYPE, 4, tp, null_mut()),
            CL_SUCCESS
        );
        assert_eq!(ty, CL_MEM_OBJECT_IMAGE2D);

        let sampler = clCreateSampler(
            s.context,
            CL_FALSE as cl_bool,
            CL_ADDRESS_CLAMP_TO_EDGE,
            CL_FILTER_LINEAR,
            &mut err,
        );
        assert_eq!(err, CL_SUCCESS);
        let mut filter: cl_filter_mode = 0;
        let fp = &mut filter as *mut cl_filter_mode as *mut c_void;
        assert_eq!(
            clGetSamplerInfo(sampler, CL_SAMPLER_FILTER_MODE, 4, fp, null_mut()),
            CL_SUCCESS
        );
        assert_eq!(filter, CL_FILTER_LINEAR);
        let repeat_unnormalized = clCreateSampler(
            s.context,
            CL_FALSE as cl_bool,
            CL_ADDRESS_REPEAT,
            CL_FILTER_NEAREST,
            &mut err,
        );
        assert!(repeat_unnormalized.is_null());
        assert_eq!(err, CL_INVALID_VALUE);

        let program = s.build(SOURCE, None);
        let k = clCreateKernel(program, c"blur".as_ptr(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        let m = std::mem::size_of::<cl_mem>();
        assert_eq!(
            clSetKernelArg(k, 0, m, &src as *const cl_mem as *const c_void),
            CL_SUCCESS
        );
        assert_eq!(
            clSetKernelArg(k, 1, m, &dst as *const cl_mem as *const c_void),
            CL_SUCCESS
        );
        assert_eq!(
            clSetKernelArg(k, 2, m, &sampler as *const cl_sampler as *const c_void),
            CL_SUCCESS
        );
        // A sampler where an image goes, a buffer where an image goes.
        let bad = clSetKernelArg(k, 0, m, &sampler as *const cl_sampler as *const c_void);
        assert_eq!(bad, CL_INVALID_MEM_OBJECT);
        let buf = clCreateBuffer(
            s.context,
            CL_MEM_READ_WRITE as cl_mem_flags,
            64,
            null_mut(),
            &mut err,
        );
        assert_eq!(err, CL_SUCCESS);
        let bad = clSetKernelArg(k, 0, m, &buf as *const cl_mem as *const c_void);
        assert_eq!(bad, CL_INVALID_MEM_OBJECT);
        let touch = clCreateKernel(program, c"touch".as_ptr(), &mut err);
        let bad = clSetKernelArg(touch, 0, m, &src as *const cl_mem as *const c_void);
        assert_eq!(bad, CL_INVALID_MEM_OBJECT);
        let global = [w, h];
        let err = clEnqueueNDRangeKernel(
            q,
            k,
            2,
            null(),
            global.as_ptr(),
            null(),
            0,
            null(),
            null_mut(),
        );
        assert_eq!(err, CL_SUCCESS);
        let mut out = vec![0u8; w * h * 4];
        let (origin, region) = ([0usize; 3], [w, h, 1]);
        let err = clEnqueueReadImage(
            q,
            dst,
            CL_TRUE,
            origin.as_ptr(),
            region.as_ptr(),
            0,
            0,
            out.as_mut_ptr() as *mut c_void,
            0,
            null(),
            null_mut(),
        );
        assert_eq!(err, CL_SUCCESS);
        for y in 0..h {
            for x in 0..w {
                // Red half way between x and x + 1 (the edge repeats the
                // last texel): 40 x + 20, 140 at the edge.
                let red = if x + 1 < w { 40 * x + 20 } else { 120 };
                assert_eq!(
                    &out[(y * w + x) * 4..][..4],
                    [red as u8, y as u8, 0, 255],
                    "({x}, {y})"
                );
            }
        }
        // Out of bounds, and a NULL pointer.
        let far = [w, 1, 1];
        let err = clEnqueueReadImage(
            q,
            dst,
            CL_TRUE,
            [1usize, 0, 0].as_ptr(),
            far.as_ptr(),
            0,
            0,
            out.as_mut_ptr() as *mut c_void,
            0,
            null(),
            null_mut(),
        );
        assert_eq!(err, CL_INVALID_VALUE);

        // Fill a 2 x 1 block with a colour converted to RGBA8, copy a row
        // to a buffer, and map the image.
        let color = [1.0f32, 0.5, 0.0, 1.0];
        let err = clEnqueueFillImage(
            q,
            dst,
            color.as_ptr() as *const c_void,
            [1usize, 1, 0].as_ptr(),
            [2usize, 1, 1].as_ptr(),
            0,
            null(),
            null_mut(),
        );
        assert_eq!(err, CL_SUCCESS);
        let err = clEnqueueCopyImageToBuffer(
            q,
            dst,
            buf,
            [0usize, 1, 0].as_ptr(),
            [4usize, 1, 1].as_ptr(),
            8,
            0,
            null(),
            null_mut(),
        );
        assert_eq!(err, CL_SUCCESS);
        let mut row = [0u8; 16];
        let err = clEnqueueReadBuffer(
            q,
            buf,
            CL_TRUE,
            8,
            16,
            row.as_mut_ptr() as *mut c_void,
            0,
            null(),
            null_mut(),
        );
        assert_eq!(err, CL_SUCCESS);
        assert_eq!(
            row,
            [20, 1, 0, 255, 255, 128, 0, 255, 255, 128, 0, 255, 120, 1, 0, 255]
        );
        let (mut row_pitch, mut map_err) = (0usize, 0);
        let mapped = clEnqueueMapImage(
            q,
            dst,
            CL_TRUE,
            CL_MAP_READ as cl_map_flags,
            [1usize, 1, 0].as_ptr(),
            [1usize, 1, 1].as_ptr(),
            &mut row_pitch,
            null_mut(),
            0,
            null(),
            null_mut(),
            &mut map_err,
        );
        assert_eq!(map_err, CL_SUCCESS);
        assert_eq!(row_pitch, 16);
        assert_eq!(
            std::slice::from_raw_parts(mapped as *const u8, 4),
            [255, 128, 0, 255]
        );
        assert_eq!(
            clEnqueueUnmapMemObject(q, dst, mapped, 0, null(), null_mut()),
            CL_SUCCESS
        );
        assert_eq!(clFinish(q), CL_SUCCESS);

        // Depth: 3 x 1 CL_DEPTH UNORM_INT16 in, CL_DEPTH FLOAT out.
        let mut err = 0;
        let unorm16 = cl_image_format {
            image_channel_order: CL_DEPTH,
            image_channel_data_type: CL_UNORM_INT16,
        };
        let float_depth = cl_image_format {
            image_channel_order: CL_DEPTH,
            image_channel_data_type: CL_FLOAT,
        };
        let mut texels: Vec<u8> = [0u16, 32768, 65535]
            .iter()
            .flat_map(|v| v.to_ne_bytes())
            .collect();
        let din = clCreateImage(
            s.context,
            copy,
            &unorm16,
            &desc2d(3, 1, 0),
            texels.as_mut_ptr() as *mut c_void,
            &mut err,
        );
        assert_eq!(err, CL_SUCCESS);
        let dout = clCreateImage(
            s.context,
            CL_MEM_READ_WRITE as cl_mem_flags,
            &float_depth,
            &desc2d(3, 1, 0),
            null_mut(),
            &mut err,
        );
        assert_eq!(err, CL_SUCCESS);
        // Depth images are 2D only.
        let mut desc3 = desc2d(3, 1, 0);
        desc3.image_type = CL_MEM_OBJECT_IMAGE3D;
        desc3.image_depth = 2;
        let none = clCreateImage(
            s.context,
            CL_MEM_READ_WRITE as cl_mem_flags,
            &float_depth,
            &desc3,
            null_mut(),
            &mut err,
        );
        assert!(none.is_null());
        assert_eq!(err, CL_IMAGE_FORMAT_NOT_SUPPORTED);
        let mut zeros = [0f32; 5];
        let rw_copy = (CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR) as cl_mem_flags;
        let probe = clCreateBuffer(
            s.context,
            rw_copy,
            20,
            zeros.as_mut_ptr() as *mut c_void,
            &mut err,
        );
        let kd = clCreateKernel(program, c"depth".as_ptr(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        assert_eq!(
            clSetKernelArg(kd, 0, m, &din as *const cl_mem as *const c_void),
            CL_SUCCESS
        );
        assert_eq!(
            clSetKernelArg(kd, 1, m, &dout as *const cl_mem as *const c_void),
            CL_SUCCESS
        );
        assert_eq!(
            clSetKernelArg(kd, 2, m, &sampler as *const cl_sampler as *const c_void),
            CL_SUCCESS
        );
        assert_eq!(
            clSetKernelArg(kd, 3, m, &probe as *const cl_mem as *const c_void),
            CL_SUCCESS
        );
        let n = [3usize];
        assert_eq!(
            clEnqueueNDRangeKernel(q, kd, 1, null(), n.as_ptr(), null(), 0, null(), null_mut()),
            CL_SUCCESS
        );
        let mut depths = [0f32; 3];
        let err = clEnqueueReadImage(
            q,
            dout,
            CL_TRUE,
            origin.as_ptr(),
            [3usize, 1, 1].as_ptr(),
            0,
            0,
            depths.as_mut_ptr() as *mut c_void,
            0,
            null(),
            null_mut(),
        );
        assert_eq!(err, CL_SUCCESS);
        let half = 32768.0f32 / 65535.0;
        assert_eq!(depths, [0.0, 2.0 * half, 2.0]);
        let mut probed = [0f32; 5];
        let err = clEnqueueReadBuffer(
            q,
            probe,
            CL_TRUE,
            0,
            20,
            probed.as_mut_ptr() as *mut c_void,
            0,
            null(),
            null_mut(),
        );
        assert_eq!(err, CL_SUCCESS);
        // Linear half way between texels x and x + 1; the last clamps.
        assert_eq!(probed, [half / 2.0, (half + 1.0) / 2.0, 1.0, 0.0, 3.0]);
        for m in [din, dout, probe] {
            assert_eq!(clReleaseMemObject(m), CL_SUCCESS);
        }
        clReleaseKernel(kd);

        // Bad formats and descriptors create nothing.
        let mut err = 0;
        let rgb8 = cl_image_format {
            image_channel_order: CL_RGB,
            image_channel_data_type: CL_UNORM_INT8,
        };
        let none = clCreateImage(
            s.context,
            CL_MEM_READ_WRITE as cl_mem_flags,
            &rgb8,
            &desc2d(4, 4, 0),
            null_mut(),
            &mut err,
        );
        assert!(none.is_null());
        assert_eq!(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
        let none = clCreateImage(
            s.context,
            CL_MEM_READ_WRITE as cl_mem_flags,
            &rgba8(),
            &desc2d(0, 4, 0),
            null_mut(),
            &mut err,
        );
        assert!(none.is_null());
        assert_eq!(err, CL_INVALID_IMAGE_DESCRIPTOR);
        let none = clCreateImage(
            s.context,
            CL_MEM_READ_WRITE as cl_mem_flags,
            &rgba8(),
            &desc2d(1 << 20, 4, 0),
            null_mut(),
            &mut err,
        );
        assert!(none.is_null());
        assert_eq!(err, CL_INVALID_IMAGE_SIZE);

        for m in [src, dst, buf] {
            assert_eq!(clReleaseMemObject(m), CL_SUCCESS);
        }
        assert_eq!(clReleaseSampler(sampler), CL_SUCCESS);
        clReleaseKernel(k);
        clReleaseKernel(touch);
        clReleaseProgram(program);
        clReleaseCommandQueue(q);
        clReleaseContext(s.context);
    }
}
