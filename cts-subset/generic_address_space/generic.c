/* generic_address_space: generic pointers to global, local (arguments and
 * kernel-scope variables) and private memory; to_global, to_local,
 * to_private and get_fence tell them apart, in kernels with and without
 * barriers (work-items on fibers or in loops), over several work-groups. */
#include "harness.h"

static int need_generic(void)
{
    if (!h_device()) return 0;
    cl_bool g = CL_FALSE;
    clGetDeviceInfo(h_device(), CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, sizeof g, &g, NULL);
    if (!g) h_skip("CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT is false");
    return g;
}

/* For each pointer kind (global argument, local argument, local variable,
 * private variable, private array element), 4 bits: to_global, to_local,
 * to_private non-NULL, get_fence == the kind's fence. */
static const char *classify_src =
    "uint classify(generic int *p, cl_mem_fence_flags want) {\n"
    "  return (to_global(p) != NULL) | (to_local(p) != NULL) << 1 |\n"
    "         (to_private(p) != NULL) << 2 | (get_fence(p) == want) << 3;\n"
    "}\n"
    "uint all_kinds(global int *g, local int *l, local int *lv, global uint *sum) {\n"
    "  int pv = 3; int pa[4] = {1, 2, 3, 4};\n"
    "  size_t i = get_global_id(0), li = get_local_id(0);\n"
    "  if (li == 0) for (int k = 0; k < 8; k++) lv[k] = k;\n"
    "  l[li] = (int)li;\n"
    "  generic int *ps[5] = {g + i, l + li, lv + (li % 8), &pv, pa + (i % 4)};\n"
    "  cl_mem_fence_flags f[5] = {CLK_GLOBAL_MEM_FENCE, CLK_LOCAL_MEM_FENCE, CLK_LOCAL_MEM_FENCE, 0, 0};\n"
    "  uint r = 0;\n"
    "  for (int k = 0; k < 5; k++) r |= classify(ps[k], f[k]) << (4 * k);\n"
    "  /* reads and writes through the generic pointers */\n"
    "  int s = 0;\n"
    "  for (int k = 0; k < 5; k++) { *ps[k] += 1; s += *ps[k]; }\n"
    "  sum[i] = (uint)s;\n"
    "  return r;\n"
    "}\n"
    "kernel void no_barrier(global int *g, local int *l, global uint *out, global uint *sum) {\n"
    "  local int lv[8];\n"
    "  out[get_global_id(0)] = all_kinds(g, l, lv, sum);\n"
    "}\n"
    "kernel void with_barrier(global int *g, local int *l, global uint *out, global uint *sum) {\n"
    "  local int lv[8];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  uint r = all_kinds(g, l, lv, sum);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = r;\n"
    "}\n";

