/* compiler: builds, build logs, options, program info and binaries. */
#include "harness.h"

static char *build_log(cl_program p)
{
    size_t n = 0;
    clGetProgramBuildInfo(p, h_device(), CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    char *log = calloc(n + 1, 1);
    clGetProgramBuildInfo(p, h_device(), CL_PROGRAM_BUILD_LOG, n, log, NULL);
    return log;
}

TEST(compile_error_gives_build_program_failure_and_log)
{
    cl_context c = h_context();
    const char *src = "kernel void broken(global int *o) { o[0] = undeclared_thing; }";
    cl_int e;
    cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, &e);
    REQUIRE(p && !e, "program");
    cl_device_id d = h_device();
    CHECK_ERR(clBuildProgram(p, 1, &d, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    cl_build_status st = 0;
    CHECK_OK(clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL));
    CHECK(st == CL_BUILD_ERROR, "status %d", st);
    char *log = build_log(p);
    CHECK(strstr(log, "undeclared_thing") != NULL, "log does not name the error: %s", log);
    free(log);
    /* The program stays usable: fixed source in a new program builds. */
    const char *good = "kernel void fine(global int *o) { o[0] = 1; }";
    cl_program p2 = clCreateProgramWithSource(c, 1, &good, NULL, &e);
    CHECK_OK(clBuildProgram(p2, 1, &d, NULL, NULL, NULL));
    CHECK_ERR(clCreateKernel(p, "broken", &e) == NULL ? e : CL_SUCCESS, CL_INVALID_PROGRAM_EXECUTABLE);
    clReleaseProgram(p2);
    clReleaseProgram(p);
    clReleaseContext(c);
}

TEST(options_defines_and_kernel_names)
{
    cl_context c = h_context();
    const char *src =
        "#ifndef VALUE\n#error VALUE undefined\n#endif\n"
        "kernel void first(global int *o) { o[0] = VALUE; }\n"
        "kernel void second(global int *o) { o[1] = VALUE + 1; }\n";
    cl_int e;
    cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, &e);
    cl_device_id d = h_device();
    CHECK_ERR(clBuildProgram(p, 1, &d, "", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    CHECK_OK(clBuildProgram(p, 1, &d, "-D VALUE=7 -cl-std=CL1.2", NULL, NULL));
    char opts[128] = {0};
    CHECK_OK(clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_OPTIONS, sizeof opts, opts, NULL));
    CHECK(strstr(opts, "VALUE=7") != NULL, "options %s", opts);
    size_t nk = 0;
    CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL));
    CHECK(nk == 2, "num kernels %zu", nk);
    char names[128] = {0};
    CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL));
    CHECK(strstr(names, "first") && strstr(names, "second") && strchr(names, ';'), "names %s", names);
    cl_kernel ks[4];
    cl_uint got = 0;
    CHECK_OK(clCreateKernelsInProgram(p, 4, ks, &got));
    CHECK(got == 2, "kernels in program %u", got);
    for (cl_uint i = 0; i < got; i++) clReleaseKernel(ks[i]);
    CHECK_ERR(clBuildProgram(p, 1, &d, "-cl-no-such-option", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
    clReleaseProgram(p);
    clReleaseContext(c);
}

TEST(binary_round_trip_runs)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    const char *src = "kernel void nine(global int *o) { o[get_global_id(0)] = 9 * (int)get_global_id(0); }";
    cl_int e;
    cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, &e);
    cl_device_id d = h_device();
    REQUIRE_OK(clBuildProgram(p, 1, &d, NULL, NULL, NULL));
    size_t size = 0;
    CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
    REQUIRE(size > 0, "binary size 0");
    unsigned char *bin = malloc(size);
    unsigned char *bins[1] = {bin};
    CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL));
    cl_int status = 1;
    const unsigned char *cbins[1] = {bin};
    cl_program p2 = clCreateProgramWithBinary(c, 1, &d, &size, cbins, &status, &e);
    REQUIRE(p2 && !e && status == CL_SUCCESS, "from binary: %s / %s", h_err(e), h_err(status));
    CHECK_OK(clBuildProgram(p2, 1, &d, NULL, NULL, NULL));
    cl_kernel k = clCreateKernel(p2, "nine", &e);
    REQUIRE(k && !e, "kernel from binary: %s", h_err(e));
    cl_mem o = clCreateBuffer(c, 0, 64 * 4, NULL, &e);
    CHECK_OK(clSetKernelArg(k, 0, sizeof o, &o));
    size_t g = 64;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    int r[64];
    CHECK_OK(clEnqueueReadBuffer(q, o, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < 64; i++) bad += r[i] != 9 * i;
    CHECK(bad == 0, "%d wrong", bad);
    /* Garbage is not a binary. */
    unsigned char junk[16] = "not a binary!!!";
    const unsigned char *jb[1] = {junk};
    size_t js = sizeof junk;
    cl_program p3 = clCreateProgramWithBinary(c, 1, &d, &js, jb, &status, &e);
    CHECK_CREATE_FAILS(p3, e, CL_INVALID_BINARY);
    free(bin);
    clReleaseMemObject(o);
    clReleaseKernel(k);
    clReleaseProgram(p2);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(kernel_attributes_reported)
{
    /* CL_KERNEL_ATTRIBUTES lists the source attributes (Khronos CTS
     * api kernel_attributes). */
    cl_context c = h_context();
    const char *src = "kernel __attribute__((vec_type_hint(uchar4))) __attribute__((work_group_size_hint(8, 1, 1)))\n"
                      "void k(global int *p) { }\n";
    cl_int e;
    cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, &e);
    cl_device_id d = h_device();
    REQUIRE_OK(clBuildProgram(p, 1, &d, NULL, NULL, NULL));
    cl_kernel k = clCreateKernel(p, "k", &e);
    REQUIRE(k && !e, "kernel");
    char attrs[256] = {0};
    CHECK_OK(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, NULL));
    CHECK(strstr(attrs, "vec_type_hint(uchar4)") != NULL, "attributes: %s", attrs);
    CHECK(strstr(attrs, "work_group_size_hint(8,1,1)") != NULL, "attributes: %s", attrs);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseContext(c);
}

