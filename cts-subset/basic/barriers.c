/* basic: barriers in every place OpenCL C allows them (loops, nested loops,
 * called functions, branches every work-item of a group takes, after a
 * group-wide early return), with private values of every width and
 * alignment alive across them, in 1-3 dimensions and with non-uniform last
 * groups. Each kernel runs optimized (ferrocl: compiled regions) and with
 * -cl-opt-disable (ferrocl: one fiber per work-item), and both must match
 * the host's answer. */
#include "harness.h"
#include <math.h>
#include <string.h>

static const char *src =
    "void stage(local int *t, int v) { t[get_local_id(0)] = v; barrier(CLK_LOCAL_MEM_FENCE); }\n"
    "kernel void in_function(global int *out, local int *t) {\n"
    "  int priv[4]; size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  for (int r = 0; r < 4; r++) {\n"
    "    stage(t, (int)l * (r + 1));\n"
    "    priv[r] = t[(l + 1) % n];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  out[get_global_id(0)] = priv[0] + 10 * priv[1] + 100 * priv[2] + 1000 * priv[3];\n"
    "}\n"
    "kernel void uniform_branch(global int *out, local int *t) {\n"
    "  size_t l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);\n"
    "  int v = (int)l;\n"
    "  if (g % 2) {\n"
    "    t[l] = v; barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    v = t[n - 1 - l] * 3; barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  } else {\n"
    "    v += 1000;\n"
    "  }\n"
    "  out[get_global_id(0)] = v;\n"
    "}\n"
    "kernel void early_return(global int *out, local int *t) {\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  out[get_global_id(0)] = -1;\n"
    "  if (get_group_id(0) == 1) return;\n"
    "  t[l] = (int)get_global_id(0);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = t[(l + 1) % n];\n"
    "}\n"
    "kernel void nested(global int *out, local int *t) {\n"
    "  size_t l = get_local_id(0), n = get_local_size(0); int acc = (int)l;\n"
    "  for (int i = 0; i < (int)(get_group_id(0) % 3) + 1; i++)\n"
    "    for (int j = 0; j < 2; j++) {\n"
    "      t[l] = acc + i + j; barrier(CLK_LOCAL_MEM_FENCE);\n"
    "      acc += t[(l + 1) % n]; barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "  out[get_global_id(0)] = acc;\n"
    "}\n"
    "typedef struct { char c; double d; int4 v; } S;\n"
    "kernel void wide(global double *out, local double *t) {\n"
    "  size_t l = get_local_id(0);\n"
    "  double4 w = (double4)(l, l * 2, l * 3, l * 4);\n"
    "  S s = {1, l * 0.5, (int4)((int)l)};\n"
    "  long big = (long)l << 40; char ch = (char)l;\n"
    "  t[l] = w.x + w.w;\n"
    "  work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);\n"
    "  out[get_global_id(0)] = t[get_local_size(0) - 1 - l] + w.y + w.z + s.d + s.v.w + s.c\n"
    "                          + (double)(big >> 40) + ch;\n"
    "}\n"
    "kernel void three_d(global uint *out, local uint *t) {\n"
    "  size_t lin = get_local_linear_id();\n"
    "  size_t count = get_local_size(0) * get_local_size(1) * get_local_size(2);\n"
    "  uint mine = (uint)get_global_linear_id();\n"
    "  t[lin] = mine;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_linear_id()] = t[(lin + 1) % count] * 2 + (mine & 1);\n"
    "}\n"
    /* Loops with the same trip count in every work-item (ferrocl adds
     * implicit barriers to vectorize across work-items) and without. */
    "kernel void dot_rows(global float *restrict out, global const float *restrict m,\n"
    "                     global const float4 *restrict v, int n) {\n"
    "  float s = 0; float4 s4 = 0;\n"
    "  for (int k = 0; k < n; k++) { s += m[get_global_id(0) * n + k] * v[k].x; s4 += v[k] * s; }\n"
    "  out[get_global_id(0)] = s + s4.y;\n"
    "}\n"
    "kernel void matmul2d(global float *C, global const float *A, global const float *B, int n) {\n"
    "  int i = get_global_id(1), j = get_global_id(0), w = get_global_size(0);\n"
    "  float s = 0;\n"
    "  for (int k = 0; k < n; k++) s += A[i * n + k] * B[k * w + j];\n"
    "  C[i * w + j] = s;\n"
    "}\n"
    "kernel void pairs(global float4 *acc, global const float4 *pos, int n) {\n"
    "  int i = get_global_id(0); float4 p = pos[i]; float4 a = (float4)(0);\n"
    "  for (int j = 0; j < n; j++) {\n"
    "    float4 d = pos[j] - p; d.w = 0;\n"
    "    float inv = rsqrt(dot(d, d) + 0.5f);\n"
    "    a += pos[j].w * inv * inv * d;\n"
    "  }\n"
    "  acc[i] = a;\n"
    "}\n"
    "kernel void divergent(global float *out, int unused) {\n"
    "  float s = 0;\n"
    "  for (int k = 0; k < (int)get_local_id(0); k++) s += k * 0.5f;\n"
    "  out[get_global_id(0)] = s;\n"
    "}\n"
    /* Row tiles of A and column tiles of B staged in __local memory
     * (restrict: ferrocl drops it, the work-item loop says more). */
    "kernel void tiled(global const float *restrict A, global const float *restrict B,\n"
    "                  global float *restrict C, int n) {\n"
    "  local float rows[8][8], cols[8][8];\n"
    "  int r = get_local_id(1), q = get_local_id(0);\n"
    "  int row = get_group_id(1) * 8 + r, col = get_group_id(0) * 8 + q;\n"
    "  float sum = 0;\n"
    "  for (int base = 0; base < n; base += 8) {\n"
    "    rows[r][q] = A[row * n + base + q];\n"
    "    cols[r][q] = B[(base + r) * n + col];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int x = 0; x < 8; x++) sum = fma(rows[r][x], cols[x][q], sum);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  C[row * n + col] = sum;\n"
    "}\n"
    /* A tree sum: the stride and the level counter are the same in every
     * work-item (ferrocl keeps them once per group), and every work-item
     * must see each new value, none a value another one already changed. */
    "kernel void tree(global int *out, local int *t) {\n"
    "  size_t l = get_local_id(0); int level = 0;\n"
    "  t[l] = (int)get_global_id(0);\n"
    "  for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (l < s) t[l] += t[l + s];\n"
    "    out[get_global_id(0) * 10 + 1 + level++] = (int)s;\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0) * 10] = t[0] + 1000 * level;\n"
    "}\n"
    /* The "interleaved" tree sum of GPU courses: `l % (2 * s) == 0` with s
     * doubling around the barrier (a remainder by a power of two), and
     * unsigned remainders by a doubling s without barriers. */
    "kernel void interleaved(global int *out, local int *t) {\n"
    "  int l = (int)get_local_id(0); uint ul = (uint)l;\n"
    "  t[l] = l + 1;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (int s = 1; s < (int)get_local_size(0); s *= 2) {\n"
    "    if (l % (2 * s) == 0) t[l] += t[l + s];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  int count = 0;\n"
    "  for (uint s = 1; s < 64; s <<= 1) count += ul % s != 0;\n"
    "  out[get_global_id(0)] = t[0] * 100 + count;\n"
    "}\n"
    /* Neighbours across rows and columns of 2-D groups whose rows fill a
     * vector exactly, or not. */
    "kernel void rows2d(global float *out, local float *t) {\n"
    "  size_t x = get_local_id(0), y = get_local_id(1), w = get_local_size(0), h = get_local_size(1);\n"
    "  float acc = 0;\n"
    "  for (int i = 0; i < 3; i++) {\n"
    "    t[y * w + x] = (float)(get_global_id(0) + i * get_global_id(1));\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    acc += t[((y + 1) % h) * w + (x + 1) % w];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = acc;\n"
    "}\n"
    /* Regions starting with `if (get_local_id(0) < uniform)`: ferrocl runs
     * only the work-items below the bound when the others have no effect
     * of their own (clip), and all of them when they do (effects, late). */
    "kernel void clip(global int *out, local int *t, int limit) {\n"
    "  size_t l = get_local_id(0);\n"
    "  t[l] = (int)get_global_id(0) + 1;\n"
    "  for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (s > l) t[l] += t[l + s];\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (l < (size_t)limit) t[l] *= 2;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (l == 0) out[get_group_id(0)] = t[0];\n"
    "}\n"
    "kernel void effects(global int *out, local int *t, int unused) {\n"
    "  size_t l = get_local_id(0); int idle = 0;\n"
    "  t[l] = (int)get_global_id(0) + 1;\n"
    "  for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (l < s) t[l] += t[l + s]; else idle++;\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = t[0] * 100 + idle;\n"
    "}\n"
    "kernel void late(global int *out, local int *t, int unused) {\n"
    "  size_t l = get_local_id(0);\n"
    "  t[l] = 1;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (l < 3) t[l] = 5;\n"
    "  out[get_global_id(0)] = (int)l;\n"
    "}\n"
    "kernel void cut_branches(global int *out, local int *t, int n) {\n"
    "  int l = (int)get_local_id(0), m = (int)get_local_size(0), g = (int)get_group_id(0);\n"
    "  int v = l * 7 + 1, w;\n"
    "  if (n > 2) w = v * 2; else w = v - 3;\n"
    "  for (int i = 0; i < n; i++) {\n"
    "    t[l] = v + i;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if ((i + g) % 3 == 0) v += t[(l + 1) % m];\n"
    "    else if (l % 2) v -= 1;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  out[get_global_id(0)] = v * 1000 + w;\n"
    "}\n";

