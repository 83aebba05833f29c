/* api/program: program and kernel object answers the spec fixes (build
 * and compile with kernels attached, empty sources, kernel names). */
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
    H_RUN(kernel_name_not_ascii);
    return h_done();
}
