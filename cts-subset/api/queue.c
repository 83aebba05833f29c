/* api/queue: command-queue creation, properties and info. */
#include "harness.h"

#include <pthread.h>

static cl_command_queue_properties qprops(cl_command_queue q)
{
    cl_command_queue_properties p = 0;
    CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL));
    return p;
}

static cl_uint q_refcount(cl_command_queue q)
{
    cl_uint r = 0;
    CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof r, &r, NULL));
    return r;
}

TEST(queue_default)
{
    cl_context c = h_context();
    REQUIRE(c, "no context");
    cl_int e = 1;
    cl_command_queue q = clCreateCommandQueueWithProperties(c, h_device(), NULL, &e);
    REQUIRE(q && e == CL_SUCCESS, "create: %s", h_err(e));
    CHECK(qprops(q) == 0, "default properties 0x%llx", (unsigned long long)qprops(q));
    size_t sz = 99;
    CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &sz));
    CHECK(sz == 0, "PROPERTIES_ARRAY size %zu for NULL properties", sz);
    cl_context qc = NULL;
    CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qc, &qc, NULL));
    CHECK(qc == c, "queue context");
    cl_device_id qd = NULL;
    CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qd, &qd, NULL));
    CHECK(qd == h_device(), "queue device");
    cl_command_queue dq = (cl_command_queue)1;
    CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE_DEFAULT, sizeof dq, &dq, NULL));
    CHECK(dq == NULL, "CL_QUEUE_DEVICE_DEFAULT on a host queue %p", (void *)dq);
    CHECK_OK(clFlush(q));
    CHECK_OK(clFinish(q));
    CHECK_ERR(clGetCommandQueueInfo(q, 0x7777, sizeof qc, &qc, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qc - 1, &qc, NULL),
              CL_INVALID_VALUE);
    CHECK_OK(clReleaseCommandQueue(q));
    CHECK_OK(clReleaseContext(c));
}

TEST(queue_properties_array)
{
    cl_context c = h_context();
    REQUIRE(c, "no context");
    cl_command_queue_properties want = CL_QUEUE_PROFILING_ENABLE;
    if (h_has_ooo()) want |= CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, want, 0};
    cl_int e = 1;
    cl_command_queue q = clCreateCommandQueueWithProperties(c, h_device(), props, &e);
    REQUIRE(q && e == CL_SUCCESS, "create: %s", h_err(e));
    CHECK(qprops(q) == want, "properties 0x%llx, want 0x%llx",
          (unsigned long long)qprops(q), (unsigned long long)want);
    size_t sz = 0;
    CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &sz));
    CHECK(sz == sizeof props, "PROPERTIES_ARRAY size %zu, expected %zu", sz, sizeof props);
    cl_queue_properties got[3] = {0};
    if (sz == sizeof props) {
        CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sz, got, NULL));
        CHECK(!memcmp(got, props, sz), "PROPERTIES_ARRAY differs");
        CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sz - 1, got, NULL),
                  CL_INVALID_VALUE);
    }
    CHECK_OK(clReleaseCommandQueue(q));
    /* empty list */
    cl_queue_properties empty[] = {0};
    q = clCreateCommandQueueWithProperties(c, h_device(), empty, &e);
    CHECK(q && e == CL_SUCCESS, "empty properties: %s", h_err(e));
    if (q) {
        CHECK(qprops(q) == 0, "props for empty list");
        sz = 99;
        CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &sz));
        CHECK(sz == sizeof empty, "PROPERTIES_ARRAY size %zu for {0}", sz);
        clReleaseCommandQueue(q);
    }
    CHECK_OK(clReleaseContext(c));
}

