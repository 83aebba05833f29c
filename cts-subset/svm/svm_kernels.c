/* svm: SVM in OpenCL C kernels. Coarse- and fine-grain buffer SVM and
 * fine-grain system SVM (plain malloc memory) as kernel arguments, pointers
 * stored inside SVM data (CL_KERNEL_EXEC_INFO_SVM_PTRS,
 * CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM), and a running kernel and host
 * threads sharing fine-grain memory through C11 atomics at the same time:
 * message passing both ways (release/acquire, and fences), a spin lock, a
 * 1000-round ping-pong and store buffering under seq_cst. The host side
 * uses <stdatomic.h>; nothing may be lost and nothing may hang. */
#include "harness.h"
#include <pthread.h>
#include <stdatomic.h>

static int need_svm(cl_device_svm_capabilities bits)
{
    if (!h_device()) return 0;
    cl_device_svm_capabilities c = h_svm_caps();
    if ((c & bits) == bits) return 1;
    h_skip("CL_DEVICE_SVM_CAPABILITIES 0x%llx lacks 0x%llx", (unsigned long long)c,
           (unsigned long long)bits);
    return 0;
}

/* The memory a sub-test shares: a fine-grain SVM buffer with atomics, or
 * (system) plain malloc memory. */
enum kind { FINE_BUFFER, SYSTEM };

static void *shared_alloc(cl_context c, enum kind k, size_t size)
{
    void *p = k == SYSTEM ? aligned_alloc(128, (size + 127) / 128 * 128)
                          : clSVMAlloc(c,
                                       CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER |
                                           CL_MEM_SVM_ATOMICS,
                                       size, 0);
    if (p) memset(p, 0, size);
    return p;
}

static void shared_free(cl_context c, enum kind k, void *p)
{
    if (k == SYSTEM)
        free(p);
    else
        clSVMFree(c, p);
}

static cl_device_svm_capabilities kind_caps(enum kind k)
{
    return k == SYSTEM ? CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS
                       : CL_DEVICE_SVM_FINE_GRAIN_BUFFER | CL_DEVICE_SVM_ATOMICS;
}

static cl_kernel kernel_of(cl_program p, const char *name, enum kind k)
{
    cl_int e;
    cl_kernel kr = clCreateKernel(p, name, &e);
    if (kr && k == SYSTEM) {
        cl_bool on = CL_TRUE;
        CHECK_OK(clSetKernelExecInfo(kr, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof on,
                                     &on));
    }
    return kr;
}

/* ---- SVM arguments and pointers inside SVM data ------------------------ */

static const char *list_src =
    "typedef struct node { global struct node *next; int value; } node;\n"
    "kernel void sum_list(global node *head, global long *out) {\n"
    "  long s = 0; int n = 0;\n"
    "  for (global node *p = head; p; p = p->next) { s += p->value; p->value *= 2; n++; }\n"
    "  out[0] = s; out[1] = n;\n"
    "}\n"
    "kernel void add(global int *a, int v) { a[get_global_id(0)] += v; }\n";

typedef struct node {
    struct node *next;
    cl_int value;
} node;

TEST(coarse_grain_buffer_in_kernel)
{
    if (!need_svm(CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) return;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, list_src, "-cl-std=CL3.0");
    REQUIRE(p, "build");
    enum { N = 1000 };
    cl_int *a = clSVMAlloc(c, CL_MEM_READ_WRITE, N * 4, 0);
    REQUIRE(a, "alloc");
    CHECK_OK(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, a, N * 4, 0, NULL, NULL));
    for (int i = 0; i < N; i++) a[i] = i;
    CHECK_OK(clEnqueueSVMUnmap(q, a, 0, NULL, NULL));
    cl_int e, v = 5;
    cl_kernel k = clCreateKernel(p, "add", &e);
    /* a pointer into the middle of the allocation */
    CHECK_OK(clSetKernelArgSVMPointer(k, 0, a + 10));
    CHECK_OK(clSetKernelArg(k, 1, sizeof v, &v));
    size_t gs = N - 10;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gs, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, a, N * 4, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++) bad += a[i] != i + (i >= 10 ? 5 : 0);
    CHECK(bad == 0, "%d elements wrong", bad);
    CHECK_OK(clEnqueueSVMUnmap(q, a, 0, NULL, NULL));
    clFinish(q);
    clSVMFree(c, a);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* A linked list whose nodes are separate allocations (named with
 * CL_KERNEL_EXEC_INFO_SVM_PTRS for buffers; any malloc memory for system
 * SVM): the kernel follows the pointers stored in them. */
