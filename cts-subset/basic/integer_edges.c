/* basic: integer builtins at their edges (found by the Khronos CTS
 * integer_ops suite): scalar saturating arithmetic on narrow types. */
#include "harness.h"

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

int main(int argc, char **argv)
{
    h_init("basic", argc, argv);
    H_RUN(scalar_saturation_of_narrow_types);
    return h_done();
}
