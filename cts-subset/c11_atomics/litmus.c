/* c11_atomics: memory-model litmus tests between work-groups and between
 * kernels. Message passing (release/acquire, and relaxed accesses with
 * release and acquire fences): whoever sees the flag sees the data. Store
 * buffering under seq_cst: the two loads never both read 0. No test waits
 * on another work-group without a bound (work-groups need not make
 * progress together), so none can hang. */
#include "harness.h"

static int need_orders(void)
{
    if (!h_device()) return 0;
    cl_device_atomic_capabilities caps = 0,
        need = CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_ORDER_SEQ_CST |
               CL_DEVICE_ATOMIC_SCOPE_DEVICE;
    clGetDeviceInfo(h_device(), CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, sizeof caps, &caps, NULL);
    if ((caps & need) == need) return 1;
    h_skip("CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES 0x%llx lacks 0x%llx",
           (unsigned long long)caps, (unsigned long long)need);
    return 0;
}

enum { PAIRS = 256, REPEAT = 40, SPIN = 1 << 16 };

/* Pair p: work-item p of group 0 writes, work-item p of group 1 reads
 * (after up to SPIN polls). out[p] = 2 if the flag was seen with the right
 * data, 1 if the flag was not seen, 0 if it was seen with stale data. The
 * data are relaxed atomics, so no outcome is a data race. */
static const char *litmus_src =
    "#define D memory_scope_device\n"
    "kernel void mp(global atomic_int *data, global atomic_int *flag, global int *out, int "
    "fences, int round) {\n"
    "  size_t p = get_local_id(0);\n"
    "  if (get_group_id(0) == 0) {\n"
    "    atomic_store_explicit(&data[p], round, memory_order_relaxed, D);\n"
    "    if (fences) {\n"
    "      atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, D);\n"
    "      atomic_store_explicit(&flag[p], round, memory_order_relaxed, D);\n"
    "    } else atomic_store_explicit(&flag[p], round, memory_order_release, D);\n"
    "  } else {\n"
    "    int f = 0;\n"
    "    for (int s = 0; s < %d && f != round; s++)\n"
    "      f = atomic_load_explicit(&flag[p], fences ? memory_order_relaxed : "
    "memory_order_acquire, D);\n"
    "    if (fences) atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, D);\n"
    "    int d = atomic_load_explicit(&data[p], memory_order_relaxed, D);\n"
    "    out[p] = f != round ? 1 : d == round ? 2 : 0;\n"
    "  }\n"
    "}\n"
    /* store buffering: group 0 writes x then reads y, group 1 writes y then
     * reads x; both after the group's other side has started or a bound */
    "kernel void sb(global atomic_int *x, global atomic_int *y, global atomic_int *ready, "
    "global int *out, int round) {\n"
    "  size_t p = get_local_id(0), g = get_group_id(0);\n"
    "  global atomic_int *mine = g ? &y[p] : &x[p], *other = g ? &x[p] : &y[p];\n"
    "  atomic_fetch_add_explicit(&ready[p], 1, memory_order_relaxed, D);\n"
    "  for (int s = 0; s < %d && atomic_load_explicit(&ready[p], memory_order_relaxed, D) < 2 * "
    "round; s++) ;\n"
    "  atomic_store_explicit(mine, round, memory_order_seq_cst, D);\n"
    "  out[g * %d + p] = atomic_load_explicit(other, memory_order_seq_cst, D) == round;\n"
    "}\n"
    /* between kernels: a producer and a consumer running at the same time */
    "kernel void produce(global atomic_int *data, global atomic_int *flag, int round) {\n"
    "  size_t p = get_global_id(0);\n"
    "  atomic_store_explicit(&data[p], round, memory_order_relaxed, D);\n"
    "  atomic_store_explicit(&flag[p], round, memory_order_release, D);\n"
    "}\n"
    "kernel void consume(global atomic_int *data, global atomic_int *flag, global int *out, int "
    "round) {\n"
    "  size_t p = get_global_id(0); int f = 0;\n"
    "  for (int s = 0; s < %d && f != round; s++)\n"
    "    f = atomic_load_explicit(&flag[p], memory_order_acquire, D);\n"
    "  int d = atomic_load_explicit(&data[p], memory_order_relaxed, D);\n"
    "  out[p] = f != round ? 1 : d == round ? 2 : 0;\n"
    "}\n"
    /* after the producer's event: plain reads see everything */
    "kernel void read_after(global int *data, global int *out, int round) {\n"
    "  size_t p = get_global_id(0); out[p] = data[p] == round ? 2 : 0;\n"
    "}\n";

