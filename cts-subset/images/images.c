/* images/images: image objects and samplers, host commands and kernels, in
 * the spirit of the Khronos test_images_* suites. On a device without
 * images (ferrocl with FERROCL_IMAGES=0) every sub-test is skipped. */
#include "harness.h"
#include <math.h>
#include <stdlib.h>

static int has_images(void)
{
    cl_bool yes = CL_FALSE;
    clGetDeviceInfo(h_device(), CL_DEVICE_IMAGE_SUPPORT, sizeof yes, &yes, NULL);
    return yes == CL_TRUE;
}

static cl_image_desc desc_of(cl_mem_object_type t, size_t w, size_t h, size_t d, size_t n)
{
    cl_image_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.image_type = t;
    desc.image_width = w;
    desc.image_height = h;
    desc.image_depth = d;
    desc.image_array_size = n;
    return desc;
}

/* Every image type holds what is written to it, from host memory whose
 * rows (and slices) are padded, and reads back packed tight. */
TEST(every_type_round_trips_with_host_pitches)
{
    if (!has_images()) { h_skip("no image support"); return; }
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_image_format rgba8 = {CL_RGBA, CL_UNSIGNED_INT8};
    struct { cl_mem_object_type t; size_t w, h, d, n, region[3]; } cases[] = {
        {CL_MEM_OBJECT_IMAGE1D, 5, 0, 0, 0, {5, 1, 1}},
        {CL_MEM_OBJECT_IMAGE1D_ARRAY, 5, 0, 0, 3, {5, 3, 1}},
        {CL_MEM_OBJECT_IMAGE2D, 5, 4, 0, 0, {5, 4, 1}},
        {CL_MEM_OBJECT_IMAGE2D_ARRAY, 5, 4, 0, 3, {5, 4, 3}},
        {CL_MEM_OBJECT_IMAGE3D, 5, 4, 3, 0, {5, 4, 3}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t *r = cases[i].region;
        /* Host rows of 5 pixels padded to 24 bytes; slices of rows
         * (layers, for a 1D array) padded by one more row. */
        size_t row = 24, slice = cases[i].t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? row : row * (r[1] + 1);
        size_t layers = cases[i].t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? r[1] : r[2];
        unsigned char *host = calloc(slice * (layers + 1) + row * r[1], 1);
        unsigned char *back = calloc(r[0] * r[1] * r[2] * 4, 1);
        for (size_t z = 0; z < r[2]; z++)
            for (size_t y = 0; y < r[1]; y++)
                for (size_t x = 0; x < r[0] * 4; x++) {
                    size_t at = cases[i].t == CL_MEM_OBJECT_IMAGE1D_ARRAY
                                    ? y * slice + x
                                    : z * slice + y * row + x;
                    host[at] = (unsigned char)(x * 7 + y * 31 + z * 57 + i);
                }
        cl_image_desc d = desc_of(cases[i].t, cases[i].w, cases[i].h, cases[i].d, cases[i].n);
        cl_int e;
        cl_mem img = clCreateImage(c, CL_MEM_READ_WRITE, &rgba8, &d, NULL, &e);
        REQUIRE(img && e == CL_SUCCESS, "type 0x%x: %s", cases[i].t, h_err(e));
        size_t origin[3] = {0, 0, 0};
        size_t in_slice = (cases[i].t == CL_MEM_OBJECT_IMAGE2D || cases[i].t == CL_MEM_OBJECT_IMAGE1D) ? 0 : slice;
        CHECK_OK(clEnqueueWriteImage(q, img, CL_TRUE, origin, r, row, in_slice, host, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadImage(q, img, CL_TRUE, origin, r, 0, 0, back, 0, NULL, NULL));
        for (size_t z = 0; z < r[2] && !h_failed(); z++)
            for (size_t y = 0; y < r[1] && !h_failed(); y++)
                for (size_t x = 0; x < r[0] * 4; x++) {
                    size_t at = cases[i].t == CL_MEM_OBJECT_IMAGE1D_ARRAY
                                    ? y * slice + x
                                    : z * slice + y * row + x;
                    unsigned char got = back[(z * r[1] + y) * r[0] * 4 + x];
                    CHECK(got == host[at], "type 0x%x byte %zu row %zu slice %zu: %u, expected %u",
                          cases[i].t, x, y, z, got, host[at]);
                    if (h_failed()) break;
                }
        clReleaseMemObject(img);
        free(host);
        free(back);
    }
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(formats_descriptors_and_regions_get_the_specs_codes)
{
    if (!has_images()) { h_skip("no image support"); return; }
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_int e;
    cl_image_desc d2 = desc_of(CL_MEM_OBJECT_IMAGE2D, 8, 8, 0, 0);
    cl_image_format rgb8 = {CL_RGB, CL_UNORM_INT8}, rgba8 = {CL_RGBA, CL_UNORM_INT8};
    cl_mem m = clCreateImage(c, CL_MEM_READ_WRITE, &rgb8, &d2, NULL, &e);
    CHECK(!m && e == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "CL_RGB UNORM_INT8: %s", h_err(e));
    m = clCreateImage(c, CL_MEM_READ_WRITE, NULL, &d2, NULL, &e);
    CHECK(!m && e == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "NULL format: %s", h_err(e));
    m = clCreateImage(c, CL_MEM_READ_WRITE, &rgba8, NULL, NULL, &e);
    CHECK(!m && e == CL_INVALID_IMAGE_DESCRIPTOR, "NULL descriptor: %s", h_err(e));
    cl_image_desc zero = desc_of(CL_MEM_OBJECT_IMAGE2D, 0, 8, 0, 0);
    m = clCreateImage(c, CL_MEM_READ_WRITE, &rgba8, &zero, NULL, &e);
    CHECK(!m && e == CL_INVALID_IMAGE_DESCRIPTOR, "width 0: %s", h_err(e));
    size_t max2d = 0;
    clGetDeviceInfo(h_device(), CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof max2d, &max2d, NULL);
    cl_image_desc wide = desc_of(CL_MEM_OBJECT_IMAGE2D, max2d + 1, 1, 0, 0);
    m = clCreateImage(c, CL_MEM_READ_WRITE, &rgba8, &wide, NULL, &e);
    CHECK(!m && e == CL_INVALID_IMAGE_SIZE, "past the width limit: %s", h_err(e));
    cl_image_desc pitched = d2;
    pitched.image_row_pitch = 64;
    m = clCreateImage(c, CL_MEM_READ_WRITE, &rgba8, &pitched, NULL, &e);
    CHECK(!m && e == CL_INVALID_IMAGE_DESCRIPTOR, "a pitch without host memory: %s", h_err(e));
    unsigned char host[8 * 8 * 4] = {0};
    pitched.image_row_pitch = 30; /* less than 8 pixels */
    m = clCreateImage(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &rgba8, &pitched, host, &e);
    CHECK(!m && e == CL_INVALID_IMAGE_DESCRIPTOR, "a pitch too small: %s", h_err(e));
    m = clCreateImage(c, CL_MEM_READ_WRITE, &rgba8, &d2, host, &e);
    CHECK(!m && e == CL_INVALID_HOST_PTR, "a host pointer without its flag: %s", h_err(e));

    cl_mem img = clCreateImage(c, CL_MEM_READ_WRITE, &rgba8, &d2, NULL, &e);
    REQUIRE(img, "creating: %s", h_err(e));
    size_t origin[3] = {4, 4, 0}, past[3] = {5, 1, 1}, flat[3] = {1, 1, 2};
    CHECK_ERR(clEnqueueReadImage(q, img, CL_TRUE, origin, past, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadImage(q, img, CL_TRUE, origin, flat, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE);
    size_t one[3] = {1, 1, 1};
    CHECK_ERR(clEnqueueReadImage(q, img, CL_TRUE, origin, one, 0, 0, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    /* An image is no buffer. */
    CHECK_ERR(clEnqueueReadBuffer(q, img, CL_TRUE, 0, 4, host, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    cl_image_format rg8 = {CL_RG, CL_UNORM_INT8};
    cl_mem other = clCreateImage(c, CL_MEM_READ_WRITE, &rg8, &d2, NULL, &e);
    size_t zero3[3] = {0, 0, 0};
    CHECK_ERR(clEnqueueCopyImage(q, img, other, zero3, zero3, one, 0, NULL, NULL), CL_IMAGE_FORMAT_MISMATCH);
    size_t two[3] = {2, 2, 1}, near[3] = {1, 1, 0};
    CHECK_ERR(clEnqueueCopyImage(q, img, img, zero3, near, two, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    cl_sampler s = clCreateSampler(c, CL_FALSE, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST, &e);
    CHECK(!s && e == CL_INVALID_VALUE, "REPEAT without normalized coordinates: %s", h_err(e));
    clReleaseMemObject(other);
    clReleaseMemObject(img);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* Fill converts the colour as write_imagei does (saturating), and a copy to
 * a buffer packs the region tight. */
TEST(fill_saturates_and_copies_to_buffers_pack_tight)
{
    if (!has_images()) { h_skip("no image support"); return; }
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_int e;
    cl_image_format f = {CL_RGBA, CL_SIGNED_INT16};
    cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, 4, 3, 0, 0);
    cl_mem img = clCreateImage(c, CL_MEM_READ_WRITE, &f, &d, NULL, &e);
    REQUIRE(img, "creating: %s", h_err(e));
    cl_int zeroes[4] = {0, 0, 0, 0}, color[4] = {70000, -70000, 5, -5};
    size_t all[3] = {4, 3, 1}, origin[3] = {1, 1, 0}, block[3] = {2, 2, 1}, zero3[3] = {0, 0, 0};
    CHECK_OK(clEnqueueFillImage(q, img, zeroes, zero3, all, 0, NULL, NULL));
    CHECK_OK(clEnqueueFillImage(q, img, color, origin, block, 0, NULL, NULL));
    cl_mem buf = clCreateBuffer(c, CL_MEM_READ_WRITE, 64, NULL, &e);
    size_t row1[3] = {4, 1, 1}, y1[3] = {0, 1, 0};
    CHECK_OK(clEnqueueCopyImageToBuffer(q, img, buf, y1, row1, 8, 0, NULL, NULL));
    short px[16];
    CHECK_OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 8, sizeof px / 2, px, 0, NULL, NULL));
    short want[8] = {0, 0, 0, 0, 32767, -32768, 5, -5};
    for (int i = 0; i < 8; i++) CHECK(px[i] == want[i], "short %d: %d, expected %d", i, px[i], want[i]);
    CHECK_ERR(clEnqueueCopyImageToBuffer(q, img, buf, y1, all, 40, 0, NULL, NULL), CL_INVALID_VALUE);
    clReleaseMemObject(buf);
    clReleaseMemObject(img);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

static const char *SAMPLE_SRC =
    "__kernel void sample(__read_only image2d_t in, sampler_t s, __global float4 *out,\n"
    "                     __global const float2 *at) {\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = read_imagef(in, s, at[i]);\n"
    "}\n";

/* A kernel samples a float image nearest and linear, clamped and repeated,
 * against the spec's formulas computed here. */
TEST(kernels_sample_as_the_spec_computes)
{
    if (!has_images()) { h_skip("no image support"); return; }
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_int e;
    enum { W = 4, H = 3, N = 6 };
    float texels[H][W][4];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            texels[y][x][0] = (float)(x + 10 * y);
            texels[y][x][1] = texels[y][x][2] = 0.0f;
            texels[y][x][3] = 1.0f;
        }
    cl_image_format f = {CL_RGBA, CL_FLOAT};
    cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0);
    cl_mem img = clCreateImage(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f, &d, texels, &e);
    REQUIRE(img, "creating: %s", h_err(e));
    cl_program p = h_build(c, SAMPLE_SRC, NULL);
    REQUIRE(p, "build failed");
    cl_kernel k = clCreateKernel(p, "sample", &e);
    /* Unnormalized linear at (x + 1, y + 0.5): texels x and x + 1 blended
     * half and half; normalized repeat nearest wraps. */
    struct { cl_bool norm; cl_addressing_mode a; cl_filter_mode fm; float at[2]; float want; } cases[N] = {
        {CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR, {1.0f, 0.5f}, 0.5f},
        {CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR, {2.0f, 1.5f}, 11.5f},
        {CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, {9.0f, 9.0f}, 23.0f},
        {CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, {-1.0f, 0.5f}, 0.0f},
        {CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST, {1.375f, 0.5f}, 11.0f},
        {CL_TRUE, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_NEAREST, {-0.125f, 0.5f}, 10.0f},
    };
    for (int i = 0; i < N; i++) {
        cl_sampler s = clCreateSampler(c, cases[i].norm, cases[i].a, cases[i].fm, &e);
        REQUIRE(s, "sampler %d: %s", i, h_err(e));
        cl_mem at = clCreateBuffer(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 8, cases[i].at, &e);
        cl_mem out = clCreateBuffer(c, CL_MEM_WRITE_ONLY, 16, NULL, &e);
        CHECK_OK(clSetKernelArg(k, 0, sizeof img, &img));
        CHECK_OK(clSetKernelArg(k, 1, sizeof s, &s));
        CHECK_OK(clSetKernelArg(k, 2, sizeof out, &out));
        CHECK_OK(clSetKernelArg(k, 3, sizeof at, &at));
        size_t one = 1;
        CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL));
        float got[4];
        CHECK_OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, 16, got, 0, NULL, NULL));
        CHECK(fabsf(got[0] - cases[i].want) < 1e-5f, "case %d at (%g, %g): red %g, expected %g",
              i, cases[i].at[0], cases[i].at[1], got[0], cases[i].want);
        clReleaseMemObject(at);
        clReleaseMemObject(out);
        clReleaseSampler(s);
    }
    /* A sampler where the image goes. */
    cl_sampler s = clCreateSampler(c, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &e);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof s, &s), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof img, &img), CL_INVALID_SAMPLER);
    clReleaseSampler(s);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseMemObject(img);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

static const char *VIEW_SRC =
    "__kernel void scale(__read_only image2d_t in, __write_only image2d_t out) {\n"
    "    int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "    write_imagef(out, p, read_imagef(in, p) * 0.5f);\n"
    "}\n";

/* cl_khr_image2d_from_buffer: a 2D image over a buffer at a padded row
 * pitch is that buffer's bytes, for the host and for kernels; a 2D image
 * over another image sees its bytes in the sRGB form of its format. */
TEST(images_over_buffers_and_images_share_their_bytes)
{
    if (!has_images()) { h_skip("no image support"); return; }
    char *ext = h_device_string(h_device(), CL_DEVICE_EXTENSIONS);
    int from_buffer = ext && strstr(ext, "cl_khr_image2d_from_buffer");
    free(ext);
    if (!from_buffer) { h_skip("no cl_khr_image2d_from_buffer"); return; }
    cl_uint pitch_align = 0, base_align = 0;
    CHECK_OK(clGetDeviceInfo(h_device(), CL_DEVICE_IMAGE_PITCH_ALIGNMENT, sizeof pitch_align, &pitch_align, NULL));
    CHECK_OK(clGetDeviceInfo(h_device(), CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, sizeof base_align, &base_align, NULL));
    CHECK(pitch_align >= 1 && base_align >= 1, "alignments %u and %u", pitch_align, base_align);
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_int e;
    enum { W = 5, H = 3 };
    size_t pitch = ((W + pitch_align - 1) / pitch_align + 1) * pitch_align * 4; /* padded */
    size_t bytes = pitch * H;
    unsigned char *host = calloc(bytes, 1);
    for (size_t y = 0; y < H; y++)
        for (size_t x = 0; x < W * 4; x++) host[y * pitch + x] = (unsigned char)(2 * (x + 20 * y));
    cl_mem buf = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, host, &e);
    REQUIRE(buf, "buffer: %s", h_err(e));
    cl_image_format rgba8 = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0);
    d.image_row_pitch = pitch;
    d.mem_object = buf;
    cl_mem in = clCreateImage(c, 0, &rgba8, &d, NULL, &e);
    REQUIRE(in, "image over the buffer: %s", h_err(e));
    cl_mem got_buf = NULL;
    size_t got_pitch = 0;
    CHECK_OK(clGetImageInfo(in, CL_IMAGE_BUFFER, sizeof got_buf, &got_buf, NULL));
    CHECK(got_buf == buf, "CL_IMAGE_BUFFER %p, expected %p", (void *)got_buf, (void *)buf);
    CHECK_OK(clGetImageInfo(in, CL_IMAGE_ROW_PITCH, sizeof got_pitch, &got_pitch, NULL));
    CHECK(got_pitch == pitch, "row pitch %zu, expected %zu", got_pitch, pitch);
    cl_mem_flags flags = 0;
    CHECK_OK(clGetMemObjectInfo(in, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
    CHECK(flags & CL_MEM_READ_WRITE, "flags 0x%lx inherit the buffer's access", (unsigned long)flags);
    /* The host reads the buffer's pixels through the image. */
    unsigned char back[W * H * 4];
    size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
    CHECK_OK(clEnqueueReadImage(q, in, CL_TRUE, origin, region, 0, 0, back, 0, NULL, NULL));
    for (size_t y = 0; y < H; y++)
        for (size_t x = 0; x < W * 4; x++)
            CHECK(back[y * W * 4 + x] == host[y * pitch + x], "byte %zu of row %zu: %u", x, y, back[y * W * 4 + x]);
    /* A kernel halves every channel into a second image over a second
     * buffer; the buffer holds the result at the pitch. */
    cl_mem obuf = clCreateBuffer(c, CL_MEM_READ_WRITE, bytes, NULL, &e);
    d.mem_object = obuf;
    cl_mem out = clCreateImage(c, CL_MEM_WRITE_ONLY, &rgba8, &d, NULL, &e);
    REQUIRE(out, "second image: %s", h_err(e));
    cl_program p = h_build(c, VIEW_SRC, NULL);
    REQUIRE(p, "build failed");
    cl_kernel k = clCreateKernel(p, "scale", &e);
    CHECK_OK(clSetKernelArg(k, 0, sizeof in, &in));
    CHECK_OK(clSetKernelArg(k, 1, sizeof out, &out));
    size_t global[2] = {W, H};
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 2, NULL, global, NULL, 0, NULL, NULL));
    unsigned char *res = calloc(bytes, 1);
    CHECK_OK(clEnqueueReadBuffer(q, obuf, CL_TRUE, 0, bytes, res, 0, NULL, NULL));
    for (size_t y = 0; y < H; y++)
        for (size_t x = 0; x < W * 4; x++) {
            unsigned want = host[y * pitch + x] / 2; /* even: exact */
            CHECK(res[y * pitch + x] == want, "halved byte %zu of row %zu: %u, expected %u", x, y,
                  res[y * pitch + x], want);
        }
    /* An sRGB view of the first image: the same bytes, decoded. */
    cl_image_format srgba = {CL_sRGBA, CL_UNORM_INT8};
    cl_image_desc v = desc_of(CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0);
    v.mem_object = in;
    cl_mem view = clCreateImage(c, CL_MEM_READ_ONLY, &srgba, &v, NULL, &e);
    REQUIRE(view, "sRGB view: %s", h_err(e));
    cl_mem assoc = NULL;
    CHECK_OK(clGetMemObjectInfo(view, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
    CHECK(assoc == in, "the view's associated object %p, expected %p", (void *)assoc, (void *)in);
    unsigned char vb[W * H * 4];
    CHECK_OK(clEnqueueReadImage(q, view, CL_TRUE, origin, region, 0, 0, vb, 0, NULL, NULL));
    CHECK(memcmp(vb, back, sizeof vb) == 0, "the view reads other bytes");
    /* Rules: a format of another data type, other sizes, a pitch that is
     * no multiple of the pixel, too small a buffer, a 3D image. */
    cl_image_format rgba16 = {CL_RGBA, CL_UNORM_INT16};
    CHECK_CREATE_FAILS(clCreateImage(c, 0, &rgba16, &v, NULL, &e), e, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    v.image_width = W - 1;
    CHECK_CREATE_FAILS(clCreateImage(c, 0, &srgba, &v, NULL, &e), e, CL_INVALID_IMAGE_DESCRIPTOR);
    d.mem_object = buf;
    d.image_row_pitch = pitch + 2;
    CHECK_CREATE_FAILS(clCreateImage(c, 0, &rgba8, &d, NULL, &e), e, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    d.image_row_pitch = pitch;
    d.image_height = H + 1;
    CHECK_CREATE_FAILS(clCreateImage(c, 0, &rgba8, &d, NULL, &e), e, CL_INVALID_IMAGE_SIZE);
    d.image_height = H;
    CHECK_CREATE_FAILS(clCreateImage(c, CL_MEM_USE_HOST_PTR, &rgba8, &d, host, &e), e, CL_INVALID_VALUE);
    cl_mem ro = clCreateBuffer(c, CL_MEM_READ_ONLY, bytes, NULL, &e);
    d.mem_object = ro;
    CHECK_CREATE_FAILS(clCreateImage(c, CL_MEM_WRITE_ONLY, &rgba8, &d, NULL, &e), e, CL_INVALID_VALUE);
    cl_image_desc d3 = desc_of(CL_MEM_OBJECT_IMAGE3D, W, H, 1, 0);
    d3.mem_object = buf;
    CHECK_CREATE_FAILS(clCreateImage(c, 0, &rgba8, &d3, NULL, &e), e, CL_INVALID_IMAGE_DESCRIPTOR);
    clReleaseMemObject(ro);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseMemObject(view);
    clReleaseMemObject(out);
    clReleaseMemObject(in);
    clReleaseMemObject(obuf);
    clReleaseMemObject(buf);
    free(res);
    free(host);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

static const char *SRGB_SRC =
    "__kernel void paint(__write_only image2d_t out, float4 color) {\n"
    "    write_imagef(out, (int2)(get_global_id(0), 0), color);\n"
    "}\n";

/* cl_khr_srgb_image_writes: write_imagef encodes linear colour as sRGB
 * (OpenCL C 8.3.4.1), alpha stays linear; reading back decodes it. */
TEST(srgb_writes_encode_linear_colour)
{
    if (!has_images()) { h_skip("no image support"); return; }
    char *ext = h_device_string(h_device(), CL_DEVICE_EXTENSIONS);
    int srgb = ext && strstr(ext, "cl_khr_srgb_image_writes");
    free(ext);
    if (!srgb) { h_skip("no cl_khr_srgb_image_writes"); return; }
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_int e;
    cl_image_format srgba = {CL_sRGBA, CL_UNORM_INT8};
    cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, 3, 1, 0, 0);
    cl_mem img = clCreateImage(c, CL_MEM_READ_WRITE, &srgba, &d, NULL, &e);
    REQUIRE(img, "sRGBA image: %s", h_err(e));
    cl_program p = h_build(c, SRGB_SRC, NULL);
    REQUIRE(p, "build failed");
    cl_kernel k = clCreateKernel(p, "paint", &e);
    /* Linear 0.25 is sRGB 0.5371 (137 of 255), 0.0031308 the end of the
     * linear segment (0.04045: 10), 1.0 stays 255; alpha 0.25 is 64. */
    cl_float4 color = {{0.25f, 0.0031308f, 1.0f, 0.25f}};
    CHECK_OK(clSetKernelArg(k, 0, sizeof img, &img));
    CHECK_OK(clSetKernelArg(k, 1, sizeof color, &color));
    size_t n = 3;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    unsigned char px[12];
    size_t origin[3] = {0, 0, 0}, region[3] = {3, 1, 1};
    CHECK_OK(clEnqueueReadImage(q, img, CL_TRUE, origin, region, 0, 0, px, 0, NULL, NULL));
    unsigned char want[4] = {137, 10, 255, 64};
    for (int i = 0; i < 12; i++)
        CHECK(abs(px[i] - want[i % 4]) <= 1, "byte %d: %u, expected %u", i, px[i], want[i % 4]);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseMemObject(img);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* clSetKernelArg refuses an image made CL_MEM_READ_ONLY for a write_only
 * argument and one made CL_MEM_WRITE_ONLY for a read_only argument
 * (CL_INVALID_ARG_VALUE), and takes a read-write image for either. */
TEST(image_args_match_their_access)
{
    if (!has_images()) { h_skip("no image support"); return; }
    cl_context c = h_context();
    cl_int e;
    cl_image_format f = {CL_RGBA, CL_UNSIGNED_INT8};
    cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, 8, 8, 0, 0);
    cl_mem ro = clCreateImage(c, CL_MEM_READ_ONLY, &f, &d, NULL, &e);
    cl_mem wo = clCreateImage(c, CL_MEM_WRITE_ONLY, &f, &d, NULL, &e);
    cl_mem rw = clCreateImage(c, CL_MEM_READ_WRITE, &f, &d, NULL, &e);
    REQUIRE(ro && wo && rw, "images: %s", h_err(e));
    cl_program p = h_build(c,
                           "kernel void k(read_only image2d_t src, write_only image2d_t dst) {\n"
                           "    int2 xy = (int2)(get_global_id(0), get_global_id(1));\n"
                           "    write_imageui(dst, xy, read_imageui(src, xy));\n"
                           "}\n",
                           NULL);
    REQUIRE(p, "build failed");
    cl_kernel k = clCreateKernel(p, "k", &e);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof wo, &wo), CL_INVALID_ARG_VALUE);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof ro, &ro), CL_INVALID_ARG_VALUE);
    CHECK_OK(clSetKernelArg(k, 0, sizeof ro, &ro));
    CHECK_OK(clSetKernelArg(k, 1, sizeof wo, &wo));
    CHECK_OK(clSetKernelArg(k, 0, sizeof rw, &rw));
    CHECK_OK(clSetKernelArg(k, 1, sizeof rw, &rw));
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseMemObject(ro);
    clReleaseMemObject(wo);
    clReleaseMemObject(rw);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("images", argc, argv);
    H_RUN(every_type_round_trips_with_host_pitches);
    H_RUN(formats_descriptors_and_regions_get_the_specs_codes);
    H_RUN(fill_saturates_and_copies_to_buffers_pack_tight);
    H_RUN(kernels_sample_as_the_spec_computes);
    H_RUN(images_over_buffers_and_images_share_their_bytes);
    H_RUN(srgb_writes_encode_linear_colour);
    H_RUN(image_args_match_their_access);
    return h_done();
}
