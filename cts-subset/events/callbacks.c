/* events/callbacks: clSetEventCallback semantics and event info. */
#include "harness.h"

struct counts { int n[3]; int bad_status; int total; };
static void CL_CALLBACK count_cb(cl_event e, cl_int s, void *ud)
{
    (void)e;
    struct counts *c = ud;
    if (s == CL_SUBMITTED) __atomic_fetch_add(&c->n[0], 1, __ATOMIC_SEQ_CST);
    else if (s == CL_RUNNING) __atomic_fetch_add(&c->n[1], 1, __ATOMIC_SEQ_CST);
    else if (s == CL_COMPLETE) __atomic_fetch_add(&c->n[2], 1, __ATOMIC_SEQ_CST);
    else __atomic_store_n(&c->bad_status, s == 0 ? 99 : s, __ATOMIC_SEQ_CST);
    __atomic_fetch_add(&c->total, 1, __ATOMIC_SEQ_CST);
}

static void spin_ms(void *p) { h_sleep_ms((int)(intptr_t)p); }
static void bump(void *p) { __atomic_fetch_add((int *)p, 1, __ATOMIC_SEQ_CST); }

static void check_counts(struct counts *c, int want)
{
    CHECK(h_wait_int(&c->total, 3 * want, 5.0), "only %d callbacks", c->total);
    h_sleep_ms(30);
    CHECK(c->n[0] == want && c->n[1] == want && c->n[2] == want,
          "SUBMITTED/RUNNING/COMPLETE callbacks called %d/%d/%d times, expected %d each",
          c->n[0], c->n[1], c->n[2], want);
    CHECK(c->bad_status == 0, "callback got status %d", c->bad_status);
}

static void statuses_for(cl_command_queue q, cl_context ctx, int native)
{
    cl_event gate = clCreateUserEvent(ctx, NULL);
    cl_event ev = NULL;
    if (native)
        REQUIRE_OK(h_enqueue_native(q, spin_ms, (void *)(intptr_t)20, 1, &gate, &ev));
    else
        REQUIRE_OK(clEnqueueMarkerWithWaitList(q, 1, &gate, &ev));
    static struct counts c1, c2;
    memset(&c1, 0, sizeof c1);
    memset(&c2, 0, sizeof c2);
    REQUIRE_OK(clSetEventCallback(ev, CL_SUBMITTED, count_cb, &c1));
    REQUIRE_OK(clSetEventCallback(ev, CL_RUNNING, count_cb, &c1));
    REQUIRE_OK(clSetEventCallback(ev, CL_COMPLETE, count_cb, &c1));
    CHECK_OK(clFlush(q));
    CHECK(c1.n[2] == 0, "COMPLETE callback before the command could run");
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_OK(clWaitForEvents(1, &ev));
    check_counts(&c1, 1);
    /* registered after the status was reached: still called exactly once */
    REQUIRE_OK(clSetEventCallback(ev, CL_SUBMITTED, count_cb, &c2));
    REQUIRE_OK(clSetEventCallback(ev, CL_RUNNING, count_cb, &c2));
    REQUIRE_OK(clSetEventCallback(ev, CL_COMPLETE, count_cb, &c2));
    check_counts(&c2, 1);
    CHECK(c1.total == 3, "early callbacks re-fired: %d", c1.total);
    clReleaseEvent(ev);
    clReleaseEvent(gate);
}

