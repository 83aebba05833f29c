/* buffers/create: clCreateBuffer flags, clCreateBufferWithProperties, sub-buffers,
 * mem object info and destructor callbacks. */
#include "harness.h"

#define RW CL_MEM_READ_WRITE
#define RO CL_MEM_READ_ONLY
#define WO CL_MEM_WRITE_ONLY
#define UHP CL_MEM_USE_HOST_PTR
#define AHP CL_MEM_ALLOC_HOST_PTR
#define CHP CL_MEM_COPY_HOST_PTR
#define HWO CL_MEM_HOST_WRITE_ONLY
#define HRO CL_MEM_HOST_READ_ONLY
#define HNA CL_MEM_HOST_NO_ACCESS

/* Validity of a flag combination per the spec (host_ptr given iff USE/COPY). */
static cl_int expected_error(cl_mem_flags f, int with_ptr)
{
    int acc = !!(f & RW) + !!(f & RO) + !!(f & WO);
    int host = !!(f & HWO) + !!(f & HRO) + !!(f & HNA);
    if (acc > 1 || host > 1) return CL_INVALID_VALUE;
    if ((f & UHP) && (f & (AHP | CHP))) return CL_INVALID_VALUE;
    int needs_ptr = (f & (UHP | CHP)) != 0;
    if (needs_ptr != with_ptr) return CL_INVALID_HOST_PTR;
    return CL_SUCCESS;
}

TEST(create_all_flag_combinations)
{
    cl_context c = h_context();
    REQUIRE(c, "no context");
    static const cl_mem_flags bits[] = {RW, RO, WO, UHP, AHP, CHP, HWO, HRO, HNA};
    const int nb = sizeof bits / sizeof bits[0];
    static unsigned char host[256] __attribute__((aligned(4096)));
    for (int i = 0; i < 256; i++) host[i] = (unsigned char)(i * 7 + 3);
    int tried = 0;
    for (int mask = 0; mask < (1 << nb); mask++) {
        cl_mem_flags f = 0;
        for (int b = 0; b < nb; b++)
            if (mask & (1 << b)) f |= bits[b];
        for (int with_ptr = 0; with_ptr < 2; with_ptr++) {
            cl_int want = expected_error(f, with_ptr);
            cl_int e = 12345;
            cl_mem m = clCreateBuffer(c, f, sizeof host, with_ptr ? host : NULL, &e);
            tried++;
            if (want == CL_SUCCESS) {
                CHECK(m && e == CL_SUCCESS, "flags 0x%llx ptr %d: %s",
                      (unsigned long long)f, with_ptr, h_err(e));
            } else {
                CHECK(!m && e == want, "flags 0x%llx ptr %d: %p %s, expected %s",
                      (unsigned long long)f, with_ptr, (void *)m, h_err(e), h_err(want));
            }
            if (m) {
                cl_mem_flags got = 0;
                CHECK_OK(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof got, &got, NULL));
                CHECK((got & f) == f, "CL_MEM_FLAGS 0x%llx lacks 0x%llx",
                      (unsigned long long)got, (unsigned long long)f);
                clReleaseMemObject(m);
            }
            if (h_failed()) break;
        }
        if (h_failed()) break;
    }
    CHECK(tried == 2 << nb, "tried %d", tried);
    CHECK_OK(clReleaseContext(c));
}

