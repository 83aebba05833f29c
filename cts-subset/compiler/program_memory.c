/* compiler: a released program gives its memory back. Builds and releases
 * many distinct programs (each compiled, loaded and run once) and many
 * programs from one binary, and checks the resident size returns near
 * where it was after a warm-up (the compiler's one-time state, caches of
 * the in-process LLVM, the allocator's free lists): per-program growth
 * adds up, one-time growth does not. No timing is checked. */
#include "harness.h"
#include <unistd.h>

/* Resident size in MiB, from /proc/self/statm. */
static double rss_mib(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long size = 0, resident = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &size, &resident) != 2) resident = 0;
        fclose(f);
    }
    return (double)resident * (double)sysconf(_SC_PAGESIZE) / (1024.0 * 1024.0);
}

/* Builds program number i (a source of its own), runs its kernel once and
 * releases everything; returns 0 on failure. */
static int one_program(cl_context c, cl_command_queue q, cl_mem out, int i)
{
    char src[512];
    snprintf(src, sizeof src,
             "constant int table[4] = {%d, 1, 2, 3};\n"
             "kernel void k%d(global int *o) {\n"
             "  local int t[16];\n"
             "  t[get_local_id(0)] = table[get_local_id(0) & 3] + %d;\n"
             "  barrier(CLK_LOCAL_MEM_FENCE);\n"
             "  o[get_global_id(0)] = t[15 - get_local_id(0)];\n"
             "}\n",
             i, i, i);
    cl_program p = h_build(c, src, NULL);
    if (!p) return 0;
    char name[32];
    snprintf(name, sizeof name, "k%d", i);
    cl_int e;
    cl_kernel k = clCreateKernel(p, name, &e);
    int ok = k != NULL;
    if (k) {
        size_t g = 16;
        int r[16];
        ok &= clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS;
        ok &= clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &g, 0, NULL, NULL) == CL_SUCCESS;
        ok &= clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL) == CL_SUCCESS;
        ok &= r[15] == i + i && r[0] == 3 + i;
        clReleaseKernel(k);
    }
    clReleaseProgram(p);
    return ok;
}

TEST(released_programs_give_memory_back)
{
    /* Every program is new to the compiler, not found in a kernel cache
     * (ferrocl's; other drivers ignore this). */
    setenv("FERROCL_CACHE_DIR", "", 1);
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_int e;
    cl_mem out = clCreateBuffer(c, CL_MEM_READ_WRITE, 16 * sizeof(int), NULL, &e);
    REQUIRE(out, "buffer: %s", h_err(e));
    int i = 0;
    for (; i < 20; i++) REQUIRE(one_program(c, q, out, i), "warm-up program %d", i);
    double start = rss_mib();
    for (; i < 120; i++) REQUIRE(one_program(c, q, out, i), "program %d", i);
    double built = rss_mib();
    CHECK(built - start < 30, "100 programs built and released: %.1f MiB -> %.1f MiB", start,
          built);
    printf("# built: %.1f MiB after warm-up, %.1f MiB after 100 more\n", start, built);
    clReleaseMemObject(out);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(programs_from_a_binary_give_memory_back)
{
    setenv("FERROCL_CACHE_DIR", "", 1);
    cl_context c = h_context();
    cl_device_id d = h_device();
    cl_program p = h_build(c, "kernel void k(global int *o) { o[get_global_id(0)] = 5; }", NULL);
    REQUIRE(p, "build");
    size_t size = 0;
    CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
    unsigned char *bin = malloc(size);
    unsigned char *bins[1] = {bin};
    CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL));
    clReleaseProgram(p);
    double start = 0;
    for (int i = 0; i < 220 && !h_failed(); i++) {
        if (i == 20) start = rss_mib();
        cl_int e, status;
        const unsigned char *cb[1] = {bin};
        cl_program b = clCreateProgramWithBinary(c, 1, &d, &size, cb, &status, &e);
        REQUIRE(b, "program %d from the binary: %s", i, h_err(e));
        CHECK_OK(clBuildProgram(b, 1, &d, NULL, NULL, NULL));
        cl_kernel k = clCreateKernel(b, "k", &e);
        CHECK(k, "kernel: %s", h_err(e));
        if (k) clReleaseKernel(k);
        clReleaseProgram(b);
    }
    double end = rss_mib();
    CHECK(end - start < 30, "200 programs from a binary: %.1f MiB -> %.1f MiB", start, end);
    printf("# from a binary: %.1f MiB after warm-up, %.1f MiB after 200 more\n", start, end);
    free(bin);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("compiler_program_memory", argc, argv);
    H_RUN_T(released_programs_give_memory_back, 240);
    H_RUN_T(programs_from_a_binary_give_memory_back, 120);
    return h_done();
}
