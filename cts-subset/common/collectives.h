/* ferrocl cts-subset: shared by workgroups/ and subgroups/ — a kernel that
 * runs every reduce and scan (add, min, max) and all/any of one scope
 * (work_group_ or sub_group_) on one type, and the host reference.
 *
 * The reference needs, per work-item, the span it belongs to (its
 * work-group, or its sub-group within it) and its position there (local
 * linear id, or sub-group local id); it combines each span's values in
 * position order, so results (floats too) must match exactly. */
#ifndef FERROCL_CTS_COLLECTIVES_H
#define FERROCL_CTS_COLLECTIVES_H

#include "harness.h"
#include <math.h>
#include <stdint.h>

/* Whether the device has work-group collectives / sub-groups; skips the
 * sub-test if not. */
static inline int c_need_collectives(void)
{
    cl_bool on = CL_FALSE;
    clGetDeviceInfo(h_device(), CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, sizeof on, &on,
                    NULL);
    if (!on) h_skip("no work-group collective functions");
    return on;
}

static inline int c_need_sub_groups(void)
{
    cl_uint max = 0;
    clGetDeviceInfo(h_device(), CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof max, &max, NULL);
    if (!max) h_skip("no sub-groups");
    return max > 0;
}

/* Whether CL_DEVICE_OPENCL_C_FEATURES names `feature`. */
static inline int c_has_feature(const char *feature)
{
    size_t size = 0;
    clGetDeviceInfo(h_device(), CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &size);
    cl_name_version *f = malloc(size + 1);
    int found = 0;
    if (clGetDeviceInfo(h_device(), CL_DEVICE_OPENCL_C_FEATURES, size, f, NULL) == CL_SUCCESS)
        for (size_t i = 0; i < size / sizeof *f; i++) found |= strcmp(f[i].name, feature) == 0;
    free(f);
    return found;
}

enum c_type { C_INT, C_UINT, C_LONG, C_ULONG, C_FLOAT, C_DOUBLE, C_TYPES };
static const char *const c_type_name[C_TYPES] = {"int", "uint", "long", "ulong", "float", "double"};
static const size_t c_type_size[C_TYPES] = {4, 4, 8, 8, 4, 8};

typedef union {
    cl_int i;
    cl_uint u;
    cl_long l;
    cl_ulong ul;
    cl_float f;
    cl_double d;
} c_value;

enum c_op { C_ADD, C_MIN, C_MAX };
static const char *const c_op_name[3] = {"add", "min", "max"};
/* Output f of the kernel: kind f / 3 (reduce, scan_inclusive,
 * scan_exclusive) with operation f % 3. */
#define C_FUNCS 9
static const char *const c_kind_name[3] = {"reduce", "scan_inclusive", "scan_exclusive"};

static const char *c_kernel_src =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#define CAT2(a, b) a##b\n"
    "#define CAT(a, b) CAT2(a, b)\n"
    "#define FN(name) CAT(SCOPE, name)\n"
    "kernel void all_funcs(global const T *in, global T *out, global int *votes) {\n"
    "  size_t i = (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0)\n"
    "             + get_global_id(0);\n"
    "  size_t n = get_global_size(0) * get_global_size(1) * get_global_size(2);\n"
    "  T x = in[i];\n"
    "  out[0 * n + i] = FN(reduce_add)(x);\n"
    "  out[1 * n + i] = FN(reduce_min)(x);\n"
    "  out[2 * n + i] = FN(reduce_max)(x);\n"
    "  out[3 * n + i] = FN(scan_inclusive_add)(x);\n"
    "  out[4 * n + i] = FN(scan_inclusive_min)(x);\n"
    "  out[5 * n + i] = FN(scan_inclusive_max)(x);\n"
    "  out[6 * n + i] = FN(scan_exclusive_add)(x);\n"
    "  out[7 * n + i] = FN(scan_exclusive_min)(x);\n"
    "  out[8 * n + i] = FN(scan_exclusive_max)(x);\n"
    "  votes[0 * n + i] = FN(all)(x > (T)0);\n"
    "  votes[1 * n + i] = FN(any)(x > (T)0);\n"
    "}\n";

