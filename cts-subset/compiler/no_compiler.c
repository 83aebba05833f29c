/* compiler: without the in-process compiler (FERROCL_IN_PROCESS=0, set
 * before the first build), ferrocl builds nothing rather than running clang
 * as a tool without its own passes (C99 inline definitions, division that
 * cannot trap): clBuildProgram answers CL_COMPILER_NOT_AVAILABLE with a log
 * that says why. Other implementations ignore the variable and build. */
#include "harness.h"
#include <stdlib.h>
#include <string.h>

static const char *src = "kernel void k(global int *o) { o[get_global_id(0)] = 7; }";

TEST(no_in_process_compiler_builds_nothing)
{
    cl_context c = h_context();
    cl_device_id d = h_device();
    cl_int e;
    char *name = h_platform_string(h_platform(), CL_PLATFORM_NAME);
    int ferrocl = name && strcmp(name, "FerroCL") == 0;
    free(name);
    cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, &e);
    cl_int built = clBuildProgram(p, 1, &d, NULL, NULL, NULL);
    if (!ferrocl) {
        CHECK_OK(built);
        clReleaseProgram(p);
        clReleaseContext(c);
        h_skip("not ferrocl");
        return;
    }
    /* The variable was set before the first build: nothing builds. */
    CHECK_ERR(built, CL_COMPILER_NOT_AVAILABLE);
    size_t n = 0;
    clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    char *log = calloc(n + 1, 1);
    clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, n, log, NULL);
    CHECK(strstr(log, "in-process compiler") != NULL, "log: %s", log);
    free(log);
    clReleaseProgram(p);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    setenv("FERROCL_IN_PROCESS", "0", 1);
    /* The kernel cache would answer from an earlier build. */
    setenv("FERROCL_CACHE_DIR", "", 1);
    h_init("compiler_no_compiler", argc, argv);
    H_RUN(no_in_process_compiler_builds_nothing);
    return h_done();
}
