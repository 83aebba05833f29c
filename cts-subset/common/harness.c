/* ferrocl cts-subset: harness implementation. See harness.h. */
#define _GNU_SOURCE
#include "harness.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *g_suite = "?";
static const char *g_name = "?";
static int g_fail;
static int g_skip;
static char g_reason[1024];
static int g_nfail, g_npass, g_nskip;
static int g_nofork;
static const char *g_only; /* run only this sub-test (argv[1]) */

void h_fail_at(const char *file, int line, const char *fmt, ...)
{
    const char *verbose = getenv("CTS_VERBOSE");
    if (verbose && *verbose && strcmp(verbose, "0") != 0) {
        /* every failure, not only the first, on stderr */
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "  [%s/%s] %s:%d: ", g_suite, g_name, file, line);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
    if (g_fail++) return; /* keep the first reason */
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    int n = snprintf(g_reason, sizeof g_reason, "%s:%d: ", base, line);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_reason + n, sizeof g_reason - (size_t)n, fmt, ap);
    va_end(ap);
    for (char *p = g_reason; *p; p++)
        if (*p == '\n') *p = ' ';
}

void h_skip(const char *fmt, ...)
{
    if (g_skip++) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_reason, sizeof g_reason, fmt, ap);
    va_end(ap);
}

int h_failed(void) { return g_fail; }
int h_skipped(void) { return g_skip; }

