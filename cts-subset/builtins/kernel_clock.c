/* builtins/kernel_clock: cl_khr_kernel_clock. The capabilities query and
 * its scopes' macros, and the clocks' values: each scope's clock_read_* and
 * clock_read_hilo_* never go backwards within a work-item and advance
 * across a long chain of work; the hilo form is the same counter as the
 * ulong one; the device clock read by a later kernel (same in-order queue)
 * is past every reading of the earlier one.
 * A device without the extension skips (and must refuse the query). */
#include "harness.h"
#include <stdlib.h>

#define CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR_ 0x1076
#define ITEMS 256

static int has_clock(void)
{
    char *ext = h_device_string(h_device(), CL_DEVICE_EXTENSIONS);
    int yes = ext && strstr(ext, "cl_khr_kernel_clock");
    free(ext);
    return yes;
}

static cl_bitfield capabilities(cl_int *err)
{
    cl_bitfield caps = 0;
    *err = clGetDeviceInfo(h_device(), CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR_, sizeof caps,
                           &caps, NULL);
    return caps;
}

TEST(kernel_clock_capabilities_and_macros)
{
    cl_int err;
    cl_bitfield caps = capabilities(&err);
    if (!has_clock()) {
        CHECK_ERR(err, CL_INVALID_VALUE);
        h_skip("no cl_khr_kernel_clock");
        return;
    }
    CHECK_OK(err);
    CHECK(caps != 0 && (caps & ~(cl_bitfield)7) == 0, "capabilities 0x%llx",
          (unsigned long long)caps);
    static const char *src =
        "kernel void k(global int *out) {\n"
        "    int m = 0;\n"
        "#ifdef cl_khr_kernel_clock\n"
        "    m |= 8;\n"
        "#endif\n"
        "#ifdef __opencl_c_kernel_clock_scope_device\n"
        "    m |= 1;\n"
        "#endif\n"
        "#ifdef __opencl_c_kernel_clock_scope_work_group\n"
        "    m |= 2;\n"
        "#endif\n"
        "#ifdef __opencl_c_kernel_clock_scope_sub_group\n"
        "    m |= 4;\n"
        "#endif\n"
        "    out[0] = m;\n"
        "}\n";
    for (int v = 0; v < 2; v++) {
        cl_context c = h_context();
        cl_command_queue q = h_queue(c, 0);
        cl_program p = h_build(c, src, v ? "-cl-std=CL3.0" : "-cl-std=CL1.2");
        REQUIRE(p, "build");
        cl_int e;
        cl_kernel k = clCreateKernel(p, "k", &e);
        cl_mem out = clCreateBuffer(c, CL_MEM_WRITE_ONLY, sizeof(cl_int), NULL, &e);
        clSetKernelArg(k, 0, sizeof out, &out);
        size_t g = 1;
        cl_int m = -1;
        CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof m, &m, 0, NULL, NULL));
        CHECK(m == (cl_int)(8 | caps), "%s: macros 0x%x, capabilities 0x%llx",
              v ? "CL3.0" : "CL1.2", m, (unsigned long long)caps);
        clReleaseMemObject(out);
        clReleaseKernel(k);
        clReleaseProgram(p);
        clReleaseCommandQueue(q);
        clReleaseContext(c);
    }
}

/* Per work-item: t0, a hilo reading, t1 after a chain of dependent steps,
 * t2 right after; out[4i..4i+3]. */
static const char *reads_src =
    "kernel void k(global const float *in, global ulong *out, global float *sink) {\n"
    "    size_t i = get_global_id(0);\n"
    "    ulong t0 = clock_read_SCOPE();\n"
    "    uint2 h = clock_read_hilo_SCOPE();\n"
    "    float x = in[i];\n"
    "    for (int j = 0; j < 2000; j++) x = x * 0.9999f + 0.25f;\n"
    "    sink[i] = x;\n"
    "    ulong t1 = clock_read_SCOPE();\n"
    "    ulong t2 = clock_read_SCOPE();\n"
    "    out[4 * i] = t0;\n"
    "    out[4 * i + 1] = ((ulong)h.hi << 32) | h.lo;\n"
    "    out[4 * i + 2] = t1;\n"
    "    out[4 * i + 3] = t2;\n"
    "}\n";

