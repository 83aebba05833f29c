/* compiler: clCompileProgram (with input headers) and clLinkProgram
 * (compiled objects, libraries, link options, link failures),
 * CL_PROGRAM_BINARY_TYPE and binaries of compiled objects. */
#include "harness.h"

static cl_program source(cl_context c, const char *src)
{
    cl_int e = 0;
    cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, &e);
    return e == CL_SUCCESS ? p : NULL;
}

static cl_program_binary_type binary_type(cl_program p)
{
    cl_program_binary_type t = 0xdead;
    cl_device_id d = h_device();
    clGetProgramBuildInfo(p, d, CL_PROGRAM_BINARY_TYPE, sizeof t, &t, NULL);
    return t;
}

static char *build_log(cl_program p)
{
    size_t n = 0;
    cl_device_id d = h_device();
    if (clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) != CL_SUCCESS) return NULL;
    char *s = calloc(n + 1, 1);
    clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, n, s, NULL);
    return s;
}

/* Runs kernel `name` (one int* argument, n work-items) and returns 1 if
 * out[i] == want(i) for every i. */
static int run_check(cl_context c, cl_program p, const char *name, int (*want)(int))
{
    cl_int e;
    cl_kernel k = clCreateKernel(p, name, &e);
    if (!k) {
        h_fail_at(__FILE__, __LINE__, "clCreateKernel(%s): %s", name, h_err(e));
        return 0;
    }
    cl_command_queue q = h_queue(c, 0);
    enum { N = 16 };
    cl_mem b = clCreateBuffer(c, CL_MEM_READ_WRITE, N * 4, NULL, &e);
    clSetKernelArg(k, 0, sizeof b, &b);
    size_t g = N;
    int r[N] = {0}, ok = 1;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL));
    for (int i = 0; i < N; i++)
        if (r[i] != want(i)) {
            h_fail_at(__FILE__, __LINE__, "%s: out[%d] = %d, expected %d", name, i, r[i], want(i));
            ok = 0;
            break;
        }
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
    clReleaseKernel(k);
    return ok;
}

TEST(linker_available)
{
    cl_bool compiler = CL_FALSE, linker = CL_FALSE;
    CHECK_OK(clGetDeviceInfo(h_device(), CL_DEVICE_COMPILER_AVAILABLE, sizeof compiler, &compiler, NULL));
    CHECK_OK(clGetDeviceInfo(h_device(), CL_DEVICE_LINKER_AVAILABLE, sizeof linker, &linker, NULL));
    CHECK(compiler == CL_TRUE && linker == CL_TRUE, "compiler %u linker %u", compiler, linker);
}

static const char *helper_h = "#define SCALE 3\nint helper(int x);\n";
static const char *lib_src = "#include \"inc/helper.h\"\nint helper(int x) { return x * SCALE + 1; }\n";
static const char *main_src =
    "#include \"inc/helper.h\"\n"
    "kernel void use_helper(global int *out) { int i = (int)get_global_id(0); out[i] = helper(i) + SCALE; }\n";
static int want_helper(int i) { return i * 3 + 1 + 3; }

/* Two programs compiled separately (the header given as an input header
 * under a directory name), linked into one executable. */
