/* subgroups: OpenCL C 3.0 sub-groups (__opencl_c_subgroups): the work-item
 * queries, sub_group_barrier (a sub-group's barrier does not wait for the
 * others), sub_group_all/any/broadcast/reduce/scan for int, uint, long,
 * ulong, float and double in 1-3 D ranges with smaller last groups,
 * clGetKernelSubGroupInfo with every query, and the device queries. */
#include "collectives.h"

static const char *query_src =
    "kernel void q(global uint *out) {\n"
    "  size_t i = (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0)\n"
    "             + get_global_id(0);\n"
    "  global uint *o = out + 7 * i;\n"
    "  o[0] = get_sub_group_size();\n"
    "  o[1] = get_max_sub_group_size();\n"
    "  o[2] = get_num_sub_groups();\n"
    "  o[3] = get_enqueued_num_sub_groups();\n"
    "  o[4] = get_sub_group_id();\n"
    "  o[5] = get_sub_group_local_id();\n"
    "  o[6] = (uint)get_local_linear_id();\n"
    "}\n";

struct shape {
    cl_uint dims;
    size_t g[3], l[3];
};

static const struct shape shapes[] = {
    {1, {37}, {12}},          /* groups of 12 (a partial sub-group), last of 1 */
    {1, {1000}, {256}},
    {1, {5}, {5}},            /* one sub-group smaller than the maximum */
    {2, {13, 7}, {4, 3}},
    {3, {5, 4, 3}, {2, 3, 2}},
    {3, {8, 4, 2}, {8, 4, 2}},
};

static size_t items(const struct shape *sh, const size_t *v)
{
    return v[0] * (sh->dims > 1 ? v[1] : 1) * (sh->dims > 2 ? v[2] : 1);
}

/* The queries agree with each other, with clGetKernelSubGroupInfo and with
 * the group sizes: sub-groups of the maximum size over consecutive local
 * linear ids, the last one smaller. */
