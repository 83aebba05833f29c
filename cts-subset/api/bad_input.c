/* api/bad_input: every non-kernel entry point with NULL handles, handles of another
 * type, wrong sizes and bad flags; checks the error code the spec requires.
 * Wrong-type handles are live objects of another kind (never freed pointers). */
#include "harness.h"

struct env {
    cl_device_id dev;
    cl_context ctx, ctx2;
    cl_command_queue q, q2;
    cl_mem buf, buf2;
    cl_event uev, uev2;   /* user events in ctx / ctx2 */
    cl_event mev;         /* completed marker event in ctx */
};

static int setup(struct env *e)
{
    memset(e, 0, sizeof *e);
    e->dev = h_device();
    if (!e->dev) return 0;
    e->ctx = h_context();
    e->ctx2 = h_context();
    e->q = h_queue(e->ctx, 0);
    e->q2 = h_queue(e->ctx2, 0);
    if (!e->q || !e->q2) return 0;
    cl_int err;
    e->buf = clCreateBuffer(e->ctx, CL_MEM_READ_WRITE, 1024, NULL, &err);
    e->buf2 = clCreateBuffer(e->ctx2, CL_MEM_READ_WRITE, 1024, NULL, &err);
    e->uev = clCreateUserEvent(e->ctx, &err);
    e->uev2 = clCreateUserEvent(e->ctx2, &err);
    clEnqueueMarkerWithWaitList(e->q, 0, NULL, &e->mev);
    clFinish(e->q);
    if (!e->buf || !e->buf2 || !e->uev || !e->uev2 || !e->mev) {
        h_fail_at(__FILE__, __LINE__, "setup failed");
        return 0;
    }
    return 1;
}

static void teardown(struct env *e)
{
    if (e->uev) { clSetUserEventStatus(e->uev, CL_COMPLETE); clReleaseEvent(e->uev); }
    if (e->uev2) { clSetUserEventStatus(e->uev2, CL_COMPLETE); clReleaseEvent(e->uev2); }
    if (e->mev) clReleaseEvent(e->mev);
    if (e->q) clFinish(e->q);
    if (e->q2) clFinish(e->q2);
    if (e->buf) clReleaseMemObject(e->buf);
    if (e->buf2) clReleaseMemObject(e->buf2);
    if (e->q) clReleaseCommandQueue(e->q);
    if (e->q2) clReleaseCommandQueue(e->q2);
    if (e->ctx) clReleaseContext(e->ctx);
    if (e->ctx2) clReleaseContext(e->ctx2);
}

/* AS(type, h): a live handle of another type.  With CTS_WRONG_TYPE_AS_NULL=1 it
 * becomes NULL instead (to validate the rest of this file against drivers that
 * crash on wrong-typed handles). */
