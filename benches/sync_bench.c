/* sync_bench: OpenCL 2.x synchronization on the first platform the loader
 * offers (pick it with OCL_ICD_VENDORS): work-group collectives against a
 * local-memory tree, device-side enqueue against host enqueue, and contended
 * atomics at each memory scope.
 * Prints one line per figure: "name value" (or "name NA" with a "# name: why"
 * line); *_gbps and *_mops are higher is better, *_us lower. Every figure is
 * checked against the host before it is printed: a wrong result prints NA.
 * Groups can be named on the command line (see `groups` below).
 * Build: cc -O2 sync_bench.c -lOpenCL -lpthread -lm */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static cl_context ctx;
static cl_device_id dev;
static cl_command_queue q;

/* ----------------------------------------------------- figures and failure */

/* The figures of the running group that have not been printed yet: a failure
 * or a timeout prints them as NA, so the table always has its rows. */
#define MAX_FIGS 8
static const char *pending[MAX_FIGS];
static pthread_mutex_t fig_mu = PTHREAD_MUTEX_INITIALIZER;

static void expect(const char *fig)
{
    pthread_mutex_lock(&fig_mu);
    for (int i = 0; i < MAX_FIGS; i++)
        if (!pending[i]) { pending[i] = fig; break; }
    pthread_mutex_unlock(&fig_mu);
}

static void report(const char *fig, const char *fmt, double value)
{
    pthread_mutex_lock(&fig_mu);
    printf("%s ", fig);
    printf(fmt, value);
    printf("\n");
    fflush(stdout);
    for (int i = 0; i < MAX_FIGS; i++)
        if (pending[i] && !strcmp(pending[i], fig)) pending[i] = NULL;
    pthread_mutex_unlock(&fig_mu);
}

/* Prints `fig NA` with the reason (fig NULL: every pending figure). */
static void na(const char *fig, const char *fmt, ...)
{
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&fig_mu);
    for (int i = 0; i < MAX_FIGS; i++) {
        if (!pending[i] || (fig && strcmp(pending[i], fig))) continue;
        printf("%s NA\n# %s: %s\n", pending[i], pending[i], why);
        pending[i] = NULL;
    }
    fflush(stdout);
    pthread_mutex_unlock(&fig_mu);
}

/* A failed OpenCL call ends the group: its figures become NA. */
#define OK(x)                                                                                  \
    do {                                                                                       \
        cl_int e_ = (x);                                                                       \
        if (e_) {                                                                              \
            na(NULL, "%s:%d: %s = %d", __FILE__, __LINE__, #x, e_);                            \
            exit(2);                                                                           \
        }                                                                                      \
    } while (0)

/* --------------------------------------------------------------- watchdog */

/* run.sh runs one group per process, so a hang costs only that group; run by
 * hand with several groups, each group gets its own time limit. */
static double wd_limit_s;
static _Atomic double wd_deadline;

static void *watchdog(void *arg)
{
    (void)arg;
    for (;;) {
        struct timespec t = {0, 100 * 1000 * 1000};
        nanosleep(&t, NULL);
        if (now_s() > wd_deadline) break;
    }
    na(NULL, "timed out after %.0f s (hang?)", wd_limit_s);
    _exit(124);
    return NULL;
}

/* ---------------------------------------------------------------- helpers */

/* The OpenCL C the C11 features are built for: 2.0 where the device has it;
 * OpenCL C 3.0 otherwise, where each feature has its own macro; NULL if the
 * device has neither (OpenCL C 1.x only). */
static const char *c11_std(void)
{
    cl_name_version v[32];
    size_t bytes = 0;
    int has20 = 0, has30 = 0;
    if (clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_ALL_VERSIONS, sizeof v, v, &bytes) == CL_SUCCESS) {
        for (size_t i = 0; i < bytes / sizeof v[0]; i++) {
            has20 |= CL_VERSION_MAJOR(v[i].version) == 2;
            has30 |= CL_VERSION_MAJOR(v[i].version) == 3;
        }
    } else {
        char s[128] = {0};
        clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_VERSION, sizeof s - 1, s, NULL);
        has20 = !strncmp(s, "OpenCL C 2.", 11);
    }
    return has20 ? "-cl-std=CL2.0" : has30 ? "-cl-std=CL3.0" : NULL;
}

