/* workgroups: work_group_reduce/scan_inclusive/scan_exclusive with add, min
 * and max, work_group_all/any and work_group_broadcast (1-3 D), for int,
 * uint, long, ulong, float and double, in 1-3 D ranges whose last groups
 * are smaller, compared with host references (floats combined in local
 * linear id order, so bit for bit). */
#include "collectives.h"

struct shape {
    cl_uint dims;
    size_t g[3], l[3];
};

static const struct shape shapes[] = {
    {1, {37}, {8}},              /* groups of 8, the last of 5 */
    {1, {1000}, {256}},          /* large groups, the last of 232 */
    {1, {64}, {64}},             /* one uniform group */
    {2, {13, 7}, {4, 3}},        /* smaller last groups in x and y */
    {3, {5, 4, 3}, {2, 3, 2}},   /* ... and z */
    {3, {9, 2, 2}, {9, 2, 2}},   /* one uniform 3-D group */
};

static void check_type(enum c_type t, const char *std)
{
    if (!c_need_collectives()) return;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    char opts[128];
    snprintf(opts, sizeof opts, "-cl-std=%s -DT=%s -DSCOPE=work_group_", std, c_type_name[t]);
    cl_program p = h_build(c, c_kernel_src, opts);
    REQUIRE(p, "build %s", opts);
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes && !h_failed(); s++) {
        const struct shape *sh = &shapes[s];
        size_t n = sh->g[0] * (sh->dims > 1 ? sh->g[1] : 1) * (sh->dims > 2 ? sh->g[2] : 1);
        size_t es = c_type_size[t];
        void *in = malloc(n * es), *out = malloc(C_FUNCS * n * es);
        cl_int *votes = malloc(2 * n * sizeof *votes);
        size_t *span = malloc(n * sizeof *span), *pos = malloc(n * sizeof *pos);
        c_fill(t, in, n, (unsigned)(s * 31 + t));
        /* Every value positive in the uniform shapes: work_group_all true. */
        if (sh->g[0] == sh->l[0])
            for (size_t i = 0; i < n; i++) {
                c_value v = c_get(t, in, i);
                if (t == C_FLOAT) v.f = fabsf(v.f) + 1;
                else if (t == C_DOUBLE) v.d = fabs(v.d) + 1;
                else if (t == C_INT) v.i = abs(v.i) + 1;
                else if (t == C_LONG) v.l = llabs(v.l) + 1;
                else v.ul |= 1, v.u |= 1;
                memcpy((char *)in + i * es, &v, es);
            }
        CHECK_OK(c_run(c, q, p, t, sh->dims, sh->g, sh->l, in, out, votes));
        for (size_t i = 0; i < n; i++) {
            size_t size[3], lid[3];
            c_item(sh->dims, sh->g, sh->l, i, &span[i], size, lid);
            pos[i] = (lid[2] * size[1] + lid[1]) * size[0] + lid[0];
        }
        char why[200] = "";
        size_t bad = c_check(t, n, in, out, votes, span, pos, why, sizeof why);
        CHECK(bad == 0, "%s, %u-D range %zu: %zu wrong, first: %s", std, sh->dims, s, bad, why);
        free(in), free(out), free(votes), free(span), free(pos);
    }
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(int_cl30) { check_type(C_INT, "CL3.0"); }
TEST(uint_cl30) { check_type(C_UINT, "CL3.0"); }
TEST(long_cl30) { check_type(C_LONG, "CL3.0"); }
TEST(ulong_cl30) { check_type(C_ULONG, "CL3.0"); }
TEST(float_cl30) { check_type(C_FLOAT, "CL3.0"); }
TEST(double_cl30) { check_type(C_DOUBLE, "CL3.0"); }
TEST(int_and_float_cl20) { check_type(C_INT, "CL2.0"), check_type(C_FLOAT, "CL2.0"); }

static const char *broadcast_src =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "kernel void bc(global const T *in, global T *out) {\n"
    "  size_t i = (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0)\n"
    "             + get_global_id(0);\n"
    "  size_t n = get_global_size(0) * get_global_size(1) * get_global_size(2);\n"
    "  size_t last[3] = {get_local_size(0) - 1, get_local_size(1) - 1, get_local_size(2) - 1};\n"
    "  T x = in[i];\n"
    "  uint d = get_work_dim();\n"
    "  /* from local id 0, and from the group's last work-item */\n"
    "  out[i] = d == 1 ? work_group_broadcast(x, (size_t)0)\n"
    "         : d == 2 ? work_group_broadcast(x, (size_t)0, (size_t)0)\n"
    "                  : work_group_broadcast(x, (size_t)0, (size_t)0, (size_t)0);\n"
    "  out[n + i] = d == 1 ? work_group_broadcast(x, last[0])\n"
    "             : d == 2 ? work_group_broadcast(x, last[0], last[1])\n"
    "                      : work_group_broadcast(x, last[0], last[1], last[2]);\n"
    "}\n";

/* Broadcast from the first and from the last work-item of every group,
 * the smaller last groups included. */
