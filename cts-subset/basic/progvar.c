/* basic: program-scope global variables (__opencl_c_program_scope_global_variables):
 * initialized, shared by the kernels of a program, persistent across
 * launches, private to each program object (also two built from the same
 * source, and one created from the other's binary), and counted by
 * CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE. */
#include "harness.h"

static int need_globals(void)
{
    if (!h_device()) return 0;
    size_t max = 0;
    clGetDeviceInfo(h_device(), CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, sizeof max, &max, NULL);
    if (!max) h_skip("CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE is 0");
    return max != 0;
}

static const char *progvar_src =
    "typedef struct { int a; float b; } pair;\n"
    "global int counter = 5;\n"
    "global float table[4] = {1.5f, 2.5f, 3.5f, 4.5f};\n"
    "global pair pr = {7, 8.25f};\n"
    "global int *global ptr = &counter;\n"
    "global atomic_int hits = ATOMIC_VAR_INIT(0);\n"
    "global ulong big[1000];\n"
    "kernel void count(void) {\n"
    "  static global int calls = 100; /* function-scope, global */\n"
    "  atomic_fetch_add_explicit((global atomic_int *)&counter, 1, memory_order_relaxed, "
    "memory_scope_device);\n"
    "  atomic_fetch_add(&hits, 1);\n"
    "  if (get_global_id(0) == 0) calls++;\n"
    "  big[get_global_id(0) % 1000] += 1;\n"
    "}\n"
    "kernel void read(global float *out) {\n"
    "  static global int calls = 100;\n"
    "  out[0] = (float)*ptr; out[1] = table[0] + table[1] + table[2] + table[3];\n"
    "  out[2] = (float)pr.a + pr.b; out[3] = (float)atomic_load(&hits);\n"
    "  out[4] = (float)big[0]; out[5] = (float)calls++;\n"
    "}\n";

/* Runs `count` `launches` times over 64 work-items, then `read`. */
static void run(cl_context c, cl_program p, int launches, float out[6])
{
    cl_int e;
    cl_command_queue q = h_queue(c, 0);
    cl_kernel count = clCreateKernel(p, "count", &e);
    cl_kernel read = clCreateKernel(p, "read", &e);
    REQUIRE(count && read, "kernels: %s", h_err(e));
    cl_mem buf = clCreateBuffer(c, CL_MEM_READ_WRITE, 6 * sizeof(float), NULL, &e);
    size_t n = 64, one = 1;
    for (int i = 0; i < launches; i++)
        CHECK_OK(clEnqueueNDRangeKernel(q, count, 1, NULL, &n, NULL, 0, NULL, NULL));
    clSetKernelArg(read, 0, sizeof buf, &buf);
    CHECK_OK(clEnqueueNDRangeKernel(q, read, 1, NULL, &one, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 6 * sizeof(float), out, 0, NULL, NULL));
    clReleaseMemObject(buf);
    clReleaseKernel(count);
    clReleaseKernel(read);
    clReleaseCommandQueue(q);
}

static void check(const char *what, const float got[6], int launches, int reads_before)
{
    float want[6] = {5.0f + 64.0f * launches, 12.0f, 15.25f, 64.0f * launches,
                     launches ? 0.0f : 0.0f, 100.0f + reads_before};
    /* big[0]: work-items 0 of each launch (64 % 1000 never wraps) */
    want[4] = (float)launches;
    for (int i = 0; i < 6; i++)
        CHECK(got[i] == want[i], "%s: value %d is %g, expected %g", what, i, got[i], want[i]);
}

TEST(initialized_and_persistent_across_launches)
{
    if (!need_globals()) return;
    cl_context c = h_context();
    cl_program p = h_build(c, progvar_src, "-cl-std=CL3.0");
    REQUIRE(p, "build");
    float out[6];
    run(c, p, 0, out);
    check("no launch", out, 0, 0);
    run(c, p, 3, out);
    check("three more launches", out, 3, 1);
    size_t total = 0;
    CHECK_OK(clGetProgramBuildInfo(p, h_device(), CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                   sizeof total, &total, NULL));
    size_t least = 4 + 16 + 8 + 8 + 4 + 8000 + 4 + 4;
    CHECK(total >= least && total < least + 256,
          "CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE %zu, expected about %zu", total, least);
    clReleaseProgram(p);
    clReleaseContext(c);
}

TEST(each_program_object_has_its_own)
{
    if (!need_globals()) return;
    cl_context c = h_context();
    /* The same source twice: one compiled object (cache), two programs. */
    cl_program a = h_build(c, progvar_src, "-cl-std=CL3.0");
    cl_program b = h_build(c, progvar_src, "-cl-std=CL3.0");
    REQUIRE(a && b, "build");
    float out[6];
    run(c, a, 2, out);
    check("program A", out, 2, 0);
    run(c, b, 1, out);
    check("program B, built from the same source", out, 1, 0);
    run(c, a, 0, out);
    check("program A again", out, 2, 1);
    /* A program from A's binary starts from the initial values. */
    size_t size = 0;
    CHECK_OK(clGetProgramInfo(a, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
    unsigned char *bin = malloc(size);
    CHECK_OK(clGetProgramInfo(a, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
    cl_device_id d = h_device();
    cl_int e, st;
    const unsigned char *bins[1] = {bin};
    cl_program fromb = clCreateProgramWithBinary(c, 1, &d, &size, bins, &st, &e);
    REQUIRE(fromb && !e, "from binary: %s", h_err(e));
    CHECK_OK(clBuildProgram(fromb, 1, &d, "", NULL, NULL));
    run(c, fromb, 1, out);
    check("program from A's binary", out, 1, 0);
    free(bin);
    clReleaseProgram(fromb);
    clReleaseProgram(a);
    clReleaseProgram(b);
    clReleaseContext(c);
}

TEST(opencl_c_2_0_and_device_queries)
{
    if (!need_globals()) return;
    size_t max = 0, pref = 0;
    CHECK_OK(clGetDeviceInfo(h_device(), CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, sizeof max, &max,
                             NULL));
    CHECK_OK(clGetDeviceInfo(h_device(), CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE,
                             sizeof pref, &pref, NULL));
    CHECK(max >= 65536, "CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE %zu < 64 KiB", max);
    CHECK(pref > 0, "CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE is 0");
    cl_context c = h_context();
    cl_program p = h_build(c, progvar_src, "-cl-std=CL2.0");
    REQUIRE(p, "build with -cl-std=CL2.0");
    float out[6];
    run(c, p, 1, out);
    check("CL2.0 program", out, 1, 0);
    /* A variable as large as CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE. */
    char src[256];
    snprintf(src, sizeof src,
             "global uchar var[%zu];\n"
             "kernel void k(global uchar *o) { size_t i = get_global_id(0); var[i * 4099 %% %zu] "
             "= (uchar)i; o[i] = var[i * 4099 %% %zu]; }\n",
             max, max, max);
    cl_program big = h_build(c, src, "-cl-std=CL3.0");
    REQUIRE(big, "a %zu-byte variable", max);
    size_t total = 0;
    CHECK_OK(clGetProgramBuildInfo(big, h_device(), CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                   sizeof total, &total, NULL));
    CHECK(total >= max, "total size %zu < %zu", total, max);
    clReleaseProgram(big);
    clReleaseProgram(p);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("basic", argc, argv);
    H_RUN(initialized_and_persistent_across_launches);
    H_RUN(each_program_object_has_its_own);
    H_RUN(opencl_c_2_0_and_device_queries);
    return h_done();
}
