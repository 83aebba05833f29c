/* subgroups/extensions: the sub-group extensions' functions
 * (cl_khr_subgroup_shuffle, _shuffle_relative, _rotate, _clustered_reduce,
 * _extended_types)
 * against a host reference built from what each work-item reports of its
 * sub-group (id, local id, size), with whole and partial sub-groups. A
 * device without them skips. */
#include "harness.h"
#include <stdlib.h>

#define OUTS 12

static const char *SRC =
    "kernel void k(global const int *in, global int *out) {\n"
    "    size_t g = get_global_id(0);\n"
    "    int x = in[g];\n"
    "    uint l = get_sub_group_local_id(), n = get_sub_group_size();\n"
    "    global int *o = out + 12 * g;\n"
    "    o[0] = sub_group_shuffle(x, (l * 3) % n);\n"
    "    o[1] = sub_group_shuffle_xor(x, 1u);\n"
    "    o[2] = sub_group_shuffle_up(x, 1u);\n"
    "    o[3] = sub_group_shuffle_down(x, 2u);\n"
    "    o[4] = sub_group_rotate(x, 3);\n"
    "    o[5] = sub_group_clustered_rotate(x, -1, 4u);\n"
    "    o[6] = sub_group_clustered_reduce_add(x, 4u);\n"
    "    o[7] = sub_group_clustered_reduce_max(x, 2u);\n"
    "    o[8] = sub_group_clustered_reduce_logical_xor(x & 1, 4u);\n"
    "    o[9] = (int)sub_group_shuffle((char)x, n - 1 - l);\n"
    "    o[10] = (int)(l | n << 8 | get_sub_group_id() << 16);\n"
    "    o[11] = (int)sub_group_clustered_reduce_min((float)x, 8u);\n"
    "}\n";

/* Runs kernel k(in, out) of `src` over `global` work-items in groups of
 * `local`, in[i] a fixed pattern; returns out (OUTS ints a work-item) and
 * in, both malloc'd, or NULL. */
static int *run_outs(const char *src, size_t global, size_t local, int **in_ret)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, src, "-cl-std=CL3.0");
    cl_int e;
    cl_kernel k = p ? clCreateKernel(p, "k", &e) : NULL;
    int *in = malloc(global * sizeof(int)), *out = malloc(global * OUTS * sizeof(int));
    for (size_t i = 0; i < global; i++) in[i] = (int)((i * 7919u) % 1000) - 500;
    cl_mem mi = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, global * sizeof(int), in, &e);
    cl_mem mo = clCreateBuffer(c, CL_MEM_WRITE_ONLY, global * OUTS * sizeof(int), NULL, &e);
    int ok = k != NULL;
    CHECK(ok, "build or clCreateKernel");
    if (ok) {
        clSetKernelArg(k, 0, sizeof mi, &mi);
        clSetKernelArg(k, 1, sizeof mo, &mo);
        ok = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL) ==
                 CL_SUCCESS &&
             clEnqueueReadBuffer(q, mo, CL_TRUE, 0, global * OUTS * sizeof(int), out, 0, NULL,
                                 NULL) == CL_SUCCESS;
        CHECK(ok, "launch or read");
    }
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    if (k) clReleaseKernel(k);
    if (p) clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
    if (!ok) {
        free(in);
        free(out);
        return NULL;
    }
    *in_ret = in;
    return out;
}

/* member[s * 64 + l]: the global id of sub-group s's work-item l in the
 * group at `base`, from the ids (l | n << 8 | s << 16) the kernel wrote at
 * out[OUTS * i + at]. 0 on an id out of range. */
static int map_members(const int *out, size_t base, size_t local, int at, size_t *member)
{
    for (size_t i = base; i < base + local; i++) {
        int id = out[OUTS * i + at];
        size_t l = id & 0xff, sg = (size_t)id >> 16;
        if (l >= 64 || sg >= 64) {
            CHECK(0, "sub-group %zu local id %zu", sg, l);
            return 0;
        }
        member[sg * 64 + l] = i;
    }
    return 1;
}

