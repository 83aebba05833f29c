/* events/stress: 8 host threads, each enqueueing 10,000 commands on its own queue,
 * every command also waiting on the latest flushed event of the neighbour thread's
 * queue, with completion callbacks.  Every command must run exactly once and
 * nothing may deadlock. */
#include "harness.h"
#include <pthread.h>

enum { THREADS = 8, PER_THREAD = 10000 };

static cl_context g_ctx;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static cl_event g_latest[THREADS];
static int g_native_runs[THREADS];     /* incremented by native kernels */
static int g_callbacks;                /* incremented by COMPLETE callbacks */
static int g_cb_errors;
static int g_native_expected[THREADS];
static int g_callbacks_expected[THREADS];
static cl_int g_err[THREADS];
static int g_use_native;

static void kern(void *p) { __atomic_fetch_add((int *)p, 1, __ATOMIC_RELAXED); }

static void CL_CALLBACK done_cb(cl_event e, cl_int s, void *u)
{
    (void)e; (void)u;
    if (s != CL_COMPLETE) __atomic_fetch_add(&g_cb_errors, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&g_callbacks, 1, __ATOMIC_RELAXED);
}

static void *worker(void *arg)
{
    int id = (int)(intptr_t)arg, nb = (id + 1) % THREADS;
    cl_int e = 0;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, 0, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(g_ctx, h_device(), props, &e);
    if (!q) { g_err[id] = e; return NULL; }
    for (int i = 0; i < PER_THREAD; i++) {
        cl_event dep = NULL;
        pthread_mutex_lock(&g_lock);
        if (g_latest[nb]) { dep = g_latest[nb]; clRetainEvent(dep); }
        pthread_mutex_unlock(&g_lock);
        cl_event ev = NULL;
        if (g_use_native && (i % 2 == 0)) {
            e = h_enqueue_native(q, kern, &g_native_runs[id], dep ? 1 : 0, dep ? &dep : NULL, &ev);
            g_native_expected[id]++;
        } else {
            e = clEnqueueMarkerWithWaitList(q, dep ? 1 : 0, dep ? &dep : NULL, &ev);
        }
        if (dep) clReleaseEvent(dep);
        if (e != CL_SUCCESS) { g_err[id] = e; break; }
        if (i % 4 == 1) {
            e = clSetEventCallback(ev, CL_COMPLETE, done_cb, NULL);
            if (e != CL_SUCCESS) { g_err[id] = e; clReleaseEvent(ev); break; }
            g_callbacks_expected[id]++;
        }
        /* events waited on from another queue must have been flushed */
        e = clFlush(q);
        if (e != CL_SUCCESS) { g_err[id] = e; clReleaseEvent(ev); break; }
        pthread_mutex_lock(&g_lock);
        cl_event old = g_latest[id];
        g_latest[id] = ev;
        pthread_mutex_unlock(&g_lock);
        if (old) clReleaseEvent(old);
    }
    e = clFinish(q);
    if (e != CL_SUCCESS && !g_err[id]) g_err[id] = e;
    clReleaseCommandQueue(q);
    return NULL;
}

TEST(stress_cross_queue_dependencies)
{
    g_use_native = h_has_native();
    g_ctx = h_context();
    REQUIRE(g_ctx, "no context");
    double t0 = h_now();
    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; i++)
        REQUIRE(pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i) == 0, "pthread_create");
    for (int i = 0; i < THREADS; i++) pthread_join(th[i], NULL);
    int want_cb = 0;
    for (int i = 0; i < THREADS; i++) {
        CHECK(g_err[i] == CL_SUCCESS, "thread %d: %s", i, h_err(g_err[i]));
        want_cb += g_callbacks_expected[i];
    }
    for (int i = 0; i < THREADS; i++) {
        cl_event e = g_latest[i];
        if (e) {
            CHECK(h_event_status(e) == CL_COMPLETE, "last event of thread %d status %d", i,
                  h_event_status(e));
        }
    }
    CHECK(h_wait_int(&g_callbacks, want_cb, 20.0), "%d of %d callbacks called", g_callbacks,
          want_cb);
    h_sleep_ms(50);
    CHECK(g_callbacks == want_cb, "%d callbacks, expected %d", g_callbacks, want_cb);
    CHECK(g_cb_errors == 0, "%d callbacks with a non-COMPLETE status", g_cb_errors);
    for (int i = 0; i < THREADS; i++)
        CHECK(g_native_runs[i] == g_native_expected[i], "thread %d: %d native kernels ran, "
              "expected %d", i, g_native_runs[i], g_native_expected[i]);
    for (int i = 0; i < THREADS; i++)
        if (g_latest[i]) clReleaseEvent(g_latest[i]);
    clReleaseContext(g_ctx);
    int total_native = 0, total_expected = 0;
    for (int i = 0; i < THREADS; i++) {
        total_native += g_native_runs[i];
        total_expected += g_native_expected[i];
    }
    CHECK(!g_use_native || total_expected == THREADS * PER_THREAD / 2,
          "only %d native kernels were enqueued", total_expected);
    CHECK(want_cb >= THREADS * (PER_THREAD / 4), "only %d callbacks registered", want_cb);
    double dt = h_now() - t0;
    if (getenv("CTS_VERBOSE"))
        fprintf(stderr, "stress: %d native kernels, %d callbacks, %.2f s\n", total_native,
                g_callbacks, dt);
    CHECK(dt < 40.0, "took %.1f s", dt);
}

int main(int argc, char **argv)
{
    h_init("events", argc, argv);
    H_RUN_T(stress_cross_queue_dependencies, 60);
    return h_done();
}