static const char *variants[] = {"-cl-std=CL2.0", "-cl-std=CL2.0 -cl-opt-disable"};

typedef void (*check_fn)(cl_context c, cl_command_queue q, cl_program p, const char *variant);

/* Builds the kernels both ways and runs `check` on each. */
static void each_variant(check_fn check)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    for (int v = 0; v < 2; v++) {
        cl_program p = h_build(c, src, variants[v]);
        CHECK(p, "build %s", variants[v]);
        if (!p) break;
        check(c, q, p, variants[v]);
        clReleaseProgram(p);
    }
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* Runs kernel `name` over `dims` dimensions with a __local buffer of
 * `local_bytes`, out = `out_bytes` (args 0 and 1), and an int (arg 2)
 * when `arg2` is not NULL. */
static int run_with(cl_context c, cl_command_queue q, cl_program p, const char *name, cl_uint dims,
                    const size_t *g, const size_t *l, size_t local_bytes, void *out, size_t out_bytes,
                    const int *arg2)
{
    cl_int e;
    cl_kernel k = clCreateKernel(p, name, &e);
    if (!k) return e;
    cl_mem o = clCreateBuffer(c, 0, out_bytes, NULL, &e);
    clSetKernelArg(k, 0, sizeof o, &o);
    clSetKernelArg(k, 1, local_bytes, NULL);
    if (arg2) clSetKernelArg(k, 2, sizeof *arg2, arg2);
    e = clEnqueueNDRangeKernel(q, k, dims, NULL, g, l, 0, NULL, NULL);
    if (!e) e = clEnqueueReadBuffer(q, o, CL_TRUE, 0, out_bytes, out, 0, NULL, NULL);
    clReleaseMemObject(o);
    clReleaseKernel(k);
    return e;
}

