/* subgroups/sizes: cl_intel_required_subgroup_size with each size the device
 * lists (CL_DEVICE_SUB_GROUP_SIZES_INTEL): a kernel requiring it gets
 * sub-groups of that many consecutive local linear ids (the group's last
 * one smaller), and its sub-group functions, sub_group_barrier, ballots
 * and block reads work across them, whether the kernel runs as compiled
 * regions, with a work-group barrier too, or under -cl-opt-disable; a
 * helper that kernels of two sizes share computes with its caller's; the
 * kernel's clGetKernelSubGroupInfo answers use its size. Checked against a
 * host reference built from the local ids. */
#include "harness.h"
#include <stdlib.h>

#define OUTS 9

/* %zu: the size; %s: a statement between the sub-group functions (a
 * work-group barrier, or nothing). */
static const char *SRC =
    "#define N %zu\n"
    "__attribute__((intel_reqd_sub_group_size(N)))\n"
    "kernel void k(global const int *in, global int *out, local int *tmp) {\n"
    "    size_t g = get_global_id(0), lid = get_local_id(0);\n"
    "    int x = in[g];\n"
    "    uint l = get_sub_group_local_id(), n = get_sub_group_size(), s = get_sub_group_id();\n"
    "    global int *o = out + %d * g;\n"
    "    o[0] = (int)(l | n << 8 | s << 16);\n"
    "    o[1] = (int)(get_num_sub_groups() | get_max_sub_group_size() << 8);\n"
    "    o[2] = sub_group_reduce_add(x);\n"
    "    %s\n"
    "    o[3] = sub_group_scan_inclusive_add(x);\n"
    "    o[4] = sub_group_broadcast(x, n - 1);\n"
    "    o[5] = sub_group_shuffle(x, (l + 5) %% n);\n"
    "    tmp[lid] = x;\n"
    "    sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    o[6] = tmp[s * N + (l + 1) %% n];\n"
    "    o[7] = sub_group_any(x == in[g - l + n - 1]) + 2 * sub_group_all(x > -1000);\n"
    "    o[8] = (int)sub_group_ballot_bit_count(sub_group_ballot(l %% 3 == 0));\n"
    "}\n";

static int input(size_t i) { return (int)((i * 7919u) % 1000) - 500; }

/* Runs SRC for sub-groups of `size` over two groups of `local` work-items
 * with `between` (a statement) and build `options`; checks every output
 * against the host's. */