/* Builds `src`; on failure prints the first line of the log as the reason
 * for `fig` (NULL: every pending figure) and returns NULL. */
static cl_program build(const char *src, const char *options, const char *fig)
{
    cl_int e;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    OK(e);
    e = clBuildProgram(p, 1, &dev, options, NULL, NULL);
    if (e) {
        char log[4096] = {0};
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        /* The first line naming an error, else the first line; without the
         * file:line: prefix (PoCL names a temp file, new on every run). */
        char *line = strstr(log, "error");
        if (!line) line = log;
        char *end = strchr(line, '\n');
        if (end) *end = 0;
        char *quote = strchr(line, '\''), *colon;
        if (quote) *quote = 0;
        char *msg = line;
        while ((colon = strstr(msg, ": "))) msg = colon + 2;
        if (quote) *quote = '\'';
        line = msg;
        na(fig, "build %s failed (%d): %.200s", options, e, line);
        clReleaseProgram(p);
        return NULL;
    }
    return p;
}

static cl_kernel kernel(cl_program p, const char *name)
{
    cl_int e;
    cl_kernel k = clCreateKernel(p, name, &e);
    OK(e);
    return k;
}

static cl_mem buffer(size_t bytes, const void *init)
{
    cl_int e;
    cl_mem m = clCreateBuffer(ctx, init ? CL_MEM_COPY_HOST_PTR : 0, bytes, (void *)init, &e);
    OK(e);
    return m;
}

static void zero(cl_mem m, size_t bytes)
{
    cl_uchar z = 0;
    OK(clEnqueueFillBuffer(q, m, &z, 1, 0, bytes, 0, NULL, NULL));
    OK(clFinish(q));
}

static double run_ndrange(cl_kernel k, size_t global, size_t local)
{
    double t = now_s();
    OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, local ? &local : NULL, 0, NULL, NULL));
    OK(clFinish(q));
    return now_s() - t;
}

/* A work-group size both the kernel and the figure can use: `want`, or the
 * largest power of two the kernel allows. */
static size_t wg_size(cl_kernel k, size_t want)
{
    size_t max = 0;
    OK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof max, &max, NULL));
    while (want > max) want /= 2;
    return want;
}

#define REPS 3 /* timed runs after one warm-up; each figure is the best */

/* ------------------------------------------- work-group reduction: builtin vs tree */

/* One element per work-item, summed per work-group: what is timed is the
 * reduction across the work-group, not the loads. */
static const char *reduce_src =
    "#ifdef BUILTIN\n"
    "kernel void wg_reduce(global const T *x, global T *out) {\n"
    "  T s = work_group_reduce_add(x[get_global_id(0)]);\n"
    "  if (get_local_id(0) == 0) out[get_group_id(0)] = s; }\n"
    "#else\n"
    "kernel void tree_reduce(global const T *x, global T *out, local T *tmp) {\n"
    "  size_t l = get_local_id(0);\n"
    "  tmp[l] = x[get_global_id(0)];\n"
    "  for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (l < s) tmp[l] += tmp[l + s];\n"
    "  }\n"
    "  if (l == 0) out[get_group_id(0)] = tmp[0]; }\n"
    "#endif\n";

#define REDUCE_N ((size_t)4 << 20) /* 4M elements = 16 MB */
#define REDUCE_WG 256

/* Values whose per-group sums are exact in float whatever the order. */
static int reduce_value(size_t i) { return (int)((cl_uint)(i * 2654435761u) >> 27) - 16; }

