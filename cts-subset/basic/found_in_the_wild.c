/* basic: kernels shaped like code from outside that once broke ferrocl's
 * kernel compiler. Each runs optimized (ferrocl: compiled regions) and with
 * -cl-opt-disable (ferrocl: one fiber per work-item); both must give the
 * host's answer.
 * - a `switch` on a per-work-item value between two barriers, with an `if`
 *   on another per-work-item value in one case (the multi-line switch
 *   terminator was read as its closing `]` and taken as uniform);
 * - string constants that contain IR keywords (`spir_func`, `spir_kernel`,
 *   `addrspace(3)`), in printf formats and __constant arrays (rewrites of
 *   the IR text reached into literals);
 * - helpers whose names contain `work_group_` or `barrier` but are no
 *   barriers (names were matched by substring);
 * - hundreds of values live across a barrier, in groups of 1 to 64 (a
 *   CLsmith kernel: the frame's arrays, skewed by cache lines, wrapped
 *   around after 64 of them and overlapped);
 * - `.hi` of a 3-component vector stored whole (the Khronos CTS's hiloeo:
 *   clang takes its second lane from past the end, poison, and the store,
 *   packed into one integer, became a store of poison and was deleted). */
#include "harness.h"
#include <string.h>

enum { N = 64 };

/* What a run made, released. */
static void release_all(cl_mem a, cl_mem b, cl_kernel k, cl_program p, cl_command_queue q,
                        cl_context c)
{
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* Runs `name` (out, in) over N work-items in groups of `local`, in[i] = i,
 * built with `options`; out[i] must be want(i, local). */
static void run_check(const char *src, const char *name, const char *options, size_t local,
                      int (*want)(int, int))
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, src, options);
    if (!p) {
        h_fail_at(__FILE__, __LINE__, "%s: build with '%s' failed", name, options);
        clReleaseCommandQueue(q);
        clReleaseContext(c);
        return;
    }
    cl_int e;
    cl_kernel k = clCreateKernel(p, name, &e);
    int in[N], r[N];
    for (int i = 0; i < N; i++) in[i] = i, r[i] = -12345;
    cl_mem bo = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof r, r, &e);
    cl_mem bi = clCreateBuffer(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &e);
    clSetKernelArg(k, 0, sizeof bo, &bo);
    clSetKernelArg(k, 1, sizeof bi, &bi);
    size_t g = N;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL));
    for (int i = 0; i < N; i++)
        if (r[i] != want(i, (int)local)) {
            h_fail_at(__FILE__, __LINE__, "%s '%s' local %zu: out[%d] = %d, expected %d", name,
                      options, local, i, r[i], want(i, (int)local));
            break;
        }
    release_all(bo, bi, k, p, q, c);
}

static const char *switch_src =
    "kernel void switch_between_barriers(global int *out, global const int *in) {\n"
    "    local int t[64];\n"
    "    size_t l = get_local_id(0), n = get_local_size(0);\n"
    "    int v = in[get_global_id(0)];\n"
    "    t[l] = v;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int r;\n"
    "    switch (l & 3) {\n"
    "    case 0:\n"
    "        if (v % 3 == 0) r = t[(l + 1) % n] * 2; else r = t[(l + 2) % n] + 100;\n"
    "        break;\n"
    "    case 1: r = -v; break;\n"
    "    case 2: r = t[n - 1 - l]; break;\n"
    "    default: r = 7 * v;\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    t[l] = r;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[get_global_id(0)] = t[(l + 1) % n] + 1000 * r;\n"
    "}\n";

/* A case that branches on a value every work-item of the group shares
 * (its group id), constants in every case: the branch is no place for a
 * group-wide cut, and the phi of constants no uniform value, since the
 * work-items took different cases. */
static const char *switch_constants_src =
    "kernel void switch_constants(global int *out, global const int *in) {\n"
    "    local int t[64];\n"
    "    size_t l = get_local_id(0), n = get_local_size(0);\n"
    "    int v = in[get_global_id(0)];\n"
    "    t[l] = v;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int r;\n"
    "    switch (l & 3) {\n"
    "    case 0: if (get_group_id(0) & 1) r = 10; else r = 20; break;\n"
    "    case 1: r = 30; break;\n"
    "    case 2: r = 40; break;\n"
    "    default: r = 50;\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    t[l] = r;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[get_global_id(0)] = t[(l + 1) % n] + 1000 * r;\n"
    "}\n";