static int run(cl_context c, cl_command_queue q, cl_program p, const char *name, cl_uint dims,
               const size_t *g, const size_t *l, size_t local_bytes, void *out, size_t out_bytes)
{
    return run_with(c, q, p, name, dims, g, l, local_bytes, out, out_bytes, NULL);
}

static void check_barrier_in_called_function_with_private_array(cl_context c, cl_command_queue q, cl_program p, const char *variant)
{
    size_t ls[] = {1, 3, 16, 64}, g = 192;
    for (int s = 0; s < 4; s++) {
        int out[192];
        CHECK_OK(run(c, q, p, "in_function", 1, &g, &ls[s], ls[s] * 4, out, sizeof out));
        int bad = 0;
        for (size_t i = 0; i < g; i++) {
            int nb = (int)((i % ls[s] + 1) % ls[s]);
            bad += out[i] != nb * 1 + 10 * nb * 2 + 100 * nb * 3 + 1000 * nb * 4;
        }
        CHECK(bad == 0, "%s, local %zu: %d wrong", variant, ls[s], bad);
    }
}

TEST(barrier_in_called_function_with_private_array)
{
    each_variant(check_barrier_in_called_function_with_private_array);
}

static void check_barriers_in_branches_taken_by_whole_groups(cl_context c, cl_command_queue q, cl_program p, const char *variant)
{
    size_t g = 160, l = 32;
    int out[160];
    CHECK_OK(run(c, q, p, "uniform_branch", 1, &g, &l, l * 4, out, sizeof out));
    int bad = 0;
    for (size_t i = 0; i < g; i++) {
        size_t li = i % l, gi = i / l;
        bad += out[i] != (gi % 2 ? (int)(l - 1 - li) * 3 : (int)li + 1000);
    }
    CHECK(bad == 0, "uniform_branch %s: %d wrong", variant, bad);
    CHECK_OK(run(c, q, p, "early_return", 1, &g, &l, l * 4, out, sizeof out));
    bad = 0;
    for (size_t i = 0; i < g; i++) {
        size_t li = i % l, gi = i / l;
        bad += out[i] != (gi == 1 ? -1 : (int)(gi * l + (li + 1) % l));
    }
    CHECK(bad == 0, "early_return %s: %d wrong", variant, bad);
}