struct lit {
    cl_context c;
    cl_command_queue q, q2;
    cl_program p;
    cl_mem a, b, ready, out;
};

static int lit_open(struct lit *l)
{
    cl_int e;
    char src[8192];
    snprintf(src, sizeof src, litmus_src, SPIN, SPIN, PAIRS, SPIN);
    l->c = h_context();
    l->q = h_queue(l->c, 0);
    l->q2 = h_queue(l->c, 0);
    l->p = h_build(l->c, src, "-cl-std=CL3.0");
    l->a = clCreateBuffer(l->c, CL_MEM_READ_WRITE, PAIRS * 4, NULL, &e);
    l->b = clCreateBuffer(l->c, CL_MEM_READ_WRITE, PAIRS * 4, NULL, &e);
    l->ready = clCreateBuffer(l->c, CL_MEM_READ_WRITE, PAIRS * 4, NULL, &e);
    l->out = clCreateBuffer(l->c, CL_MEM_READ_WRITE, 2 * PAIRS * 4, NULL, &e);
    cl_int zero = 0;
    cl_mem all[] = {l->a, l->b, l->ready};
    for (int i = 0; i < 3; i++)
        clEnqueueFillBuffer(l->q, all[i], &zero, 4, 0, PAIRS * 4, 0, NULL, NULL);
    clFinish(l->q);
    return l->p != NULL;
}

static void lit_close(struct lit *l)
{
    cl_mem all[] = {l->a, l->b, l->ready, l->out};
    for (int i = 0; i < 4; i++) clReleaseMemObject(all[i]);
    if (l->p) clReleaseProgram(l->p);
    clReleaseCommandQueue(l->q);
    clReleaseCommandQueue(l->q2);
    clReleaseContext(l->c);
}

static cl_kernel lit_kernel(struct lit *l, const char *name, int nmem, const cl_mem *mems,
                            int nint, const int *ints)
{
    cl_int e;
    cl_kernel k = clCreateKernel(l->p, name, &e);
    for (int i = 0; i < nmem; i++) clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &mems[i]);
    for (int i = 0; i < nint; i++) clSetKernelArg(k, (cl_uint)(nmem + i), sizeof(int), &ints[i]);
    return k;
}

/* Counts out[0..n) values: [0] stale, [1] not seen, [2] seen right. */
static void tally(struct lit *l, int n, int counts[3])
{
    cl_int r[2 * PAIRS];
    CHECK_OK(clEnqueueReadBuffer(l->q, l->out, CL_TRUE, 0, (size_t)n * 4, r, 0, NULL, NULL));
    for (int i = 0; i < n; i++) counts[r[i] >= 0 && r[i] <= 2 ? r[i] : 0]++;
}