TEST(to_global_to_local_to_private_get_fence)
{
    if (!need_generic()) return;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, classify_src, "-cl-std=CL3.0");
    REQUIRE(p, "build");
    enum { N = 64, L = 16 };
    cl_int e;
    cl_mem g = clCreateBuffer(c, CL_MEM_READ_WRITE, N * 4, NULL, &e);
    cl_mem out = clCreateBuffer(c, CL_MEM_READ_WRITE, N * 4, NULL, &e);
    cl_mem sum = clCreateBuffer(c, CL_MEM_READ_WRITE, N * 4, NULL, &e);
    const char *names[] = {"no_barrier", "with_barrier"};
    /* global: to_global only; local (argument, variable): to_local only;
     * private: to_private only; each with the right fence. */
    const cl_uint want_kind[5] = {0x9, 0xa, 0xa, 0xc, 0xc};
    for (int kn = 0; kn < 2; kn++) {
        cl_kernel k = clCreateKernel(p, names[kn], &e);
        REQUIRE(k, "kernel %s", names[kn]);
        cl_int init[N];
        for (int i = 0; i < N; i++) init[i] = 100 * i;
        CHECK_OK(clEnqueueWriteBuffer(q, g, CL_TRUE, 0, sizeof init, init, 0, NULL, NULL));
        clSetKernelArg(k, 0, sizeof g, &g);
        clSetKernelArg(k, 1, L * 4, NULL);
        clSetKernelArg(k, 2, sizeof out, &out);
        clSetKernelArg(k, 3, sizeof sum, &sum);
        size_t gs = N, ls = L;
        CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gs, &ls, 0, NULL, NULL));
        cl_uint r[N], s[N];
        CHECK_OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(q, sum, CL_TRUE, 0, sizeof s, s, 0, NULL, NULL));
        for (int i = 0; i < N; i++) {
            for (int kind = 0; kind < 5; kind++) {
                cl_uint got = (r[i] >> (4 * kind)) & 0xf;
                CHECK(got == want_kind[kind],
                      "%s, work-item %d, pointer kind %d: flags 0x%x, expected 0x%x", names[kn], i,
                      kind, got, want_kind[kind]);
            }
            if (h_failed()) break;
        }
        /* sums: g[i]+1, l[li]+1, lv[li%8] + (work-items of the group that
         * incremented it before, in some order: only bounds), pv+1, pa+1 */
        int bad = 0;
        for (int i = 0; i < N; i++) {
            cl_uint lo = (cl_uint)(100 * i + 1 + (i % L) + 1 + (i % 8) + 1 + 4 + (i % 4) + 2);
            if (s[i] < lo || s[i] > lo + L) bad++;
        }
        CHECK(bad == 0, "%s: %d sums through generic pointers wrong", names[kn], bad);
        clReleaseKernel(k);
    }
    clReleaseMemObject(g);
    clReleaseMemObject(out);
    clReleaseMemObject(sum);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* A function taking generic pointers, called with each address space;
 * generic pointers cast back to named ones with an explicit cast. */
static const char *calls_src =
    "int add3(int *a, const int *b) { *a += *b; return *a; }\n"
    "kernel void k(global int *g, local int *l) {\n"
    "  size_t i = get_global_id(0), li = get_local_id(0);\n"
    "  local int lv;\n"
    "  int pv = 5;\n"
    "  if (li == 0) lv = 7;\n"
    "  l[li] = 2;\n"
    "  work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  add3(&pv, &lv);            /* private += local variable: 12 */\n"
    "  add3(l + li, &pv);         /* local += private: 14 */\n"
    "  add3(g + i, l + li);       /* global += local: g + 14 */\n"
    "  generic int *gp = g + i;\n"
    "  global int *back = (global int *)gp;\n"
    "  *back += 1000;\n"
    "}\n";

TEST(generic_pointer_arguments)
{
    if (!need_generic()) return;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, calls_src, "-cl-std=CL3.0");
    REQUIRE(p, "build");
    enum { N = 48, L = 8 };
    cl_int e, init[N], r[N];
    for (int i = 0; i < N; i++) init[i] = i;
    cl_mem g = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, init, &e);
    cl_kernel k = clCreateKernel(p, "k", &e);
    REQUIRE(k, "kernel");
    clSetKernelArg(k, 0, sizeof g, &g);
    clSetKernelArg(k, 1, L * 4, NULL);
    size_t gs = N, ls = L;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gs, &ls, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, g, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++) bad += r[i] != i + 14 + 1000;
    CHECK(bad == 0, "%d results wrong (r[0] = %d, expected 1014)", bad, r[0]);
    clReleaseKernel(k);
    clReleaseMemObject(g);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* OpenCL C 2.0 programs: unqualified pointers are generic there too. */
TEST(cl20_generic_pointers)
{
    if (!need_generic()) return;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, calls_src, "-cl-std=CL2.0");
    REQUIRE(p, "build with -cl-std=CL2.0");
    cl_int e, r = 0;
    cl_mem g = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 4, &r, &e);
    cl_kernel k = clCreateKernel(p, "k", &e);
    clSetKernelArg(k, 0, sizeof g, &g);
    clSetKernelArg(k, 1, 4, NULL);
    size_t gs = 1;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gs, &gs, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, g, CL_TRUE, 0, 4, &r, 0, NULL, NULL));
    CHECK(r == 1014, "result %d, expected 1014", r);
    clReleaseKernel(k);
    clReleaseMemObject(g);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* Casts back from generic where the kernel shows where the pointer came
 * from (DPC++'s shape: a global pointer made generic, offset, cast back;
 * ferrocl answers these at compile time): each named space's cast gives
 * the pointer itself for its own space and NULL for the others, through a
 * select and a loop's pointer too, and the memory reached through the
 * result is the right one. */