static void linked_list(enum kind kd)
{
    if (!need_svm(kind_caps(kd))) return;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, list_src, "-cl-std=CL3.0");
    REQUIRE(p, "build");
    enum { NODES = 50 };
    node *nodes[NODES];
    for (int i = 0; i < NODES; i++) {
        nodes[i] = shared_alloc(c, kd, sizeof(node));
        REQUIRE(nodes[i], "alloc");
    }
    for (int i = 0; i < NODES; i++) {
        nodes[i]->value = i + 1;
        nodes[i]->next = i + 1 < NODES ? nodes[i + 1] : NULL;
    }
    cl_long *out = shared_alloc(c, kd, 2 * sizeof(cl_long));
    cl_kernel k = kernel_of(p, "sum_list", kd);
    REQUIRE(k, "kernel");
    if (kd == FINE_BUFFER)
        CHECK_OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof nodes, nodes));
    CHECK_OK(clSetKernelArgSVMPointer(k, 0, nodes[0]));
    CHECK_OK(clSetKernelArgSVMPointer(k, 1, out));
    size_t one = 1;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL));
    CHECK_OK(clFinish(q));
    CHECK(out[0] == NODES * (NODES + 1) / 2 && out[1] == NODES, "sum %lld over %lld nodes",
          (long long)out[0], (long long)out[1]);
    int bad = 0;
    for (int i = 0; i < NODES; i++) bad += nodes[i]->value != 2 * (i + 1);
    CHECK(bad == 0, "%d nodes not doubled (host sees the kernel's writes directly)", bad);
    for (int i = 0; i < NODES; i++) shared_free(c, kd, nodes[i]);
    shared_free(c, kd, out);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(fine_grain_buffer_pointers_inside_svm) { linked_list(FINE_BUFFER); }
TEST(fine_grain_system_malloc_memory) { linked_list(SYSTEM); }

TEST(exec_info_fine_grain_system)
{
    if (!need_svm(CL_DEVICE_SVM_FINE_GRAIN_SYSTEM)) return;
    cl_context c = h_context();
    cl_program p = h_build(c, list_src, "-cl-std=CL3.0");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "add", &e);
    cl_bool on = CL_TRUE, off = CL_FALSE;
    CHECK_OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof on, &on));
    CHECK_OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof off, &off));
    CHECK_ERR(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 1, &on),
              CL_INVALID_VALUE);
    CHECK_ERR(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof on, NULL),
              CL_INVALID_VALUE);
    /* an empty set of SVM pointers clears those set before (CTS
     * svm_set_kernel_exec_info_svm_ptrs) */
    void *ptrs[1] = {clSVMAlloc(c, CL_MEM_READ_WRITE, 64, 0)};
    CHECK_OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, ptrs));
    CHECK_OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, NULL));
    CHECK_ERR(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, ptrs), CL_INVALID_VALUE);
    clSVMFree(c, ptrs[0]);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseContext(c);
}

/* A buffer on an SVM allocation may not be larger than the allocation
 * (CTS svm_allocate_shared_buffer_negative). */