static int switch_constants_r(int i, int local)
{
    switch ((i % local) & 3) {
    case 0: return (i / local) & 1 ? 10 : 20;
    case 1: return 30;
    case 2: return 40;
    default: return 50;
    }
}

static int want_switch_constants(int i, int local)
{
    int l = i % local, base = i - l;
    return switch_constants_r(base + (l + 1) % local, local) + 1000 * switch_constants_r(i, local);
}

static int switch_r(int i, int local)
{
    int l = i % local, base = i - l, v = i;
    switch (l & 3) {
    case 0:
        return v % 3 == 0 ? (base + (l + 1) % local) * 2 : base + (l + 2) % local + 100;
    case 1: return -v;
    case 2: return base + local - 1 - l;
    default: return 7 * v;
    }
}

static int want_switch(int i, int local)
{
    int l = i % local, base = i - l;
    return switch_r(base + (l + 1) % local, local) + 1000 * switch_r(i, local);
}

TEST(switch_on_local_id_between_barriers)
{
    size_t locals[] = {4, 16, 64};
    for (int o = 0; o < 2; o++)
        for (int i = 0; i < 3; i++) {
            run_check(switch_src, "switch_between_barriers", o ? "-cl-opt-disable" : "", locals[i],
                      want_switch);
            run_check(switch_constants_src, "switch_constants", o ? "-cl-opt-disable" : "",
                      locals[i], want_switch_constants);
        }
}

/* The same switch on a uniform value (the group's id) and a case that
 * branches per work-item: every group goes one way. */
static const char *uniform_switch_src =
    "kernel void uniform_switch(global int *out, global const int *in) {\n"
    "    local int t[64];\n"
    "    size_t l = get_local_id(0), n = get_local_size(0);\n"
    "    int v = in[get_global_id(0)];\n"
    "    t[l] = v;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int r = 0;\n"
    "    switch (get_group_id(0) % 3) {\n"
    "    case 0: r = t[(l + 1) % n]; break;\n"
    "    case 1: if (l & 1) r = v; else r = -v; break;\n"
    "    default: r = 5;\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    t[l] = r;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[get_global_id(0)] = t[n - 1 - l];\n"
    "}\n";

static int uniform_switch_r(int i, int local)
{
    int l = i % local, base = i - l;
    switch ((i / local) % 3) {
    case 0: return base + (l + 1) % local;
    case 1: return (l & 1) ? i : -i;
    default: return 5;
    }
}

static int want_uniform_switch(int i, int local)
{
    int l = i % local, base = i - l;
    return uniform_switch_r(base + local - 1 - l, local);
}

TEST(switch_on_group_id_between_barriers)
{
    size_t locals[] = {8, 16};
    for (int o = 0; o < 2; o++)
        for (int i = 0; i < 2; i++)
            run_check(uniform_switch_src, "uniform_switch", o ? "-cl-opt-disable" : "", locals[i],
                      want_uniform_switch);
}

/* String constants that read like IR: they must stay as they are. */
static const char *strings_src =
    "constant char words[] = \"spir_func spir_kernel addrspace(3) addrspace(1) @_Z7barrierj\";\n"
    "kernel void literals(global int *out, global const int *in) {\n"
    "    local int t[64];\n"
    "    size_t l = get_local_id(0);\n"
    "    t[l] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (get_global_id(0) == 0) printf(\"spir_kernel addrspace(3) %d\\n\", t[0]);\n"
    "    int sum = 0;\n"
    "    for (int i = 0; words[i]; i++) sum += words[i];\n"
    "    out[get_global_id(0)] = sum + t[l];\n"
    "}\n";

static int want_strings(int i, int local)
{
    (void)local;
    const char *w = "spir_func spir_kernel addrspace(3) addrspace(1) @_Z7barrierj";
    int sum = 0;
    for (int j = 0; w[j]; j++) sum += w[j];
    return sum + i;
}

TEST(string_constants_that_read_like_ir)
{
    for (int o = 0; o < 2; o++)
        run_check(strings_src, "literals", o ? "-cl-opt-disable" : "", 16, want_strings);
}