static void check_range(size_t global, size_t local)
{
    int *in, *out = run_outs(SRC, global, local, &in);
    if (!out) return;
    for (size_t base = 0; base < global && !h_failed(); base += local) {
        size_t member[64 * 64];
        if (!map_members(out, base, local, 10, member)) break;
        for (size_t i = base; i < base + local && !h_failed(); i++) {
            int *o = out + OUTS * i, id = o[10];
            size_t l = id & 0xff, n = (id >> 8) & 0xff, sg = (size_t)id >> 16;
            const size_t *m = member + sg * 64;
#define AT(j) in[m[(j)]]
            CHECK(o[0] == AT((l * 3) % n), "%zu: shuffle %d", i, o[0]);
            if ((l ^ 1) < n) CHECK(o[1] == AT(l ^ 1), "%zu: shuffle_xor %d", i, o[1]);
            if (l >= 1) CHECK(o[2] == AT(l - 1), "%zu: shuffle_up %d", i, o[2]);
            if (l + 2 < n) CHECK(o[3] == AT(l + 2), "%zu: shuffle_down %d", i, o[3]);
            CHECK(o[4] == AT((l + 3) % n), "%zu: rotate %d", i, o[4]);
            size_t start4 = l - l % 4, start2 = l - l % 2, start8 = l - l % 8;
            if (start4 + 4 <= n) {
                CHECK(o[5] == AT(start4 + (l % 4 + 3) % 4), "%zu: clustered_rotate %d", i, o[5]);
                int sum = 0, parity = 0;
                for (size_t j = start4; j < start4 + 4; j++) {
                    sum += AT(j);
                    parity ^= AT(j) & 1;
                }
                CHECK(o[6] == sum, "%zu: clustered add %d, not %d", i, o[6], sum);
                CHECK(o[8] == parity, "%zu: clustered logical_xor %d", i, o[8]);
            }
            if (start2 + 2 <= n) {
                int mx = AT(start2) > AT(start2 + 1) ? AT(start2) : AT(start2 + 1);
                CHECK(o[7] == mx, "%zu: clustered max %d, not %d", i, o[7], mx);
            }
            CHECK(o[9] == (signed char)AT(n - 1 - l), "%zu: char shuffle %d", i, o[9]);
            if (start8 + 8 <= n) {
                int mn = AT(start8);
                for (size_t j = start8; j < start8 + 8; j++) mn = AT(j) < mn ? AT(j) : mn;
                CHECK(o[11] == mn, "%zu: clustered float min %d, not %d", i, o[11], mn);
            }
#undef AT
        }
    }
    free(in);
    free(out);
}

static int has_ext(const char *name)
{
    char *ext = h_device_string(h_device(), CL_DEVICE_EXTENSIONS);
    int yes = ext && strstr(ext, name);
    free(ext);
    return yes;
}

static int has_all(void)
{
    char *ext = h_device_string(h_device(), CL_DEVICE_EXTENSIONS);
    int yes = ext && strstr(ext, "cl_khr_subgroup_shuffle ") && strstr(ext, "cl_khr_subgroup_shuffle_relative") &&
              strstr(ext, "cl_khr_subgroup_rotate") && strstr(ext, "cl_khr_subgroup_clustered_reduce");
    free(ext);
    return yes;
}

TEST(whole_sub_groups)
{
    if (!has_all()) { h_skip("no sub-group shuffle/rotate/clustered_reduce extensions"); return; }
    check_range(256, 64);
}

TEST(partial_sub_groups)
{
    if (!has_all()) { h_skip("no sub-group shuffle/rotate/clustered_reduce extensions"); return; }
    check_range(60, 20);
}

/* cl_khr_subgroup_extended_types: 8- and 16-bit reductions, scans and
 * broadcasts, and broadcasts of vectors, against the host's arithmetic on
 * the sub-groups each work-item reports. */
static const char *EXT_SRC =
    "kernel void k(global const int *in, global int *out) {\n"
    "    size_t g = get_global_id(0);\n"
    "    int x = in[g];\n"
    "    uint l = get_sub_group_local_id(), n = get_sub_group_size();\n"
    "    global int *o = out + 12 * g;\n"
    "    o[0] = sub_group_reduce_add((char)x);\n"
    "    o[1] = sub_group_reduce_min((uchar)x);\n"
    "    o[2] = sub_group_reduce_max((short)(x * 37));\n"
    "    o[3] = sub_group_scan_inclusive_add((ushort)(x * 101));\n"
    "    o[4] = sub_group_scan_exclusive_max((char)x);\n"
    "    o[5] = sub_group_scan_exclusive_min((ushort)x);\n"
    "    o[6] = sub_group_broadcast((short)x, n - 1);\n"
    "    int3 v = sub_group_broadcast((int3)(x, x + 1, x * 2), 0u);\n"
    "    o[7] = v.y;\n"
    "    o[8] = v.z;\n"
    "    double4 d = sub_group_broadcast((double4)(x, 2 * x, 3 * x, 4 * x), n / 2);\n"
    "    char16 c = sub_group_broadcast((char16)((char)x), 1u % n);\n"
    "    o[9] = (int)d.w;\n"
    "    o[10] = c.sf;\n"
    "    o[11] = (int)(l | n << 8 | get_sub_group_id() << 16);\n"
    "}\n";

