/* non_uniform: non-uniform work-groups (OpenCL 2.0+): a range that is not a
 * multiple of the work-group size runs with smaller last groups for kernels
 * built for OpenCL C 2.0/3.0; OpenCL C 1.x builds and
 * -cl-uniform-work-group-size ones answer CL_INVALID_WORK_GROUP_SIZE;
 * get_local_size, get_enqueued_local_size, get_num_groups, get_group_id and
 * get_global_id in the smaller groups; program binaries keep the rule. */
#include "harness.h"

static const char *ids_src =
    "#if __OPENCL_C_VERSION__ < 200\n"
    "#define get_enqueued_local_size get_local_size\n"
    "#endif\n"
    "kernel void ids(global ulong *out) {\n"
    "  size_t i = (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0)\n"
    "             + get_global_id(0);\n"
    "  global ulong *o = out + 15 * (i - ((get_global_offset(2) * get_global_size(1)\n"
    "      + get_global_offset(1)) * get_global_size(0) + get_global_offset(0)));\n"
    "  for (uint d = 0; d < 3; d++) {\n"
    "    o[5 * d + 0] = get_local_size(d);\n"
    "    o[5 * d + 1] = get_enqueued_local_size(d);\n"
    "    o[5 * d + 2] = get_group_id(d);\n"
    "    o[5 * d + 3] = get_num_groups(d);\n"
    "    o[5 * d + 4] = get_local_id(d);\n"
    "  }\n"
    "}\n";

/* Skips the sub-test on a device without non-uniform work-groups. */
static int need_non_uniform(void)
{
    cl_bool on = CL_FALSE;
    clGetDeviceInfo(h_device(), CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof on, &on, NULL);
    if (!on) h_skip("no non-uniform work-groups");
    return on;
}

static cl_int launch(cl_context c, cl_command_queue q, cl_program p, cl_uint dims,
                     const size_t *off, const size_t *g, const size_t *l, cl_ulong *out)
{
    size_t n = g[0] * (dims > 1 ? g[1] : 1) * (dims > 2 ? g[2] : 1);
    cl_int e;
    cl_kernel k = clCreateKernel(p, "ids", &e);
    if (!k) return e;
    cl_mem bo = clCreateBuffer(c, CL_MEM_READ_WRITE, 15 * n * sizeof *out, NULL, &e);
    clSetKernelArg(k, 0, sizeof bo, &bo);
    e = clEnqueueNDRangeKernel(q, k, dims, off, g, l, 0, NULL, NULL);
    if (e == CL_SUCCESS && out)
        e = clEnqueueReadBuffer(q, bo, CL_TRUE, 0, 15 * n * sizeof *out, out, 0, NULL, NULL);
    clFinish(q);
    clReleaseMemObject(bo);
    clReleaseKernel(k);
    return e;
}

/* A program built from p's binary, or NULL. */
static cl_program round_trip(cl_context c, cl_program p)
{
    size_t size = 0;
    cl_int status, e = clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL);
    unsigned char *bin = malloc(size);
    if (e == CL_SUCCESS) e = clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL);
    cl_device_id d = h_device();
    cl_program from_bin =
        clCreateProgramWithBinary(c, 1, &d, &size, (const unsigned char **)&bin, &status, &e);
    free(bin);
    if (from_bin && clBuildProgram(from_bin, 1, &d, NULL, NULL, NULL) != CL_SUCCESS) {
        clReleaseProgram(from_bin);
        return NULL;
    }
    return from_bin;
}

