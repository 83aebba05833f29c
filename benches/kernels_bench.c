/* kernels_bench: OpenCL C kernels on the first platform the loader offers
 * (pick it with OCL_ICD_VENDORS), beside plain C on the same machine.
 * Prints one line per figure: "name value"; *_gbps and *_gflops are higher
 * is better, *_ms lower. Groups can be named on the command line.
 * Build: cc -O3 -march=native -ffast-math kernels_bench.c -lOpenCL -lpthread -lm */
#define CL_TARGET_OPENCL_VERSION 300
#define _GNU_SOURCE
#include <CL/cl.h>
#include <sched.h>
#include <math.h>
#include <pthread.h>
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

#define DIE(...) do { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); exit(2); } while (0)
#define OK(x) do { cl_int e_ = (x); if (e_) DIE("%s:%d: %s = %d", __FILE__, __LINE__, #x, e_); } while (0)

static cl_program build(const char *src, double *seconds)
{
    cl_int e;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    OK(e);
    double t = now_s();
    e = clBuildProgram(p, 1, &dev, "", NULL, NULL);
    if (seconds) *seconds = now_s() - t;
    if (e) {
        char log[16384] = {0};
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        DIE("build failed %d:\n%s", e, log);
    }
    return p;
}

static cl_kernel kernel(const char *src, const char *name)
{
    cl_int e;
    cl_kernel k = clCreateKernel(build(src, NULL), name, &e);
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

/* Best time of `reps` runs of an NDRange, after one warm-up run. */
/* Best of `reps` timed runs (times KERNEL_BENCH_REPS, default 1: more
 * rounds for profiling or a noisy machine). */
static double time_ndrange(cl_kernel k, cl_uint dim, const size_t *g, const size_t *l, int reps)
{
    const char *scale = getenv("KERNEL_BENCH_REPS");
    if (scale && atoi(scale) > 1) reps *= atoi(scale);
    double best = 1e30;
    for (int r = -1; r < reps; r++) {
        double t = now_s();
        OK(clEnqueueNDRangeKernel(q, k, dim, NULL, g, l, 0, NULL, NULL));
        OK(clFinish(q));
        t = now_s() - t;
        if (r >= 0 && t < best) best = t;
    }
    return best;
}

/* ---------------------------------------------------------- plain C side */

/* The plain C side runs on as many threads as the process may use (taskset
 * picks them), so the STREAM figure matches the cores the runtime gets. */
#define MAX_THREADS 1024
static int THREADS = 2;

static int usable_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 2;
    int n = CPU_COUNT(&set);
    return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : n;
}
struct span { size_t lo, hi; float *a, *b, *c; };

static void *add_part(void *p)
{
    struct span *s = p;
    for (size_t i = s->lo; i < s->hi; i++) s->c[i] = s->a[i] + s->b[i];
    return NULL;
}

static double stream_add_gbps(size_t n)
{
    float *a = aligned_alloc(64, n * 4), *b = aligned_alloc(64, n * 4), *c = aligned_alloc(64, n * 4);
    for (size_t i = 0; i < n; i++) { a[i] = 1; b[i] = 2; c[i] = 0; }
    double best = 1e30;
    for (int r = 0; r < 6; r++) {
        pthread_t th[MAX_THREADS];
        struct span s[MAX_THREADS];
        double t = now_s();
        for (int i = 0; i < THREADS; i++) {
            s[i] = (struct span){n * i / THREADS, n * (i + 1) / THREADS, a, b, c};
            pthread_create(&th[i], NULL, add_part, &s[i]);
        }
        for (int i = 0; i < THREADS; i++) pthread_join(th[i], NULL);
        t = now_s() - t;
        if (t < best) best = t;
    }
    free(a); free(b); free(c);
    return 12.0 * n / best / 1e9;
}

struct body_span { int lo, hi, n; const float *pos; float *acc; };

static void *nbody_part(void *p)
{
    struct body_span *s = p;
    for (int i = s->lo; i < s->hi; i++) {
        float ax = 0, ay = 0, az = 0;
        float xi = s->pos[4 * i], yi = s->pos[4 * i + 1], zi = s->pos[4 * i + 2];
        for (int j = 0; j < s->n; j++) {
            float dx = s->pos[4 * j] - xi, dy = s->pos[4 * j + 1] - yi, dz = s->pos[4 * j + 2] - zi;
            float d2 = dx * dx + dy * dy + dz * dz + 0.01f;
            float inv = 1.0f / sqrtf(d2);
            float f = s->pos[4 * j + 3] * inv * inv * inv;
            ax += f * dx; ay += f * dy; az += f * dz;
        }
        s->acc[4 * i] = ax; s->acc[4 * i + 1] = ay; s->acc[4 * i + 2] = az; s->acc[4 * i + 3] = 0;
    }
    return NULL;
}