TEST(queue_legacy_create)
{
    cl_context c = h_context();
    REQUIRE(c, "no context");
    cl_int e = 1;
    cl_command_queue q = clCreateCommandQueue(c, h_device(), CL_QUEUE_PROFILING_ENABLE, &e);
    REQUIRE(q && e == CL_SUCCESS, "clCreateCommandQueue: %s", h_err(e));
    CHECK(qprops(q) == CL_QUEUE_PROFILING_ENABLE, "props 0x%llx",
          (unsigned long long)qprops(q));
    size_t sz = 99;
    CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &sz));
    CHECK(sz == 0, "PROPERTIES_ARRAY size %zu for clCreateCommandQueue", sz);
    CHECK_OK(clReleaseCommandQueue(q));
    q = clCreateCommandQueue(c, h_device(), 0, NULL);
    CHECK(q != NULL, "clCreateCommandQueue(props 0, errcode NULL)");
    if (q) clReleaseCommandQueue(q);
    q = clCreateCommandQueue(c, h_device(), (cl_command_queue_properties)1 << 40, &e);
    CHECK_CREATE_FAILS(q, e, CL_INVALID_VALUE);
    q = clCreateCommandQueue(NULL, h_device(), 0, &e);
    CHECK_CREATE_FAILS(q, e, CL_INVALID_CONTEXT);
    q = clCreateCommandQueue(c, NULL, 0, &e);
    CHECK_CREATE_FAILS(q, e, CL_INVALID_DEVICE);
    CHECK_OK(clReleaseContext(c));
}

TEST(queue_create_errors)
{
    cl_context c = h_context();
    REQUIRE(c, "no context");
    cl_int e = 0;
    cl_command_queue q;
    cl_queue_properties badbits[] = {CL_QUEUE_PROPERTIES, (cl_queue_properties)1 << 40, 0};
    q = clCreateCommandQueueWithProperties(c, h_device(), badbits, &e);
    CHECK_CREATE_FAILS(q, e, CL_INVALID_VALUE);
    cl_queue_properties badname[] = {0x7777, 0, 0};
    q = clCreateCommandQueueWithProperties(c, h_device(), badname, &e);
    CHECK_CREATE_FAILS(q, e, CL_INVALID_VALUE);
    /* ON_DEVICE requires OUT_OF_ORDER */
    cl_queue_properties ondev[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0};
    q = clCreateCommandQueueWithProperties(c, h_device(), ondev, &e);
    CHECK_CREATE_FAILS(q, e, CL_INVALID_VALUE);
    /* CL_QUEUE_SIZE without ON_DEVICE */
    cl_queue_properties size_only[] = {CL_QUEUE_SIZE, 1024, 0};
    q = clCreateCommandQueueWithProperties(c, h_device(), size_only, &e);
    CHECK_CREATE_FAILS(q, e, CL_INVALID_VALUE);
    cl_device_device_enqueue_capabilities dec = 0;
    clGetDeviceInfo(h_device(), CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof dec, &dec, NULL);
    if (!(dec & CL_DEVICE_QUEUE_SUPPORTED)) {
        cl_queue_properties dq[] = {CL_QUEUE_PROPERTIES,
            CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
        q = clCreateCommandQueueWithProperties(c, h_device(), dq, &e);
        CHECK_CREATE_FAILS(q, e, CL_INVALID_QUEUE_PROPERTIES);
    }
    if (!h_has_ooo()) {
        cl_queue_properties ooo[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
        q = clCreateCommandQueueWithProperties(c, h_device(), ooo, &e);
        CHECK_CREATE_FAILS(q, e, CL_INVALID_QUEUE_PROPERTIES);
    }
    q = clCreateCommandQueueWithProperties(NULL, h_device(), NULL, &e);
    CHECK_CREATE_FAILS(q, e, CL_INVALID_CONTEXT);
    q = clCreateCommandQueueWithProperties(c, NULL, NULL, &e);
    CHECK_CREATE_FAILS(q, e, CL_INVALID_DEVICE);
    CHECK_OK(clReleaseContext(c));
}

TEST(queue_refcount)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    CHECK(q_refcount(q) == 1, "initial %u", q_refcount(q));
    CHECK_OK(clRetainCommandQueue(q));
    CHECK(q_refcount(q) == 2, "after retain %u", q_refcount(q));
    CHECK_OK(clReleaseCommandQueue(q));
    CHECK(q_refcount(q) == 1, "after release %u", q_refcount(q));
    /* a queue holds its context */
    cl_uint crc = 0;
    CHECK_OK(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof crc, &crc, NULL));
    CHECK(crc >= 1, "context refcount %u", crc);
    CHECK_OK(clRetainContext(c));
    CHECK_OK(clReleaseContext(c));
    CHECK_ERR(clRetainCommandQueue(NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clReleaseCommandQueue(NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_OK(clReleaseContext(c)); /* queue keeps it alive */
    cl_context qc = NULL;
    CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qc, &qc, NULL));
    CHECK(qc == c, "context of queue after releasing the app's context ref");
    cl_event m = NULL;
    CHECK_OK(clEnqueueMarkerWithWaitList(q, 0, NULL, &m));
    CHECK_OK(clFinish(q));
    if (m) clReleaseEvent(m);
    CHECK_OK(clReleaseCommandQueue(q));
}

TEST(queue_set_property_legacy)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    /* OpenCL 3.0: support is only required for 1.0 devices; an implementation may
     * unconditionally return CL_INVALID_OPERATION.  If it succeeds it must work. */
    cl_command_queue_properties old = 0xdead;
    cl_int e = clSetCommandQueueProperty(q, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, &old);
    CHECK(e == CL_SUCCESS || e == CL_INVALID_OPERATION,
          "clSetCommandQueueProperty: %s (expected CL_SUCCESS or CL_INVALID_OPERATION)",
          h_err(e));
    if (e == CL_SUCCESS) {
        CHECK(old == 0, "old properties 0x%llx", (unsigned long long)old);
        CHECK(qprops(q) & CL_QUEUE_PROFILING_ENABLE, "property not enabled");
    } else {
        CHECK(qprops(q) == 0, "failed call changed properties");
    }
    CHECK_OK(clReleaseCommandQueue(q));
    CHECK_OK(clReleaseContext(c));
}