/* Every work-item's sizes and ids, 1-3 D, with offsets. */
static void check_ids(const char *options)
{
    if (!need_non_uniform()) return;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, ids_src, options);
    REQUIRE(p, "build %s", options);
    static const struct {
        cl_uint dims;
        size_t off[3], g[3], l[3];
    } cases[] = {
        {1, {0}, {10}, {4}},
        {1, {3}, {1009}, {64}},
        {2, {1, 2}, {10, 7}, {4, 3}},
        {3, {0, 0, 5}, {5, 7, 3}, {2, 4, 2}},
        {3, {0, 0, 0}, {3, 1, 9}, {2, 1, 8}},
    };
    for (size_t s = 0; s < sizeof cases / sizeof *cases && !h_failed(); s++) {
        cl_uint dims = cases[s].dims;
        const size_t *g = cases[s].g, *l = cases[s].l;
        size_t gs[3] = {g[0], dims > 1 ? g[1] : 1, dims > 2 ? g[2] : 1};
        size_t ls[3] = {l[0], dims > 1 ? l[1] : 1, dims > 2 ? l[2] : 1};
        size_t n = gs[0] * gs[1] * gs[2];
        cl_ulong *out = malloc(15 * n * sizeof *out);
        CHECK_OK(launch(c, q, p, dims, cases[s].off, g, l, out));
        for (size_t i = 0; i < n && !h_failed(); i++) {
            size_t id[3] = {i % gs[0], i / gs[0] % gs[1], i / (gs[0] * gs[1])};
            for (int d = 0; d < 3; d++) {
                size_t group = id[d] / ls[d], groups = (gs[d] + ls[d] - 1) / ls[d];
                size_t size = gs[d] - group * ls[d] < ls[d] ? gs[d] - group * ls[d] : ls[d];
                cl_ulong want[5] = {size, ls[d], group, groups, id[d] % ls[d]};
                for (int f = 0; f < 5; f++)
                    CHECK(out[15 * i + 5 * d + f] == want[f],
                          "%s case %zu item %zu dim %d query %d: %llu, expected %llu", options, s,
                          i, d, f, (unsigned long long)out[15 * i + 5 * d + f],
                          (unsigned long long)want[f]);
            }
        }
        free(out);
    }
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(smaller_last_groups_cl30) { check_ids("-cl-std=CL3.0"); }
TEST(smaller_last_groups_cl20) { check_ids("-cl-std=CL2.0"); }

/* OpenCL C 1.x programs and -cl-uniform-work-group-size need uniform
 * groups; a uniform launch of them still runs. */
static void check_uniform_only(const char *options)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, ids_src, options);
    REQUIRE(p, "build %s", options);
    size_t g[2] = {10, 6}, l[2] = {4, 3}, ok[2] = {5, 3};
    CHECK_ERR(launch(c, q, p, 2, NULL, g, l, NULL), CL_INVALID_WORK_GROUP_SIZE);
    CHECK_ERR(launch(c, q, p, 2, NULL, g, ok, NULL), CL_SUCCESS);
    /* No local size: the implementation picks a uniform one. */
    size_t prime = 1009;
    CHECK_ERR(launch(c, q, p, 1, NULL, &prime, NULL, NULL), CL_SUCCESS);
    /* The binary keeps the rule. */
    cl_program from_bin = round_trip(c, p);
    REQUIRE(from_bin, "program from its binary");
    CHECK_ERR(launch(c, q, from_bin, 2, NULL, g, l, NULL), CL_INVALID_WORK_GROUP_SIZE);
    clReleaseProgram(from_bin);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(cl12_needs_uniform_groups) { check_uniform_only(""); }
TEST(cl12_explicit_needs_uniform_groups) { check_uniform_only("-cl-std=CL1.2"); }
TEST(uniform_option_needs_uniform_groups) { check_uniform_only("-cl-std=CL3.0 -cl-uniform-work-group-size"); }

/* A CL3.0 binary allows non-uniform groups after the round trip too, and
 * with no local size a prime range runs. */
TEST(cl30_binary_and_chosen_local_size)
{
    if (!need_non_uniform()) return;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, ids_src, "-cl-std=CL3.0");
    REQUIRE(p, "build");
    cl_program from_bin = round_trip(c, p);
    REQUIRE(from_bin, "program from its binary");
    size_t g[2] = {10, 6}, l[2] = {4, 4};
    cl_ulong *out = malloc(15 * 60 * sizeof *out);
    CHECK_OK(launch(c, q, from_bin, 2, NULL, g, l, out));
    CHECK(out[15 * 59 + 0] == 2 && out[15 * 59 + 5] == 2, "last item's group: %llu x %llu",
          (unsigned long long)out[15 * 59], (unsigned long long)out[15 * 59 + 5]);
    free(out);
    size_t prime = 1009;
    cl_ulong *all = malloc(15 * prime * sizeof *all);
    CHECK_OK(launch(c, q, p, 1, NULL, &prime, NULL, all));
    size_t covered = 0;
    for (size_t i = 0; i < prime; i++)
        covered += all[15 * i + 2] * all[15 * i + 1] + all[15 * i + 4] == i;
    CHECK(covered == prime, "%zu of %zu work-items where their ids say", covered, prime);
    free(all);
    clReleaseProgram(from_bin);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("non_uniform", argc, argv);
    H_RUN(smaller_last_groups_cl30);
    H_RUN(smaller_last_groups_cl20);
    H_RUN(cl12_needs_uniform_groups);
    H_RUN(cl12_explicit_needs_uniform_groups);
    H_RUN(uniform_option_needs_uniform_groups);
    H_RUN(cl30_binary_and_chosen_local_size);
    return h_done();
}