#define NBODY_FLOPS 20.0

static double native_nbody_gflops(int n, const float *pos)
{
    float *acc = malloc((size_t)n * 16);
    double best = 1e30;
    for (int r = 0; r < 3; r++) {
        pthread_t th[MAX_THREADS];
        struct body_span s[MAX_THREADS];
        double t = now_s();
        for (int i = 0; i < THREADS; i++) {
            s[i] = (struct body_span){n * i / THREADS, n * (i + 1) / THREADS, n, pos, acc};
            pthread_create(&th[i], NULL, nbody_part, &s[i]);
        }
        for (int i = 0; i < THREADS; i++) pthread_join(th[i], NULL);
        t = now_s() - t;
        if (t < best) best = t;
    }
    free(acc);
    return NBODY_FLOPS * n * (double)n / best / 1e9;
}

/* ------------------------------------------------------------ kernels */

static const char *vadd_src =
    "kernel void vadd(global const float *a, global const float *b, global float *c) {\n"
    "  size_t i = get_global_id(0); c[i] = a[i] + b[i]; }\n";

static void bench_vadd(void)
{
    /* KERNEL_BENCH_VADD_MI: Mi floats per vector (default 16; 64 for the
     * many-core runs, beyond a server's last-level cache). */
    const char *mi = getenv("KERNEL_BENCH_VADD_MI");
    const size_t n = (size_t)(mi && atoi(mi) > 0 ? atoi(mi) : 16) << 20;
    float *h = malloc(n * 4);
    for (size_t i = 0; i < n; i++) h[i] = (float)(i & 1023);
    cl_mem a = buffer(n * 4, h), b = buffer(n * 4, h), c = buffer(n * 4, NULL);
    cl_kernel k = kernel(vadd_src, "vadd");
    OK(clSetKernelArg(k, 0, sizeof a, &a));
    OK(clSetKernelArg(k, 1, sizeof b, &b));
    OK(clSetKernelArg(k, 2, sizeof c, &c));
    size_t g = n;
    double t = time_ndrange(k, 1, &g, NULL, 6);
    OK(clEnqueueReadBuffer(q, c, CL_TRUE, 0, n * 4, h, 0, NULL, NULL));
    if (h[1000] != 2.0f * (1000 & 1023)) DIE("vadd wrong");
    printf("vadd_gbps %.2f\n", 12.0 * n / t / 1e9);
    printf("stream_add_gbps %.2f\n", stream_add_gbps(n));
    clReleaseMemObject(a); clReleaseMemObject(b); clReleaseMemObject(c);
    free(h);
}

static const char *sgemm_src =
    "kernel void naive(int n, global const float *A, global const float *B, global float *C) {\n"
    "  int i = get_global_id(1), j = get_global_id(0); float s = 0;\n"
    "  for (int k = 0; k < n; k++) s += A[i * n + k] * B[k * n + j];\n"
    "  C[i * n + j] = s; }\n"
    "#define T 16\n"
    "kernel void tiled(int n, global const float *A, global const float *B, global float *C) {\n"
    "  local float a[T][T], b[T][T];\n"
    "  int li = get_local_id(1), lj = get_local_id(0), i = get_global_id(1), j = get_global_id(0);\n"
    "  float s = 0;\n"
    "  for (int t = 0; t < n; t += T) {\n"
    "    a[li][lj] = A[i * n + t + lj]; b[li][lj] = B[(t + li) * n + j];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int k = 0; k < T; k++) s += a[li][k] * b[k][lj];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  C[i * n + j] = s; }\n";

static void bench_sgemm(const char *name, const char *figure)
{
    const int n = 1024;
    float *h = malloc((size_t)n * n * 4);
    for (int i = 0; i < n * n; i++) h[i] = (float)((i * 7) % 13) * 0.25f;
    cl_mem A = buffer((size_t)n * n * 4, h), B = buffer((size_t)n * n * 4, h), C = buffer((size_t)n * n * 4, NULL);
    cl_kernel k = kernel(sgemm_src, name);
    OK(clSetKernelArg(k, 0, sizeof n, &n));
    OK(clSetKernelArg(k, 1, sizeof A, &A));
    OK(clSetKernelArg(k, 2, sizeof B, &B));
    OK(clSetKernelArg(k, 3, sizeof C, &C));
    size_t g[2] = {n, n}, l[2] = {16, 16};
    double t = time_ndrange(k, 2, g, l, 1);
    OK(clEnqueueReadBuffer(q, C, CL_TRUE, 0, (size_t)n * n * 4, h, 0, NULL, NULL));
    /* Row 3, column 5 against the host. */
    double want = 0;
    for (int kk = 0; kk < n; kk++)
        want += (double)(((3 * n + kk) * 7) % 13) * 0.25 * ((double)(((kk * n + 5) * 7) % 13) * 0.25);
    if (fabs(h[3 * n + 5] - want) > 1e-3 * fabs(want)) DIE("%s wrong: %f vs %f", name, h[3 * n + 5], want);
    printf("%s %.2f\n", figure, 2.0 * n * n * (double)n / t / 1e9);
    clReleaseMemObject(A); clReleaseMemObject(B); clReleaseMemObject(C);
    free(h);
}

