/* events_demo: what ferrocl's command synchronization looks like from an
 * application. An out-of-order queue runs host functions (native kernels)
 * gated by a user event; a barrier joins them; callbacks and profiling
 * report what happened. Build: cc events_demo.c -lOpenCL -lpthread */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHUNKS 8
#define N (1 << 20)

static float data[N];
static double partial[CHUNKS];
static atomic_int callbacks;

struct chunk_args {
    int index;
};

static void CL_CALLBACK sum_chunk(void *p) {
    const struct chunk_args *a = p;
    double s = 0;
    for (int i = a->index * (N / CHUNKS); i < (a->index + 1) * (N / CHUNKS); i++)
        s += data[i];
    partial[a->index] = s;
}

static void CL_CALLBACK on_complete(cl_event e, cl_int status, void *user) {
    (void)e;
    (void)user;
    if (status == CL_COMPLETE)
        atomic_fetch_add(&callbacks, 1);
}

#define CHECK(x)                                                               \
    do {                                                                       \
        cl_int err_ = (x);                                                     \
        if (err_ != CL_SUCCESS) {                                              \
            fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, err_); \
            return 1;                                                          \
        }                                                                      \
    } while (0)

int main(void) {
    cl_platform_id platform;
    cl_device_id device;
    char name[256], dev_name[256];
    cl_int err;
    CHECK(clGetPlatformIDs(1, &platform, NULL));
    CHECK(clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, NULL));
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, NULL));
    CHECK(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof dev_name, dev_name, NULL));
    printf("platform: %s\ndevice:   %s\n", name, dev_name);

    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES,
                                   CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, props, &err);
    CHECK(err);

    for (int i = 0; i < N; i++)
        data[i] = (float)(i % 100);
    double expected = 0;
    for (int i = 0; i < N; i++)
        expected += data[i];

    cl_event gate = clCreateUserEvent(ctx, &err);
    CHECK(err);
    cl_event chunk_done[CHUNKS];
    for (int c = 0; c < CHUNKS; c++) {
        struct chunk_args a = {c};
        CHECK(clEnqueueNativeKernel(q, sum_chunk, &a, sizeof a, 0, NULL, NULL, 1, &gate, &chunk_done[c]));
        CHECK(clSetEventCallback(chunk_done[c], CL_COMPLETE, on_complete, NULL));
    }
    cl_int status;
    CHECK(clGetEventInfo(chunk_done[0], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    printf("before the gate opens, chunk 0 is %s\n", status == CL_SUBMITTED ? "submitted" : "not submitted?");

    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    cl_event joined;
    CHECK(clEnqueueBarrierWithWaitList(q, 0, NULL, &joined));
    CHECK(clWaitForEvents(1, &joined));

    double total = 0;
    for (int c = 0; c < CHUNKS; c++)
        total += partial[c];
    cl_ulong start, end;
    CHECK(clGetEventProfilingInfo(chunk_done[0], CL_PROFILING_COMMAND_START, sizeof start, &start, NULL));
    CHECK(clGetEventProfilingInfo(chunk_done[0], CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
    CHECK(clFinish(q));
    /* Callbacks run beside the commands that follow, so they may still be
     * finishing when clFinish returns. */
    for (int ms = 0; ms < 1000 && atomic_load(&callbacks) < CHUNKS; ms++) {
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    printf("sum of %d floats in %d concurrent commands: %.0f (expected %.0f)\n", N, CHUNKS, total, expected);
    printf("chunk 0 ran for %.1f us; %d completion callbacks\n", (end - start) / 1000.0, atomic_load(&callbacks));

    for (int c = 0; c < CHUNKS; c++)
        clReleaseEvent(chunk_done[c]);
    clReleaseEvent(gate);
    clReleaseEvent(joined);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    int ok = total == expected && atomic_load(&callbacks) == CHUNKS;
    printf("events_demo: %s\n", ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