static int wrong_as_null(void)
{
    const char *v = getenv("CTS_WRONG_TYPE_AS_NULL");
    return v && *v && strcmp(v, "0") != 0;
}
#define AS(type, h) (wrong_as_null() ? (type)NULL : (type)(void *)(h))
#define SETUP() struct env E; if (!setup(&E)) { teardown(&E); return; }
#define CREATE_FAILS(expr, expected)                                           \
    do {                                                                       \
        cl_int e_ = 12345;                                                     \
        void *o_ = (void *)(expr);                                             \
        CHECK(o_ == NULL && e_ == (expected), "%s -> %p, %s; expected NULL, %s",\
              #expr, o_, h_err(e_), h_err(expected));                          \
    } while (0)
/* CREATE_FAILS expressions use &e_ as errcode_ret */

static void CL_CALLBACK mem_cb(cl_mem m, void *u) { (void)m; (void)u; }
static void CL_CALLBACK ev_cb(cl_event e, cl_int s, void *u) { (void)e; (void)s; (void)u; }
static void CL_CALLBACK ctx_cb(cl_context c, void *u) { (void)c; (void)u; }
static void CL_CALLBACK nk(void *a) { (void)a; }

TEST(bad_null_platform_device)
{
    SETUP();
    char buf[64];
    cl_uint n;
    CHECK_ERR(clGetDeviceInfo(NULL, CL_DEVICE_NAME, sizeof buf, buf, NULL), CL_INVALID_DEVICE);
    CHECK_ERR(clRetainDevice(NULL), CL_INVALID_DEVICE);
    CHECK_ERR(clReleaseDevice(NULL), CL_INVALID_DEVICE);
    cl_device_partition_property eq[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    CHECK_ERR(clCreateSubDevices(NULL, eq, 0, NULL, &n), CL_INVALID_DEVICE);
    cl_ulong t1, t2;
    CHECK_ERR(clGetDeviceAndHostTimer(NULL, &t1, &t2), CL_INVALID_DEVICE);
    CHECK_ERR(clGetHostTimer(NULL, &t1), CL_INVALID_DEVICE);
    teardown(&E);
}

TEST(bad_type_platform_device)
{
    SETUP();
    char buf[64];
    cl_uint n;
    cl_device_id d;
    CHECK_ERR(clGetPlatformInfo(AS(cl_platform_id, E.ctx), CL_PLATFORM_NAME, sizeof buf, buf, NULL),
              CL_INVALID_PLATFORM);
    CHECK_ERR(clGetDeviceIDs(AS(cl_platform_id, E.q), CL_DEVICE_TYPE_ALL, 1, &d, &n),
              CL_INVALID_PLATFORM);
    CHECK_ERR(clGetDeviceInfo(AS(cl_device_id, E.buf), CL_DEVICE_NAME, sizeof buf, buf, NULL),
              CL_INVALID_DEVICE);
    CHECK_ERR(clRetainDevice(AS(cl_device_id, E.ctx)), CL_INVALID_DEVICE);
    CHECK_ERR(clReleaseDevice(AS(cl_device_id, E.q)), CL_INVALID_DEVICE);
    cl_device_partition_property eq[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    CHECK_ERR(clCreateSubDevices(AS(cl_device_id, E.ctx), eq, 0, NULL, &n), CL_INVALID_DEVICE);
    cl_ulong t1, t2;
    CHECK_ERR(clGetDeviceAndHostTimer(AS(cl_device_id, E.buf), &t1, &t2), CL_INVALID_DEVICE);
    CHECK_ERR(clGetHostTimer(AS(cl_device_id, E.q), &t1), CL_INVALID_DEVICE);
    teardown(&E);
}

TEST(bad_context)
{
    SETUP();
    cl_uint u;
    CHECK_ERR(clRetainContext(NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(clReleaseContext(NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(clGetContextInfo(NULL, CL_CONTEXT_REFERENCE_COUNT, sizeof u, &u, NULL),
              CL_INVALID_CONTEXT);
    CHECK_ERR(clRetainContext(AS(cl_context, E.q)), CL_INVALID_CONTEXT);
    CHECK_ERR(clReleaseContext(AS(cl_context, E.buf)), CL_INVALID_CONTEXT);
    CHECK_ERR(clGetContextInfo(AS(cl_context, E.buf), CL_CONTEXT_REFERENCE_COUNT, sizeof u, &u,
                               NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(clSetContextDestructorCallback(AS(cl_context, E.q), ctx_cb, NULL),
              CL_INVALID_CONTEXT);
    CHECK_ERR(clSetContextDestructorCallback(E.ctx, NULL, NULL), CL_INVALID_VALUE);
    /* wrong-type device in the device list */
    cl_device_id bogus = AS(cl_device_id, E.q);
    cl_int e_ = 0;
    cl_context c = clCreateContext(NULL, 1, &bogus, NULL, NULL, &e_);
    CHECK(c == NULL && e_ == CL_INVALID_DEVICE, "context with a queue as device: %p %s",
          (void *)c, h_err(e_));
    cl_context_properties badplat[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)AS(cl_context, E.ctx), 0};
    c = clCreateContext(badplat, 1, &E.dev, NULL, NULL, &e_);
    CHECK(c == NULL && e_ == CL_INVALID_PLATFORM, "CL_CONTEXT_PLATFORM = a context: %p %s",
          (void *)c, h_err(e_));
    /* wrong sizes */
    CHECK_ERR(clGetContextInfo(E.ctx, CL_CONTEXT_REFERENCE_COUNT, 1, &u, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetContextInfo(E.ctx, CL_CONTEXT_DEVICES, 1, &u, NULL), CL_INVALID_VALUE);
    teardown(&E);
}

TEST(bad_queue)
{
    SETUP();
    cl_uint u;
    cl_int e_ = 0;
    CHECK_ERR(clRetainCommandQueue(NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clReleaseCommandQueue(NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clGetCommandQueueInfo(NULL, CL_QUEUE_REFERENCE_COUNT, sizeof u, &u, NULL),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clFlush(NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clFinish(NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clRetainCommandQueue(AS(cl_command_queue, E.buf)), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clReleaseCommandQueue(AS(cl_command_queue, E.ctx)), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clGetCommandQueueInfo(AS(cl_command_queue, E.buf), CL_QUEUE_REFERENCE_COUNT,
                                    sizeof u, &u, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clFlush(AS(cl_command_queue, E.ctx)), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clFinish(AS(cl_command_queue, E.buf)), CL_INVALID_COMMAND_QUEUE);
    cl_command_queue q = clCreateCommandQueueWithProperties(AS(cl_context, E.buf), E.dev, NULL, &e_);
    CHECK(q == NULL && e_ == CL_INVALID_CONTEXT, "queue on a mem as context: %s", h_err(e_));
    q = clCreateCommandQueueWithProperties(E.ctx, AS(cl_device_id, E.ctx), NULL, &e_);
    CHECK(q == NULL && e_ == CL_INVALID_DEVICE, "queue on a context as device: %s", h_err(e_));
    q = clCreateCommandQueue(AS(cl_context, E.q), E.dev, 0, &e_);
    CHECK(q == NULL && e_ == CL_INVALID_CONTEXT, "legacy queue on a queue as context: %s",
          h_err(e_));
    CHECK_ERR(clGetCommandQueueInfo(E.q, CL_QUEUE_REFERENCE_COUNT, 3, &u, NULL), CL_INVALID_VALUE);
    teardown(&E);
}

TEST(bad_mem_create)
{
    SETUP();
    cl_int e_ = 0;
    cl_mem m = clCreateBuffer(NULL, 0, 64, NULL, &e_);
    CHECK(m == NULL && e_ == CL_INVALID_CONTEXT, "buffer on NULL context: %s", h_err(e_));
    m = clCreateBuffer(AS(cl_context, E.q), 0, 64, NULL, &e_);
    CHECK(m == NULL && e_ == CL_INVALID_CONTEXT, "buffer on queue-as-context: %s", h_err(e_));
    m = clCreateBufferWithProperties(NULL, NULL, 0, 64, NULL, &e_);
    CHECK(m == NULL && e_ == CL_INVALID_CONTEXT, "WithProperties NULL context: %s", h_err(e_));
    m = clCreateBufferWithProperties(AS(cl_context, E.buf), NULL, 0, 64, NULL, &e_);
    CHECK(m == NULL && e_ == CL_INVALID_CONTEXT, "WithProperties mem-as-context: %s", h_err(e_));
    cl_buffer_region r = {0, 64};
    m = clCreateSubBuffer(NULL, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &e_);
    CHECK(m == NULL && e_ == CL_INVALID_MEM_OBJECT, "sub-buffer of NULL: %s", h_err(e_));
    m = clCreateSubBuffer(AS(cl_mem, E.q), 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &e_);
    CHECK(m == NULL && e_ == CL_INVALID_MEM_OBJECT, "sub-buffer of a queue: %s", h_err(e_));
    m = clCreateSubBuffer(E.buf, 0, CL_BUFFER_CREATE_TYPE_REGION, NULL, &e_);
    CHECK(m == NULL && e_ == CL_INVALID_VALUE, "sub-buffer with NULL info: %s", h_err(e_));
    m = clCreateSubBuffer(E.buf, 0, 0x7777, &r, &e_);
    CHECK(m == NULL && e_ == CL_INVALID_VALUE, "sub-buffer with bad create type: %s", h_err(e_));
    m = clCreateBuffer(E.ctx, (cl_mem_flags)1 << 40, 64, NULL, &e_);
    CHECK(m == NULL && e_ == CL_INVALID_VALUE, "unknown flag bits: %s", h_err(e_));
    cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc = {0};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = 4;
    desc.image_height = 4;
    m = clCreateImage(NULL, 0, &fmt, &desc, NULL, &e_);
    CHECK(m == NULL && e_ == CL_INVALID_CONTEXT, "image on NULL context: %s", h_err(e_));
    m = clCreateImage(AS(cl_context, E.buf), 0, &fmt, &desc, NULL, &e_);
    CHECK(m == NULL && e_ == CL_INVALID_CONTEXT, "image on mem-as-context: %s", h_err(e_));
    cl_uint nf = 0;
    CHECK_ERR(clGetSupportedImageFormats(NULL, 0, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &nf),
              CL_INVALID_CONTEXT);
    CHECK_ERR(clGetSupportedImageFormats(AS(cl_context, E.q), 0, CL_MEM_OBJECT_IMAGE2D, 0, NULL,
                                         &nf), CL_INVALID_CONTEXT);
    m = clCreatePipe(NULL, 0, 4, 4, NULL, &e_);
    CHECK(m == NULL && e_ == CL_INVALID_CONTEXT, "pipe on NULL context: %s", h_err(e_));
    teardown(&E);
}

TEST(bad_mem_object_calls)
{
    SETUP();
    cl_uint u;
    size_t sz;
    CHECK_ERR(clRetainMemObject(NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clReleaseMemObject(NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clRetainMemObject(AS(cl_mem, E.q)), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clReleaseMemObject(AS(cl_mem, E.ctx)), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clGetMemObjectInfo(NULL, CL_MEM_SIZE, sizeof sz, &sz, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clGetMemObjectInfo(AS(cl_mem, E.ctx), CL_MEM_SIZE, sizeof sz, &sz, NULL),
              CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clGetMemObjectInfo(E.buf, CL_MEM_SIZE, 4, &sz, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetMemObjectInfo(E.buf, 0x7777, sizeof sz, &sz, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetMemObjectInfo(E.buf, CL_MEM_REFERENCE_COUNT, 2, &u, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clSetMemObjectDestructorCallback(NULL, mem_cb, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clSetMemObjectDestructorCallback(AS(cl_mem, E.q), mem_cb, NULL),
              CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clSetMemObjectDestructorCallback(E.buf, NULL, NULL), CL_INVALID_VALUE);
    size_t w;
    CHECK_ERR(clGetImageInfo(E.buf, CL_IMAGE_WIDTH, sizeof w, &w, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clGetImageInfo(NULL, CL_IMAGE_WIDTH, sizeof w, &w, NULL), CL_INVALID_MEM_OBJECT);
    cl_uint ps;
    CHECK_ERR(clGetPipeInfo(E.buf, CL_PIPE_PACKET_SIZE, sizeof ps, &ps, NULL),
              CL_INVALID_MEM_OBJECT);
    teardown(&E);
}

TEST(bad_enqueue_buffer_handles)
{
    SETUP();
    char host[256];
    cl_command_queue nq = AS(cl_command_queue, E.buf);
    size_t o[3] = {0, 0, 0}, reg[3] = {4, 4, 1};
    cl_int e_ = 0;
    /* NULL queue */
    CHECK_ERR(clEnqueueReadBuffer(NULL, E.buf, CL_TRUE, 0, 4, host, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueWriteBuffer(NULL, E.buf, CL_TRUE, 0, 4, host, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueCopyBuffer(NULL, E.buf, E.buf, 0, 8, 4, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueFillBuffer(NULL, E.buf, host, 4, 0, 4, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    /* wrong-type queue */
    CHECK_ERR(clEnqueueReadBuffer(nq, E.buf, CL_TRUE, 0, 4, host, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueWriteBuffer(nq, E.buf, CL_TRUE, 0, 4, host, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueCopyBuffer(nq, E.buf, E.buf, 0, 8, 4, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueFillBuffer(nq, E.buf, host, 4, 0, 4, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueReadBufferRect(nq, E.buf, CL_TRUE, o, o, reg, 0, 0, 0, 0, host, 0, NULL,
                                      NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueWriteBufferRect(nq, E.buf, CL_TRUE, o, o, reg, 0, 0, 0, 0, host, 0, NULL,
                                       NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueCopyBufferRect(nq, E.buf, E.buf2, o, o, reg, 0, 0, 0, 0, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    void *p = clEnqueueMapBuffer(nq, E.buf, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &e_);
    CHECK(p == NULL && e_ == CL_INVALID_COMMAND_QUEUE, "map on mem-as-queue: %s", h_err(e_));
    CHECK_ERR(clEnqueueUnmapMemObject(nq, E.buf, host, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueMigrateMemObjects(nq, 1, &E.buf, 0, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    /* NULL / wrong-type buffer */
    cl_mem nb = AS(cl_mem, E.q);
    CHECK_ERR(clEnqueueReadBuffer(E.q, NULL, CL_TRUE, 0, 4, host, 0, NULL, NULL),
              CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueReadBuffer(E.q, nb, CL_TRUE, 0, 4, host, 0, NULL, NULL),
              CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueWriteBuffer(E.q, AS(cl_mem, E.ctx), CL_TRUE, 0, 4, host, 0, NULL, NULL),
              CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueCopyBuffer(E.q, nb, E.buf, 0, 8, 4, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueCopyBuffer(E.q, E.buf, NULL, 0, 8, 4, 0, NULL, NULL),
              CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueFillBuffer(E.q, nb, host, 4, 0, 4, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueReadBufferRect(E.q, nb, CL_TRUE, o, o, reg, 0, 0, 0, 0, host, 0, NULL,
                                      NULL), CL_INVALID_MEM_OBJECT);
    p = clEnqueueMapBuffer(E.q, nb, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &e_);
    CHECK(p == NULL && e_ == CL_INVALID_MEM_OBJECT, "map of queue-as-mem: %s", h_err(e_));
    CHECK_ERR(clEnqueueUnmapMemObject(E.q, NULL, host, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    cl_mem list[2] = {E.buf, NULL};
    CHECK_ERR(clEnqueueMigrateMemObjects(E.q, 2, list, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    list[1] = nb;
    CHECK_ERR(clEnqueueMigrateMemObjects(E.q, 2, list, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    /* buffer from another context */
    CHECK_ERR(clEnqueueReadBuffer(E.q, E.buf2, CL_TRUE, 0, 4, host, 0, NULL, NULL),
              CL_INVALID_CONTEXT);
    CHECK_ERR(clEnqueueCopyBuffer(E.q, E.buf, E.buf2, 0, 0, 4, 0, NULL, NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(clEnqueueFillBuffer(E.q, E.buf2, host, 4, 0, 4, 0, NULL, NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(clEnqueueMigrateMemObjects(E.q, 1, &E.buf2, 0, 0, NULL, NULL), CL_INVALID_CONTEXT);
    teardown(&E);
}

TEST(bad_enqueue_buffer_args)
{
    SETUP();
    char host[2048];
    cl_int e_ = 0;
    CHECK_ERR(clEnqueueReadBuffer(E.q, E.buf, CL_TRUE, 0, 4, NULL, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueWriteBuffer(E.q, E.buf, CL_TRUE, 0, 4, NULL, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadBuffer(E.q, E.buf, CL_TRUE, 1020, 8, host, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueWriteBuffer(E.q, E.buf, CL_TRUE, 0, 1025, host, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueCopyBuffer(E.q, E.buf, E.buf, 0, 1000, 100, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillBuffer(E.q, E.buf, NULL, 4, 0, 4, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillBuffer(E.q, E.buf, host, 0, 0, 4, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillBuffer(E.q, E.buf, host, 3, 0, 6, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillBuffer(E.q, E.buf, host, 256, 0, 512, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillBuffer(E.q, E.buf, host, 4, 2, 4, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillBuffer(E.q, E.buf, host, 4, 0, 6, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillBuffer(E.q, E.buf, host, 4, 1024, 4, 0, NULL, NULL), CL_INVALID_VALUE);
    void *p = clEnqueueMapBuffer(E.q, E.buf, CL_TRUE, CL_MAP_READ, 1000, 100, 0, NULL, NULL, &e_);
    CHECK(p == NULL && e_ == CL_INVALID_VALUE, "map out of range: %s", h_err(e_));
    p = clEnqueueMapBuffer(E.q, E.buf, CL_TRUE, CL_MAP_READ, 0, 0, 0, NULL, NULL, &e_);
    CHECK(p == NULL && e_ == CL_INVALID_VALUE, "map of size 0: %s", h_err(e_));
    p = clEnqueueMapBuffer(E.q, E.buf, CL_TRUE, (cl_map_flags)1 << 40, 0, 4, 0, NULL, NULL, &e_);
    CHECK(p == NULL && e_ == CL_INVALID_VALUE, "map with unknown flags: %s", h_err(e_));
    p = clEnqueueMapBuffer(E.q, E.buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0,
                           4, 0, NULL, NULL, &e_);
    CHECK(p == NULL && e_ == CL_INVALID_VALUE, "map READ|WRITE_INVALIDATE: %s", h_err(e_));
    CHECK_ERR(clEnqueueUnmapMemObject(E.q, E.buf, host, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueMigrateMemObjects(E.q, 0, &E.buf, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueMigrateMemObjects(E.q, 1, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueMigrateMemObjects(E.q, 1, &E.buf, (cl_mem_migration_flags)1 << 20, 0,
                                         NULL, NULL), CL_INVALID_VALUE);
    CHECK_OK(clFinish(E.q));
    teardown(&E);
}

TEST(bad_wait_lists)
{
    SETUP();
    char host[64];
    cl_event nul = NULL;
    cl_event wrong = AS(cl_event, E.buf);
    CHECK_ERR(clEnqueueReadBuffer(E.q, E.buf, CL_TRUE, 0, 4, host, 1, NULL, NULL),
              CL_INVALID_EVENT_WAIT_LIST);
    CHECK_ERR(clEnqueueReadBuffer(E.q, E.buf, CL_TRUE, 0, 4, host, 0, &E.mev, NULL),
              CL_INVALID_EVENT_WAIT_LIST);
    CHECK_ERR(clEnqueueReadBuffer(E.q, E.buf, CL_TRUE, 0, 4, host, 1, &nul, NULL),
              CL_INVALID_EVENT_WAIT_LIST);
    CHECK_ERR(clEnqueueWriteBuffer(E.q, E.buf, CL_TRUE, 0, 4, host, 1, &wrong, NULL),
              CL_INVALID_EVENT_WAIT_LIST);
    CHECK_ERR(clEnqueueMarkerWithWaitList(E.q, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    CHECK_ERR(clEnqueueMarkerWithWaitList(E.q, 1, &wrong, NULL), CL_INVALID_EVENT_WAIT_LIST);
    CHECK_ERR(clEnqueueBarrierWithWaitList(E.q, 0, &E.mev, NULL), CL_INVALID_EVENT_WAIT_LIST);
    CHECK_ERR(clEnqueueBarrierWithWaitList(E.q, 1, &nul, NULL), CL_INVALID_EVENT_WAIT_LIST);
    /* events from another context */
    CHECK_ERR(clEnqueueMarkerWithWaitList(E.q, 1, &E.uev2, NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(clEnqueueFillBuffer(E.q, E.buf, host, 4, 0, 4, 1, &E.uev2, NULL),
              CL_INVALID_CONTEXT);
    CHECK_ERR(clEnqueueMarker(E.q, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueMarker(NULL, &nul), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueBarrier(NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueBarrier(AS(cl_command_queue, E.ctx)), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueMarkerWithWaitList(NULL, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueBarrierWithWaitList(AS(cl_command_queue, E.buf), 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_OK(clFinish(E.q));
    teardown(&E);
}

TEST(bad_legacy_wait_for_events)
{
    SETUP();
    cl_event nul = NULL;
    CHECK_ERR(clEnqueueWaitForEvents(E.q, 1, &E.uev2), CL_INVALID_CONTEXT);
    CHECK_ERR(clEnqueueWaitForEvents(E.q, 0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueWaitForEvents(E.q, 1, &nul), CL_INVALID_EVENT);
    CHECK_ERR(clEnqueueWaitForEvents(NULL, 1, &E.mev), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueWaitForEvents(AS(cl_command_queue, E.buf), 1, &E.mev),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_OK(clFinish(E.q));
    teardown(&E);
}

TEST(bad_events)
{
    SETUP();
    cl_int s;
    cl_ulong t;
    cl_event nul = NULL, wrong = AS(cl_event, E.q);
    CHECK_ERR(clWaitForEvents(0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clWaitForEvents(1, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clWaitForEvents(1, &nul), CL_INVALID_EVENT);
    CHECK_ERR(clWaitForEvents(1, &wrong), CL_INVALID_EVENT);
    cl_event two_ctx[2] = {E.mev, E.uev2};
    CHECK_ERR(clWaitForEvents(2, two_ctx), CL_INVALID_CONTEXT);
    CHECK_ERR(clGetEventInfo(NULL, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL),
              CL_INVALID_EVENT);
    CHECK_ERR(clGetEventInfo(wrong, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL),
              CL_INVALID_EVENT);
    CHECK_ERR(clGetEventInfo(E.mev, CL_EVENT_COMMAND_EXECUTION_STATUS, 2, &s, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clGetEventInfo(E.mev, 0x7777, sizeof s, &s, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clRetainEvent(NULL), CL_INVALID_EVENT);
    CHECK_ERR(clReleaseEvent(NULL), CL_INVALID_EVENT);
    CHECK_ERR(clRetainEvent(wrong), CL_INVALID_EVENT);
    CHECK_ERR(clReleaseEvent(AS(cl_event, E.buf)), CL_INVALID_EVENT);
    CHECK_ERR(clSetEventCallback(NULL, CL_COMPLETE, ev_cb, NULL), CL_INVALID_EVENT);
    CHECK_ERR(clSetEventCallback(wrong, CL_COMPLETE, ev_cb, NULL), CL_INVALID_EVENT);
    CHECK_ERR(clSetEventCallback(E.mev, CL_COMPLETE, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clSetEventCallback(E.mev, CL_QUEUED, ev_cb, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clSetEventCallback(E.mev, 77, ev_cb, NULL), CL_INVALID_VALUE);
    cl_int e_ = 0;
    cl_event u = clCreateUserEvent(NULL, &e_);
    CHECK(u == NULL && e_ == CL_INVALID_CONTEXT, "user event on NULL context: %s", h_err(e_));
    u = clCreateUserEvent(AS(cl_context, E.buf), &e_);
    CHECK(u == NULL && e_ == CL_INVALID_CONTEXT, "user event on mem-as-context: %s", h_err(e_));
    CHECK_ERR(clSetUserEventStatus(NULL, CL_COMPLETE), CL_INVALID_EVENT);
    CHECK_ERR(clSetUserEventStatus(E.mev, CL_COMPLETE), CL_INVALID_EVENT);
    CHECK_ERR(clSetUserEventStatus(wrong, CL_COMPLETE), CL_INVALID_EVENT);
    CHECK_ERR(clSetUserEventStatus(E.uev, CL_SUBMITTED), CL_INVALID_VALUE);
    CHECK_ERR(clSetUserEventStatus(E.uev, CL_RUNNING), CL_INVALID_VALUE);
    CHECK_ERR(clSetUserEventStatus(E.uev, 5), CL_INVALID_VALUE);
    CHECK_ERR(clGetEventProfilingInfo(NULL, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL),
              CL_INVALID_EVENT);
    CHECK_ERR(clGetEventProfilingInfo(wrong, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL),
              CL_INVALID_EVENT);
    teardown(&E);
}

TEST(bad_native_kernel)
{
    SETUP();
    int arg = 0;
    CHECK_ERR(clEnqueueNativeKernel(NULL, nk, &arg, sizeof arg, 0, NULL, NULL, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueNativeKernel(AS(cl_command_queue, E.buf), nk, &arg, sizeof arg, 0, NULL,
                                    NULL, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    if (h_has_native()) {
        CHECK_ERR(clEnqueueNativeKernel(E.q, NULL, &arg, sizeof arg, 0, NULL, NULL, 0, NULL, NULL),
                  CL_INVALID_VALUE);
        CHECK_ERR(clEnqueueNativeKernel(E.q, nk, NULL, 4, 0, NULL, NULL, 0, NULL, NULL),
                  CL_INVALID_VALUE);
        CHECK_ERR(clEnqueueNativeKernel(E.q, nk, &arg, 0, 0, NULL, NULL, 0, NULL, NULL),
                  CL_INVALID_VALUE);
        CHECK_ERR(clEnqueueNativeKernel(E.q, nk, &arg, sizeof arg, 1, NULL, NULL, 0, NULL, NULL),
                  CL_INVALID_VALUE);
        const void *loc = &arg;
        CHECK_ERR(clEnqueueNativeKernel(E.q, nk, &arg, sizeof arg, 0, &E.buf, &loc, 0, NULL, NULL),
                  CL_INVALID_VALUE);
        struct { cl_mem m; } a = {NULL};
        const void *mloc = &a.m;
        cl_mem wrongm = AS(cl_mem, E.q);
        CHECK_ERR(clEnqueueNativeKernel(E.q, nk, &a, sizeof a, 1, &wrongm, &mloc, 0, NULL, NULL),
                  CL_INVALID_MEM_OBJECT);
        CHECK_ERR(clEnqueueNativeKernel(E.q, nk, &arg, sizeof arg, 0, NULL, NULL, 1, NULL, NULL),
                  CL_INVALID_EVENT_WAIT_LIST);
        CHECK_OK(clFinish(E.q));
    }
    teardown(&E);
}

TEST(bad_svm)
{
    SETUP();
    char host[64];
    CHECK(clSVMAlloc(NULL, CL_MEM_READ_WRITE, 64, 0) == NULL, "clSVMAlloc(NULL ctx) non-NULL");
    CHECK(clSVMAlloc(AS(cl_context, E.q), CL_MEM_READ_WRITE, 64, 0) == NULL,
          "clSVMAlloc(queue as ctx) non-NULL");
    CHECK_ERR(clEnqueueSVMMemcpy(NULL, CL_TRUE, host, host + 32, 8, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueSVMMemcpy(AS(cl_command_queue, E.buf), CL_TRUE, host, host + 32, 8, 0,
                                 NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueSVMMemFill(NULL, host, host, 4, 8, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueSVMMap(NULL, CL_TRUE, CL_MAP_READ, host, 8, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueSVMUnmap(NULL, host, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    void *ptrs[1] = {host};
    CHECK_ERR(clEnqueueSVMFree(NULL, 1, ptrs, NULL, NULL, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    const void *cptrs[1] = {host};
    size_t sizes[1] = {8};
    CHECK_ERR(clEnqueueSVMMigrateMem(NULL, 1, cptrs, sizes, 0, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    if (h_svm_caps()) {
        CHECK_ERR(clEnqueueSVMMemcpy(E.q, CL_TRUE, NULL, host, 8, 0, NULL, NULL), CL_INVALID_VALUE);
        CHECK_ERR(clEnqueueSVMMemcpy(E.q, CL_TRUE, host, NULL, 8, 0, NULL, NULL), CL_INVALID_VALUE);
        CHECK_ERR(clEnqueueSVMMemcpy(E.q, CL_TRUE, host, host + 4, 8, 0, NULL, NULL),
                  CL_MEM_COPY_OVERLAP);
        CHECK_ERR(clEnqueueSVMMemFill(E.q, NULL, host, 4, 8, 0, NULL, NULL), CL_INVALID_VALUE);
        CHECK_ERR(clEnqueueSVMMemFill(E.q, host, NULL, 4, 8, 0, NULL, NULL), CL_INVALID_VALUE);
        CHECK_ERR(clEnqueueSVMMap(E.q, CL_TRUE, CL_MAP_READ, NULL, 8, 0, NULL, NULL),
                  CL_INVALID_VALUE);
        CHECK_ERR(clEnqueueSVMUnmap(E.q, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
        CHECK_ERR(clEnqueueSVMFree(E.q, 0, ptrs, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
        CHECK_ERR(clEnqueueSVMFree(E.q, 1, NULL, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
        CHECK_ERR(clEnqueueSVMMigrateMem(E.q, 0, cptrs, sizes, 0, 0, NULL, NULL),
                  CL_INVALID_VALUE);
        CHECK_ERR(clEnqueueSVMMigrateMem(E.q, 1, NULL, sizes, 0, 0, NULL, NULL),
                  CL_INVALID_VALUE);
        CHECK_ERR(clSetKernelExecInfo(NULL, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, ptrs),
                  CL_INVALID_KERNEL);
    }
    CHECK_OK(clFinish(E.q));
    teardown(&E);
}

TEST(bad_program_kernel_sampler_handles)
{
    SETUP();
    cl_int e_ = 0;
    cl_uint u;
    CHECK_ERR(clRetainProgram(NULL), CL_INVALID_PROGRAM);
    CHECK_ERR(clReleaseProgram(AS(cl_program, E.buf)), CL_INVALID_PROGRAM);
    CHECK_ERR(clGetProgramInfo(AS(cl_program, E.q), CL_PROGRAM_REFERENCE_COUNT, sizeof u, &u, NULL),
              CL_INVALID_PROGRAM);
    CHECK_ERR(clRetainKernel(NULL), CL_INVALID_KERNEL);
    CHECK_ERR(clReleaseKernel(AS(cl_kernel, E.ctx)), CL_INVALID_KERNEL);
    CHECK_ERR(clGetKernelInfo(AS(cl_kernel, E.buf), CL_KERNEL_REFERENCE_COUNT, sizeof u, &u, NULL),
              CL_INVALID_KERNEL);
    const char *src = "kernel void k(void) {}";
    cl_program p = clCreateProgramWithSource(NULL, 1, &src, NULL, &e_);
    CHECK(p == NULL && e_ == CL_INVALID_CONTEXT, "program on NULL context: %s", h_err(e_));
    p = clCreateProgramWithSource(AS(cl_context, E.q), 1, &src, NULL, &e_);
    CHECK(p == NULL && e_ == CL_INVALID_CONTEXT, "program on queue-as-context: %s", h_err(e_));
    p = clCreateProgramWithSource(E.ctx, 0, &src, NULL, &e_);
    CHECK(p == NULL && e_ == CL_INVALID_VALUE, "program with count 0: %s", h_err(e_));
    p = clCreateProgramWithSource(E.ctx, 1, NULL, NULL, &e_);
    CHECK(p == NULL && e_ == CL_INVALID_VALUE, "program with NULL strings: %s", h_err(e_));
    CHECK_ERR(clRetainSampler(NULL), CL_INVALID_SAMPLER);
    CHECK_ERR(clReleaseSampler(AS(cl_sampler, E.buf)), CL_INVALID_SAMPLER);
    CHECK_ERR(clGetSamplerInfo(AS(cl_sampler, E.q), CL_SAMPLER_REFERENCE_COUNT, sizeof u, &u, NULL),
              CL_INVALID_SAMPLER);
    cl_sampler s = clCreateSamplerWithProperties(NULL, NULL, &e_);
    CHECK(s == NULL && e_ == CL_INVALID_CONTEXT, "sampler on NULL context: %s", h_err(e_));
    s = clCreateSamplerWithProperties(AS(cl_context, E.buf), NULL, &e_);
    CHECK(s == NULL && e_ == CL_INVALID_CONTEXT, "sampler on mem-as-context: %s", h_err(e_));
    teardown(&E);
}

TEST(bad_released_but_alive)
{
    /* Releasing the application's reference to a context whose queue still
     * exists must not invalidate it; the queue's context stays usable. */
    SETUP();
    cl_context c = E.ctx;
    CHECK_OK(clRetainContext(c));
    CHECK_OK(clReleaseContext(c));
    cl_uint rc = 0;
    CHECK_OK(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof rc, &rc, NULL));
    CHECK(rc >= 1, "refcount %u", rc);
    /* a buffer keeps its context alive as well */
    cl_int e_ = 0;
    cl_mem b = clCreateBuffer(E.ctx2, CL_MEM_READ_WRITE, 64, NULL, &e_);
    REQUIRE(b, "buffer");
    CHECK_OK(clReleaseCommandQueue(E.q2));
    E.q2 = NULL;
    CHECK_OK(clReleaseMemObject(E.buf2));
    E.buf2 = NULL;
    clSetUserEventStatus(E.uev2, CL_COMPLETE);
    clReleaseEvent(E.uev2);
    E.uev2 = NULL;
    CHECK_OK(clReleaseContext(E.ctx2));
    cl_context bc = NULL;
    CHECK_OK(clGetMemObjectInfo(b, CL_MEM_CONTEXT, sizeof bc, &bc, NULL));
    CHECK(bc == E.ctx2, "buffer context");
    CHECK_OK(clGetContextInfo(bc, CL_CONTEXT_REFERENCE_COUNT, sizeof rc, &rc, NULL));
    E.ctx2 = NULL;
    CHECK_OK(clReleaseMemObject(b));
    teardown(&E);
}

int main(int argc, char **argv)
{
    h_init("api", argc, argv);
    H_RUN(bad_null_platform_device);
    H_RUN(bad_type_platform_device);
    H_RUN(bad_context);
    H_RUN(bad_queue);
    H_RUN(bad_mem_create);
    H_RUN(bad_mem_object_calls);
    H_RUN(bad_enqueue_buffer_handles);
    H_RUN(bad_enqueue_buffer_args);
    H_RUN(bad_wait_lists);
    H_RUN(bad_legacy_wait_for_events);
    H_RUN(bad_events);
    H_RUN(bad_native_kernel);
    H_RUN(bad_svm);
    H_RUN(bad_program_kernel_sampler_handles);
    H_RUN(bad_released_but_alive);
    return h_done();
}