TEST(create_size_errors)
{
    cl_context c = h_context();
    REQUIRE(c, "no context");
    cl_int e = 0;
    cl_mem m = clCreateBuffer(c, RW, 0, NULL, &e);
    CHECK_CREATE_FAILS(m, e, CL_INVALID_BUFFER_SIZE);
    cl_ulong maxa = 0;
    CHECK_OK(clGetDeviceInfo(h_device(), CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof maxa, &maxa, NULL));
    m = clCreateBuffer(c, RW, (size_t)maxa + 1, NULL, &e);
    CHECK_CREATE_FAILS(m, e, CL_INVALID_BUFFER_SIZE);
    m = clCreateBuffer(c, RW | RO, 64, NULL, &e);
    CHECK_CREATE_FAILS(m, e, CL_INVALID_VALUE);
    m = clCreateBuffer(c, UHP, 64, NULL, &e);
    CHECK_CREATE_FAILS(m, e, CL_INVALID_HOST_PTR);
    m = clCreateBuffer(c, (cl_mem_flags)1 << 50, 64, NULL, &e);
    CHECK_CREATE_FAILS(m, e, CL_INVALID_VALUE);
    /* flags 0 means READ_WRITE */
    m = clCreateBuffer(c, 0, 64, NULL, &e);
    CHECK(m && e == CL_SUCCESS, "flags 0: %s", h_err(e));
    if (m) clReleaseMemObject(m);
    CHECK_OK(clReleaseContext(c));
}

TEST(create_copy_and_use_host_ptr_contents)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    unsigned char src[4096], out[4096];
    for (int i = 0; i < 4096; i++) src[i] = (unsigned char)(i ^ (i >> 8));
    cl_int e = 0;
    cl_mem m = clCreateBuffer(c, CHP, sizeof src, src, &e);
    REQUIRE(m, "COPY_HOST_PTR: %s", h_err(e));
    memset(src, 0, 16); /* the copy must have been taken at creation time */
    CHECK_OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CHECK(out[0] == 0 && out[1] == 1 && out[300] == (unsigned char)(300 ^ 1),
          "COPY_HOST_PTR contents wrong");
    for (int i = 16; i < 4096; i++)
        if (out[i] != (unsigned char)(i ^ (i >> 8))) {
            CHECK(0, "byte %d: %u", i, out[i]);
            break;
        }
    clReleaseMemObject(m);
    static unsigned char uh[4096] __attribute__((aligned(4096)));
    for (int i = 0; i < 4096; i++) uh[i] = (unsigned char)(255 - (i & 255));
    m = clCreateBuffer(c, UHP, sizeof uh, uh, &e);
    REQUIRE(m, "USE_HOST_PTR: %s", h_err(e));
    void *hp = NULL;
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL));
    CHECK(hp == uh, "CL_MEM_HOST_PTR %p, expected %p", hp, (void *)uh);
    CHECK_OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CHECK(!memcmp(out, uh, sizeof out), "USE_HOST_PTR initial contents");
    unsigned char pat = 0x5a;
    CHECK_OK(clEnqueueFillBuffer(q, m, &pat, 1, 100, 50, 0, NULL, NULL));
    CHECK_OK(clFinish(q));
    void *mp = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 0, sizeof uh, 0, NULL, NULL, &e);
    REQUIRE(mp, "map: %s", h_err(e));
    /* after map the host_ptr region is up to date */
    CHECK(uh[100] == 0x5a && uh[149] == 0x5a && uh[150] == (unsigned char)(255 - 150),
          "USE_HOST_PTR not synchronised after map: %u %u %u", uh[100], uh[149], uh[150]);
    CHECK(((unsigned char *)mp)[120] == 0x5a, "mapped data");
    CHECK_OK(clEnqueueUnmapMemObject(q, m, mp, 0, NULL, NULL));
    CHECK_OK(clFinish(q));
    clReleaseMemObject(m);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(create_with_properties)
{
    cl_context c = h_context();
    REQUIRE(c, "no context");
    cl_int e = 0;
    cl_mem m = clCreateBufferWithProperties(c, NULL, RW, 128, NULL, &e);
    REQUIRE(m && e == CL_SUCCESS, "NULL properties: %s", h_err(e));
    size_t sz = 99;
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &sz));
    CHECK(sz == 0, "CL_MEM_PROPERTIES size %zu for NULL properties", sz);
    clReleaseMemObject(m);
    cl_mem_properties empty[] = {0};
    m = clCreateBufferWithProperties(c, empty, RW, 128, NULL, &e);
    REQUIRE(m && e == CL_SUCCESS, "empty properties: %s", h_err(e));
    sz = 99;
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &sz));
    CHECK(sz == sizeof empty, "CL_MEM_PROPERTIES size %zu for {0}", sz);
    cl_mem_properties got[2] = {7, 7};
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, sizeof got, got, NULL));
    CHECK(got[0] == 0, "CL_MEM_PROPERTIES[0] = %llu", (unsigned long long)got[0]);
    size_t s = 0;
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof s, &s, NULL));
    CHECK(s == 128, "size %zu", s);
    clReleaseMemObject(m);
    cl_mem_properties bad[] = {0x7777, 1, 0};
    m = clCreateBufferWithProperties(c, bad, RW, 128, NULL, &e);
    CHECK_CREATE_FAILS(m, e, CL_INVALID_PROPERTY);
    m = clCreateBufferWithProperties(c, NULL, RW, 0, NULL, &e);
    CHECK_CREATE_FAILS(m, e, CL_INVALID_BUFFER_SIZE);
    m = clCreateBufferWithProperties(c, NULL, RW | WO, 16, NULL, &e);
    CHECK_CREATE_FAILS(m, e, CL_INVALID_VALUE);
    /* clCreateBuffer objects report no properties */
    m = clCreateBuffer(c, RW, 16, NULL, &e);
    REQUIRE(m, "buffer");
    sz = 99;
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &sz));
    CHECK(sz == 0, "CL_MEM_PROPERTIES size %zu for clCreateBuffer", sz);
    clReleaseMemObject(m);
    clReleaseContext(c);
}

