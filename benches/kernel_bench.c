/* Kernel throughput: a vector add of 16M floats (GB/s counted as
 * 3 arrays x 4 bytes x n / time) and a naive 512x512 SGEMM (GFLOP/s), each the
 * best of several timed runs after a warm-up, on the first device of the
 * first platform the ICD loader offers. Results are checked against the host.
 *
 *   cc -O2 -o /tmp/kernel_bench benches/kernel_bench.c -lOpenCL
 *   OCL_ICD_VENDORS=target/release/libferrocl.so /tmp/kernel_bench
 *
 * Prints `name value` lines. Optional argument: the vadd local size (0 =
 * NULL, the runtime chooses; the default). */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(x)                                                                      \
    do {                                                                              \
        cl_int e_ = (x);                                                              \
        if (e_ != CL_SUCCESS) {                                                       \
            fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, (int)e_);      \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

static const char *SRC =
    "__kernel void vadd(__global const float *a, __global const float *b,\n"
    "                   __global float *c) {\n"
    "    size_t i = get_global_id(0);\n"
    "    c[i] = a[i] + b[i];\n"
    "}\n"
    "__kernel void sgemm(int n, __global const float *A, __global const float *B,\n"
    "                    __global float *C) {\n"
    "    int col = get_global_id(0), row = get_global_id(1);\n"
    "    float acc = 0.0f;\n"
    "    for (int k = 0; k < n; k++) acc += A[row * n + k] * B[k * n + col];\n"
    "    C[row * n + col] = acc;\n"
    "}\n";

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* Best wall time of `reps` runs of the kernel (after one warm-up). */
static double best_time(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *g,
                        const size_t *l, int reps) {
    double best = 1e30;
    for (int r = -1; r < reps; r++) {
        double t = now();
        CHECK(clEnqueueNDRangeKernel(q, k, dims, NULL, g, l, 0, NULL, NULL));
        CHECK(clFinish(q));
        t = now() - t;
        if (r >= 0 && t < best) best = t;
    }
    return best;
}

int main(int argc, char **argv) {
    size_t vlocal = argc > 1 ? (size_t)atol(argv[1]) : 0;
    cl_platform_id p;
    cl_device_id d;
    cl_int err;
    char name[256];
    CHECK(clGetPlatformIDs(1, &p, NULL));
    CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
    CHECK(clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, NULL));
    printf("# platform %s\n", name);
    cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, d, NULL, &err);
    CHECK(err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &SRC, NULL, &err);
    CHECK(err);
    CHECK(clBuildProgram(prog, 1, &d, "", NULL, NULL));

    /* Vector add. */
    size_t n = 16u << 20;
    float *ha = malloc(n * 4), *hb = malloc(n * 4), *hc = malloc(n * 4);
    for (size_t i = 0; i < n; i++) {
        ha[i] = (float)(i % 1000);
        hb[i] = (float)(i % 7);
    }
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, ha, &err);
    CHECK(err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, hb, &err);
    CHECK(err);
    cl_mem c = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * 4, NULL, &err);
    CHECK(err);
    cl_kernel vadd = clCreateKernel(prog, "vadd", &err);
    CHECK(err);
    CHECK(clSetKernelArg(vadd, 0, sizeof a, &a));
    CHECK(clSetKernelArg(vadd, 1, sizeof b, &b));
    CHECK(clSetKernelArg(vadd, 2, sizeof c, &c));
    double t = best_time(q, vadd, 1, &n, vlocal ? &vlocal : NULL, 10);
    CHECK(clEnqueueReadBuffer(q, c, CL_TRUE, 0, n * 4, hc, 0, NULL, NULL));
    for (size_t i = 0; i < n; i++)
        if (hc[i] != ha[i] + hb[i]) {
            fprintf(stderr, "vadd: c[%zu] = %g\n", i, hc[i]);
            return 1;
        }
    printf("vadd_16M_ms %.3f\n", t * 1e3);
    printf("vadd_16M_GBps %.2f\n", 3.0 * 4 * n / t / 1e9);

    /* Naive SGEMM. */
    int m = 512;
    size_t mm = (size_t)m * m;
    float *hA = malloc(mm * 4), *hB = malloc(mm * 4), *hC = malloc(mm * 4);
    for (size_t i = 0; i < mm; i++) {
        hA[i] = (float)((i * 7) % 13) - 6;
        hB[i] = (float)((i * 5) % 11) - 5;
    }
    cl_mem A = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, mm * 4, hA, &err);
    CHECK(err);
    cl_mem B = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, mm * 4, hB, &err);
    CHECK(err);
    cl_mem C = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, mm * 4, NULL, &err);
    CHECK(err);
    cl_kernel sgemm = clCreateKernel(prog, "sgemm", &err);
    CHECK(err);
    CHECK(clSetKernelArg(sgemm, 0, sizeof m, &m));
    CHECK(clSetKernelArg(sgemm, 1, sizeof A, &A));
    CHECK(clSetKernelArg(sgemm, 2, sizeof B, &B));
    CHECK(clSetKernelArg(sgemm, 3, sizeof C, &C));
    size_t g2[2] = {(size_t)m, (size_t)m}, l2[2] = {64, 4};
    t = best_time(q, sgemm, 2, g2, l2, 5);
    CHECK(clEnqueueReadBuffer(q, C, CL_TRUE, 0, mm * 4, hC, 0, NULL, NULL));
    for (int r = 0; r < m; r += 37)
        for (int col = 0; col < m; col += 17) {
            float acc = 0;
            for (int k = 0; k < m; k++) acc += hA[r * m + k] * hB[k * m + col];
            if (fabsf(acc - hC[r * m + col]) > 1e-3f * (1 + fabsf(acc))) {
                fprintf(stderr, "sgemm: C[%d][%d] = %g, want %g\n", r, col, hC[r * m + col], acc);
                return 1;
            }
        }
    printf("sgemm_512_ms %.3f\n", t * 1e3);
    printf("sgemm_512_GFLOPs %.2f\n", 2.0 * m * m * m / t / 1e9);
    return 0;
}
