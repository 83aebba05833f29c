/* svm: clSVMAlloc/clSVMFree and the SVM enqueue commands, plus host/device atomics
 * on fine-grain SVM (as far as CL_DEVICE_SVM_CAPABILITIES reports). */
#include "harness.h"
#include <pthread.h>
#include <stdatomic.h>

static int need_svm(cl_device_svm_capabilities bits)
{
    if (!h_device()) return 0;
    cl_device_svm_capabilities c = h_svm_caps();
    if ((c & bits) == bits && c) return 1;
    h_skip("CL_DEVICE_SVM_CAPABILITIES 0x%llx lacks 0x%llx", (unsigned long long)c,
           (unsigned long long)bits);
    return 0;
}

TEST(svm_alloc_coarse)
{
    if (!need_svm(CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) return;
    cl_context c = h_context();
    REQUIRE(c, "no context");
    void *p = clSVMAlloc(c, CL_MEM_READ_WRITE, 4096, 0);
    REQUIRE(p, "clSVMAlloc(4096) failed");
    CHECK(((uintptr_t)p % 128) == 0, "default alignment %p (long16 needs 128)", p);
    clSVMFree(c, p);
    for (cl_uint al = 1; al <= 4096; al *= 2) {
        p = clSVMAlloc(c, CL_MEM_READ_WRITE, 1000, al);
        /* up to the largest data type (long16, 128 bytes) must work; larger
         * alignments may be refused with NULL */
        if (al <= 128) CHECK(p != NULL, "alignment %u refused", al);
        CHECK(!p || ((uintptr_t)p % al) == 0, "alignment %u: %p", al, p);
        if (p) clSVMFree(c, p);
    }
    CHECK(clSVMAlloc(c, CL_MEM_READ_WRITE, 64, 3) == NULL, "alignment 3 accepted");
    CHECK(clSVMAlloc(c, CL_MEM_READ_WRITE, 64, 24) == NULL, "alignment 24 accepted");
    CHECK(clSVMAlloc(c, CL_MEM_READ_WRITE, 0, 0) == NULL, "size 0 accepted");
    cl_ulong maxa = 0;
    clGetDeviceInfo(h_device(), CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof maxa, &maxa, NULL);
    CHECK(clSVMAlloc(c, CL_MEM_READ_WRITE, (size_t)maxa + 1, 0) == NULL,
          "size > CL_DEVICE_MAX_MEM_ALLOC_SIZE accepted");
    CHECK(clSVMAlloc(c, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, 0) == NULL,
          "READ_WRITE|READ_ONLY accepted");
    CHECK(clSVMAlloc(c, CL_MEM_READ_WRITE | CL_MEM_SVM_ATOMICS, 64, 0) == NULL,
          "SVM_ATOMICS without FINE_GRAIN_BUFFER accepted");
    CHECK(clSVMAlloc(c, CL_MEM_USE_HOST_PTR, 64, 0) == NULL, "USE_HOST_PTR accepted");
    if (!(h_svm_caps() & CL_DEVICE_SVM_FINE_GRAIN_BUFFER))
        CHECK(clSVMAlloc(c, CL_MEM_SVM_FINE_GRAIN_BUFFER, 64, 0) == NULL,
              "fine grain accepted but not reported");
    clSVMFree(c, NULL); /* no-op */
    /* a buffer on an SVM pointer */
    p = clSVMAlloc(c, CL_MEM_READ_WRITE, 256, 0);
    REQUIRE(p, "alloc");
    cl_int e;
    cl_mem b = clCreateBuffer(c, CL_MEM_USE_HOST_PTR, 256, p, &e);
    CHECK(b && e == CL_SUCCESS, "buffer on SVM: %s", h_err(e));
    if (b) {
        cl_bool u = CL_FALSE;
        CHECK_OK(clGetMemObjectInfo(b, CL_MEM_USES_SVM_POINTER, sizeof u, &u, NULL));
        CHECK(u == CL_TRUE, "CL_MEM_USES_SVM_POINTER false for an SVM host_ptr");
        clReleaseMemObject(b);
    }
    clSVMFree(c, p);
    clReleaseContext(c);
}

TEST(svm_memcpy_fill)
{
    if (!need_svm(CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) return;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    enum { N = 4096 };
    unsigned char *a = clSVMAlloc(c, CL_MEM_READ_WRITE, N, 0);
    unsigned char *b = clSVMAlloc(c, CL_MEM_READ_WRITE, N, 0);
    REQUIRE(a && b, "alloc");
    unsigned char host[N], out[N], ref[N];
    for (int i = 0; i < N; i++) host[i] = (unsigned char)(i * 5 + 1);
    cl_event ev = NULL;
    CHECK_OK(clEnqueueSVMMemcpy(q, CL_TRUE, a, host, N, 0, NULL, &ev));
    cl_command_type t = 0;
    CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
    CHECK(t == CL_COMMAND_SVM_MEMCPY, "memcpy command type 0x%x", t);
    clReleaseEvent(ev);
    CHECK_OK(clEnqueueSVMMemcpy(q, CL_FALSE, b + 10, a + 100, 2000, 0, NULL, NULL));
    CHECK_OK(clEnqueueSVMMemcpy(q, CL_TRUE, out, b + 10, 2000, 0, NULL, NULL));
    CHECK(!memcmp(out, host + 100, 2000), "SVM to SVM copy");
    /* fills of every pattern size */
    memcpy(ref, host, N);
    for (size_t ps = 1; ps <= 128; ps *= 2) {
        unsigned char pat[128];
        for (size_t i = 0; i < ps; i++) pat[i] = (unsigned char)(0x40 + ps + i);
        size_t off = ps * 4;
        CHECK_OK(clEnqueueSVMMemFill(q, a + off, pat, ps, ps * 3, 0, NULL, &ev));
        for (size_t i = 0; i < ps * 3; i++) ref[off + i] = pat[i % ps];
        CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
        CHECK(t == CL_COMMAND_SVM_MEMFILL, "fill command type 0x%x", t);
        clReleaseEvent(ev);
    }
    CHECK_OK(clEnqueueSVMMemcpy(q, CL_TRUE, out, a, N, 0, NULL, NULL));
    for (int i = 0; i < N; i++)
        if (out[i] != ref[i]) { CHECK(0, "fill result differs at %d", i); break; }
    unsigned char pat[256] = {0};
    CHECK_ERR(clEnqueueSVMMemFill(q, a + 2, pat, 4, 8, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueSVMMemFill(q, a, pat, 4, 6, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueSVMMemFill(q, a, pat, 3, 6, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueSVMMemFill(q, a, pat, 0, 8, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueSVMMemFill(q, a, pat, 256, 256, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueSVMMemcpy(q, CL_TRUE, a, a + 8, 16, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    CHECK_ERR(clEnqueueSVMMemcpy(q, CL_TRUE, NULL, a, 16, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_OK(clFinish(q));
    clSVMFree(c, a);
    clSVMFree(c, b);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(svm_map_unmap)
{
    if (!need_svm(CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) return;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    unsigned char *a = clSVMAlloc(c, CL_MEM_READ_WRITE, 1024, 0);
    REQUIRE(a, "alloc");
    cl_event ev = NULL;
    CHECK_OK(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, a, 1024, 0, NULL, &ev));
    cl_command_type t = 0;
    CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
    CHECK(t == CL_COMMAND_SVM_MAP, "map type 0x%x", t);
    clReleaseEvent(ev);
    for (int i = 0; i < 1024; i++) a[i] = (unsigned char)(i ^ 0x55);
    CHECK_OK(clEnqueueSVMUnmap(q, a, 0, NULL, &ev));
    CHECK_OK(clWaitForEvents(1, &ev));
    CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
    CHECK(t == CL_COMMAND_SVM_UNMAP, "unmap type 0x%x", t);
    clReleaseEvent(ev);
    unsigned char out[1024];
    CHECK_OK(clEnqueueSVMMemcpy(q, CL_TRUE, out, a, 1024, 0, NULL, NULL));
    int ok = 1;
    for (int i = 0; i < 1024; i++) ok &= out[i] == (unsigned char)(i ^ 0x55);
    CHECK(ok, "data written while mapped lost");
    CHECK_OK(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, a + 512, 512, 0, NULL, NULL));
    CHECK(a[512] == (unsigned char)(512 ^ 0x55), "read map");
    CHECK_OK(clEnqueueSVMUnmap(q, a + 512, 0, NULL, NULL));
    CHECK_ERR(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, a, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_OK(clFinish(q));
    clSVMFree(c, a);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

struct freecb { int calls; cl_uint n; void *p[4]; cl_context ctx; cl_command_queue q; };
static void CL_CALLBACK free_cb(cl_command_queue q, cl_uint n, void *ptrs[], void *ud)
{
    struct freecb *f = ud;
    f->n = n;
    f->q = q;
    for (cl_uint i = 0; i < n && i < 4; i++) {
        f->p[i] = ptrs[i];
        clSVMFree(f->ctx, ptrs[i]);
    }
    __atomic_fetch_add(&f->calls, 1, __ATOMIC_SEQ_CST);
}

TEST(svm_enqueue_free)
{
    if (!need_svm(CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) return;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    void *p[3];
    for (int i = 0; i < 3; i++) {
        p[i] = clSVMAlloc(c, CL_MEM_READ_WRITE, 128 * (i + 1), 0);
        REQUIRE(p[i], "alloc %d", i);
    }
    static struct freecb f;
    f = (struct freecb){0, 0, {0}, c, NULL};
    cl_event ev = NULL;
    CHECK_OK(clEnqueueSVMFree(q, 2, p, free_cb, &f, 0, NULL, &ev));
    CHECK_OK(clWaitForEvents(1, &ev));
    CHECK(h_wait_int(&f.calls, 1, 5.0), "free callback not called");
    CHECK(f.calls == 1 && f.n == 2 && f.p[0] == p[0] && f.p[1] == p[1] && f.q == q,
          "callback got n=%u p=%p,%p q=%p", f.n, f.p[0], f.p[1], (void *)f.q);
    cl_command_type t = 0;
    CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
    CHECK(t == CL_COMMAND_SVM_FREE, "command type 0x%x", t);
    clReleaseEvent(ev);
    /* without a callback the implementation frees */
    CHECK_OK(clEnqueueSVMFree(q, 1, &p[2], NULL, NULL, 0, NULL, NULL));
    CHECK_OK(clFinish(q));
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(svm_migrate)
{
    if (!need_svm(CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) return;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    unsigned char *a = clSVMAlloc(c, CL_MEM_READ_WRITE, 1024, 0);
    REQUIRE(a, "alloc");
    unsigned char host[1024], out[1024];
    for (int i = 0; i < 1024; i++) host[i] = (unsigned char)(i * 9);
    CHECK_OK(clEnqueueSVMMemcpy(q, CL_TRUE, a, host, 1024, 0, NULL, NULL));
    const void *ptrs[2] = {a, a + 512};
    size_t sizes[2] = {0, 256}; /* 0: whole allocation */
    cl_event ev = NULL;
    CHECK_OK(clEnqueueSVMMigrateMem(q, 2, ptrs, sizes, 0, 0, NULL, &ev));
    CHECK_OK(clWaitForEvents(1, &ev));
    cl_command_type t = 0;
    CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
    CHECK(t == CL_COMMAND_SVM_MIGRATE_MEM, "command type 0x%x", t);
    clReleaseEvent(ev);
    CHECK_OK(clEnqueueSVMMigrateMem(q, 1, ptrs, NULL, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL));
    CHECK_OK(clEnqueueSVMMemcpy(q, CL_TRUE, out, a, 1024, 0, NULL, NULL));
    CHECK(!memcmp(out, host, 1024), "data changed by migration");
    CHECK_ERR(clEnqueueSVMMigrateMem(q, 1, ptrs, NULL, 0x100, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_OK(clFinish(q));
    clSVMFree(c, a);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* fine grain: no map needed; a native kernel sees host writes directly */
static void read_fine(void *p) { int *v = p; v[1] = v[0] * 2; }

TEST(svm_fine_grain_buffer)
{
    if (!need_svm(CL_DEVICE_SVM_FINE_GRAIN_BUFFER)) return;
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    int *v = clSVMAlloc(c, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, 4096, 0);
    REQUIRE(v, "fine-grain clSVMAlloc failed");
    v[0] = 21;
    v[1] = 0;
    if (h_has_native()) {
        CHECK_OK(h_enqueue_native(q, read_fine, v, 0, NULL, NULL));
        CHECK_OK(clFinish(q));
        CHECK(v[1] == 42, "native kernel result %d", v[1]);
    }
    int pat = 7;
    CHECK_OK(clEnqueueSVMMemFill(q, v + 16, &pat, sizeof pat, 64 * sizeof(int), 0, NULL, NULL));
    CHECK_OK(clFinish(q));
    CHECK(v[16] == 7 && v[79] == 7, "fill not visible on host without map");
    clSVMFree(c, v);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

struct shared { _Atomic int counter; _Atomic int flag; _Atomic int pong; };
enum { ITERS = 200000 };

static void *host_incr(void *p)
{
    struct shared *s = p;
    for (int i = 0; i < ITERS; i++) atomic_fetch_add_explicit(&s->counter, 1, memory_order_relaxed);
    return NULL;
}
static void dev_incr(void *p)
{
    struct shared *s = p;
    for (int i = 0; i < ITERS; i++) atomic_fetch_add_explicit(&s->counter, 1, memory_order_relaxed);
}
/* ping-pong with a host thread: the kernel waits for odd values and writes even ones */
static void dev_pong(void *p)
{
    struct shared *s = p;
    double end = h_now() + 10;
    for (int i = 0; i < 1000; i++) {
        while (atomic_load_explicit(&s->flag, memory_order_acquire) != 2 * i + 1)
            if (h_now() > end) return;
        atomic_store_explicit(&s->flag, 2 * i + 2, memory_order_release);
    }
    atomic_store(&s->pong, 1);
}

TEST(svm_fine_grain_atomics_host_threads)
{
    if (!need_svm(CL_DEVICE_SVM_FINE_GRAIN_BUFFER | CL_DEVICE_SVM_ATOMICS)) return;
    if (!h_need_native()) return;
    cl_context c = h_context();
    cl_command_queue q1 = h_queue(c, 0), q2 = h_queue(c, 0);
    REQUIRE(q1 && q2, "queues");
    struct shared *s = clSVMAlloc(c, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER |
                                  CL_MEM_SVM_ATOMICS, sizeof *s, 0);
    REQUIRE(s, "atomic fine-grain clSVMAlloc failed");
    atomic_init(&s->counter, 0);
    atomic_init(&s->flag, 0);
    atomic_init(&s->pong, 0);
    cl_event gate = clCreateUserEvent(c, NULL);
    CHECK_OK(h_enqueue_native(q1, dev_incr, s, 1, &gate, NULL));
    CHECK_OK(h_enqueue_native(q2, dev_incr, s, 1, &gate, NULL));
    CHECK_OK(clFlush(q1));
    CHECK_OK(clFlush(q2));
    pthread_t th[2];
    for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, host_incr, s);
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    CHECK_OK(clFinish(q1));
    CHECK_OK(clFinish(q2));
    CHECK(atomic_load(&s->counter) == 4 * ITERS, "counter %d, expected %d (lost updates)",
          atomic_load(&s->counter), 4 * ITERS);
    /* ping-pong between a running native kernel and the host */
    CHECK_OK(h_enqueue_native(q1, dev_pong, s, 0, NULL, NULL));
    CHECK_OK(clFlush(q1));
    double end = h_now() + 10;
    int i;
    for (i = 0; i < 1000; i++) {
        atomic_store_explicit(&s->flag, 2 * i + 1, memory_order_release);
        while (atomic_load_explicit(&s->flag, memory_order_acquire) != 2 * i + 2 && h_now() < end) {}
        if (h_now() >= end) break;
    }
    CHECK_OK(clFinish(q1));
    CHECK(i == 1000 && atomic_load(&s->pong) == 1, "ping-pong with a running native kernel "
          "stopped after %d rounds", i);
    clReleaseEvent(gate);
    clSVMFree(c, s);
    clReleaseCommandQueue(q1);
    clReleaseCommandQueue(q2);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("svm", argc, argv);
    H_RUN(svm_alloc_coarse);
    H_RUN(svm_memcpy_fill);
    H_RUN(svm_map_unmap);
    H_RUN(svm_enqueue_free);
    H_RUN(svm_migrate);
    H_RUN(svm_fine_grain_buffer);
    H_RUN_T(svm_fine_grain_atomics_host_threads, 30);
    return h_done();
}