TEST(barriers_in_branches_taken_by_whole_groups)
{
    each_variant(check_barriers_in_branches_taken_by_whole_groups);
}

static void check_barriers_in_nested_loops_with_group_dependent_trip_counts(cl_context c, cl_command_queue q, cl_program p, const char *variant)
{
    enum { G = 96, L = 12 };
    size_t g = G, l = L;
    int out[G];
    CHECK_OK(run(c, q, p, "nested", 1, &g, &l, L * 4, out, sizeof out));
    int bad = 0;
    for (int gi = 0; gi < G / L; gi++) {
        int acc[L], t[L];
        for (int i = 0; i < L; i++) acc[i] = i;
        for (int i = 0; i < gi % 3 + 1; i++)
            for (int j = 0; j < 2; j++) {
                for (int x = 0; x < L; x++) t[x] = acc[x] + i + j;
                for (int x = 0; x < L; x++) acc[x] += t[(x + 1) % L];
            }
        for (int x = 0; x < L; x++) bad += out[gi * L + x] != acc[x];
    }
    CHECK(bad == 0, "%s: %d wrong", variant, bad);
}

TEST(barriers_in_nested_loops_with_group_dependent_trip_counts)
{
    each_variant(check_barriers_in_nested_loops_with_group_dependent_trip_counts);
}

static void check_wide_and_aligned_private_values_across_barriers(cl_context c, cl_command_queue q, cl_program p, const char *variant)
{
    size_t g = 96, l = 24;
    double out[96];
    CHECK_OK(run(c, q, p, "wide", 1, &g, &l, l * 8, out, sizeof out));
    int bad = 0;
    for (size_t i = 0; i < g; i++) {
        double li = (double)(i % l), mirror = (double)(l - 1 - i % l);
        double want = mirror * 5 + li * 2 + li * 3 + li * 0.5 + li + 1 + li + li;
        bad += out[i] != want;
    }
    CHECK(bad == 0, "%s: %d wrong", variant, bad);
}

TEST(wide_and_aligned_private_values_across_barriers)
{
    each_variant(check_wide_and_aligned_private_values_across_barriers);
}

static void check_three_dimensions_and_non_uniform_groups(cl_context c, cl_command_queue q, cl_program p, const char *variant)
{
    /* Smaller last groups in every dimension (OpenCL C 2.0 builds). */
    size_t g[3] = {10, 5, 3}, l[3] = {4, 2, 2};
    enum { N = 10 * 5 * 3 };
    cl_uint out[N];
    CHECK_OK(run(c, q, p, "three_d", 3, g, l, 16 * 4, out, sizeof out));
    int bad = 0;
    for (size_t z = 0; z < g[2]; z++)
        for (size_t y = 0; y < g[1]; y++)
            for (size_t x = 0; x < g[0]; x++) {
                /* This group's size (the last one in each dimension is
                 * smaller) and the item's linear id in it. */
                size_t gs[3], li[3], base[3], id[3] = {x, y, z};
                for (int d = 0; d < 3; d++) {
                    base[d] = id[d] / l[d] * l[d];
                    gs[d] = g[d] - base[d] < l[d] ? g[d] - base[d] : l[d];
                    li[d] = id[d] - base[d];
                }
                size_t count = gs[0] * gs[1] * gs[2];
                size_t lin = (li[2] * gs[1] + li[1]) * gs[0] + li[0];
                size_t next = (lin + 1) % count;
                size_t nx = base[0] + next % gs[0], ny = base[1] + next / gs[0] % gs[1],
                       nz = base[2] + next / (gs[0] * gs[1]);
                cl_uint want_item = (cl_uint)((nz * g[1] + ny) * g[0] + nx);
                cl_uint mine = (cl_uint)((z * g[1] + y) * g[0] + x);
                bad += out[mine] != want_item * 2 + (mine & 1);
            }
    CHECK(bad == 0, "%s: %d wrong", variant, bad);
}