static void check_extended_types(size_t global, size_t local)
{
    int *in, *out = run_outs(EXT_SRC, global, local, &in);
    if (!out) return;
    for (size_t base = 0; base < global && !h_failed(); base += local) {
        size_t member[64 * 64];
        if (!map_members(out, base, local, 11, member)) break;
        for (size_t i = base; i < base + local && !h_failed(); i++) {
            int *o = out + OUTS * i, id = o[11];
            size_t l = id & 0xff, n = (id >> 8) & 0xff, sg = (size_t)id >> 16;
            const size_t *m = member + sg * 64;
            signed char sum8 = 0, exmax8 = -128;
            unsigned char min8 = 255;
            short max16 = -32768;
            unsigned short incl16 = 0, exmin16 = 65535;
            for (size_t j = 0; j < n; j++) {
                int y = in[m[j]];
                sum8 = (signed char)(sum8 + (signed char)y);
                if ((unsigned char)y < min8) min8 = (unsigned char)y;
                if ((short)(y * 37) > max16) max16 = (short)(y * 37);
                if (j <= l) incl16 = (unsigned short)(incl16 + (unsigned short)(y * 101));
                if (j < l && (signed char)y > exmax8) exmax8 = (signed char)y;
                if (j < l && (unsigned short)y < exmin16) exmin16 = (unsigned short)y;
            }
            CHECK(o[0] == sum8, "%zu: char reduce_add %d, not %d", i, o[0], sum8);
            CHECK(o[1] == min8, "%zu: uchar reduce_min %d, not %d", i, o[1], min8);
            CHECK(o[2] == max16, "%zu: short reduce_max %d, not %d", i, o[2], max16);
            CHECK(o[3] == incl16, "%zu: ushort scan_inclusive_add %d, not %d", i, o[3], incl16);
            CHECK(o[4] == exmax8, "%zu: char scan_exclusive_max %d, not %d", i, o[4], exmax8);
            CHECK(o[5] == exmin16, "%zu: ushort scan_exclusive_min %d, not %d", i, o[5], exmin16);
            CHECK(o[6] == (short)in[m[n - 1]], "%zu: short broadcast %d", i, o[6]);
            CHECK(o[7] == in[m[0]] + 1 && o[8] == in[m[0]] * 2, "%zu: int3 broadcast %d %d", i,
                  o[7], o[8]);
            CHECK(o[9] == 4 * in[m[n / 2]], "%zu: double4 broadcast %d", i, o[9]);
            CHECK(o[10] == (signed char)in[m[1 % n]], "%zu: char16 broadcast %d", i, o[10]);
        }
    }
    free(in);
    free(out);
}

TEST(extended_types)
{
    if (!has_ext("cl_khr_subgroup_extended_types")) {
        h_skip("no cl_khr_subgroup_extended_types");
        return;
    }
    check_extended_types(256, 64);
    check_extended_types(60, 30); /* partial sub-groups: 8, 8, 8, 6 */
}

/* cl_intel_subgroups' shuffles (which DPC++'s SPIR-V modules call too:
 * llvm-spirv's names for OpSubgroupShuffle*INTEL). */
TEST(intel_shuffles)
{
    if (!has_ext("cl_intel_subgroups")) {
        h_skip("no cl_intel_subgroups");
        return;
    }
    const char *src =
        "kernel void k(global const int *in, global long *out) {\n"
        "    size_t g = get_global_id(0);\n"
        "    int x = in[g];\n"
        "    uint l = get_sub_group_local_id();\n"
        "    global long *o = out + 6 * g;\n"
        "    o[0] = intel_sub_group_shuffle(x, get_sub_group_size() - 1u - l);\n"
        "    o[1] = intel_sub_group_shuffle_xor(x, 2u);\n"
        "    o[2] = intel_sub_group_shuffle_up((long)x, (long)x * 1000, 3u);\n"
        "    o[3] = intel_sub_group_shuffle_down((long)x * 1000, (long)x, 2u);\n"
        "    float4 v = intel_sub_group_shuffle((float4)(x, x + 1, x + 2, x + 3), 1u);\n"
        "    o[4] = (long)(v.s0 + v.s3);\n"
        "    o[5] = (long)get_sub_group_size();\n"
        "}\n";
    enum { G = 64, L = 32 };
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, src, "-cl-std=CL3.0");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "k", &e);
    int in[G];
    cl_long out[6 * G];
    for (int i = 0; i < G; i++) in[i] = 10 + i * 3;
    cl_mem mi = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof in, in, &e);
    cl_mem mo = clCreateBuffer(c, CL_MEM_WRITE_ONLY, sizeof out, NULL, &e);
    clSetKernelArg(k, 0, sizeof mi, &mi);
    clSetKernelArg(k, 1, sizeof mo, &mo);
    size_t g = G, l = L;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < G && !h_failed(); i++) {
        int n = (int)out[6 * i + 5], lid = (i % L) % n, first = i - lid;
        REQUIRE(n >= 4 && L % n == 0, "sub-groups of %d", n);
        CHECK(out[6 * i] == in[first + n - 1 - lid], "%d: shuffle %lld", i, (long long)out[6 * i]);
        CHECK(out[6 * i + 1] == in[first + (lid ^ 2)], "%d: xor %lld", i, (long long)out[6 * i + 1]);
        long long up = lid >= 3 ? (long long)in[first + lid - 3] * 1000 : in[first + lid - 3 + n];
        CHECK(out[6 * i + 2] == up, "%d: up %lld, not %lld", i, (long long)out[6 * i + 2], up);
        long long down = lid + 2 < n ? (long long)in[first + lid + 2] * 1000 : in[first + lid + 2 - n];
        CHECK(out[6 * i + 3] == down, "%d: down %lld, not %lld", i, (long long)out[6 * i + 3], down);
        CHECK(out[6 * i + 4] == 2LL * in[first + 1] + 3, "%d: float4 %lld", i, (long long)out[6 * i + 4]);
    }
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* A 2D image of w x h pixels of format `fmt`: read-only from `pixels`, or,
 * without them, read-write and filled with zeros. */
