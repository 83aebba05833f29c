/*
 * sched_bench.c — host-side scheduling overhead of an OpenCL implementation.
 *
 * Build:  cc -O2 -o sched_bench sched_bench.c -lOpenCL -lpthread
 * Run:    OCL_ICD_VENDORS=/path/to/libvendor.so ./sched_bench
 *
 * Uses the first platform the ICD loader offers and its first device.
 * Output: one figure per line, "name value" (value in microseconds, or NA),
 * plus informational lines starting with '#'.  See benches/README.md.
 *
 * The kernel_* groups build one tiny OpenCL C kernel first (not timed), to
 * measure what a kernel launch costs the scheduler; the others compile
 * nothing.
 *
 * Arguments: figure groups to run (default: all; see usage()).
 * Repetition counts can be scaled with SCHED_BENCH_SCALE (float, default 1).
 * A group still running after SCHED_BENCH_TIMEOUT seconds (default 10 x
 * max(1, scale)) prints NA for its figures and the program exits 124.
 */
#define CL_TARGET_OPENCL_VERSION 300
#define _GNU_SOURCE
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>

/* ------------------------------------------------------------------ utils */

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return (n & 1) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double mean(const double *v, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += v[i];
    return s / n;
}

static double g_scale = 1.0;

static int scaled(int n, int min)
{
    double v = n * g_scale;
    return v < min ? min : (int)v;
}

static void emit(const char *name, double us)
{
    printf("%s %.3f\n", name, us);
    fflush(stdout);
}

static void emit_na(const char *name, const char *why)
{
    printf("%s NA\n", name);
    if (why) printf("# %s: %s\n", name, why);
    fflush(stdout);
}

/* Report a failing call and jump to the figure's cleanup label. */
#define CHECK(call, figname)                                                  \
    do {                                                                      \
        cl_int err_ = (call);                                                 \
        if (err_ != CL_SUCCESS) {                                             \
            char why_[128];                                                   \
            snprintf(why_, sizeof why_, "%s failed: %d", #call, (int)err_);   \
            emit_na(figname, why_);                                           \
            goto fail;                                                        \
        }                                                                     \
    } while (0)

/* ------------------------------------------------------------ CL context */

static cl_platform_id g_plat;
static cl_device_id g_dev;
static cl_context g_ctx;
static cl_mem g_buf;          /* 64 KiB device buffer used by writes */
static unsigned char g_host[65536];

static cl_command_queue make_queue(cl_bool ooo, cl_int *err)
{
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES,
                                   ooo ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0, 0};
    return clCreateCommandQueueWithProperties(g_ctx, g_dev, props, err);
}

/* The write benchmarks need a buffer; create it on first use so that a
 * library without clCreateBuffer still reports the other figures. */
static int have_buf(const char *fig1, const char *fig2)
{
    static cl_int err = CL_SUCCESS;
    if (!g_buf && err == CL_SUCCESS)
        g_buf = clCreateBuffer(g_ctx, CL_MEM_READ_WRITE, sizeof g_host, NULL, &err);
    if (g_buf) return 1;
    if (err == CL_SUCCESS) err = CL_OUT_OF_RESOURCES;
    char why[64];
    snprintf(why, sizeof why, "clCreateBuffer failed: %d", (int)err);
    emit_na(fig1, why);
    if (fig2) emit_na(fig2, NULL);
    return 0;
}

/* ------------------------------------------------------------ round trips */

typedef cl_int (*enqueue_fn)(cl_command_queue q);

static cl_int enq_marker(cl_command_queue q)
{
    return clEnqueueMarkerWithWaitList(q, 0, NULL, NULL);
}

static cl_int enq_write1(cl_command_queue q)
{
    return clEnqueueWriteBuffer(q, g_buf, CL_FALSE, 0, 1, g_host, 0, NULL, NULL);
}

static void empty_native(void *args) { (void)args; }

