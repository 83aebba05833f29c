/* c11_atomics: the OpenCL C 2.0/3.0 atomic functions, every family in every
 * form (plain, _explicit with a memory order, _explicit with an order and a
 * scope), every order and scope the device reports, for int, uint, long,
 * ulong, intptr_t, uintptr_t, size_t, ptrdiff_t (and float, double where the
 * functions exist), on __global, __local and generic pointers (generic ones
 * pointing to global and to local memory). Each form works on an object of
 * its own, so a form that is missing, misordered or not atomic shows in its
 * own slot. */
#include "harness.h"
#include <stdarg.h>

enum { N = 64, GS = 16 }; /* work-items, work-group size */

/* The forms below use every order and scope: the device must report them
 * all (else the sub-test is skipped). */
static int need_all_orders_and_scopes(void)
{
    if (!h_device()) return 0;
    cl_device_atomic_capabilities caps = 0,
        all = CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
              CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
              CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
    clGetDeviceInfo(h_device(), CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, sizeof caps, &caps, NULL);
    if ((caps & all) == all) return 1;
    h_skip("CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES 0x%llx lacks some of 0x%llx",
           (unsigned long long)caps, (unsigned long long)all);
    return 0;
}

/* ---- the types --------------------------------------------------------- */

struct type {
    const char *name, *atomic;
    int size, is_signed, is_float;
};

static const struct type TYPES[] = {
    {"int", "atomic_int", 4, 1, 0},
    {"uint", "atomic_uint", 4, 0, 0},
    {"long", "atomic_long", 8, 1, 0},
    {"ulong", "atomic_ulong", 8, 0, 0},
    {"intptr_t", "atomic_intptr_t", 8, 1, 0},
    {"uintptr_t", "atomic_uintptr_t", 8, 0, 0},
    {"size_t", "atomic_size_t", 8, 0, 0},
    {"ptrdiff_t", "atomic_ptrdiff_t", 8, 1, 0},
    {"float", "atomic_float", 4, 1, 1},
    {"double", "atomic_double", 8, 1, 1},
};
enum { NTYPES = sizeof TYPES / sizeof TYPES[0] };

/* Values are handled on the host as the type's bits in a uint64_t. */
static uint64_t mask(const struct type *t, uint64_t v)
{
    return t->size == 8 ? v : (v & 0xffffffffu);
}

static int64_t as_signed(const struct type *t, uint64_t v)
{
    return t->size == 8 ? (int64_t)v : (int64_t)(int32_t)(uint32_t)v;
}

static uint64_t from_double(const struct type *t, double d)
{
    if (t->size == 4) {
        float f = (float)d;
        uint32_t b;
        memcpy(&b, &f, 4);
        return b;
    }
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

/* ---- the forms of each function ---------------------------------------- */

static const char *ORDERS[] = {"memory_order_relaxed", "memory_order_acquire",
                               "memory_order_release", "memory_order_acq_rel",
                               "memory_order_seq_cst"};
static const char *LOAD_ORDERS[] = {"memory_order_relaxed", "memory_order_acquire",
                                    "memory_order_seq_cst"};
static const char *STORE_ORDERS[] = {"memory_order_relaxed", "memory_order_release",
                                     "memory_order_seq_cst"};
static const char *SCOPES[] = {"memory_scope_work_group", "memory_scope_device",
                               "memory_scope_all_svm_devices", "memory_scope_all_devices"};
/* compare_exchange (success, failure): failure neither release nor acq_rel
 * and no stronger than success. */
static const char *CAS_ORDERS[][2] = {
    {"memory_order_relaxed", "memory_order_relaxed"},
    {"memory_order_acquire", "memory_order_relaxed"},
    {"memory_order_acquire", "memory_order_acquire"},
    {"memory_order_release", "memory_order_relaxed"},
    {"memory_order_acq_rel", "memory_order_relaxed"},
    {"memory_order_acq_rel", "memory_order_acquire"},
    {"memory_order_seq_cst", "memory_order_relaxed"},
    {"memory_order_seq_cst", "memory_order_acquire"},
    {"memory_order_seq_cst", "memory_order_seq_cst"},
};
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

struct text {
    char *s;
    size_t len, cap;
};

static void put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct text *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (t->s && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        t->cap = (t->cap + (size_t)n + 1) * 2;
        t->s = realloc(t->s, t->cap);
    }
}

/* The order (and scope) arguments of a function's forms: "" for the plain
 * form, then ", order" for each order, then ", order, scope". */