TEST(header_and_two_objects_linked)
{
    cl_context c = h_context();
    cl_device_id d = h_device();
    cl_program h = source(c, helper_h), a = source(c, lib_src), m = source(c, main_src);
    REQUIRE(h && a && m, "create");
    const char *names[] = {"inc/helper.h"};
    CHECK_OK(clCompileProgram(a, 1, &d, NULL, 1, &h, names, NULL, NULL));
    CHECK_OK(clCompileProgram(m, 0, NULL, "-cl-std=CL1.2", 1, &h, names, NULL, NULL));
    CHECK(binary_type(a) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, "binary type of a compiled object: %#x",
          (unsigned)binary_type(a));
    cl_build_status st = 0;
    CHECK_OK(clGetProgramBuildInfo(m, d, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL));
    CHECK(st == CL_BUILD_SUCCESS, "compile status %d", st);
    /* No kernels before linking. */
    cl_int e;
    cl_kernel k = clCreateKernel(m, "use_helper", &e);
    CHECK(k == NULL && e == CL_INVALID_PROGRAM_EXECUTABLE, "kernel from a compiled object: %s", h_err(e));
    cl_program both[] = {m, a};
    cl_program exe = clLinkProgram(c, 1, &d, NULL, 2, both, NULL, NULL, &e);
    REQUIRE(exe && e == CL_SUCCESS, "link: %s", h_err(e));
    CHECK(binary_type(exe) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE, "binary type %#x", (unsigned)binary_type(exe));
    size_t nk = 0;
    CHECK_OK(clGetProgramInfo(exe, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL));
    CHECK(nk == 1, "%zu kernels", nk);
    run_check(c, exe, "use_helper", want_helper);
    /* Without the header the compile fails with a log. */
    cl_program m2 = source(c, main_src);
    CHECK_ERR(clCompileProgram(m2, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL), CL_COMPILE_PROGRAM_FAILURE);
    char *log = build_log(m2);
    CHECK(log && strstr(log, "helper.h"), "compile log: %s", log ? log : "(none)");
    free(log);
    CHECK_ERR(clCompileProgram(m2, 0, NULL, "-bogus-option", 0, NULL, NULL, NULL, NULL), CL_INVALID_COMPILER_OPTIONS);
    CHECK_ERR(clCompileProgram(m2, 0, NULL, NULL, 1, NULL, names, NULL, NULL), CL_INVALID_VALUE);
    clReleaseProgram(m2);
    clReleaseProgram(exe);
    clReleaseProgram(h);
    clReleaseProgram(a);
    clReleaseProgram(m);
    clReleaseContext(c);
}

static const char *sq_src = "int sq(int x) { return x * x; }\n";
static const char *k2_src =
    "int sq(int x);\n"
    "kernel void squares(global int *out) { int i = (int)get_global_id(0); out[i] = sq(i); }\n";
static int want_sq(int i) { return i * i; }
static const char *k3_src =
    "int sq(int x);\n"
    "kernel void cubes(global int *out) { int i = (int)get_global_id(0); out[i] = sq(i) * i; }\n";
static int want_cube(int i) { return i * i * i; }

/* A library (-create-library) linked with a kernel object; the library's
 * binary round-trips through clCreateProgramWithBinary. */
