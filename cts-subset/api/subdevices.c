/* api/subdevices: clCreateSubDevices equally, by counts and by affinity domain. */
#include "harness.h"

static int supports(cl_device_id d, cl_device_partition_property what)
{
    cl_device_partition_property p[16] = {0};
    size_t sz = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_PARTITION_PROPERTIES, sizeof p, p, &sz) != CL_SUCCESS)
        return 0;
    for (size_t i = 0; i < sz / sizeof p[0]; i++)
        if (p[i] == what) return 1;
    return 0;
}

static cl_uint uinfo(cl_device_id d, cl_device_info p)
{
    cl_uint v = 0;
    CHECK_OK(clGetDeviceInfo(d, p, sizeof v, &v, NULL));
    return v;
}

TEST(subdev_partition_properties_query)
{
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    size_t sz = 0;
    REQUIRE_OK(clGetDeviceInfo(d, CL_DEVICE_PARTITION_PROPERTIES, 0, NULL, &sz));
    CHECK(sz >= sizeof(cl_device_partition_property), "size %zu", sz);
    cl_uint maxsub = uinfo(d, CL_DEVICE_PARTITION_MAX_SUB_DEVICES);
    cl_device_partition_property p[16] = {0};
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_PARTITION_PROPERTIES, sizeof p, p, NULL));
    if (p[0] == 0) {
        CHECK(sz == sizeof(cl_device_partition_property), "unsupported: size must be one entry");
    } else {
        CHECK(maxsub >= 2, "partitioning supported but max sub devices %u", maxsub);
        CHECK(maxsub <= uinfo(d, CL_DEVICE_MAX_COMPUTE_UNITS), "max sub devices > CUs");
    }
    /* root device: partition type has size 0 or a single 0 entry */
    size_t tsz = 99;
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_PARTITION_TYPE, 0, NULL, &tsz));
    CHECK(tsz == 0 || tsz == sizeof(cl_device_partition_property),
          "root partition type size %zu", tsz);
}

TEST(subdev_equally)
{
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    if (!supports(d, CL_DEVICE_PARTITION_EQUALLY)) {
        h_skip("CL_DEVICE_PARTITION_EQUALLY not supported");
        return;
    }
    cl_uint cu = uinfo(d, CL_DEVICE_MAX_COMPUTE_UNITS);
    cl_uint maxsub = uinfo(d, CL_DEVICE_PARTITION_MAX_SUB_DEVICES);
    cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_uint n = 0;
    REQUIRE_OK(clCreateSubDevices(d, props, 0, NULL, &n));
    cl_uint want = cu < maxsub ? cu : maxsub;
    CHECK(n == want, "equally(1): %u sub-devices, expected %u", n, want);
    REQUIRE(n >= 1 && n <= 256, "bad count %u", n);
    cl_device_id subs[256];
    if (n > 1)
        CHECK_ERR(clCreateSubDevices(d, props, n - 1, subs, NULL), CL_INVALID_VALUE);
    cl_uint n2 = 0;
    REQUIRE_OK(clCreateSubDevices(d, props, n, subs, &n2));
    CHECK(n2 == n, "count %u then %u", n, n2);
    for (cl_uint i = 0; i < n; i++) {
        CHECK(subs[i] != d && subs[i] != NULL, "sub-device %u bad handle", i);
        cl_device_id parent = NULL;
        CHECK_OK(clGetDeviceInfo(subs[i], CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL));
        CHECK(parent == d, "parent %p != root %p", (void *)parent, (void *)d);
        CHECK(uinfo(subs[i], CL_DEVICE_MAX_COMPUTE_UNITS) == 1, "sub-device CUs != 1");
        cl_device_partition_property t[8] = {0};
        size_t tsz = 0;
        CHECK_OK(clGetDeviceInfo(subs[i], CL_DEVICE_PARTITION_TYPE, sizeof t, t, &tsz));
        CHECK(tsz == sizeof props && t[0] == CL_DEVICE_PARTITION_EQUALLY && t[1] == 1 &&
              t[2] == 0, "partition type (size %zu) %ld %ld %ld", tsz, (long)t[0],
              (long)t[1], (long)t[2]);
        cl_platform_id pl = NULL;
        CHECK_OK(clGetDeviceInfo(subs[i], CL_DEVICE_PLATFORM, sizeof pl, &pl, NULL));
        CHECK(pl == h_platform(), "sub-device platform differs");
        cl_device_type ty = 0;
        CHECK_OK(clGetDeviceInfo(subs[i], CL_DEVICE_TYPE, sizeof ty, &ty, NULL));
        CHECK(ty & CL_DEVICE_TYPE_CPU, "sub-device type");
        CHECK(uinfo(subs[i], CL_DEVICE_REFERENCE_COUNT) == 1, "sub refcount %u",
              uinfo(subs[i], CL_DEVICE_REFERENCE_COUNT));
        CHECK_OK(clRetainDevice(subs[i]));
        CHECK(uinfo(subs[i], CL_DEVICE_REFERENCE_COUNT) == 2, "refcount after retain %u",
              uinfo(subs[i], CL_DEVICE_REFERENCE_COUNT));
        CHECK_OK(clReleaseDevice(subs[i]));
        CHECK(uinfo(subs[i], CL_DEVICE_REFERENCE_COUNT) == 1, "refcount after release");
    }
    for (cl_uint i = 0; i < n; i++) CHECK_OK(clReleaseDevice(subs[i]));
    /* root device is not listed by clGetDeviceIDs as changed */
    cl_uint nd = 0;
    CHECK_OK(clGetDeviceIDs(h_platform(), CL_DEVICE_TYPE_ALL, 0, NULL, &nd));
    CHECK(nd >= 1, "devices vanished");
}

