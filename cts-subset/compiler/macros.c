/* compiler: what the front end defines matches what the device reports
 * (found by the Khronos CTS compiler/basic suites). */
#include "harness.h"

static int run_int_kernel(cl_context c, const char *src, const char *opts, int *out)
{
    cl_int e;
    cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, &e);
    cl_device_id d = h_device();
    e = clBuildProgram(p, 1, &d, opts, NULL, NULL);
    if (e) {
        clReleaseProgram(p);
        return e;
    }
    cl_kernel k = clCreateKernel(p, "k", &e);
    cl_command_queue q = h_queue(c, 0);
    cl_mem m = clCreateBuffer(c, 0, 16 * sizeof(int), NULL, &e);
    clSetKernelArg(k, 0, sizeof m, &m);
    e = clEnqueueTask(q, k, 0, NULL, NULL);
    if (!e) e = clEnqueueReadBuffer(q, m, CL_TRUE, 0, 16 * sizeof(int), out, 0, NULL, NULL);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseCommandQueue(q);
    clReleaseProgram(p);
    return e;
}

TEST(opencl_version_macro)
{
    cl_context c = h_context();
    int r[16] = {0};
    const char *src = "kernel void k(global int *o) { o[0] = __OPENCL_VERSION__; o[1] = __OPENCL_C_VERSION__; }";
    CHECK_OK(run_int_kernel(c, src, "-cl-std=CL3.0", r));
    CHECK(r[0] == 300, "__OPENCL_VERSION__ %d", r[0]);
    CHECK(r[1] == 300, "__OPENCL_C_VERSION__ %d", r[1]);
    clReleaseContext(c);
}

/* __IMAGE_SUPPORT__ is 1 exactly when the device has images (the Khronos
 * CTS's kernel_preprocessor_macros), in every OpenCL C version. */
TEST(image_support_macro)
{
    cl_context c = h_context();
    cl_bool images = CL_FALSE;
    CHECK_OK(clGetDeviceInfo(h_device(), CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
    const char *src = "kernel void k(global int *o) {\n"
                      "#ifdef __IMAGE_SUPPORT__\n"
                      "  o[0] = __IMAGE_SUPPORT__;\n"
                      "#else\n"
                      "  o[0] = 0;\n"
                      "#endif\n"
                      "}\n";
    const char *stds[] = {"-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0"};
    for (int i = 0; i < 3; i++) {
        int r[16] = {-1};
        CHECK_OK(run_int_kernel(c, src, stds[i], r));
        CHECK(r[0] == (images ? 1 : 0), "%s: __IMAGE_SUPPORT__ %d, images %d", stds[i], r[0],
              images);
    }
    clReleaseContext(c);
}

TEST(feature_macros_match_device_features)
{
    cl_device_id d = h_device();
    size_t sz = 0;
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &sz));
    cl_name_version *f = malloc(sz + 1);
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_FEATURES, sz, f, NULL));
    size_t n = sz / sizeof *f;
    /* Each macro clang knows for CL3.0: defined in a kernel iff reported. */
    const char *names[] = {"__opencl_c_int64", "__opencl_c_fp64", "__opencl_c_images",
                           "__opencl_c_pipes", "__opencl_c_device_enqueue", "__opencl_c_subgroups",
                           "__opencl_c_generic_address_space", "__opencl_c_atomic_order_seq_cst",
                           "__opencl_c_program_scope_global_variables", "__opencl_c_3d_image_writes"};
    cl_context c = h_context();
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        int reported = 0;
        for (size_t j = 0; j < n; j++) reported |= !strcmp(f[j].name, names[i]);
        char src[512];
        snprintf(src, sizeof src,
                 "kernel void k(global int *o) {\n#ifdef %s\n o[0] = 1;\n#else\n o[0] = 0;\n#endif\n}", names[i]);
        int r[16] = {-1};
        CHECK_OK(run_int_kernel(c, src, "-cl-std=CL3.0", r));
        CHECK(r[0] == reported, "%s: defined %d, reported %d", names[i], r[0], reported);
    }
    free(f);
    clReleaseContext(c);
}

TEST(extension_macros_match_device_extensions)
{
    char *ext = h_device_string(h_device(), CL_DEVICE_EXTENSIONS);
    REQUIRE(ext, "extensions");
    const char *names[] = {"cl_khr_fp64", "cl_khr_fp16", "cl_khr_int64_base_atomics", "cl_khr_subgroups",
                           "cl_khr_global_int32_base_atomics", "cl_khr_3d_image_writes",
                           "cl_khr_depth_images", "cl_khr_srgb_image_writes",
                           "cl_khr_subgroup_shuffle", "cl_khr_subgroup_rotate",
                           "cl_khr_extended_bit_ops", "cl_khr_integer_dot_product",
                           "cl_khr_expect_assume", "cl_intel_required_subgroup_size"};
    cl_context c = h_context();
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        int reported = strstr(ext, names[i]) != NULL;
        char src[512];
        snprintf(src, sizeof src,
                 "kernel void k(global int *o) {\n#ifdef %s\n o[0] = 1;\n#else\n o[0] = 0;\n#endif\n}", names[i]);
        int r[16] = {-1};
        CHECK_OK(run_int_kernel(c, src, "", r));
        CHECK(r[0] == reported, "%s: defined %d, reported %d", names[i], r[0], reported);
    }
    free(ext);
    clReleaseContext(c);
}

TEST(cl3_options_accepted)
{
    cl_context c = h_context();
    int r[16] = {0};
    /* Valid in OpenCL 3.0, meaningless without sub-groups. */
    CHECK_OK(run_int_kernel(c, "kernel void k(global int *o) { o[0] = 5; }", "-cl-no-subgroup-ifp", r));
    CHECK(r[0] == 5, "result %d", r[0]);
    clReleaseContext(c);
}

TEST(integer_division_by_zero_does_not_crash)
{
    cl_context c = h_context();
    int r[16] = {0};
    /* Undefined values, but the application must survive. */
    const char *src =
        "kernel void k(global int *o) { volatile int z = 0, m = -1; int mn = (int)0x80000000;\n"
        " o[0] = 7 / z; o[1] = 7 % z; o[2] = mn / m; o[3] = mn % m; o[4] = (int)(7u / (uint)z);\n"
        " int4 v = (int4)(1, 2, 3, 4) / (int4)(z); o[5] = v.x; o[6] = 42; }";
    CHECK_OK(run_int_kernel(c, src, "", r));
    CHECK(r[6] == 42, "kernel did not finish: %d", r[6]);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("compiler", argc, argv);
    H_RUN(opencl_version_macro);
    H_RUN_T(image_support_macro, 60);
    H_RUN_T(feature_macros_match_device_features, 60);
    H_RUN(extension_macros_match_device_extensions);
    H_RUN(cl3_options_accepted);
    H_RUN(integer_division_by_zero_does_not_crash);
    return h_done();
}
