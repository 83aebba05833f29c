/* basic: the loop shapes issue 13's compiler passes rewrite, checked
 * against the host on ragged sizes, optimized and with -cl-opt-disable:
 * - a grid-stride loop (PyOpenCL's elementwise kernels: `for (i = start +
 *   lid; i < n; i += global_size)`; grid_stride_loops.cpp), with n not a
 *   multiple of the global size, and one starting at get_global_id(0)
 *   under a global offset;
 * - PolyBench's gemm: a loop accumulating in memory behind `if (i < ni &&
 *   j < nj)` (loops_out_of_guards.cpp), sizes not multiples of the group's,
 *   runtime-sized groups too; and a serial loop behind `if (id == 0)`;
 * - Rodinia's gaussian Fan2, contiguous along y (contiguous_dimension.h),
 *   with runtime-sized and given groups;
 * - bounds checks and equality tests on an int index that wraps around
 *   inside a group (bounds_checks_as_ranges.cpp);
 * - Rodinia's kmeans: a loop over features inside a loop over clusters,
 *   both behind the point's bounds check (both get implicit barriers), and
 *   a loop behind a check that changes with the outer loop's iteration
 *   (the guard's flag is set again in each);
 * - PolyBench's syrk and a row sum kept in memory: inner loops walking
 *   each work-item's row, run eight work-items at a time
 *   (interleave_work_items.cpp), with bounds checks failing inside a group
 *   of eight, groups narrower than eight, runtime-sized groups, and a sum
 *   kept in the very row it walks (the same buffer passed twice: the
 *   run-time overlap test takes the loop that keeps it in memory);
 * - kernels that are wide vector code (scalarize_kernels.cpp): clpeak's
 *   float16 bandwidth loop, and int16s exchanged through local memory
 *   across a barrier, which keep their own vectors.
 * Values are small integers in floats: every sum is exact. */
#include "harness.h"
#include <string.h>

static cl_kernel build_kernel(cl_context c, const char *src, const char *name,
                              const char *options, cl_program *p)
{
    *p = h_build(c, src, options);
    if (!*p) {
        h_fail_at(__FILE__, __LINE__, "%s: build with '%s' failed", name, options);
        return NULL;
    }
    cl_int e;
    cl_kernel k = clCreateKernel(*p, name, &e);
    if (e != CL_SUCCESS)
        h_fail_at(__FILE__, __LINE__, "%s: clCreateKernel: %s", name, h_err(e));
    return k;
}

static cl_mem buffer(cl_context c, size_t bytes, void *host)
{
    cl_int e;
    return clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, host, &e);
}

/* A test's kernels (either may be NULL: its build failed) and program. */
static void release_kernels(cl_kernel first, cl_kernel second, cl_program p)
{
    if (second)
        clReleaseKernel(second);
    if (first) {
        clReleaseKernel(first);
        clReleaseProgram(p);
    }
}

static const char *stride_src =
    "kernel void lin_comb(float a, global float *x, float b, global float *y,\n"
    "                     global float *z, long n) {\n"
    "    int lid = get_local_id(0);\n"
    "    int gsize = get_global_size(0);\n"
    "    int work_group_start = get_local_size(0) * get_group_id(0);\n"
    "    long i;\n"
    "    for (i = work_group_start + lid; i < n; i += gsize)\n"
    "        z[i] = a * x[i] + b * y[i];\n"
    "}\n"
    "kernel void twice(global float *z, ulong n) {\n"
    "    for (size_t i = get_global_id(0); i < n; i += get_global_size(0))\n"
    "        z[i] = 2 * z[i] + 1;\n"
    "}\n";

