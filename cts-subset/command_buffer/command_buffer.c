/* command_buffer/command_buffer: cl_khr_command_buffer 0.9.8 and
 * cl_khr_command_buffer_mutable_dispatch 0.9.5, in the spirit of the
 * Khronos test_cl_khr_command_buffer and test_cl_khr_mutable_dispatch:
 * recording, finalizing, enqueueing many times, sync points and barriers on
 * an out-of-order queue, argument snapshots, a kernel whose child kernel
 * outlives it, simultaneous enqueues, updates of a mutable launch, and the
 * error codes. The system's CL/cl_ext.h has an older provisional version,
 * so the entry points are declared here as 0.9.8 has them. A device
 * without the extension skips all. */
#include "harness.h"

typedef cl_properties cmd_props;
typedef cl_command_buffer_khr(CL_API_CALL *create_fn)(cl_uint, const cl_command_queue *,
                                                       const cl_command_buffer_properties_khr *,
                                                       cl_int *);
typedef cl_int(CL_API_CALL *buffer_fn)(cl_command_buffer_khr);
typedef cl_int(CL_API_CALL *enqueue_fn)(cl_uint, cl_command_queue *, cl_command_buffer_khr,
                                        cl_uint, const cl_event *, cl_event *);
typedef cl_int(CL_API_CALL *barrier_fn)(cl_command_buffer_khr, cl_command_queue,
                                        const cmd_props *, cl_uint, const cl_sync_point_khr *,
                                        cl_sync_point_khr *, cl_mutable_command_khr *);
typedef cl_int(CL_API_CALL *copy_fn)(cl_command_buffer_khr, cl_command_queue, const cmd_props *,
                                     cl_mem, cl_mem, size_t, size_t, size_t, cl_uint,
                                     const cl_sync_point_khr *, cl_sync_point_khr *,
                                     cl_mutable_command_khr *);
typedef cl_int(CL_API_CALL *fill_fn)(cl_command_buffer_khr, cl_command_queue, const cmd_props *,
                                     cl_mem, const void *, size_t, size_t, size_t, cl_uint,
                                     const cl_sync_point_khr *, cl_sync_point_khr *,
                                     cl_mutable_command_khr *);
typedef cl_int(CL_API_CALL *ndrange_fn)(cl_command_buffer_khr, cl_command_queue,
                                        const cmd_props *, cl_kernel, cl_uint, const size_t *,
                                        const size_t *, const size_t *, cl_uint,
                                        const cl_sync_point_khr *, cl_sync_point_khr *,
                                        cl_mutable_command_khr *);
typedef cl_int(CL_API_CALL *info_fn)(cl_command_buffer_khr, cl_command_buffer_info_khr, size_t,
                                     void *, size_t *);
typedef cl_int(CL_API_CALL *update_fn)(cl_command_buffer_khr, cl_uint, const cl_uint *,
                                       const void **);
typedef cl_int(CL_API_CALL *command_info_fn)(cl_mutable_command_khr, cl_uint, size_t, void *,
                                             size_t *);

/* cl_mutable_dispatch_config_khr as 0.9.5 lays it out. */
typedef struct {
    cl_mutable_command_khr command;
    cl_uint num_args, num_svm_args, num_exec_infos, work_dim;
    const cl_mutable_dispatch_arg_khr *arg_list, *arg_svm_list;
    const cl_mutable_dispatch_exec_info_khr *exec_info_list;
    const size_t *global_work_offset, *global_work_size, *local_work_size;
} dispatch_config;

#define DISPATCH_CONFIG 0u /* CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR */
#define STATE_FINALIZED 2u /* CL_COMMAND_BUFFER_STATE_FINALIZED_KHR */
#define UPDATABLE_FIELDS 0x12B1
#define CONTEXT_INFO 0x1299 /* CL_COMMAND_BUFFER_CONTEXT_KHR */

static struct {
    create_fn create;
    buffer_fn finalize, retain, release;
    enqueue_fn enqueue;
    barrier_fn barrier;
    copy_fn copy;
    fill_fn fill;
    ndrange_fn ndrange;
    info_fn info;
    update_fn update;
    command_info_fn command_info;
} cb;

/* The version CL_DEVICE_EXTENSIONS_WITH_VERSION gives `name`, 0 if none. */
static cl_version extension_version(const char *name)
{
    size_t size = 0;
    if (clGetDeviceInfo(h_device(), CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, NULL, &size))
        return 0;
    cl_name_version *list = malloc(size);
    cl_version version = 0;
    if (list && !clGetDeviceInfo(h_device(), CL_DEVICE_EXTENSIONS_WITH_VERSION, size, list, NULL))
        for (size_t i = 0; i < size / sizeof *list; i++)
            if (!strcmp(list[i].name, name)) version = list[i].version;
    free(list);
    return version;
}