static cl_mem image2d(cl_context c, cl_command_queue q, cl_image_format fmt, size_t w, size_t h,
                      void *pixels)
{
    cl_image_desc desc = {0};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = w;
    desc.image_height = h;
    cl_int e;
    cl_mem_flags flags = pixels ? CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR : CL_MEM_READ_WRITE;
    cl_mem image = clCreateImage(c, flags, &fmt, &desc, pixels, &e);
    CHECK_OK(e);
    if (image && !pixels) {
        cl_uint zero[4] = {0};
        size_t origin[3] = {0}, region[3] = {w, h, 1};
        CHECK_OK(clEnqueueFillImage(q, image, zero, origin, region, 0, NULL, NULL));
    }
    return image;
}

/* cl_intel_subgroups' block reads and writes: of a buffer
 * (work-item l element l, component i i maximum sub-group sizes further)
 * and of a 2D image (work-item l the uint at byte x + 4 l, component i
 * from row y + i; outside the image 0). */
static const char *BLOCK_SRC =
    "kernel void k(global const uint *in, global uint *out, global uint *wr) {\n"
    "    size_t g = get_global_id(0);\n"
    "    uint l = get_sub_group_local_id(), m = get_max_sub_group_size();\n"
    "    size_t block = get_group_id(0) * get_num_sub_groups() + get_sub_group_id();\n"
    "    const global uint *p = in + block * m * 8;\n"
    "    uint a = intel_sub_group_block_read(p);\n"
    "    uint2 b = intel_sub_group_block_read2(p);\n"
    "    uint4 c = intel_sub_group_block_read4(p);\n"
    "    uint8 d = intel_sub_group_block_read8(p);\n"
    "    global uint *o = out + 8 * g;\n"
    "    o[0] = a; o[1] = b.y; o[2] = c.w; o[3] = d.s7; o[4] = l; o[5] = (uint)block; o[6] = m;\n"
    "    intel_sub_group_block_write4(wr + block * m * 4, (uint4)(g, g + 1000, g + 2000, g + 3000));\n"
    "}\n"
    "kernel void ki(read_only image2d_t src, write_only image2d_t dst, global uint *out) {\n"
    "    size_t g = get_global_id(0);\n"
    "    uint s = get_sub_group_id(), l = get_sub_group_local_id();\n"
    "    uint4 v = intel_sub_group_block_read4(src, (int2)(s * 32, 2));\n"
    "    intel_sub_group_block_write2(dst, (int2)(s * 32, 5), v.xy);\n"
    "    global uint *o = out + 8 * g;\n"
    "    o[0] = v.x; o[1] = v.y; o[2] = v.z; o[3] = v.w;\n"
    "    o[4] = intel_sub_group_block_read(src, (int2)(64 * 4 - 8, 0));\n"
    "    o[5] = l; o[6] = s;\n"
    "}\n";