static void check_size(size_t size, size_t local, const char *between, const char *options)
{
    char src[4096];
    snprintf(src, sizeof src, SRC, size, OUTS, between);
    size_t global = 2 * local;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, src, options);
    REQUIRE(p, "size %zu: build", size);
    cl_int e;
    cl_kernel k = clCreateKernel(p, "k", &e);
    REQUIRE(k, "clCreateKernel %s", h_err(e));
    int *in = malloc(global * sizeof(int)), *out = malloc(global * OUTS * sizeof(int));
    for (size_t i = 0; i < global; i++) in[i] = input(i);
    cl_mem mi = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, global * sizeof(int), in, &e);
    cl_mem mo = clCreateBuffer(c, CL_MEM_WRITE_ONLY, global * OUTS * sizeof(int), NULL, &e);
    clSetKernelArg(k, 0, sizeof mi, &mi);
    clSetKernelArg(k, 1, sizeof mo, &mo);
    clSetKernelArg(k, 2, local * sizeof(int), NULL);
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, mo, CL_TRUE, 0, global * OUTS * sizeof(int), out, 0, NULL,
                                 NULL));
    size_t groups = (local + size - 1) / size;
    for (size_t i = 0; i < global && !h_failed(); i++) {
        size_t lid = i % local, s = lid / size, l = lid % size;
        size_t first = i - l, n = local - s * size < size ? local - s * size : size;
        const int *o = out + OUTS * i;
        int sum = 0, scan = 0, any = 0;
        for (size_t j = first; j < first + n; j++) {
            sum += in[j];
            if (j <= i) scan += in[j];
            any |= in[j] == in[first + n - 1];
        }
        CHECK(o[0] == (int)(l | n << 8 | s << 16), "size %zu, %zu: sub-group local id %d, size %d, id %d",
              size, i, o[0] & 0xff, (o[0] >> 8) & 0xff, o[0] >> 16);
        CHECK(o[1] == (int)(groups | size << 8), "size %zu, %zu: %d sub-groups, max size %d", size,
              i, o[1] & 0xff, o[1] >> 8);
        CHECK(o[2] == sum, "size %zu, %zu: reduce_add %d, not %d", size, i, o[2], sum);
        CHECK(o[3] == scan, "size %zu, %zu: scan_inclusive_add %d, not %d", size, i, o[3], scan);
        CHECK(o[4] == in[first + n - 1], "size %zu, %zu: broadcast", size, i);
        CHECK(o[5] == in[first + (l + 5) % n], "size %zu, %zu: shuffle", size, i);
        CHECK(o[6] == in[first + (l + 1) % n], "size %zu, %zu: local memory across sub_group_barrier",
              size, i);
        CHECK(o[7] == (any ? 1 : 0) + 2, "size %zu, %zu: any/all %d", size, i, o[7]);
        CHECK(o[8] == (int)((n + 2) / 3), "size %zu, %zu: ballot of %d lanes, not %zu", size, i, o[8],
              (n + 2) / 3);
    }
    /* The kernel's own answers. */
    cl_device_id d = h_device();
    size_t answer = 0, three = 3, sizes3[3] = {0};
    CHECK_OK(clGetKernelSubGroupInfo(k, d, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local,
                                     &local, sizeof answer, &answer, NULL));
    CHECK(answer == (local < size ? local : size), "MAX_SUB_GROUP_SIZE_FOR_NDRANGE %zu", answer);
    CHECK_OK(clGetKernelSubGroupInfo(k, d, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof local,
                                     &local, sizeof answer, &answer, NULL));
    CHECK(answer == groups, "SUB_GROUP_COUNT_FOR_NDRANGE %zu, not %zu", answer, groups);
    CHECK_OK(clGetKernelSubGroupInfo(k, d, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof three,
                                     &three, sizeof sizes3, sizes3, NULL));
    CHECK(sizes3[0] == 3 * size && sizes3[1] == 1, "LOCAL_SIZE_FOR_SUB_GROUP_COUNT(3) %zu", sizes3[0]);
    CHECK_OK(clGetKernelSubGroupInfo(k, d, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0, NULL,
                                     sizeof answer, &answer, NULL));
    CHECK(answer == size, "COMPILE_SUB_GROUP_SIZE_INTEL %zu", answer);
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    free(in);
    free(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* The device's sizes into sizes[], their count returned (0: the extension
 * is missing, and the sub-test skips). */
static size_t device_sizes(size_t sizes[16])
{
    char *ext = h_device_string(h_device(), CL_DEVICE_EXTENSIONS);
    int yes = ext && strstr(ext, "cl_intel_required_subgroup_size") &&
              strstr(ext, "cl_khr_subgroup_ballot");
    free(ext);
    if (!yes) {
        h_skip("no cl_intel_required_subgroup_size or cl_khr_subgroup_ballot");
        return 0;
    }
    size_t bytes = 0;
    CHECK_OK(clGetDeviceInfo(h_device(), CL_DEVICE_SUB_GROUP_SIZES_INTEL, 16 * sizeof(size_t), sizes,
                             &bytes));
    return bytes / sizeof(size_t);
}

/* Whole sub-groups (three of each size) and a last one smaller. */
TEST(each_size_as_regions)
{
    size_t sizes[16], n = device_sizes(sizes);
    for (size_t i = 0; i < n && !h_failed(); i++) {
        check_size(sizes[i], 3 * sizes[i], "", "-cl-std=CL3.0");
        check_size(sizes[i], sizes[i] + 8, "", "-cl-std=CL3.0");
    }
}

/* A work-group barrier beside the sub-groups' waits: the kernel runs on
 * fibers, one per work-item, and the executor forms the sub-groups. */
TEST(each_size_with_a_group_barrier)
{
    size_t sizes[16], n = device_sizes(sizes);
    for (size_t i = 0; i < n && !h_failed(); i++)
        check_size(sizes[i], 2 * sizes[i] + 3, "barrier(CLK_LOCAL_MEM_FENCE);", "-cl-std=CL3.0");
}

/* Nothing computed at build time: the queries read the launch's size. */
TEST(each_size_without_optimizations)
{
    size_t sizes[16], n = device_sizes(sizes);
    for (size_t i = 0; i < n && !h_failed(); i++)
        check_size(sizes[i], 2 * sizes[i], "", "-cl-std=CL3.0 -cl-opt-disable");
}

/* Two kernels of different sizes call one helper: each call computes with
 * its caller's sub-groups. */