TEST(library_and_binaries)
{
    cl_context c = h_context();
    cl_device_id d = h_device();
    cl_program s = source(c, sq_src), k2 = source(c, k2_src), k3 = source(c, k3_src);
    REQUIRE(s && k2 && k3, "create");
    CHECK_OK(clCompileProgram(s, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));
    CHECK_OK(clCompileProgram(k2, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));
    CHECK_OK(clCompileProgram(k3, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));
    cl_int e;
    cl_program lib = clLinkProgram(c, 0, NULL, "-create-library", 1, &s, NULL, NULL, &e);
    REQUIRE(lib && e == CL_SUCCESS, "library: %s", h_err(e));
    CHECK(binary_type(lib) == CL_PROGRAM_BINARY_TYPE_LIBRARY, "library binary type %#x", (unsigned)binary_type(lib));

    cl_program in1[] = {k2, lib};
    cl_program exe = clLinkProgram(c, 0, NULL, "-cl-fast-relaxed-math", 2, in1, NULL, NULL, &e);
    REQUIRE(exe && e == CL_SUCCESS, "link with library: %s", h_err(e));
    run_check(c, exe, "squares", want_sq);

    /* The library's binary, back as a program, links again. */
    size_t sz = 0;
    CHECK_OK(clGetProgramInfo(lib, CL_PROGRAM_BINARY_SIZES, sizeof sz, &sz, NULL));
    REQUIRE(sz > 0, "library binary size 0");
    unsigned char *bin = malloc(sz);
    CHECK_OK(clGetProgramInfo(lib, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
    const unsigned char *cbin = bin;
    cl_int bst = 1;
    cl_program lib2 = clCreateProgramWithBinary(c, 1, &d, &sz, &cbin, &bst, &e);
    REQUIRE(lib2 && e == CL_SUCCESS && bst == CL_SUCCESS, "library from binary: %s", h_err(e));
    CHECK(binary_type(lib2) == CL_PROGRAM_BINARY_TYPE_LIBRARY, "reloaded binary type %#x", (unsigned)binary_type(lib2));
    cl_program in2[] = {k3, lib2};
    cl_program exe2 = clLinkProgram(c, 0, NULL, NULL, 2, in2, NULL, NULL, &e);
    REQUIRE(exe2 && e == CL_SUCCESS, "link with reloaded library: %s", h_err(e));
    run_check(c, exe2, "cubes", want_cube);

    /* A compiled object's binary builds into an executable. */
    cl_program all = NULL;
    cl_program in3[] = {k2, s};
    cl_program obj = clLinkProgram(c, 0, NULL, "-create-library", 2, in3, NULL, NULL, &e);
    REQUIRE(obj && e == CL_SUCCESS, "library of both: %s", h_err(e));
    CHECK_OK(clGetProgramInfo(obj, CL_PROGRAM_BINARY_SIZES, sizeof sz, &sz, NULL));
    unsigned char *bin2 = malloc(sz);
    CHECK_OK(clGetProgramInfo(obj, CL_PROGRAM_BINARIES, sizeof bin2, &bin2, NULL));
    cbin = bin2;
    all = clCreateProgramWithBinary(c, 1, &d, &sz, &cbin, NULL, &e);
    REQUIRE(all && e == CL_SUCCESS, "from binary: %s", h_err(e));
    CHECK_OK(clBuildProgram(all, 0, NULL, NULL, NULL, NULL));
    CHECK(binary_type(all) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE, "built binary type %#x", (unsigned)binary_type(all));
    run_check(c, all, "squares", want_sq);

    free(bin);
    free(bin2);
    clReleaseProgram(all);
    clReleaseProgram(obj);
    clReleaseProgram(exe2);
    clReleaseProgram(lib2);
    clReleaseProgram(exe);
    clReleaseProgram(lib);
    clReleaseProgram(s);
    clReleaseProgram(k2);
    clReleaseProgram(k3);
    clReleaseContext(c);
}

static int notified;
static void CL_CALLBACK on_link(cl_program p, void *ud)
{
    (void)p;
    *(int *)ud += 1;
}

/* Unresolved and duplicate symbols: CL_LINK_PROGRAM_FAILURE, a program
 * with CL_BUILD_ERROR and a log; bad inputs and options. */
TEST(link_errors)
{
    cl_context c = h_context();
    cl_program k2 = source(c, k2_src), s = source(c, sq_src), s2 = source(c, sq_src);
    REQUIRE(k2 && s && s2, "create");
    CHECK_OK(clCompileProgram(k2, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));
    cl_int e;
    cl_program bad = clLinkProgram(c, 0, NULL, NULL, 1, &k2, on_link, &notified, &e);
    CHECK(e == CL_LINK_PROGRAM_FAILURE, "unresolved sq: %s", h_err(e));
    CHECK(notified == 1, "link callback called %d times", notified);
    if (bad) {
        char *log = build_log(bad);
        CHECK(log && strstr(log, "sq"), "link log does not name sq: %s", log ? log : "(none)");
        free(log);
        cl_build_status st = 0;
        CHECK_OK(clGetProgramBuildInfo(bad, h_device(), CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL));
        CHECK(st == CL_BUILD_ERROR, "status %d", st);
        clReleaseProgram(bad);
    }
    CHECK_OK(clCompileProgram(s, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));
    CHECK_OK(clCompileProgram(s2, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));
    cl_program dup[] = {k2, s, s2};
    bad = clLinkProgram(c, 0, NULL, NULL, 3, dup, NULL, NULL, &e);
    CHECK(e == CL_LINK_PROGRAM_FAILURE, "duplicate sq: %s", h_err(e));
    if (bad) clReleaseProgram(bad);

    cl_program ok2[] = {k2, s};
    CHECK(clLinkProgram(c, 0, NULL, "-no-such-option", 2, ok2, NULL, NULL, &e) == NULL &&
              e == CL_INVALID_LINKER_OPTIONS,
          "bad option: %s", h_err(e));
    CHECK(clLinkProgram(c, 0, NULL, NULL, 0, NULL, NULL, NULL, &e) == NULL && e == CL_INVALID_VALUE,
          "no inputs: %s", h_err(e));
    /* A program only built from source is no compiled object. */
    cl_program src_only = source(c, sq_src);
    CHECK(clLinkProgram(c, 0, NULL, NULL, 1, &src_only, NULL, NULL, &e) == NULL && e == CL_INVALID_OPERATION,
          "uncompiled input: %s", h_err(e));
    clReleaseProgram(src_only);
    clReleaseProgram(k2);
    clReleaseProgram(s);
    clReleaseProgram(s2);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("compiler_compile_link", argc, argv);
    H_RUN(linker_available);
    H_RUN_T(header_and_two_objects_linked, 60);
    H_RUN_T(library_and_binaries, 90);
    H_RUN_T(link_errors, 60);
    return h_done();
}