TEST(create_mem_info)
{
    cl_context c = h_context();
    REQUIRE(c, "no context");
    cl_int e = 0;
    cl_mem m = clCreateBuffer(c, RO | AHP | HWO, 1000, NULL, &e);
    REQUIRE(m, "create: %s", h_err(e));
    cl_mem_object_type t = 0;
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof t, &t, NULL));
    CHECK(t == CL_MEM_OBJECT_BUFFER, "type 0x%x", t);
    cl_mem_flags f = 0;
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof f, &f, NULL));
    CHECK(f == (RO | AHP | HWO), "flags 0x%llx", (unsigned long long)f);
    size_t s = 0;
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof s, &s, NULL));
    CHECK(s == 1000, "size %zu", s);
    void *hp = (void *)1;
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL));
    CHECK(hp == NULL, "host ptr %p for ALLOC_HOST_PTR", hp);
    cl_uint mc = 99, rc = 0;
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof mc, &mc, NULL));
    CHECK(mc == 0, "map count %u", mc);
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof rc, &rc, NULL));
    CHECK(rc == 1, "refcount %u", rc);
    CHECK_OK(clRetainMemObject(m));
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof rc, &rc, NULL));
    CHECK(rc == 2, "refcount after retain %u", rc);
    CHECK_OK(clReleaseMemObject(m));
    cl_context mctx = NULL;
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof mctx, &mctx, NULL));
    CHECK(mctx == c, "context");
    cl_mem assoc = (cl_mem)1;
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
    CHECK(assoc == NULL, "associated memobject of a buffer %p", (void *)assoc);
    size_t off = 99;
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_OFFSET, sizeof off, &off, NULL));
    CHECK(off == 0, "offset %zu", off);
    cl_bool svm = 7;
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof svm, &svm, NULL));
    CHECK(svm == CL_FALSE, "uses svm pointer %u", svm);
    CHECK_ERR(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof s - 1, &s, NULL), CL_INVALID_VALUE);
    clReleaseMemObject(m);
    clReleaseContext(c);
}