TEST(a_helper_shared_by_two_sizes)
{
    size_t sizes[16], n = device_sizes(sizes);
    if (n < 2) {
        if (n) h_skip("one size");
        return;
    }
    size_t a = sizes[0], b = sizes[n - 1];
    char src[2048];
    snprintf(src, sizeof src,
             "uint members(void) { return sub_group_reduce_add(1u) | get_sub_group_size() << 8; }\n"
             "__attribute__((intel_reqd_sub_group_size(%zu)))\n"
             "kernel void ka(global uint *out) { out[get_global_id(0)] = members(); }\n"
             "__attribute__((intel_reqd_sub_group_size(%zu)))\n"
             "kernel void kb(global uint *out) { out[get_global_id(0)] = members(); }\n",
             a, b);
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, src, "-cl-std=CL3.0");
    REQUIRE(p, "build");
    enum { G = 64 };
    cl_int e;
    cl_mem mo = clCreateBuffer(c, CL_MEM_WRITE_ONLY, G * sizeof(cl_uint), NULL, &e);
    const char *names[2] = {"ka", "kb"};
    size_t want[2] = {a, b};
    for (int j = 0; j < 2; j++) {
        cl_kernel k = clCreateKernel(p, names[j], &e);
        REQUIRE(k, "clCreateKernel %s", names[j]);
        clSetKernelArg(k, 0, sizeof mo, &mo);
        size_t g = G, l = G;
        cl_uint out[G];
        CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(q, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        for (int i = 0; i < G && !h_failed(); i++)
            CHECK(out[i] == (cl_uint)(want[j] | want[j] << 8), "%s, %d: %u members of %u", names[j],
                  i, out[i] & 0xff, out[i] >> 8);
        clReleaseKernel(k);
    }
    clReleaseMemObject(mo);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* cl_intel_subgroups' block read and shuffle with each size: lane l of a
 * sub-group reads element l of the block. */
TEST(intel_block_read_with_each_size)
{
    size_t sizes[16], n = device_sizes(sizes);
    char *ext = h_device_string(h_device(), CL_DEVICE_EXTENSIONS);
    int yes = ext && strstr(ext, "cl_intel_subgroups");
    free(ext);
    if (n && !yes) {
        h_skip("no cl_intel_subgroups");
        return;
    }
    for (size_t i = 0; i < n && !h_failed(); i++) {
        size_t size = sizes[i];
        char src[1024];
        snprintf(src, sizeof src,
                 "__attribute__((intel_reqd_sub_group_size(%zu)))\n"
                 "kernel void k(global const uint *in, global uint *out) {\n"
                 "    size_t first = get_global_id(0) - get_sub_group_local_id();\n"
                 "    uint v = intel_sub_group_block_read(in + first);\n"
                 "    out[get_global_id(0)] = intel_sub_group_shuffle(v, get_sub_group_size() - 1 - get_sub_group_local_id());\n"
                 "}\n",
                 size);
        cl_context c = h_context();
        cl_command_queue q = h_queue(c, 0);
        cl_program p = h_build(c, src, "-cl-std=CL3.0");
        REQUIRE(p, "size %zu: build", size);
        cl_int e;
        cl_kernel k = clCreateKernel(p, "k", &e);
        size_t global = 4 * size, local = 2 * size;
        cl_uint *in = malloc(global * sizeof(cl_uint)), *out = malloc(global * sizeof(cl_uint));
        for (size_t j = 0; j < global; j++) in[j] = (cl_uint)(j * 31 + 7);
        cl_mem mi = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, global * sizeof(cl_uint), in, &e);
        cl_mem mo = clCreateBuffer(c, CL_MEM_WRITE_ONLY, global * sizeof(cl_uint), NULL, &e);
        clSetKernelArg(k, 0, sizeof mi, &mi);
        clSetKernelArg(k, 1, sizeof mo, &mo);
        CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(q, mo, CL_TRUE, 0, global * sizeof(cl_uint), out, 0, NULL,
                                     NULL));
        for (size_t j = 0; j < global && !h_failed(); j++) {
            size_t first = j - j % size;
            CHECK(out[j] == in[first + size - 1 - j % size], "size %zu, %zu: %u", size, j, out[j]);
        }
        clReleaseMemObject(mi);
        clReleaseMemObject(mo);
        free(in);
        free(out);
        clReleaseKernel(k);
        clReleaseProgram(p);
        clReleaseCommandQueue(q);
        clReleaseContext(c);
    }
}

int main(int argc, char **argv)
{
    h_init("subgroups", argc, argv);
    H_RUN_T(each_size_as_regions, 60);
    H_RUN_T(each_size_with_a_group_barrier, 60);
    H_RUN_T(each_size_without_optimizations, 60);
    H_RUN_T(a_helper_shared_by_two_sizes, 60);
    H_RUN_T(intel_block_read_with_each_size, 60);
    return h_done();
}