TEST(grid_stride_loops)
{
    enum { N = 1000 };
    static float x[N], y[N], z[N], w[N];
    for (int i = 0; i < N; i++) x[i] = (float)(i % 17), y[i] = (float)(i % 5);
    const char *options[] = {"", "-cl-opt-disable"};
    size_t shapes[][2] = {{128, 32}, {96, 96}, {64, 1}, {256, 128}};
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    for (int o = 0; o < 2 && !h_failed(); o++) {
        cl_program p;
        cl_kernel k = build_kernel(c, stride_src, "lin_comb", options[o], &p);
        cl_kernel t = k ? clCreateKernel(p, "twice", NULL) : NULL;
        for (size_t s = 0; k && t && s < sizeof shapes / sizeof shapes[0] && !h_failed(); s++) {
            for (int i = 0; i < N; i++) z[i] = -1, w[i] = (float)i;
            cl_mem bx = buffer(c, sizeof x, x), by = buffer(c, sizeof y, y);
            cl_mem bz = buffer(c, sizeof z, z), bw = buffer(c, sizeof w, w);
            float a = 3, b = -2;
            cl_long n = N - 3;
            clSetKernelArg(k, 0, sizeof a, &a);
            clSetKernelArg(k, 1, sizeof bx, &bx);
            clSetKernelArg(k, 2, sizeof b, &b);
            clSetKernelArg(k, 3, sizeof by, &by);
            clSetKernelArg(k, 4, sizeof bz, &bz);
            clSetKernelArg(k, 5, sizeof n, &n);
            CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &shapes[s][0], &shapes[s][1], 0, NULL,
                                            NULL));
            CHECK_OK(clEnqueueReadBuffer(q, bz, CL_TRUE, 0, sizeof z, z, 0, NULL, NULL));
            for (int i = 0; i < N; i++) {
                float want = i < n ? 3 * x[i] - 2 * y[i] : -1;
                if (z[i] != want) {
                    h_fail_at(__FILE__, __LINE__, "lin_comb '%s' global %zu local %zu: z[%d] = %g, expected %g",
                              options[o], shapes[s][0], shapes[s][1], i, z[i], want);
                    break;
                }
            }
            /* From get_global_id(0) under a global offset of 5: elements
             * 5 .. N-1 step by the global size. */
            cl_ulong m = N;
            size_t offset = 5;
            clSetKernelArg(t, 0, sizeof bw, &bw);
            clSetKernelArg(t, 1, sizeof m, &m);
            CHECK_OK(clEnqueueNDRangeKernel(q, t, 1, &offset, &shapes[s][0], &shapes[s][1], 0,
                                            NULL, NULL));
            CHECK_OK(clEnqueueReadBuffer(q, bw, CL_TRUE, 0, sizeof w, w, 0, NULL, NULL));
            for (int i = 0; i < N; i++) {
                float want = i < 5 ? (float)i : 2.0f * i + 1;
                if (w[i] != want) {
                    h_fail_at(__FILE__, __LINE__, "twice '%s' global %zu local %zu: w[%d] = %g, expected %g",
                              options[o], shapes[s][0], shapes[s][1], i, w[i], want);
                    break;
                }
            }
            clReleaseMemObject(bx);
            clReleaseMemObject(by);
            clReleaseMemObject(bz);
            clReleaseMemObject(bw);
        }
        release_kernels(k, t, p);
    }
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

static const char *gemm_src =
    "kernel void gemm(global float *a, global float *b, global float *c, float alpha,\n"
    "                 float beta, int ni, int nj, int nk) {\n"
    "    int j = get_global_id(0);\n"
    "    int i = get_global_id(1);\n"
    "    if ((i < ni) && (j < nj)) {\n"
    "        c[i * nj + j] *= beta;\n"
    "        for (int k = 0; k < nk; k++)\n"
    "            c[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];\n"
    "    }\n"
    "}\n"
    "kernel void serial(global float *a, global float *out, int n) {\n"
    "    if (get_global_id(0) == 0) {\n"
    "        float s = 0;\n"
    "        for (int k = 0; k < n; k++) s += a[k];\n"
    "        out[0] = s;\n"
    "    }\n"
    "}\n";