TEST(intel_block_io)
{
    if (!has_ext("cl_intel_subgroups")) {
        h_skip("no cl_intel_subgroups");
        return;
    }
    enum { G = 128, L = 64, W = 64, H = 16 };
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, BLOCK_SRC, "-cl-std=CL3.0");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "k", &e);
    REQUIRE_OK(e);
    cl_uint *in = malloc(G * 8 * sizeof(cl_uint)), *out = malloc(G * 8 * sizeof(cl_uint)),
            *wr = malloc(G * 4 * sizeof(cl_uint));
    for (cl_uint i = 0; i < G * 8; i++) in[i] = i * 2654435761u;
    cl_mem mi = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, G * 8 * sizeof(cl_uint), in, &e);
    cl_mem mo = clCreateBuffer(c, CL_MEM_READ_WRITE, G * 8 * sizeof(cl_uint), NULL, &e);
    cl_mem mw = clCreateBuffer(c, CL_MEM_READ_WRITE, G * 4 * sizeof(cl_uint), NULL, &e);
    clSetKernelArg(k, 0, sizeof mi, &mi);
    clSetKernelArg(k, 1, sizeof mo, &mo);
    clSetKernelArg(k, 2, sizeof mw, &mw);
    size_t g = G, l = L;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, mo, CL_TRUE, 0, G * 8 * sizeof(cl_uint), out, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, mw, CL_TRUE, 0, G * 4 * sizeof(cl_uint), wr, 0, NULL, NULL));
    for (cl_uint i = 0; i < G && !h_failed(); i++) {
        cl_uint *o = out + 8 * i, li = o[4], block = o[5], m = o[6];
        const cl_uint *b = in + block * m * 8;
        CHECK(o[0] == b[li] && o[1] == b[li + m] && o[2] == b[li + 3 * m] && o[3] == b[li + 7 * m],
              "work-item %u: buffer block reads %u %u %u %u", i, o[0], o[1], o[2], o[3]);
        for (cl_uint j = 0; j < 4; j++)
            CHECK(wr[block * m * 4 + li + j * m] == i + 1000 * j, "work-item %u: block write %u",
                  i, j);
    }
    /* Images: RGBA UNSIGNED_INT8, a uint a pixel. */
    cl_image_format fmt = {CL_RGBA, CL_UNSIGNED_INT8};
    cl_uint *pix = malloc(W * H * sizeof(cl_uint)), *back = malloc(W * H * sizeof(cl_uint));
    for (cl_uint i = 0; i < W * H; i++) pix[i] = i * 40503u + 7;
    cl_mem src = image2d(c, q, fmt, W, H, pix), dst = image2d(c, q, fmt, W, H, NULL);
    REQUIRE(src && dst, "images");
    size_t origin[3] = {0}, region[3] = {W, H, 1};
    cl_kernel ki = clCreateKernel(p, "ki", &e);
    REQUIRE_OK(e);
    clSetKernelArg(ki, 0, sizeof src, &src);
    clSetKernelArg(ki, 1, sizeof dst, &dst);
    clSetKernelArg(ki, 2, sizeof mo, &mo);
    size_t gi = 16, li2 = 16;
    CHECK_OK(clEnqueueNDRangeKernel(q, ki, 1, NULL, &gi, &li2, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, mo, CL_TRUE, 0, 16 * 8 * sizeof(cl_uint), out, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadImage(q, dst, CL_TRUE, origin, region, 0, 0, back, 0, NULL, NULL));
    for (cl_uint i = 0; i < 16 && !h_failed(); i++) {
        cl_uint *o = out + 8 * i, li = o[5], x = o[6] * 8 + li;
        for (cl_uint j = 0; j < 4; j++)
            CHECK(o[j] == pix[(2 + j) * W + x], "work-item %u: image block read row %u: %u", i,
                  2 + j, o[j]);
        cl_uint edge = li < 2 ? pix[W - 2 + li] : 0;
        CHECK(o[4] == edge, "work-item %u: read at the image's edge %u, not %u", i, o[4], edge);
        for (cl_uint j = 0; j < 2; j++)
            CHECK(back[(5 + j) * W + x] == pix[(2 + j) * W + x], "work-item %u: image block write",
                  i);
    }
    CHECK(back[4 * W] == 0 && back[7 * W + 20] == 0, "rows not written were written");
    free(pix);
    free(back);
    free(in);
    free(out);
    free(wr);
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    clReleaseMemObject(mw);
    clReleaseKernel(k);
    clReleaseKernel(ki);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* Runs kernel k of `src` (-cl-std=CL3.0) over one group of G work-items
 * with (in, out, wr, src image, dst image): `pix` fills the W x H source
 * image of `fmt`; `back` gets the destination image. 0 on success. */
static int run_block_kernel(const char *src, const void *in, size_t in_size, void *out,
                            size_t out_size, void *wr, size_t wr_size, cl_image_format fmt,
                            const void *pix, void *back)
{
    enum { G = 32, W = 32, H = 8 };
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, src, "-cl-std=CL3.0");
    if (!p) return -1;
    cl_int e;
    cl_kernel k = clCreateKernel(p, "k", &e);
    cl_mem mi = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, in_size, (void *)in, &e);
    cl_mem mo = clCreateBuffer(c, CL_MEM_WRITE_ONLY, out_size, NULL, &e);
    cl_mem mw = clCreateBuffer(c, CL_MEM_WRITE_ONLY, wr_size, NULL, &e);
    cl_mem si = image2d(c, q, fmt, W, H, (void *)pix), di = image2d(c, q, fmt, W, H, NULL);
    int rc = -1;
    if (k && si && di) {
        size_t origin[3] = {0}, region[3] = {W, H, 1};
        clSetKernelArg(k, 0, sizeof mi, &mi);
        clSetKernelArg(k, 1, sizeof mo, &mo);
        clSetKernelArg(k, 2, sizeof mw, &mw);
        clSetKernelArg(k, 3, sizeof si, &si);
        clSetKernelArg(k, 4, sizeof di, &di);
        size_t g = G, l = G;
        rc = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL) == CL_SUCCESS &&
                     clEnqueueReadBuffer(q, mo, CL_TRUE, 0, out_size, out, 0, NULL, NULL) == CL_SUCCESS &&
                     clEnqueueReadBuffer(q, mw, CL_TRUE, 0, wr_size, wr, 0, NULL, NULL) == CL_SUCCESS &&
                     clEnqueueReadImage(q, di, CL_TRUE, origin, region, 0, 0, back, 0, NULL, NULL) ==
                         CL_SUCCESS
                 ? 0
                 : -1;
    }
    if (si) clReleaseMemObject(si);
    if (di) clReleaseMemObject(di);
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    clReleaseMemObject(mw);
    if (k) clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
    return rc;
}

