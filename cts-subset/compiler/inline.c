/* compiler: C99 inline functions. OpenCL C follows C99, where a plain
 * `inline` definition provides no external definition; clang emits it as
 * `available_externally` (or, at -O0, not at all). Real programs (PyOpenCL's
 * complex header, OpenCV, clFFT, hashcat) use plain `inline` helpers and
 * expect them to link, as every other OpenCL implementation does. */
#include "harness.h"

static cl_program source(cl_context c, const char *src)
{
    cl_int e = 0;
    cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, &e);
    return e == CL_SUCCESS ? p : NULL;
}

static void print_log(cl_program p)
{
    size_t n = 0;
    cl_device_id d = h_device();
    if (clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) != CL_SUCCESS) return;
    char *s = calloc(n + 1, 1);
    clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, n, s, NULL);
    fprintf(stderr, "build log: %s\n", s);
    free(s);
}

enum { N = 64 };

/* Runs kernel `name` (out, in) over N work-items in groups of `local`
 * (0: NULL) with in[i] = i, and checks out[i] == want(i). */
static void run_check(cl_context c, cl_program p, const char *name, size_t local, int (*want)(int),
                      const char *what)
{
    cl_int e;
    cl_kernel k = clCreateKernel(p, name, &e);
    if (!k) {
        h_fail_at(__FILE__, __LINE__, "%s: clCreateKernel(%s): %s", what, name, h_err(e));
        return;
    }
    cl_command_queue q = h_queue(c, 0);
    int in[N], r[N];
    for (int i = 0; i < N; i++) in[i] = i, r[i] = -1;
    cl_mem bo = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof r, r, &e);
    cl_mem bi = clCreateBuffer(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &e);
    clSetKernelArg(k, 0, sizeof bo, &bo);
    clSetKernelArg(k, 1, sizeof bi, &bi);
    size_t g = N;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, local ? &local : NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL));
    for (int i = 0; i < N; i++)
        if (r[i] != want(i)) {
            h_fail_at(__FILE__, __LINE__, "%s: %s out[%d] = %d, expected %d", what, name, i, r[i],
                      want(i));
            break;
        }
    clReleaseMemObject(bo);
    clReleaseMemObject(bi);
    clReleaseCommandQueue(q);
    clReleaseKernel(k);
}

static int want_plain(int i) { return i * i + 3 * i + 1; }

/* Plain inline, extern inline, an inline calling an inline, an unused one,
 * and an inline one with a barrier (inlined into a kernel cut at it). */
static const char *plain_src =
    "inline int sq(int x) { return x * x; }\n"
    "extern inline int tri(int x) { return 3 * x; }\n"
    "inline int poly(int x) { return sq(x) + tri(x) + 1; }\n"
    "inline int never_used(int x) { return x - 1; }\n"
    "inline int shared_sum(local int *t, int v) {\n"
    "    t[get_local_id(0)] = v;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int r = t[get_local_id(0)] + t[(get_local_id(0) + 1) % get_local_size(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    return r;\n"
    "}\n"
    "kernel void plain(global int *o, global const int *in) {\n"
    "    o[get_global_id(0)] = poly(in[get_global_id(0)]);\n"
    "}\n"
    "kernel void with_barrier(global int *o, global const int *in) {\n"
    "    local int t[64];\n"
    "    o[get_global_id(0)] = shared_sum(t, sq(in[get_global_id(0)]));\n"
    "}\n";

static size_t barrier_local = 16;

static int want_barrier(int i)
{
    int l = i % (int)barrier_local, base = i - l;
    int j = base + (l + 1) % (int)barrier_local;
    return i * i + j * j;
}

static void build_and_run(const char *options)
{
    cl_context c = h_context();
    cl_device_id d = h_device();
    cl_program p = source(c, plain_src);
    cl_int e = clBuildProgram(p, 1, &d, options, NULL, NULL);
    if (e != CL_SUCCESS) {
        print_log(p);
        h_fail_at(__FILE__, __LINE__, "build with '%s': %s", options, h_err(e));
    } else {
        run_check(c, p, "plain", 0, want_plain, options);
        run_check(c, p, "with_barrier", barrier_local, want_barrier, options);
    }
    clReleaseProgram(p);
    clReleaseContext(c);
}

TEST(plain_inline_builds_and_runs) { build_and_run(""); }
TEST(plain_inline_builds_and_runs_opt_disable) { build_and_run("-cl-opt-disable"); }
TEST(plain_inline_builds_and_runs_cl20) { build_and_run("-cl-std=CL2.0"); }
TEST(plain_inline_builds_and_runs_cl30_opt_disable) { build_and_run("-cl-std=CL3.0 -cl-opt-disable"); }

static int want_linked(int i) { return i * i + 2 * i; }

