/* events/user_events: user event status, failure propagation, wait errors. */
#include "harness.h"

static void CL_CALLBACK nop_cb(cl_event e, cl_int s, void *u) { (void)e; (void)s; (void)u; }
static void bump(void *p) { __atomic_fetch_add((int *)p, 1, __ATOMIC_SEQ_CST); }

TEST(user_event_basics)
{
    cl_context c = h_context();
    REQUIRE(c, "no context");
    cl_int e = 1;
    cl_event u = clCreateUserEvent(c, &e);
    REQUIRE(u && e == CL_SUCCESS, "clCreateUserEvent: %s", h_err(e));
    CHECK(h_event_status(u) == CL_SUBMITTED, "initial status %d", h_event_status(u));
    cl_command_type t = 0;
    CHECK_OK(clGetEventInfo(u, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
    CHECK(t == CL_COMMAND_USER, "command type 0x%x", t);
    cl_command_queue q = (cl_command_queue)1;
    CHECK_OK(clGetEventInfo(u, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, NULL));
    CHECK(q == NULL, "user event queue %p", (void *)q);
    cl_context ec = NULL;
    CHECK_OK(clGetEventInfo(u, CL_EVENT_CONTEXT, sizeof ec, &ec, NULL));
    CHECK(ec == c, "context");
    CHECK(h_event_refcount(u) == 1, "refcount %u", h_event_refcount(u));
    CHECK_OK(clRetainEvent(u));
    CHECK(h_event_refcount(u) == 2, "refcount after retain %u", h_event_refcount(u));
    CHECK_OK(clReleaseEvent(u));
    CHECK(h_event_refcount(u) == 1, "refcount after release %u", h_event_refcount(u));
    CHECK_OK(clSetUserEventStatus(u, CL_COMPLETE));
    CHECK(h_event_status(u) == CL_COMPLETE, "status %d", h_event_status(u));
    CHECK_ERR(clSetUserEventStatus(u, CL_COMPLETE), CL_INVALID_OPERATION);
    CHECK_ERR(clSetUserEventStatus(u, -1), CL_INVALID_OPERATION);
    CHECK_OK(clWaitForEvents(1, &u));
    cl_ulong ts;
    CHECK_ERR(clGetEventProfilingInfo(u, CL_PROFILING_COMMAND_QUEUED, sizeof ts, &ts, NULL),
              CL_PROFILING_INFO_NOT_AVAILABLE);
    CHECK_OK(clReleaseEvent(u));
    cl_event u2 = clCreateUserEvent(c, NULL);
    CHECK(u2 != NULL, "errcode NULL");
    if (u2) {
        CHECK_OK(clSetUserEventStatus(u2, -42));
        CHECK(h_event_status(u2) == -42, "negative status %d", h_event_status(u2));
        CHECK_ERR(clWaitForEvents(1, &u2), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        CHECK_OK(clReleaseEvent(u2));
    }
    CHECK_OK(clReleaseContext(c));
}

TEST(user_event_gates_commands)
{
    if (!h_need_native()) return;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    cl_event u = clCreateUserEvent(c, NULL);
    int ran = 0;
    cl_event k = NULL, m = NULL;
    REQUIRE_OK(h_enqueue_native(q, bump, &ran, 1, &u, &k));
    CHECK_OK(clEnqueueMarkerWithWaitList(q, 0, NULL, &m));
    CHECK_OK(clFlush(q));
    h_sleep_ms(100);
    CHECK(__atomic_load_n(&ran, __ATOMIC_SEQ_CST) == 0, "command ran before its user event");
    cl_int s = h_event_status(k);
    CHECK(s == CL_QUEUED || s == CL_SUBMITTED, "gated command status %d", s);
    CHECK(h_event_status(m) > CL_COMPLETE, "marker completed before gated command");
    CHECK_OK(clSetUserEventStatus(u, CL_COMPLETE));
    CHECK_OK(clWaitForEvents(1, &m));
    CHECK(ran == 1, "command ran %d times", ran);
    CHECK(h_event_status(k) == CL_COMPLETE, "status %d", h_event_status(k));
    clReleaseEvent(k);
    clReleaseEvent(m);
    clReleaseEvent(u);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(user_event_failure_propagates)
{
    if (!h_need_native()) return;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_command_queue q2 = h_queue(c, 0);
    REQUIRE(q && q2, "no queue");
    cl_event u = clCreateUserEvent(c, NULL);
    int ran = 0, ran2 = 0;
    cl_event k = NULL, k2 = NULL;
    REQUIRE_OK(h_enqueue_native(q, bump, &ran, 1, &u, &k));
    CHECK_OK(clFlush(q));
    /* a command on another queue that depends on the doomed command */
    REQUIRE_OK(h_enqueue_native(q2, bump, &ran2, 1, &k, &k2));
    CHECK_OK(clFlush(q2));
    CHECK_OK(clSetUserEventStatus(u, -7));
    cl_int w = clWaitForEvents(1, &k);
    CHECK(w == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
          "clWaitForEvents on the failed command: %s", h_err(w));
    w = clWaitForEvents(1, &k2);
    CHECK(w == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
          "clWaitForEvents on the transitively failed command: %s", h_err(w));
    cl_event both[2] = {k, u};
    w = clWaitForEvents(2, both);
    CHECK(w == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "wait on both: %s", h_err(w));
    clFinish(q);
    clFinish(q2);
    h_sleep_ms(20);
    CHECK(ran == 0, "native kernel depending on a failed user event ran");
    CHECK(ran2 == 0, "native kernel depending on a failed command ran");
    CHECK(h_event_status(k) < 0, "failed command status %d, expected negative",
          h_event_status(k));
    CHECK(h_event_status(k2) < 0, "transitively failed command status %d", h_event_status(k2));
    CHECK(h_event_status(u) == -7, "user event status %d", h_event_status(u));
    clReleaseEvent(k);
    clReleaseEvent(k2);
    clReleaseEvent(u);
    clReleaseCommandQueue(q);
    clReleaseCommandQueue(q2);
    clReleaseContext(c);
}

TEST(user_event_failure_blocking_read)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    cl_int e;
    cl_mem b = clCreateBuffer(c, CL_MEM_READ_WRITE, 64, NULL, &e);
    cl_event u = clCreateUserEvent(c, NULL);
    REQUIRE(b && u, "setup");
    CHECK_OK(clSetUserEventStatus(u, -3));
    char host[64];
    e = clEnqueueReadBuffer(q, b, CL_TRUE, 0, 64, host, 1, &u, NULL);
    CHECK(e == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
          "blocking read waiting on a failed event: %s", h_err(e));
    clFinish(q);
    clReleaseEvent(u);
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

static int cb_status_seen = 1;
static int cb_calls;
static void CL_CALLBACK record_cb(cl_event e, cl_int s, void *ud)
{
    (void)e; (void)ud;
    __atomic_store_n(&cb_status_seen, s, __ATOMIC_SEQ_CST);
    __atomic_fetch_add(&cb_calls, 1, __ATOMIC_SEQ_CST);
}

TEST(user_event_callbacks)
{
    cl_context c = h_context();
    REQUIRE(c, "no context");
    cl_event u = clCreateUserEvent(c, NULL);
    REQUIRE(u, "user event");
    CHECK_OK(clSetEventCallback(u, CL_COMPLETE, record_cb, NULL));
    CHECK_ERR(clSetEventCallback(u, CL_COMPLETE, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clSetEventCallback(u, 12, nop_cb, NULL), CL_INVALID_VALUE);
    h_sleep_ms(20);
    CHECK(cb_calls == 0, "COMPLETE callback called before the status was set");
    CHECK_OK(clSetUserEventStatus(u, CL_COMPLETE));
    CHECK(h_wait_int(&cb_calls, 1, 5.0), "callback not called");
    h_sleep_ms(20);
    CHECK(cb_calls == 1, "callback called %d times", cb_calls);
    CHECK(cb_status_seen == CL_COMPLETE, "callback status %d", cb_status_seen);
    clReleaseEvent(u);
    /* abnormal termination: the callback gets the negative status */
    cb_calls = 0;
    cl_event u2 = clCreateUserEvent(c, NULL);
    CHECK_OK(clSetEventCallback(u2, CL_COMPLETE, record_cb, NULL));
    CHECK_OK(clSetUserEventStatus(u2, -77));
    CHECK(h_wait_int(&cb_calls, 1, 5.0), "callback not called for failed user event");
    CHECK(cb_status_seen == -77, "callback status %d, expected -77", cb_status_seen);
    clReleaseEvent(u2);
    clReleaseContext(c);
}

TEST(user_event_cross_context_rejected)
{
    cl_context c1 = h_context(), c2 = h_context();
    cl_command_queue q = h_queue(c1, 0);
    REQUIRE(q && c2, "setup");
    cl_event u = clCreateUserEvent(c2, NULL);
    CHECK_ERR(clEnqueueMarkerWithWaitList(q, 1, &u, NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(clEnqueueBarrierWithWaitList(q, 1, &u, NULL), CL_INVALID_CONTEXT);
    clSetUserEventStatus(u, CL_COMPLETE);
    clReleaseEvent(u);
    clReleaseCommandQueue(q);
    clReleaseContext(c1);
    clReleaseContext(c2);
}

int main(int argc, char **argv)
{
    h_init("events", argc, argv);
    H_RUN(user_event_basics);
    H_RUN(user_event_gates_commands);
    H_RUN(user_event_failure_propagates);
    H_RUN_T(user_event_failure_blocking_read, 10);
    H_RUN(user_event_callbacks);
    H_RUN(user_event_cross_context_rejected);
    return h_done();
}
