/* basic: kernels built from source and run over NDRanges, results checked
 * element by element against the host. */
#include "harness.h"
#include <math.h>

static const char *ids_src =
    "kernel void ids(global uint *out, uint w, uint h) {\n"
    "  size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "  size_t gx = x - get_global_offset(0), gy = y - get_global_offset(1), gz = z - get_global_offset(2);\n"
    "  size_t i = (gz * h + gy) * w + gx;\n"
    "  uint check = (uint)(get_group_id(0) * get_local_size(0) + get_local_id(0) + get_global_offset(0) == x);\n"
    "  out[i] = (uint)(x + 1000 * y + 1000000 * z) * 2 + check; }\n";

TEST(ids_in_three_dimensions_with_offsets)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, ids_src, "");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "ids", &e);
    REQUIRE(k && !e, "kernel: %s", h_err(e));
    size_t g[3] = {12, 10, 6}, off[3] = {3, 5, 7}, l[3] = {4, 5, 3};
    size_t n = g[0] * g[1] * g[2];
    cl_mem out = clCreateBuffer(c, CL_MEM_WRITE_ONLY, n * 4, NULL, &e);
    cl_uint w = (cl_uint)g[0], h = (cl_uint)g[1];
    CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
    CHECK_OK(clSetKernelArg(k, 1, sizeof w, &w));
    CHECK_OK(clSetKernelArg(k, 2, sizeof h, &h));
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 3, off, g, l, 0, NULL, NULL));
    cl_uint *r = calloc(n, 4);
    CHECK_OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, n * 4, r, 0, NULL, NULL));
    int bad = 0;
    for (size_t z = 0; z < g[2]; z++)
        for (size_t y = 0; y < g[1]; y++)
            for (size_t x = 0; x < g[0]; x++) {
                size_t i = (z * g[1] + y) * g[0] + x;
                cl_uint want = (cl_uint)((x + off[0]) + 1000 * (y + off[1]) + 1000000 * (z + off[2])) * 2 + 1;
                bad += r[i] != want;
            }
    CHECK(bad == 0, "%d work-items wrong", bad);
    free(r);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

static const char *vadd_src =
    "typedef struct { float scale; int bias; } params;\n"
    "kernel void vadd(global const float *a, global const float4 *b4, global float *c, params p, float4 v) {\n"
    "  size_t i = get_global_id(0);\n"
    "  float bv = ((global const float *)b4)[i];\n"
    "  c[i] = a[i] * p.scale + bv + (float)p.bias + v.y + sqrt(a[i]); }\n";

TEST(vector_add_with_struct_and_vector_arguments)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, vadd_src, "");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "vadd", &e);
    REQUIRE(k && !e, "kernel: %s", h_err(e));
    const size_t n = 100003; /* prime: no local size divides it but 1 and n */
    float *a = malloc(n * 4), *b = malloc(n * 4), *r = malloc(n * 4);
    for (size_t i = 0; i < n; i++) {
        a[i] = (float)(i % 1000);
        b[i] = (float)(i % 7);
    }
    cl_mem A = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, n * 4, a, &e);
    cl_mem B = clCreateBuffer(c, 0, ((n + 3) / 4) * 16, NULL, &e);
    CHECK_OK(clEnqueueWriteBuffer(q, B, CL_TRUE, 0, n * 4, b, 0, NULL, NULL));
    cl_mem C = clCreateBuffer(c, 0, n * 4, NULL, &e);
    struct { float scale; cl_int bias; } prm = {2.0f, 3};
    cl_float4 v = {{0.f, 0.5f, 0.f, 0.f}};
    CHECK_OK(clSetKernelArg(k, 0, sizeof A, &A));
    CHECK_OK(clSetKernelArg(k, 1, sizeof B, &B));
    CHECK_OK(clSetKernelArg(k, 2, sizeof C, &C));
    CHECK_OK(clSetKernelArg(k, 3, sizeof prm, &prm));
    CHECK_OK(clSetKernelArg(k, 4, sizeof v, &v));
    CHECK_ERR(clSetKernelArg(k, 3, sizeof prm + 4, &prm), CL_INVALID_ARG_SIZE);
    size_t g = n;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, C, CL_TRUE, 0, n * 4, r, 0, NULL, NULL));
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        float want = a[i] * 2.0f + b[i] + 3.0f + 0.5f + sqrtf(a[i]);
        bad += fabsf(r[i] - want) > 1e-4f * fabsf(want) + 1e-6f;
    }
    CHECK(bad == 0, "%d elements wrong", bad);
    free(a); free(b); free(r);
    clReleaseMemObject(A); clReleaseMemObject(B); clReleaseMemObject(C);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* A struct passed by value is each work-item's own copy: a kernel that
 * changes its copy (before a barrier, read after it, and without barriers)
 * never sees another work-item's change, in every group. */