TEST(use_host_ptr_buffer_larger_than_svm_allocation)
{
    if (!need_svm(CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) return;
    cl_context c = h_context();
    char *p = clSVMAlloc(c, CL_MEM_READ_WRITE, 1024, 0);
    REQUIRE(p, "alloc");
    cl_int e;
    cl_mem b = clCreateBuffer(c, CL_MEM_USE_HOST_PTR, 2048, p, &e);
    CHECK_CREATE_FAILS(b, e, CL_INVALID_BUFFER_SIZE);
    b = clCreateBuffer(c, CL_MEM_USE_HOST_PTR, 512, p + 256, &e);
    CHECK(b && e == CL_SUCCESS, "a buffer inside the allocation: %s", h_err(e));
    if (b) clReleaseMemObject(b);
    b = clCreateBuffer(c, CL_MEM_USE_HOST_PTR, 1024, p + 256, &e);
    CHECK_CREATE_FAILS(b, e, CL_INVALID_BUFFER_SIZE);
    clSVMFree(c, p);
    clReleaseContext(c);
}

/* ---- a running kernel and host threads at the same time ---------------- */

/* The kernels give up after SPIN_LIMIT polls (and say so), so a broken
 * implementation fails instead of hanging. */
static const char *concurrent_src =
    "#define SPIN_LIMIT (1L << 31)\n"
    "#ifdef __opencl_c_atomic_scope_all_devices\n"
    "#define SCOPE memory_scope_all_svm_devices\n"
    "#else\n"
    "#define SCOPE memory_scope_device\n"
    "#endif\n"
    /* kernel -> host: plain data, then a release store */
    "kernel void mp_to_host(global int *data, global atomic_int *flag, int fence) {\n"
    "  for (int i = 0; i < 256; i++) data[i] = i * 7 + 1;\n"
    "  if (fence) {\n"
    "    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, SCOPE);\n"
    "    atomic_store_explicit(flag, 1, memory_order_relaxed, SCOPE);\n"
    "  } else atomic_store_explicit(flag, 1, memory_order_release, SCOPE);\n"
    "}\n"
    /* host -> kernel: wait for the host's release, copy what it wrote */
    "kernel void mp_from_host(global int *data, global atomic_int *flag, int fence, global int "
    "*out) {\n"
    "  long spins = 0;\n"
    "  memory_order o = fence ? memory_order_relaxed : memory_order_acquire;\n"
    "  while (atomic_load_explicit(flag, o, SCOPE) != 1)\n"
    "    if (++spins == SPIN_LIMIT) { out[256] = -1; return; }\n"
    "  if (fence) atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, SCOPE);\n"
    "  for (int i = 0; i < 256; i++) out[i] = data[i];\n"
    "  out[256] = 1;\n"
    "}\n"
    /* a lock (compare_exchange acquire, store release) around a plain counter */
    "kernel void locked_add(global atomic_int *lock, global int *counter, int iters) {\n"
    "  for (int k = 0; k < iters; k++) {\n"
    "    int e = 0;\n"
    "    while (!atomic_compare_exchange_weak_explicit(lock, &e, 1, memory_order_acquire, "
    "memory_order_relaxed, SCOPE)) e = 0;\n"
    "    *counter += 1;\n"
    "    atomic_store_explicit(lock, 0, memory_order_release, SCOPE);\n"
    "  }\n"
    "}\n"
    /* ping-pong: the host writes data[0] and flag 2r+1; the kernel answers
     * data[1] = 3 * data[0] and flag 2r+2 */
    "kernel void ping_pong(global atomic_int *flag, global int *data, int rounds) {\n"
    "  for (int r = 0; r < rounds; r++) {\n"
    "    long spins = 0;\n"
    "    while (atomic_load_explicit(flag, memory_order_acquire, SCOPE) != 2 * r + 1)\n"
    "      if (++spins == SPIN_LIMIT) { data[2] = -1 - r; return; }\n"
    "    data[1] = 3 * data[0];\n"
    "    atomic_store_explicit(flag, 2 * r + 2, memory_order_release, SCOPE);\n"
    "  }\n"
    "}\n"
    /* store buffering in rounds: x[r] = 1; see y[r] (seq_cst), while the
     * host does y[r] = 1; see x[r] */
    "kernel void store_buffering(global atomic_int *go, global atomic_int *x, global "
    "atomic_int *y, global int *seen, int rounds) {\n"
    "  for (int r = 0; r < rounds; r++) {\n"
    "    long spins = 0;\n"
    "    while (atomic_load_explicit(go, memory_order_acquire, SCOPE) != r + 1)\n"
    "      if (++spins == SPIN_LIMIT) { seen[rounds] = -1; return; }\n"
    "    atomic_store_explicit(&x[r], 1, memory_order_seq_cst, SCOPE);\n"
    "    seen[r] = atomic_load_explicit(&y[r], memory_order_seq_cst, SCOPE);\n"
    "    atomic_store_explicit(go, -(r + 1), memory_order_release, SCOPE);\n"
    "  }\n"
    "}\n";

struct shared {
    cl_context c;
    cl_command_queue q;
    cl_program p;
};

static int open_shared(struct shared *s)
{
    s->c = h_context();
    s->q = h_queue(s->c, 0);
    s->p = h_build(s->c, concurrent_src, "-cl-std=CL3.0");
    return s->p != NULL;
}

static void close_shared(struct shared *s)
{
    clFinish(s->q);
    if (s->p) clReleaseProgram(s->p);
    clReleaseCommandQueue(s->q);
    clReleaseContext(s->c);
}

/* Enqueues a one-work-item kernel with pointer args then ints; returns at
 * once (the kernel runs while the host goes on). */
static void launch(struct shared *s, enum kind kd, const char *name, int nptr, void **ptrs,
                   int nint, const int *ints, size_t items)
{
    cl_kernel k = kernel_of(s->p, name, kd);
    REQUIRE(k, "kernel %s", name);
    for (int i = 0; i < nptr; i++) CHECK_OK(clSetKernelArgSVMPointer(k, (cl_uint)i, ptrs[i]));
    for (int i = 0; i < nint; i++)
        CHECK_OK(clSetKernelArg(k, (cl_uint)(nptr + i), sizeof(int), &ints[i]));
    CHECK_OK(clEnqueueNDRangeKernel(s->q, k, 1, NULL, &items, NULL, 0, NULL, NULL));
    CHECK_OK(clFlush(s->q));
    clReleaseKernel(k);
}

/* Polls *flag until it equals want (acquire) or 20 s pass. */
static int wait_for(atomic_int *flag, int want)
{
    double end = h_now() + 20;
    while (atomic_load_explicit(flag, memory_order_acquire) != want)
        if (h_now() > end) return 0;
    return 1;
}

static void message_passing(enum kind kd)
{
    if (!need_svm(kind_caps(kd))) return;
    struct shared s;
    REQUIRE(open_shared(&s), "build");
    int *data = shared_alloc(s.c, kd, 256 * 4), *out = shared_alloc(s.c, kd, 257 * 4);
    atomic_int *flag = shared_alloc(s.c, kd, sizeof(atomic_int));
    REQUIRE(data && out && flag, "alloc");
    for (int fence = 0; fence < 2; fence++) {
        /* kernel -> host */
        atomic_store(flag, 0);
        memset(data, 0, 256 * 4);
        void *a[] = {data, flag};
        launch(&s, kd, "mp_to_host", 2, a, 1, &fence, 1);
        if (fence) {
            double end = h_now() + 20;
            while (atomic_load_explicit(flag, memory_order_relaxed) != 1 && h_now() < end) {}
            atomic_thread_fence(memory_order_acquire);
        } else
            CHECK(wait_for(flag, 1), "the kernel's flag never came");
        int bad = 0;
        for (int i = 0; i < 256; i++) bad += data[i] != i * 7 + 1;
        CHECK(bad == 0, "kernel -> host (%s): %d values stale after the flag",
              fence ? "fences" : "release/acquire", bad);
        CHECK_OK(clFinish(s.q));
        /* host -> kernel: the kernel is already waiting */
        atomic_store(flag, 0);
        memset(out, 0, 257 * 4);
        void *b[] = {data, flag};
        cl_kernel k = kernel_of(s.p, "mp_from_host", kd);
        clSetKernelArgSVMPointer(k, 0, b[0]);
        clSetKernelArgSVMPointer(k, 1, b[1]);
        clSetKernelArg(k, 2, sizeof fence, &fence);
        clSetKernelArgSVMPointer(k, 3, out);
        size_t one = 1;
        CHECK_OK(clEnqueueNDRangeKernel(s.q, k, 1, NULL, &one, NULL, 0, NULL, NULL));
        clFlush(s.q);
        h_sleep_ms(5);
        for (int i = 0; i < 256; i++) data[i] = i * 11 + 3;
        if (fence) {
            atomic_thread_fence(memory_order_release);
            atomic_store_explicit(flag, 1, memory_order_relaxed);
        } else
            atomic_store_explicit(flag, 1, memory_order_release);
        CHECK_OK(clFinish(s.q));
        clReleaseKernel(k);
        bad = 0;
        for (int i = 0; i < 256; i++) bad += out[i] != i * 11 + 3;
        CHECK(out[256] == 1 && bad == 0, "host -> kernel (%s): end %d, %d values stale",
              fence ? "fences" : "release/acquire", out[256], bad);
    }
    shared_free(s.c, kd, data);
    shared_free(s.c, kd, out);
    shared_free(s.c, kd, flag);
    close_shared(&s);
}

TEST(message_passing_fine_grain_buffer) { message_passing(FINE_BUFFER); }
TEST(message_passing_system_memory) { message_passing(SYSTEM); }

struct lock_arg {
    atomic_int *lock;
    int *counter;
    int iters;
};

static void *host_locked_add(void *p)
{
    struct lock_arg *a = p;
    for (int k = 0; k < a->iters; k++) {
        int e = 0;
        while (!atomic_compare_exchange_weak_explicit(a->lock, &e, 1, memory_order_acquire,
                                                      memory_order_relaxed))
            e = 0;
        *a->counter += 1;
        atomic_store_explicit(a->lock, 0, memory_order_release);
    }
    return NULL;
}

static void spin_lock(enum kind kd)
{
    if (!need_svm(kind_caps(kd))) return;
    struct shared s;
    REQUIRE(open_shared(&s), "build");
    atomic_int *lock = shared_alloc(s.c, kd, sizeof(atomic_int));
    int *counter = shared_alloc(s.c, kd, sizeof(int));
    REQUIRE(lock && counter, "alloc");
    enum { ITEMS = 64, KERNEL_ITERS = 200, HOST_ITERS = 5000 };
    void *a[] = {lock, counter};
    int iters = KERNEL_ITERS;
    launch(&s, kd, "locked_add", 2, a, 1, &iters, ITEMS);
    struct lock_arg la = {lock, counter, HOST_ITERS};
    pthread_t th[2];
    for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, host_locked_add, &la);
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    CHECK_OK(clFinish(s.q));
    CHECK(*counter == ITEMS * KERNEL_ITERS + 2 * HOST_ITERS,
          "counter %d, expected %d (the lock let two in)", *counter,
          ITEMS * KERNEL_ITERS + 2 * HOST_ITERS);
    shared_free(s.c, kd, lock);
    shared_free(s.c, kd, counter);
    close_shared(&s);
}

