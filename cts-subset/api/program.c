/* api/program: program and kernel object answers the spec fixes. */
#include "harness.h"

static const char *ARGS_SRC =
    "kernel void k(global int *dst, const int value) { dst[0] = value; }";

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
    H_RUN(kernel_name_not_ascii);
    return h_done();
}
