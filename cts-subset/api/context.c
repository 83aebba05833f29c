/* api/context: clCreateContext*, context info, reference counts, destructor callbacks. */
#include "harness.h"

static cl_uint ctx_refcount(cl_context c)
{
    cl_uint r = 0;
    CHECK_OK(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof r, &r, NULL));
    return r;
}

TEST(context_create_with_platform_property)
{
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)h_platform(), 0};
    cl_int e = 1;
    cl_context c = clCreateContext(props, 1, &d, NULL, NULL, &e);
    REQUIRE(c && e == CL_SUCCESS, "clCreateContext: %s", h_err(e));
    size_t sz = 0;
    CHECK_OK(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, 0, NULL, &sz));
    CHECK(sz == sizeof props, "CL_CONTEXT_PROPERTIES size %zu, expected %zu", sz, sizeof props);
    cl_context_properties got[3] = {0};
    if (sz == sizeof props) {
        CHECK_OK(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, sz, got, NULL));
        CHECK(!memcmp(got, props, sizeof props), "properties differ");
    }
    cl_uint nd = 0;
    CHECK_OK(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof nd, &nd, NULL));
    CHECK(nd == 1, "num devices %u", nd);
    cl_device_id dd[2] = {0};
    CHECK_OK(clGetContextInfo(c, CL_CONTEXT_DEVICES, 0, NULL, &sz));
    CHECK(sz == sizeof(cl_device_id), "devices size %zu", sz);
    CHECK_OK(clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof dd, dd, NULL));
    CHECK(dd[0] == d, "device differs");
    CHECK_ERR(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, 2, &nd, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetContextInfo(c, 0x7777, sizeof nd, &nd, NULL), CL_INVALID_VALUE);
    /* errcode_ret may be NULL */
    cl_context c2 = clCreateContext(props, 1, &d, NULL, NULL, NULL);
    CHECK(c2 != NULL, "context with NULL errcode_ret");
    if (c2) clReleaseContext(c2);
    CHECK_OK(clReleaseContext(c));
}

TEST(context_no_properties)
{
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    cl_int e = 1;
    cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
    REQUIRE(c && e == CL_SUCCESS, "clCreateContext: %s", h_err(e));
    size_t sz = 99;
    CHECK_OK(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, 0, NULL, &sz));
    CHECK(sz == 0, "CL_CONTEXT_PROPERTIES size %zu for NULL properties, expected 0", sz);
    CHECK_OK(clReleaseContext(c));
}

TEST(context_create_errors)
{
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    cl_int e = 0;
    cl_context c;
    cl_context_properties badprop[] = {0x12345, 1, 0};
    c = clCreateContext(badprop, 1, &d, NULL, NULL, &e);
    CHECK_CREATE_FAILS(c, e, CL_INVALID_PROPERTY);
    cl_context_properties dup[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)h_platform(),
                                   CL_CONTEXT_PLATFORM, (cl_context_properties)h_platform(), 0};
    c = clCreateContext(dup, 1, &d, NULL, NULL, &e);
    CHECK_CREATE_FAILS(c, e, CL_INVALID_PROPERTY);
    c = clCreateContext(NULL, 1, NULL, NULL, NULL, &e);
    CHECK_CREATE_FAILS(c, e, CL_INVALID_VALUE);
    c = clCreateContext(NULL, 0, &d, NULL, NULL, &e);
    CHECK_CREATE_FAILS(c, e, CL_INVALID_VALUE);
    int dummy;
    c = clCreateContext(NULL, 1, &d, NULL, &dummy, &e);
    CHECK_CREATE_FAILS(c, e, CL_INVALID_VALUE);
    cl_device_id two[2] = {d, NULL};
    c = clCreateContext(NULL, 2, two, NULL, NULL, &e);
    CHECK_CREATE_FAILS(c, e, CL_INVALID_DEVICE);
}

TEST(context_from_type)
{
    cl_int e = 1;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)h_platform(), 0};
    cl_context c = clCreateContextFromType(props, CL_DEVICE_TYPE_CPU, NULL, NULL, &e);
    REQUIRE(c && e == CL_SUCCESS, "from type CPU: %s", h_err(e));
    cl_uint nd = 0;
    CHECK_OK(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof nd, &nd, NULL));
    cl_uint ncpu = 0;
    CHECK_OK(clGetDeviceIDs(h_platform(), CL_DEVICE_TYPE_CPU, 0, NULL, &ncpu));
    CHECK(nd == ncpu, "context has %u devices, platform %u CPUs", nd, ncpu);
    cl_device_id dd[8] = {0};
    CHECK_OK(clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof dd, dd, NULL));
    CHECK(dd[0] == h_device(), "first device differs");
    CHECK_OK(clReleaseContext(c));
    c = clCreateContextFromType(props, CL_DEVICE_TYPE_ALL, NULL, NULL, &e);
    CHECK(c && e == CL_SUCCESS, "from type ALL: %s", h_err(e));
    if (c) clReleaseContext(c);
    c = clCreateContextFromType(props, CL_DEVICE_TYPE_DEFAULT, NULL, NULL, &e);
    CHECK(c && e == CL_SUCCESS, "from type DEFAULT: %s", h_err(e));
    if (c) clReleaseContext(c);
    c = clCreateContextFromType(props, CL_DEVICE_TYPE_GPU, NULL, NULL, &e);
    CHECK_CREATE_FAILS(c, e, CL_DEVICE_NOT_FOUND);
    c = clCreateContextFromType(props, (cl_device_type)1 << 40, NULL, NULL, &e);
    CHECK_CREATE_FAILS(c, e, CL_INVALID_DEVICE_TYPE);
    cl_context_properties badprop[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)h_platform(),
                                       0x12345, 1, 0};
    c = clCreateContextFromType(badprop, CL_DEVICE_TYPE_CPU, NULL, NULL, &e);
    CHECK_CREATE_FAILS(c, e, CL_INVALID_PROPERTY);
}