static const char *reduce_src =
    "kernel void reduce(global const float *x, global float *out, local float *tmp) {\n"
    "  size_t l = get_local_id(0);\n"
    "  tmp[l] = x[get_global_id(0)];\n"
    "  for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (l < s) tmp[l] += tmp[l + s];\n"
    "  }\n"
    "  if (l == 0) out[get_group_id(0)] = tmp[0]; }\n";

static void bench_reduce(void)
{
    const size_t n = 16 << 20, L = 256;
    float *h = malloc(n * 4);
    for (size_t i = 0; i < n; i++) h[i] = 1.0f;
    cl_mem x = buffer(n * 4, h), o = buffer(n / L * 4, NULL);
    cl_kernel k = kernel(reduce_src, "reduce");
    OK(clSetKernelArg(k, 0, sizeof x, &x));
    OK(clSetKernelArg(k, 1, sizeof o, &o));
    OK(clSetKernelArg(k, 2, L * 4, NULL));
    size_t g = n;
    double t = time_ndrange(k, 1, &g, &L, 3);
    OK(clEnqueueReadBuffer(q, o, CL_TRUE, 0, 4, h, 0, NULL, NULL));
    if (h[0] != (float)L) DIE("reduce wrong: %f", h[0]);
    printf("reduce_gbps %.3f\n", 4.0 * n / t / 1e9);
    clReleaseMemObject(x); clReleaseMemObject(o);
    free(h);
}

static const char *hist_src =
    "kernel void hist(global const uchar *x, global uint *bins) {\n"
    "  atomic_inc(&bins[x[get_global_id(0)]]); }\n";

static void bench_histogram(void)
{
    const size_t n = 16 << 20;
    unsigned char *h = malloc(n);
    for (size_t i = 0; i < n; i++) h[i] = (unsigned char)((i * 2654435761u) >> 24);
    cl_mem x = buffer(n, h), bins = buffer(256 * 4, NULL);
    cl_kernel k = kernel(hist_src, "hist");
    OK(clSetKernelArg(k, 0, sizeof x, &x));
    OK(clSetKernelArg(k, 1, sizeof bins, &bins));
    size_t g = n;
    cl_uint zero = 0;
    double best = 1e30;
    for (int r = -1; r < 3; r++) {
        OK(clEnqueueFillBuffer(q, bins, &zero, 4, 0, 256 * 4, 0, NULL, NULL));
        OK(clFinish(q));
        double t = now_s();
        OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
        OK(clFinish(q));
        t = now_s() - t;
        if (r >= 0 && t < best) best = t;
    }
    cl_uint b[256];
    OK(clEnqueueReadBuffer(q, bins, CL_TRUE, 0, sizeof b, b, 0, NULL, NULL));
    size_t total = 0;
    for (int i = 0; i < 256; i++) total += b[i];
    if (total != n) DIE("histogram counted %zu of %zu", total, n);
    printf("histogram_gbps %.3f\n", n / best / 1e9);
    clReleaseMemObject(x); clReleaseMemObject(bins);
    free(h);
}

static const char *nbody_src =
    "kernel void nbody(global const float4 *pos, global float4 *acc, int n) {\n"
    "  int i = get_global_id(0); float4 p = pos[i]; float4 a = (float4)(0);\n"
    "  for (int j = 0; j < n; j++) {\n"
    "    float4 d = pos[j] - p; d.w = 0;\n"
    "    float inv = rsqrt(dot(d, d) + 0.01f);\n"
    "    a += pos[j].w * inv * inv * inv * d;\n"
    "  }\n"
    "  acc[i] = a; }\n";

static void bench_nbody(void)
{
    const int n = 8192;
    float *h = malloc((size_t)n * 16);
    for (int i = 0; i < 4 * n; i++) h[i] = (float)((i * 37) % 101) / 50.0f;
    cl_mem pos = buffer((size_t)n * 16, h), acc = buffer((size_t)n * 16, NULL);
    cl_kernel k = kernel(nbody_src, "nbody");
    OK(clSetKernelArg(k, 0, sizeof pos, &pos));
    OK(clSetKernelArg(k, 1, sizeof acc, &acc));
    OK(clSetKernelArg(k, 2, sizeof n, &n));
    size_t g = n;
    double t = time_ndrange(k, 1, &g, NULL, 2);
    printf("nbody_gflops %.2f\n", NBODY_FLOPS * n * (double)n / t / 1e9);
    printf("native_nbody_gflops %.2f\n", native_nbody_gflops(n, h));
    clReleaseMemObject(pos); clReleaseMemObject(acc);
    free(h);
}