TEST(kernel_local_mem_size_counts_local_variables)
{
    /* CL_KERNEL_LOCAL_MEM_SIZE covers __local variables declared in the
     * kernel as well as __local arguments (Khronos CTS api
     * kernel_local_memory_size). */
    cl_context c = h_context();
    const char *src = "kernel void k(global int *p, local int *l) {\n"
                      "  local int tmp[100];\n"
                      "  tmp[get_local_id(0)] = p[0]; l[0] = tmp[0]; barrier(CLK_LOCAL_MEM_FENCE); p[0] = l[0]; }\n";
    cl_int e;
    cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, &e);
    cl_device_id d = h_device();
    REQUIRE_OK(clBuildProgram(p, 1, &d, NULL, NULL, NULL));
    cl_kernel k = clCreateKernel(p, "k", &e);
    REQUIRE(k && !e, "kernel");
    CHECK_OK(clSetKernelArg(k, 1, 64, NULL));
    cl_ulong used = 0;
    CHECK_OK(clGetKernelWorkGroupInfo(k, d, CL_KERNEL_LOCAL_MEM_SIZE, sizeof used, &used, NULL));
    CHECK(used >= 400 + 64, "CL_KERNEL_LOCAL_MEM_SIZE %llu < 464", (unsigned long long)used);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseContext(c);
}

/* Six kernels in one program, compiled in parts on several cores: each
 * sees the one program-scope variable, the shared helper and constant
 * table, and its own __local variables (to_local knows them all). */
static const char *many_src =
    "constant int weights[4] = {1, 10, 100, 1000};\n"
    "global int shared_counter = 0;\n"
    "static int weigh(int x) { return x * weights[x & 3]; }\n"
    "#define K(n) kernel void k##n(global int *out) {\\\n"
    "  local int tmp[64];\\\n"
    "  int l = get_local_id(0);\\\n"
    "  tmp[l] = weigh(l + n);\\\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\\\n"
    "  out[n * 64 + l] = tmp[63 - l] + (to_local((generic int *)&tmp[l]) != 0);\\\n"
    "  if (l == 0) atomic_add(&shared_counter, n + 1);\\\n"
    "}\n"
    "K(0) K(1) K(2) K(3) K(4) K(5)\n"
    "kernel void total(global int *out) { out[0] = shared_counter; }\n";