TEST(context_refcount)
{
    cl_context c = h_context();
    REQUIRE(c, "no context");
    CHECK(ctx_refcount(c) == 1, "initial refcount %u", ctx_refcount(c));
    CHECK_OK(clRetainContext(c));
    CHECK(ctx_refcount(c) == 2, "after retain %u", ctx_refcount(c));
    CHECK_OK(clRetainContext(c));
    CHECK(ctx_refcount(c) == 3, "after 2 retains %u", ctx_refcount(c));
    CHECK_OK(clReleaseContext(c));
    CHECK_OK(clReleaseContext(c));
    CHECK(ctx_refcount(c) == 1, "after releases %u", ctx_refcount(c));
    CHECK_ERR(clRetainContext(NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(clReleaseContext(NULL), CL_INVALID_CONTEXT);
    CHECK_OK(clReleaseContext(c));
}

static volatile int order_buf[8];
static volatile int order_n;
struct cbdata { int id; };
static void CL_CALLBACK ctx_dtor(cl_context c, void *ud)
{
    (void)c;
    int i = __atomic_fetch_add(&order_n, 1, __ATOMIC_SEQ_CST);
    if (i < 8) order_buf[i] = ((struct cbdata *)ud)->id;
}

TEST(context_destructor_callback)
{
    cl_context c = h_context();
    REQUIRE(c, "no context");
    static struct cbdata a = {1}, b = {2}, cc = {3};
    CHECK_ERR(clSetContextDestructorCallback(c, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clSetContextDestructorCallback(NULL, ctx_dtor, &a), CL_INVALID_CONTEXT);
    REQUIRE_OK(clSetContextDestructorCallback(c, ctx_dtor, &a));
    REQUIRE_OK(clSetContextDestructorCallback(c, ctx_dtor, &b));
    REQUIRE_OK(clSetContextDestructorCallback(c, ctx_dtor, &cc));
    CHECK_OK(clRetainContext(c));
    CHECK_OK(clReleaseContext(c));
    h_sleep_ms(20);
    CHECK(order_n == 0, "destructor called while context still referenced");
    CHECK_OK(clReleaseContext(c));
    CHECK(h_wait_int(&order_n, 3, 5.0), "destructor callbacks called %d times, expected 3",
          order_n);
    h_sleep_ms(20);
    CHECK(order_n == 3, "destructor callbacks called %d times", order_n);
    CHECK(order_buf[0] == 3 && order_buf[1] == 2 && order_buf[2] == 1,
          "callbacks called in order %d,%d,%d; expected reverse registration 3,2,1",
          order_buf[0], order_buf[1], order_buf[2]);
}

TEST(context_destructor_waits_for_queue)
{
    cl_context c = h_context();
    REQUIRE(c, "no context");
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    static struct cbdata a = {7};
    REQUIRE_OK(clSetContextDestructorCallback(c, ctx_dtor, &a));
    CHECK_OK(clReleaseContext(c));
    /* the queue still references the context */
    cl_context qc = NULL;
    CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qc, &qc, NULL));
    CHECK(qc == c, "queue context");
    CHECK_OK(clFinish(q));
    h_sleep_ms(20);
    CHECK(order_n == 0, "context destroyed while a command-queue is attached");
    CHECK_OK(clReleaseCommandQueue(q));
    CHECK(h_wait_int(&order_n, 1, 5.0), "destructor not called after last object released");
}

static void CL_CALLBACK notify(const char *err, const void *pi, size_t cb, void *ud)
{
    (void)err; (void)pi; (void)cb; (void)ud;
}

TEST(context_with_notify)
{
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    int ud = 5;
    cl_int e = 0;
    cl_context c = clCreateContext(NULL, 1, &d, notify, &ud, &e);
    REQUIRE(c && e == CL_SUCCESS, "clCreateContext with pfn_notify: %s", h_err(e));
    CHECK_OK(clReleaseContext(c));
}

int main(int argc, char **argv)
{
    h_init("api", argc, argv);
    H_RUN(context_create_with_platform_property);
    H_RUN(context_no_properties);
    H_RUN(context_create_errors);
    H_RUN(context_from_type);
    H_RUN(context_refcount);
    H_RUN(context_destructor_callback);
    H_RUN(context_destructor_waits_for_queue);
    H_RUN(context_with_notify);
    return h_done();
}
