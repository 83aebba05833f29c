/* basic: async_work_group_copy / async_work_group_strided_copy between
 * global and local memory, wait_group_events and prefetch, for several
 * gentypes, group shapes and strides. */
#include "harness.h"

static const char *rev_src =
    "kernel void rev(global const float4 *in, global float4 *out, local float4 *tmp, uint n) {\n"
    "  size_t g = get_group_id(1) * get_num_groups(0) + get_group_id(0);\n"
    "  prefetch(in + g * n, n);\n"
    "  event_t e = async_work_group_copy(tmp, in + g * n, n, 0);\n"
    "  wait_group_events(1, &e);\n"
    "  size_t ls = get_local_size(0) * get_local_size(1);\n"
    "  for (size_t i = get_local_linear_id(); i < n; i += ls) out[g * n + i] = tmp[n - 1 - i] * 2.0f;\n"
    "}\n";

/* Every work-item reads elements other work-items copied: the copy is
 * complete for the whole group after wait_group_events. */
TEST(copy_to_local_and_wait_in_2d_groups)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, rev_src, "-cl-std=CL2.0");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "rev", &e);
    REQUIRE(k && !e, "kernel: %s", h_err(e));
    size_t g[2] = {6, 4}, l[2] = {3, 2};
    cl_uint n = 37; /* not a multiple of the group size (6) */
    size_t groups = (g[0] / l[0]) * (g[1] / l[1]);
    size_t total = groups * n * 4;
    float *in = malloc(total * 4), *out = malloc(total * 4);
    for (size_t i = 0; i < total; i++) in[i] = (float)i;
    cl_mem bi = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, total * 4, in, &e);
    cl_mem bo = clCreateBuffer(c, CL_MEM_READ_WRITE, total * 4, NULL, &e);
    CHECK_OK(clSetKernelArg(k, 0, sizeof bi, &bi));
    CHECK_OK(clSetKernelArg(k, 1, sizeof bo, &bo));
    CHECK_OK(clSetKernelArg(k, 2, n * 16, NULL));
    CHECK_OK(clSetKernelArg(k, 3, sizeof n, &n));
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 2, NULL, g, l, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, total * 4, out, 0, NULL, NULL));
    int bad = 0;
    for (size_t gr = 0; gr < groups; gr++)
        for (size_t i = 0; i < n; i++)
            for (int c4 = 0; c4 < 4; c4++)
                bad += out[(gr * n + i) * 4 + c4] != 2.0f * in[(gr * n + n - 1 - i) * 4 + c4];
    CHECK(bad == 0, "%d values wrong", bad);
    free(in);
    free(out);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

static const char *strided_src =
    "#ifdef NEED_FP16\n#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n#endif\n"
    "kernel void st(global const T *in, global T *out, local T *tmp, uint pg, uint ss, uint ds) {\n"
    "  size_t g = get_group_id(0);\n"
    "  event_t e = async_work_group_strided_copy(tmp, in + g * pg * ss, pg, ss, 0);\n"
    "  wait_group_events(1, &e);\n"
    "  e = async_work_group_strided_copy(out + g * pg * ds, tmp, pg, ds, 0);\n"
    "  wait_group_events(1, &e);\n"
    "}\n";

/* global -> local with a source stride, local -> global with a
 * destination stride; elements between the strided ones stay untouched. */
static void strided(const char *type, size_t elem)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    char opts[128];
    snprintf(opts, sizeof opts, "-DT=%s%s", type, strstr(type, "half") ? " -DNEED_FP16" : "");
    cl_program p = h_build(c, strided_src, opts);
    REQUIRE(p, "build with %s", opts);
    cl_int e;
    cl_kernel k = clCreateKernel(p, "st", &e);
    REQUIRE(k && !e, "kernel: %s", h_err(e));
    size_t groups = 3, lsz = 4, g = groups * lsz;
    cl_uint pg = 10, ss = 3, ds = 2;
    size_t in_n = groups * pg * ss, out_n = groups * pg * ds;
    unsigned char *in = malloc(in_n * elem), *out = malloc(out_n * elem);
    for (size_t i = 0; i < in_n * elem; i++) in[i] = (unsigned char)(i * 7 + 1);
    memset(out, 0xa5, out_n * elem);
    cl_mem bi = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, in_n * elem, in, &e);
    cl_mem bo = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, out_n * elem, out, &e);
    CHECK_OK(clSetKernelArg(k, 0, sizeof bi, &bi));
    CHECK_OK(clSetKernelArg(k, 1, sizeof bo, &bo));
    CHECK_OK(clSetKernelArg(k, 2, pg * elem, NULL));
    CHECK_OK(clSetKernelArg(k, 3, sizeof pg, &pg));
    CHECK_OK(clSetKernelArg(k, 4, sizeof ss, &ss));
    CHECK_OK(clSetKernelArg(k, 5, sizeof ds, &ds));
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &lsz, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, out_n * elem, out, 0, NULL, NULL));
    int bad = 0;
    unsigned char *pad = malloc(elem);
    memset(pad, 0xa5, elem);
    for (size_t gr = 0; gr < groups; gr++)
        for (size_t j = 0; j < pg * ds; j++) {
            const unsigned char *got = out + ((gr * pg * ds) + j) * elem;
            const unsigned char *want =
                j % ds == 0 ? in + (gr * pg * ss + (j / ds) * ss) * elem : pad;
            /* 3-vectors: only the 3 components are copied. */
            size_t cmp = strchr(type, '3') ? elem / 4 * 3 : elem;
            bad += memcmp(got, want, cmp) != 0;
        }
    CHECK(bad == 0, "%s: %d elements wrong", type, bad);
    free(pad);
    free(in);
    free(out);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(strided_copies_of_many_types)
{
    strided("int", 4);
    strided("uchar", 1);
    strided("short2", 4);
    strided("float4", 16);
    strided("char3", 4);
    strided("double", 8);
    strided("ulong16", 128);
    char *ext = h_device_string(h_device(), CL_DEVICE_EXTENSIONS);
    if (ext && strstr(ext, "cl_khr_fp16")) strided("half8", 16);
    free(ext);
}

int main(int argc, char **argv)
{
    h_init("basic_async_copy", argc, argv);
    H_RUN_T(copy_to_local_and_wait_in_2d_groups, 60);
    H_RUN_T(strided_copies_of_many_types, 120);
    return h_done();
}
