/* workgroups/uniform_arithmetic: the work-group functions beyond add, min
 * and max that DPC++'s SPIR-V calls (cl_khr_work_group_uniform_arithmetic's
 * mul, and, or, xor and logical ones), against host references. Declared
 * here: clang declares them only with that extension, which ferrocl does
 * not report yet (no sub-group forms of them all). Run on ferrocl only. */
#include "harness.h"
#include <stdlib.h>

TEST(mul_bitwise_logical)
{
    char *platform = h_platform_string(h_platform(), CL_PLATFORM_NAME);
    int ferrocl = platform && strstr(platform, "FerroCL");
    free(platform);
    if (!ferrocl) { h_skip("declared for ferrocl's library only"); return; }
    const char *src =
        "#define OVL __attribute__((overloadable))\n"
        "int OVL work_group_reduce_mul(int);\n"
        "double OVL work_group_reduce_mul(double);\n"
        "long OVL work_group_scan_inclusive_mul(long);\n"
        "uint OVL work_group_reduce_xor(uint);\n"
        "int OVL work_group_reduce_logical_or(int);\n"
        "int OVL work_group_reduce_logical_and(int);\n"
        "kernel void k(global const int *in, global long *out) {\n"
        "    size_t g = get_global_id(0);\n"
        "    int x = in[g];\n"
        "    global long *o = out + 6 * g;\n"
        "    o[0] = work_group_reduce_mul(x);\n"
        "    o[1] = (long)work_group_reduce_mul((double)x);\n"
        "    o[2] = work_group_scan_inclusive_mul((long)x);\n"
        "    o[3] = work_group_reduce_xor((uint)x * 2654435761u);\n"
        "    o[4] = work_group_reduce_logical_or(x == 3);\n"
        "    o[5] = work_group_reduce_logical_and(x != 0);\n"
        "}\n";
    enum { G = 64, L = 16 };
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, src, "-cl-std=CL3.0");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "k", &e);
    int in[G];
    cl_long out[6 * G];
    for (int i = 0; i < G; i++) in[i] = 1 + (i * 7) % 3;
    cl_mem mi = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof in, in, &e);
    cl_mem mo = clCreateBuffer(c, CL_MEM_WRITE_ONLY, sizeof out, NULL, &e);
    clSetKernelArg(k, 0, sizeof mi, &mi);
    clSetKernelArg(k, 1, sizeof mo, &mo);
    size_t g = G, l = L;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int grp = 0; grp < G / L; grp++) {
        long long prod = 1, scan = 1;
        unsigned x = 0;
        int any3 = 0, all = 1;
        for (int i = grp * L; i < (grp + 1) * L; i++) {
            prod *= in[i];
            x ^= (unsigned)in[i] * 2654435761u;
            any3 |= in[i] == 3;
            all &= in[i] != 0;
        }
        for (int i = grp * L; i < (grp + 1) * L && !h_failed(); i++) {
            scan *= in[i];
            cl_long *o = out + 6 * i;
            CHECK(o[0] == (int)prod, "%d: reduce_mul %lld", i, (long long)o[0]);
            CHECK(o[1] == prod, "%d: reduce_mul double %lld", i, (long long)o[1]);
            CHECK(o[2] == scan, "%d: scan_inclusive_mul %lld, not %lld", i, (long long)o[2], scan);
            CHECK((unsigned)o[3] == x, "%d: reduce_xor", i);
            CHECK(o[4] == any3 && o[5] == all, "%d: logical %lld %lld", i, (long long)o[4],
                  (long long)o[5]);
        }
    }
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("workgroups", argc, argv);
    H_RUN_T(mul_bitwise_logical, 60);
    return h_done();
}