const char *h_err(cl_int e)
{
    static __thread char buf[8][80];
    static __thread int slot;
    const char *n = NULL;
    switch (e) {
#define E(x) case x: n = #x; break;
    E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE)
    E(CL_COMPILER_NOT_AVAILABLE) E(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
    E(CL_PROFILING_INFO_NOT_AVAILABLE) E(CL_MEM_COPY_OVERLAP)
    E(CL_IMAGE_FORMAT_MISMATCH) E(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    E(CL_BUILD_PROGRAM_FAILURE) E(CL_MAP_FAILURE)
    E(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    E(CL_COMPILE_PROGRAM_FAILURE) E(CL_LINKER_NOT_AVAILABLE)
    E(CL_LINK_PROGRAM_FAILURE) E(CL_DEVICE_PARTITION_FAILED)
    E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    E(CL_INVALID_VALUE) E(CL_INVALID_DEVICE_TYPE) E(CL_INVALID_PLATFORM)
    E(CL_INVALID_DEVICE) E(CL_INVALID_CONTEXT) E(CL_INVALID_QUEUE_PROPERTIES)
    E(CL_INVALID_COMMAND_QUEUE) E(CL_INVALID_HOST_PTR) E(CL_INVALID_MEM_OBJECT)
    E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) E(CL_INVALID_IMAGE_SIZE)
    E(CL_INVALID_SAMPLER) E(CL_INVALID_BINARY) E(CL_INVALID_BUILD_OPTIONS)
    E(CL_INVALID_PROGRAM) E(CL_INVALID_PROGRAM_EXECUTABLE)
    E(CL_INVALID_KERNEL_NAME) E(CL_INVALID_KERNEL_DEFINITION)
    E(CL_INVALID_KERNEL) E(CL_INVALID_ARG_INDEX) E(CL_INVALID_ARG_VALUE)
    E(CL_INVALID_ARG_SIZE) E(CL_INVALID_KERNEL_ARGS)
    E(CL_INVALID_WORK_DIMENSION) E(CL_INVALID_WORK_GROUP_SIZE)
    E(CL_INVALID_WORK_ITEM_SIZE) E(CL_INVALID_GLOBAL_OFFSET)
    E(CL_INVALID_EVENT_WAIT_LIST) E(CL_INVALID_EVENT) E(CL_INVALID_OPERATION)
    E(CL_INVALID_GL_OBJECT) E(CL_INVALID_BUFFER_SIZE) E(CL_INVALID_MIP_LEVEL)
    E(CL_INVALID_GLOBAL_WORK_SIZE) E(CL_INVALID_PROPERTY)
    E(CL_INVALID_IMAGE_DESCRIPTOR) E(CL_INVALID_COMPILER_OPTIONS)
    E(CL_INVALID_LINKER_OPTIONS) E(CL_INVALID_DEVICE_PARTITION_COUNT)
    E(CL_INVALID_PIPE_SIZE) E(CL_INVALID_DEVICE_QUEUE)
    E(CL_INVALID_SPEC_ID) E(CL_MAX_SIZE_RESTRICTION_EXCEEDED)
    E(CL_PLATFORM_NOT_FOUND_KHR)
#undef E
    default: break;
    }
    char *b = buf[slot++ & 7];
    if (n)
        snprintf(b, sizeof buf[0], "%s (%d)", n, (int)e);
    else
        snprintf(b, sizeof buf[0], "%d", (int)e);
    return b;
}

/* ---- running ----------------------------------------------------------- */

static void print_result(void)
{
    if (g_fail)
        printf("FAIL %s/%s: %s\n", g_suite, g_name, g_reason);
    else if (g_skip)
        printf("SKIP %s/%s: %s\n", g_suite, g_name, g_reason);
    else
        printf("PASS %s/%s\n", g_suite, g_name);
    fflush(stdout);
}

void h_init(const char *suite, int argc, char **argv)
{
    g_suite = suite;
    const char *nf = getenv("CTS_NOFORK");
    g_nofork = nf && *nf && strcmp(nf, "0") != 0;
    g_only = argc > 1 ? argv[1] : NULL;
    setvbuf(stdout, NULL, _IOLBF, 0);
}

static void on_alarm(int sig)
{
    (void)sig;
    char buf[256];
    int n = snprintf(buf, sizeof buf, "FAIL %s/%s: timed out\n", g_suite,
                     g_name);
    if (write(1, buf, (size_t)n) < 0) { /* nothing to do */ }
    _exit(43);
}

void h_run(const char *name, h_test_fn fn, int timeout_s)
{
    if (g_only && strcmp(g_only, name) != 0) return;
    g_name = name;
    g_fail = g_skip = 0;
    g_reason[0] = 0;
    if (g_nofork) {
        signal(SIGALRM, on_alarm);
        alarm((unsigned)timeout_s);
        fn();
        alarm(0);
        print_result();
        if (g_fail) g_nfail++;
        else if (g_skip) g_nskip++;
        else g_npass++;
        return;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        printf("FAIL %s/%s: fork failed: %s\n", g_suite, name,
               strerror(errno));
        g_nfail++;
        return;
    }
    if (pid == 0) {
        signal(SIGALRM, on_alarm);
        alarm((unsigned)timeout_s);
        fn();
        alarm(0);
        print_result();
        /* _exit: do not run driver atexit handlers; they are not under test */
        _exit(g_fail ? 41 : g_skip ? 42 : 40);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    /* the child reports through distinctive exit codes so that a driver
     * calling exit() behind our back is not mistaken for a pass */
    if (WIFEXITED(st) && WEXITSTATUS(st) == 40) g_npass++;
    else if (WIFEXITED(st) && WEXITSTATUS(st) == 42) g_nskip++;
    else if (WIFEXITED(st) && (WEXITSTATUS(st) == 41 || WEXITSTATUS(st) == 43))
        g_nfail++;
    else {
        g_nfail++;
        if (WIFSIGNALED(st))
            printf("FAIL %s/%s: crashed with signal %d (%s)\n", g_suite, name,
                   WTERMSIG(st), strsignal(WTERMSIG(st)));
        else
            printf("FAIL %s/%s: process exited with status %d before reporting\n", g_suite, name,
                   WEXITSTATUS(st));
        fflush(stdout);
    }
}

int h_done(void)
{
    fflush(stdout);
    return g_nfail ? 1 : 0;
}

/* ---- environment ------------------------------------------------------- */

static cl_platform_id g_plat;
static cl_device_id g_dev;

cl_platform_id h_platform(void)
{
    if (g_plat) return g_plat;
    cl_uint n = 0;
    cl_int e = clGetPlatformIDs(0, NULL, &n);
    if (e != CL_SUCCESS || n == 0) {
        h_fail_at(__FILE__, __LINE__, "clGetPlatformIDs: %s, %u platforms",
                  h_err(e), n);
        return NULL;
    }
    cl_platform_id *p = calloc(n, sizeof *p);
    e = clGetPlatformIDs(n, p, NULL);
    if (e != CL_SUCCESS) {
        h_fail_at(__FILE__, __LINE__, "clGetPlatformIDs: %s", h_err(e));
        free(p);
        return NULL;
    }
    g_plat = p[0];
    free(p);
    return g_plat;
}

cl_device_id h_device(void)
{
    if (g_dev) return g_dev;
    cl_platform_id p = h_platform();
    if (!p) return NULL;
    cl_int e = clGetDeviceIDs(p, CL_DEVICE_TYPE_CPU, 1, &g_dev, NULL);
    if (e != CL_SUCCESS) {
        h_fail_at(__FILE__, __LINE__, "clGetDeviceIDs(CPU): %s", h_err(e));
        g_dev = NULL;
    }
    return g_dev;
}

cl_context h_context(void)
{
    cl_device_id d = h_device();
    if (!d) return NULL;
    cl_int e = 0;
    cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
    if (!c || e != CL_SUCCESS)
        h_fail_at(__FILE__, __LINE__, "clCreateContext: %s", h_err(e));
    return c;
}

cl_command_queue h_queue(cl_context ctx, cl_command_queue_properties props)
{
    if (!ctx) return NULL;
    cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, props, 0};
    cl_int e = 0;
    cl_command_queue q =
        clCreateCommandQueueWithProperties(ctx, h_device(), qp, &e);
    if (!q || e != CL_SUCCESS)
        h_fail_at(__FILE__, __LINE__, "clCreateCommandQueueWithProperties: %s",
                  h_err(e));
    return q;
}

int h_has_native(void)
{
    cl_device_exec_capabilities c = 0;
    if (clGetDeviceInfo(h_device(), CL_DEVICE_EXECUTION_CAPABILITIES, sizeof c,
                        &c, NULL) != CL_SUCCESS)
        return 0;
    return (c & CL_EXEC_NATIVE_KERNEL) != 0;
}

int h_need_native(void)
{
    if (!h_device()) return 0;
    if (h_has_native()) return 1;
    h_skip("device lacks CL_EXEC_NATIVE_KERNEL");
    return 0;
}

cl_uint h_compute_units(void)
{
    cl_uint n = 0;
    clGetDeviceInfo(h_device(), CL_DEVICE_MAX_COMPUTE_UNITS, sizeof n, &n, NULL);
    return n;
}

cl_device_svm_capabilities h_svm_caps(void)
{
    cl_device_svm_capabilities c = 0;
    if (clGetDeviceInfo(h_device(), CL_DEVICE_SVM_CAPABILITIES, sizeof c, &c,
                        NULL) != CL_SUCCESS)
        return 0;
    return c;
}

int h_has_ooo(void)
{
    cl_command_queue_properties p = 0;
    clGetDeviceInfo(h_device(), CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof p, &p,
                    NULL);
    return (p & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
}

struct native_args { h_native_fn fn; void *arg; };

static void CL_CALLBACK native_trampoline(void *p)
{
    struct native_args *a = p;
    a->fn(a->arg);
}

cl_int h_enqueue_native(cl_command_queue q, h_native_fn fn, void *arg,
                        cl_uint nwait, const cl_event *wait, cl_event *ev)
{
    struct native_args a = {fn, arg};
    return clEnqueueNativeKernel(q, native_trampoline, &a, sizeof a, 0, NULL,
                                 NULL, nwait, wait, ev);
}

char *h_device_string(cl_device_id d, cl_device_info p)
{
    size_t n = 0;
    if (clGetDeviceInfo(d, p, 0, NULL, &n) != CL_SUCCESS || n == 0) return NULL;
    char *s = calloc(1, n + 1);
    if (clGetDeviceInfo(d, p, n, s, NULL) != CL_SUCCESS) {
        free(s);
        return NULL;
    }
    return s;
}

char *h_platform_string(cl_platform_id pl, cl_platform_info p)
{
    size_t n = 0;
    if (clGetPlatformInfo(pl, p, 0, NULL, &n) != CL_SUCCESS || n == 0)
        return NULL;
    char *s = calloc(1, n + 1);
    if (clGetPlatformInfo(pl, p, n, s, NULL) != CL_SUCCESS) {
        free(s);
        return NULL;
    }
    return s;
}

cl_int h_event_status(cl_event e)
{
    cl_int s = 0;
    cl_int r = clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s,
                              NULL);
    return r == CL_SUCCESS ? s : r;
}

cl_uint h_event_refcount(cl_event e)
{
    cl_uint r = 0;
    clGetEventInfo(e, CL_EVENT_REFERENCE_COUNT, sizeof r, &r, NULL);
    return r;
}

double h_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void h_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {}
}

int h_wait_int(volatile int *flag, int want, double timeout_s)
{
    double end = h_now() + timeout_s;
    while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) < want) {
        if (h_now() > end) return 0;
        h_sleep_ms(1);
    }
    return 1;
}

cl_program h_build(cl_context c, const char *src, const char *opts)
{
    cl_int e = 0;
    cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, &e);
    if (!p || e) return NULL;
    cl_device_id d = h_device();
    e = clBuildProgram(p, 1, &d, opts, NULL, NULL);
    if (e != CL_SUCCESS) {
        char log[8192] = {0};
        clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        fprintf(stderr, "build failed (%s):\n%s\n", h_err(e), log);
        clReleaseProgram(p);
        return NULL;
    }
    return p;
}