TEST(loops_behind_bounds_checks)
{
    enum { NI = 13, NJ = 11, NK = 7 };
    static float a[NI * NK], b[NK * NJ], c0[NI * NJ], c[NI * NJ];
    for (int i = 0; i < NI * NK; i++) a[i] = (float)(i % 7 - 3);
    for (int i = 0; i < NK * NJ; i++) b[i] = (float)(i % 5 - 2);
    for (int i = 0; i < NI * NJ; i++) c0[i] = (float)(i % 3);
    const char *options[] = {"", "-cl-opt-disable"};
    cl_context ctx = h_context();
    cl_command_queue q = h_queue(ctx, 0);
    for (int o = 0; o < 2 && !h_failed(); o++) {
        cl_program p;
        cl_kernel k = build_kernel(ctx, gemm_src, "gemm", options[o], &p);
        cl_kernel s = k ? clCreateKernel(p, "serial", NULL) : NULL;
        size_t global[2] = {16, 16}, local[2] = {8, 4};
        for (int shape = 0; k && s && shape < 2 && !h_failed(); shape++) {
            memcpy(c, c0, sizeof c);
            cl_mem ba = buffer(ctx, sizeof a, a), bb = buffer(ctx, sizeof b, b);
            cl_mem bc = buffer(ctx, sizeof c, c);
            float alpha = 2, beta = 3;
            cl_int ni = NI, nj = NJ, nk = NK;
            clSetKernelArg(k, 0, sizeof ba, &ba);
            clSetKernelArg(k, 1, sizeof bb, &bb);
            clSetKernelArg(k, 2, sizeof bc, &bc);
            clSetKernelArg(k, 3, sizeof alpha, &alpha);
            clSetKernelArg(k, 4, sizeof beta, &beta);
            clSetKernelArg(k, 5, sizeof ni, &ni);
            clSetKernelArg(k, 6, sizeof nj, &nj);
            clSetKernelArg(k, 7, sizeof nk, &nk);
            CHECK_OK(clEnqueueNDRangeKernel(q, k, 2, NULL, global, shape ? NULL : local, 0, NULL,
                                            NULL));
            CHECK_OK(clEnqueueReadBuffer(q, bc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
            for (int i = 0; i < NI * NJ && !h_failed(); i++) {
                float want = 3 * c0[i];
                for (int kk = 0; kk < NK; kk++)
                    want += 2 * a[(i / NJ) * NK + kk] * b[kk * NJ + i % NJ];
                if (c[i] != want)
                    h_fail_at(__FILE__, __LINE__, "gemm '%s' %s groups: c[%d][%d] = %g, expected %g",
                              options[o], shape ? "runtime-sized" : "8x4", i / NJ, i % NJ, c[i],
                              want);
            }
            float out = -1, want = 0;
            for (int i = 0; i < NI * NK; i++) want += a[i];
            cl_mem bo = buffer(ctx, sizeof out, &out);
            cl_int n = NI * NK;
            clSetKernelArg(s, 0, sizeof ba, &ba);
            clSetKernelArg(s, 1, sizeof bo, &bo);
            clSetKernelArg(s, 2, sizeof n, &n);
            size_t g1 = 64, l1 = 16;
            CHECK_OK(clEnqueueNDRangeKernel(q, s, 1, NULL, &g1, shape ? NULL : &l1, 0, NULL, NULL));
            CHECK_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof out, &out, 0, NULL, NULL));
            if (out != want)
                h_fail_at(__FILE__, __LINE__, "serial '%s': %g, expected %g", options[o], out, want);
            clReleaseMemObject(ba);
            clReleaseMemObject(bb);
            clReleaseMemObject(bc);
            clReleaseMemObject(bo);
        }
        release_kernels(k, s, p);
    }
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

static const char *fan2_src =
    "kernel void Fan2(global float *m, global float *a, global float *b, const int size,\n"
    "                 const int t) {\n"
    "    int x = get_global_id(0);\n"
    "    int y = get_global_id(1);\n"
    "    if (x < size - 1 - t && y < size - t) {\n"
    "        a[size * (x + 1 + t) + (y + t)] -= m[size * (x + 1 + t) + t] * a[size * t + (y + t)];\n"
    "        if (y == 0)\n"
    "            b[x + 1 + t] -= m[size * (x + 1 + t) + (y + t)] * b[t];\n"
    "    }\n"
    "}\n";

TEST(columns_innermost)
{
    enum { S = 40, T = 3 };
    static float m[S * S], a0[S * S], a[S * S], b0[S], b[S];
    for (int i = 0; i < S * S; i++) m[i] = (float)(i % 4), a0[i] = (float)(i % 9);
    for (int i = 0; i < S; i++) b0[i] = (float)(i % 6);
    const char *options[] = {"", "-cl-opt-disable"};
    // 4x8 and 2x8 groups (5x8 groups, run y fastest, then x), and groups
    // the runtime sizes.
    size_t global[2] = {S, S}, locals[2][2] = {{4, 8}, {2, 8}};
    const char *shapes[] = {"4x8", "2x8", "runtime-sized"};
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    for (int o = 0; o < 2 && !h_failed(); o++) {
        cl_program p;
        cl_kernel k = build_kernel(c, fan2_src, "Fan2", options[o], &p);
        for (int shape = 0; k && shape < 3 && !h_failed(); shape++) {
            memcpy(a, a0, sizeof a);
            memcpy(b, b0, sizeof b);
            cl_mem bm = buffer(c, sizeof m, m), ba = buffer(c, sizeof a, a), bb = buffer(c, sizeof b, b);
            cl_int size = S, t = T;
            clSetKernelArg(k, 0, sizeof bm, &bm);
            clSetKernelArg(k, 1, sizeof ba, &ba);
            clSetKernelArg(k, 2, sizeof bb, &bb);
            clSetKernelArg(k, 3, sizeof size, &size);
            clSetKernelArg(k, 4, sizeof t, &t);
            CHECK_OK(clEnqueueNDRangeKernel(q, k, 2, NULL, global, shape < 2 ? locals[shape] : NULL,
                                            0, NULL, NULL));
            CHECK_OK(clEnqueueReadBuffer(q, ba, CL_TRUE, 0, sizeof a, a, 0, NULL, NULL));
            CHECK_OK(clEnqueueReadBuffer(q, bb, CL_TRUE, 0, sizeof b, b, 0, NULL, NULL));
            for (int x = 0; x < S && !h_failed(); x++)
                for (int y = 0; y < S && !h_failed(); y++) {
                    int at = S * x + y;
                    float want = a0[at];
                    if (x >= 1 + T && y >= T)
                        want -= m[S * x + T] * a0[S * T + y];
                    if (a[at] != want)
                        h_fail_at(__FILE__, __LINE__, "Fan2 '%s' %s groups: a[%d][%d] = %g, expected %g",
                                  options[o], shapes[shape], x, y, a[at], want);
                }
            for (int x = 0; x < S && !h_failed(); x++) {
                float want = b0[x];
                if (x >= 1 + T && x - 1 - T < S - 1 - T)
                    want -= m[S * x + T] * b0[T];
                if (b[x] != want)
                    h_fail_at(__FILE__, __LINE__, "Fan2 '%s' %s groups: b[%d] = %g, expected %g",
                              options[o], shapes[shape], x, b[x], want);
            }
            clReleaseMemObject(bm);
            clReleaseMemObject(ba);
            clReleaseMemObject(bb);
        }
        release_kernels(k, NULL, p);
    }
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

static const char *wrap_src =
    "kernel void below(global int *out, int m, int q) {\n"
    "    int i = get_global_id(0);\n"
    "    size_t at = get_global_id(0) - get_global_offset(0);\n"
    "    if (i < m) {\n"
    "        int v = i ^ 5;\n"
    "        if (i == q)\n"
    "            v = -1;\n"
    "        out[at] = v;\n"
    "    }\n"
    "}\n"
    "kernel void one(global int *out, uint q) {\n"
    "    uint i = get_global_id(0);\n"
    "    if (i != q)\n"
    "        return;\n"
    "    out[get_global_id(0) - get_global_offset(0)] = 7;\n"
    "}\n"
    "kernel void above(global int *out, long m, long q) {\n"
    "    long i = get_global_id(0);\n"
    "    if (i >= m && q >= 0 && i < m + 20) {\n"
    "        int v = 1;\n"
    "        if (i != q)\n"
    "            v = 2;\n"
    "        out[get_global_id(0) - get_global_offset(0)] = v;\n"
    "    }\n"
    "}\n";

/* What the three kernels of wrap_src write for work-item `id`, -9 if
 * nothing. */
static int wrap_want(int kernel, uint64_t id, int64_t m, int64_t q)
{
    if (kernel == 0) {
        int32_t i = (int32_t)(uint32_t)id;
        if (!(i < m))
            return -9;
        return i == q ? -1 : (i ^ 5);
    }
    if (kernel == 1)
        return (uint32_t)id == (uint32_t)q ? 7 : -9;
    int64_t i = (int64_t)id;
    if (!(i >= m && q >= 0 && i < m + 20))
        return -9;
    return i != q ? 2 : 1;
}

/* Bounds checks and equality tests on the work-item's index, whose int
 * wraps around inside a group (global offsets near 2^31 and 2^32): the
 * work-item loop runs over the intervals that pass (bounds_checks_as_ranges.cpp),
 * in groups of 300 (rows that long take the rewritten loops); groups of 16
 * and those the runtime picks run the loops as they were. */
TEST(bounds_checks_around_wraps)
{
    enum { G = 1200, BOUNDS = 7 };
    const char *names[] = {"below", "one", "above"};
    const size_t offsets[] = {0, 5, 0x80000000u - 10, 0x100000000ull - 10};
    const int64_t bounds[BOUNDS] = {-3, 0, 9, 30, 0x7fffffff, -0x7ffffff8, 250};
    // Where the equality tests hold, some inside the window of `above`.
    const int64_t points[BOUNDS] = {3, 4, 12, 40, 290, 7, 260};
    const char *options[] = {"", "-cl-opt-disable"};
    size_t global = G, locals[] = {16, 300};
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    for (int o = 0; o < 2 && !h_failed(); o++) {
        cl_program p = h_build(c, wrap_src, options[o]);
        if (!p) {
            h_fail_at(__FILE__, __LINE__, "wraps: build with '%s' failed", options[o]);
            break;
        }
        for (int kn = 0; kn < 3 && !h_failed(); kn++) {
            cl_int e;
            cl_kernel k = clCreateKernel(p, names[kn], &e);
            CHECK_OK(e);
            for (int oi = 0; oi < 4 && !h_failed(); oi++)
                for (int bi = 0; bi < BOUNDS && !h_failed(); bi++)
                    for (int sized = 0; sized < 3 && !h_failed(); sized++) {
                        size_t off = offsets[oi];
                        // The bounds relative to the offset's int, and the
                        // point a few work-items into the range.
                        int64_t m = (int64_t)(int32_t)(uint32_t)off + bounds[bi];
                        int64_t pt = (int64_t)(int32_t)(uint32_t)off + points[bi];
                        if (kn == 2)
                            m = (int64_t)off + bounds[bi], pt = (int64_t)off + points[bi];
                        else // what the kernel's int and uint arguments hold
                            m = (int32_t)(uint32_t)m, pt = (int32_t)(uint32_t)pt;
                        int out[G];
                        for (int i = 0; i < G; i++) out[i] = -9;
                        cl_mem bo = buffer(c, sizeof out, out);
                        clSetKernelArg(k, 0, sizeof bo, &bo);
                        if (kn == 0) {
                            cl_int mm = (cl_int)m, qq = (cl_int)pt;
                            clSetKernelArg(k, 1, sizeof mm, &mm);
                            clSetKernelArg(k, 2, sizeof qq, &qq);
                        } else if (kn == 1) {
                            cl_uint qq = (cl_uint)pt;
                            clSetKernelArg(k, 1, sizeof qq, &qq);
                        } else {
                            cl_long mm = m, qq = pt;
                            clSetKernelArg(k, 1, sizeof mm, &mm);
                            clSetKernelArg(k, 2, sizeof qq, &qq);
                        }
                        CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, &off, &global,
                                                        sized ? &locals[sized - 1] : NULL, 0, NULL,
                                                        NULL));
                        CHECK_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof out, out, 0, NULL,
                                                     NULL));
                        for (int i = 0; i < G && !h_failed(); i++) {
                            int want = wrap_want(kn, off + i, m, pt);
                            if (out[i] != want)
                                h_fail_at(__FILE__, __LINE__,
                                          "%s '%s' offset %zu bound %lld point %lld: out[%d] = %d, "
                                          "expected %d",
                                          names[kn], options[o], off, (long long)m, (long long)pt,
                                          i, out[i], want);
                        }
                        clReleaseMemObject(bo);
                    }
            clReleaseKernel(k);
        }
        clReleaseProgram(p);
    }
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