TEST(three_dimensions_and_non_uniform_groups)
{
    each_variant(check_three_dimensions_and_non_uniform_groups);
}

static void check_tiled_matrix_multiply(cl_context c, cl_command_queue q, cl_program p, const char *variant)
{
    enum { N = 48 };
    float *a = malloc(N * N * 4), *b = malloc(N * N * 4), *r = malloc(N * N * 4);
    for (int i = 0; i < N * N; i++) {
        a[i] = (float)(i % 7) - 3;
        b[i] = (float)(i % 5) * 0.5f;
    }
    cl_int e;
    cl_kernel k = clCreateKernel(p, "tiled", &e);
    CHECK(k, "kernel: %s", h_err(e));
    cl_mem A = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, N * N * 4, a, &e);
    cl_mem B = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, N * N * 4, b, &e);
    cl_mem C = clCreateBuffer(c, 0, N * N * 4, NULL, &e);
    int n = N;
    CHECK_OK(clSetKernelArg(k, 0, sizeof A, &A));
    CHECK_OK(clSetKernelArg(k, 1, sizeof B, &B));
    CHECK_OK(clSetKernelArg(k, 2, sizeof C, &C));
    CHECK_OK(clSetKernelArg(k, 3, sizeof n, &n));
    size_t g[2] = {N, N}, l[2] = {8, 8};
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 2, NULL, g, l, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, C, CL_TRUE, 0, N * N * 4, r, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            float want = 0;
            for (int x = 0; x < N; x++) want += a[i * N + x] * b[x * N + j];
            bad += r[i * N + j] != want; /* small integers and halves: exact */
        }
    CHECK(bad == 0, "%s: %d wrong", variant, bad);
    clReleaseMemObject(A); clReleaseMemObject(B); clReleaseMemObject(C);
    clReleaseKernel(k);
    free(a); free(b); free(r);
}

TEST(tiled_matrix_multiply)
{
    each_variant(check_tiled_matrix_multiply);
}

static void check_uniform_and_divergent_loops(cl_context c, cl_command_queue q, cl_program p, const char *variant)
{
    enum { G = 40, N = 24 };
    float m[G * N], v[N * 4], out[G];
    for (int i = 0; i < G * N; i++) m[i] = (float)(i % 9) - 4;
    for (int i = 0; i < N * 4; i++) v[i] = (float)(i % 5) * 0.25f;
    cl_int e;
    cl_kernel k = clCreateKernel(p, "dot_rows", &e);
    CHECK(k, "kernel: %s", h_err(e));
    cl_mem O = clCreateBuffer(c, 0, sizeof out, NULL, &e);
    cl_mem M = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof m, m, &e);
    cl_mem V = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof v, v, &e);
    CHECK_OK(clSetKernelArg(k, 0, sizeof O, &O));
    CHECK_OK(clSetKernelArg(k, 1, sizeof M, &M));
    CHECK_OK(clSetKernelArg(k, 2, sizeof V, &V));
    size_t g = G, l = 8;
    /* Trip counts with every remainder of an unrolled loop (ferrocl runs
     * four iterations per region), and none. */
    int counts[] = {N, N - 1, N - 2, 5, 1, 0};
    for (int t = 0; t < 6; t++) {
        int n = counts[t];
        CHECK_OK(clSetKernelArg(k, 3, sizeof n, &n));
        CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(q, O, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        int bad = 0;
        for (int i = 0; i < G; i++) {
            float s = 0, s4y = 0;
            for (int x = 0; x < n; x++) {
                s += m[i * n + x] * v[x * 4];
                s4y += v[x * 4 + 1] * s;
            }
            bad += out[i] != s + s4y; /* small integers and quarters: exact */
        }
        CHECK(bad == 0, "dot_rows %s, n %d: %d wrong", variant, n, bad);
    }
    int n = N;
    CHECK_OK(clSetKernelArg(k, 3, sizeof n, &n));
    clReleaseKernel(k);
    k = clCreateKernel(p, "divergent", &e);
    CHECK_OK(clSetKernelArg(k, 0, sizeof O, &O));
    CHECK_OK(clSetKernelArg(k, 1, sizeof n, &n));
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, O, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < G; i++) {
        float s = 0;
        for (int x = 0; x < i % 8; x++) s += x * 0.5f;
        bad += out[i] != s;
    }
    CHECK(bad == 0, "divergent %s: %d wrong", variant, bad);
    clReleaseKernel(k);
    clReleaseMemObject(O); clReleaseMemObject(M); clReleaseMemObject(V);
}