static void launch_reads(const char *scope, cl_ulong *out, int launches)
{
    char src[2048];
    const char *s = reads_src;
    size_t n = 0;
    /* Replace each SCOPE with the scope's name. */
    while (*s && n < sizeof src - 32) {
        if (!strncmp(s, "SCOPE", 5)) {
            n += (size_t)snprintf(src + n, sizeof src - n, "%s", scope);
            s += 5;
        } else {
            src[n++] = *s++;
        }
    }
    src[n] = 0;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, src, "-cl-std=CL3.0");
    REQUIRE(p, "build (%s)", scope);
    cl_int e;
    cl_kernel k = clCreateKernel(p, "k", &e);
    float in[ITEMS];
    for (int i = 0; i < ITEMS; i++) in[i] = (float)i;
    cl_mem mi = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof in, in, &e);
    cl_mem sink = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof in, NULL, &e);
    size_t bytes = sizeof(cl_ulong) * 4 * ITEMS;
    size_t g = ITEMS, l = 64;
    for (int r = 0; r < launches; r++) {
        cl_mem mo = clCreateBuffer(c, CL_MEM_WRITE_ONLY, bytes, NULL, &e);
        clSetKernelArg(k, 0, sizeof mi, &mi);
        clSetKernelArg(k, 1, sizeof mo, &mo);
        clSetKernelArg(k, 2, sizeof sink, &sink);
        CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(q, mo, CL_TRUE, 0, bytes, out + (size_t)r * 4 * ITEMS, 0,
                                     NULL, NULL));
        clReleaseMemObject(mo);
    }
    clReleaseMemObject(mi);
    clReleaseMemObject(sink);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(kernel_clock_values)
{
    cl_int err;
    cl_bitfield caps = capabilities(&err);
    if (!has_clock() || err) {
        h_skip("no cl_khr_kernel_clock");
        return;
    }
    static const char *scopes[3] = {"device", "work_group", "sub_group"};
    cl_ulong *out = malloc(sizeof(cl_ulong) * 4 * ITEMS * 2);
    for (int sc = 0; sc < 3; sc++) {
        if (!(caps & ((cl_bitfield)1 << sc))) continue;
        launch_reads(scopes[sc], out, 2);
        for (int i = 0; i < 2 * ITEMS; i++) {
            cl_ulong *t = out + 4 * i;
            if (!(t[0] <= t[1] && t[1] <= t[2] && t[0] < t[2] && t[2] <= t[3])) {
                CHECK(0, "%s, work-item %d: readings %llu %llu (hilo) %llu %llu", scopes[sc],
                      i % ITEMS, (unsigned long long)t[0], (unsigned long long)t[1],
                      (unsigned long long)t[2], (unsigned long long)t[3]);
                break;
            }
        }
        if (sc == 0) {
            /* The second launch began after the first ended. */
            cl_ulong last = 0, first = ~(cl_ulong)0;
            for (int i = 0; i < ITEMS; i++) {
                if (out[4 * i + 3] > last) last = out[4 * i + 3];
                if (out[4 * (ITEMS + i)] < first) first = out[4 * (ITEMS + i)];
            }
            CHECK(first >= last, "device clock: the later launch read %llu, the earlier %llu",
                  (unsigned long long)first, (unsigned long long)last);
        }
    }
    free(out);
}

int main(int argc, char **argv)
{
    h_init("builtins", argc, argv);
    H_RUN(kernel_clock_capabilities_and_macros);
    H_RUN(kernel_clock_values);
    return h_done();
}