static const char *kmeans_src =
    "kernel void kmeans_kernel_c(global float *feature, global float *clusters,\n"
    "                            global int *membership, int npoints, int nclusters,\n"
    "                            int nfeatures, int offset, int size) {\n"
    "    unsigned int point_id = get_global_id(0);\n"
    "    int index = 0;\n"
    "    if (point_id < npoints) {\n"
    "        float min_dist = FLT_MAX;\n"
    "        for (int i = 0; i < nclusters; i++) {\n"
    "            float dist = 0;\n"
    "            float ans = 0;\n"
    "            for (int l = 0; l < nfeatures; l++)\n"
    "                ans += (feature[l * npoints + point_id] - clusters[i * nfeatures + l]) *\n"
    "                       (feature[l * npoints + point_id] - clusters[i * nfeatures + l]);\n"
    "            dist = ans;\n"
    "            if (dist < min_dist) {\n"
    "                min_dist = dist;\n"
    "                index = i;\n"
    "            }\n"
    "        }\n"
    "        membership[point_id] = index;\n"
    "    }\n"
    "}\n"
    "kernel void below(global float *a, global float *out, int n, int m) {\n"
    "    int i = get_global_id(0);\n"
    "    float s = 0;\n"
    "    if (i < n) {\n"
    "        for (int j = 0; j < m; j++) {\n"
    "            if (i % m >= j) {\n"
    "                float t = 0;\n"
    "                for (int k = 0; k < m; k++) t += a[k * n + i] * (j + 1);\n"
    "                s += t;\n"
    "            }\n"
    "        }\n"
    "        out[i] = s;\n"
    "    }\n"
    "}\n";