TEST(create_sub_buffers)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    cl_uint align_bits = 0;
    CHECK_OK(clGetDeviceInfo(h_device(), CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits,
                             &align_bits, NULL));
    size_t al = align_bits / 8;
    REQUIRE(al >= 1 && al <= 4096, "alignment %zu", al);
    size_t total = al * 8;
    unsigned char *init = malloc(total), *out = malloc(total);
    for (size_t i = 0; i < total; i++) init[i] = (unsigned char)(i * 13);
    cl_int e = 0;
    cl_mem parent = clCreateBuffer(c, RW | CHP, total, init, &e);
    REQUIRE(parent, "parent: %s", h_err(e));
    cl_buffer_region r = {al * 2, al * 3};
    cl_mem sub = clCreateSubBuffer(parent, RO, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
    REQUIRE(sub && e == CL_SUCCESS, "sub-buffer: %s", h_err(e));
    CHECK_OK(clEnqueueReadBuffer(q, sub, CL_TRUE, 0, r.size, out, 0, NULL, NULL));
    CHECK(!memcmp(out, init + r.origin, r.size), "sub-buffer contents");
    cl_mem assoc = NULL;
    CHECK_OK(clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
    CHECK(assoc == parent, "associated memobject");
    size_t off = 0, s = 0;
    CHECK_OK(clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof off, &off, NULL));
    CHECK(off == r.origin, "offset %zu", off);
    CHECK_OK(clGetMemObjectInfo(sub, CL_MEM_SIZE, sizeof s, &s, NULL));
    CHECK(s == r.size, "size %zu", s);
    cl_mem_flags f = 0;
    CHECK_OK(clGetMemObjectInfo(sub, CL_MEM_FLAGS, sizeof f, &f, NULL));
    CHECK(f & RO, "sub flags 0x%llx", (unsigned long long)f);
    /* writes through the parent are visible in the sub-buffer */
    unsigned char v = 0xEE;
    CHECK_OK(clEnqueueWriteBuffer(q, parent, CL_TRUE, al * 2 + 5, 1, &v, 0, NULL, NULL));
    unsigned char rv = 0;
    CHECK_OK(clEnqueueReadBuffer(q, sub, CL_TRUE, 5, 1, &rv, 0, NULL, NULL));
    CHECK(rv == 0xEE, "aliasing: read %u", rv);
    /* inherits flags when 0 */
    cl_mem sub2 = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
    CHECK(sub2 && e == CL_SUCCESS, "flags 0: %s", h_err(e));
    if (sub2) {
        CHECK_OK(clGetMemObjectInfo(sub2, CL_MEM_FLAGS, sizeof f, &f, NULL));
        CHECK(f & RW, "inherited flags 0x%llx", (unsigned long long)f);
        clReleaseMemObject(sub2);
    }
    /* errors */
    cl_mem bad;
    cl_buffer_region mis = {1, al};
    if (al > 1) {
        bad = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &mis, &e);
        CHECK_CREATE_FAILS(bad, e, CL_MISALIGNED_SUB_BUFFER_OFFSET);
    }
    cl_buffer_region oob = {al * 4, al * 5};
    bad = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &oob, &e);
    CHECK_CREATE_FAILS(bad, e, CL_INVALID_VALUE);
    cl_buffer_region oob2 = {al * 9, al};
    bad = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &oob2, &e);
    CHECK_CREATE_FAILS(bad, e, CL_INVALID_VALUE);
    cl_buffer_region zero = {0, 0};
    bad = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &zero, &e);
    CHECK_CREATE_FAILS(bad, e, CL_INVALID_BUFFER_SIZE);
    cl_buffer_region r0 = {0, al};
    bad = clCreateSubBuffer(sub, 0, CL_BUFFER_CREATE_TYPE_REGION, &r0, &e);
    CHECK_CREATE_FAILS(bad, e, CL_INVALID_MEM_OBJECT);
    bad = clCreateSubBuffer(parent, RW | RO, CL_BUFFER_CREATE_TYPE_REGION, &r0, &e);
    CHECK_CREATE_FAILS(bad, e, CL_INVALID_VALUE);
    bad = clCreateSubBuffer(parent, UHP, CL_BUFFER_CREATE_TYPE_REGION, &r0, &e);
    CHECK_CREATE_FAILS(bad, e, CL_INVALID_VALUE);
    /* parent READ_ONLY -> sub WRITE_ONLY / READ_WRITE invalid */
    cl_mem rop = clCreateBuffer(c, RO, total, NULL, &e);
    REQUIRE(rop, "ro parent");
    bad = clCreateSubBuffer(rop, WO, CL_BUFFER_CREATE_TYPE_REGION, &r0, &e);
    CHECK_CREATE_FAILS(bad, e, CL_INVALID_VALUE);
    bad = clCreateSubBuffer(rop, RW, CL_BUFFER_CREATE_TYPE_REGION, &r0, &e);
    CHECK_CREATE_FAILS(bad, e, CL_INVALID_VALUE);
    clReleaseMemObject(rop);
    cl_mem hna = clCreateBuffer(c, RW | HNA, total, NULL, &e);
    REQUIRE(hna, "hna parent");
    bad = clCreateSubBuffer(hna, HRO, CL_BUFFER_CREATE_TYPE_REGION, &r0, &e);
    CHECK_CREATE_FAILS(bad, e, CL_INVALID_VALUE);
    clReleaseMemObject(hna);
    /* sub-buffer keeps the parent alive */
    CHECK_OK(clReleaseMemObject(parent));
    CHECK_OK(clEnqueueReadBuffer(q, sub, CL_TRUE, 0, r.size, out, 0, NULL, NULL));
    CHECK(out[5] == 0xEE && out[6] == init[al * 2 + 6], "contents after parent release");
    clReleaseMemObject(sub);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
    free(init);
    free(out);
}