enum { MAX_FORMS = 64 };
static int form_args(const char **orders, int norders, char args[MAX_FORMS][96])
{
    int n = 0;
    args[n++][0] = 0;
    for (int o = 0; o < norders; o++) snprintf(args[n++], 96, ", %s", orders[o]);
    for (int o = 0; o < norders; o++)
        for (int s = 0; s < COUNT(SCOPES); s++)
            snprintf(args[n++], 96, ", %s, %s", orders[o], SCOPES[s]);
    return n;
}

/* One statement per form of atomic_<fn>(S(slot)<args><order, scope>), each
 * on an object of its own. Returns the number of forms. */
static int forms(struct text *t, const char *fn, const char *args, const char **orders,
                 int norders)
{
    char oargs[MAX_FORMS][96];
    int n = form_args(orders, norders, oargs);
    for (int k = 0; k < n; k++)
        put(t, "  R(%d) atomic_%s%s(S(%d)%s%s);\n", k, fn, k ? "_explicit" : "", k, args,
            oargs[k]);
    return n;
}

/* compare_exchange forms: each increments its object by a CAS loop (the
 * expected value in private memory, updated by each failure). */
static int cas_forms(struct text *t, const char *fn)
{
    int n = 0;
    put(t, "  { T e = atomic_load(S(%d)); while (!atomic_%s(S(%d), &e, e + (T)1)) ; }\n", n, fn,
        n);
    n++;
    for (int sc = -1; sc < COUNT(SCOPES); sc++)
        for (int o = 0; o < COUNT(CAS_ORDERS); o++, n++)
            put(t,
                "  { T e = atomic_load(S(%d)); while (!atomic_%s_explicit(S(%d), &e, e + (T)1, "
                "%s, %s%s%s)) ; }\n",
                n, fn, n, CAS_ORDERS[o][0], CAS_ORDERS[o][1], sc < 0 ? "" : ", ",
                sc < 0 ? "" : SCOPES[sc]);
    return n;
}

/* The body (forms) as three functions, on __global, __local and generic
 * pointers, and the four kernels that run it: k_global, k_local (on a
 * __local copy per group, read back by work-item 0), k_generic_global,
 * k_generic_local. `body` fills the function; `slots` objects; `extra`
 * parameters after p (e.g. ", T v"); `call` their arguments. */
typedef int (*body_fn)(struct text *t, const char *fn);

/* The start of a program for type `ty`. */
static void program_start(struct text *t, const struct type *ty, const char *prelude)
{
    put(t, "#define T %s\n#define AT %s\n%s\n", ty->name, ty->atomic, prelude);
}

/* Appends function fn's forms, as three functions forms_<fn>_<space>, and
 * the four kernels that run them: k_<fn>_global, k_<fn>_local (on a
 * __local copy per group, read back by work-item 0), k_<fn>_generic_global
 * and k_<fn>_generic_local. `params` are the parameters after p (e.g.
 * ", T v"), `call` their arguments. Returns the number of objects. */
static int program_part(struct text *t, body_fn body, const char *fn, const char *params,
                        const char *call)
{
    const char *spaces[] = {"global", "local", ""};
    int slots = 0;
    for (int s = 0; s < 3; s++) {
        put(t, "void forms_%s_%s(volatile %s AT *p%s) {\n", fn,
            *spaces[s] ? spaces[s] : "generic", spaces[s], params);
        slots = body(t, fn);
        put(t, "}\n");
    }
    put(t,
        "kernel void k_%s_global(global AT *g, global T *out) { size_t i = get_global_id(0); "
        "forms_%s_global(g%s); }\n"
        "kernel void k_%s_generic_global(global AT *g, global T *out) { size_t i = "
        "get_global_id(0); forms_%s_generic(g%s); }\n",
        fn, fn, call, fn, fn, call);
    const char *local_kernel =
        "kernel void k_%s_%s(global AT *g, global T *out) {\n"
        "  local AT l[%d];\n"
        "  size_t i = get_global_id(0), grp = get_group_id(0);\n"
        "  if (get_local_id(0) == 0) for (int k = 0; k < %d; k++) atomic_init(&l[k], "
        "atomic_load(&g[k]));\n"
        "  work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  forms_%s_%s(l%s);\n"
        "  work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  if (get_local_id(0) == 0) for (int k = 0; k < %d; k++) out[grp * %d + k] = "
        "atomic_load(&l[k]);\n"
        "}\n";
    put(t, local_kernel, fn, "local", slots, slots, fn, "local", call, slots, slots);
    put(t, local_kernel, fn, "generic_local", slots, slots, fn, "generic", call, slots, slots);
    return slots;
}

