/* api/negative: error codes the Khronos CTS (test_api negative_* and
 * consistency_*) checks that our own suites missed at first. */
#include "harness.h"

TEST(context_property_value_invalid)
{
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    /* "CL_INVALID_PROPERTY if ... the value specified for a supported
     * property name is not valid": CL_CONTEXT_INTEROP_USER_SYNC takes a cl_bool. */
    cl_context_properties props[] = {CL_CONTEXT_INTEROP_USER_SYNC, (cl_context_properties)-1, 0};
    cl_int e = 0;
    cl_context c = clCreateContext(props, 1, &d, NULL, NULL, &e);
    CHECK_CREATE_FAILS(c, e, CL_INVALID_PROPERTY);
    /* The loader needs the platform to dispatch clCreateContextFromType. */
    cl_context_properties typed[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)h_platform(),
                                     CL_CONTEXT_INTEROP_USER_SYNC, (cl_context_properties)-1, 0};
    c = clCreateContextFromType(typed, CL_DEVICE_TYPE_CPU, NULL, NULL, &e);
    CHECK_CREATE_FAILS(c, e, CL_INVALID_PROPERTY);
    cl_context_properties ok[] = {CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, 0};
    c = clCreateContext(ok, 1, &d, NULL, NULL, &e);
    CHECK(c && e == CL_SUCCESS, "INTEROP_USER_SYNC=CL_TRUE: %s", h_err(e));
    if (c) clReleaseContext(c);
}

TEST(sub_devices_cannot_partition_further)
{
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    cl_uint cu = h_compute_units();
    /* One sub-device with every compute unit is no partition:
     * CL_DEVICE_PARTITION_FAILED, "in_device could not be further partitioned". */
    cl_device_partition_property eq[] = {CL_DEVICE_PARTITION_EQUALLY, (cl_device_partition_property)cu, 0};
    cl_device_id out[64];
    cl_uint n = 0;
    CHECK_ERR(clCreateSubDevices(d, eq, 64, out, &n), CL_DEVICE_PARTITION_FAILED);
    cl_device_partition_property counts[] = {CL_DEVICE_PARTITION_BY_COUNTS, (cl_device_partition_property)cu,
                                             CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    CHECK_ERR(clCreateSubDevices(d, counts, 64, out, &n), CL_DEVICE_PARTITION_FAILED);
    /* More than there are stays a count error. */
    eq[1] = cu + 1;
    CHECK_ERR(clCreateSubDevices(d, eq, 64, out, &n), CL_INVALID_DEVICE_PARTITION_COUNT);
}

TEST(no_device_queues_means_invalid_operation)
{
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    cl_device_device_enqueue_capabilities caps = 1;
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof caps, &caps, NULL));
    if (caps != 0) {
        h_skip("device supports device-side enqueue");
        return;
    }
    cl_context c = h_context();
    REQUIRE(c, "context");
    /* "CL_INVALID_OPERATION if device does not support a replaceable default
     * on-device queue", whatever the queue argument. */
    CHECK_ERR(clSetDefaultDeviceCommandQueue(c, d, NULL), CL_INVALID_OPERATION);
    clReleaseContext(c);
}

TEST(no_il_means_invalid_operation_for_spec_constants)
{
    char *il = h_device_string(h_device(), CL_DEVICE_IL_VERSION);
    if (il && il[0]) {
        h_skip("device supports IL");
        free(il);
        return;
    }
    free(il);
    cl_context c = h_context();
    REQUIRE(c, "context");
    const char *src = "kernel void k(void) {}";
    cl_int e = 0;
    cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, &e);
    REQUIRE(p && e == CL_SUCCESS, "program: %s", h_err(e));
    cl_int v = 1;
    /* "CL_INVALID_OPERATION if no devices associated with program support
     * intermediate language programs." */
    CHECK_ERR(clSetProgramSpecializationConstant(p, 0, sizeof v, &v), CL_INVALID_OPERATION);
    clReleaseProgram(p);
    clReleaseContext(c);
}

TEST(supported_image_formats_validate_args)
{
    cl_context c = h_context();
    REQUIRE(c, "context");
    cl_uint n = 99;
    /* "CL_INVALID_VALUE if flags or image_type are not valid", images
     * supported or not. */
    CHECK_ERR(clGetSupportedImageFormats(c, CL_MEM_READ_WRITE, 0x7777, 0, NULL, &n),
              CL_INVALID_VALUE);
    CHECK_ERR(clGetSupportedImageFormats(c, CL_MEM_READ_WRITE, CL_MEM_OBJECT_BUFFER, 0, NULL, &n),
              CL_INVALID_VALUE);
    CHECK_ERR(clGetSupportedImageFormats(c, CL_MEM_READ_WRITE, CL_MEM_OBJECT_PIPE, 0, NULL, &n),
              CL_INVALID_VALUE);
    CHECK_ERR(clGetSupportedImageFormats(c, (cl_mem_flags)1 << 40, CL_MEM_OBJECT_IMAGE2D, 0, NULL,
                                         &n),
              CL_INVALID_VALUE);
    CHECK_ERR(clGetSupportedImageFormats(c, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
                                         CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n),
              CL_INVALID_VALUE);
    cl_image_format f[4];
    CHECK_ERR(clGetSupportedImageFormats(c, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, f, &n),
              CL_INVALID_VALUE);
    /* Valid arguments succeed: no formats without image support. */
    const cl_mem_object_type types[] = {
        CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE1D_BUFFER,
        CL_MEM_OBJECT_IMAGE2D,       CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D,
    };
    cl_bool images = CL_TRUE;
    CHECK_OK(clGetDeviceInfo(h_device(), CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        n = 99;
        CHECK_OK(clGetSupportedImageFormats(c, CL_MEM_READ_WRITE | CL_MEM_KERNEL_READ_AND_WRITE,
                                            types[i], 4, f, &n));
        CHECK(images || n == 0, "type 0x%x: %u formats without image support", types[i], n);
    }
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("api", argc, argv);
    H_RUN(context_property_value_invalid);
    H_RUN(sub_devices_cannot_partition_further);
    H_RUN(no_device_queues_means_invalid_operation);
    H_RUN(no_il_means_invalid_operation_for_spec_constants);
    H_RUN(supported_image_formats_validate_args);
    return h_done();
}