/* cl_intel_subgroups_short: ushort block reads and writes of a buffer and
 * of a 2D image (2 bytes a work-item), the intel_ 16-bit reduction and
 * broadcast, a _ui block read. */
static const char *SHORT_SRC =
    "kernel void k(global const ushort *in, global int *out, global ushort *wr,\n"
    "              read_only image2d_t src, write_only image2d_t dst) {\n"
    "    size_t g = get_global_id(0);\n"
    "    uint l = get_sub_group_local_id(), m = get_max_sub_group_size(), s = get_sub_group_id();\n"
    "    const global ushort *p = in + s * m * 2;\n"
    "    ushort2 b = intel_sub_group_block_read_us2(p);\n"
    "    intel_sub_group_block_write_us2(wr + s * m * 2, (ushort2)(g, g + 100));\n"
    "    ushort2 v = intel_sub_group_block_read_us2(src, (int2)(s * m * 2, 1));\n"
    "    intel_sub_group_block_write_us(dst, (int2)(s * m * 2, 3), v.y);\n"
    "    global int *o = out + 8 * g;\n"
    "    o[0] = b.x; o[1] = b.y; o[2] = v.x; o[3] = v.y;\n"
    "    o[4] = intel_sub_group_reduce_add((short)b.x);\n"
    "    o[5] = intel_sub_group_broadcast((ushort2)(g, g * 2), 1u).y;\n"
    "    o[6] = (int)intel_sub_group_block_read_ui((const global uint *)p);\n"
    "    o[7] = (int)(l | s << 8 | m << 16);\n"
    "}\n";

TEST(intel_subgroups_short)
{
    if (!has_ext("cl_intel_subgroups_short")) {
        h_skip("no cl_intel_subgroups_short");
        return;
    }
    enum { G = 32, W = 32, H = 8 };
    cl_ushort in[2 * G], wr[2 * G], pix[W * H], back[W * H];
    cl_int out[8 * G];
    for (int i = 0; i < 2 * G; i++) in[i] = (cl_ushort)(i * 977 + 3);
    for (int i = 0; i < W * H; i++) pix[i] = (cl_ushort)(i * 613 + 11);
    cl_image_format fmt = {CL_R, CL_UNSIGNED_INT16};
    REQUIRE(run_block_kernel(SHORT_SRC, in, sizeof in, out, sizeof out, wr, sizeof wr, fmt, pix,
                             back) == 0,
            "the kernel did not build or run");
    for (int i = 0; i < G && !h_failed(); i++) {
        cl_int *o = out + 8 * i;
        int li = o[7] & 0xff, s = (o[7] >> 8) & 0xff, m = o[7] >> 16;
        const cl_ushort *b = in + s * m * 2;
        CHECK(o[0] == b[li] && o[1] == b[li + m], "%d: ushort block read %d %d", i, o[0], o[1]);
        CHECK(wr[s * m * 2 + li] == i && wr[s * m * 2 + li + m] == i + 100, "%d: block write", i);
        int x = s * m + li;
        CHECK(o[2] == pix[W + x] && o[3] == pix[2 * W + x], "%d: image block read %d %d", i,
              o[2], o[3]);
        CHECK(back[3 * W + x] == pix[2 * W + x], "%d: image block write", i);
        int sum = 0;
        for (int j = 0; j < m; j++) sum += (short)b[j];
        CHECK(o[4] == (short)sum, "%d: intel_sub_group_reduce_add %d, not %d", i, o[4], (short)sum);
        CHECK(o[5] == (cl_ushort)((s * m + 1) * 2), "%d: intel_sub_group_broadcast %d", i, o[5]);
        const cl_uint *u = (const cl_uint *)b;
        CHECK((cl_uint)o[6] == u[li], "%d: _ui block read", i);
    }
}

/* cl_intel_subgroups_char: uchar block reads and writes of a buffer (up
 * to 16 rows) and of a 2D image (a byte a work-item), the intel_ 8-bit
 * reduction, scan and broadcast. */