static void bench_reduce(const char *kname, int is_float, const char *fig)
{
    expect(fig);
    int builtin = !strcmp(kname, "wg_reduce");
    const char *std = builtin ? c11_std() : "";
    if (builtin) {
        cl_bool collectives = CL_FALSE;
        char ver[128] = {0};
        clGetDeviceInfo(dev, CL_DEVICE_VERSION, sizeof ver - 1, ver, NULL);
        if (strncmp(ver, "OpenCL 3.", 9) == 0)
            clGetDeviceInfo(dev, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT,
                            sizeof collectives, &collectives, NULL);
        else
            collectives = !strncmp(ver, "OpenCL 2.", 9);
        if (!collectives || !std) {
            na(fig, "no work-group collective functions (__opencl_c_work_group_collective_functions)");
            return;
        }
    }
    char opts[96];
    snprintf(opts, sizeof opts, "%s -DT=%s%s", std, is_float ? "float" : "int", builtin ? " -DBUILTIN" : "");
    cl_program p = build(reduce_src, opts, fig);
    if (!p) return;
    cl_kernel k = kernel(p, kname);

    const size_t n = REDUCE_N;
    size_t L = wg_size(k, REDUCE_WG), groups = n / L;
    union { int i; float f; } *h = malloc(n * 4), *o = malloc(groups * 4);
    for (size_t i = 0; i < n; i++) {
        if (is_float) h[i].f = (float)reduce_value(i);
        else h[i].i = reduce_value(i);
    }
    cl_mem x = buffer(n * 4, h), out = buffer(groups * 4, NULL);
    OK(clSetKernelArg(k, 0, sizeof x, &x));
    OK(clSetKernelArg(k, 1, sizeof out, &out));
    if (!builtin) OK(clSetKernelArg(k, 2, L * 4, NULL));
    double best = 1e30;
    for (int r = -1; r < REPS; r++) {
        zero(out, groups * 4);
        double t = run_ndrange(k, n, L);
        if (r >= 0 && t < best) best = t;
        OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, groups * 4, o, 0, NULL, NULL));
        for (size_t g = 0; g < groups; g++) {
            long want = 0;
            for (size_t i = g * L; i < (g + 1) * L; i++) want += reduce_value(i);
            long got = is_float ? (long)o[g].f : o[g].i;
            if (got != want || (is_float && o[g].f != (float)want)) {
                na(fig, "group %zu summed to %ld, expected %ld", g, got, want);
                goto out;
            }
        }
    }
    if (L != REDUCE_WG) printf("# %s: work-group size %zu\n", fig, L);
    report(fig, "%.3f", 4.0 * n / best / 1e9);
out:
    clReleaseMemObject(x);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
    free(h);
    free(o);
}

static void wg_reduce_int(void) { bench_reduce("wg_reduce", 0, "wg_reduce_int_gbps"); }
static void tree_reduce_int(void) { bench_reduce("tree_reduce", 0, "tree_reduce_int_gbps"); }
static void wg_reduce_float(void) { bench_reduce("wg_reduce", 1, "wg_reduce_float_gbps"); }
static void tree_reduce_float(void) { bench_reduce("tree_reduce", 1, "tree_reduce_float_gbps"); }

/* ------------------------------------------- 10,000 children: device vs host */

#define CHILDREN 10000
#define CHILD_WI 8 /* work-items of each child NDRange */

/* A child writes its slot: CHILD_WI ints, each its own index + 1. */
static const char *child_src =
    "kernel void child(global int *out, int slot) {\n"
    "  int i = slot * W + (int)get_global_id(0); out[i] = i + 1; }\n";

/* The parent's single work-item enqueues `count` children; a failed
 * enqueue_kernel is counted (fails[0]), CLK_DEVICE_QUEUE_FULL apart (fails[1]). */
static const char *parent_src =
    "kernel void parent(global int *out, global int *fails, int base, int count) {\n"
    "  queue_t q = get_default_queue();\n"
    "  for (int c = 0; c < count; c++) {\n"
    "    int slot = base + c;\n"
    "    int rc = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(W), ^{\n"
    "      int i = slot * W + (int)get_global_id(0); out[i] = i + 1; });\n"
    "    if (rc != CLK_SUCCESS) {\n"
    "      atomic_inc(&fails[0]);\n"
    "      if (rc == CLK_DEVICE_QUEUE_FULL) atomic_inc(&fails[1]);\n"
    "    }\n"
    "  } }\n";

/* Every slot written by exactly the child that owns it. */
static int check_children(cl_mem out, int *h, const char *fig)
{
    OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, (size_t)CHILDREN * CHILD_WI * 4, h, 0, NULL, NULL));
    for (int i = 0; i < CHILDREN * CHILD_WI; i++)
        if (h[i] != i + 1) {
            na(fig, "slot %d of child %d holds %d, expected %d", i % CHILD_WI, i / CHILD_WI, h[i], i + 1);
            return 0;
        }
    return 1;
}