static cl_int enq_native(cl_command_queue q)
{
    return clEnqueueNativeKernel(q, empty_native, NULL, 0, 0, NULL, NULL, 0, NULL, NULL);
}

/* `warm` then `n` timed round trips (one command + clFinish) into s[];
 * 0, or -1 after a failing call was reported as NA for `name`. */
static int sample_roundtrips(const char *name, cl_command_queue q, enqueue_fn fn, int warm,
                             int n, double *s)
{
    for (int i = 0; i < warm; i++) {
        CHECK(fn(q), name);
        CHECK(clFinish(q), name);
    }
    for (int i = 0; i < n; i++) {
        double t0 = now_us();
        CHECK(fn(q), name);
        CHECK(clFinish(q), name);
        s[i] = now_us() - t0;
    }
    return 0;
fail:
    return -1;
}

/* enqueue one command + clFinish, N times; per-sample timing, median+mean. */
static void bench_roundtrip(const char *name, const char *mean_name, enqueue_fn fn)
{
    cl_int err;
    cl_command_queue q = make_queue(CL_FALSE, &err);
    int warm = scaled(500, 20), n = scaled(10000, 50);
    double *s = malloc(sizeof(double) * (size_t)n);
    if (!q) {
        char why[64];
        snprintf(why, sizeof why, "clCreateCommandQueueWithProperties: %d", err);
        emit_na(name, why);
        if (mean_name) emit_na(mean_name, NULL);
        free(s);
        return;
    }
    if (sample_roundtrips(name, q, fn, warm, n, s)) goto fail;
    {
        double m = mean(s, n);
        emit(name, median(s, n));
        if (mean_name) emit(mean_name, m);
    }
    goto done;
fail:
    if (mean_name) emit_na(mean_name, NULL);
done:
    clReleaseCommandQueue(q);
    free(s);
}

/* ------------------------------------------------------ in-order stream */

/* N commands on an in-order queue, then one clFinish.  Reports median over
 * repetitions of (total time)/N and of (enqueue time)/N. */
static void bench_inorder(const char *name, const char *enq_name, int use_write)
{
    cl_int err;
    const int ncmd = 10000;
    int reps = scaled(21, 3);
    double *tot = malloc(sizeof(double) * (size_t)reps);
    double *enq = malloc(sizeof(double) * (size_t)reps);
    cl_command_queue q = make_queue(CL_FALSE, &err);
    if (!q) {
        emit_na(name, "cannot create in-order queue");
        emit_na(enq_name, NULL);
        free(tot); free(enq);
        return;
    }
    for (int r = -1; r < reps; r++) {     /* r == -1: warm-up */
        double t0 = now_us(), t1;
        for (int i = 0; i < ncmd; i++) {
            if (use_write) {
                size_t off = ((size_t)i * 4) % sizeof g_host;
                CHECK(clEnqueueWriteBuffer(q, g_buf, CL_FALSE, off, 4, g_host + off,
                                           0, NULL, NULL), name);
            } else {
                CHECK(clEnqueueMarkerWithWaitList(q, 0, NULL, NULL), name);
            }
        }
        t1 = now_us();
        CHECK(clFinish(q), name);
        if (r >= 0) {
            tot[r] = (now_us() - t0) / ncmd;
            enq[r] = (t1 - t0) / ncmd;
        }
    }
    emit(name, median(tot, reps));
    emit(enq_name, median(enq, reps));
    goto done;
fail:
    emit_na(enq_name, NULL);
done:
    clReleaseCommandQueue(q);
    free(tot); free(enq);
}

/* ------------------------------------------------ event-chained OOO queue */

/* N commands on an out-of-order queue, each waiting on the previous one's
 * event, then one clFinish.  Median over repetitions of total/N.  The
 * command: a launch of `kernel` over 64 work-items when given, else a
 * 4-byte buffer write (use_write) or a marker. */