static const char *own_struct_src =
    "typedef struct { int base; int step; long pad[3]; } params;\n"
    "kernel void with_barrier(global int *out, local int *tmp, params p) {\n"
    "  size_t l = get_local_id(0), i = get_global_id(0);\n"
    "  p.base += (int)i;\n"
    "  tmp[l] = p.step;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  p.step += tmp[(l + 1) % get_local_size(0)];\n"
    "  out[i] = p.base * 1000 + p.step + (int)p.pad[2];\n"
    "}\n"
    "kernel void no_barrier(global int *out, params p) {\n"
    "  size_t i = get_global_id(0);\n"
    "  for (int k = 0; k < (int)(i % 3); k++) p.base += 1;\n"
    "  out[i] = p.base * 1000 + p.step + (int)p.pad[2];\n"
    "}\n";

TEST(struct_arguments_are_each_work_items_own)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, own_struct_src, "");
    REQUIRE(p, "build");
    cl_int e;
    enum { N = 96, L = 32 };
    cl_mem out = clCreateBuffer(c, CL_MEM_READ_WRITE, N * 4, NULL, &e);
    struct { cl_int base, step; cl_long pad[3]; } prm = {5, 7, {0, 0, 40}};
    const char *names[] = {"with_barrier", "no_barrier"};
    for (int kn = 0; kn < 2; kn++) {
        cl_kernel k = clCreateKernel(p, names[kn], &e);
        REQUIRE(k && !e, "kernel %s: %s", names[kn], h_err(e));
        CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
        if (kn == 0) {
            CHECK_OK(clSetKernelArg(k, 1, L * 4, NULL));
            CHECK_OK(clSetKernelArg(k, 2, sizeof prm, &prm));
        } else {
            CHECK_OK(clSetKernelArg(k, 1, sizeof prm, &prm));
        }
        size_t g = N, l = L;
        CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
        cl_int r[N];
        CHECK_OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL));
        for (int i = 0; i < N && !h_failed(); i++) {
            int want = kn == 0 ? (5 + i) * 1000 + 14 + 40 : (5 + i % 3) * 1000 + 7 + 40;
            CHECK(r[i] == want, "%s, work-item %d: %d, expected %d", names[kn], i, r[i], want);
        }
        clReleaseKernel(k);
    }
    clReleaseMemObject(out);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

static const char *reduce_src =
    "kernel void reduce(global const int *x, global int *out, local int *tmp) {\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  tmp[l] = x[get_global_id(0)];\n"
    "  for (size_t s = n / 2; s > 0; s /= 2) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (l < s) tmp[l] += tmp[l + s];\n"
    "  }\n"
    "  if (l == 0) out[get_group_id(0)] = tmp[0];\n"
    "}\n"
    /* Kernel-scope __local: private to each work-group even when groups run
     * at the same time on different threads. */
    "kernel void scoped(global int *out) {\n"
    "  local int shared[64];\n"
    "  size_t l = get_local_id(0);\n"
    "  shared[l] = (int)get_group_id(0);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int sum = 0;\n"
    "  for (int i = 0; i < 64; i++) sum += shared[i];\n"
    "  out[get_global_id(0)] = sum;\n"
    "}\n";