TEST(queue_multiple_independent)
{
    cl_context c = h_context();
    REQUIRE(c, "no context");
    cl_command_queue q[4];
    for (int i = 0; i < 4; i++) {
        q[i] = h_queue(c, i & 1 ? CL_QUEUE_PROFILING_ENABLE : 0);
        REQUIRE(q[i], "queue %d", i);
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < i; j++) CHECK(q[i] != q[j], "queues %d and %d alias", i, j);
    for (int i = 0; i < 4; i++) {
        CHECK_OK(clEnqueueBarrierWithWaitList(q[i], 0, NULL, NULL));
        CHECK_OK(clFinish(q[i]));
        CHECK_OK(clReleaseCommandQueue(q[i]));
    }
    CHECK_OK(clReleaseContext(c));
}

static cl_device_device_enqueue_capabilities enqueue_caps(cl_device_id d)
{
    cl_device_device_enqueue_capabilities caps = 0;
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof caps, &caps, NULL));
    return caps;
}

TEST(queue_device_default_on_host_queue)
{
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    cl_device_device_enqueue_capabilities caps = enqueue_caps(d);
    if (!(caps & CL_DEVICE_QUEUE_SUPPORTED)) {
        h_skip("no on-device queues");
        return;
    }
    cl_context c = h_context();
    REQUIRE(c, "no context");
    cl_int e = 1;
    cl_command_queue q = clCreateCommandQueueWithProperties(c, d, NULL, &e);
    REQUIRE(q && e == CL_SUCCESS, "host queue: %s", h_err(e));
    cl_queue_properties props[] = {
        CL_QUEUE_PROPERTIES,
        CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue dq = clCreateCommandQueueWithProperties(c, d, props, &e);
    REQUIRE(dq && e == CL_SUCCESS, "default on-device queue: %s", h_err(e));
    /* CL_QUEUE_DEVICE_DEFAULT: "Return the current default command-queue
     * for the underlying device", whatever kind of queue is asked. */
    cl_command_queue got = NULL;
    CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE_DEFAULT, sizeof got, &got, NULL));
    CHECK(got == dq, "host queue: CL_QUEUE_DEVICE_DEFAULT %p, want %p", (void *)got, (void *)dq);
    got = NULL;
    CHECK_OK(clGetCommandQueueInfo(dq, CL_QUEUE_DEVICE_DEFAULT, sizeof got, &got, NULL));
    CHECK(got == dq, "device queue: CL_QUEUE_DEVICE_DEFAULT %p, want %p", (void *)got, (void *)dq);
    /* A replacement default is what both answer next. */
    cl_queue_properties plain[] = {CL_QUEUE_PROPERTIES,
                                   CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue dq2 = clCreateCommandQueueWithProperties(c, d, plain, &e);
    REQUIRE(dq2 && e == CL_SUCCESS, "on-device queue: %s", h_err(e));
    if (caps & CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT) {
        CHECK_OK(clSetDefaultDeviceCommandQueue(c, d, dq2));
        CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE_DEFAULT, sizeof got, &got, NULL));
        CHECK(got == dq2, "after clSetDefaultDeviceCommandQueue: %p, want %p", (void *)got,
              (void *)dq2);
    }
    clReleaseCommandQueue(dq2);
    clReleaseCommandQueue(dq);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* Threads that ask at once for the default on-device queue of one device
 * all get the one queue: "If CL_QUEUE_ON_DEVICE_DEFAULT is specified and a
 * default queue already exists, the existing queue is returned" (with one
 * reference more per call). */