static int dtor_order[16];
static int dtor_n;
static void CL_CALLBACK dtor(cl_mem m, void *ud)
{
    (void)m;
    int i = __atomic_fetch_add(&dtor_n, 1, __ATOMIC_SEQ_CST);
    if (i < 16) dtor_order[i] = (int)(intptr_t)ud;
}

TEST(create_destructor_callbacks)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    cl_int e = 0;
    cl_mem m = clCreateBuffer(c, RW, 64, NULL, &e);
    REQUIRE(m, "buffer");
    for (intptr_t i = 1; i <= 4; i++)
        CHECK_OK(clSetMemObjectDestructorCallback(m, dtor, (void *)i));
    CHECK_OK(clRetainMemObject(m));
    CHECK_OK(clReleaseMemObject(m));
    h_sleep_ms(20);
    CHECK(dtor_n == 0, "callback called before final release");
    CHECK_OK(clReleaseMemObject(m));
    CHECK(h_wait_int(&dtor_n, 4, 5.0), "%d callbacks after final release", dtor_n);
    h_sleep_ms(20);
    CHECK(dtor_n == 4, "callbacks called %d times", dtor_n);
    CHECK(dtor_order[0] == 4 && dtor_order[1] == 3 && dtor_order[2] == 2 && dtor_order[3] == 1,
          "order %d %d %d %d, expected 4 3 2 1", dtor_order[0], dtor_order[1], dtor_order[2],
          dtor_order[3]);
    /* sub-buffer: parent destructor only after the sub-buffer goes too */
    dtor_n = 0;
    cl_mem p = clCreateBuffer(c, RW, 4096, NULL, &e);
    REQUIRE(p, "buffer");
    cl_buffer_region r = {0, 64};
    cl_mem s = clCreateSubBuffer(p, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
    REQUIRE(s, "sub: %s", h_err(e));
    CHECK_OK(clSetMemObjectDestructorCallback(p, dtor, (void *)10));
    CHECK_OK(clSetMemObjectDestructorCallback(s, dtor, (void *)20));
    CHECK_OK(clReleaseMemObject(p));
    h_sleep_ms(20);
    CHECK(dtor_n == 0, "parent destroyed while a sub-buffer exists");
    CHECK_OK(clReleaseMemObject(s));
    CHECK(h_wait_int(&dtor_n, 2, 5.0), "%d callbacks after releasing sub-buffer", dtor_n);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* The kernel's event, its status when the destructor callback ran, and
 * how many times it ran. */
static cl_event gated_kernel;
static cl_int status_at_dtor = 12345;
static int gated_dtor_n;
static void CL_CALLBACK gated_dtor(cl_mem m, void *ud)
{
    (void)m, (void)ud;
    cl_int st = 12345;
    clGetEventInfo(gated_kernel, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    status_at_dtor = st;
    __atomic_fetch_add(&gated_dtor_n, 1, __ATOMIC_SEQ_CST);
}

/* "The registered user callback functions are called ... when the memory
 * object is deleted": not while a command that uses it is queued or
 * running, even once the application has released it. A kernel waiting on
 * a user event uses the buffer; releasing the buffer then runs no
 * callback; completing the event runs the kernel, and the callback runs
 * exactly once, after the kernel's event is CL_COMPLETE, with the storage
 * still there for the kernel (it wrote what it should). */
TEST(destructor_callback_after_the_commands_using_it)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    cl_program p = h_build(c,
                           "kernel void fill(global int *b, global int *copy) {\n"
                           "  size_t i = get_global_id(0);\n"
                           "  b[i] = 3 * (int)i;\n"
                           "  copy[i] = b[i] + 1;\n"
                           "}\n",
                           NULL);
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "fill", &e);
    REQUIRE(k, "kernel: %s", h_err(e));
    for (int round = 0; round < 20 && !h_failed(); round++) {
        size_t n = 4096 + 64 * (size_t)round;
        cl_mem b = clCreateBuffer(c, RW, n * sizeof(int), NULL, &e);
        cl_mem copy = clCreateBuffer(c, RW, n * sizeof(int), NULL, &e);
        REQUIRE(b && copy, "buffers: %s", h_err(e));
        gated_dtor_n = 0;
        status_at_dtor = 12345;
        CHECK_OK(clSetMemObjectDestructorCallback(b, gated_dtor, NULL));
        cl_event gate = clCreateUserEvent(c, &e);
        REQUIRE(gate, "user event: %s", h_err(e));
        CHECK_OK(clSetKernelArg(k, 0, sizeof b, &b));
        CHECK_OK(clSetKernelArg(k, 1, sizeof copy, &copy));
        CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 1, &gate, &gated_kernel));
        CHECK_OK(clReleaseMemObject(b));
        h_sleep_ms(round == 0 ? 20 : 1);
        CHECK(gated_dtor_n == 0, "round %d: callback ran while the kernel waited", round);
        CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
        CHECK_OK(clFinish(q));
        CHECK(h_wait_int(&gated_dtor_n, 1, 5.0), "round %d: callback never ran", round);
        h_sleep_ms(round == 0 ? 20 : 0);
        CHECK(gated_dtor_n == 1, "round %d: callback ran %d times", round, gated_dtor_n);
        CHECK(status_at_dtor == CL_COMPLETE, "round %d: callback ran with the kernel %s", round,
              h_err(status_at_dtor));
        int *out = malloc(n * sizeof *out);
        CHECK_OK(clEnqueueReadBuffer(q, copy, CL_TRUE, 0, n * sizeof *out, out, 0, NULL, NULL));
        size_t bad = 0;
        for (size_t i = 0; i < n; i++) bad += out[i] != 3 * (int)i + 1;
        CHECK(bad == 0, "round %d: %zu wrong", round, bad);
        free(out);
        clReleaseEvent(gated_kernel);
        clReleaseEvent(gate);
        clReleaseMemObject(copy);
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("buffers", argc, argv);
    H_RUN(create_all_flag_combinations);
    H_RUN(create_size_errors);
    H_RUN(create_copy_and_use_host_ptr_contents);
    H_RUN(create_with_properties);
    H_RUN(create_mem_info);
    H_RUN(create_sub_buffers);
    H_RUN(create_destructor_callbacks);
    H_RUN_T(destructor_callback_after_the_commands_using_it, 60);
    return h_done();
}