static c_value c_identity(enum c_type t, enum c_op op)
{
    c_value v;
    memset(&v, 0, sizeof v);
    if (op == C_ADD) return v;
    int min = op == C_MIN; /* min's identity is the type's largest value */
    switch (t) {
    case C_INT: v.i = min ? INT32_MAX : INT32_MIN; break;
    case C_UINT: v.u = min ? UINT32_MAX : 0; break;
    case C_LONG: v.l = min ? INT64_MAX : INT64_MIN; break;
    case C_ULONG: v.ul = min ? UINT64_MAX : 0; break;
    case C_FLOAT: v.f = min ? INFINITY : -INFINITY; break;
    case C_DOUBLE: v.d = min ? INFINITY : -INFINITY; break;
    default: break;
    }
    return v;
}

#define C_COMBINE(field)                                                          \
    r.field = op == C_ADD ? a.field + b.field                                      \
            : op == C_MIN ? (b.field < a.field ? b.field : a.field)                \
                          : (a.field < b.field ? b.field : a.field)

static c_value c_combine(enum c_type t, enum c_op op, c_value a, c_value b)
{
    c_value r;
    memset(&r, 0, sizeof r);
    switch (t) {
    case C_INT: r.u = op == C_ADD ? a.u + b.u : 0; /* wraps like the device */
        if (op != C_ADD) C_COMBINE(i);
        break;
    case C_UINT: C_COMBINE(u); break;
    case C_LONG: r.ul = op == C_ADD ? a.ul + b.ul : 0;
        if (op != C_ADD) C_COMBINE(l);
        break;
    case C_ULONG: C_COMBINE(ul); break;
    case C_FLOAT: C_COMBINE(f); break;
    case C_DOUBLE: C_COMBINE(d); break;
    default: break;
    }
    return r;
}

static c_value c_get(enum c_type t, const void *base, size_t i)
{
    c_value v;
    memset(&v, 0, sizeof v);
    memcpy(&v, (const char *)base + i * c_type_size[t], c_type_size[t]);
    return v;
}

/* Random inputs: small signed values (some sums overflow nothing), wide
 * unsigned ones (sums wrap), floats with fractions. */
static void c_fill(enum c_type t, void *base, size_t n, unsigned seed)
{
    srand(seed);
    for (size_t i = 0; i < n; i++) {
        c_value v;
        memset(&v, 0, sizeof v);
        long r = rand() % 2001 - 1000;
        switch (t) {
        case C_INT: v.i = (cl_int)r; break;
        case C_UINT: v.u = (cl_uint)rand() * 2654435761u; break;
        case C_LONG: v.l = (cl_long)r * 1000003; break;
        case C_ULONG: v.ul = ((cl_ulong)rand() << 33) ^ (cl_ulong)rand(); break;
        case C_FLOAT: v.f = (cl_float)r / 7.0f; break;
        case C_DOUBLE: v.d = (cl_double)r / 7.0; break;
        default: break;
        }
        memcpy((char *)base + i * c_type_size[t], &v, c_type_size[t]);
    }
}

/* Items ordered by (span, position). */
static const size_t *c_sort_span, *c_sort_pos;
static int c_by_span(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    if (c_sort_span[x] != c_sort_span[y]) return c_sort_span[x] < c_sort_span[y] ? -1 : 1;
    return c_sort_pos[x] < c_sort_pos[y] ? -1 : c_sort_pos[x] > c_sort_pos[y];
}

/* Checks `out` (C_FUNCS arrays of n values) and `votes` (all, any) against
 * the reference for inputs `in`; returns the number of wrong values and
 * describes the first in `why`. */
