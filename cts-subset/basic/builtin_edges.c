/* basic: builtins at their edges, found by the Khronos CTS integer_ops and
 * geometrics suites. */
#include "harness.h"
#include <math.h>

TEST(scalar_saturation_of_narrow_types)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    const char *src =
        "kernel void k(global int *o) {\n"
        "  o[0] = add_sat((char)-84, (char)-56); o[1] = add_sat((uchar)0xac, (uchar)0xc8);\n"
        "  o[2] = add_sat((short)-26684, (short)-22246); o[3] = add_sat((ushort)0x0aac, (ushort)0xf8c8);\n"
        "  o[4] = sub_sat((char)-100, (char)100); o[5] = sub_sat((uchar)1, (uchar)2);\n"
        "  o[6] = add_sat((char2)(-84, 0), (char2)(-56, 0)).x; o[7] = sub_sat((short)32000, (short)-1000);\n"
        "  o[8] = add_sat(2147483000, 1000); o[9] = sub_sat(5u, 6u); }\n";
    cl_int e;
    cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, &e);
    cl_device_id d = h_device();
    REQUIRE_OK(clBuildProgram(p, 1, &d, NULL, NULL, NULL));
    cl_kernel k = clCreateKernel(p, "k", &e);
    cl_mem m = clCreateBuffer(c, 0, 10 * sizeof(int), NULL, &e);
    CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
    CHECK_OK(clEnqueueTask(q, k, 0, NULL, NULL));
    int o[10];
    CHECK_OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL));
    const int want[10] = {-128, 255, -32768, 65535, -128, 0, -128, 32767, 2147483647, 0};
    for (int i = 0; i < 10; i++) CHECK(o[i] == want[i], "case %d: %d, expected %d", i, o[i], want[i]);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(normalize_beyond_float_range)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    /* |v| exceeds FLT_MAX, and a denormal vector has a length that
     * underflows: both still normalize to unit vectors. */
    const char *src =
        "kernel void k(global float *o) {\n"
        "  float2 v = normalize((float2)(-0x1.ce02eap+127f, 0x1.51067cp+127f)); o[0] = v.x; o[1] = v.y;\n"
        "  float4 w = normalize((float4)(0x1p-140f, 0, 0, 0)); o[2] = w.x; }\n";
    cl_int e;
    cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, &e);
    cl_device_id d = h_device();
    REQUIRE_OK(clBuildProgram(p, 1, &d, NULL, NULL, NULL));
    cl_kernel k = clCreateKernel(p, "k", &e);
    cl_mem m = clCreateBuffer(c, 0, 3 * sizeof(float), NULL, &e);
    CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
    CHECK_OK(clEnqueueTask(q, k, 0, NULL, NULL));
    float o[3];
    CHECK_OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL));
    CHECK(fabsf(o[0] + 0.807889f) < 1e-5f && fabsf(o[1] - 0.589334f) < 1e-5f, "(%g, %g)", o[0], o[1]);
    CHECK(o[2] == 1.0f, "denormal: %g", o[2]);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("basic", argc, argv);
    H_RUN(scalar_saturation_of_narrow_types);
    H_RUN(normalize_beyond_float_range);
    return h_done();
}