TEST(spin_lock_kernel_and_host_threads_fine_grain_buffer) { spin_lock(FINE_BUFFER); }
TEST(spin_lock_kernel_and_host_threads_system_memory) { spin_lock(SYSTEM); }

static void ping_pong(enum kind kd)
{
    if (!need_svm(kind_caps(kd))) return;
    struct shared s;
    REQUIRE(open_shared(&s), "build");
    atomic_int *flag = shared_alloc(s.c, kd, sizeof(atomic_int));
    int *data = shared_alloc(s.c, kd, 3 * sizeof(int));
    REQUIRE(flag && data, "alloc");
    enum { ROUNDS = 1000 };
    void *a[] = {flag, data};
    int rounds = ROUNDS;
    launch(&s, kd, "ping_pong", 2, a, 1, &rounds, 1);
    int r, wrong = 0;
    for (r = 0; r < ROUNDS; r++) {
        data[0] = r + 17;
        atomic_store_explicit(flag, 2 * r + 1, memory_order_release);
        if (!wait_for(flag, 2 * r + 2)) break;
        wrong += data[1] != 3 * (r + 17);
    }
    CHECK(r == ROUNDS, "ping-pong stopped in round %d (kernel says %d)", r, data[2]);
    CHECK(wrong == 0, "%d answers wrong", wrong);
    CHECK_OK(clFinish(s.q));
    shared_free(s.c, kd, flag);
    shared_free(s.c, kd, data);
    close_shared(&s);
}

