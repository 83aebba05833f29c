/* events/ordering: wait lists across queues, markers, barriers, in-order and
 * out-of-order execution. */
#include "harness.h"
#include <pthread.h>

static void bump(void *p) { __atomic_fetch_add((int *)p, 1, __ATOMIC_SEQ_CST); }

struct logrec { int *log; int *pos; int id; int *running; int *overlap; };
static void log_kernel(void *p)
{
    struct logrec *r = p;
    if (__atomic_fetch_add(r->running, 1, __ATOMIC_SEQ_CST) != 0)
        __atomic_store_n(r->overlap, 1, __ATOMIC_SEQ_CST);
    for (volatile int i = 0; i < 2000; i++) {}
    int at = __atomic_fetch_add(r->pos, 1, __ATOMIC_SEQ_CST);
    r->log[at] = r->id;
    __atomic_fetch_sub(r->running, 1, __ATOMIC_SEQ_CST);
}

TEST(in_order_queue_runs_in_order)
{
    if (!h_need_native()) return;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    enum { N = 200 };
    static int log[N];
    static struct logrec recs[N];
    int pos = 0, running = 0, overlap = 0;
    for (int i = 0; i < N; i++) {
        recs[i] = (struct logrec){log, &pos, i, &running, &overlap};
        REQUIRE_OK(h_enqueue_native(q, log_kernel, &recs[i], 0, NULL, NULL));
    }
    CHECK_OK(clFinish(q));
    CHECK(pos == N, "%d of %d commands ran", pos, N);
    CHECK(!overlap, "two commands of an in-order queue overlapped");
    for (int i = 0; i < N && i < pos; i++)
        if (log[i] != i) {
            CHECK(0, "position %d ran command %d", i, log[i]);
            break;
        }
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

struct handoff { volatile int data; int seen; };
static void producer(void *p)
{
    struct handoff *h = p;
    h_sleep_ms(50);
    h->data = 1234; /* plain store: made visible by the event dependency */
}
static void consumer(void *p)
{
    struct handoff *h = p;
    h->seen = h->data;
}

TEST(wait_list_across_queues)
{
    if (!h_need_native()) return;
    cl_context c = h_context();
    cl_command_queue q1 = h_queue(c, 0), q2 = h_queue(c, 0);
    REQUIRE(q1 && q2, "queues");
    cl_event gate = clCreateUserEvent(c, NULL);
    struct handoff h = {0, -1};
    cl_event a = NULL, b = NULL;
    REQUIRE_OK(h_enqueue_native(q1, producer, &h, 1, &gate, &a));
    CHECK_OK(clFlush(q1));
    REQUIRE_OK(h_enqueue_native(q2, consumer, &h, 1, &a, &b));
    CHECK_OK(clFlush(q2));
    h_sleep_ms(30);
    CHECK(h_event_status(b) > CL_COMPLETE, "consumer finished before producer was released");
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_OK(clWaitForEvents(1, &b));
    CHECK(h.seen == 1234, "consumer saw %d: ran before the producer finished", h.seen);
    CHECK(h_event_status(a) == CL_COMPLETE, "producer status %d", h_event_status(a));
    cl_command_queue eq = NULL;
    CHECK_OK(clGetEventInfo(b, CL_EVENT_COMMAND_QUEUE, sizeof eq, &eq, NULL));
    CHECK(eq == q2, "event queue");
    clReleaseEvent(a);
    clReleaseEvent(b);
    clReleaseEvent(gate);
    clFinish(q1);
    clFinish(q2);
    clReleaseCommandQueue(q1);
    clReleaseCommandQueue(q2);
    clReleaseContext(c);
}

static void marker_barrier_on(cl_command_queue_properties props)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, props);
    REQUIRE(q, "no queue");
    cl_event gate = clCreateUserEvent(c, NULL);
    int ran = 0;
    cl_event k = NULL, m = NULL, bar = NULL, after = NULL;
    REQUIRE_OK(h_enqueue_native(q, bump, &ran, 1, &gate, &k));
    /* marker with an empty wait list waits for everything enqueued before it */
    CHECK_OK(clEnqueueMarkerWithWaitList(q, 0, NULL, &m));
    CHECK_OK(clEnqueueBarrierWithWaitList(q, 0, NULL, &bar));
    int ran2 = 0;
    REQUIRE_OK(h_enqueue_native(q, bump, &ran2, 0, NULL, &after));
    CHECK_OK(clFlush(q));
    h_sleep_ms(50);
    CHECK(h_event_status(m) > CL_COMPLETE, "marker complete before the gated command");
    CHECK(h_event_status(bar) > CL_COMPLETE, "barrier complete before the gated command");
    CHECK(ran2 == 0, "command after a barrier ran before the barrier");
    cl_command_type t = 0;
    CHECK_OK(clGetEventInfo(m, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
    CHECK(t == CL_COMMAND_MARKER, "marker command type 0x%x", t);
    CHECK_OK(clGetEventInfo(bar, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
    CHECK(t == CL_COMMAND_BARRIER, "barrier command type 0x%x", t);
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_OK(clWaitForEvents(1, &after));
    CHECK(ran == 1 && ran2 == 1, "ran %d %d", ran, ran2);
    CHECK(h_event_status(m) == CL_COMPLETE && h_event_status(bar) == CL_COMPLETE &&
          h_event_status(k) == CL_COMPLETE, "statuses");
    clReleaseEvent(k); clReleaseEvent(m); clReleaseEvent(bar); clReleaseEvent(after);
    clReleaseEvent(gate);
    clFinish(q);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(marker_barrier_in_order)
{
    if (!h_need_native()) return;
    marker_barrier_on(0);
}

TEST(marker_barrier_out_of_order)
{
    if (!h_need_native()) return;
    if (!h_has_ooo()) { h_skip("no out-of-order queues"); return; }
    marker_barrier_on(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
}

TEST(marker_with_wait_list_ooo)
{
    if (!h_has_ooo()) { h_skip("no out-of-order queues"); return; }
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    REQUIRE(q, "no queue");
    cl_event g1 = clCreateUserEvent(c, NULL), g2 = clCreateUserEvent(c, NULL);
    cl_event m1 = NULL, m2 = NULL;
    /* markers that wait only on their own list */
    CHECK_OK(clEnqueueMarkerWithWaitList(q, 1, &g1, &m1));
    CHECK_OK(clEnqueueMarkerWithWaitList(q, 1, &g2, &m2));
    CHECK_OK(clFlush(q));
    CHECK_OK(clSetUserEventStatus(g2, CL_COMPLETE));
    CHECK_OK(clWaitForEvents(1, &m2));
    CHECK(h_event_status(m1) > CL_COMPLETE, "marker 1 completed without its event");
    /* a barrier with a wait list blocks later commands until the list completes */
    cl_event bar = NULL, later = NULL;
    CHECK_OK(clEnqueueBarrierWithWaitList(q, 1, &g1, &bar));
    CHECK_OK(clEnqueueMarkerWithWaitList(q, 0, NULL, &later));
    CHECK_OK(clFlush(q));
    h_sleep_ms(30);
    CHECK(h_event_status(later) > CL_COMPLETE, "command after barrier completed early");
    CHECK_OK(clSetUserEventStatus(g1, CL_COMPLETE));
    CHECK_OK(clWaitForEvents(1, &later));
    CHECK(h_event_status(m1) == CL_COMPLETE && h_event_status(bar) == CL_COMPLETE, "statuses");
    clReleaseEvent(m1); clReleaseEvent(m2); clReleaseEvent(bar); clReleaseEvent(later);
    clReleaseEvent(g1); clReleaseEvent(g2);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(legacy_marker_and_barrier)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    cl_event gate = clCreateUserEvent(c, NULL);
    cl_event m0 = NULL, m = NULL, m2 = NULL;
    CHECK_OK(clEnqueueMarkerWithWaitList(q, 1, &gate, &m0));
    CHECK_OK(clEnqueueMarker(q, &m));
    REQUIRE(m, "no marker event");
    cl_command_type t = 0;
    CHECK_OK(clGetEventInfo(m, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
    CHECK(t == CL_COMMAND_MARKER, "clEnqueueMarker type 0x%x", t);
    CHECK_OK(clEnqueueBarrier(q));
    CHECK_OK(clEnqueueMarker(q, &m2));
    CHECK_OK(clFlush(q));
    h_sleep_ms(30);
    CHECK(h_event_status(m) > CL_COMPLETE, "clEnqueueMarker completed before prior command");
    CHECK(h_event_status(m2) > CL_COMPLETE, "marker after clEnqueueBarrier completed early");
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_OK(clFinish(q));
    CHECK(h_event_status(m) == CL_COMPLETE && h_event_status(m2) == CL_COMPLETE, "statuses");
    clReleaseEvent(m0); clReleaseEvent(m); clReleaseEvent(m2); clReleaseEvent(gate);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(legacy_wait_for_events)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0), q2 = h_queue(c, 0);
    REQUIRE(q && q2, "no queue");
    cl_event gate = clCreateUserEvent(c, NULL);
    cl_event m = NULL;
    CHECK_OK(clEnqueueWaitForEvents(q, 1, &gate));
    CHECK_OK(clEnqueueMarkerWithWaitList(q, 0, NULL, &m));
    CHECK_OK(clFlush(q));
    h_sleep_ms(30);
    CHECK(h_event_status(m) > CL_COMPLETE, "marker after clEnqueueWaitForEvents completed early");
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_OK(clWaitForEvents(1, &m));
    clReleaseEvent(m); clReleaseEvent(gate);
    clReleaseCommandQueue(q); clReleaseCommandQueue(q2);
    clReleaseContext(c);
}

struct rendezvous { int arrived; int ok[2]; int idx; };
static void meet(void *p)
{
    struct rendezvous *r = p;
    int me = __atomic_fetch_add(&r->idx, 1, __ATOMIC_SEQ_CST);
    __atomic_fetch_add(&r->arrived, 1, __ATOMIC_SEQ_CST);
    double end = h_now() + 5.0;
    while (__atomic_load_n(&r->arrived, __ATOMIC_SEQ_CST) < 2 && h_now() < end) {}
    if (me < 2) r->ok[me] = __atomic_load_n(&r->arrived, __ATOMIC_SEQ_CST) >= 2;
}

TEST(out_of_order_runs_concurrently)
{
    if (!h_need_native()) return;
    if (!h_has_ooo()) { h_skip("no out-of-order queues"); return; }
    if (h_compute_units() < 2) { h_skip("fewer than 2 compute units"); return; }
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    REQUIRE(q, "no queue");
    struct rendezvous r = {0, {0, 0}, 0};
    REQUIRE_OK(h_enqueue_native(q, meet, &r, 0, NULL, NULL));
    REQUIRE_OK(h_enqueue_native(q, meet, &r, 0, NULL, NULL));
    CHECK_OK(clFinish(q));
    CHECK(r.ok[0] && r.ok[1], "the two independent native kernels of an out-of-order queue "
          "did not run at the same time (%d, %d)", r.ok[0], r.ok[1]);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(two_in_order_queues_concurrent)
{
    if (!h_need_native()) return;
    if (h_compute_units() < 2) { h_skip("fewer than 2 compute units"); return; }
    cl_context c = h_context();
    cl_command_queue q1 = h_queue(c, 0), q2 = h_queue(c, 0);
    REQUIRE(q1 && q2, "no queue");
    struct rendezvous r = {0, {0, 0}, 0};
    REQUIRE_OK(h_enqueue_native(q1, meet, &r, 0, NULL, NULL));
    REQUIRE_OK(h_enqueue_native(q2, meet, &r, 0, NULL, NULL));
    CHECK_OK(clFlush(q1));
    CHECK_OK(clFlush(q2));
    CHECK_OK(clFinish(q1));
    CHECK_OK(clFinish(q2));
    CHECK(r.ok[0] && r.ok[1], "commands of two independent queues did not run concurrently");
    clReleaseCommandQueue(q1);
    clReleaseCommandQueue(q2);
    clReleaseContext(c);
}

TEST(ooo_dependency_chain)
{
    if (!h_need_native()) return;
    if (!h_has_ooo()) { h_skip("no out-of-order queues"); return; }
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    REQUIRE(q, "no queue");
    enum { N = 100 };
    static int log[N];
    static struct logrec recs[N];
    int pos = 0, running = 0, overlap = 0;
    cl_event prev = NULL;
    for (int i = 0; i < N; i++) {
        recs[i] = (struct logrec){log, &pos, i, &running, &overlap};
        cl_event ev = NULL;
        REQUIRE_OK(h_enqueue_native(q, log_kernel, &recs[i], prev ? 1 : 0, prev ? &prev : NULL,
                                    &ev));
        if (prev) clReleaseEvent(prev);
        prev = ev;
    }
    CHECK_OK(clWaitForEvents(1, &prev));
    clReleaseEvent(prev);
    CHECK_OK(clFinish(q));
    CHECK(pos == N, "%d ran", pos);
    CHECK(!overlap, "chained commands overlapped");
    for (int i = 0; i < N && i < pos; i++)
        if (log[i] != i) { CHECK(0, "position %d ran %d", i, log[i]); break; }
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("events", argc, argv);
    H_RUN(in_order_queue_runs_in_order);
    H_RUN(wait_list_across_queues);
    H_RUN(marker_barrier_in_order);
    H_RUN(marker_barrier_out_of_order);
    H_RUN_T(marker_with_wait_list_ooo, 10);
    H_RUN(legacy_marker_and_barrier);
    H_RUN(legacy_wait_for_events);
    H_RUN(out_of_order_runs_concurrently);
    H_RUN(two_in_order_queues_concurrent);
    H_RUN(ooo_dependency_chain);
    return h_done();
}