static size_t c_check(enum c_type t, size_t n, const void *in, const void *out,
                      const cl_int *votes, const size_t *span, const size_t *pos, char *why,
                      size_t why_size)
{
    size_t *order = malloc(n * sizeof *order);
    for (size_t i = 0; i < n; i++) order[i] = i;
    c_sort_span = span;
    c_sort_pos = pos;
    qsort(order, n, sizeof *order, c_by_span);
    size_t bad = 0;
    for (size_t first = 0, end; first < n; first = end) {
        for (end = first; end < n && span[order[end]] == span[order[first]]; end++) {}
        cl_int all = 1, any = 0;
        for (size_t k = first; k < end; k++) {
            c_value v = c_get(t, in, order[k]);
            int positive = t == C_FLOAT ? v.f > 0 : t == C_DOUBLE ? v.d > 0
                         : t == C_INT ? v.i > 0 : t == C_LONG ? v.l > 0
                         : t == C_UINT ? v.u > 0 : v.ul > 0;
            all &= positive;
            any |= positive;
        }
        for (int op = 0; op < 3; op++) {
            c_value total = c_identity(t, op);
            for (size_t k = first; k < end; k++)
                total = c_combine(t, op, total, c_get(t, in, order[k]));
            c_value acc = c_identity(t, op);
            for (size_t k = first; k < end; k++) {
                size_t i = order[k];
                c_value before = acc;
                acc = c_combine(t, op, acc, c_get(t, in, i));
                c_value want[3] = {total, acc, before};
                for (int kind = 0; kind < 3; kind++) {
                    c_value got = c_get(t, out, (size_t)(kind * 3 + op) * n + i);
                    if (memcmp(&got, &want[kind], c_type_size[t]) == 0) continue;
                    if (!bad++)
                        snprintf(why, why_size, "%s_%s(%s) of item %zu (position %zu)",
                                 c_kind_name[kind], c_op_name[op], c_type_name[t], i, pos[i]);
                }
            }
        }
        for (size_t k = first; k < end; k++) {
            size_t i = order[k];
            if (votes[i] != all || votes[n + i] != any) {
                if (!bad++)
                    snprintf(why, why_size, "all/any of item %zu: %d %d, expected %d %d", i,
                             votes[i], votes[n + i], all, any);
            }
        }
    }
    free(order);
    return bad;
}

/* Runs all_funcs of `p` over the range; fills out (C_FUNCS * n values) and
 * votes (2 * n). Returns the enqueue's error. */
static cl_int c_run(cl_context c, cl_command_queue q, cl_program p, enum c_type t, cl_uint dims,
                    const size_t *g, const size_t *l, const void *in, void *out, cl_int *votes)
{
    size_t n = g[0] * (dims > 1 ? g[1] : 1) * (dims > 2 ? g[2] : 1);
    size_t es = c_type_size[t];
    cl_int e;
    cl_kernel k = clCreateKernel(p, "all_funcs", &e);
    if (!k) return e;
    cl_mem bi = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, n * es, (void *)in, &e);
    cl_mem bo = clCreateBuffer(c, CL_MEM_READ_WRITE, C_FUNCS * n * es, NULL, &e);
    cl_mem bv = clCreateBuffer(c, CL_MEM_READ_WRITE, 2 * n * sizeof(cl_int), NULL, &e);
    clSetKernelArg(k, 0, sizeof bi, &bi);
    clSetKernelArg(k, 1, sizeof bo, &bo);
    clSetKernelArg(k, 2, sizeof bv, &bv);
    e = clEnqueueNDRangeKernel(q, k, dims, NULL, g, l, 0, NULL, NULL);
    if (e == CL_SUCCESS) e = clEnqueueReadBuffer(q, bo, CL_TRUE, 0, C_FUNCS * n * es, out, 0, NULL, NULL);
    if (e == CL_SUCCESS)
        e = clEnqueueReadBuffer(q, bv, CL_TRUE, 0, 2 * n * sizeof(cl_int), votes, 0, NULL, NULL);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    clReleaseMemObject(bv);
    clReleaseKernel(k);
    return e;
}