/* The SGEMM source with a function no kernel cache has seen. A comment is
 * not enough: PoCL keys its cache by the preprocessed source, which has no
 * comments, so a fresh comment still hit its cache. */
static void fresh_sgemm_source(char *src, size_t size)
{
    static int serial;
    snprintf(src, size, "int bench_salt_%ld_%d_%d(void) { return 0; }\n%s", (long)time(NULL),
             rand(), serial++, sgemm_src);
}

/* Seconds from clBuildProgram of a fresh SGEMM source until both kernels
 * have run once (16x16 items, one 16x16 work-group) and clFinish returned:
 * what an application waits before its first results. Some implementations
 * (PoCL) only parse in clBuildProgram and compile each kernel at its first
 * enqueue, so clBuildProgram alone does not compare them. */
static double build_and_first_run(void)
{
    const int n = 16;
    float h[16 * 16];
    for (int i = 0; i < n * n; i++) h[i] = (float)(i % 5);
    cl_mem A = buffer(sizeof h, h), B = buffer(sizeof h, h), C = buffer(sizeof h, NULL);
    char src[4096];
    fresh_sgemm_source(src, sizeof src);
    cl_int e;
    cl_program p = clCreateProgramWithSource(ctx, 1, (const char *[]){src}, NULL, &e);
    OK(e);
    double t = now_s();
    OK(clBuildProgram(p, 1, &dev, "", NULL, NULL));
    const char *names[] = {"naive", "tiled"};
    cl_kernel k[2];
    for (int i = 0; i < 2; i++) {
        k[i] = clCreateKernel(p, names[i], &e);
        OK(e);
        OK(clSetKernelArg(k[i], 0, sizeof n, &n));
        OK(clSetKernelArg(k[i], 1, sizeof A, &A));
        OK(clSetKernelArg(k[i], 2, sizeof B, &B));
        OK(clSetKernelArg(k[i], 3, sizeof C, &C));
        size_t g[2] = {16, 16}, l[2] = {16, 16};
        OK(clEnqueueNDRangeKernel(q, k[i], 2, NULL, g, l, 0, NULL, NULL));
    }
    OK(clFinish(q));
    t = now_s() - t;
    float out[16 * 16];
    OK(clEnqueueReadBuffer(q, C, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    float want = 0;
    for (int kk = 0; kk < n; kk++) want += h[3 * n + kk] * h[kk * n + 5];
    if (out[3 * n + 5] != want) DIE("first run wrong: %f vs %f", out[3 * n + 5], want);
    for (int i = 0; i < 2; i++) clReleaseKernel(k[i]);
    clReleaseProgram(p);
    clReleaseMemObject(A); clReleaseMemObject(B); clReleaseMemObject(C);
    return t;
}

static void bench_build(void)
{
    /* A source no cache has seen, the same source again, then another
     * unseen source: the process's second cold build, which no longer pays
     * any one-time compiler start-up (loading LLVM). */
    char src[4096], src2[4096];
    fresh_sgemm_source(src, sizeof src);
    fresh_sgemm_source(src2, sizeof src2);
    double cold, cached, again;
    cl_program p = build(src, &cold);
    cl_program p2 = build(src, &cached);
    cl_program p3 = build(src2, &again);
    printf("build_cold_ms %.1f\nbuild_cached_ms %.2f\nbuild_cold_again_ms %.1f\n", cold * 1e3,
           cached * 1e3, again * 1e3);
    clReleaseProgram(p); clReleaseProgram(p2); clReleaseProgram(p3);
}

/* Its own group (run.sh runs each group in a fresh process), so that it
 * pays any one-time compiler start-up like build_cold_ms does. */
static void bench_build_first_run(void)
{
    printf("build_cold_first_run_ms %.1f\n", build_and_first_run() * 1e3);
}

struct group { const char *name; void (*run)(void); };
static void sgemm_naive(void) { bench_sgemm("naive", "sgemm_naive_gflops"); }
static void sgemm_tiled(void) { bench_sgemm("tiled", "sgemm_tiled_gflops"); }
static const struct group groups[] = {
    {"vadd", bench_vadd}, {"sgemm_naive", sgemm_naive}, {"sgemm_tiled", sgemm_tiled},
    {"reduce", bench_reduce}, {"histogram", bench_histogram}, {"nbody", bench_nbody},
    {"build", bench_build}, {"build_first_run", bench_build_first_run}, {NULL, NULL},
};

int main(int argc, char **argv)
{
    srand((unsigned)time(NULL) ^ (unsigned)getpid());
    THREADS = usable_cpus();
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
            g->run();
            fflush(stdout);
        }
    }
    return 0;
}