TEST(barriers_in_loops_and_local_memory)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, reduce_src, "");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "reduce", &e);
    REQUIRE(k && !e, "kernel: %s", h_err(e));
    const size_t n = 1 << 16;
    int *x = malloc(n * 4), *r = malloc(n * 4);
    for (size_t i = 0; i < n; i++) x[i] = (int)(i % 13) - 6;
    cl_mem X = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, n * 4, x, &e);
    cl_mem O = clCreateBuffer(c, 0, n * 4, NULL, &e);
    size_t sizes[] = {1, 2, 64, 256, 1024};
    for (int s = 0; s < 5; s++) {
        size_t L = sizes[s], g = n;
        CHECK_OK(clSetKernelArg(k, 0, sizeof X, &X));
        CHECK_OK(clSetKernelArg(k, 1, sizeof O, &O));
        CHECK_OK(clSetKernelArg(k, 2, L * 4, NULL));
        CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &L, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(q, O, CL_TRUE, 0, (n / L) * 4, r, 0, NULL, NULL));
        int bad = 0;
        for (size_t gi = 0; gi < n / L; gi++) {
            int want = 0;
            for (size_t i = 0; i < L; i++) want += x[gi * L + i];
            bad += r[gi] != want;
        }
        CHECK(bad == 0, "local size %zu: %d groups wrong", L, bad);
    }
    cl_kernel k2 = clCreateKernel(p, "scoped", &e);
    REQUIRE(k2 && !e, "kernel scoped: %s", h_err(e));
    CHECK_OK(clSetKernelArg(k2, 0, sizeof O, &O));
    size_t g = 64 * 512, L = 64;
    CHECK_OK(clEnqueueNDRangeKernel(q, k2, 1, NULL, &g, &L, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, O, CL_TRUE, 0, g * 4, r, 0, NULL, NULL));
    int bad = 0;
    for (size_t i = 0; i < g; i++) bad += r[i] != (int)(i / 64) * 64;
    CHECK(bad == 0, "kernel-scope __local shared between groups: %d wrong", bad);
    free(x); free(r);
    clReleaseMemObject(X); clReleaseMemObject(O);
    clReleaseKernel(k); clReleaseKernel(k2);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(task_and_argument_errors)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, "kernel void one(global int *o, int v) { o[0] = v + (int)get_global_size(0); }", "");
    REQUIRE(p, "build");
    cl_int e;
    CHECK_CREATE_FAILS(clCreateKernel(p, "nope", &e), e, CL_INVALID_KERNEL_NAME);
    cl_kernel k = clCreateKernel(p, "one", &e);
    REQUIRE(k && !e, "kernel");
    cl_mem o = clCreateBuffer(c, 0, 4, NULL, &e);
    /* "CL_INVALID_KERNEL_ARGS if the kernel argument values have not been specified." */
    CHECK_ERR(clEnqueueTask(q, k, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
    CHECK_ERR(clSetKernelArg(k, 2, 4, &e), CL_INVALID_ARG_INDEX);
    CHECK_ERR(clSetKernelArg(k, 1, 8, &e), CL_INVALID_ARG_SIZE);
    CHECK_OK(clSetKernelArg(k, 0, sizeof o, &o));
    int v = 41;
    CHECK_OK(clSetKernelArg(k, 1, 4, &v));
    CHECK_OK(clEnqueueTask(q, k, 0, NULL, NULL));
    int r = 0;
    CHECK_OK(clEnqueueReadBuffer(q, o, CL_TRUE, 0, 4, &r, 0, NULL, NULL));
    CHECK(r == 42, "task wrote %d", r);
    size_t g = 8;
    CHECK_ERR(clEnqueueNDRangeKernel(q, k, 0, NULL, &g, NULL, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
    /* Each dimension within CL_DEVICE_MAX_WORK_ITEM_SIZES, the product over
     * CL_KERNEL_WORK_GROUP_SIZE: CL_INVALID_WORK_GROUP_SIZE. */
    size_t wg = 0;
    CHECK_OK(clGetKernelWorkGroupInfo(k, h_device(), CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
    size_t g2[2] = {wg * 2, 4}, l2[2] = {wg / 2, 4};
    CHECK_ERR(clEnqueueNDRangeKernel(q, k, 2, NULL, g2, l2, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    clReleaseMemObject(o);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

static volatile int destroyed;
static void CL_CALLBACK on_destroy(cl_mem m, void *u)
{
    (void)m;
    (void)u;
    destroyed = 1;
}

TEST(set_kernel_arg_does_not_retain_the_buffer)
{
    /* The Khronos CTS (api retain_mem_object_set_kernel_arg): releasing a
     * buffer that is a kernel argument destroys it. */
    cl_context c = h_context();
    cl_program p = h_build(c, "kernel void k(global int *d) { }", "");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "k", &e);
    cl_mem m = clCreateBuffer(c, CL_MEM_READ_ONLY, 32, NULL, &e);
    destroyed = 0;
    CHECK_OK(clSetMemObjectDestructorCallback(m, on_destroy, NULL));
    CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
    CHECK_OK(clReleaseMemObject(m));
    CHECK(destroyed == 1, "the buffer outlived its last release");
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("basic", argc, argv);
    H_RUN(ids_in_three_dimensions_with_offsets);
    H_RUN(vector_add_with_struct_and_vector_arguments);
    H_RUN(struct_arguments_are_each_work_items_own);
    H_RUN_T(barriers_in_loops_and_local_memory, 60);
    H_RUN(task_and_argument_errors);
    H_RUN(set_kernel_arg_does_not_retain_the_buffer);
    return h_done();
}
