/* profiling: event timestamps and device/host timers. */
#include "harness.h"

static void spin(void *p) { (void)p; h_sleep_ms(2); }

static int get_ts(cl_event e, cl_ulong ts[5])
{
    static const cl_profiling_info q[5] = {CL_PROFILING_COMMAND_QUEUED,
        CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
        CL_PROFILING_COMMAND_COMPLETE};
    static const char *n[5] = {"QUEUED", "SUBMIT", "START", "END", "COMPLETE"};
    for (int i = 0; i < 5; i++) {
        size_t sz = 0;
        cl_int r = clGetEventProfilingInfo(e, q[i], sizeof ts[i], &ts[i], &sz);
        CHECK(r == CL_SUCCESS, "CL_PROFILING_COMMAND_%s: %s", n[i], h_err(r));
        if (r != CL_SUCCESS) return 0;
        CHECK(sz == sizeof(cl_ulong), "size %zu", sz);
    }
    return 1;
}

TEST(profiling_order_all_commands)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, CL_QUEUE_PROFILING_ENABLE);
    REQUIRE(q, "no queue");
    cl_int e;
    cl_mem a = clCreateBuffer(c, CL_MEM_READ_WRITE, 1 << 20, NULL, &e);
    cl_mem b = clCreateBuffer(c, CL_MEM_READ_WRITE, 1 << 20, NULL, &e);
    REQUIRE(a && b, "buffers");
    static char host[1 << 20];
    const char *names[16];
    cl_event evs[16];
    int n = 0;
    char pat = 3;
    names[n] = "write"; CHECK_OK(clEnqueueWriteBuffer(q, a, CL_FALSE, 0, sizeof host, host, 0, NULL, &evs[n++]));
    names[n] = "fill"; CHECK_OK(clEnqueueFillBuffer(q, b, &pat, 1, 0, 1 << 20, 0, NULL, &evs[n++]));
    names[n] = "copy"; CHECK_OK(clEnqueueCopyBuffer(q, a, b, 0, 0, 1 << 20, 0, NULL, &evs[n++]));
    names[n] = "read"; CHECK_OK(clEnqueueReadBuffer(q, b, CL_FALSE, 0, sizeof host, host, 0, NULL, &evs[n++]));
    names[n] = "marker"; CHECK_OK(clEnqueueMarkerWithWaitList(q, 0, NULL, &evs[n++]));
    names[n] = "barrier"; CHECK_OK(clEnqueueBarrierWithWaitList(q, 0, NULL, &evs[n++]));
    void *mp = clEnqueueMapBuffer(q, a, CL_FALSE, CL_MAP_READ, 0, 64, 0, NULL, &evs[n], &e);
    names[n++] = "map";
    CHECK(mp != NULL, "map: %s", h_err(e));
    CHECK_OK(clFinish(q));
    names[n] = "unmap"; CHECK_OK(clEnqueueUnmapMemObject(q, a, mp, 0, NULL, &evs[n++]));
    if (h_has_native()) {
        names[n] = "native";
        CHECK_OK(h_enqueue_native(q, spin, NULL, 0, NULL, &evs[n++]));
    }
    CHECK_OK(clFinish(q));
    cl_ulong prev_end = 0;
    for (int i = 0; i < n; i++) {
        cl_ulong ts[5] = {0};
        if (!get_ts(evs[i], ts)) { CHECK(0, "%s: no profiling info", names[i]); continue; }
        CHECK(ts[0] <= ts[1] && ts[1] <= ts[2] && ts[2] <= ts[3] && ts[3] <= ts[4],
              "%s: QUEUED %llu SUBMIT %llu START %llu END %llu COMPLETE %llu not ordered",
              names[i], (unsigned long long)ts[0], (unsigned long long)ts[1],
              (unsigned long long)ts[2], (unsigned long long)ts[3], (unsigned long long)ts[4]);
        CHECK(ts[0] > 0, "%s: QUEUED timestamp 0", names[i]);
        /* in-order queue: a command starts after the previous one ended */
        CHECK(ts[2] >= prev_end, "%s: started at %llu before the previous command ended (%llu)",
              names[i], (unsigned long long)ts[2], (unsigned long long)prev_end);
        if (!strcmp(names[i], "native"))
            CHECK(ts[3] - ts[2] >= 1000000, "native kernel sleeping 2 ms took %llu ns",
                  (unsigned long long)(ts[3] - ts[2]));
        prev_end = ts[3];
        clReleaseEvent(evs[i]);
    }
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(profiling_gated_command)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, CL_QUEUE_PROFILING_ENABLE);
    REQUIRE(q, "no queue");
    cl_event gate = clCreateUserEvent(c, NULL), m = NULL;
    CHECK_OK(clEnqueueMarkerWithWaitList(q, 1, &gate, &m));
    CHECK_OK(clFlush(q));
    cl_ulong t;
    h_sleep_ms(20);
    cl_int r = clGetEventProfilingInfo(m, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL);
    CHECK(r == CL_PROFILING_INFO_NOT_AVAILABLE, "END of an incomplete command: %s", h_err(r));
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_OK(clWaitForEvents(1, &m));
    cl_ulong ts[5];
    if (get_ts(m, ts)) {
        CHECK(ts[2] - ts[0] >= 10000000, "gated 20 ms but START-QUEUED = %llu ns",
              (unsigned long long)(ts[2] - ts[0]));
        CHECK(ts[0] <= ts[1] && ts[1] <= ts[2] && ts[2] <= ts[3] && ts[3] <= ts[4], "order");
    }
    CHECK_ERR(clGetEventProfilingInfo(m, 0x7777, sizeof t, &t, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetEventProfilingInfo(m, CL_PROFILING_COMMAND_START, 4, &t, NULL),
              CL_INVALID_VALUE);
    clReleaseEvent(m);
    clReleaseEvent(gate);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(profiling_not_available)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    cl_event m = NULL;
    CHECK_OK(clEnqueueMarkerWithWaitList(q, 0, NULL, &m));
    CHECK_OK(clFinish(q));
    cl_ulong t;
    CHECK_ERR(clGetEventProfilingInfo(m, CL_PROFILING_COMMAND_START, sizeof t, &t, NULL),
              CL_PROFILING_INFO_NOT_AVAILABLE);
    CHECK_ERR(clGetEventProfilingInfo(m, CL_PROFILING_COMMAND_QUEUED, sizeof t, &t, NULL),
              CL_PROFILING_INFO_NOT_AVAILABLE);
    cl_event u = clCreateUserEvent(c, NULL);
    CHECK_ERR(clGetEventProfilingInfo(u, CL_PROFILING_COMMAND_QUEUED, sizeof t, &t, NULL),
              CL_PROFILING_INFO_NOT_AVAILABLE);
    CHECK_OK(clSetUserEventStatus(u, CL_COMPLETE));
    CHECK_ERR(clGetEventProfilingInfo(u, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL),
              CL_PROFILING_INFO_NOT_AVAILABLE);
    clReleaseEvent(u);
    clReleaseEvent(m);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(profiling_timers)
{
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    cl_ulong res = 0;
    CHECK_OK(clGetPlatformInfo(h_platform(), CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof res, &res,
                               NULL));
    cl_ulong dev = 0, host = 0;
    cl_int r = clGetDeviceAndHostTimer(d, &dev, &host);
    if (res == 0) {
        /* timer synchronisation not supported: both calls must say so */
        CHECK(r == CL_INVALID_OPERATION, "host timer resolution 0 but clGetDeviceAndHostTimer "
              "returned %s", h_err(r));
        CHECK_ERR(clGetHostTimer(d, &host), CL_INVALID_OPERATION);
        return;
    }
    REQUIRE(r == CL_SUCCESS, "clGetDeviceAndHostTimer: %s", h_err(r));
    CHECK_ERR(clGetDeviceAndHostTimer(d, NULL, &host), CL_INVALID_VALUE);
    CHECK_ERR(clGetDeviceAndHostTimer(d, &dev, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetHostTimer(d, NULL), CL_INVALID_VALUE);
    cl_ulong pd = dev, ph = host;
    for (int i = 0; i < 1000; i++) {
        cl_ulong h2 = 0;
        CHECK_OK(clGetHostTimer(d, &h2));
        CHECK(h2 >= ph, "host timer went back %llu -> %llu", (unsigned long long)ph,
              (unsigned long long)h2);
        ph = h2;
        if (i % 100 == 0) {
            cl_ulong d2, hh;
            CHECK_OK(clGetDeviceAndHostTimer(d, &d2, &hh));
            CHECK(d2 >= pd && hh >= ph, "device/host timer went back");
            pd = d2;
            ph = hh;
        }
        if (h_failed()) break;
    }
    cl_ulong h1, h2;
    CHECK_OK(clGetHostTimer(d, &h1));
    h_sleep_ms(20);
    CHECK_OK(clGetHostTimer(d, &h2));
    CHECK(h2 - h1 >= 15000000 && h2 - h1 < 5000000000ull, "20 ms sleep measured as %llu ns",
          (unsigned long long)(h2 - h1));
    /* device timestamps are in the same timebase as profiling timestamps */
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, CL_QUEUE_PROFILING_ENABLE);
    if (q) {
        cl_ulong before, after, hb, ha, qd = 0;
        CHECK_OK(clGetDeviceAndHostTimer(d, &before, &hb));
        cl_event m;
        CHECK_OK(clEnqueueMarkerWithWaitList(q, 0, NULL, &m));
        CHECK_OK(clFinish(q));
        CHECK_OK(clGetDeviceAndHostTimer(d, &after, &ha));
        CHECK_OK(clGetEventProfilingInfo(m, CL_PROFILING_COMMAND_QUEUED, sizeof qd, &qd, NULL));
        CHECK(qd >= before && qd <= after, "QUEUED %llu not within device timer [%llu, %llu]",
              (unsigned long long)qd, (unsigned long long)before, (unsigned long long)after);
        clReleaseEvent(m);
        clReleaseCommandQueue(q);
    }
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("profiling", argc, argv);
    H_RUN(profiling_order_all_commands);
    H_RUN(profiling_gated_command);
    H_RUN(profiling_not_available);
    H_RUN(profiling_timers);
    return h_done();
}