static const char *CHAR_SRC =
    "kernel void k(global const uchar *in, global int *out, global uchar *wr,\n"
    "              read_only image2d_t src, write_only image2d_t dst) {\n"
    "    size_t g = get_global_id(0);\n"
    "    uint l = get_sub_group_local_id(), m = get_max_sub_group_size(), s = get_sub_group_id();\n"
    "    const global uchar *p = in + s * m * 16;\n"
    "    uchar16 b = intel_sub_group_block_read_uc16(p);\n"
    "    intel_sub_group_block_write_uc2(wr + s * m * 2, (uchar2)(g, g + 100));\n"
    "    uchar2 v = intel_sub_group_block_read_uc2(src, (int2)(s * m, 1));\n"
    "    intel_sub_group_block_write_uc(dst, (int2)(s * m, 3), v.y);\n"
    "    global int *o = out + 8 * g;\n"
    "    o[0] = b.s0; o[1] = b.sf; o[2] = v.x; o[3] = v.y;\n"
    "    o[4] = intel_sub_group_reduce_max((char)b.s0);\n"
    "    o[5] = intel_sub_group_broadcast((uchar2)(g, g * 2), 1u).y;\n"
    "    o[6] = intel_sub_group_scan_inclusive_add((uchar)1);\n"
    "    o[7] = (int)(l | s << 8 | m << 16);\n"
    "}\n";

TEST(intel_subgroups_char)
{
    if (!has_ext("cl_intel_subgroups_char")) {
        h_skip("no cl_intel_subgroups_char");
        return;
    }
    enum { G = 32, W = 32, H = 8 };
    cl_uchar in[16 * G], wr[2 * G], pix[W * H], back[W * H];
    cl_int out[8 * G];
    for (int i = 0; i < 16 * G; i++) in[i] = (cl_uchar)(i * 37 + 3);
    for (int i = 0; i < W * H; i++) pix[i] = (cl_uchar)(i * 61 + 11);
    cl_image_format fmt = {CL_R, CL_UNSIGNED_INT8};
    REQUIRE(run_block_kernel(CHAR_SRC, in, sizeof in, out, sizeof out, wr, sizeof wr, fmt, pix,
                             back) == 0,
            "the kernel did not build or run");
    for (int i = 0; i < G && !h_failed(); i++) {
        cl_int *o = out + 8 * i;
        int li = o[7] & 0xff, s = (o[7] >> 8) & 0xff, m = o[7] >> 16;
        const cl_uchar *b = in + s * m * 16;
        CHECK(o[0] == b[li] && o[1] == b[li + 15 * m], "%d: uchar16 block read %d %d", i, o[0], o[1]);
        CHECK(wr[s * m * 2 + li] == (cl_uchar)i && wr[s * m * 2 + li + m] == (cl_uchar)(i + 100),
              "%d: block write", i);
        int x = s * m + li;
        CHECK(o[2] == pix[W + x] && o[3] == pix[2 * W + x], "%d: image block read %d %d", i, o[2], o[3]);
        CHECK(back[3 * W + x] == pix[2 * W + x], "%d: image block write", i);
        int max = -128;
        for (int j = 0; j < m; j++)
            if ((cl_char)b[j] > max) max = (cl_char)b[j];
        CHECK(o[4] == max, "%d: intel_sub_group_reduce_max %d, not %d", i, o[4], max);
        CHECK(o[5] == (cl_uchar)((s * m + 1) * 2), "%d: intel_sub_group_broadcast %d", i, o[5]);
        CHECK(o[6] == li + 1, "%d: intel_sub_group_scan_inclusive_add %d", i, o[6]);
    }
}

/* cl_intel_subgroups_long: ulong block reads and writes of a buffer and
 * of a 2D image (8 bytes a work-item). */
static const char *LONG_SRC =
    "kernel void k(global const ulong *in, global ulong *out, global ulong *wr,\n"
    "              read_only image2d_t src, write_only image2d_t dst) {\n"
    "    size_t g = get_global_id(0);\n"
    "    uint l = get_sub_group_local_id(), m = get_max_sub_group_size(), s = get_sub_group_id();\n"
    "    ulong4 b = intel_sub_group_block_read_ul4(in + s * m * 4);\n"
    "    intel_sub_group_block_write_ul2(wr + s * m * 2, (ulong2)(g, g << 40));\n"
    "    ulong2 v = intel_sub_group_block_read_ul2(src, (int2)(s * m * 8, 1));\n"
    "    intel_sub_group_block_write_ul(dst, (int2)(s * m * 8, 3), v.y);\n"
    "    global ulong *o = out + 4 * g;\n"
    "    o[0] = b.x; o[1] = b.w; o[2] = v.x; o[3] = (ulong)(l | s << 8 | m << 16);\n"
    "}\n";