TEST(nested_loops_behind_bounds_checks)
{
    enum { N = 203, F = 5, K = 4, M = 6 };
    static float feature[F * N], clusters[K * F], a[M * N], out[N];
    static int membership[N];
    for (int i = 0; i < F * N; i++) feature[i] = (float)((i * 7) % 11);
    for (int i = 0; i < K * F; i++) clusters[i] = (float)((i * 5) % 9);
    for (int i = 0; i < M * N; i++) a[i] = (float)(i % 5 - 2);
    const char *options[] = {"", "-cl-opt-disable"};
    cl_context ctx = h_context();
    cl_command_queue q = h_queue(ctx, 0);
    for (int o = 0; o < 2 && !h_failed(); o++) {
        cl_program p;
        cl_kernel k = build_kernel(ctx, kmeans_src, "kmeans_kernel_c", options[o], &p);
        cl_kernel b = k ? clCreateKernel(p, "below", NULL) : NULL;
        size_t global = 256, local = 64;
        for (int shape = 0; k && b && shape < 2 && !h_failed(); shape++) {
            for (int i = 0; i < N; i++) membership[i] = -1, out[i] = -1;
            cl_mem bf = buffer(ctx, sizeof feature, feature);
            cl_mem bc = buffer(ctx, sizeof clusters, clusters);
            cl_mem bm = buffer(ctx, sizeof membership, membership);
            cl_mem ba = buffer(ctx, sizeof a, a), bo = buffer(ctx, sizeof out, out);
            cl_int n = N, nc = K, nf = F, zero = 0, m = M;
            clSetKernelArg(k, 0, sizeof bf, &bf);
            clSetKernelArg(k, 1, sizeof bc, &bc);
            clSetKernelArg(k, 2, sizeof bm, &bm);
            clSetKernelArg(k, 3, sizeof n, &n);
            clSetKernelArg(k, 4, sizeof nc, &nc);
            clSetKernelArg(k, 5, sizeof nf, &nf);
            clSetKernelArg(k, 6, sizeof zero, &zero);
            clSetKernelArg(k, 7, sizeof zero, &zero);
            CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, shape ? NULL : &local, 0, NULL,
                                            NULL));
            CHECK_OK(clEnqueueReadBuffer(q, bm, CL_TRUE, 0, sizeof membership, membership, 0, NULL,
                                         NULL));
            for (int pt = 0; pt < N && !h_failed(); pt++) {
                float best = 3.40282347e+38f;
                int want = 0;
                for (int c = 0; c < K; c++) {
                    float d = 0;
                    for (int f = 0; f < F; f++) {
                        float x = feature[f * N + pt] - clusters[c * F + f];
                        d += x * x;
                    }
                    if (d < best)
                        best = d, want = c;
                }
                if (membership[pt] != want)
                    h_fail_at(__FILE__, __LINE__, "kmeans '%s' %s groups: point %d in %d, expected %d",
                              options[o], shape ? "runtime-sized" : "64", pt, membership[pt], want);
            }
            clSetKernelArg(b, 0, sizeof ba, &ba);
            clSetKernelArg(b, 1, sizeof bo, &bo);
            clSetKernelArg(b, 2, sizeof n, &n);
            clSetKernelArg(b, 3, sizeof m, &m);
            CHECK_OK(clEnqueueNDRangeKernel(q, b, 1, NULL, &global, shape ? NULL : &local, 0, NULL,
                                            NULL));
            CHECK_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
            for (int i = 0; i < N && !h_failed(); i++) {
                float want = 0;
                for (int j = 0; j < M; j++)
                    if (i % M >= j)
                        for (int kk = 0; kk < M; kk++) want += a[kk * N + i] * (j + 1);
                if (out[i] != want)
                    h_fail_at(__FILE__, __LINE__, "below '%s' %s groups: out[%d] = %g, expected %g",
                              options[o], shape ? "runtime-sized" : "64", i, out[i], want);
            }
            clReleaseMemObject(bf);
            clReleaseMemObject(bc);
            clReleaseMemObject(bm);
            clReleaseMemObject(ba);
            clReleaseMemObject(bo);
        }
        release_kernels(k, b, p);
    }
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