/* A uniform loop in 2-D groups, the last ones smaller in both dimensions:
 * the loop counter is kept once per group, so every row of work-items must
 * see the same iteration. */
static void check_uniform_loop_in_two_dimensions(cl_context c, cl_command_queue q, cl_program p, const char *variant)
{
    enum { W = 10, H = 7, N = 13 };
    float a[H * N], b[N * W], out[H * W];
    for (int i = 0; i < H * N; i++) a[i] = (float)(i % 7) - 3;
    for (int i = 0; i < N * W; i++) b[i] = (float)(i % 4) * 0.5f;
    cl_int e;
    cl_kernel k = clCreateKernel(p, "matmul2d", &e);
    CHECK(k, "kernel: %s", h_err(e));
    cl_mem O = clCreateBuffer(c, 0, sizeof out, NULL, &e);
    cl_mem A = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof a, a, &e);
    cl_mem B = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof b, b, &e);
    int n = N;
    CHECK_OK(clSetKernelArg(k, 0, sizeof O, &O));
    CHECK_OK(clSetKernelArg(k, 1, sizeof A, &A));
    CHECK_OK(clSetKernelArg(k, 2, sizeof B, &B));
    CHECK_OK(clSetKernelArg(k, 3, sizeof n, &n));
    size_t g[2] = {W, H}, l[2] = {4, 3};
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 2, NULL, g, l, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, O, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < H; i++)
        for (int j = 0; j < W; j++) {
            float s = 0;
            for (int x = 0; x < N; x++) s += a[i * N + x] * b[x * W + j];
            bad += out[i * W + j] != s;
        }
    CHECK(bad == 0, "%s: %d wrong", variant, bad);
    clReleaseKernel(k);
    clReleaseMemObject(O); clReleaseMemObject(A); clReleaseMemObject(B);
}

TEST(uniform_loop_in_two_dimensions)
{
    each_variant(check_uniform_loop_in_two_dimensions);
}

/* A uniform loop carrying a float4 (n-body): vector values across
 * iterations, scalarized and vectorized across work-items by ferrocl. */
static void check_uniform_loop_with_vector_sum(cl_context c, cl_command_queue q, cl_program p, const char *variant)
{
    enum { N = 100 };
    float pos[N * 4], acc[N * 4];
    for (int i = 0; i < N * 4; i++) pos[i] = (float)((i * 37) % 23) * 0.25f - 2;
    cl_int e;
    cl_kernel k = clCreateKernel(p, "pairs", &e);
    CHECK(k, "kernel: %s", h_err(e));
    cl_mem A = clCreateBuffer(c, 0, sizeof acc, NULL, &e);
    cl_mem P = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof pos, pos, &e);
    int n = N;
    CHECK_OK(clSetKernelArg(k, 0, sizeof A, &A));
    CHECK_OK(clSetKernelArg(k, 1, sizeof P, &P));
    CHECK_OK(clSetKernelArg(k, 2, sizeof n, &n));
    size_t g = N, l = 20;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, A, CL_TRUE, 0, sizeof acc, acc, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        double a[4] = {0, 0, 0, 0};
        for (int j = 0; j < N; j++) {
            double d[4], dd = 0;
            for (int x = 0; x < 3; x++) {
                d[x] = (double)pos[j * 4 + x] - pos[i * 4 + x];
                dd += d[x] * d[x];
            }
            d[3] = 0;
            double inv = 1 / sqrt(dd + 0.5);
            for (int x = 0; x < 4; x++) a[x] += pos[j * 4 + 3] * inv * inv * d[x];
        }
        for (int x = 0; x < 4; x++) bad += fabs(acc[i * 4 + x] - a[x]) > 1e-3 * (1 + fabs(a[x]));
    }
    CHECK(bad == 0, "%s: %d components wrong", variant, bad);
    clReleaseKernel(k);
    clReleaseMemObject(A); clReleaseMemObject(P);
}