TEST(intel_subgroups_long)
{
    if (!has_ext("cl_intel_subgroups_long")) {
        h_skip("no cl_intel_subgroups_long");
        return;
    }
    enum { G = 32, W = 32, H = 8 };
    cl_ulong in[4 * G], wr[2 * G], pix[W * H], back[W * H], out[4 * G];
    for (int i = 0; i < 4 * G; i++) in[i] = 0x0123456789abcdefull * (cl_ulong)(i + 1);
    for (int i = 0; i < W * H; i++) pix[i] = 0xfedcba9876543210ull ^ ((cl_ulong)i << 33 | (cl_ulong)i);
    cl_image_format fmt = {CL_RG, CL_UNSIGNED_INT32};
    REQUIRE(run_block_kernel(LONG_SRC, in, sizeof in, out, sizeof out, wr, sizeof wr, fmt, pix,
                             back) == 0,
            "the kernel did not build or run");
    for (int i = 0; i < G && !h_failed(); i++) {
        cl_ulong *o = out + 4 * i;
        int li = (int)(o[3] & 0xff), s = (int)(o[3] >> 8 & 0xff), m = (int)(o[3] >> 16);
        const cl_ulong *b = in + s * m * 4;
        CHECK(o[0] == b[li] && o[1] == b[li + 3 * m], "%d: ulong4 block read", i);
        CHECK(wr[s * m * 2 + li] == (cl_ulong)i && wr[s * m * 2 + li + m] == (cl_ulong)i << 40,
              "%d: block write", i);
        int x = s * m + li;
        CHECK(o[2] == pix[W + x], "%d: image block read %#llx", i, (unsigned long long)o[2]);
        CHECK(back[3 * W + x] == pix[2 * W + x], "%d: image block write", i);
    }
}

/* cl_intel_required_subgroup_size: the device's sizes; a kernel requiring
 * one of them builds, reports it (CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL)
 * and runs with sub-groups of that size; one requiring another size does
 * not build, and says why in its log. */
TEST(required_size)
{
    char *ext = h_device_string(h_device(), CL_DEVICE_EXTENSIONS);
    int yes = ext && strstr(ext, "cl_intel_required_subgroup_size");
    free(ext);
    if (!yes) { h_skip("no cl_intel_required_subgroup_size"); return; }
    cl_device_id d = h_device();
    size_t sizes[16], bytes = 0;
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof sizes, sizes, &bytes));
    REQUIRE(bytes >= sizeof(size_t) && bytes % sizeof(size_t) == 0, "%zu bytes of sizes", bytes);
    size_t n = sizes[0], other = 0;
    for (size_t s = 1; s <= 64 && !other; s *= 2) {
        int listed = 0;
        for (size_t i = 0; i < bytes / sizeof(size_t); i++) listed |= sizes[i] == s;
        if (!listed) other = s;
    }
    char src[1024];
    snprintf(src, sizeof src,
             "#ifndef cl_intel_required_subgroup_size\n"
             "#error no cl_intel_required_subgroup_size macro\n"
             "#endif\n"
             "__attribute__((intel_reqd_sub_group_size(%zu)))\n"
             "kernel void k(global uint *out) {\n"
             "    size_t g = get_global_id(0);\n"
             "    out[2 * g] = get_max_sub_group_size();\n"
             "    out[2 * g + 1] = sub_group_reduce_add(1u);\n"
             "}\n", n);
    enum { G = 64 };
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, src, "-cl-std=CL3.0");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "k", &e);
    size_t compiled = 0;
    CHECK_OK(clGetKernelSubGroupInfo(k, d, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0, NULL,
                                     sizeof compiled, &compiled, NULL));
    CHECK(compiled == n, "CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL %zu, not %zu", compiled, n);
    cl_uint out[2 * G];
    cl_mem mo = clCreateBuffer(c, CL_MEM_WRITE_ONLY, sizeof out, NULL, &e);
    clSetKernelArg(k, 0, sizeof mo, &mo);
    size_t g = G, l = 32;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < G && !h_failed(); i++) {
        CHECK(out[2 * i] == n, "%d: max sub-group size %u, not %zu", i, out[2 * i], n);
        CHECK(out[2 * i + 1] == n, "%d: sub-group of %u, not %zu", i, out[2 * i + 1], n);
    }
    clReleaseMemObject(mo);
    clReleaseKernel(k);
    clReleaseProgram(p);
    /* A size the device does not list (PoCL lists every power of two). */
    if (!other) {
        clReleaseCommandQueue(q);
        clReleaseContext(c);
        return;
    }
    snprintf(src, sizeof src,
             "__attribute__((intel_reqd_sub_group_size(%zu)))\n"
             "kernel void k(global uint *out) { out[0] = get_sub_group_size(); }\n", other);
    const char *text = src;
    p = clCreateProgramWithSource(c, 1, &text, NULL, &e);
    CHECK_OK(e);
    e = clBuildProgram(p, 1, &d, "-cl-std=CL3.0", NULL, NULL);
    CHECK(e == CL_BUILD_PROGRAM_FAILURE, "size %zu: clBuildProgram %s", other, h_err(e));
    char log[4096] = {0};
    clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    CHECK(strstr(log, "intel_reqd_sub_group_size") != NULL, "log: %s", log);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("subgroups", argc, argv);
    H_RUN_T(whole_sub_groups, 60);
    H_RUN_T(partial_sub_groups, 60);
    H_RUN_T(extended_types, 60);
    H_RUN_T(intel_shuffles, 60);
    H_RUN_T(intel_block_io, 60);
    H_RUN_T(intel_subgroups_short, 60);
    H_RUN_T(intel_subgroups_char, 60);
    H_RUN_T(intel_subgroups_long, 60);
    H_RUN_T(required_size, 60);
    return h_done();
}