/* Two programs compiled apart, both with the same plain inline helper
 * from a header (merged at link), and a third that only declares it and
 * uses the definition of another (the inline definition is the only
 * one). */
static void compile_and_link(const char *options)
{
    cl_context c = h_context();
    cl_device_id d = h_device();
    const char *header = "inline int sq(int x) { return x * x; }\n"
                         "inline int twice(int x) { return 2 * x; }\n";
    cl_int e;
    cl_program h = clCreateProgramWithSource(c, 1, &header, NULL, &e);
    const char *name = "helpers.h";
    const char *a_src = "#include \"helpers.h\"\n"
                        "kernel void ka(global int *o, global const int *in) {\n"
                        "    int x = in[get_global_id(0)]; o[get_global_id(0)] = sq(x) + twice(x);\n"
                        "}\n";
    const char *b_src = "#include \"helpers.h\"\n"
                        "kernel void kb(global int *o, global const int *in) {\n"
                        "    int x = in[get_global_id(0)]; o[get_global_id(0)] = twice(x) + sq(x);\n"
                        "}\n";
    const char *c_src = "int sq(int x);\nint twice(int x);\n"
                        "kernel void kc(global int *o, global const int *in) {\n"
                        "    int x = in[get_global_id(0)]; o[get_global_id(0)] = sq(x) + twice(x);\n"
                        "}\n";
    cl_program a = source(c, a_src), b = source(c, b_src), cc = source(c, c_src);
    e = clCompileProgram(a, 1, &d, options, 1, &h, &name, NULL, NULL);
    if (e) print_log(a);
    CHECK(e == CL_SUCCESS, "compile a with '%s': %s", options, h_err(e));
    e = clCompileProgram(b, 1, &d, options, 1, &h, &name, NULL, NULL);
    if (e) print_log(b);
    CHECK(e == CL_SUCCESS, "compile b with '%s': %s", options, h_err(e));
    e = clCompileProgram(cc, 1, &d, options, 0, NULL, NULL, NULL, NULL);
    CHECK(e == CL_SUCCESS, "compile c with '%s': %s", options, h_err(e));
    cl_program all[] = {a, b, cc};
    cl_program linked = clLinkProgram(c, 1, &d, NULL, 3, all, NULL, NULL, &e);
    if (e) {
        if (linked) print_log(linked);
        h_fail_at(__FILE__, __LINE__, "link with '%s': %s", options, h_err(e));
    } else {
        run_check(c, linked, "ka", 0, want_linked, options);
        run_check(c, linked, "kb", 0, want_linked, options);
        run_check(c, linked, "kc", 0, want_linked, options);
    }
    if (linked) clReleaseProgram(linked);
    clReleaseProgram(a);
    clReleaseProgram(b);
    clReleaseProgram(cc);
    clReleaseProgram(h);
    clReleaseContext(c);
}

TEST(inline_across_compile_and_link) { compile_and_link(""); }
TEST(inline_across_compile_and_link_opt_disable) { compile_and_link("-cl-opt-disable"); }

/* An inline definition beside an external definition of the same
 * function in another program: the link keeps one, and both agree. */
TEST(inline_beside_external_definition)
{
    cl_context c = h_context();
    cl_device_id d = h_device();
    const char *a_src = "inline int sq(int x) { return x * x; }\n"
                        "kernel void ka(global int *o, global const int *in) {\n"
                        "    int x = in[get_global_id(0)]; o[get_global_id(0)] = sq(x) + 2 * x;\n"
                        "}\n";
    const char *b_src = "int sq(int x) { return x * x; }\n";
    cl_program a = source(c, a_src), b = source(c, b_src);
    CHECK_OK(clCompileProgram(a, 1, &d, NULL, 0, NULL, NULL, NULL, NULL));
    CHECK_OK(clCompileProgram(b, 1, &d, NULL, 0, NULL, NULL, NULL, NULL));
    cl_program all[] = {a, b};
    cl_int e;
    cl_program linked = clLinkProgram(c, 1, &d, NULL, 2, all, NULL, NULL, &e);
    CHECK(e == CL_SUCCESS, "link: %s", h_err(e));
    if (linked) {
        run_check(c, linked, "ka", 0, want_linked, "inline beside external");
        clReleaseProgram(linked);
    }
    clReleaseProgram(a);
    clReleaseProgram(b);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("compiler_inline", argc, argv);
    H_RUN_T(plain_inline_builds_and_runs, 60);
    H_RUN_T(plain_inline_builds_and_runs_opt_disable, 60);
    H_RUN_T(plain_inline_builds_and_runs_cl20, 60);
    H_RUN_T(plain_inline_builds_and_runs_cl30_opt_disable, 60);
    H_RUN_T(inline_across_compile_and_link, 90);
    H_RUN_T(inline_across_compile_and_link_opt_disable, 90);
    H_RUN_T(inline_beside_external_definition, 60);
    return h_done();
}