TEST(work_item_queries_match_the_api)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    if (!c_need_sub_groups()) return;
    cl_program p = h_build(c, query_src, "-cl-std=CL3.0");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "q", &e);
    REQUIRE(k, "kernel: %s", h_err(e));
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes && !h_failed(); s++) {
        const struct shape *sh = &shapes[s];
        size_t n = items(sh, sh->g), enq = items(sh, sh->l);
        size_t max_size = 0, count = 0;
        CHECK_OK(clGetKernelSubGroupInfo(k, h_device(), CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                         sh->dims * sizeof(size_t), sh->l, sizeof max_size,
                                         &max_size, NULL));
        CHECK_OK(clGetKernelSubGroupInfo(k, h_device(), CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                         sh->dims * sizeof(size_t), sh->l, sizeof count, &count,
                                         NULL));
        REQUIRE(max_size > 1, "sub-group size %zu", max_size);
        CHECK(count == (enq + max_size - 1) / max_size, "count %zu for %zu items", count, enq);
        cl_uint *out = malloc(7 * n * sizeof *out);
        cl_mem bo = clCreateBuffer(c, CL_MEM_READ_WRITE, 7 * n * sizeof *out, NULL, &e);
        CHECK_OK(clSetKernelArg(k, 0, sizeof bo, &bo));
        CHECK_OK(clEnqueueNDRangeKernel(q, k, sh->dims, NULL, sh->g, sh->l, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, 7 * n * sizeof *out, out, 0, NULL, NULL));
        for (size_t i = 0; i < n && !h_failed(); i++) {
            size_t group, size[3], lid[3];
            c_item(sh->dims, sh->g, sh->l, i, &group, size, lid);
            size_t here = size[0] * size[1] * size[2];
            size_t lli = (lid[2] * size[1] + lid[1]) * size[0] + lid[0];
            size_t sg = lli / max_size, sg_first = sg * max_size;
            size_t sg_size = here - sg_first < max_size ? here - sg_first : max_size;
            const cl_uint *o = out + 7 * i;
            cl_uint want[7] = {(cl_uint)sg_size, (cl_uint)max_size,
                               (cl_uint)((here + max_size - 1) / max_size), (cl_uint)count,
                               (cl_uint)sg, (cl_uint)(lli % max_size), (cl_uint)lli};
            for (int f = 0; f < 7; f++)
                CHECK(o[f] == want[f], "range %zu item %zu query %d: %u, expected %u", s, i, f,
                      o[f], want[f]);
        }
        free(out);
        clReleaseMemObject(bo);
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

static void collectives(enum c_type t)
{
    if (!c_need_sub_groups()) return;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    char opts[128];
    snprintf(opts, sizeof opts, "-cl-std=CL3.0 -DT=%s -DSCOPE=sub_group_", c_type_name[t]);
    cl_program p = h_build(c, c_kernel_src, opts);
    REQUIRE(p, "build %s", opts);
    cl_int e;
    cl_kernel k = clCreateKernel(p, "all_funcs", &e);
    REQUIRE(k, "kernel: %s", h_err(e));
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes && !h_failed(); s++) {
        const struct shape *sh = &shapes[s];
        size_t n = items(sh, sh->g), es = c_type_size[t], max_size = 0;
        CHECK_OK(clGetKernelSubGroupInfo(k, h_device(), CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                         sh->dims * sizeof(size_t), sh->l, sizeof max_size,
                                         &max_size, NULL));
        void *in = malloc(n * es), *out = malloc(C_FUNCS * n * es);
        cl_int *votes = malloc(2 * n * sizeof *votes);
        size_t *span = malloc(n * sizeof *span), *pos = malloc(n * sizeof *pos);
        c_fill(t, in, n, (unsigned)(s * 17 + t));
        CHECK_OK(c_run(c, q, p, t, sh->dims, sh->g, sh->l, in, out, votes));
        for (size_t i = 0; i < n; i++) {
            size_t group, size[3], lid[3];
            c_item(sh->dims, sh->g, sh->l, i, &group, size, lid);
            size_t lli = (lid[2] * size[1] + lid[1]) * size[0] + lid[0];
            span[i] = group * 4096 + lli / max_size;
            pos[i] = lli % max_size;
        }
        char why[200] = "";
        size_t bad = c_check(t, n, in, out, votes, span, pos, why, sizeof why);
        CHECK(bad == 0, "%u-D range %zu: %zu wrong, first: %s", sh->dims, s, bad, why);
        free(in), free(out), free(votes), free(span), free(pos);
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(collectives_int) { collectives(C_INT); }
TEST(collectives_uint) { collectives(C_UINT); }
TEST(collectives_long) { collectives(C_LONG); }
TEST(collectives_ulong) { collectives(C_ULONG); }
TEST(collectives_float) { collectives(C_FLOAT); }
TEST(collectives_double) { collectives(C_DOUBLE); }

/* Sub-group s rotates its values through local memory s + 1 times, each
 * step between sub-group barriers: sub-groups pass different numbers of
 * sub-group barriers before the one work-group barrier (which none may pass
 * before all have reached it: then each reads another sub-group's final
 * value), and broadcast from a sub-group local id that depends on the
 * sub-group. */
static const char *rotate_src =
    "kernel void rot(global long *out, local long *tmp, local long *final) {\n"
    "  size_t me = get_local_linear_id();\n"
    "  uint sg = get_sub_group_id(), n = get_sub_group_size(), lid = get_sub_group_local_id();\n"
    "  size_t first = me - lid;\n"
    "  long v = (long)get_global_id(0) * 10;\n"
    "  for (uint r = 0; r <= sg; r++) {\n"
    "    tmp[me] = v;\n"
    "    sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    v = tmp[first + (lid + 1) % n];\n"
    "    sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group);\n"
    "  }\n"
    "  long from = sub_group_broadcast(v, sg % n);\n"
    "  final[me] = v;\n"
    "  work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[3 * get_global_id(0)] = v;\n"
    "  out[3 * get_global_id(0) + 1] = from;\n"
    "  out[3 * get_global_id(0) + 2] = final[(me + get_max_sub_group_size()) % get_local_size(0)];\n"
    "}\n";

TEST(sub_group_barriers_do_not_wait_for_other_sub_groups)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    if (!c_need_sub_groups()) return;
    cl_program p = h_build(c, rotate_src, "-cl-std=CL3.0");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "rot", &e);
    REQUIRE(k, "kernel: %s", h_err(e));
    size_t g = 100, l = 44, max_size = 0;
    CHECK_OK(clGetKernelSubGroupInfo(k, h_device(), CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                     sizeof l, &l, sizeof max_size, &max_size, NULL));
    REQUIRE(max_size > 0, "sub-group size");
    cl_long out[300], final[100];
    cl_mem bo = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof out, NULL, &e);
    CHECK_OK(clSetKernelArg(k, 0, sizeof bo, &bo));
    CHECK_OK(clSetKernelArg(k, 1, l * sizeof(cl_long), NULL));
    CHECK_OK(clSetKernelArg(k, 2, l * sizeof(cl_long), NULL));
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (size_t i = 0; i < g; i++) {
        size_t group_first = i / l * l, group_size = g - group_first < l ? g - group_first : l;
        size_t lli = i - group_first, sg = lli / max_size, first = sg * max_size;
        size_t n = group_size - first < max_size ? group_size - first : max_size;
        size_t src = first + (lli - first + sg + 1) % n;
        /* v of sub-group local id sg % n, itself rotated. */
        size_t bsrc = first + ((sg % n) + sg + 1) % n;
        final[i] = (cl_long)(group_first + src) * 10;
        CHECK(out[3 * i] == final[i], "item %zu: %lld, expected %lld", i, (long long)out[3 * i],
              (long long)final[i]);
        CHECK(out[3 * i + 1] == (cl_long)(group_first + bsrc) * 10, "broadcast to item %zu: %lld",
              i, (long long)out[3 * i + 1]);
    }
    for (size_t i = 0; i < g; i++) {
        size_t group_first = i / l * l, group_size = g - group_first < l ? g - group_first : l;
        size_t other = group_first + (i - group_first + max_size) % group_size;
        CHECK(out[3 * i + 2] == final[other], "item %zu read %lld of item %zu, expected %lld", i,
              (long long)out[3 * i + 2], other, (long long)final[other]);
    }
    clReleaseMemObject(bo);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* The same rotation with no barrier of the whole group: each sub-group
 * loops as often as its own id says, around sub-group barriers and
 * shuffles (ferrocl runs such a kernel's regions one sub-group at a time),
 * in groups whose rows are not whole sub-groups (2-D, 6 wide) and whose
 * last sub-group is partial. */
static const char *divergent_src =
    "kernel void rot(global long *out, local long *tmp) {\n"
    "  size_t me = get_local_linear_id();\n"
    "  uint sg = get_sub_group_id(), n = get_sub_group_size(), lid = get_sub_group_local_id();\n"
    "  long v = (long)me * 10 + (long)get_group_id(0) * 100000;\n"
    "  for (uint r = 0; r <= sg; r++) {\n"
    "    tmp[me] = v;\n"
    "    sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    v = tmp[me - lid + (lid + 1) % n];\n"
    "    sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    v += sub_group_shuffle(v, (lid + n - 1) % n) - v;\n"
    "  }\n"
    "  if (sg % 2) v += sub_group_reduce_add(v);\n"
    "  size_t i = (get_global_id(1) * get_global_size(0) + get_global_id(0));\n"
    "  out[i] = v;\n"
    "}\n";

TEST(sub_groups_that_loop_on_their_own)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    if (!c_need_sub_groups()) return;
    cl_program p = h_build(c, divergent_src, "-cl-std=CL3.0");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "rot", &e);
    REQUIRE(k, "kernel: %s", h_err(e));
    const struct shape shapes2[] = {{1, {100}, {44}}, {2, {12, 5}, {6, 5}}, {1, {64}, {64}}};
    for (size_t s = 0; s < 3 && !h_failed(); s++) {
        const struct shape *sh = &shapes2[s];
        size_t ls = items(sh, sh->l), max_size = 0, n = items(sh, sh->g);
        CHECK_OK(clGetKernelSubGroupInfo(k, h_device(), CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                         sh->dims * sizeof(size_t), sh->l, sizeof max_size,
                                         &max_size, NULL));
        REQUIRE(max_size > 0, "sub-group size");
        cl_long *out = calloc(n, sizeof *out), *want = calloc(n, sizeof *want);
        cl_mem bo = clCreateBuffer(c, CL_MEM_READ_WRITE, n * sizeof *out, NULL, &e);
        CHECK_OK(clSetKernelArg(k, 0, sizeof bo, &bo));
        CHECK_OK(clSetKernelArg(k, 1, ls * sizeof(cl_long), NULL));
        CHECK_OK(clEnqueueNDRangeKernel(q, k, sh->dims, NULL, sh->g, sh->l, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, n * sizeof *out, out, 0, NULL, NULL));
        /* Host reference: groups along dimension 0 only (dimension 1 is one
         * group high), the group's linear ids x + 6 * y, whole groups. */
        for (size_t g = 0; g < sh->g[0] / sh->l[0] + (sh->g[0] % sh->l[0] != 0); g++) {
            size_t wx = sh->l[0] < sh->g[0] - g * sh->l[0] ? sh->l[0] : sh->g[0] - g * sh->l[0];
            size_t here = wx * (sh->dims > 1 ? sh->l[1] : 1);
            cl_long v[64];
            for (size_t me = 0; me < here; me++) v[me] = (cl_long)me * 10 + (cl_long)g * 100000;
            for (size_t first = 0; first < here; first += max_size) {
                size_t m = here - first < max_size ? here - first : max_size, sg = first / max_size;
                cl_long t[64];
                for (size_t r = 0; r <= sg; r++) {
                    for (size_t l = 0; l < m; l++) t[l] = v[first + (l + 1) % m];
                    for (size_t l = 0; l < m; l++) v[first + l] = t[(l + m - 1) % m];
                }
                if (sg % 2) {
                    cl_long sum = 0;
                    for (size_t l = 0; l < m; l++) sum += v[first + l];
                    for (size_t l = 0; l < m; l++) v[first + l] += sum;
                }
            }
            for (size_t me = 0; me < here; me++) {
                size_t x = g * sh->l[0] + me % wx, y = me / wx;
                want[y * sh->g[0] + x] = v[me];
            }
        }
        for (size_t i = 0; i < n; i++)
            CHECK(out[i] == want[i], "shape %zu item %zu: %lld, expected %lld", s, i,
                  (long long)out[i], (long long)want[i]);
        free(out);
        free(want);
        clReleaseMemObject(bo);
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* Every clGetKernelSubGroupInfo query, its errors, and the
 * clGetKernelSubGroupInfoKHR entry point. */
TEST(kernel_sub_group_info)
{
    if (!c_need_sub_groups()) return;
    cl_context c = h_context();
    cl_program p = h_build(c,
                           "kernel void k(global int *p) { p[0] = get_sub_group_size(); }\n"
                           "__attribute__((reqd_work_group_size(20, 1, 1)))\n"
                           "kernel void r(global int *p) { p[0] = get_sub_group_size(); }\n",
                           "-cl-std=CL3.0");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "k", &e), r = clCreateKernel(p, "r", &e);
    REQUIRE(k && r, "kernels: %s", h_err(e));
    cl_device_id d = h_device();
    size_t wg = 0, max_num = 0, compile_num = 9, size = 0, count = 0, ret = 0;
    CHECK_OK(clGetKernelWorkGroupInfo(k, d, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
    size_t l3[3] = {4, 4, 2};
    CHECK_OK(clGetKernelSubGroupInfo(k, d, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof l3, l3,
                                     sizeof size, &size, &ret));
    CHECK(ret == sizeof(size_t), "size_ret %zu", ret);
    CHECK(size > 1 && size <= 32, "max sub-group size %zu", size);
    CHECK_OK(clGetKernelSubGroupInfo(k, d, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof l3, l3,
                                     sizeof count, &count, NULL));
    CHECK(count == (32 + size - 1) / size, "count %zu", count);
    CHECK_OK(clGetKernelSubGroupInfo(k, d, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof max_num,
                                     &max_num, NULL));
    CHECK(max_num == (wg + size - 1) / size, "max num %zu for work-group size %zu", max_num, wg);
    CHECK_OK(clGetKernelSubGroupInfo(k, d, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, 0, NULL,
                                     sizeof compile_num, &compile_num, NULL));
    CHECK(compile_num == 0, "compile num %zu", compile_num);
    cl_uint dev_max = 0;
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof dev_max, &dev_max, NULL));
    CHECK(dev_max >= max_num, "device max %u", dev_max);
    /* A local size for each count, in 1, 2 and 3 dimensions. */
    for (size_t want = 1; want <= max_num; want += want < 8 ? 1 : 37) {
        for (size_t dims = 1; dims <= 3; dims++) {
            size_t local[3] = {0, 0, 0}, got = 0;
            CHECK_OK(clGetKernelSubGroupInfo(k, d, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                             sizeof want, &want, dims * sizeof(size_t), local, &ret));
            CHECK(ret == dims * sizeof(size_t), "size_ret %zu", ret);
            CHECK_OK(clGetKernelSubGroupInfo(k, d, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                             dims * sizeof(size_t), local, sizeof got, &got, NULL));
            CHECK(got == want, "count %zu gave local size %zu x %zu x %zu, with %zu sub-groups",
                  want, local[0], local[1], local[2], got);
        }
    }
    size_t too_many = wg + 1, local[2] = {7, 7};
    CHECK_OK(clGetKernelSubGroupInfo(k, d, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                     sizeof too_many, &too_many, sizeof local, local, NULL));
    CHECK(local[0] == 0 && local[1] == 0, "no local size fits: %zu %zu", local[0], local[1]);
    /* With reqd_work_group_size(20,1,1) only that size answers. */
    size_t reqd_count = (20 + size - 1) / size, l1 = 0, r_max = 0;
    CHECK_OK(clGetKernelSubGroupInfo(r, d, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                     sizeof reqd_count, &reqd_count, sizeof l1, &l1, NULL));
    CHECK(l1 == 20, "reqd local size %zu", l1);
    CHECK_OK(clGetKernelSubGroupInfo(r, d, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof r_max,
                                     &r_max, NULL));
    CHECK(r_max == reqd_count, "reqd max num %zu", r_max);
    /* Errors. */
    CHECK_ERR(clGetKernelSubGroupInfo(k, d, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 0, l3,
                                      sizeof count, &count, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetKernelSubGroupInfo(k, d, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 4 * sizeof(size_t),
                                      l3, sizeof count, &count, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetKernelSubGroupInfo(k, d, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                      sizeof(size_t), NULL, sizeof count, &count, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clGetKernelSubGroupInfo(k, d, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof l3, l3,
                                      2, &count, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetKernelSubGroupInfo(k, d, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof(size_t),
                                      NULL, sizeof l1, &l1, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetKernelSubGroupInfo(k, d, CL_KERNEL_WORK_GROUP_SIZE, 0, NULL, sizeof l1, &l1, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clGetKernelSubGroupInfo(NULL, d, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof l1, &l1,
                                      NULL), CL_INVALID_KERNEL);
    CHECK_ERR(clGetKernelSubGroupInfo(k, (cl_device_id)k, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL,
                                      sizeof l1, &l1, NULL), CL_INVALID_DEVICE);
    /* The cl_khr_subgroups entry point answers the same. */
    clGetKernelSubGroupInfoKHR_fn khr = (clGetKernelSubGroupInfoKHR_fn)
        clGetExtensionFunctionAddressForPlatform(h_platform(), "clGetKernelSubGroupInfoKHR");
    REQUIRE(khr, "no clGetKernelSubGroupInfoKHR");
    size_t khr_count = 0;
    CHECK_OK(khr(k, d, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof l3, l3, sizeof khr_count,
                 &khr_count, NULL));
    CHECK(khr_count == count, "KHR count %zu", khr_count);
    clReleaseKernel(k);
    clReleaseKernel(r);
    clReleaseProgram(p);
    clReleaseContext(c);
}

/* A device with sub-groups reports the OpenCL C 3.0 feature, and
 * cl_khr_subgroups only with independent forward progress, which it
 * requires. */
TEST(device_queries)
{
    if (!c_need_sub_groups()) return;
    cl_device_id d = h_device();
    cl_bool ifp = CL_TRUE;
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, sizeof ifp, &ifp,
                             NULL));
    char *ext = h_device_string(d, CL_DEVICE_EXTENSIONS);
    CHECK(ext && (ifp || !strstr(ext, "cl_khr_subgroups")), "cl_khr_subgroups reported without IFP");
    free(ext);
    CHECK(c_has_feature("__opencl_c_subgroups"),
          "__opencl_c_subgroups not in CL_DEVICE_OPENCL_C_FEATURES");
}

/* Consecutive sub-group collectives of every kind (c_chain_src): a
 * collective's result must not be overwritten by the next one before every
 * member of the sub-group has read it. */
TEST(consecutive_collectives) { c_chain_test(1); }

int main(int argc, char **argv)
{
    h_init("subgroups", argc, argv);
    H_RUN(device_queries);
    H_RUN(kernel_sub_group_info);
    H_RUN_T(work_item_queries_match_the_api, 60);
    H_RUN(sub_group_barriers_do_not_wait_for_other_sub_groups);
    H_RUN(sub_groups_that_loop_on_their_own);
    H_RUN_T(collectives_int, 60);
    H_RUN_T(collectives_uint, 60);
    H_RUN_T(collectives_long, 60);
    H_RUN_T(collectives_ulong, 60);
    H_RUN_T(collectives_float, 60);
    H_RUN_T(collectives_double, 60);
    H_RUN_T(consecutive_collectives, 120);
    return h_done();
}