/* Helpers named like barriers or work-group functions, but plain code. */
static const char *names_src =
    "int my_work_group_sum(int a, int b) { return a + b; }\n"
    "int barrier_free_scale(int a) { return 3 * a; }\n"
    "int sub_group_like(int a) { return a - 1; }\n"
    "kernel void names(global int *out, global const int *in) {\n"
    "    local int t[64];\n"
    "    size_t l = get_local_id(0), n = get_local_size(0);\n"
    "    t[l] = my_work_group_sum(in[get_global_id(0)], 1);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[get_global_id(0)] = sub_group_like(barrier_free_scale(t[(l + 1) % n]));\n"
    "}\n";

static int want_names(int i, int local)
{
    int l = i % local, base = i - l;
    return 3 * (base + (l + 1) % local + 1) - 1;
}

TEST(helpers_named_like_barriers)
{
    for (int o = 0; o < 2; o++)
        run_check(names_src, "names", o ? "-cl-opt-disable" : "", 16, want_names);
}

enum { MANY = 300 };

/* out[i] = in[neighbour] + sum over k of in[(i + k) % N] * (k + 1), the
 * MANY loads held across one barrier (loads are not computed again). */
static int want_many(int i, int local)
{
    int l = i % local, neighbour = i - l + (l + 1) % local;
    int s = neighbour;
    for (int k = 0; k < MANY; k++)
        s += ((i + k) % N) * (k + 1);
    return s;
}

TEST(many_values_across_a_barrier)
{
    static char src[64 * MANY];
    int n = snprintf(src, sizeof src,
                     "kernel void many(global int *out, global const int *in) {\n"
                     "    local int t[64];\n"
                     "    size_t g = get_global_id(0), l = get_local_id(0);\n");
    for (int k = 0; k < MANY; k++)
        n += snprintf(src + n, sizeof src - n, "    int v%d = in[(g + %d) %% 64];\n", k, k);
    n += snprintf(src + n, sizeof src - n,
                  "    t[l] = (int)g;\n"
                  "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                  "    int s = t[(l + 1) %% get_local_size(0)];\n");
    for (int k = 0; k < MANY; k++)
        n += snprintf(src + n, sizeof src - n, "    s += v%d * %d;\n", k, k + 1);
    snprintf(src + n, sizeof src - n, "    out[g] = s;\n}\n");
    size_t locals[] = {1, 2, 4, 64};
    for (int o = 0; o < 2; o++)
        for (size_t j = 0; j < sizeof locals / sizeof locals[0]; j++)
            run_check(src, "many", o ? "-cl-opt-disable" : "", locals[j], want_many);
}

static const char *hi_of_three_src =
    "kernel void hi3(global const char3 *in, global char2 *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = in[i].hi;\n"
    "}\n";

TEST(hi_of_a_three_component_vector_stored_whole)
{
    for (int o = 0; o < 2; o++) {
        const char *options = o ? "-cl-opt-disable" : "";
        cl_context c = h_context();
        cl_command_queue q = h_queue(c, 0);
        cl_program p = h_build(c, hi_of_three_src, options);
        REQUIRE(p, "build with '%s' failed", options);
        cl_int e;
        cl_kernel k = clCreateKernel(p, "hi3", &e);
        cl_char in[4 * N], out[2 * N];
        for (int i = 0; i < 4 * N; i++) in[i] = (cl_char)(i % 101);
        memset(out, 0x7f, sizeof out);
        cl_mem bi = clCreateBuffer(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &e);
        cl_mem bo = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof out, out, &e);
        clSetKernelArg(k, 0, sizeof bi, &bi);
        clSetKernelArg(k, 1, sizeof bo, &bo);
        size_t g = N;
        CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        /* .hi of (x, y, z) is (z, undefined). */
        for (int i = 0; i < N; i++)
            if (out[2 * i] != in[4 * i + 2]) {
                h_fail_at(__FILE__, __LINE__, "'%s': out[%d].x = %d, expected %d", options, i,
                          out[2 * i], in[4 * i + 2]);
                break;
            }
        release_all(bo, bi, k, p, q, c);
    }
}

int main(int argc, char **argv)
{
    h_init("basic_found_in_the_wild", argc, argv);
    H_RUN_T(switch_on_local_id_between_barriers, 60);
    H_RUN_T(switch_on_group_id_between_barriers, 60);
    H_RUN_T(string_constants_that_read_like_ir, 60);
    H_RUN_T(helpers_named_like_barriers, 60);
    H_RUN_T(many_values_across_a_barrier, 120);
    H_RUN_T(hi_of_a_three_component_vector_stored_whole, 60);
    return h_done();
}