static void enqueue_host(void)
{
    const char *fig = "host_enqueue_us_per_child";
    expect(fig);
    char opts[32];
    snprintf(opts, sizeof opts, "-DW=%d", CHILD_WI);
    cl_program p = build(child_src, opts, fig);
    if (!p) return;
    cl_kernel k = kernel(p, "child");
    size_t bytes = (size_t)CHILDREN * CHILD_WI * 4, global = CHILD_WI;
    int *h = malloc(bytes);
    cl_mem out = buffer(bytes, NULL);
    OK(clSetKernelArg(k, 0, sizeof out, &out));
    double best = 1e30;
    for (int r = -1; r < REPS; r++) {
        zero(out, bytes);
        double t = now_s();
        for (cl_int slot = 0; slot < CHILDREN; slot++) {
            OK(clSetKernelArg(k, 1, sizeof slot, &slot));
            OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
        }
        OK(clFinish(q));
        t = now_s() - t;
        if (r >= 0 && t < best) best = t;
        if (!check_children(out, h, fig)) goto out;
    }
    report(fig, "%.3f", best / CHILDREN * 1e6);
out:
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
    free(h);
}

static void enqueue_device(void)
{
    const char *fig = "device_enqueue_us_per_child";
    expect(fig);
    cl_device_device_enqueue_capabilities caps = 0;
    const char *std = c11_std();
    clGetDeviceInfo(dev, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof caps, &caps, NULL);
    if (!(caps & CL_DEVICE_QUEUE_SUPPORTED) || !std) {
        na(fig, "no device-side enqueue (CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES = %#llx)",
           (unsigned long long)caps);
        return;
    }
    cl_uint max_size = 0;
    OK(clGetDeviceInfo(dev, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, sizeof max_size, &max_size, NULL));
    /* A smaller queue on request, to try the batches below. */
    const char *size = getenv("SYNC_BENCH_QUEUE_SIZE");
    if (size && atol(size) > 0 && (cl_uint)atol(size) < max_size) max_size = (cl_uint)atol(size);
    cl_queue_properties props[] = {
        CL_QUEUE_PROPERTIES,
        CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
        CL_QUEUE_SIZE, max_size, 0};
    cl_int e;
    cl_command_queue dq = clCreateCommandQueueWithProperties(ctx, dev, props, &e);
    if (!dq) {
        na(fig, "on-device queue of %u bytes: error %d", max_size, e);
        return;
    }
    printf("# %s: on-device queue of %u bytes\n", fig, max_size);
    char opts[48];
    snprintf(opts, sizeof opts, "%s -DW=%d", std, CHILD_WI);
    cl_program p = build(parent_src, opts, fig);
    if (!p) return;
    cl_kernel k = kernel(p, "parent");
    size_t bytes = (size_t)CHILDREN * CHILD_WI * 4, one = 1;
    int *h = malloc(bytes);
    cl_mem out = buffer(bytes, NULL), fails = buffer(2 * sizeof(cl_int), NULL);
    OK(clSetKernelArg(k, 0, sizeof out, &out));
    OK(clSetKernelArg(k, 1, sizeof fails, &fails));
    /* All 10,000 from one parent if the queue holds them; if it is full,
     * several parents one after the other, each enqueueing a batch. */
    cl_int batch = CHILDREN;
    double best = 1e30;
    for (int r = -1; r < REPS; r++) {
        zero(out, bytes);
        zero(fails, 2 * sizeof(cl_int));
        double t = now_s();
        cl_event last = NULL;
        for (cl_int base = 0; base < CHILDREN; base += batch) {
            cl_int count = CHILDREN - base < batch ? CHILDREN - base : batch;
            OK(clSetKernelArg(k, 2, sizeof base, &base));
            OK(clSetKernelArg(k, 3, sizeof count, &count));
            if (last) clReleaseEvent(last);
            OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, &last));
        }
        OK(clFinish(q));
        t = now_s() - t;
        cl_int status = 1, f[2];
        OK(clGetEventInfo(last, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
        clReleaseEvent(last);
        OK(clEnqueueReadBuffer(q, fails, CL_TRUE, 0, sizeof f, f, 0, NULL, NULL));
        if (f[0] && f[0] == f[1] && batch > 100) {
            printf("# %s: %d of %d enqueue_kernel calls (parents of %d) found the queue full; "
                   "now batches of %d\n", fig, f[1], CHILDREN, batch, batch / 4);
            batch /= 4;
            r--;
            continue;
        }
        if (f[0] || status != CL_COMPLETE) {
            na(fig, "%d enqueue_kernel calls failed (%d queue full); parent status %d", f[0], f[1],
               status);
            goto out;
        }
        if (r >= 0 && t < best) best = t;
        if (!check_children(out, h, fig)) goto out;
    }
    if (batch != CHILDREN) printf("# %s: %d parents of up to %d children each\n", fig, (CHILDREN + batch - 1) / batch, batch);
    report(fig, "%.3f", best / CHILDREN * 1e6);
out:
    clReleaseMemObject(out);
    clReleaseMemObject(fails);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(dq);
    free(h);
}

