/* api/program: program and kernel object answers the spec fixes (build
 * and compile with kernels attached, empty sources, kernel argument
 * information, kernel names). */
#include "harness.h"

static const char *ARGS_SRC =
    "kernel void k(global int *dst, const int value) { dst[0] = value; }";

static cl_program from_source(cl_context c, const char *src)
{
    cl_int e = 0;
    cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, &e);
    CHECK(p && e == CL_SUCCESS, "clCreateProgramWithSource: %s", h_err(e));
    return p;
}

TEST(build_and_compile_with_kernels_attached)
{
    cl_context c = h_context();
    REQUIRE(c, "context");
    cl_program p = h_build(c, ARGS_SRC, NULL);
    REQUIRE(p, "build");
    cl_int e = 0;
    cl_kernel k = clCreateKernel(p, "k", &e);
    REQUIRE(k && e == CL_SUCCESS, "clCreateKernel: %s", h_err(e));
    /* clBuildProgram and clCompileProgram: "CL_INVALID_OPERATION if there
     * are kernel objects attached to program." */
    CHECK_ERR(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
    CHECK_ERR(clCompileProgram(p, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
    /* A clone is attached too. */
    cl_kernel clone = clCloneKernel(k, &e);
    CHECK(clone && e == CL_SUCCESS, "clCloneKernel: %s", h_err(e));
    CHECK_OK(clReleaseKernel(k));
    CHECK_ERR(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
    if (clone) CHECK_OK(clReleaseKernel(clone));
    /* Once they are gone the program builds again, and the kernels of
     * clCreateKernelsInProgram count as well. */
    CHECK_OK(clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
    cl_kernel all[4] = {0};
    cl_uint n = 0;
    CHECK_OK(clCreateKernelsInProgram(p, 4, all, &n));
    CHECK(n == 1, "%u kernels", n);
    CHECK_ERR(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
    for (cl_uint i = 0; i < n && i < 4; i++) CHECK_OK(clReleaseKernel(all[i]));
    CHECK_OK(clCompileProgram(p, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));
    clReleaseProgram(p);
    clReleaseContext(c);
}

TEST(empty_source_compiles_and_builds)
{
    cl_context c = h_context();
    REQUIRE(c, "context");
    /* A program created from source has source, even an empty one:
     * CL_INVALID_OPERATION is for "no source or IL available". */
    cl_program p = from_source(c, "");
    REQUIRE(p, "program");
    CHECK_OK(clCompileProgram(p, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));
    cl_program_binary_type t = 0;
    CHECK_OK(clGetProgramBuildInfo(p, h_device(), CL_PROGRAM_BINARY_TYPE, sizeof t, &t, NULL));
    CHECK(t == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, "binary type %llu", (unsigned long long)t);
    clReleaseProgram(p);
    p = from_source(c, "");
    REQUIRE(p, "program");
    CHECK_OK(clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
    size_t nk = 99;
    CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL));
    CHECK(nk == 0, "%zu kernels", nk);
    clReleaseProgram(p);
    clReleaseContext(c);
}

static const cl_kernel_arg_info ARG_QUERIES[] = {
    CL_KERNEL_ARG_ADDRESS_QUALIFIER, CL_KERNEL_ARG_ACCESS_QUALIFIER, CL_KERNEL_ARG_TYPE_NAME,
    CL_KERNEL_ARG_TYPE_QUALIFIER, CL_KERNEL_ARG_NAME,
};

/* Every argument query of kernel k in p: all answer, or none ("Kernel
 * argument information is only available if ... the program executable
 * was built with the -cl-kernel-arg-info option"). */
static void check_arg_info(cl_program p, int available, const char *what)
{
    cl_int e = 0;
    cl_kernel k = clCreateKernel(p, "k", &e);
    if (!k) {
        h_fail_at(__FILE__, __LINE__, "%s: clCreateKernel: %s", what, h_err(e));
        return;
    }
    char buf[256];
    for (size_t i = 0; i < sizeof ARG_QUERIES / sizeof ARG_QUERIES[0]; i++) {
        for (cl_uint a = 0; a < 2; a++) {
            e = clGetKernelArgInfo(k, a, ARG_QUERIES[i], sizeof buf, buf, NULL);
            cl_int want = available ? CL_SUCCESS : CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
            CHECK(e == want, "%s: query 0x%x of argument %u: %s, expected %s", what,
                  ARG_QUERIES[i], a, h_err(e), h_err(want));
        }
    }
    if (available) {
        CHECK_OK(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_NAME, sizeof buf, buf, NULL));
        CHECK(strcmp(buf, "value") == 0, "%s: argument 1 named %s", what, buf);
    }
    /* A bad index stays a bad index. */
    CHECK_ERR(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_NAME, sizeof buf, buf, NULL),
              CL_INVALID_ARG_INDEX);
    clReleaseKernel(k);
}

/* p's binary, loaded into a new program and built. */
static cl_program rebuilt_from_binary(cl_context c, cl_program p)
{
    size_t size = 0;
    CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
    unsigned char *bin = malloc(size);
    CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
    cl_device_id d = h_device();
    cl_int st = 0, e = 0;
    const unsigned char *cbin = bin;
    cl_program b = clCreateProgramWithBinary(c, 1, &d, &size, &cbin, &st, &e);
    free(bin);
    CHECK(b && e == CL_SUCCESS, "clCreateProgramWithBinary: %s", h_err(e));
    if (b) CHECK_OK(clBuildProgram(b, 0, NULL, NULL, NULL, NULL));
    return b;
}

TEST(kernel_arg_info_only_with_option)
{
    cl_context c = h_context();
    REQUIRE(c, "context");
    cl_program plain = h_build(c, ARGS_SRC, NULL);
    cl_program with = h_build(c, ARGS_SRC, "-cl-kernel-arg-info");
    REQUIRE(plain && with, "build");
    check_arg_info(plain, 0, "built without -cl-kernel-arg-info");
    check_arg_info(with, 1, "built with -cl-kernel-arg-info");
    /* Binaries keep what their build asked for. */
    cl_program b = rebuilt_from_binary(c, plain);
    if (b) check_arg_info(b, 0, "binary of a build without the option");
    if (b) clReleaseProgram(b);
    b = rebuilt_from_binary(c, with);
    if (b) check_arg_info(b, 1, "binary of a build with the option");
    if (b) clReleaseProgram(b);
    /* Linked programs: the option of the compile that made the kernel
     * (clCompileProgram's options, as the spec says). */
    for (int opt = 0; opt < 2; opt++) {
        cl_program o = from_source(c, ARGS_SRC);
        REQUIRE(o, "program");
        CHECK_OK(clCompileProgram(o, 0, NULL, opt ? "-cl-kernel-arg-info" : NULL, 0, NULL, NULL,
                                  NULL, NULL));
        cl_int e = 0;
        cl_program l = clLinkProgram(c, 0, NULL, NULL, 1, &o, NULL, NULL, &e);
        CHECK(l && e == CL_SUCCESS, "clLinkProgram: %s", h_err(e));
        if (l) check_arg_info(l, opt, opt ? "linked, compiled with the option"
                                          : "linked, compiled without the option");
        if (l) clReleaseProgram(l);
        clReleaseProgram(o);
    }
    clReleaseProgram(plain);
    clReleaseProgram(with);
    clReleaseContext(c);
}

TEST(kernel_name_not_ascii)
{
    cl_context c = h_context();
    REQUIRE(c, "context");
    cl_program p = h_build(c, ARGS_SRC, NULL);
    REQUIRE(p, "build");
    /* "CL_INVALID_KERNEL_NAME if kernel_name is not found in program",
     * whatever its bytes; CL_INVALID_VALUE is for a NULL kernel_name. */
    const char *names[] = {"\xff\xfe", "k\xc3\xa9", "\x80"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        cl_int e = 0;
        cl_kernel k = clCreateKernel(p, names[i], &e);
        CHECK_CREATE_FAILS(k, e, CL_INVALID_KERNEL_NAME);
    }
    cl_int e = 0;
    cl_kernel k = clCreateKernel(p, NULL, &e);
    CHECK_CREATE_FAILS(k, e, CL_INVALID_VALUE);
    clReleaseProgram(p);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("api", argc, argv);
    H_RUN_T(build_and_compile_with_kernels_attached, 60);
    H_RUN_T(empty_source_compiles_and_builds, 60);
    H_RUN_T(kernel_arg_info_only_with_option, 120);
    H_RUN(kernel_name_not_ascii);
    return h_done();
}