TEST(many_kernels_share_program_state)
{
    cl_context c = h_context();
    cl_program p = h_build(c, many_src, "-cl-std=CL2.0");
    REQUIRE(p, "build");
    cl_command_queue q = h_queue(c, 0);
    cl_int e;
    cl_mem out = clCreateBuffer(c, CL_MEM_READ_WRITE, 6 * 64 * sizeof(int), NULL, &e);
    REQUIRE(out, "buffer: %s", h_err(e));
    size_t n = 64;
    for (int k = 0; k < 6; k++) {
        char name[8];
        snprintf(name, sizeof name, "k%d", k);
        cl_kernel kk = clCreateKernel(p, name, &e);
        REQUIRE(kk, "kernel %s: %s", name, h_err(e));
        clSetKernelArg(kk, 0, sizeof out, &out);
        CHECK_OK(clEnqueueNDRangeKernel(q, kk, 1, NULL, &n, &n, 0, NULL, NULL));
        clReleaseKernel(kk);
    }
    int got[6 * 64];
    CHECK_OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    static const int weights[4] = {1, 10, 100, 1000};
    for (int k = 0; k < 6; k++)
        for (int l = 0; l < 64; l++) {
            int x = 63 - l + k, want = x * weights[x & 3] + 1;
            CHECK(got[k * 64 + l] == want, "k%d item %d: %d, expected %d", k, l,
                  got[k * 64 + l], want);
        }
    cl_kernel total = clCreateKernel(p, "total", &e);
    REQUIRE(total, "kernel total: %s", h_err(e));
    clSetKernelArg(total, 0, sizeof out, &out);
    size_t one = 1;
    CHECK_OK(clEnqueueNDRangeKernel(q, total, 1, NULL, &one, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof(int), got, 0, NULL, NULL));
    CHECK(got[0] == 21, "shared_counter %d, expected 1+2+...+6 = 21", got[0]);
    clReleaseKernel(total);
    clReleaseMemObject(out);
    clReleaseCommandQueue(q);
    clReleaseProgram(p);
    clReleaseContext(c);
}

/* 1e-40f, a single-precision denormal, times *scale (1.0f) in the kernel:
 * the product as the kernel computed it. A scale read from memory keeps
 * the compiler from folding the multiplication away. */
static float denormal_times_one(cl_context c, cl_command_queue q, cl_program p)
{
    cl_int e = 0;
    cl_kernel k = clCreateKernel(p, "scale", &e);
    CHECK(k && e == CL_SUCCESS, "clCreateKernel: %s", h_err(e));
    if (!k) return -1.0f;
    float data[2] = {1e-40f, 1.0f};
    cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data, &e);
    CHECK(m && e == CL_SUCCESS, "clCreateBuffer: %s", h_err(e));
    CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
    size_t one = 1;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL));
    clReleaseMemObject(m);
    clReleaseKernel(k);
    return data[0];
}

TEST(denorms_are_zero_flushes_single_precision)
{
    cl_context c = h_context();
    REQUIRE(c, "context");
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "queue");
    const char *src = "kernel void scale(global float *d) { d[0] = d[0] * d[1]; }";
    cl_program plain = h_build(c, src, NULL);
    cl_program daz = h_build(c, src, "-cl-denorms-are-zero");
    REQUIRE(plain && daz, "build");
    cl_device_fp_config fp = 0;
    CHECK_OK(clGetDeviceInfo(h_device(), CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp, &fp, NULL));
    if (fp & CL_FP_DENORM) {
        float r = denormal_times_one(c, q, plain);
        CHECK(r == 1e-40f, "without -cl-denorms-are-zero: %g, want 1e-40", r);
    }
    /* "-cl-denorms-are-zero: ... single precision denormalized numbers
     * may be flushed to zero": ferrocl flushes them. */
    float r = denormal_times_one(c, q, daz);
    CHECK(r == 0.0f, "with -cl-denorms-are-zero: %g, want 0", r);
    /* The flush ends with the kernel: the same workers run the other
     * program with denormals again. */
    if (fp & CL_FP_DENORM) {
        r = denormal_times_one(c, q, plain);
        CHECK(r == 1e-40f, "after a -cl-denorms-are-zero kernel: %g, want 1e-40", r);
    }
    clReleaseProgram(plain);
    clReleaseProgram(daz);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("compiler", argc, argv);
    H_RUN(compile_error_gives_build_program_failure_and_log);
    H_RUN(options_defines_and_kernel_names);
    H_RUN(binary_round_trip_runs);
    H_RUN(kernel_attributes_reported);
    H_RUN(kernel_local_mem_size_counts_local_variables);
    H_RUN(many_kernels_share_program_state);
    H_RUN_T(denorms_are_zero_flushes_single_precision, 60);
    return h_done();
}