TEST(ping_pong_1000_rounds_fine_grain_buffer) { ping_pong(FINE_BUFFER); }
TEST(ping_pong_1000_rounds_system_memory) { ping_pong(SYSTEM); }

static void store_buffering(enum kind kd)
{
    if (!need_svm(kind_caps(kd))) return;
    struct shared s;
    REQUIRE(open_shared(&s), "build");
    enum { ROUNDS = 1000 };
    atomic_int *go = shared_alloc(s.c, kd, sizeof(atomic_int));
    atomic_int *x = shared_alloc(s.c, kd, ROUNDS * sizeof(atomic_int));
    atomic_int *y = shared_alloc(s.c, kd, ROUNDS * sizeof(atomic_int));
    int *seen = shared_alloc(s.c, kd, (ROUNDS + 1) * sizeof(int));
    REQUIRE(go && x && y && seen, "alloc");
    void *a[] = {go, x, y, seen};
    int rounds = ROUNDS;
    launch(&s, kd, "store_buffering", 4, a, 1, &rounds, 1);
    int both_zero = 0, r;
    for (r = 0; r < ROUNDS; r++) {
        atomic_store_explicit(go, r + 1, memory_order_release);
        atomic_store_explicit(&y[r], 1, memory_order_seq_cst);
        int host_seen = atomic_load_explicit(&x[r], memory_order_seq_cst);
        if (!wait_for(go, -(r + 1))) break;
        both_zero += host_seen == 0 && seen[r] == 0;
    }
    CHECK(r == ROUNDS, "stopped in round %d", r);
    CHECK(both_zero == 0, "%d rounds where host and kernel both read 0 (seq_cst forbids it)",
          both_zero);
    CHECK_OK(clFinish(s.q));
    shared_free(s.c, kd, go);
    shared_free(s.c, kd, x);
    shared_free(s.c, kd, y);
    shared_free(s.c, kd, seen);
    close_shared(&s);
}

TEST(store_buffering_seq_cst_kernel_and_host) { store_buffering(FINE_BUFFER); }
TEST(store_buffering_seq_cst_system_memory) { store_buffering(SYSTEM); }

int main(int argc, char **argv)
{
    h_init("svm", argc, argv);
    H_RUN(coarse_grain_buffer_in_kernel);
    H_RUN(fine_grain_buffer_pointers_inside_svm);
    H_RUN(fine_grain_system_malloc_memory);
    H_RUN(exec_info_fine_grain_system);
    H_RUN(use_host_ptr_buffer_larger_than_svm_allocation);
    H_RUN(message_passing_fine_grain_buffer);
    H_RUN(message_passing_system_memory);
    H_RUN_T(spin_lock_kernel_and_host_threads_fine_grain_buffer, 60);
    H_RUN_T(spin_lock_kernel_and_host_threads_system_memory, 60);
    H_RUN_T(ping_pong_1000_rounds_fine_grain_buffer, 60);
    H_RUN_T(ping_pong_1000_rounds_system_memory, 60);
    H_RUN_T(store_buffering_seq_cst_kernel_and_host, 60);
    H_RUN_T(store_buffering_seq_cst_system_memory, 60);
    return h_done();
}