static void bench_chain(const char *name, int use_write, cl_kernel kernel)
{
    cl_int err;
    const int ncmd = 2000;
    int reps = scaled(21, 3);
    double *tot = malloc(sizeof(double) * (size_t)reps);
    cl_command_queue_properties qp = 0;
    cl_command_queue q = NULL;
    cl_event prev = NULL, ev = NULL;

    clGetDeviceInfo(g_dev, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof qp, &qp, NULL);
    if (!(qp & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
        emit_na(name, "device has no out-of-order host queues");
        free(tot);
        return;
    }
    q = make_queue(CL_TRUE, &err);
    if (!q) {
        char why[64];
        snprintf(why, sizeof why, "cannot create out-of-order queue: %d", err);
        emit_na(name, why);
        free(tot);
        return;
    }
    for (int r = -1; r < reps; r++) {
        double t0 = now_us();
        prev = NULL;
        for (int i = 0; i < ncmd; i++) {
            cl_uint nw = prev ? 1 : 0;
            const cl_event *wl = prev ? &prev : NULL;
            if (kernel) {
                size_t g = 64;
                CHECK(clEnqueueNDRangeKernel(q, kernel, 1, NULL, &g, NULL, nw, wl, &ev), name);
            } else if (use_write) {
                size_t off = ((size_t)i * 4) % sizeof g_host;
                CHECK(clEnqueueWriteBuffer(q, g_buf, CL_FALSE, off, 4, g_host + off,
                                           nw, wl, &ev), name);
            } else {
                CHECK(clEnqueueMarkerWithWaitList(q, nw, wl, &ev), name);
            }
            if (prev) clReleaseEvent(prev);
            prev = ev;
        }
        CHECK(clFinish(q), name);
        if (prev) clReleaseEvent(prev);
        prev = NULL;
        if (r >= 0) tot[r] = (now_us() - t0) / ncmd;
    }
    emit(name, median(tot, reps));
    goto done;
fail:
    if (prev) clReleaseEvent(prev);
    clFinish(q);
done:
    clReleaseCommandQueue(q);
    free(tot);
}


/* ----------------------------------------------------------- tiny kernels */

/* Kernels that do next to nothing, so that the figures are the runtime's
 * cost per launch: `empty` (global size 1) and `inc` (64 work-items, the
 * runtime picks the work-group size, as most applications let it). */
static const char *tiny_src =
    "kernel void empty(void) {}\n"
    "kernel void inc(global int *p) { p[get_global_id(0)] += 1; }\n";

static cl_kernel tiny_kernel(const char *name, const char *fig)
{
    static cl_program prog;
    cl_int err;
    if (!prog) {
        prog = clCreateProgramWithSource(g_ctx, 1, &tiny_src, NULL, &err);
        if (!prog || clBuildProgram(prog, 1, &g_dev, "", NULL, NULL) != CL_SUCCESS) {
            emit_na(fig, "cannot build the tiny kernels");
            if (prog) clReleaseProgram(prog);
            prog = NULL;
            return NULL;
        }
    }
    cl_kernel k = clCreateKernel(prog, name, &err);
    if (!k) {
        emit_na(fig, "clCreateKernel failed");
        return NULL;
    }
    if (!strcmp(name, "inc")) {
        if (!have_buf(fig, NULL)) { clReleaseKernel(k); return NULL; }
        clSetKernelArg(k, 0, sizeof g_buf, &g_buf);
    }
    return k;
}

static cl_kernel g_empty;

static cl_int enq_empty_kernel(cl_command_queue q)
{
    size_t one = 1;
    return clEnqueueNDRangeKernel(q, g_empty, 1, NULL, &one, NULL, 0, NULL, NULL);
}

/* The empty kernel's round trip on a machine whose cores are all busy with
 * another program: one child process per CPU this process may use, each
 * spinning, no syscalls.  A runtime whose waiting threads yield hands its
 * core to such a process for a whole time slice (milliseconds); one that
 * sleeps is woken promptly.  Fewer repetitions (50 + 500) than the idle
 * round trip, so that a runtime taking a slice per round trip still ends
 * within the watchdog. */
static void bench_roundtrip_busy(const char *name)
{
    cl_int err;
    cpu_set_t cpus;
    int nbusy = 1, nstarted = 0;
    pid_t busy[1024];
    int warm = scaled(50, 5), n = scaled(500, 20);
    double *s = malloc(sizeof(double) * (size_t)n);
    cl_command_queue q = make_queue(CL_FALSE, &err);
    if (!q) {
        emit_na(name, "cannot create queue");
        free(s);
        return;
    }
    if (sched_getaffinity(0, sizeof cpus, &cpus) == 0) nbusy = CPU_COUNT(&cpus);
    if (nbusy > 1024) nbusy = 1024;
    fflush(stdout);
    for (int i = 0; i < nbusy; i++) {
        pid_t p = fork();
        if (p == 0)
            for (volatile unsigned long x = 0;; x++) {}
        if (p > 0) busy[nstarted++] = p;
    }
    if (!sample_roundtrips(name, q, enq_empty_kernel, warm, n, s)) emit(name, median(s, n));
    for (int i = 0; i < nstarted; i++) kill(busy[i], SIGKILL);
    for (int i = 0; i < nstarted; i++) waitpid(busy[i], NULL, 0);
    clReleaseCommandQueue(q);
    free(s);
}

/* 10,000 empty kernels (global size 1) on an in-order queue, then one
 * clFinish: launch throughput. Median over repetitions of total/N. */
static void bench_kernel_launch(const char *name)
{
    cl_int err;
    const int ncmd = 10000;
    int reps = scaled(11, 3);
    double *tot = malloc(sizeof(double) * (size_t)reps);
    cl_command_queue q = make_queue(CL_FALSE, &err);
    size_t one = 1;
    if (!q) {
        emit_na(name, "cannot create in-order queue");
        free(tot);
        return;
    }
    for (int r = -1; r < reps; r++) {
        double t0 = now_us();
        for (int i = 0; i < ncmd; i++)
            CHECK(clEnqueueNDRangeKernel(q, g_empty, 1, NULL, &one, NULL, 0, NULL, NULL), name);
        CHECK(clFinish(q), name);
        if (r >= 0) tot[r] = (now_us() - t0) / ncmd;
    }
    emit(name, median(tot, reps));
fail:
    clReleaseCommandQueue(q);
    free(tot);
}

/* 16 launches of the inc kernel (1024 work-items each) on an in-order
 * queue, then clFinish: per sequence, enqueued one by one, and replayed
 * from a command buffer recorded once (cl_khr_command_buffer 0.9.8, whose
 * entry points are declared here: the system header has an older
 * version). Median over repetitions. */
typedef cl_command_buffer_khr(CL_API_CALL *cb_create_fn)(cl_uint, const cl_command_queue *,
                                                          const cl_properties *, cl_int *);
typedef cl_int(CL_API_CALL *cb_finalize_fn)(cl_command_buffer_khr);
typedef cl_int(CL_API_CALL *cb_enqueue_fn)(cl_uint, cl_command_queue *, cl_command_buffer_khr,
                                           cl_uint, const cl_event *, cl_event *);
typedef cl_int(CL_API_CALL *cb_ndrange_fn)(cl_command_buffer_khr, cl_command_queue,
                                           const cl_properties *, cl_kernel, cl_uint,
                                           const size_t *, const size_t *, const size_t *, cl_uint,
                                           const cl_sync_point_khr *, cl_sync_point_khr *,
                                           cl_mutable_command_khr *);

static int has_command_buffer_098(void)
{
    size_t size = 0;
    int yes = 0;
    if (clGetDeviceInfo(g_dev, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, NULL, &size)) return 0;
    cl_name_version *list = malloc(size);
    if (list && !clGetDeviceInfo(g_dev, CL_DEVICE_EXTENSIONS_WITH_VERSION, size, list, NULL))
        for (size_t i = 0; i < size / sizeof *list; i++)
            yes |= !strcmp(list[i].name, "cl_khr_command_buffer") &&
                   list[i].version == CL_MAKE_VERSION(0, 9, 8);
    free(list);
    return yes;
}

static void bench_command_buffer(const char *enq_name, const char *replay_name, cl_kernel k)
{
    enum { SEQ = 16 };
    cl_int err;
    int reps = scaled(200, 20);
    double *tot = malloc(sizeof(double) * (size_t)reps);
    cl_command_queue q = make_queue(CL_FALSE, &err);
    size_t global = 1024;
    cl_command_buffer_khr b = NULL;
    if (!q) {
        emit_na(enq_name, "cannot create in-order queue");
        emit_na(replay_name, NULL);
        free(tot);
        return;
    }
    for (int r = -2; r < reps; r++) {
        double t0 = now_us();
        for (int i = 0; i < SEQ; i++)
            CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL), enq_name);
        CHECK(clFinish(q), enq_name);
        if (r >= 0) tot[r] = now_us() - t0;
    }
    emit(enq_name, median(tot, reps));
    if (!has_command_buffer_098()) {
        emit_na(replay_name, "no cl_khr_command_buffer 0.9.8");
        goto fail;
    }
    cb_create_fn create =
        (cb_create_fn)clGetExtensionFunctionAddressForPlatform(g_plat, "clCreateCommandBufferKHR");
    cb_finalize_fn finalize = (cb_finalize_fn)clGetExtensionFunctionAddressForPlatform(
        g_plat, "clFinalizeCommandBufferKHR");
    cb_enqueue_fn enqueue = (cb_enqueue_fn)clGetExtensionFunctionAddressForPlatform(
        g_plat, "clEnqueueCommandBufferKHR");
    cb_ndrange_fn ndrange = (cb_ndrange_fn)clGetExtensionFunctionAddressForPlatform(
        g_plat, "clCommandNDRangeKernelKHR");
    if (!create || !finalize || !enqueue || !ndrange) {
        emit_na(replay_name, "an entry point is missing");
        goto fail;
    }
    b = create(1, &q, NULL, &err);
    CHECK(err, replay_name);
    for (int i = 0; i < SEQ; i++)
        CHECK(ndrange(b, NULL, NULL, k, 1, NULL, &global, NULL, 0, NULL, NULL, NULL), replay_name);
    CHECK(finalize(b), replay_name);
    for (int r = -2; r < reps; r++) {
        double t0 = now_us();
        CHECK(enqueue(0, NULL, b, 0, NULL, NULL), replay_name);
        CHECK(clFinish(q), replay_name);
        if (r >= 0) tot[r] = now_us() - t0;
    }
    emit(replay_name, median(tot, reps));