/* The work-group geometry of global linear item i of a range with
 * possibly smaller last groups: its group's linear index, the group's
 * size in each dimension and the item's local id. */
static void c_item(cl_uint dims, const size_t *g, const size_t *l, size_t i, size_t *group,
                   size_t size[3], size_t lid[3])
{
    size_t gs[3] = {g[0], dims > 1 ? g[1] : 1, dims > 2 ? g[2] : 1};
    size_t ls[3] = {l[0], dims > 1 ? l[1] : 1, dims > 2 ? l[2] : 1};
    size_t id[3] = {i % gs[0], i / gs[0] % gs[1], i / (gs[0] * gs[1])};
    size_t grp[3], ng[3];
    for (int d = 0; d < 3; d++) {
        grp[d] = id[d] / ls[d];
        ng[d] = (gs[d] + ls[d] - 1) / ls[d];
        lid[d] = id[d] % ls[d];
        size[d] = gs[d] - grp[d] * ls[d] < ls[d] ? gs[d] - grp[d] * ls[d] : ls[d];
    }
    *group = (grp[2] * ng[1] + grp[1]) * ng[0] + grp[0];
}

/* Consecutive collectives of one scope, each kind right after another
 * (any then broadcast, reduce then broadcast, scan then broadcast,
 * broadcast then all, ...), in a loop: each collective's results must
 * survive the next collective's stores to the shared scratch. SPAN is the
 * number of work-items taking part (get_sub_group_size() or
 * get_local_size(0)); broadcast sources move with the round. 1-D, int. */
#define C_CHAIN_OUT 9
static const char *c_chain_src =
    "#define CAT2(a, b) a##b\n"
    "#define CAT(a, b) CAT2(a, b)\n"
    "#define FN(name) CAT(SCOPE, name)\n"
    "kernel void chain(global const int *in, global int *out, int rounds, int seed) {\n"
    "  size_t i = get_global_id(0);\n"
    "  uint n = SPAN;\n"
    "  int x = in[i];\n"
    "  global int *o = out + i * rounds * 9;\n"
    "  for (int r = 0; r < rounds; r++, o += 9) {\n"
    "    int v = x * (r + 1) + seed;\n"
    "    o[0] = FN(any)(((v + r) & 7) == 0);\n"
    "    o[1] = FN(broadcast)(v, (uint)(r * 5 + seed) % n);\n"
    "    o[2] = FN(reduce_add)(v);\n"
    "    o[3] = FN(broadcast)(o[2] - v, (uint)(r + 3) % n);\n"
    "    o[4] = FN(all)(v > -15);\n"
    "    o[5] = FN(scan_inclusive_add)(v);\n"
    "    o[6] = FN(broadcast)(o[5], n - 1);\n"
    "    o[7] = FN(reduce_max)(v);\n"
    "    o[8] = FN(scan_exclusive_min)(v);\n"
    "  }\n"
    "}\n";

/* Runs chain (kernel k of c_chain_src) over `groups` groups of `local`
 * items, spans of `span` consecutive local ids (the last one of a group
 * smaller), and checks every result; returns how many are wrong and
 * describes the first in why. */