TEST(subdev_by_counts)
{
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    if (!supports(d, CL_DEVICE_PARTITION_BY_COUNTS)) {
        h_skip("CL_DEVICE_PARTITION_BY_COUNTS not supported");
        return;
    }
    cl_uint cu = uinfo(d, CL_DEVICE_MAX_COMPUTE_UNITS);
    /* one sub-device with all but one CU (or 1), one with 1 */
    cl_device_partition_property props[6];
    int np = 0;
    cl_uint expect[2];
    cl_uint nexp;
    props[np++] = CL_DEVICE_PARTITION_BY_COUNTS;
    if (cu >= 2) {
        props[np++] = cu - 1; expect[0] = cu - 1;
        props[np++] = 1; expect[1] = 1;
        nexp = 2;
    } else {
        props[np++] = 1; expect[0] = 1; nexp = 1;
    }
    props[np++] = CL_DEVICE_PARTITION_BY_COUNTS_LIST_END;
    props[np++] = 0;
    cl_device_id subs[2] = {0};
    cl_uint n = 0;
    REQUIRE_OK(clCreateSubDevices(d, props, 2, subs, &n));
    CHECK(n == nexp, "got %u sub-devices, expected %u", n, nexp);
    for (cl_uint i = 0; i < n && i < 2; i++) {
        CHECK(uinfo(subs[i], CL_DEVICE_MAX_COMPUTE_UNITS) == expect[i], "sub %u has %u CUs, "
              "expected %u", i, uinfo(subs[i], CL_DEVICE_MAX_COMPUTE_UNITS), expect[i]);
        cl_device_partition_property t[8] = {0};
        size_t tsz = 0;
        CHECK_OK(clGetDeviceInfo(subs[i], CL_DEVICE_PARTITION_TYPE, sizeof t, t, &tsz));
        CHECK(tsz == (size_t)np * sizeof props[0], "partition type size %zu, expected %zu",
              tsz, (size_t)np * sizeof props[0]);
        CHECK(!memcmp(t, props, tsz < sizeof t ? tsz : sizeof t), "partition type differs");
        cl_device_id parent = NULL;
        CHECK_OK(clGetDeviceInfo(subs[i], CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL));
        CHECK(parent == d, "wrong parent");
    }
    for (cl_uint i = 0; i < n && i < 2; i++) CHECK_OK(clReleaseDevice(subs[i]));
    /* too many compute units requested */
    cl_device_partition_property big[] = {CL_DEVICE_PARTITION_BY_COUNTS, cu + 1,
        CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    cl_int e = clCreateSubDevices(d, big, 2, subs, NULL);
    CHECK(e == CL_INVALID_DEVICE_PARTITION_COUNT,
          "BY_COUNTS with %u CUs (> %u): %s", cu + 1, cu, h_err(e));
}

TEST(subdev_errors)
{
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    cl_device_id subs[64];
    cl_uint n = 0;
    cl_device_partition_property bad[] = {0x7777, 1, 0};
    CHECK_ERR(clCreateSubDevices(d, bad, 64, subs, &n), CL_INVALID_VALUE);
    CHECK_ERR(clCreateSubDevices(d, NULL, 64, subs, &n), CL_INVALID_VALUE);
    cl_device_partition_property eq[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    CHECK_ERR(clCreateSubDevices(NULL, eq, 64, subs, &n), CL_INVALID_DEVICE);
    if (supports(d, CL_DEVICE_PARTITION_EQUALLY)) {
        /* out_devices non-NULL but num_devices too small */
        CHECK_ERR(clCreateSubDevices(d, eq, 0, subs, NULL), CL_INVALID_VALUE);
    }
}

static void CL_CALLBACK bump(void *p) { __atomic_fetch_add(*(int **)p, 1, __ATOMIC_SEQ_CST); }

TEST(subdev_context_and_queue)
{
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    if (!supports(d, CL_DEVICE_PARTITION_EQUALLY)) {
        h_skip("CL_DEVICE_PARTITION_EQUALLY not supported");
        return;
    }
    cl_device_partition_property eq[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_id all[256] = {0};
    cl_uint n = 0;
    REQUIRE_OK(clCreateSubDevices(d, eq, 256, all, &n));
    REQUIRE(n >= 1 && all[0], "no sub-device");
    for (cl_uint i = 1; i < n && i < 256; i++) CHECK_OK(clReleaseDevice(all[i]));
    cl_device_id sub = all[0];
    cl_int e = 0;
    cl_context ctx = clCreateContext(NULL, 1, &sub, NULL, NULL, &e);
    REQUIRE(ctx && e == CL_SUCCESS, "context on sub-device: %s", h_err(e));
    cl_device_id got = NULL;
    CHECK_OK(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof got, &got, NULL));
    CHECK(got == sub, "context devices");
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, sub, NULL, &e);
    CHECK(q && e == CL_SUCCESS, "queue on sub-device: %s", h_err(e));
    /* the root device is not in this context */
    cl_command_queue bad = clCreateCommandQueueWithProperties(ctx, d, NULL, &e);
    CHECK_CREATE_FAILS(bad, e, CL_INVALID_DEVICE);
    if (q) {
        int ran = 0;
        if (h_has_native()) {
            int *rp = &ran;
            CHECK_OK(clEnqueueNativeKernel(q, bump, &rp, sizeof rp, 0, NULL, NULL, 0,
                                           NULL, NULL));
        }
        cl_event m = NULL;
        CHECK_OK(clEnqueueMarkerWithWaitList(q, 0, NULL, &m));
        CHECK_OK(clFinish(q));
        CHECK(h_event_status(m) == CL_COMPLETE, "marker status %d", h_event_status(m));
        if (h_has_native()) CHECK(ran == 1, "native kernel ran %d times", ran);
        clReleaseEvent(m);
        /* the command-queue attached to the sub-device keeps it alive */
        CHECK_OK(clReleaseDevice(sub));
        cl_uint cu = 0;
        CHECK_OK(clGetDeviceInfo(sub, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL));
        CHECK(cu == 1, "sub-device CUs %u", cu);
        cl_device_id qd = NULL;
        CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qd, &qd, NULL));
        CHECK(qd == sub, "queue device");
        clReleaseCommandQueue(q);
    } else {
        clReleaseDevice(sub);
    }
    CHECK_OK(clReleaseContext(ctx));
}