TEST(uniform_loop_with_vector_sum)
{
    each_variant(check_uniform_loop_with_vector_sum);
}

TEST(uniform_and_divergent_loops)
{
    each_variant(check_uniform_and_divergent_loops);
}

static void check_tree_sum_with_uniform_stride(cl_context c, cl_command_queue q, cl_program p, const char *variant)
{
    size_t ls[] = {1, 2, 16, 64, 256}, g = 512;
    static int out[512 * 10];
    for (int s = 0; s < 5; s++) {
        memset(out, 0, sizeof out);
        CHECK_OK(run(c, q, p, "tree", 1, &g, &ls[s], ls[s] * 4, out, sizeof out));
        int bad = 0, levels = 0;
        for (size_t n = ls[s]; n > 1; n /= 2) levels++;
        for (size_t i = 0; i < g; i++) {
            size_t first = i - i % ls[s];
            int sum = 0;
            for (size_t j = first; j < first + ls[s]; j++) sum += (int)j;
            bad += out[i * 10] != sum + 1000 * levels;
            for (int v = 0; v < levels; v++) bad += out[i * 10 + 1 + v] != (int)(ls[s] >> (v + 1));
        }
        CHECK(bad == 0, "%s, local %zu: %d wrong", variant, ls[s], bad);
    }
}

TEST(tree_sum_with_uniform_stride)
{
    each_variant(check_tree_sum_with_uniform_stride);
}

static void check_interleaved_tree_sum(cl_context c, cl_command_queue q, cl_program p, const char *variant)
{
    size_t ls[] = {1, 2, 16, 64, 256}, g = 512;
    static int out[512];
    for (int s = 0; s < 5; s++) {
        memset(out, 0, sizeof out);
        CHECK_OK(run(c, q, p, "interleaved", 1, &g, &ls[s], ls[s] * 4, out, sizeof out));
        int bad = 0, n = (int)ls[s];
        for (size_t i = 0; i < g; i++) {
            unsigned l = (unsigned)(i % ls[s]);
            int count = 0;
            for (unsigned d = 1; d < 64; d <<= 1) count += l % d != 0;
            bad += out[i] != n * (n + 1) / 2 * 100 + count;
        }
        CHECK(bad == 0, "%s, local %zu: %d wrong", variant, ls[s], bad);
    }
}

TEST(interleaved_tree_sum)
{
    each_variant(check_interleaved_tree_sum);
}

static void check_neighbours_in_two_dimensions(cl_context c, cl_command_queue q, cl_program p, const char *variant)
{
    size_t shapes[][4] = {{16, 4, 32, 8}, {17, 3, 34, 6}, {8, 8, 24, 16}, {1, 5, 3, 10}};
    for (int s = 0; s < 4; s++) {
        size_t w = shapes[s][0], h = shapes[s][1], gl[2] = {shapes[s][2], shapes[s][3]};
        float *out = malloc(gl[0] * gl[1] * sizeof *out);
        CHECK_OK(run(c, q, p, "rows2d", 2, gl, shapes[s], w * h * 4, out, gl[0] * gl[1] * 4));
        int bad = 0;
        for (size_t gy = 0; gy < gl[1]; gy++)
            for (size_t gx = 0; gx < gl[0]; gx++) {
                size_t x = gx % w, y = gy % h;
                size_t nx = gx - x + (x + 1) % w, ny = gy - y + (y + 1) % h;
                float want = 0;
                for (int i = 0; i < 3; i++) want += (float)(nx + i * ny);
                bad += out[gy * gl[0] + gx] != want;
            }
        CHECK(bad == 0, "%s, local %zux%zu: %d wrong", variant, w, h, bad);
        free(out);
    }
}

TEST(neighbours_in_two_dimensions)
{
    each_variant(check_neighbours_in_two_dimensions);
}