fail:
    if (b) {
        cb_finalize_fn release = (cb_finalize_fn)clGetExtensionFunctionAddressForPlatform(
            g_plat, "clReleaseCommandBufferKHR");
        if (release) release(b);
    }
    clReleaseCommandQueue(q);
    free(tot);
}

/* ------------------------------------------------------- machine floor */

static pthread_mutex_t pp_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pp_cv = PTHREAD_COND_INITIALIZER;
static int pp_turn;           /* 0: main's turn, 1: partner's turn */
static int pp_iters;
static _Atomic int sp_turn;

static void *cv_partner(void *arg)
{
    (void)arg;
    for (int i = 0; i < pp_iters; i++) {
        pthread_mutex_lock(&pp_mu);
        while (pp_turn != 1) pthread_cond_wait(&pp_cv, &pp_mu);
        pp_turn = 0;
        pthread_cond_signal(&pp_cv);
        pthread_mutex_unlock(&pp_mu);
    }
    return NULL;
}

static double cv_pingpong(int iters)
{
    pthread_t th;
    pp_iters = iters;
    pp_turn = 0;
    pthread_create(&th, NULL, cv_partner, NULL);
    double t0 = now_us();
    for (int i = 0; i < iters; i++) {
        pthread_mutex_lock(&pp_mu);
        pp_turn = 1;
        pthread_cond_signal(&pp_cv);
        while (pp_turn != 0) pthread_cond_wait(&pp_cv, &pp_mu);
        pthread_mutex_unlock(&pp_mu);
    }
    double t = (now_us() - t0) / iters;
    pthread_join(th, NULL);
    return t;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static void *spin_partner(void *arg)
{
    (void)arg;
    for (int i = 0; i < pp_iters; i++) {
        while (atomic_load_explicit(&sp_turn, memory_order_acquire) != 1) cpu_relax();
        atomic_store_explicit(&sp_turn, 0, memory_order_release);
    }
    return NULL;
}

static double spin_pingpong(int iters)
{
    pthread_t th;
    pp_iters = iters;
    atomic_store(&sp_turn, 0);
    pthread_create(&th, NULL, spin_partner, NULL);
    double t0 = now_us();
    for (int i = 0; i < iters; i++) {
        atomic_store_explicit(&sp_turn, 1, memory_order_release);
        while (atomic_load_explicit(&sp_turn, memory_order_acquire) != 0) cpu_relax();
    }
    double t = (now_us() - t0) / iters;
    pthread_join(th, NULL);
    return t;
}

static void bench_floor(void)
{
    const int reps = 5;
    double v[5];
    int n_cv = scaled(10000, 500), n_sp = scaled(200000, 5000);
    cv_pingpong(n_cv / 10);
    for (int r = 0; r < reps; r++) v[r] = cv_pingpong(n_cv);
    emit("condvar_pingpong_us", median(v, reps));
    spin_pingpong(n_sp / 10);
    for (int r = 0; r < reps; r++) v[r] = spin_pingpong(n_sp);
    emit("spin_pingpong_us", median(v, reps));
}

/* --------------------------------------------------------------- watchdog */

/* If one group hangs (seen with PoCL 3.1: chained markers on an out-of-order
 * queue never complete), print NA for its figures and exit, rather than spin
 * forever.  run.sh runs each group in its own process, so the others still
 * report. */
static const char *volatile g_running[4];
static pthread_mutex_t wd_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wd_cv = PTHREAD_COND_INITIALIZER;
static int wd_seq, wd_stop;
static double wd_limit_s;

static void *watchdog(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&wd_mu);
    while (!wd_stop) {
        int seq = wd_seq;
        struct timespec dl;
        clock_gettime(CLOCK_REALTIME, &dl);
        dl.tv_sec += (time_t)wd_limit_s;
        int rc = 0;
        while (!wd_stop && wd_seq == seq && rc == 0)
            rc = pthread_cond_timedwait(&wd_cv, &wd_mu, &dl);
        if (!wd_stop && wd_seq == seq && g_running[0]) {
            for (int i = 0; i < 4 && g_running[i]; i++)
                printf("%s NA\n# %s: timed out after %.0f s (hang?)\n", g_running[i],
                       g_running[i], wd_limit_s);
            fflush(stdout);
            _exit(124);
        }
    }
    pthread_mutex_unlock(&wd_mu);
    return NULL;
}