static int has_command_buffer(void)
{
    if (extension_version("cl_khr_command_buffer") != CL_MAKE_VERSION(0, 9, 8)) return 0;
    cl_platform_id p = h_platform();
#define GET(field, name) cb.field = (void *)clGetExtensionFunctionAddressForPlatform(p, #name)
    GET(create, clCreateCommandBufferKHR);
    GET(finalize, clFinalizeCommandBufferKHR);
    GET(retain, clRetainCommandBufferKHR);
    GET(release, clReleaseCommandBufferKHR);
    GET(enqueue, clEnqueueCommandBufferKHR);
    GET(barrier, clCommandBarrierWithWaitListKHR);
    GET(copy, clCommandCopyBufferKHR);
    GET(fill, clCommandFillBufferKHR);
    GET(ndrange, clCommandNDRangeKernelKHR);
    GET(info, clGetCommandBufferInfoKHR);
    GET(update, clUpdateMutableCommandsKHR);
    GET(command_info, clGetMutableCommandInfoKHR);
#undef GET
    return 1;
}

#define NEED_COMMAND_BUFFER()                                                              \
    do {                                                                                   \
        if (!has_command_buffer()) {                                                       \
            h_skip("no cl_khr_command_buffer 0.9.8");                                      \
            return;                                                                        \
        }                                                                                  \
        REQUIRE(cb.create && cb.finalize && cb.retain && cb.release && cb.enqueue &&       \
                    cb.barrier && cb.copy && cb.fill && cb.ndrange && cb.info,             \
                "an extension function is missing");                                       \
    } while (0)

#define NEED_MUTABLE()                                                                     \
    do {                                                                                   \
        NEED_COMMAND_BUFFER();                                                             \
        if (extension_version("cl_khr_command_buffer_mutable_dispatch") !=                 \
            CL_MAKE_VERSION(0, 9, 5)) {                                                    \
            h_skip("no cl_khr_command_buffer_mutable_dispatch 0.9.5");                     \
            return;                                                                        \
        }                                                                                  \
        REQUIRE(cb.update && cb.command_info, "an extension function is missing");        \
    } while (0)

static const char *ADD_SRC =
    "__kernel void add(__global int *buf, int v) { buf[get_global_id(0)] += v; }\n"
    "__kernel void sum(__global const int *a, __global const int *b, __global int *out)\n"
    "{ size_t i = get_global_id(0); out[i] = a[i] + b[i]; }\n";

#define N 1024

/* A context, a queue of it and the program of ADD_SRC. */
struct env {
    cl_context c;
    cl_command_queue q;
    cl_program p;
};

static int setup(struct env *e, cl_command_queue_properties props)
{
    e->c = h_context();
    e->q = h_queue(e->c, props);
    e->p = h_build(e->c, ADD_SRC, NULL);
    return e->p != NULL;
}

static void teardown(struct env *e)
{
    if (e->p) clReleaseProgram(e->p);
    clReleaseCommandQueue(e->q);
    clReleaseContext(e->c);
}