static void message_passing_between_groups(int fences)
{
    if (!need_orders()) return;
    struct lit l;
    REQUIRE(lit_open(&l), "build");
    int counts[3] = {0};
    for (int round = 1; round <= REPEAT; round++) {
        cl_mem m[] = {l.a, l.b, l.out};
        int ints[] = {fences, round};
        cl_kernel k = lit_kernel(&l, "mp", 3, m, 2, ints);
        size_t gs = 2 * PAIRS, ls = PAIRS;
        CHECK_OK(clEnqueueNDRangeKernel(l.q, k, 1, NULL, &gs, &ls, 0, NULL, NULL));
        tally(&l, PAIRS, counts);
        clReleaseKernel(k);
    }
    CHECK(counts[0] == 0, "%d of %d readers saw the flag but stale data (%d saw it right)",
          counts[0], PAIRS * REPEAT, counts[2]);
    lit_close(&l);
}

TEST(message_passing_release_acquire_between_work_groups)
{
    message_passing_between_groups(0);
}
TEST(message_passing_fences_between_work_groups) { message_passing_between_groups(1); }

TEST(store_buffering_seq_cst_between_work_groups)
{
    if (!need_orders()) return;
    struct lit l;
    REQUIRE(lit_open(&l), "build");
    int both_zero = 0;
    for (int round = 1; round <= REPEAT; round++) {
        cl_mem m[] = {l.a, l.b, l.ready, l.out};
        cl_kernel k = lit_kernel(&l, "sb", 4, m, 1, &round);
        size_t gs = 2 * PAIRS, ls = PAIRS;
        CHECK_OK(clEnqueueNDRangeKernel(l.q, k, 1, NULL, &gs, &ls, 0, NULL, NULL));
        cl_int r[2 * PAIRS];
        CHECK_OK(clEnqueueReadBuffer(l.q, l.out, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL));
        for (int p = 0; p < PAIRS; p++) both_zero += !r[p] && !r[PAIRS + p];
        clReleaseKernel(k);
    }
    CHECK(both_zero == 0, "%d pairs where both loads read the old value (seq_cst forbids it)",
          both_zero);
    lit_close(&l);
}

TEST(message_passing_between_concurrent_kernels)
{
    if (!need_orders()) return;
    struct lit l;
    REQUIRE(lit_open(&l), "build");
    int counts[3] = {0};
    for (int round = 1; round <= REPEAT; round++) {
        cl_mem pm[] = {l.a, l.b}, cm[] = {l.a, l.b, l.out};
        cl_kernel prod = lit_kernel(&l, "produce", 2, pm, 1, &round);
        cl_kernel cons = lit_kernel(&l, "consume", 3, cm, 1, &round);
        size_t gs = PAIRS;
        /* two queues, no dependency: the kernels may overlap */
        CHECK_OK(clEnqueueNDRangeKernel(l.q2, cons, 1, NULL, &gs, NULL, 0, NULL, NULL));
        CHECK_OK(clEnqueueNDRangeKernel(l.q, prod, 1, NULL, &gs, NULL, 0, NULL, NULL));
        CHECK_OK(clFinish(l.q));
        CHECK_OK(clFinish(l.q2));
        tally(&l, PAIRS, counts);
        clReleaseKernel(prod);
        clReleaseKernel(cons);
    }
    CHECK(counts[0] == 0, "%d of %d readers saw the flag but stale data", counts[0],
          PAIRS * REPEAT);
    /* ordered by an event: everything is visible, plain reads included */
    int after[3] = {0};
    for (int round = REPEAT + 1; round <= REPEAT + 5; round++) {
        cl_mem pm[] = {l.a, l.b}, rm[] = {l.a, l.out};
        cl_kernel prod = lit_kernel(&l, "produce", 2, pm, 1, &round);
        cl_kernel rd = lit_kernel(&l, "read_after", 2, rm, 1, &round);
        size_t gs = PAIRS;
        cl_event done;
        CHECK_OK(clEnqueueNDRangeKernel(l.q, prod, 1, NULL, &gs, NULL, 0, NULL, &done));
        CHECK_OK(clEnqueueNDRangeKernel(l.q2, rd, 1, NULL, &gs, NULL, 1, &done, NULL));
        CHECK_OK(clFinish(l.q2));
        tally(&l, PAIRS, after);
        clReleaseEvent(done);
        clReleaseKernel(prod);
        clReleaseKernel(rd);
    }
    CHECK(after[2] == 5 * PAIRS, "after the producer's event, %d of %d reads stale",
          5 * PAIRS - after[2], 5 * PAIRS);
    lit_close(&l);
}

