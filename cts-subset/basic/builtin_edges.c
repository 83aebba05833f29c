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

TEST(math_edge_cases)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    /* Special values the Khronos math_brute_force suite checks. */
    const char *src =
        "kernel void k(global float *f, global int *i) {\n"
        "  f[0] = powr(-0.0f, -3.0f); f[1] = powr(-0.0f, 1.0f); f[2] = half_powr(-0.0f, -3.0f);\n"
        "  f[3] = tanpi(-0.0f); f[4] = tanpi(1.5f); f[5] = tanpi(0.5f);\n"
        "  i[0] = ilogb(as_float(0x7f800022)); i[1] = ilogb(0.0f);\n"
        "  int qq; f[6] = remquo(0x1.e94812p+89f, -0x1.43bda6p-64f, &qq); i[2] = qq; }\n";
    cl_int e;
    cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, &e);
    cl_device_id d = h_device();
    REQUIRE_OK(clBuildProgram(p, 1, &d, NULL, NULL, NULL));
    cl_kernel k = clCreateKernel(p, "k", &e);
    cl_mem bf = clCreateBuffer(c, 0, 7 * sizeof(float), NULL, &e);
    cl_mem bi = clCreateBuffer(c, 0, 3 * sizeof(int), NULL, &e);
    CHECK_OK(clSetKernelArg(k, 0, sizeof bf, &bf));
    CHECK_OK(clSetKernelArg(k, 1, sizeof bi, &bi));
    CHECK_OK(clEnqueueTask(q, k, 0, NULL, NULL));
    float f[7];
    int i[3];
    CHECK_OK(clEnqueueReadBuffer(q, bf, CL_TRUE, 0, sizeof f, f, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, bi, CL_TRUE, 0, sizeof i, i, 0, NULL, NULL));
    CHECK(isinf(f[0]) && f[0] > 0, "powr(-0, -3) = %g", f[0]);
    CHECK(f[1] == 0 && !signbit(f[1]), "powr(-0, 1) = %g", f[1]);
    CHECK(isinf(f[2]) && f[2] > 0, "half_powr(-0, -3) = %g", f[2]);
    CHECK(f[3] == 0 && signbit(f[3]), "tanpi(-0) = %g", f[3]);
    CHECK(isinf(f[4]) && f[4] < 0, "tanpi(1.5) = %g", f[4]);
    CHECK(isinf(f[5]) && f[5] > 0, "tanpi(0.5) = %g", f[5]);
    CHECK(i[0] == 2147483647, "ilogb(nan) = %d (FP_ILOGBNAN is INT_MAX)", i[0]);
    CHECK(i[1] == -2147483647 - 1, "ilogb(0) = %d", i[1]);
    CHECK((i[2] & 127) == (-118 & 127) && i[2] < 0, "remquo quotient %d, 7 low bits of -118", i[2]);
    clReleaseMemObject(bf);
    clReleaseMemObject(bi);
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
    H_RUN(math_edge_cases);
    return h_done();
}