#define DEFAULT_THREADS 8
struct default_race {
    cl_context context;
    cl_device_id device;
    volatile int go;
    cl_command_queue got[DEFAULT_THREADS];
    cl_int err[DEFAULT_THREADS];
};

struct default_racer {
    struct default_race *race;
    int index;
};

static void *ask_default(void *arg)
{
    struct default_racer *r = arg;
    cl_queue_properties props[] = {
        CL_QUEUE_PROPERTIES,
        CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    while (!__atomic_load_n(&r->race->go, __ATOMIC_ACQUIRE))
        ;
    r->race->got[r->index] = clCreateCommandQueueWithProperties(
        r->race->context, r->race->device, props, &r->race->err[r->index]);
    return NULL;
}

TEST(queue_device_default_concurrent)
{
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    cl_device_device_enqueue_capabilities caps = enqueue_caps(d);
    if (!(caps & CL_DEVICE_QUEUE_SUPPORTED)) {
        h_skip("no on-device queues");
        return;
    }
    for (int round = 0; round < 400; round++) {
        struct default_race race = {0};
        race.context = h_context();
        race.device = d;
        REQUIRE(race.context, "no context");
        pthread_t threads[DEFAULT_THREADS];
        struct default_racer racers[DEFAULT_THREADS];
        for (int i = 0; i < DEFAULT_THREADS; i++) {
            racers[i] = (struct default_racer){&race, i};
            REQUIRE(pthread_create(&threads[i], NULL, ask_default, &racers[i]) == 0, "thread");
        }
        __atomic_store_n(&race.go, 1, __ATOMIC_RELEASE);
        for (int i = 0; i < DEFAULT_THREADS; i++)
            pthread_join(threads[i], NULL);
        for (int i = 0; i < DEFAULT_THREADS; i++) {
            CHECK(race.err[i] == CL_SUCCESS && race.got[i], "round %d thread %d: %s", round, i,
                  h_err(race.err[i]));
            CHECK(race.got[i] == race.got[0], "round %d: thread %d got queue %p, thread 0 %p",
                  round, i, (void *)race.got[i], (void *)race.got[0]);
        }
        if (race.got[0]) {
            CHECK(q_refcount(race.got[0]) == DEFAULT_THREADS,
                  "round %d: the default queue's reference count %u, want %d", round,
                  q_refcount(race.got[0]), DEFAULT_THREADS);
        }
        for (int i = 0; i < DEFAULT_THREADS; i++)
            if (race.got[i])
                clReleaseCommandQueue(race.got[i]);
        clReleaseContext(race.context);
    }
}

int main(int argc, char **argv)
{
    h_init("api", argc, argv);
    H_RUN(queue_default);
    H_RUN(queue_device_default_on_host_queue);
    H_RUN(queue_device_default_concurrent);
    H_RUN(queue_properties_array);
    H_RUN(queue_legacy_create);
    H_RUN(queue_create_errors);
    H_RUN(queue_refcount);
    H_RUN(queue_set_property_legacy);
    H_RUN(queue_multiple_independent);
    return h_done();
}