static int rmw_body(struct text *t, const char *fn)
{
    return forms(t, fn, ", v", ORDERS, COUNT(ORDERS));
}

static int cas_body(struct text *t, const char *fn)
{
    return cas_forms(t, fn);
}

static const char *KERNELS[] = {"k_global", "k_local", "k_generic_global", "k_generic_local"};

/* A built program with its queue and two buffers: g (the atomic objects)
 * and out (what the kernels write). */
struct env {
    cl_context c;
    cl_command_queue q;
    cl_program p;
    cl_mem g, out;
    size_t g_bytes, out_bytes;
};

static int env_open(struct env *v, const char *src, size_t g_bytes, size_t out_bytes)
{
    cl_int e;
    memset(v, 0, sizeof *v);
    v->c = h_context();
    v->q = h_queue(v->c, 0);
    v->p = h_build(v->c, src, "-cl-std=CL3.0");
    v->g = clCreateBuffer(v->c, CL_MEM_READ_WRITE, g_bytes, NULL, &e);
    v->out = clCreateBuffer(v->c, CL_MEM_READ_WRITE, out_bytes, NULL, &e);
    v->g_bytes = g_bytes, v->out_bytes = out_bytes;
    return v->p && v->g && v->out;
}

/* Writes g (and out, if given), runs `kernel` over N work-items in groups
 * of GS, reads both back. */