static size_t c_chain(cl_context c, cl_command_queue q, cl_kernel k, size_t local, size_t groups,
                      size_t span, int rounds, int seed, char *why, size_t why_size)
{
    size_t n = local * groups, bad = 0, outs = n * (size_t)rounds * C_CHAIN_OUT;
    cl_int *in = malloc(n * sizeof *in), *out = malloc(outs * sizeof *out);
    for (size_t i = 0; i < n; i++)
        in[i] = (cl_int)(((uint32_t)(i * 2654435761u + (unsigned)seed * 97u) >> 7) % 41) - 20;
    cl_int e;
    cl_mem bi = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, n * sizeof *in, in, &e);
    cl_mem bo = clCreateBuffer(c, CL_MEM_READ_WRITE, outs * sizeof *out, NULL, &e);
    clSetKernelArg(k, 0, sizeof bi, &bi);
    clSetKernelArg(k, 1, sizeof bo, &bo);
    clSetKernelArg(k, 2, sizeof rounds, &rounds);
    clSetKernelArg(k, 3, sizeof seed, &seed);
    e = clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &local, 0, NULL, NULL);
    if (e == CL_SUCCESS)
        e = clEnqueueReadBuffer(q, bo, CL_TRUE, 0, outs * sizeof *out, out, 0, NULL, NULL);
    if (e != CL_SUCCESS) {
        snprintf(why, why_size, "run: %s", h_err(e));
        bad = 1;
    }
    for (size_t i = 0; i < n && e == CL_SUCCESS; i++) {
        size_t lli = i % local, first = i - lli % span, left = i - lli + local - first;
        size_t count = left < span ? left : span, me = i - first;
        for (int r = 0; r < rounds; r++) {
            cl_int v[64], any = 0, all = 1, sum = 0, max = INT32_MIN, incl = 0, excl = INT32_MAX;
            for (size_t j = 0; j < count; j++) {
                v[j] = in[first + j] * (r + 1) + seed;
                any |= ((v[j] + r) & 7) == 0;
                all &= v[j] > -15;
                sum += v[j];
                max = v[j] > max ? v[j] : max;
            }
            for (size_t j = 0; j <= me; j++) incl += v[j];
            for (size_t j = 0; j < me; j++) excl = v[j] < excl ? v[j] : excl;
            cl_int want[C_CHAIN_OUT] = {any, v[(size_t)(r * 5 + seed) % count], sum,
                                        sum - v[(size_t)(r + 3) % count], all, incl, sum, max,
                                        excl};
            const cl_int *got = out + (i * (size_t)rounds + (size_t)r) * C_CHAIN_OUT;
            for (int f = 0; f < C_CHAIN_OUT; f++)
                if ((got[f] != 0) != (want[f] != 0) || (f != 0 && f != 4 && got[f] != want[f])) {
                    if (!bad++)
                        snprintf(why, why_size,
                                 "local %zu seed %d item %zu round %d result %d: %d, expected %d",
                                 local, seed, i, r, f, got[f], want[f]);
                }
        }
    }
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    free(in), free(out);
    return bad;
}

/* The consecutive-collectives test of one scope: local sizes 60 (a partial
 * last sub-group of 4), 64 and 7, five groups each, seeds that move the
 * broadcast sources, 24 rounds of nine collectives per launch. */
static void c_chain_test(int sub_groups)
{
    if (sub_groups ? !c_need_sub_groups() : !c_need_collectives()) return;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, c_chain_src,
                           sub_groups ? "-cl-std=CL3.0 -DSCOPE=sub_group_ -DSPAN=get_sub_group_size()"
                                      : "-cl-std=CL3.0 -DSCOPE=work_group_ -DSPAN=get_local_size(0)");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "chain", &e);
    REQUIRE(k, "kernel: %s", h_err(e));
    static const size_t locals[] = {60, 64, 7};
    for (size_t s = 0; s < 3 && !h_failed(); s++) {
        size_t span = locals[s];
        if (sub_groups)
            CHECK_OK(clGetKernelSubGroupInfo(k, h_device(),
                                             CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                             sizeof(size_t), &locals[s], sizeof span, &span, NULL));
        REQUIRE(span > 0 && span <= 64, "span %zu", span);
        for (int seed = 1; seed <= 12 && !h_failed(); seed++) {
            char why[200] = "";
            size_t bad = c_chain(c, q, k, locals[s], 5, span, 24, seed, why, sizeof why);
            CHECK(bad == 0, "%zu wrong, first: %s", bad, why);
        }
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

#endif