static const char *visible_src =
    "kernel void k(global int *g, local int *l, global uint *out, global int *vals) {\n"
    "  size_t i = get_global_id(0), li = get_local_id(0);\n"
    "  int pv[2] = {(int)i, 7};\n"
    "  l[li] = 1000 + (int)li;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  generic int *gg = (generic int *)g + i;\n"
    "  generic int *gl = (generic int *)l + li;\n"
    "  generic int *gp = (generic int *)pv + 1;\n"
    "  generic int *either = (i & 1) ? (generic int *)g : (generic int *)(g + 1);\n"
    "  uint r = 0;\n"
    "  r |= (to_global(gg) == g + i) << 0 | (to_local(gg) == NULL) << 1 | (to_private(gg) == NULL) << 2;\n"
    "  r |= (to_local(gl) == l + li) << 3 | (to_global(gl) == NULL) << 4 | (to_private(gl) == NULL) << 5;\n"
    "  r |= (to_private(gp) == pv + 1) << 6 | (to_global(gp) == NULL) << 7 | (to_local(gp) == NULL) << 8;\n"
    "  r |= (to_global(either) != NULL) << 9;\n"
    "  generic int *walk = (generic int *)l;\n"
    "  int found = 0;\n"
    "  for (int k = 0; k < 4; k++, walk++) found += to_local(walk) != NULL;\n"
    "  r |= (found == 4) << 10;\n"
    "  out[i] = r;\n"
    "  vals[i] = *to_global(gg) + *to_local(gl) + *to_private(gp);\n"
    "}\n";

TEST(casts_where_the_space_is_visible)
{
    if (!need_generic()) return;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, visible_src, "-cl-std=CL3.0");
    REQUIRE(p, "build");
    enum { N = 64, L = 16 };
    cl_int e;
    cl_int init[N];
    for (int i = 0; i < N; i++) init[i] = 100 * i;
    cl_mem g = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, init, &e);
    cl_mem out = clCreateBuffer(c, CL_MEM_READ_WRITE, N * 4, NULL, &e);
    cl_mem vals = clCreateBuffer(c, CL_MEM_READ_WRITE, N * 4, NULL, &e);
    cl_kernel k = clCreateKernel(p, "k", &e);
    REQUIRE(k, "kernel");
    clSetKernelArg(k, 0, sizeof g, &g);
    clSetKernelArg(k, 1, L * 4, NULL);
    clSetKernelArg(k, 2, sizeof out, &out);
    clSetKernelArg(k, 3, sizeof vals, &vals);
    size_t gs = N, ls = L;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gs, &ls, 0, NULL, NULL));
    cl_uint r[N];
    cl_int v[N];
    CHECK_OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, vals, CL_TRUE, 0, sizeof v, v, 0, NULL, NULL));
    for (int i = 0; i < N && !h_failed(); i++) {
        CHECK(r[i] == 0x7ff, "work-item %d: flags 0x%x, expected 0x7ff", i, r[i]);
        CHECK(v[i] == 100 * i + 1000 + i % L + 7, "work-item %d: %d through the casts, expected %d",
              i, v[i], 100 * i + 1000 + i % L + 7);
    }
    clReleaseKernel(k);
    clReleaseMemObject(g);
    clReleaseMemObject(out);
    clReleaseMemObject(vals);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("generic_address_space", argc, argv);
    H_RUN(to_global_to_local_to_private_get_fence);
    H_RUN(generic_pointer_arguments);
    H_RUN(cl20_generic_pointers);
    H_RUN(casts_where_the_space_is_visible);
    return h_done();
}