static void check_guarded_regions(cl_context c, cl_command_queue q, cl_program p, const char *variant)
{
    size_t ls[] = {1, 2, 16, 64, 256}, g = 512;
    int limits[] = {0, 1, 1000}, zero = 0;
    static int out[512];
    for (int s = 0; s < 5; s++) {
        size_t l = ls[s], groups = g / l;
        int levels = 0;
        for (size_t n = l; n > 1; n /= 2) levels++;
        for (int li = 0; li < 3; li++) {
            memset(out, 0, sizeof out);
            CHECK_OK(run_with(c, q, p, "clip", 1, &g, &l, l * 4, out, groups * 4, &limits[li]));
            int bad = 0;
            for (size_t gr = 0; gr < groups; gr++) {
                int sum = 0;
                for (size_t j = gr * l; j < (gr + 1) * l; j++) sum += (int)j + 1;
                bad += out[gr] != sum * (limits[li] > 0 ? 2 : 1);
            }
            CHECK(bad == 0, "%s clip, local %zu, limit %d: %d wrong", variant, l, limits[li], bad);
        }
        CHECK_OK(run_with(c, q, p, "effects", 1, &g, &l, l * 4, out, g * 4, &zero));
        int bad = 0;
        for (size_t i = 0; i < g; i++) {
            size_t first = i - i % l, lid = i % l;
            int sum = 0, idle = 0;
            for (size_t j = first; j < first + l; j++) sum += (int)j + 1;
            for (size_t st = l / 2; st > 0; st /= 2) idle += lid >= st;
            bad += out[i] != sum * 100 + idle;
        }
        CHECK(bad == 0, "%s effects, local %zu: %d wrong", variant, l, bad);
        CHECK_OK(run_with(c, q, p, "late", 1, &g, &l, l * 4, out, g * 4, &zero));
        bad = 0;
        for (size_t i = 0; i < g; i++) bad += out[i] != (int)(i % l);
        CHECK(bad == 0, "%s late, local %zu: %d wrong", variant, l, bad);
    }
}

TEST(guarded_regions_skip_only_idle_work_items)
{
    each_variant(check_guarded_regions);
}

/* Branches every work-item of a group takes the same way end regions
 * (uniformity.rs): a test before a barrier loop with a value merged after
 * it, a loop whose trip count is an argument (none, one, several), a
 * uniform branch inside the loop beside a divergent one, and per-item
 * values live across all of them. */
static void check_uniform_branches_between_barriers(cl_context c, cl_command_queue q, cl_program p, const char *variant)
{
    size_t ls[] = {1, 7, 16};
    int trips[] = {0, 1, 5};
    for (int s = 0; s < 3; s++)
        for (int tr = 0; tr < 3; tr++) {
            size_t L = ls[s], g = 4 * L;
            int n = trips[tr], out[64];
            CHECK_OK(run_with(c, q, p, "cut_branches", 1, &g, &L, L * 4, out, g * 4, &n));
            int bad = 0;
            for (size_t gi = 0; gi < 4; gi++) {
                int v[16], w[16], t[16];
                for (size_t x = 0; x < L; x++) {
                    v[x] = (int)x * 7 + 1;
                    w[x] = n > 2 ? v[x] * 2 : v[x] - 3;
                }
                for (int i = 0; i < n; i++) {
                    for (size_t x = 0; x < L; x++) t[x] = v[x] + i;
                    for (size_t x = 0; x < L; x++) {
                        if ((i + (int)gi) % 3 == 0) v[x] += t[(x + 1) % L];
                        else if (x % 2) v[x] -= 1;
                    }
                }
                for (size_t x = 0; x < L; x++) bad += out[gi * L + x] != v[x] * 1000 + w[x];
            }
            CHECK(bad == 0, "%s, local %zu, %d trips: %d wrong", variant, L, n, bad);
        }
}

TEST(uniform_branches_between_barriers)
{
    each_variant(check_uniform_branches_between_barriers);
}

int main(int argc, char **argv)
{
    h_init("basic/barriers", argc, argv);
    H_RUN(barrier_in_called_function_with_private_array);
    H_RUN(barriers_in_branches_taken_by_whole_groups);
    H_RUN(barriers_in_nested_loops_with_group_dependent_trip_counts);
    H_RUN(wide_and_aligned_private_values_across_barriers);
    H_RUN(three_dimensions_and_non_uniform_groups);
    H_RUN(tiled_matrix_multiply);
    H_RUN(uniform_and_divergent_loops);
    H_RUN(uniform_loop_in_two_dimensions);
    H_RUN(uniform_loop_with_vector_sum);
    H_RUN(tree_sum_with_uniform_stride);
    H_RUN(interleaved_tree_sum);
    H_RUN(neighbours_in_two_dimensions);
    H_RUN(guarded_regions_skip_only_idle_work_items);
    H_RUN(uniform_branches_between_barriers);
    return h_done();
}