static void broadcast(enum c_type t)
{
    if (!c_need_collectives()) return;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    char opts[128];
    snprintf(opts, sizeof opts, "-cl-std=CL3.0 -DT=%s", c_type_name[t]);
    cl_program p = h_build(c, broadcast_src, opts);
    REQUIRE(p, "build %s", opts);
    cl_int e;
    cl_kernel k = clCreateKernel(p, "bc", &e);
    REQUIRE(k, "kernel: %s", h_err(e));
    size_t es = c_type_size[t];
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes && !h_failed(); s++) {
        const struct shape *sh = &shapes[s];
        size_t n = sh->g[0] * (sh->dims > 1 ? sh->g[1] : 1) * (sh->dims > 2 ? sh->g[2] : 1);
        void *in = malloc(n * es), *out = malloc(2 * n * es);
        c_fill(t, in, n, (unsigned)s);
        cl_mem bi = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, n * es, in, &e);
        cl_mem bo = clCreateBuffer(c, CL_MEM_READ_WRITE, 2 * n * es, NULL, &e);
        CHECK_OK(clSetKernelArg(k, 0, sizeof bi, &bi));
        CHECK_OK(clSetKernelArg(k, 1, sizeof bo, &bo));
        CHECK_OK(clEnqueueNDRangeKernel(q, k, sh->dims, NULL, sh->g, sh->l, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, 2 * n * es, out, 0, NULL, NULL));
        /* The source items: the one of each group with local id 0, and the
         * one with the largest local id. */
        size_t *first = calloc(n, sizeof *first), *last = calloc(n, sizeof *last);
        for (size_t i = 0; i < n; i++) {
            size_t group, size[3], lid[3];
            c_item(sh->dims, sh->g, sh->l, i, &group, size, lid);
            if (lid[0] + lid[1] + lid[2] == 0) first[group] = i;
            if (lid[0] == size[0] - 1 && lid[1] == size[1] - 1 && lid[2] == size[2] - 1)
                last[group] = i;
        }
        size_t bad = 0;
        for (size_t i = 0; i < n; i++) {
            size_t group, size[3], lid[3];
            c_item(sh->dims, sh->g, sh->l, i, &group, size, lid);
            bad += memcmp((char *)out + i * es, (char *)in + first[group] * es, es) != 0;
            bad += memcmp((char *)out + (n + i) * es, (char *)in + last[group] * es, es) != 0;
        }
        CHECK(bad == 0, "%s, %u-D range %zu: %zu wrong", c_type_name[t], sh->dims, s, bad);
        free(in), free(out), free(first), free(last);
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(broadcast_every_type)
{
    for (int t = 0; t < C_TYPES && !h_failed(); t++) broadcast(t);
}

/* A work-group function in a helper function and a loop: every work-item
 * meets it the same number of times; the scratch is reused safely. */
static const char *loop_src =
    "int step(int x) { return work_group_scan_inclusive_add(x) + work_group_reduce_max(x); }\n"
    "kernel void loop(global int *out, int rounds) {\n"
    "  int x = (int)get_local_id(0);\n"
    "  for (int r = 0; r < rounds; r++) x = step(x) % 1000;\n"
    "  out[get_global_id(0)] = x;\n"
    "}\n";

TEST(collectives_in_loops_and_helpers)
{
    if (!c_need_collectives()) return;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, loop_src, "-cl-std=CL3.0");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "loop", &e);
    REQUIRE(k, "kernel: %s", h_err(e));
    size_t g = 50, l = 16;
    cl_int rounds = 5, out[50];
    cl_mem bo = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof out, NULL, &e);
    CHECK_OK(clSetKernelArg(k, 0, sizeof bo, &bo));
    CHECK_OK(clSetKernelArg(k, 1, sizeof rounds, &rounds));
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (size_t first = 0; first < g; first += l) {
        size_t size = g - first < l ? g - first : l;
        int x[16];
        for (size_t i = 0; i < size; i++) x[i] = (int)i;
        for (int r = 0; r < rounds; r++) {
            int max = x[0], sum = 0;
            for (size_t i = 0; i < size; i++) max = x[i] > max ? x[i] : max;
            for (size_t i = 0; i < size; i++) sum += x[i], x[i] = (sum + max) % 1000;
        }
        for (size_t i = 0; i < size; i++)
            CHECK(out[first + i] == x[i], "item %zu: %d, expected %d", first + i, out[first + i], x[i]);
    }
    clReleaseMemObject(bo);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* The device reports the feature in both queries, and OpenCL C 3.0 kernels
 * see its macro. */
TEST(feature_reported)
{
    if (!c_need_collectives()) return;
    CHECK(c_has_feature("__opencl_c_work_group_collective_functions"),
          "feature not in CL_DEVICE_OPENCL_C_FEATURES");
    cl_context c = h_context();
    cl_program p = h_build(c,
                           "#ifndef __opencl_c_work_group_collective_functions\n#error no macro\n#endif\n"
                           "kernel void k(global int *p) { p[0] = work_group_any(p[0]); }\n",
                           "-cl-std=CL3.0");
    CHECK(p, "CL3.0 build with the feature macro");
    if (p) clReleaseProgram(p);
    clReleaseContext(c);
}

/* Consecutive work-group collectives of every kind (c_chain_src): a
 * collective's result must not be overwritten by the next one (a broadcast
 * right after a reduce, an any or a scan) before every work-item has read
 * it. */
TEST(consecutive_collectives) { c_chain_test(0); }

int main(int argc, char **argv)
{
    h_init("workgroups_collectives", argc, argv);
    H_RUN(feature_reported);
    H_RUN_T(int_cl30, 60);
    H_RUN_T(uint_cl30, 60);
    H_RUN_T(long_cl30, 60);
    H_RUN_T(ulong_cl30, 60);
    H_RUN_T(float_cl30, 60);
    H_RUN_T(double_cl30, 60);
    H_RUN_T(int_and_float_cl20, 60);
    H_RUN_T(broadcast_every_type, 120);
    H_RUN(collectives_in_loops_and_helpers);
    H_RUN_T(consecutive_collectives, 120);
    return h_done();
}