/* ------------------------------------------------------ contended atomics */

/* Every work-item takes a ticket from one counter; tickets[old] marks the
 * ticket as handed out, so the host checks both the final count and that no
 * two work-items got the same value. Using the result also keeps a compiler
 * from folding a group's increments into one. */
static const char *atomics_src =
    "#ifdef C11\n"
    "kernel void global_c11(volatile global atomic_uint *c, global uchar *tickets) {\n"
    "  uint old = atomic_fetch_add_explicit(c, 1u, memory_order_relaxed, SCOPE);\n"
    "  tickets[old] = 1; }\n"
    "kernel void local_c11(global uint *counts, global uchar *tickets) {\n"
    "  local atomic_uint c;\n"
    "  if (get_local_id(0) == 0) atomic_init(&c, 0u);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  uint old = atomic_fetch_add_explicit(&c, 1u, memory_order_relaxed, memory_scope_work_group);\n"
    "  tickets[get_group_id(0) * get_local_size(0) + old] = 1;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (get_local_id(0) == 0)\n"
    "    counts[get_group_id(0)] = atomic_load_explicit(&c, memory_order_relaxed, memory_scope_work_group); }\n"
    "#else\n"
    "kernel void global_legacy(volatile global uint *c, global uchar *tickets) {\n"
    "  tickets[atomic_add(c, 1u)] = 1; }\n"
    "kernel void local_legacy(global uint *counts, global uchar *tickets) {\n"
    "  local uint c;\n"
    "  if (get_local_id(0) == 0) c = 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  tickets[get_group_id(0) * get_local_size(0) + atomic_add(&c, 1u)] = 1;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (get_local_id(0) == 0) counts[get_group_id(0)] = c; }\n"
    "#endif\n";

#define ATOMIC_N ((size_t)4 << 20) /* work-items, one atomic op each */
#define ATOMIC_WG 256

/* kname: global_c11, global_legacy, local_c11 or local_legacy; scope: the
 * memory_scope_* of global_c11; svm: the counter lives in fine-grain SVM
 * with atomics (when the device has it). */