static void wd_begin(const char *a, const char *b)
{
    pthread_mutex_lock(&wd_mu);
    g_running[0] = a;
    g_running[1] = b;
    g_running[2] = NULL;
    wd_seq++;
    pthread_cond_signal(&wd_cv);
    pthread_mutex_unlock(&wd_mu);
}

/* ------------------------------------------------------------------ main */

/* Groups: each names the figures it prints (for NA output on failure). */
struct group {
    const char *name, *fig1, *fig2;
};
static const struct group groups[] = {
    {"roundtrip", "roundtrip_us", "roundtrip_mean_us"},
    {"write1", "write1_roundtrip_us", NULL},
    {"native", "nativekernel_roundtrip_us", NULL},
    {"inorder_write", "inorder_write_us_per_cmd", "inorder_write_enqueue_us_per_cmd"},
    {"inorder_marker", "inorder_marker_us_per_cmd", "inorder_marker_enqueue_us_per_cmd"},
    {"chain_write", "ooo_chain_write_us_per_cmd", NULL},
    {"chain_marker", "ooo_chain_marker_us_per_cmd", NULL},
    {"floor", "condvar_pingpong_us", "spin_pingpong_us"},
    {"kernel_roundtrip", "kernel_roundtrip_us", NULL},
    {"kernel_launch", "kernel_launch_us_per_kernel", NULL},
    {"kernel_chain", "kernel_chain_us_per_kernel", NULL},
    {"kernel_roundtrip_busy", "kernel_roundtrip_busy_us", NULL},
    {"command_buffer", "cmdbuf_enqueue16_us", "cmdbuf_replay16_us"},
    {NULL, NULL, NULL}};