TEST(subdev_invalid_partition_values)
{
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    cl_device_id subs[64];
    cl_uint n = 0;
    /* "CL_INVALID_VALUE if values specified in properties are not valid":
     * no sub-device holds zero compute units, and a list names one
     * partition scheme. CL_INVALID_DEVICE_PARTITION_COUNT is about
     * CL_DEVICE_PARTITION_BY_COUNTS. */
    cl_device_partition_property zero[] = {CL_DEVICE_PARTITION_EQUALLY, 0, 0};
    CHECK_ERR(clCreateSubDevices(d, zero, 64, subs, &n), CL_INVALID_VALUE);
    CHECK_ERR(clCreateSubDevices(d, zero, 0, NULL, &n), CL_INVALID_VALUE);
    cl_device_partition_property two[] = {CL_DEVICE_PARTITION_EQUALLY, 1,
                                          CL_DEVICE_PARTITION_BY_COUNTS, 1,
                                          CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    CHECK_ERR(clCreateSubDevices(d, two, 64, subs, &n), CL_INVALID_VALUE);
    /* A BY_COUNTS list ends at its LIST_END (which is 0): SYCL's Unified
     * Runtime passes {BY_COUNTS, 1, 1, LIST_END} with no 0 after it, so
     * nothing after LIST_END is read (it may lie past the array), and a
     * scheme named after it goes unseen. */
    cl_device_partition_property sycl_counts[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1,
                                                  CL_DEVICE_PARTITION_BY_COUNTS_LIST_END};
    CHECK_OK(clCreateSubDevices(d, sycl_counts, 64, subs, &n));
    CHECK(n == 1, "%u sub-devices", n);
    if (n == 1) clReleaseDevice(subs[0]);
    cl_device_partition_property twice[] = {CL_DEVICE_PARTITION_EQUALLY, 1,
                                            CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    CHECK_ERR(clCreateSubDevices(d, twice, 64, subs, &n), CL_INVALID_VALUE);
}

/* Sums each sub-device's share of one buffer: every sub-device adds its
 * index + 1 to the elements it owns, on a queue of its own. */
static const char *mark_src =
    "kernel void mark(global int *p, int base, int who) {\n"
    "    p[base + get_global_id(0)] += who;\n"
    "}\n";

static void run_on_each(cl_device_id *subs, cl_uint n)
{
    cl_int e = 0;
    cl_context ctx = clCreateContext(NULL, n, subs, NULL, NULL, &e);
    REQUIRE(ctx && e == CL_SUCCESS, "context on %u sub-devices: %s", n, h_err(e));
    cl_program p = clCreateProgramWithSource(ctx, 1, &mark_src, NULL, &e);
    REQUIRE_OK(e);
    REQUIRE_OK(clBuildProgram(p, 0, NULL, "", NULL, NULL));
    cl_kernel k = clCreateKernel(p, "mark", &e);
    REQUIRE_OK(e);
    enum { EACH = 4096 };
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(cl_int) * EACH * n, NULL, &e);
    REQUIRE_OK(e);
    cl_int zero = 0;
    cl_command_queue q0 = clCreateCommandQueueWithProperties(ctx, subs[0], NULL, &e);
    REQUIRE_OK(e);
    CHECK_OK(clEnqueueFillBuffer(q0, buf, &zero, sizeof zero, 0, sizeof(cl_int) * EACH * n, 0,
                                 NULL, NULL));
    CHECK_OK(clFinish(q0));
    for (cl_uint i = 0; i < n; i++) {
        cl_command_queue q = clCreateCommandQueueWithProperties(ctx, subs[i], NULL, &e);
        REQUIRE_OK(e);
        cl_int base = (cl_int)(i * EACH), who = (cl_int)i + 1;
        size_t global = EACH;
        CHECK_OK(clSetKernelArg(k, 0, sizeof buf, &buf));
        CHECK_OK(clSetKernelArg(k, 1, sizeof base, &base));
        CHECK_OK(clSetKernelArg(k, 2, sizeof who, &who));
        CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
        CHECK_OK(clFinish(q));
        clReleaseCommandQueue(q);
    }
    cl_int *out = malloc(sizeof(cl_int) * EACH * n);
    CHECK_OK(clEnqueueReadBuffer(q0, buf, CL_TRUE, 0, sizeof(cl_int) * EACH * n, out, 0, NULL,
                                 NULL));
    for (cl_uint i = 0; i < EACH * n; i++)
        if (out[i] != (cl_int)(i / EACH) + 1) {
            CHECK(0, "element %u is %d, expected %d", i, out[i], (cl_int)(i / EACH) + 1);
            break;
        }
    free(out);
    clReleaseCommandQueue(q0);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseContext(ctx);
}

TEST(subdev_by_affinity_domain)
{
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    cl_device_affinity_domain domains = 0;
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_PARTITION_AFFINITY_DOMAIN, sizeof domains, &domains,
                             NULL));
    cl_device_id subs[256];
    cl_uint n = 0;
    cl_device_partition_property props[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, 0, 0};
    /* Not one domain: invalid whatever the device has. */
    CHECK_ERR(clCreateSubDevices(d, props, 256, subs, &n), CL_INVALID_VALUE);
    props[1] = CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE | CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE;
    CHECK_ERR(clCreateSubDevices(d, props, 256, subs, &n), CL_INVALID_VALUE);
    int listed = supports(d, CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN);
    CHECK(listed == (domains != 0), "partition properties %s the domain scheme, domains 0x%lx",
          listed ? "list" : "do not list", (unsigned long)domains);
    if (!domains) {
        props[1] = CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
        CHECK_ERR(clCreateSubDevices(d, props, 256, subs, &n), CL_INVALID_VALUE);
        h_skip("no affinity domains on this host");
        return;
    }
    CHECK(domains & CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE,
          "domains 0x%lx without NEXT_PARTITIONABLE", (unsigned long)domains);
    cl_uint cu = uinfo(d, CL_DEVICE_MAX_COMPUTE_UNITS);
    int specific = 0, next = 0;
    for (int bit = 0; bit < 6; bit++) {
        cl_device_affinity_domain dom = (cl_device_affinity_domain)1 << bit;
        props[1] = (cl_device_partition_property)dom;
        cl_int err = clCreateSubDevices(d, props, 256, subs, &n);
        if (!(domains & dom)) {
            CHECK_ERR(err, CL_INVALID_VALUE);
            continue;
        }
        /* A listed domain partitions the device (the Khronos CTS's
         * buffer_migrate partitions by each). */
        CHECK_OK(err);
        if (err != CL_SUCCESS) continue;
        if (dom == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE)
            next = 1;
        else
            specific = 1;
        CHECK(n >= 2 && n <= cu, "domain 0x%lx: %u sub-devices", (unsigned long)dom, n);
        cl_uint sum = 0;
        for (cl_uint i = 0; i < n; i++) {
            cl_uint c = uinfo(subs[i], CL_DEVICE_MAX_COMPUTE_UNITS);
            CHECK(c >= 1, "sub-device %u has no compute units", i);
            sum += c;
            cl_device_partition_property t[8] = {0};
            size_t tsz = 0;
            CHECK_OK(clGetDeviceInfo(subs[i], CL_DEVICE_PARTITION_TYPE, sizeof t, t, &tsz));
            CHECK(tsz == 3 * sizeof t[0] && t[0] == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN &&
                      t[2] == 0,
                  "partition type size %zu: %ld %ld", tsz, (long)t[0], (long)t[1]);
            /* NEXT_PARTITIONABLE reports the domain it found. */
            if (dom == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE)
                CHECK(t[1] != (cl_device_partition_property)dom && (t[1] & domains) &&
                          !(t[1] & (t[1] - 1)),
                      "NEXT_PARTITIONABLE sub-device reports domain 0x%lx", (long)t[1]);
            else
                CHECK(t[1] == (cl_device_partition_property)dom, "domain 0x%lx reported as 0x%lx",
                      (unsigned long)dom, (long)t[1]);
        }
        CHECK(sum == cu, "domain 0x%lx: sub-devices hold %u of %u compute units",
              (unsigned long)dom, sum, cu);
        run_on_each(subs, n);
        for (cl_uint i = 0; i < n; i++) CHECK_OK(clReleaseDevice(subs[i]));
    }
    /* NEXT_PARTITIONABLE fails exactly when every named domain does. */
    CHECK(next == specific, "NEXT_PARTITIONABLE %s, a named domain %s", next ? "split" : "failed",
          specific ? "split" : "failed");
}

int main(int argc, char **argv)
{
    h_init("api", argc, argv);
    H_RUN(subdev_partition_properties_query);
    H_RUN(subdev_equally);
    H_RUN(subdev_by_counts);
    H_RUN(subdev_errors);
    H_RUN(subdev_invalid_partition_values);
    H_RUN(subdev_context_and_queue);
    H_RUN(subdev_by_affinity_domain);
    return h_done();
}