static void bench_atomic(const char *kname, const char *scope, int svm, const char *fig)
{
    expect(fig);
    int c11 = strstr(kname, "c11") != NULL, local = !strncmp(kname, "local", 5);
    char opts[160] = "";
    if (c11) {
        const char *std = c11_std();
        if (!std) {
            na(fig, "no OpenCL C 2.0 or 3.0 (C11 atomics)");
            return;
        }
        snprintf(opts, sizeof opts, "%s -DC11 -DSCOPE=%s", std, scope ? scope : "memory_scope_device");
    }
    cl_program p = build(atomics_src, opts, fig);
    if (!p) return;
    cl_kernel k = kernel(p, kname);

    const size_t n = ATOMIC_N;
    size_t L = wg_size(k, ATOMIC_WG), groups = n / L;
    cl_uint *counts = malloc(groups * 4), *svm_counter = NULL;
    unsigned char *seen = malloc(n);
    cl_mem tickets = buffer(n, NULL), counter = NULL;
    if (svm) {
        cl_device_svm_capabilities caps = 0;
        clGetDeviceInfo(dev, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL);
        if (caps & CL_DEVICE_SVM_ATOMICS)
            svm_counter = clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
                                     4, 0);
        if (!svm_counter) printf("# %s: counter in a plain buffer (no fine-grain SVM atomics)\n", fig);
    }
    if (svm_counter)
        OK(clSetKernelArgSVMPointer(k, 0, svm_counter));
    else {
        counter = buffer(local ? groups * 4 : 4, NULL);
        OK(clSetKernelArg(k, 0, sizeof counter, &counter));
    }
    OK(clSetKernelArg(k, 1, sizeof tickets, &tickets));
    double best = 1e30;
    for (int r = -1; r < REPS; r++) {
        zero(tickets, n);
        if (svm_counter) *svm_counter = 0;
        else zero(counter, local ? groups * 4 : 4);
        double t = run_ndrange(k, n, L);
        if (r >= 0 && t < best) best = t;
        OK(clEnqueueReadBuffer(q, tickets, CL_TRUE, 0, n, seen, 0, NULL, NULL));
        if (svm_counter) counts[0] = *svm_counter;
        else OK(clEnqueueReadBuffer(q, counter, CL_TRUE, 0, local ? groups * 4 : 4, counts, 0, NULL, NULL));
        for (size_t g = 0; g < (local ? groups : 1); g++)
            if (counts[g] != (local ? L : n)) {
                na(fig, "counter %zu ended at %u, expected %zu", g, counts[g], local ? L : n);
                goto out;
            }
        for (size_t i = 0; i < n; i++)
            if (seen[i] != 1) {
                na(fig, "ticket %zu never handed out (another handed out twice)", i);
                goto out;
            }
    }
    report(fig, "%.1f", n / best / 1e6);
out:
    if (counter) clReleaseMemObject(counter);
    if (svm_counter) clSVMFree(ctx, svm_counter);
    clReleaseMemObject(tickets);
    clReleaseKernel(k);
    clReleaseProgram(p);
    free(counts);
    free(seen);
}

static void atomic_wg(void) { bench_atomic("global_c11", "memory_scope_work_group", 0, "atomic_scope_work_group_mops"); }
static void atomic_device(void) { bench_atomic("global_c11", "memory_scope_device", 0, "atomic_scope_device_mops"); }
static void atomic_svm(void) { bench_atomic("global_c11", "memory_scope_all_svm_devices", 1, "atomic_scope_all_svm_devices_mops"); }
static void atomic_legacy(void) { bench_atomic("global_legacy", NULL, 0, "atomic_add_legacy_mops"); }
static void atomic_local_c11(void) { bench_atomic("local_c11", NULL, 0, "atomic_local_c11_mops"); }
static void atomic_local_legacy(void) { bench_atomic("local_legacy", NULL, 0, "atomic_local_legacy_mops"); }

/* ------------------------------------------------------------------ main */

struct group { const char *name; void (*run)(void); };
static const struct group groups[] = {
    {"wg_reduce_int", wg_reduce_int}, {"tree_reduce_int", tree_reduce_int},
    {"wg_reduce_float", wg_reduce_float}, {"tree_reduce_float", tree_reduce_float},
    {"enqueue_device", enqueue_device}, {"enqueue_host", enqueue_host},
    {"atomic_wg", atomic_wg}, {"atomic_device", atomic_device}, {"atomic_svm", atomic_svm},
    {"atomic_legacy", atomic_legacy}, {"atomic_local_c11", atomic_local_c11},
    {"atomic_local_legacy", atomic_local_legacy}, {NULL, NULL},
};

int main(int argc, char **argv)
{
    const char *limit = getenv("SCHED_BENCH_TIMEOUT");
    wd_limit_s = limit && atof(limit) > 0 ? atof(limit) : 60;
    wd_deadline = now_s() + wd_limit_s;
    pthread_t wd;
    pthread_create(&wd, NULL, watchdog, NULL);

    cl_platform_id plat;
    cl_int e;
    OK(clGetPlatformIDs(1, &plat, NULL));
    OK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
    char name[256];
    clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof name, name, NULL);
    printf("# platform: %s\n", name);
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    OK(e);
    q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &e);
    OK(e);
    for (const struct group *g = groups; g->name; g++) {
        int wanted = argc < 2;
        for (int a = 1; a < argc; a++) wanted |= !strcmp(argv[a], g->name);
        if (wanted) {
            wd_deadline = now_s() + wd_limit_s;
            g->run();
        }
    }
    fflush(stdout);
    return 0;
}