/* N ints of `value`, filled through the queue. */
static cl_mem int_buffer(struct env *e, int value)
{
    cl_int err;
    cl_mem m = clCreateBuffer(e->c, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
    CHECK(err == CL_SUCCESS, "buffer: %s", h_err(err));
    CHECK_OK(clEnqueueFillBuffer(e->q, m, &value, sizeof value, 0, N * sizeof(int), 0, NULL, NULL));
    return m;
}

static int read_check(cl_command_queue q, cl_mem m, int want, size_t n, const char *what)
{
    int *host = malloc(n * sizeof(int));
    int ok = 1;
    cl_int err = clEnqueueReadBuffer(q, m, CL_TRUE, 0, n * sizeof(int), host, 0, NULL, NULL);
    CHECK(err == CL_SUCCESS, "%s: read: %s", what, h_err(err));
    for (size_t i = 0; err == CL_SUCCESS && i < n; i++)
        if (host[i] != want) {
            CHECK(0, "%s: element %zu is %d, expected %d", what, i, host[i], want);
            ok = 0;
            break;
        }
    free(host);
    return ok;
}

TEST(capabilities)
{
    NEED_COMMAND_BUFFER();
    cl_device_command_buffer_capabilities_khr caps = 0;
    CHECK_OK(clGetDeviceInfo(h_device(), CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR, sizeof caps,
                             &caps, NULL));
    cl_command_queue_properties required = ~0ull, supported = 0;
    CHECK_OK(clGetDeviceInfo(h_device(), CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR,
                             sizeof required, &required, NULL));
    CHECK_OK(clGetDeviceInfo(h_device(), 0x129A /* SUPPORTED_QUEUE_PROPERTIES */,
                             sizeof supported, &supported, NULL));
    CHECK(required == 0, "required queue properties %#llx", (unsigned long long)required);
    CHECK(supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, "out-of-order queues unsupported");
}

/* Fill, two launches and a copy recorded once on an in-order queue (each
 * waits for the one before), enqueued three times: the copy sees each
 * enqueue's launches, each with the arguments it was recorded with; the
 * buffer's info. */
TEST(record_once_enqueue_many)
{
    NEED_COMMAND_BUFFER();
    struct env e;
    REQUIRE(setup(&e, 0), "build failed");
    cl_context c = e.c;
    cl_command_queue q = e.q;
    cl_int err;
    cl_kernel k = clCreateKernel(e.p, "add", &err);
    cl_mem a = int_buffer(&e, 0);
    cl_mem out = int_buffer(&e, 0);
    int two = 2, five = 5, zero = 0;
    CHECK_OK(clSetKernelArg(k, 0, sizeof a, &a));
    CHECK_OK(clSetKernelArg(k, 1, sizeof two, &two));
    cl_command_buffer_khr b = cb.create(1, &q, NULL, &err);
    REQUIRE(err == CL_SUCCESS && b, "create: %s", h_err(err));
    size_t n = N;
    cl_sync_point_khr points[4] = {0};
    CHECK_OK(cb.fill(b, NULL, NULL, a, &zero, sizeof zero, 0, N * sizeof(int), 0, NULL,
                     &points[0], NULL));
    CHECK_OK(cb.ndrange(b, NULL, NULL, k, 1, NULL, &n, NULL, 0, NULL, &points[1], NULL));
    /* The first launch took the arguments as they were (2), the second
     * takes 5. */
    CHECK_OK(clSetKernelArg(k, 1, sizeof five, &five));
    CHECK_OK(cb.ndrange(b, NULL, NULL, k, 1, NULL, &n, NULL, 0, NULL, &points[2], NULL));
    CHECK_OK(cb.copy(b, NULL, NULL, a, out, 0, 0, N * sizeof(int), 0, NULL, &points[3], NULL));
    CHECK(points[0] && points[1] != points[0] && points[2] != points[1] && points[3] != points[2],
          "sync points %u %u %u %u", points[0], points[1], points[2], points[3]);
    cl_command_buffer_state_khr state = 99;
    CHECK_OK(cb.info(b, CL_COMMAND_BUFFER_STATE_KHR, sizeof state, &state, NULL));
    CHECK(state == CL_COMMAND_BUFFER_STATE_RECORDING_KHR, "state %u before finalizing", state);
    CHECK_OK(cb.finalize(b));
    CHECK_OK(cb.info(b, CL_COMMAND_BUFFER_STATE_KHR, sizeof state, &state, NULL));
    CHECK(state == CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR, "state %u once finalized", state);
    cl_context ctx = NULL;
    cl_command_queue queues[2] = {NULL, NULL};
    size_t size = 0;
    cl_uint refs = 0, nq = 0;
    CHECK_OK(cb.info(b, CONTEXT_INFO, sizeof ctx, &ctx, NULL));
    CHECK_OK(cb.info(b, CL_COMMAND_BUFFER_QUEUES_KHR, sizeof queues, queues, &size));
    CHECK_OK(cb.info(b, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, sizeof nq, &nq, NULL));
    CHECK_OK(cb.info(b, CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR, sizeof refs, &refs, NULL));
    CHECK(ctx == c && queues[0] == q && size == sizeof(cl_command_queue) && nq == 1 && refs == 1,
          "info: context %p queue %p (%zu bytes) %u queues, %u references", (void *)ctx,
          (void *)queues[0], size, nq, refs);
    CHECK_OK(cb.info(b, CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR, 0, NULL, &size));
    CHECK(size == 0, "properties array of %zu bytes for NULL properties", size);
    for (int round = 0; round < 3; round++) {
        cl_event ev = NULL;
        CHECK_OK(cb.enqueue(0, NULL, b, 0, NULL, &ev));
        CHECK_OK(clWaitForEvents(1, &ev));
        cl_command_type type = 0;
        CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
        CHECK(type == CL_COMMAND_COMMAND_BUFFER_KHR, "event type %#x", type);
        CHECK(h_event_status(ev) == CL_COMPLETE, "event status %d", h_event_status(ev));
        clReleaseEvent(ev);
        read_check(q, out, 7, N, "after an enqueue");
    }
    CHECK_OK(cb.retain(b));
    CHECK_OK(cb.info(b, CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR, sizeof refs, &refs, NULL));
    CHECK(refs == 2, "%u references after a retain", refs);
    CHECK_OK(cb.release(b));
    /* Enqueued twice while the first waits (simultaneous use), then
     * released: both enqueues still run it. */
    cl_event gate = clCreateUserEvent(c, &err);
    CHECK_OK(clEnqueueFillBuffer(q, out, &zero, sizeof zero, 0, N * sizeof(int), 0, NULL, NULL));
    CHECK_OK(cb.enqueue(0, NULL, b, 1, &gate, NULL));
    CHECK_OK(cb.enqueue(0, NULL, b, 0, NULL, NULL));
    CHECK_OK(cb.release(b));
    CHECK_ERR(cb.release(b), CL_INVALID_COMMAND_BUFFER_KHR);
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    read_check(q, out, 7, N, "enqueued, then released");
    clReleaseEvent(gate);
    clReleaseMemObject(a);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    teardown(&e);
}

/* On an out-of-order queue: two fills without sync points, a sum waiting
 * for both, a barrier, and launches after it; the buffer enqueued twice
 * (the first after a user event), then clFinish; the enqueue's profiling
 * times. */
TEST(sync_points_and_barriers_out_of_order)
{
    NEED_COMMAND_BUFFER();
    if (!h_has_ooo()) {
        h_skip("no out-of-order queues");
        return;
    }
    struct env e;
    REQUIRE(setup(&e, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE),
            "build failed");
    cl_context c = e.c;
    cl_command_queue q = e.q;
    cl_int err;
    cl_kernel sum = clCreateKernel(e.p, "sum", &err);
    cl_kernel add = clCreateKernel(e.p, "add", &err);
    cl_mem a = int_buffer(&e, 0);
    cl_mem b2 = int_buffer(&e, 0);
    cl_mem out = int_buffer(&e, 0);
    CHECK_OK(clFinish(q));
    int three = 3, four = 4, ten = 10;
    CHECK_OK(clSetKernelArg(sum, 0, sizeof a, &a));
    CHECK_OK(clSetKernelArg(sum, 1, sizeof b2, &b2));
    CHECK_OK(clSetKernelArg(sum, 2, sizeof out, &out));
    CHECK_OK(clSetKernelArg(add, 0, sizeof out, &out));
    CHECK_OK(clSetKernelArg(add, 1, sizeof ten, &ten));
    cl_command_buffer_khr b = cb.create(1, &q, NULL, &err);
    REQUIRE(err == CL_SUCCESS, "create: %s", h_err(err));
    size_t n = N;
    cl_sync_point_khr fa = 0, fb = 0, s = 0, bar = 0, last = 0;
    CHECK_OK(cb.fill(b, NULL, NULL, a, &three, sizeof three, 0, N * sizeof(int), 0, NULL, &fa,
                     NULL));
    CHECK_OK(cb.fill(b, NULL, NULL, b2, &four, sizeof four, 0, N * sizeof(int), 0, NULL, &fb,
                     NULL));
    cl_sync_point_khr both[2] = {fa, fb};
    CHECK_OK(cb.ndrange(b, NULL, NULL, sum, 1, NULL, &n, NULL, 2, both, &s, NULL));
    CHECK_OK(cb.barrier(b, NULL, NULL, 0, NULL, &bar, NULL));
    /* After the barrier without sync points: waits for the sum. */
    CHECK_OK(cb.ndrange(b, NULL, NULL, add, 1, NULL, &n, NULL, 0, NULL, &last, NULL));
    CHECK_OK(cb.ndrange(b, NULL, NULL, add, 1, NULL, &n, NULL, 1, &last, NULL, NULL));
    CHECK_OK(cb.finalize(b));
    cl_event gate = clCreateUserEvent(c, &err);
    cl_event runs[2] = {NULL, NULL};
    CHECK_OK(cb.enqueue(0, NULL, b, 1, &gate, &runs[0]));
    CHECK(h_event_status(runs[0]) > CL_RUNNING || h_event_status(runs[0]) == CL_SUBMITTED ||
              h_event_status(runs[0]) == CL_QUEUED,
          "ran before its wait list: status %d", h_event_status(runs[0]));
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_OK(clWaitForEvents(1, &runs[0]));
    read_check(q, out, 27, N, "one enqueue");
    CHECK_OK(cb.enqueue(0, NULL, b, 0, NULL, &runs[1]));
    CHECK_OK(clFinish(q));
    CHECK(h_event_status(runs[1]) == CL_COMPLETE, "second enqueue: status %d",
          h_event_status(runs[1]));
    read_check(q, out, 27, N, "enqueued again");
    /* The enqueue's times: queued <= submitted <= started <= ended <= complete. */
    cl_ulong t[5] = {0};
    cl_profiling_info when[5] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                 CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                 CL_PROFILING_COMMAND_COMPLETE};
    for (int i = 0; i < 5; i++)
        CHECK_OK(clGetEventProfilingInfo(runs[1], when[i], sizeof t[i], &t[i], NULL));
    for (int i = 1; i < 5; i++)
        CHECK(t[i - 1] <= t[i] && t[i], "profiling times out of order: %llu %llu %llu %llu %llu",
              (unsigned long long)t[0], (unsigned long long)t[1], (unsigned long long)t[2],
              (unsigned long long)t[3], (unsigned long long)t[4]);
    clReleaseEvent(runs[0]);
    clReleaseEvent(runs[1]);
    clReleaseEvent(gate);
    cb.release(b);
    clReleaseMemObject(a);
    clReleaseMemObject(b2);
    clReleaseMemObject(out);
    clReleaseKernel(sum);
    clReleaseKernel(add);
    teardown(&e);
}