/* atomic_work_item_fence with every order and scope the device reports
 * for fences, on global, local and both: a work-group passes a value
 * through local memory with release/acquire fences around a relaxed flag. */
static const char *fences_src =
    "#define F(flags, o, s) atomic_work_item_fence(flags, o, s);\n"
    "#define ALL_SCOPES(flags, o) F(flags, o, memory_scope_work_group) F(flags, o, "
    "memory_scope_device) F(flags, o, memory_scope_all_svm_devices) F(flags, o, "
    "memory_scope_all_devices)\n"
    "#define ALL(flags) ALL_SCOPES(flags, memory_order_acquire) ALL_SCOPES(flags, "
    "memory_order_release) ALL_SCOPES(flags, memory_order_acq_rel) ALL_SCOPES(flags, "
    "memory_order_seq_cst)\n"
    "kernel void k(global int *out) {\n"
    "  local int data[64]; local atomic_int flag;\n"
    "  size_t l = get_local_id(0);\n"
    "  if (l == 0) atomic_init(&flag, 0);\n"
    "  work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  ALL(CLK_GLOBAL_MEM_FENCE) ALL(CLK_LOCAL_MEM_FENCE) ALL(CLK_GLOBAL_MEM_FENCE | "
    "CLK_LOCAL_MEM_FENCE)\n"
    "  if (l == 0) {\n"
    "    for (int i = 0; i < 64; i++) data[i] = i * 5 + (int)get_group_id(0);\n"
    "    atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_release, "
    "memory_scope_work_group);\n"
    "    atomic_store_explicit(&flag, 1, memory_order_relaxed, memory_scope_work_group);\n"
    "  }\n"
    "  work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int f = atomic_load_explicit(&flag, memory_order_relaxed, memory_scope_work_group);\n"
    "  atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_acquire, "
    "memory_scope_work_group);\n"
    "  out[get_global_id(0)] = f == 1 ? data[l] : -1;\n"
    "}\n";

TEST(work_item_fences_every_order_and_scope)
{
    if (!need_orders()) return;
    cl_device_atomic_capabilities caps = 0;
    clGetDeviceInfo(h_device(), CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, sizeof caps, &caps, NULL);
    cl_device_atomic_capabilities all =
        CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
        CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM |
        CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE |
        CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
    if ((caps & all) != all) {
        h_skip("CL_DEVICE_ATOMIC_FENCE_CAPABILITIES 0x%llx lacks some of 0x%llx",
               (unsigned long long)caps, (unsigned long long)all);
        return;
    }
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, fences_src, "-cl-std=CL3.0");
    REQUIRE(p, "build");
    cl_int e, r[256];
    cl_mem out = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof r, NULL, &e);
    cl_kernel k = clCreateKernel(p, "k", &e);
    clSetKernelArg(k, 0, sizeof out, &out);
    size_t gs = 256, ls = 64;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gs, &ls, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < 256; i++) bad += r[i] != (i % 64) * 5 + i / 64;
    CHECK(bad == 0, "%d values wrong (r[1] = %d)", bad, r[1]);
    clReleaseKernel(k);
    clReleaseMemObject(out);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("c11_atomics", argc, argv);
    H_RUN_T(message_passing_release_acquire_between_work_groups, 60);
    H_RUN_T(message_passing_fences_between_work_groups, 60);
    H_RUN_T(store_buffering_seq_cst_between_work_groups, 60);
    H_RUN_T(message_passing_between_concurrent_kernels, 60);
    H_RUN(work_item_fences_every_order_and_scope);
    return h_done();
}