static void run_group(int gi)
{
    const struct group *g = &groups[gi];
    wd_begin(g->fig1, g->fig2);
    switch (gi) {
    case 0: bench_roundtrip("roundtrip_us", "roundtrip_mean_us", enq_marker); break;
    case 1:
        if (have_buf(g->fig1, g->fig2)) bench_roundtrip(g->fig1, NULL, enq_write1);
        break;
    case 2: {
        cl_device_exec_capabilities caps = 0;
        clGetDeviceInfo(g_dev, CL_DEVICE_EXECUTION_CAPABILITIES, sizeof caps, &caps, NULL);
        if (caps & CL_EXEC_NATIVE_KERNEL)
            bench_roundtrip("nativekernel_roundtrip_us", NULL, enq_native);
        else
            emit_na("nativekernel_roundtrip_us", "CL_EXEC_NATIVE_KERNEL not supported");
        break;
    }
    case 3:
        if (have_buf(g->fig1, g->fig2)) bench_inorder(g->fig1, g->fig2, 1);
        break;
    case 4: bench_inorder("inorder_marker_us_per_cmd", "inorder_marker_enqueue_us_per_cmd", 0); break;
    case 5:
        if (have_buf(g->fig1, g->fig2)) bench_chain(g->fig1, 1, NULL);
        break;
    case 6: bench_chain("ooo_chain_marker_us_per_cmd", 0, NULL); break;
    case 7: bench_floor(); break;
    case 8:
    case 9:
    case 11:
        if ((g_empty = tiny_kernel("empty", g->fig1))) {
            if (gi == 8) bench_roundtrip(g->fig1, NULL, enq_empty_kernel);
            else if (gi == 9) bench_kernel_launch(g->fig1);
            else bench_roundtrip_busy(g->fig1);
            clReleaseKernel(g_empty);
        }
        break;
    case 10: {
        cl_kernel k = tiny_kernel("inc", g->fig1);
        if (k) {
            bench_chain(g->fig1, 0, k);
            clReleaseKernel(k);
        }
        break;
    }
    case 12: {
        cl_kernel k = tiny_kernel("inc", g->fig1);
        if (k) {
            bench_command_buffer(g->fig1, g->fig2, k);
            clReleaseKernel(k);
        } else {
            emit_na(g->fig2, NULL);
        }
        break;
    }
    }
    wd_begin(NULL, NULL);
}