static const char *row_walk_src =
    "kernel void syrk(global float *a, global float *c, float alpha, float beta, int ni,\n"
    "                 int nj) {\n"
    "    int j = get_global_id(0);\n"
    "    int i = get_global_id(1);\n"
    "    if ((i < nj) && (j < nj)) {\n"
    "        c[i * nj + j] *= beta;\n"
    "        for (int k = 0; k < ni; k++)\n"
    "            c[i * nj + j] += alpha * a[i * ni + k] * a[j * ni + k];\n"
    "    }\n"
    "}\n"
    "kernel void row_sums(global const float *a, global float *acc, int n, int rows,\n"
    "                     int stride, int at) {\n"
    "    int i = get_global_id(0);\n"
    "    if (i < rows)\n"
    "        for (int k = 0; k < n; k++)\n"
    "            acc[i * stride + at] += a[i * n + k];\n"
    "}\n";

TEST(row_walks)
{
    enum { NI = 21, NJ = 21, ROWS = 29, N = 13, AT = 5 };
    static float a[NJ * NI], c0[NJ * NJ], c[NJ * NJ];
    static float r[ROWS * N], acc[ROWS], want[ROWS * N];
    for (int i = 0; i < NJ * NI; i++) a[i] = (float)(i % 7 - 3);
    for (int i = 0; i < NJ * NJ; i++) c0[i] = (float)(i % 3);
    for (int i = 0; i < ROWS * N; i++) r[i] = (float)(i % 5 - 1);
    const char *options[] = {"", "-cl-opt-disable"};
    // 8x4 groups (the last column of groups has 5 work-items past nj of
    // 8), 6x2 groups (fewer than eight in a row), runtime-sized groups.
    size_t global[2] = {24, 24}, locals[2][2] = {{8, 4}, {6, 2}};
    const char *shapes[] = {"8x4", "6x2", "runtime-sized"};
    cl_context ctx = h_context();
    cl_command_queue q = h_queue(ctx, 0);
    for (int o = 0; o < 2 && !h_failed(); o++) {
        cl_program p;
        cl_kernel k = build_kernel(ctx, row_walk_src, "syrk", options[o], &p);
        cl_kernel s = k ? clCreateKernel(p, "row_sums", NULL) : NULL;
        for (int shape = 0; k && s && shape < 3 && !h_failed(); shape++) {
            memcpy(c, c0, sizeof c);
            cl_mem ba = buffer(ctx, sizeof a, a), bc = buffer(ctx, sizeof c, c);
            float alpha = 2, beta = 3;
            cl_int ni = NI, nj = NJ;
            clSetKernelArg(k, 0, sizeof ba, &ba);
            clSetKernelArg(k, 1, sizeof bc, &bc);
            clSetKernelArg(k, 2, sizeof alpha, &alpha);
            clSetKernelArg(k, 3, sizeof beta, &beta);
            clSetKernelArg(k, 4, sizeof ni, &ni);
            clSetKernelArg(k, 5, sizeof nj, &nj);
            CHECK_OK(clEnqueueNDRangeKernel(q, k, 2, NULL, global, shape < 2 ? locals[shape] : NULL,
                                            0, NULL, NULL));
            CHECK_OK(clEnqueueReadBuffer(q, bc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
            for (int i = 0; i < NJ * NJ && !h_failed(); i++) {
                float w = 3 * c0[i];
                for (int kk = 0; kk < NI; kk++)
                    w += 2 * a[(i / NJ) * NI + kk] * a[(i % NJ) * NI + kk];
                if (c[i] != w)
                    h_fail_at(__FILE__, __LINE__, "syrk '%s' %s groups: c[%d][%d] = %g, expected %g",
                              options[o], shapes[shape], i / NJ, i % NJ, c[i], w);
            }
            // Sums into a buffer of their own, then into element AT of
            // each row itself, which the walk reads again after adding to it.
            size_t g1 = 32, l1 = 16;
            for (int same = 0; same < 2 && !h_failed(); same++) {
                for (int i = 0; i < ROWS; i++) acc[i] = (float)(i % 4);
                memcpy(want, r, sizeof r);
                cl_mem br = buffer(ctx, sizeof r, r), bacc = buffer(ctx, sizeof acc, acc);
                cl_int n = N, rows = ROWS, stride = same ? N : 1, at = same ? AT : 0;
                clSetKernelArg(s, 0, sizeof br, &br);
                clSetKernelArg(s, 1, sizeof br, same ? &br : &bacc);
                clSetKernelArg(s, 2, sizeof n, &n);
                clSetKernelArg(s, 3, sizeof rows, &rows);
                clSetKernelArg(s, 4, sizeof stride, &stride);
                clSetKernelArg(s, 5, sizeof at, &at);
                CHECK_OK(clEnqueueNDRangeKernel(q, s, 1, NULL, &g1, shape == 2 ? NULL : &l1, 0,
                                                NULL, NULL));
                float *got = same ? r : acc;
                CHECK_OK(clEnqueueReadBuffer(q, same ? br : bacc, CL_TRUE, 0,
                                             same ? sizeof r : sizeof acc, got, 0, NULL, NULL));
                for (int i = 0; i < ROWS && !h_failed(); i++) {
                    float w;
                    if (same) {
                        for (int kk = 0; kk < N; kk++)
                            want[i * N + AT] += want[i * N + kk];
                        w = want[i * N + AT];
                    } else {
                        w = (float)(i % 4);
                        for (int kk = 0; kk < N; kk++)
                            w += want[i * N + kk];
                    }
                    float g = same ? r[i * N + AT] : acc[i];
                    if (g != w)
                        h_fail_at(__FILE__, __LINE__, "row_sums '%s' %s%s: row %d: %g, expected %g",
                                  options[o], shapes[shape], same ? " in place" : "", i, g, w);
                }
                // The in-place run wrote r; start the next shape from the same
                // values.
                for (int i = 0; i < ROWS * N; i++) r[i] = (float)(i % 5 - 1);
                clReleaseMemObject(br);
                clReleaseMemObject(bacc);
            }
            clReleaseMemObject(ba);
            clReleaseMemObject(bc);
        }
        release_kernels(k, s, p);
    }
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

static const char *wide_src =
    "kernel void sum16(global float16 *a, global float *out, int fetches) {\n"
    "    uint id = get_global_id(0);\n"
    "    float16 s = 0;\n"
    "    for (int i = 0; i < fetches; i++)\n"
    "        s += a[id + i * get_global_size(0)];\n"
    "    float8 h = s.lo + s.hi;\n"
    "    float4 q = h.lo + h.hi;\n"
    "    out[id] = q.x + q.y + q.z + q.w + s.sf;\n"
    "}\n"
    "kernel void neighbours16(global int16 *a, global int *out, local int16 *l) {\n"
    "    int lid = get_local_id(0), n = get_local_size(0);\n"
    "    int16 v = a[get_global_id(0)] * 3 + (int16)(lid);\n"
    "    l[lid] = v;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int16 w = l[(lid + 1) % n] - v;\n"
    "    out[get_global_id(0)] = w.s0 + w.s5 * 2 + w.sf * 3;\n"
    "}\n";

TEST(wide_vector_kernels)
{
    enum { WIS = 256, FETCHES = 5, W = 16 };
    static float a[WIS * FETCHES * W], sums[WIS];
    static cl_int v[WIS * W], out[WIS];
    for (int i = 0; i < WIS * FETCHES * W; i++) a[i] = (float)((i * 7) % 13);
    for (int i = 0; i < WIS * W; i++) v[i] = (i * 5) % 23 - 11;
    const char *options[] = {"", "-cl-opt-disable"};
    cl_context ctx = h_context();
    cl_command_queue q = h_queue(ctx, 0);
    for (int o = 0; o < 2 && !h_failed(); o++) {
        cl_program p;
        cl_kernel k = build_kernel(ctx, wide_src, "sum16", options[o], &p);
        cl_kernel x = k ? clCreateKernel(p, "neighbours16", NULL) : NULL;
        for (int shape = 0; k && x && shape < 2 && !h_failed(); shape++) {
            size_t global = WIS, local = 64;
            cl_mem ba = buffer(ctx, sizeof a, a), bs = buffer(ctx, sizeof sums, sums);
            cl_mem bv = buffer(ctx, sizeof v, v), bo = buffer(ctx, sizeof out, out);
            cl_int fetches = FETCHES;
            clSetKernelArg(k, 0, sizeof ba, &ba);
            clSetKernelArg(k, 1, sizeof bs, &bs);
            clSetKernelArg(k, 2, sizeof fetches, &fetches);
            CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, shape ? NULL : &local, 0, NULL,
                                            NULL));
            CHECK_OK(clEnqueueReadBuffer(q, bs, CL_TRUE, 0, sizeof sums, sums, 0, NULL, NULL));
            for (int i = 0; i < WIS && !h_failed(); i++) {
                float want = 0;
                for (int f = 0; f < FETCHES; f++)
                    for (int e = 0; e < W; e++)
                        want += a[(i + f * WIS) * W + e] * (e == W - 1 ? 2 : 1);
                if (sums[i] != want)
                    h_fail_at(__FILE__, __LINE__, "sum16 '%s' %s groups: out[%d] = %g, expected %g",
                              options[o], shape ? "runtime-sized" : "64", i, sums[i], want);
            }
            clSetKernelArg(x, 0, sizeof bv, &bv);
            clSetKernelArg(x, 1, sizeof bo, &bo);
            clSetKernelArg(x, 2, 64 * sizeof(cl_int) * W, NULL);
            CHECK_OK(clEnqueueNDRangeKernel(q, x, 1, NULL, &global, &local, 0, NULL, NULL));
            CHECK_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
            for (int i = 0; i < WIS && !h_failed(); i++) {
                int lid = i % 64, next = i - lid + (lid + 1) % 64;
                int d[W];
                for (int e = 0; e < W; e++)
                    d[e] = (v[next * W + e] * 3 + (lid + 1) % 64) - (v[i * W + e] * 3 + lid);
                int want = d[0] + d[5] * 2 + d[15] * 3;
                if (out[i] != want)
                    h_fail_at(__FILE__, __LINE__, "neighbours16 '%s': out[%d] = %d, expected %d",
                              options[o], i, out[i], want);
            }
            clReleaseMemObject(ba);
            clReleaseMemObject(bs);
            clReleaseMemObject(bv);
            clReleaseMemObject(bo);
        }
        release_kernels(k, x, p);
    }
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

int main(int argc, char **argv)
{
    h_init("basic_loop_shapes", argc, argv);
    H_RUN_T(grid_stride_loops, 120);
    H_RUN_T(loops_behind_bounds_checks, 120);
    H_RUN_T(columns_innermost, 120);
    H_RUN_T(bounds_checks_around_wraps, 120);
    H_RUN_T(nested_loops_behind_bounds_checks, 120);
    H_RUN_T(row_walks, 120);
    H_RUN_T(wide_vector_kernels, 120);
    return h_done();
}