/* A launch whose kernel enqueues a child kernel that runs after it
 * (CLK_ENQUEUE_FLAGS_WAIT_KERNEL), then a copy of what the child wrote: a
 * command ends when its children have, in a command buffer too. */
TEST(child_kernel_before_the_next_command)
{
    NEED_COMMAND_BUFFER();
    cl_device_device_enqueue_capabilities dq = 0;
    clGetDeviceInfo(h_device(), CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof dq, &dq, NULL);
    if (!(dq & CL_DEVICE_QUEUE_SUPPORTED)) {
        h_skip("no device-side enqueue");
        return;
    }
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_queue_properties dprops[] = {CL_QUEUE_PROPERTIES,
                                    CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT |
                                        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                    0};
    cl_int err;
    cl_command_queue dq_ = clCreateCommandQueueWithProperties(c, h_device(), dprops, &err);
    REQUIRE(err == CL_SUCCESS, "device queue: %s", h_err(err));
    const char *src =
        "__kernel void parent(__global int *buf) {\n"
        "  if (get_global_id(0) == 0)\n"
        "    enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL,\n"
        "      ndrange_1D(1024), ^{ buf[get_global_id(0)] = 7; });\n"
        "}\n";
    cl_program p = h_build(c, src, "-cl-std=CL2.0");
    REQUIRE(p, "build failed");
    cl_kernel k = clCreateKernel(p, "parent", &err);
    cl_mem a = clCreateBuffer(c, CL_MEM_READ_WRITE, 1024 * sizeof(int), NULL, &err);
    cl_mem out = clCreateBuffer(c, CL_MEM_READ_WRITE, 1024 * sizeof(int), NULL, &err);
    int zero = 0;
    CHECK_OK(clEnqueueFillBuffer(q, a, &zero, sizeof zero, 0, 1024 * sizeof(int), 0, NULL, NULL));
    CHECK_OK(clSetKernelArg(k, 0, sizeof a, &a));
    cl_command_buffer_khr b = cb.create(1, &q, NULL, &err);
    size_t n = 64;
    cl_sync_point_khr launch = 0;
    CHECK_OK(cb.ndrange(b, NULL, NULL, k, 1, NULL, &n, NULL, 0, NULL, &launch, NULL));
    CHECK_OK(cb.copy(b, NULL, NULL, a, out, 0, 0, 1024 * sizeof(int), 1, &launch, NULL, NULL));
    CHECK_OK(cb.finalize(b));
    CHECK_OK(cb.enqueue(0, NULL, b, 0, NULL, NULL));
    read_check(q, out, 7, 1024, "the copy after the parent");
    cb.release(b);
    clReleaseMemObject(a);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(dq_);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(bad_arguments)
{
    NEED_COMMAND_BUFFER();
    cl_context c = h_context();
    cl_context other = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_command_queue other_q = h_queue(other, 0);
    cl_int err = CL_SUCCESS;
    cl_command_buffer_khr none = cb.create(0, &q, NULL, &err);
    CHECK_CREATE_FAILS(none, err, CL_INVALID_VALUE);
    none = cb.create(1, NULL, NULL, &err);
    CHECK_CREATE_FAILS(none, err, CL_INVALID_VALUE);
    cl_command_buffer_properties_khr unknown[] = {0x7777, 1, 0};
    none = cb.create(1, &q, unknown, &err);
    CHECK_CREATE_FAILS(none, err, CL_INVALID_VALUE);
    cl_command_buffer_properties_khr twice[] = {CL_COMMAND_BUFFER_FLAGS_KHR, 0,
                                                CL_COMMAND_BUFFER_FLAGS_KHR, 0, 0};
    none = cb.create(1, &q, twice, &err);
    CHECK_CREATE_FAILS(none, err, CL_INVALID_VALUE);
    cl_command_buffer_properties_khr bad_flags[] = {CL_COMMAND_BUFFER_FLAGS_KHR, 1u << 20, 0};
    none = cb.create(1, &q, bad_flags, &err);
    CHECK_CREATE_FAILS(none, err, CL_INVALID_VALUE);
    none = cb.create(1, (cl_command_queue *)&c, NULL, &err);
    CHECK_CREATE_FAILS(none, err, CL_INVALID_COMMAND_QUEUE);

    cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE, 256, NULL, &err);
    cl_mem foreign = clCreateBuffer(other, CL_MEM_READ_WRITE, 256, NULL, &err);
    cl_command_buffer_khr b = cb.create(1, &q, NULL, &err);
    REQUIRE(err == CL_SUCCESS, "create: %s", h_err(err));
    int v = 1;
    cl_sync_point_khr first = 0, next = 0, bogus = 99;
    CHECK_OK(cb.fill(b, NULL, NULL, m, &v, sizeof v, 0, 256, 0, NULL, &first, NULL));
    CHECK_ERR(cb.fill(b, q, NULL, m, &v, sizeof v, 0, 256, 0, NULL, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(cb.fill(b, NULL, NULL, m, &v, sizeof v, 0, 256, 1, &bogus, NULL, NULL),
              CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
    CHECK_ERR(cb.fill(b, NULL, NULL, m, &v, sizeof v, 0, 256, 1, NULL, NULL, NULL),
              CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
    CHECK_ERR(cb.fill(b, NULL, NULL, foreign, &v, sizeof v, 0, 256, 0, NULL, NULL, NULL),
              CL_INVALID_CONTEXT);
    CHECK_ERR(cb.fill(b, NULL, NULL, m, &v, sizeof v, 0, 512, 0, NULL, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(cb.copy(b, NULL, NULL, m, m, 0, 8, 16, 0, NULL, NULL, NULL), CL_MEM_COPY_OVERLAP);
    cmd_props props[] = {0x7777, 1, 0};
    CHECK_ERR(cb.fill(b, NULL, props, m, &v, sizeof v, 0, 256, 0, NULL, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(cb.fill((cl_command_buffer_khr)m, NULL, NULL, m, &v, sizeof v, 0, 256, 0, NULL,
                      NULL, NULL),
              CL_INVALID_COMMAND_BUFFER_KHR);
    /* Nothing failed was recorded: the next sync point follows the first. */
    CHECK_OK(cb.fill(b, NULL, NULL, m, &v, sizeof v, 0, 256, 1, &first, &next, NULL));
    CHECK(next == first + 1, "sync points %u then %u", first, next);
    CHECK_ERR(cb.enqueue(0, NULL, b, 0, NULL, NULL), CL_INVALID_OPERATION);
    CHECK_ERR(cb.finalize((cl_command_buffer_khr)m), CL_INVALID_COMMAND_BUFFER_KHR);
    CHECK_OK(cb.finalize(b));
    CHECK_ERR(cb.finalize(b), CL_INVALID_OPERATION);
    CHECK_ERR(cb.fill(b, NULL, NULL, m, &v, sizeof v, 0, 256, 0, NULL, NULL, NULL),
              CL_INVALID_OPERATION);
    CHECK_ERR(cb.enqueue(1, &other_q, b, 0, NULL, NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(cb.enqueue(1, NULL, b, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(cb.enqueue(0, NULL, b, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    cl_uint x = 0;
    CHECK_ERR(cb.info(b, 0x7777, sizeof x, &x, NULL), CL_INVALID_VALUE);
    CHECK_ERR(cb.info(b, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, 1, &x, NULL), CL_INVALID_VALUE);
    /* A substitute queue of the same device and context. */
    cl_command_queue q2 = h_queue(c, 0);
    CHECK_OK(cb.enqueue(1, &q2, b, 0, NULL, NULL));
    CHECK_OK(clFinish(q2));
    cb.release(b);
    clReleaseMemObject(m);
    clReleaseMemObject(foreign);
    clReleaseCommandQueue(q2);
    clReleaseCommandQueue(q);
    clReleaseCommandQueue(other_q);
    clReleaseContext(c);
    clReleaseContext(other);
}

/* A mutable launch: its argument, value and global size updated between
 * enqueues; its info; an update of a field not made updatable fails, and
 * a group of updates with one bad one changes nothing. */
TEST(mutable_dispatch_updates)
{
    NEED_MUTABLE();
    struct env e;
    REQUIRE(setup(&e, 0), "build failed");
    cl_command_queue q = e.q;
    cl_int err;
    cl_kernel k = clCreateKernel(e.p, "add", &err);
    cl_mem a = int_buffer(&e, 0);
    cl_mem a2 = int_buffer(&e, 0);
    int one = 1;
    CHECK_OK(clSetKernelArg(k, 0, sizeof a, &a));
    CHECK_OK(clSetKernelArg(k, 1, sizeof one, &one));
    cl_command_buffer_properties_khr props[] = {CL_COMMAND_BUFFER_FLAGS_KHR,
                                                CL_COMMAND_BUFFER_MUTABLE_KHR, 0};
    cl_command_buffer_khr b = cb.create(1, &q, props, &err);
    REQUIRE(err == CL_SUCCESS, "create: %s", h_err(err));
    cmd_props fields[] = {UPDATABLE_FIELDS,
                          CL_MUTABLE_DISPATCH_ARGUMENTS_KHR | CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR,
                          0};
    size_t half = N / 2, n = N;
    cl_mutable_command_khr cmd = NULL;
    CHECK_OK(cb.ndrange(b, NULL, fields, k, 1, NULL, &half, NULL, 0, NULL, NULL, &cmd));
    REQUIRE(cmd, "no mutable handle");
    dispatch_config config = {.command = cmd};
    const void *configs[2] = {&config, &config};
    cl_uint types[2] = {DISPATCH_CONFIG, DISPATCH_CONFIG};
    CHECK_ERR(cb.update(b, 1, types, configs), CL_INVALID_OPERATION); /* not finalized */
    CHECK_OK(cb.finalize(b));
    CHECK_OK(cb.enqueue(0, NULL, b, 0, NULL, NULL));
    CHECK_OK(clFinish(q));
    /* Elements [0, N/2) of a got 1. */
    cl_kernel info_kernel = NULL;
    cl_uint dims = 0;
    size_t global[3] = {0};
    CHECK_OK(cb.command_info(cmd, CL_MUTABLE_DISPATCH_KERNEL_KHR, sizeof info_kernel,
                             &info_kernel, NULL));
    CHECK_OK(cb.command_info(cmd, CL_MUTABLE_DISPATCH_DIMENSIONS_KHR, sizeof dims, &dims, NULL));
    CHECK_OK(cb.command_info(cmd, CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR, sizeof global, global,
                             NULL));
    CHECK(info_kernel == k && dims == 1 && global[0] == N / 2, "info: kernel %p, %u dims, %zu",
          (void *)info_kernel, dims, global[0]);
    /* Now over all of a2, adding 3. */
    int three = 3;
    cl_mutable_dispatch_arg_khr args[2] = {{0, sizeof a2, &a2}, {1, sizeof three, &three}};
    config.num_args = 2;
    config.arg_list = args;
    config.global_work_size = &n;
    CHECK_OK(cb.update(b, 1, types, configs));
    CHECK_OK(cb.command_info(cmd, CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR, sizeof global, global,
                             NULL));
    CHECK(global[0] == N, "global size %zu after the update", global[0]);
    CHECK_OK(cb.enqueue(0, NULL, b, 0, NULL, NULL));
    CHECK_OK(cb.enqueue(0, NULL, b, 0, NULL, NULL));
    read_check(q, a2, 6, N, "the updated launch, twice");
    /* The offset was not made updatable. */
    size_t offset = 4;
    dispatch_config bad = {.command = cmd, .global_work_offset = &offset};
    const void *bad_one[1] = {&bad};
    CHECK_ERR(cb.update(b, 1, types, bad_one), CL_INVALID_OPERATION);
    /* A good update then a bad one: neither takes effect. */
    int hundred = 100;
    cl_mutable_dispatch_arg_khr back[1] = {{1, sizeof hundred, &hundred}};
    dispatch_config good = {.command = cmd, .num_args = 1, .arg_list = back};
    const void *pair[2] = {&good, &bad};
    CHECK_ERR(cb.update(b, 2, types, pair), CL_INVALID_OPERATION);
    CHECK_OK(cb.enqueue(0, NULL, b, 0, NULL, NULL));
    read_check(q, a2, 9, N, "after the failed group of updates");
    cl_uint wrong_type[1] = {7};
    CHECK_ERR(cb.update(b, 1, wrong_type, configs), CL_INVALID_VALUE);
    dispatch_config foreign = {.command = (cl_mutable_command_khr)a};
    const void *foreign_one[1] = {&foreign};
    CHECK_ERR(cb.update(b, 1, types, foreign_one), CL_INVALID_MUTABLE_COMMAND_KHR);
    cb.release(b);
    clReleaseMemObject(a);
    clReleaseMemObject(a2);
    clReleaseKernel(k);
    teardown(&e);
}

/* A launch recorded before its buffer argument is set: the finalized
 * buffer cannot be enqueued until an update sets it. */
TEST(mutable_dispatch_deferred_argument)
{
    NEED_MUTABLE();
    struct env e;
    REQUIRE(setup(&e, 0), "build failed");
    cl_command_queue q = e.q;
    cl_int err;
    cl_kernel k = clCreateKernel(e.p, "add", &err);
    cl_mem a = int_buffer(&e, 0);
    int two = 2;
    CHECK_OK(clSetKernelArg(k, 1, sizeof two, &two));
    cl_command_buffer_properties_khr props[] = {CL_COMMAND_BUFFER_FLAGS_KHR,
                                                CL_COMMAND_BUFFER_MUTABLE_KHR, 0};
    cl_command_buffer_khr b = cb.create(1, &q, props, &err);
    size_t n = N;
    cl_mutable_command_khr cmd = NULL;
    /* Without ARGUMENTS updatable, an unset argument is an error. */
    cmd_props fixed[] = {UPDATABLE_FIELDS, CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR, 0};
    CHECK_ERR(cb.ndrange(b, NULL, fixed, k, 1, NULL, &n, NULL, 0, NULL, NULL, &cmd),
              CL_INVALID_KERNEL_ARGS);
    cmd_props fields[] = {UPDATABLE_FIELDS, CL_MUTABLE_DISPATCH_ARGUMENTS_KHR, 0};
    CHECK_OK(cb.ndrange(b, NULL, fields, k, 1, NULL, &n, NULL, 0, NULL, NULL, &cmd));
    CHECK_OK(cb.finalize(b));
    cl_command_buffer_state_khr state = 99;
    CHECK_OK(cb.info(b, CL_COMMAND_BUFFER_STATE_KHR, sizeof state, &state, NULL));
    CHECK(state == STATE_FINALIZED, "state %u with an argument unset", state);
    CHECK_ERR(cb.enqueue(0, NULL, b, 0, NULL, NULL), CL_INVALID_OPERATION);
    cl_mutable_dispatch_arg_khr arg = {0, sizeof a, &a};
    dispatch_config config = {.command = cmd, .num_args = 1, .arg_list = &arg};
    const void *configs[1] = {&config};
    cl_uint types[1] = {DISPATCH_CONFIG};
    CHECK_OK(cb.update(b, 1, types, configs));
    CHECK_OK(cb.info(b, CL_COMMAND_BUFFER_STATE_KHR, sizeof state, &state, NULL));
    CHECK(state == CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR, "state %u once set", state);
    CHECK_OK(cb.enqueue(0, NULL, b, 0, NULL, NULL));
    read_check(q, a, 2, N, "the deferred launch");
    cb.release(b);
    clReleaseMemObject(a);
    clReleaseKernel(k);
    teardown(&e);
}

int main(int argc, char **argv)
{
    h_init("command_buffer", argc, argv);
    H_RUN(capabilities);
    H_RUN_T(record_once_enqueue_many, 60);
    H_RUN_T(sync_points_and_barriers_out_of_order, 60);
    H_RUN_T(child_kernel_before_the_next_command, 60);
    H_RUN_T(bad_arguments, 60);
    H_RUN_T(mutable_dispatch_updates, 60);
    H_RUN_T(mutable_dispatch_deferred_argument, 60);
    return h_done();
}