TEST(callback_each_status_once_native)
{
    if (!h_need_native()) return;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    statuses_for(q, c, 1);
    clFinish(q);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(callback_each_status_once_marker)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    statuses_for(q, c, 0);
    clFinish(q);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(callback_many_on_one_event)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    cl_event gate = clCreateUserEvent(c, NULL), ev = NULL;
    REQUIRE_OK(clEnqueueMarkerWithWaitList(q, 1, &gate, &ev));
    static struct counts cs;
    memset(&cs, 0, sizeof cs);
    for (int i = 0; i < 50; i++) CHECK_OK(clSetEventCallback(ev, CL_COMPLETE, count_cb, &cs));
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_OK(clFinish(q));
    CHECK(h_wait_int(&cs.n[2], 50, 5.0), "only %d of 50 callbacks", cs.n[2]);
    h_sleep_ms(20);
    CHECK(cs.n[2] == 50, "%d callbacks", cs.n[2]);
    clReleaseEvent(ev);
    clReleaseEvent(gate);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

static int released_in_cb;
static void CL_CALLBACK release_cb(cl_event e, cl_int s, void *ud)
{
    (void)s; (void)ud;
    clReleaseEvent(e);
    __atomic_fetch_add(&released_in_cb, 1, __ATOMIC_SEQ_CST);
}

TEST(callback_releases_its_event)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    for (int i = 0; i < 20; i++) {
        cl_event gate = clCreateUserEvent(c, NULL), ev = NULL;
        REQUIRE_OK(clEnqueueMarkerWithWaitList(q, 1, &gate, &ev));
        /* the callback owns the only application reference */
        REQUIRE_OK(clSetEventCallback(ev, CL_COMPLETE, release_cb, NULL));
        CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
        clReleaseEvent(gate);
    }
    CHECK_OK(clFinish(q));
    CHECK(h_wait_int(&released_in_cb, 20, 5.0), "%d of 20 callbacks", released_in_cb);
    /* queue still healthy */
    cl_event m = NULL;
    CHECK_OK(clEnqueueMarkerWithWaitList(q, 0, NULL, &m));
    CHECK_OK(clWaitForEvents(1, &m));
    clReleaseEvent(m);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

struct chain { cl_command_queue q; int ran; int enq_err; int native; cl_event follow; };
static void CL_CALLBACK enqueue_cb(cl_event e, cl_int s, void *ud)
{
    (void)e; (void)s;
    struct chain *ch = ud;
    cl_int r;
    if (ch->native)
        r = h_enqueue_native(ch->q, bump, &ch->ran, 0, NULL, &ch->follow);
    else
        r = clEnqueueMarkerWithWaitList(ch->q, 0, NULL, &ch->follow);
    if (r == CL_SUCCESS) r = clFlush(ch->q);
    __atomic_store_n(&ch->enq_err, r == CL_SUCCESS ? 1 : r, __ATOMIC_SEQ_CST);
}

TEST(callback_enqueues_more_work)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    static struct chain ch;
    ch = (struct chain){q, 0, 0, h_has_native(), NULL};
    cl_event ev = NULL;
    REQUIRE_OK(clEnqueueMarkerWithWaitList(q, 0, NULL, &ev));
    REQUIRE_OK(clSetEventCallback(ev, CL_COMPLETE, enqueue_cb, &ch));
    CHECK_OK(clFlush(q));
    double end = h_now() + 5;
    while (__atomic_load_n(&ch.enq_err, __ATOMIC_SEQ_CST) == 0 && h_now() < end) h_sleep_ms(1);
    CHECK(ch.enq_err == 1, "enqueue from callback: %s", ch.enq_err ? h_err(ch.enq_err) : "never");
    if (ch.enq_err == 1) {
        CHECK_OK(clWaitForEvents(1, &ch.follow));
        if (ch.native) CHECK(ch.ran == 1, "follow-up ran %d times", ch.ran);
        clReleaseEvent(ch.follow);
    }
    CHECK_OK(clFinish(q));
    clReleaseEvent(ev);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

static struct counts fail_counts;
TEST(callback_on_failed_command)
{
    if (!h_need_native()) return;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    cl_event gate = clCreateUserEvent(c, NULL), ev = NULL;
    int ran = 0;
    REQUIRE_OK(h_enqueue_native(q, bump, &ran, 1, &gate, &ev));
    memset(&fail_counts, 0, sizeof fail_counts);
    REQUIRE_OK(clSetEventCallback(ev, CL_COMPLETE, count_cb, &fail_counts));
    CHECK_OK(clFlush(q));
    CHECK_OK(clSetUserEventStatus(gate, -12));
    CHECK(h_wait_int(&fail_counts.total, 1, 5.0), "COMPLETE callback of a terminated command "
          "not called");
    CHECK(fail_counts.bad_status < 0, "callback status %d, expected a negative error code",
          fail_counts.bad_status);
    CHECK(ran == 0, "terminated command ran");
    clFinish(q);
    clReleaseEvent(ev);
    clReleaseEvent(gate);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(event_info)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    cl_int e;
    cl_mem b = clCreateBuffer(c, CL_MEM_READ_WRITE, 64, NULL, &e);
    char host[64] = {0};
    struct { cl_command_type want; cl_event ev; } cmds[8];
    int n = 0;
    CHECK_OK(clEnqueueWriteBuffer(q, b, CL_FALSE, 0, 64, host, 0, NULL, &cmds[n].ev));
    cmds[n++].want = CL_COMMAND_WRITE_BUFFER;
    CHECK_OK(clEnqueueReadBuffer(q, b, CL_FALSE, 0, 64, host, 0, NULL, &cmds[n].ev));
    cmds[n++].want = CL_COMMAND_READ_BUFFER;
    CHECK_OK(clEnqueueCopyBuffer(q, b, b, 0, 32, 16, 0, NULL, &cmds[n].ev));
    cmds[n++].want = CL_COMMAND_COPY_BUFFER;
    char pat = 1;
    CHECK_OK(clEnqueueFillBuffer(q, b, &pat, 1, 0, 64, 0, NULL, &cmds[n].ev));
    cmds[n++].want = CL_COMMAND_FILL_BUFFER;
    CHECK_OK(clEnqueueMarkerWithWaitList(q, 0, NULL, &cmds[n].ev));
    cmds[n++].want = CL_COMMAND_MARKER;
    CHECK_OK(clEnqueueBarrierWithWaitList(q, 0, NULL, &cmds[n].ev));
    cmds[n++].want = CL_COMMAND_BARRIER;
    if (h_has_native()) {
        int ran = 0;
        CHECK_OK(h_enqueue_native(q, bump, &ran, 0, NULL, &cmds[n].ev));
        cmds[n++].want = CL_COMMAND_NATIVE_KERNEL;
        CHECK_OK(clFinish(q));
        CHECK(ran == 1, "native kernel ran %d times", ran);
    }
    CHECK_OK(clFinish(q));
    for (int i = 0; i < n; i++) {
        cl_command_type t = 0;
        CHECK_OK(clGetEventInfo(cmds[i].ev, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
        CHECK(t == cmds[i].want, "command %d type 0x%x, expected 0x%x", i, t, cmds[i].want);
        cl_command_queue eq = NULL;
        CHECK_OK(clGetEventInfo(cmds[i].ev, CL_EVENT_COMMAND_QUEUE, sizeof eq, &eq, NULL));
        CHECK(eq == q, "command %d queue", i);
        cl_context ec = NULL;
        CHECK_OK(clGetEventInfo(cmds[i].ev, CL_EVENT_CONTEXT, sizeof ec, &ec, NULL));
        CHECK(ec == c, "command %d context", i);
        CHECK(h_event_status(cmds[i].ev) == CL_COMPLETE, "command %d status %d", i,
              h_event_status(cmds[i].ev));
        /* the spec calls the count stale (implementations may hold their own
         * references), so only its lower bounds are checked */
        CHECK(h_event_refcount(cmds[i].ev) >= 1, "command %d refcount %u", i,
              h_event_refcount(cmds[i].ev));
        CHECK_OK(clRetainEvent(cmds[i].ev));
        CHECK(h_event_refcount(cmds[i].ev) >= 2, "refcount after retain %u",
              h_event_refcount(cmds[i].ev));
        CHECK_OK(clReleaseEvent(cmds[i].ev));
        size_t sz = 0;
        CHECK_OK(clGetEventInfo(cmds[i].ev, CL_EVENT_COMMAND_EXECUTION_STATUS, 0, NULL, &sz));
        CHECK(sz == sizeof(cl_int), "status size %zu", sz);
        clReleaseEvent(cmds[i].ev);
    }
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(event_outlives_queue)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    cl_event m = NULL;
    CHECK_OK(clEnqueueMarkerWithWaitList(q, 0, NULL, &m));
    CHECK_OK(clFinish(q));
    CHECK_OK(clReleaseCommandQueue(q)); /* the event keeps the queue object alive */
    cl_command_queue eq = NULL;
    CHECK_OK(clGetEventInfo(m, CL_EVENT_COMMAND_QUEUE, sizeof eq, &eq, NULL));
    CHECK(eq == q, "event queue");
    CHECK(h_event_status(m) == CL_COMPLETE, "status");
    CHECK_OK(clReleaseEvent(m));
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("events", argc, argv);
    H_RUN(callback_each_status_once_native);
    H_RUN(callback_each_status_once_marker);
    H_RUN(callback_many_on_one_event);
    H_RUN(callback_releases_its_event);
    H_RUN(callback_enqueues_more_work);
    H_RUN(callback_on_failed_command);
    H_RUN(event_info);
    H_RUN(event_outlives_queue);
    return h_done();
}