static void env_run(struct env *v, const char *kernel, void *g, void *out, int write_out)
{
    cl_int e;
    cl_kernel k = clCreateKernel(v->p, kernel, &e);
    REQUIRE(k, "kernel %s: %s", kernel, h_err(e));
    CHECK_OK(clEnqueueWriteBuffer(v->q, v->g, CL_TRUE, 0, v->g_bytes, g, 0, NULL, NULL));
    if (write_out)
        CHECK_OK(clEnqueueWriteBuffer(v->q, v->out, CL_TRUE, 0, v->out_bytes, out, 0, NULL, NULL));
    CHECK_OK(clSetKernelArg(k, 0, sizeof v->g, &v->g));
    CHECK_OK(clSetKernelArg(k, 1, sizeof v->out, &v->out));
    size_t gsz = N, lsz = GS;
    CHECK_OK(clEnqueueNDRangeKernel(v->q, k, 1, NULL, &gsz, &lsz, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(v->q, v->g, CL_TRUE, 0, v->g_bytes, g, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(v->q, v->out, CL_TRUE, 0, v->out_bytes, out, 0, NULL, NULL));
    clReleaseKernel(k);
}

static void env_close(struct env *v)
{
    if (v->g) clReleaseMemObject(v->g);
    if (v->out) clReleaseMemObject(v->out);
    if (v->p) clReleaseProgram(v->p);
    if (v->q) clReleaseCommandQueue(v->q);
    if (v->c) clReleaseContext(v->c);
}

/* Runs the four kernels of `src` with every object starting at `init`;
 * check(slot-result, group or -1 for global, arg) judges each object's end
 * value. */
typedef int (*judge_fn)(const struct type *t, uint64_t got, int group, const void *arg);

/* Opens an env for `src` with room for `slots` objects of type `ty`. */
static int env_for(struct env *v, const struct type *ty, const char *src, int slots)
{
    size_t sz = (size_t)ty->size;
    if (env_open(v, src, (size_t)slots * sz * N, (size_t)slots * sz * N)) return 1;
    h_fail_at(__FILE__, __LINE__, "build for %s", ty->name);
    env_close(v);
    return 0;
}

static void run_four(struct env *v, const struct type *ty, const char *fn, int slots,
                     uint64_t init, judge_fn judge, const void *arg)
{
    size_t sz = (size_t)ty->size;
    unsigned char *gv = calloc(1, v->g_bytes), *res = calloc(1, v->out_bytes);
    for (int m = 0; m < 4 && !h_failed(); m++) {
        char name[96];
        snprintf(name, sizeof name, "k_%s_%s", fn, KERNELS[m] + 2);
        for (int k = 0; k < slots; k++) memcpy(gv + (size_t)k * sz, &init, sz);
        env_run(v, name, gv, res, 0);
        int local = m == 1 || m == 3;
        int bad = 0, first = -1;
        for (int grp = 0; grp < (local ? N / GS : 1); grp++)
            for (int s = 0; s < slots; s++) {
                uint64_t x = 0;
                memcpy(&x, (local ? res : gv) + ((size_t)grp * slots + s) * sz, sz);
                if (!judge(ty, x, local ? grp : -1, arg)) bad++, first = first < 0 ? s : first;
            }
        CHECK(bad == 0, "%s on %s, %s: %d of %d objects wrong (first: form %d)", fn, ty->name,
              name, bad, local ? slots * (N / GS) : slots, first);
    }
    free(gv);
    free(res);
}

/* ---- fetch_<op> -------------------------------------------------------- */

struct rmw {
    const char *fn, *value; /* OpenCL C expression of i */
    int op;                 /* 0 add, 1 sub, 2 or, 3 and, 4 xor, 5 min, 6 max */
};

static uint64_t rmw_value(const struct type *t, int op, uint64_t i)
{
    int bits = t->size * 8;
    switch (op) {
    case 0: case 1: return mask(t, i + 1);
    case 2: return mask(t, (uint64_t)1 << (i % (uint64_t)bits));
    case 3: return mask(t, ~((uint64_t)1 << (i % (uint64_t)bits)));
    default: return mask(t, i * 0x9E3779B97F4A7C15ull);
    }
}

static uint64_t rmw_init(const struct type *t, int op)
{
    switch (op) {
    case 3: return mask(t, ~0ull);
    case 5: return t->is_signed ? mask(t, t->size == 8 ? INT64_MAX : INT32_MAX) : mask(t, ~0ull);
    case 6: return t->is_signed ? mask(t, t->size == 8 ? (uint64_t)INT64_MIN : 0x80000000u) : 0;
    default: return 0;
    }
}

static uint64_t rmw_apply(const struct type *t, int op, uint64_t a, uint64_t v)
{
    int less = t->is_signed ? as_signed(t, v) < as_signed(t, a) : v < a;
    switch (op) {
    case 0: return mask(t, a + v);
    case 1: return mask(t, a - v);
    case 2: return a | v;
    case 3: return a & v;
    case 4: return a ^ v;
    case 5: return less ? v : a;
    default: return less ? a : v;
    }
}

struct rmw_arg {
    int op;
};

static int rmw_judge(const struct type *t, uint64_t got, int group, const void *arg)
{
    int op = ((const struct rmw_arg *)arg)->op;
    uint64_t want = rmw_init(t, op);
    for (uint64_t i = 0; i < N; i++)
        if (group < 0 || (int)(i / GS) == group) want = rmw_apply(t, op, want, rmw_value(t, op, i));
    return mask(t, got) == want;
}

static const struct rmw RMWS[] = {
    {"fetch_add", "(T)(i + 1)", 0},
    {"fetch_sub", "(T)(i + 1)", 1},
    {"fetch_or", "(T)((T)1 << (i % (sizeof(T) * 8)))", 2},
    {"fetch_and", "(T)~((T)1 << (i % (sizeof(T) * 8)))", 3},
    {"fetch_xor", "(T)(i * 0x9E3779B97F4A7C15ul)", 4},
    {"fetch_min", "(T)(i * 0x9E3779B97F4A7C15ul)", 5},
    {"fetch_max", "(T)(i * 0x9E3779B97F4A7C15ul)", 6},
};

/* One program per type with every operation of `ops`. */
static void rmw_ops(const struct type *ty, const struct rmw *ops, int nops, judge_fn judge,
                    uint64_t (*init)(const struct type *, int))
{
    struct text t = {0};
    program_start(&t, ty, "#define R(k)\n#define S(k) (p + (k))");
    int slots = 0;
    for (int r = 0; r < nops; r++) {
        char call[128];
        snprintf(call, sizeof call, ", %s", ops[r].value);
        slots = program_part(&t, rmw_body, ops[r].fn, ", T v", call);
    }
    struct env v;
    int built = env_for(&v, ty, t.s, slots);
    free(t.s);
    if (!built) return;
    for (int r = 0; r < nops && !h_failed(); r++) {
        struct rmw_arg a = {ops[r].op};
        run_four(&v, ty, ops[r].fn, slots, init(ty, ops[r].op), judge, &a);
    }
    env_close(&v);
}

static void rmw_type(const struct type *ty)
{
    if (!need_all_orders_and_scopes()) return;
    rmw_ops(ty, RMWS, COUNT(RMWS), rmw_judge, rmw_init);
}

TEST(fetch_ops_int) { rmw_type(&TYPES[0]); }
TEST(fetch_ops_uint) { rmw_type(&TYPES[1]); }
TEST(fetch_ops_long) { rmw_type(&TYPES[2]); }
TEST(fetch_ops_ulong) { rmw_type(&TYPES[3]); }
TEST(fetch_ops_intptr_uintptr_size_ptrdiff)
{
    for (int t = 4; t < 8 && !h_failed() && !h_skipped(); t++) rmw_type(&TYPES[t]);
}

/* ---- cl_ext_float_atomics: float and double fetch_add/sub/min/max ------ */

static double float_value(int op, int i)
{
    return op < 2 ? i + 1 : (double)((i * 37) % 101) - 50.5;
}

static double float_init(int op)
{
    return op == 5 ? 1000.0 : op == 6 ? -1000.0 : 0.0;
}

static uint64_t float_init_bits(const struct type *t, int op)
{
    return from_double(t, float_init(op));
}

static int float_judge(const struct type *t, uint64_t got, int group, const void *arg)
{
    int op = ((const struct rmw_arg *)arg)->op;
    double want = float_init(op);
    for (int i = 0; i < N; i++) {
        if (group >= 0 && i / GS != group) continue;
        double v = float_value(op, i);
        want = op == 0 ? want + v : op == 1 ? want - v : op == 5 ? (v < want ? v : want)
                                                                 : (v > want ? v : want);
    }
    return got == from_double(t, want);
}

TEST(float_fetch_add_sub_min_max)
{
    if (!need_all_orders_and_scopes()) return;
    char *ext = h_device_string(h_device(), CL_DEVICE_EXTENSIONS);
    int has = ext && strstr(ext, "cl_ext_float_atomics");
    free(ext);
    if (!has) {
        h_skip("no cl_ext_float_atomics");
        return;
    }
    const struct rmw ops[] = {
        {"fetch_add", "(T)(i + 1)", 0},
        {"fetch_sub", "(T)(i + 1)", 1},
        {"fetch_min", "(T)((i * 37) % 101) - (T)50.5", 5},
        {"fetch_max", "(T)((i * 37) % 101) - (T)50.5", 6},
    };
    for (int t = 8; t < NTYPES && !h_failed(); t++)
        rmw_ops(&TYPES[t], ops, COUNT(ops), float_judge, float_init_bits);
}

/* ---- compare_exchange_strong/weak: increments by CAS loops ------------- */

static int count_judge(const struct type *t, uint64_t got, int group, const void *arg)
{
    (void)arg;
    int n = group < 0 ? N : GS;
    return t->is_float ? got == from_double(t, n) : mask(t, got) == (uint64_t)n;
}

static void cas_type(const struct type *ty)
{
    if (!need_all_orders_and_scopes()) return;
    const char *fns[] = {"compare_exchange_strong", "compare_exchange_weak"};
    struct text t = {0};
    program_start(&t, ty, "#define S(k) (p + (k))");
    int slots = 0;
    for (int f = 0; f < 2; f++) slots = program_part(&t, cas_body, fns[f], "", "");
    struct env v;
    int built = env_for(&v, ty, t.s, slots);
    free(t.s);
    if (!built) return;
    for (int f = 0; f < 2 && !h_failed(); f++)
        run_four(&v, ty, fns[f], slots, 0, count_judge, NULL);
    env_close(&v);
}

TEST(compare_exchange_all_types)
{
    for (int t = 0; t < NTYPES && !h_failed() && !h_skipped(); t++) cas_type(&TYPES[t]);
}

/* ---- exchange: each object ends with one value, each value read once --- */

static const char *exchange_kernels =
    "#define T %s\n#define AT %s\n"
    "#define XFORMS(P, OUT, V) \\\n%s\n"
    "kernel void k_global(global AT *g, global T *out) { size_t i = get_global_id(0); "
    "XFORMS(g, out[s * %d + i], (T)(i + 1)) }\n"
    "void xg(volatile AT *p, global T *out, size_t i) { XFORMS(p, out[s * %d + i], (T)(i + 1)) "
    "}\n"
    "kernel void k_generic_global(global AT *g, global T *out) { xg(g, out, get_global_id(0)); "
    "}\n"
    "kernel void k_local(global AT *g, global T *out) {\n"
    "  local AT l[%d]; size_t i = get_global_id(0), grp = get_group_id(0);\n"
    "  if (get_local_id(0) == 0) for (int k = 0; k < %d; k++) atomic_init(&l[k], (T)0);\n"
    "  work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (grp %% 2) { XFORMS(l, out[s * %d + i], (T)(i + 1)) } else xg(l, out, i);\n"
    "  work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (get_local_id(0) == 0) for (int k = 0; k < %d; k++) atomic_store(&g[grp * %d + k], "
    "atomic_load(&l[k]));\n"
    "}\n";

static void exchange_type(const struct type *ty)
{
    if (!need_all_orders_and_scopes()) return;
    struct text forms_text = {0};
    int slots = forms(&forms_text, "exchange", ", V", ORDERS, COUNT(ORDERS));
    /* One statement per form, each in its own `s` scope, joined for the macro. */
    struct text body = {0};
    char *line = forms_text.s;
    for (int s = 0; s < slots; s++) {
        char *nl = strchr(line, '\n');
        *nl = 0;
        char *call = strstr(line, "atomic_");
        char *semi = strrchr(call, ';');
        *semi = 0;
        /* S(k) becomes (P + k): P is a parameter of the XFORMS macro */
        char *obj = strstr(call, "S(");
        put(&body, "  { int s = %d; OUT = %.*s(P + %s; } \\\n", s, (int)(obj - call), call,
            obj + 2);
        line = nl + 1;
    }
    put(&body, "  ;");
    char *src = malloc(body.len + 4096);
    sprintf(src, exchange_kernels, ty->name, ty->atomic, body.s, N, N, slots, slots, N, slots,
            slots);
    /* S(k) names the form's object in P. */
    char *full = malloc(strlen(src) + 64);
    sprintf(full, "#define R(k)\n%s", src);
    free(src);
    free(forms_text.s);
    free(body.s);

    size_t sz = (size_t)ty->size;
    struct env v;
    int built = env_open(&v, full, (size_t)slots * sz * (N / GS), (size_t)slots * sz * N);
    free(full);
    if (!built) {
        h_fail_at(__FILE__, __LINE__, "exchange on %s: build", ty->name);
        env_close(&v);
        return;
    }
    unsigned char *gv = malloc(v.g_bytes), *ov = malloc(v.out_bytes);
    const char *names[] = {"k_global", "k_generic_global", "k_local"};
    for (int m = 0; m < 3 && !h_failed(); m++) {
        memset(gv, 0, v.g_bytes);
        env_run(&v, names[m], gv, ov, 0);
        int bad = 0;
        int groups = m == 2 ? N / GS : 1, per = N / groups;
        for (int grp = 0; grp < groups; grp++)
            for (int s = 0; s < slots; s++) {
                /* values 0 (the initial one) and the group's i + 1: each
                 * exactly once among the returned values and the end value */
                int seen[N + 1] = {0};
                for (int i = -1; i < per; i++) {
                    uint64_t x = 0;
                    memcpy(&x,
                           i < 0 ? gv + ((size_t)grp * slots + s) * sz
                                 : ov + ((size_t)s * N + (size_t)grp * per + (size_t)i) * sz,
                           sz);
                    int val = -1;
                    for (int n = 0; n <= N; n++)
                        if (x == (ty->is_float ? from_double(ty, n) : (uint64_t)n)) val = n;
                    int ok = val == 0 || (val > grp * per && val <= (grp + 1) * per);
                    if (!ok || seen[val]++) bad++;
                }
            }
        CHECK(bad == 0, "exchange on %s, %s: %d values lost or duplicated", ty->name, names[m],
              bad);
    }
    free(gv);
    free(ov);
    env_close(&v);
}

TEST(exchange_all_types)
{
    for (int t = 0; t < NTYPES && !h_failed() && !h_skipped(); t++) exchange_type(&TYPES[t]);
}

/* ---- init, store and load ---------------------------------------------- */

/* Work-item i stores V(i) with every store form into objects of its own,
 * then reads each object back with a load form; out[form][i]. */
static const char *load_store_src =
    "#define T %s\n#define AT %s\n"
    "#define V(i) (T)((i) * 3 + 1)\n"
    "#define SF(P) %s\n"
    "#define LF(P, O) %s\n"
    "void ls_generic(volatile AT *p, global T *out, size_t i, size_t li) { SF(p) "
    "work_group_barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE); LF(p, out) }\n"
    "kernel void k_global(global AT *g, global T *out) { size_t i = get_global_id(0), li = i; "
    "SF(g) work_group_barrier(CLK_GLOBAL_MEM_FENCE); LF(g, out) }\n"
    "kernel void k_generic_global(global AT *g, global T *out) { size_t i = get_global_id(0); "
    "ls_generic(g, out, i, i); }\n"
    "kernel void k_local(global AT *g, global T *out) { local AT l[%d * %d]; size_t i = "
    "get_global_id(0), li = get_local_id(0);\n"
    "  SF(l) work_group_barrier(CLK_LOCAL_MEM_FENCE); LF(l, out) }\n"
    "kernel void k_generic_local(global AT *g, global T *out) { local AT l[%d * %d]; size_t i "
    "= get_global_id(0); ls_generic(l, out, i, get_local_id(0)); }\n";

static void load_store_type(const struct type *ty)
{
    if (!need_all_orders_and_scopes()) return;
    struct text sf = {0}, lf = {0};
    int nstore = 0, nload = 0;
    /* stores: atomic_init, then atomic_store's forms, on object (form, li) */
    int stride = N;
    char oargs[MAX_FORMS][96];
    put(&sf, "atomic_init(P + 0 * %d + li, V(i)); ", stride), nstore++;
    int n = form_args(STORE_ORDERS, COUNT(STORE_ORDERS), oargs);
    for (int k = 0; k < n; k++, nstore++)
        put(&sf, "atomic_store%s(P + %d * %d + li, V(i)%s); ", k ? "_explicit" : "", nstore,
            stride, oargs[k]);
    n = form_args(LOAD_ORDERS, COUNT(LOAD_ORDERS), oargs);
    for (int k = 0; k < n; k++, nload++)
        put(&lf, "O[%d * %d + i] = atomic_load%s(P + %d * %d + li%s); ", nload, N,
            k ? "_explicit" : "", nload % nstore, stride, oargs[k]);
    /* the loads read the first nload store forms' objects; the last store
     * forms' objects are checked in memory (global) */
    char *src = malloc(sf.len + lf.len + 4096);
    sprintf(src, load_store_src, ty->name, ty->atomic, sf.s, lf.s, nstore, N, nstore, N);
    free(sf.s);
    free(lf.s);

    size_t sz = (size_t)ty->size;
    struct env v;
    int built = env_open(&v, src, (size_t)nstore * N * sz, (size_t)nload * N * sz);
    free(src);
    if (!built) {
        h_fail_at(__FILE__, __LINE__, "load/store on %s: build", ty->name);
        env_close(&v);
        return;
    }
    unsigned char *gv = malloc(v.g_bytes), *ov = malloc(v.out_bytes);
    for (int m = 0; m < 4 && !h_failed(); m++) {
        memset(gv, 0xee, v.g_bytes);
        memset(ov, 0xee, v.out_bytes);
        env_run(&v, KERNELS[m], gv, ov, 1);
        /* every loaded value, and (global kernels) every stored one */
        int global = m == 0 || m == 2, bad = 0;
        for (int f = 0; f < nload + (global ? nstore : 0); f++)
            for (int i = 0; i < N; i++) {
                uint64_t x = 0;
                memcpy(&x, f < nload ? ov + ((size_t)f * N + (size_t)i) * sz
                                     : gv + ((size_t)(f - nload) * N + (size_t)i) * sz,
                       sz);
                uint64_t want =
                    ty->is_float ? from_double(ty, i * 3 + 1) : mask(ty, (uint64_t)i * 3 + 1);
                bad += x != want;
            }
        CHECK(bad == 0, "init/store/load on %s, %s: %d values wrong", ty->name, KERNELS[m], bad);
    }
    free(gv);
    free(ov);
    env_close(&v);
}

TEST(init_store_load_all_types)
{
    for (int t = 0; t < NTYPES && !h_failed() && !h_skipped(); t++) load_store_type(&TYPES[t]);
}

/* ---- atomic_flag ------------------------------------------------------- */

/* Each test_and_set form on an object of its own (form f, work-item li):
 * set returns false, set again true, a clear form (cycling through them)
 * clears it, set returns false again. flag_forms returns the failures. */
static char *flag_program(void)
{
    char tas[MAX_FORMS][96], clr[MAX_FORMS][96];
    int nt = form_args(ORDERS, COUNT(ORDERS), tas);
    int nc = form_args(STORE_ORDERS, COUNT(STORE_ORDERS), clr);
    struct text t = {0};
    const char *spaces[] = {"global", "local", ""};
    for (int s = 0; s < 3; s++) {
        put(&t, "uint flag_forms_%s(volatile %s atomic_flag *p, size_t li, size_t stride) {\n"
                "  uint bad = 0; volatile %s atomic_flag *o;\n",
            *spaces[s] ? spaces[s] : "generic", spaces[s], spaces[s]);
        for (int f = 0; f < nt; f++) {
            const char *x = f ? "_explicit" : "";
            int c = f % nc;
            put(&t,
                "  o = p + %d * stride + li; atomic_flag_clear(o);\n"
                "  bad += atomic_flag_test_and_set%s(o%s) != false;\n"
                "  bad += atomic_flag_test_and_set%s(o%s) != true;\n"
                "  atomic_flag_clear%s(o%s);\n"
                "  bad += atomic_flag_test_and_set%s(o%s) != false;\n",
                f, x, tas[f], x, tas[f], c ? "_explicit" : "", clr[c], x, tas[f]);
        }
        put(&t, "  return bad;\n}\n");
    }
    put(&t,
        "#define NF %d\n"
        "kernel void k_global(global atomic_flag *g, global uint *out) { size_t i = "
        "get_global_id(0); out[i] = flag_forms_global(g, i, %d); }\n"
        "kernel void k_generic_global(global atomic_flag *g, global uint *out) { size_t i = "
        "get_global_id(0); out[i] = flag_forms_generic(g, i, %d); }\n"
        "kernel void k_local(global atomic_flag *g, global uint *out) { local atomic_flag "
        "l[NF * %d]; out[get_global_id(0)] = flag_forms_local(l, get_local_id(0), %d); }\n"
        "kernel void k_generic_local(global atomic_flag *g, global uint *out) { local "
        "atomic_flag l[NF * %d]; out[get_global_id(0)] = flag_forms_generic(l, get_local_id(0), "
        "%d); }\n",
        nt, N, N, GS, GS, GS, GS);
    return t.s;
}

TEST(flag_test_and_set_and_clear)
{
    if (!need_all_orders_and_scopes()) return;
    char *src = flag_program();
    struct env v;
    int built = env_open(&v, src, (size_t)MAX_FORMS * N * 4, N * 4);
    free(src);
    if (!built) {
        h_fail_at(__FILE__, __LINE__, "build");
        env_close(&v);
        return;
    }
    int *gv = calloc(MAX_FORMS * N, 4);
    cl_uint out[N];
    for (int m = 0; m < 4 && !h_failed(); m++) {
        memset(gv, 0, MAX_FORMS * N * 4);
        env_run(&v, KERNELS[m], gv, out, 0);
        int bad = 0;
        for (int i = 0; i < N; i++) bad += out[i] != 0;
        CHECK(bad == 0, "%s: %d work-items saw a wrong flag value (first: %u wrong)", KERNELS[m],
              bad, out[0]);
    }
    free(gv);
    env_close(&v);
}

/* A spin lock of atomic_flag (acquire on set, release on clear) guards a
 * plain counter that work-items of every group increment. */
static const char *spin_lock_src =
    "kernel void k(global atomic_flag *lock, global int *counter) {\n"
    "  for (int r = 0; r < 10; r++) {\n"
    "    while (atomic_flag_test_and_set_explicit(lock, memory_order_acquire, "
    "memory_scope_device)) ;\n"
    "    *counter += 1;\n"
    "    atomic_flag_clear_explicit(lock, memory_order_release, memory_scope_device);\n"
    "  }\n"
    "}\n";

TEST(flag_spin_lock)
{
    if (!need_all_orders_and_scopes()) return;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, spin_lock_src, "-cl-std=CL3.0");
    REQUIRE(p, "build");
    cl_int e, zero[2] = {0, 0};
    cl_mem lock = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 4, zero, &e);
    cl_mem counter = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 4, zero, &e);
    cl_kernel k = clCreateKernel(p, "k", &e);
    clSetKernelArg(k, 0, sizeof lock, &lock);
    clSetKernelArg(k, 1, sizeof counter, &counter);
    size_t gs = 4096, ls = 16;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gs, &ls, 0, NULL, NULL));
    cl_int n = 0;
    CHECK_OK(clEnqueueReadBuffer(q, counter, CL_TRUE, 0, 4, &n, 0, NULL, NULL));
    CHECK(n == 40960, "counter %d, expected 40960", n);
    clReleaseKernel(k);
    clReleaseMemObject(lock);
    clReleaseMemObject(counter);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("c11_atomics", argc, argv);
    H_RUN_T(fetch_ops_int, 120);
    H_RUN_T(fetch_ops_uint, 120);
    H_RUN_T(fetch_ops_long, 120);
    H_RUN_T(fetch_ops_ulong, 120);
    H_RUN_T(fetch_ops_intptr_uintptr_size_ptrdiff, 240);
    H_RUN_T(float_fetch_add_sub_min_max, 120);
    H_RUN_T(compare_exchange_all_types, 240);
    H_RUN_T(exchange_all_types, 120);
    H_RUN_T(init_store_load_all_types, 120);
    H_RUN_T(flag_test_and_set_and_clear, 60);
    H_RUN(flag_spin_lock);
    return h_done();
}