static void usage(void)
{
    fprintf(stderr, "usage: sched_bench [GROUP...]\ngroups:");
    for (int i = 0; groups[i].name; i++) fprintf(stderr, " %s", groups[i].name);
    fprintf(stderr, "\n(default: all)  env: SCHED_BENCH_SCALE (repetitions factor, default 1),\n"
                    "SCHED_BENCH_TIMEOUT (seconds per group before NA, default 10 x max(1, scale))\n");
}

int main(int argc, char **argv)
{
    const char *sc = getenv("SCHED_BENCH_SCALE"), *to = getenv("SCHED_BENCH_TIMEOUT");
    int want[16] = {0}, nwant = 0, need_cl = 0, ngroups = 0;
    cl_uint n = 0;
    cl_int err;
    char str[512];
    pthread_t wd;

    while (groups[ngroups].name) ngroups++;
    for (int a = 1; a < argc; a++) {
        int found = 0;
        for (int i = 0; i < ngroups; i++)
            if (!strcmp(argv[a], groups[i].name)) want[i] = found = 1;
        if (!found) { usage(); return 2; }
        nwant++;
    }
    if (!nwant)
        for (int i = 0; i < ngroups; i++) want[i] = 1;
    for (int i = 0; i < ngroups; i++)
        if (want[i] && strcmp(groups[i].name, "floor")) need_cl = 1;

    if (sc && atof(sc) > 0) g_scale = atof(sc);
    wd_limit_s = 10 * (g_scale > 1 ? g_scale : 1);
    if (to && atof(to) > 0) wd_limit_s = atof(to);
    memset(g_host, 0xA5, sizeof g_host);
    pthread_create(&wd, NULL, watchdog, NULL);

    if (need_cl) {
        const char *why = NULL;
        wd_begin("init", NULL);
        if (clGetPlatformIDs(1, &g_plat, &n) != CL_SUCCESS || n == 0) {
            why = "no platform";
        } else if (clGetDeviceIDs(g_plat, CL_DEVICE_TYPE_ALL, 1, &g_dev, &n) != CL_SUCCESS ||
                   n == 0) {
            why = "no device";
        } else {
            if (clGetPlatformInfo(g_plat, CL_PLATFORM_NAME, sizeof str, str, NULL) == CL_SUCCESS)
                printf("# platform: %s\n", str);
            if (clGetPlatformInfo(g_plat, CL_PLATFORM_VERSION, sizeof str, str, NULL) == CL_SUCCESS)
                printf("# platform_version: %s\n", str);
            if (clGetDeviceInfo(g_dev, CL_DEVICE_NAME, sizeof str, str, NULL) == CL_SUCCESS)
                printf("# device: %s\n", str);
            if (clGetDeviceInfo(g_dev, CL_DRIVER_VERSION, sizeof str, str, NULL) == CL_SUCCESS)
                printf("# driver_version: %s\n", str);
            fflush(stdout);
            g_ctx = clCreateContext(NULL, 1, &g_dev, NULL, NULL, &err);
            if (!g_ctx) {
                snprintf(str, sizeof str, "clCreateContext: %d", err);
                why = str;
            }
        }
        wd_begin(NULL, NULL);
        if (why) {
            printf("# OpenCL unavailable: %s\n", why);
            for (int i = 0; i < ngroups; i++) {
                if (!want[i] || !strcmp(groups[i].name, "floor")) continue;
                printf("%s NA\n", groups[i].fig1);
                if (groups[i].fig2) printf("%s NA\n", groups[i].fig2);
                want[i] = 0;
            }
            fflush(stdout);
            need_cl = 0;
        }
    }
    for (int i = 0; i < ngroups; i++)
        if (want[i]) run_group(i);
    if (need_cl) {
        if (g_buf) clReleaseMemObject(g_buf);
        clReleaseContext(g_ctx);
    }
    pthread_mutex_lock(&wd_mu);
    wd_stop = 1;
    pthread_cond_signal(&wd_cv);
    pthread_mutex_unlock(&wd_mu);
    pthread_join(wd, NULL);
    return 0;
}
