/* buffers/transfer: read/write/copy/fill and the rect variants, checked byte for byte. */
#include "harness.h"

struct fx { cl_context c; cl_command_queue q; };
static int fx_init(struct fx *f)
{
    f->c = h_context();
    f->q = h_queue(f->c, 0);
    return f->q != NULL;
}
static void fx_done(struct fx *f)
{
    if (f->q) { clFinish(f->q); clReleaseCommandQueue(f->q); }
    if (f->c) clReleaseContext(f->c);
}

static cl_mem mkbuf(struct fx *f, size_t n, const void *init)
{
    cl_int e = 0;
    cl_mem m = clCreateBuffer(f->c, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), n,
                              (void *)init, &e);
    CHECK(m && e == CL_SUCCESS, "clCreateBuffer(%zu): %s", n, h_err(e));
    return m;
}

static void fill_pattern(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)((i * 2654435761u + seed) >> 7);
}

static int first_diff(const unsigned char *a, const unsigned char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) return (int)i;
    return -1;
}

TEST(transfer_write_read)
{
    struct fx f;
    if (!fx_init(&f)) { fx_done(&f); return; }
    enum { N = 1 << 16 };
    unsigned char *src = malloc(N), *dst = malloc(N), *ref = malloc(N);
    fill_pattern(src, N, 1);
    cl_mem b = mkbuf(&f, N, NULL);
    REQUIRE(b, "buffer");
    CHECK_OK(clEnqueueWriteBuffer(f.q, b, CL_TRUE, 0, N, src, 0, NULL, NULL));
    memset(dst, 0, N);
    CHECK_OK(clEnqueueReadBuffer(f.q, b, CL_TRUE, 0, N, dst, 0, NULL, NULL));
    int d = first_diff(src, dst, N);
    CHECK(d < 0, "full read differs at byte %d", d);
    /* partial, unaligned write then partial read */
    unsigned char patch[333];
    fill_pattern(patch, sizeof patch, 99);
    CHECK_OK(clEnqueueWriteBuffer(f.q, b, CL_FALSE, 1001, sizeof patch, patch, 0, NULL, NULL));
    memcpy(ref, src, N);
    memcpy(ref + 1001, patch, sizeof patch);
    unsigned char part[777];
    cl_event ev = NULL;
    CHECK_OK(clEnqueueReadBuffer(f.q, b, CL_FALSE, 900, sizeof part, part, 0, NULL, &ev));
    CHECK_OK(clWaitForEvents(1, &ev));
    d = first_diff(ref + 900, part, sizeof part);
    CHECK(d < 0, "partial read differs at byte %d", d);
    cl_command_type ct = 0;
    CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL));
    CHECK(ct == CL_COMMAND_READ_BUFFER, "command type 0x%x", ct);
    clReleaseEvent(ev);
    /* out of bounds */
    CHECK_ERR(clEnqueueReadBuffer(f.q, b, CL_TRUE, N - 10, 11, dst, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueWriteBuffer(f.q, b, CL_TRUE, N, 1, src, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadBuffer(f.q, b, CL_TRUE, (size_t)-8, 16, dst, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_OK(clEnqueueReadBuffer(f.q, b, CL_TRUE, N - 1, 1, dst, 0, NULL, NULL));
    CHECK(dst[0] == ref[N - 1], "last byte");
    clReleaseMemObject(b);
    free(src); free(dst); free(ref);
    fx_done(&f);
}

TEST(transfer_copy)
{
    struct fx f;
    if (!fx_init(&f)) { fx_done(&f); return; }
    enum { N = 8192 };
    unsigned char a[N], bb[N], out[N], ref[N];
    fill_pattern(a, N, 3);
    fill_pattern(bb, N, 4);
    cl_mem A = mkbuf(&f, N, a), B = mkbuf(&f, N, bb);
    REQUIRE(A && B, "buffers");
    CHECK_OK(clEnqueueCopyBuffer(f.q, A, B, 100, 2000, 3000, 0, NULL, NULL));
    memcpy(ref, bb, N);
    memcpy(ref + 2000, a + 100, 3000);
    CHECK_OK(clEnqueueReadBuffer(f.q, B, CL_TRUE, 0, N, out, 0, NULL, NULL));
    int d = first_diff(ref, out, N);
    CHECK(d < 0, "copy result differs at %d", d);
    /* same buffer, non-overlapping */
    CHECK_OK(clEnqueueCopyBuffer(f.q, A, A, 0, 4096, 4096, 0, NULL, NULL));
    memcpy(ref, a, N);
    memcpy(ref + 4096, a, 4096);
    CHECK_OK(clEnqueueReadBuffer(f.q, A, CL_TRUE, 0, N, out, 0, NULL, NULL));
    d = first_diff(ref, out, N);
    CHECK(d < 0, "self copy differs at %d", d);
    /* overlap */
    CHECK_ERR(clEnqueueCopyBuffer(f.q, A, A, 0, 100, 200, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    CHECK_ERR(clEnqueueCopyBuffer(f.q, A, A, 100, 0, 101, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    CHECK_ERR(clEnqueueCopyBuffer(f.q, A, A, 10, 10, 1, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    CHECK_OK(clEnqueueCopyBuffer(f.q, A, A, 0, 100, 100, 0, NULL, NULL)); /* adjacent: fine */
    /* out of bounds */
    CHECK_ERR(clEnqueueCopyBuffer(f.q, A, B, N - 10, 0, 11, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueCopyBuffer(f.q, A, B, 0, N - 10, 11, 0, NULL, NULL), CL_INVALID_VALUE);
    /* overlapping sub-buffers of one parent */
    cl_uint ab = 0;
    clGetDeviceInfo(h_device(), CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof ab, &ab, NULL);
    size_t al = ab / 8;
    if (al && al * 3 <= N) {
        cl_int e;
        cl_buffer_region r1 = {0, al * 2}, r2 = {al, al * 2};
        cl_mem s1 = clCreateSubBuffer(A, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &e);
        cl_mem s2 = clCreateSubBuffer(A, 0, CL_BUFFER_CREATE_TYPE_REGION, &r2, &e);
        CHECK(s1 && s2, "sub-buffers");
        if (s1 && s2) {
            /* s1[0, al) is parent [0, al), s2[0, al) is parent [al, 2al): disjoint */
            CHECK_OK(clEnqueueCopyBuffer(f.q, s1, s2, 0, 0, al, 0, NULL, NULL));
            /* regions [al, 2al) of s1 vs [0, al) of s2 are the same bytes */
            CHECK_ERR(clEnqueueCopyBuffer(f.q, s1, s2, al, 0, al, 0, NULL, NULL),
                      CL_MEM_COPY_OVERLAP);
        }
        if (s1) clReleaseMemObject(s1);
        if (s2) clReleaseMemObject(s2);
    }
    clReleaseMemObject(A);
    clReleaseMemObject(B);
    fx_done(&f);
}

TEST(transfer_fill)
{
    struct fx f;
    if (!fx_init(&f)) { fx_done(&f); return; }
    enum { N = 4096 };
    unsigned char init[N], out[N], ref[N];
    fill_pattern(init, N, 5);
    cl_mem b = mkbuf(&f, N, init);
    REQUIRE(b, "buffer");
    memcpy(ref, init, N);
    for (size_t ps = 1; ps <= 128; ps *= 2) {
        unsigned char pat[128];
        for (size_t i = 0; i < ps; i++) pat[i] = (unsigned char)(0x80 + ps + i);
        size_t off = ps * 3, size = ps * 5;
        CHECK_OK(clEnqueueFillBuffer(f.q, b, pat, ps, off, size, 0, NULL, NULL));
        for (size_t i = 0; i < size; i++) ref[off + i] = pat[i % ps];
        CHECK_OK(clEnqueueReadBuffer(f.q, b, CL_TRUE, 0, N, out, 0, NULL, NULL));
        int d = first_diff(ref, out, N);
        CHECK(d < 0, "fill with pattern size %zu: differs at %d", ps, d);
    }
    /* pattern copied at enqueue time */
    cl_uint pat4 = 0x11223344u;
    cl_event ue;
    cl_int e;
    ue = clCreateUserEvent(f.c, &e);
    CHECK_OK(clEnqueueFillBuffer(f.q, b, &pat4, 4, 0, 64, 1, &ue, NULL));
    pat4 = 0;
    CHECK_OK(clSetUserEventStatus(ue, CL_COMPLETE));
    CHECK_OK(clFinish(f.q));
    cl_uint chk[16];
    CHECK_OK(clEnqueueReadBuffer(f.q, b, CL_TRUE, 0, 64, chk, 0, NULL, NULL));
    CHECK(chk[0] == 0x11223344u && chk[15] == 0x11223344u,
          "pattern not copied at enqueue time: 0x%x", chk[0]);
    clReleaseEvent(ue);
    unsigned char pat[256] = {0};
    CHECK_ERR(clEnqueueFillBuffer(f.q, b, pat, 3, 0, 6, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillBuffer(f.q, b, pat, 256, 0, 256, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillBuffer(f.q, b, pat, 8, 4, 8, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillBuffer(f.q, b, pat, 8, 0, 12, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillBuffer(f.q, b, pat, 8, N - 8, 16, 0, NULL, NULL), CL_INVALID_VALUE);
    clReleaseMemObject(b);
    fx_done(&f);
}

/* reference rect copy between two linear byte arrays */
static void ref_rect(unsigned char *dst, const size_t dorg[3], size_t drp, size_t dsp,
                     const unsigned char *src, const size_t sorg[3], size_t srp, size_t ssp,
                     const size_t reg[3])
{
    for (size_t z = 0; z < reg[2]; z++)
        for (size_t y = 0; y < reg[1]; y++)
            memcpy(dst + dorg[0] + (dorg[1] + y) * drp + (dorg[2] + z) * dsp,
                   src + sorg[0] + (sorg[1] + y) * srp + (sorg[2] + z) * ssp, reg[0]);
}

TEST(transfer_rect)
{
    struct fx f;
    if (!fx_init(&f)) { fx_done(&f); return; }
    /* device buffer: 32 x 16 x 4, row pitch 32, slice pitch 512 */
    enum { BRP = 32, BSP = 512, BN = 2048 };
    /* host: row pitch 20, slice pitch 20*10 */
    enum { HRP = 20, HSP = 200, HN = 800 };
    unsigned char binit[BN], host[HN], bref[BN], hout[HN], href[HN], bout[BN];
    fill_pattern(binit, BN, 7);
    fill_pattern(host, HN, 8);
    cl_mem b = mkbuf(&f, BN, binit);
    REQUIRE(b, "buffer");
    size_t bo[3] = {5, 3, 1}, ho[3] = {2, 1, 0}, reg[3] = {13, 7, 3};
    CHECK_OK(clEnqueueWriteBufferRect(f.q, b, CL_TRUE, bo, ho, reg, BRP, BSP, HRP, HSP, host, 0,
                                      NULL, NULL));
    memcpy(bref, binit, BN);
    ref_rect(bref, bo, BRP, BSP, host, ho, HRP, HSP, reg);
    CHECK_OK(clEnqueueReadBuffer(f.q, b, CL_TRUE, 0, BN, bout, 0, NULL, NULL));
    int d = first_diff(bref, bout, BN);
    CHECK(d < 0, "write rect differs at %d", d);
    /* read rect back into a different place in host memory */
    memset(hout, 0xCD, HN);
    memset(href, 0xCD, HN);
    size_t bo2[3] = {0, 2, 0}, ho2[3] = {3, 0, 1}, reg2[3] = {17, 9, 2};
    CHECK_OK(clEnqueueReadBufferRect(f.q, b, CL_TRUE, bo2, ho2, reg2, BRP, BSP, HRP, HSP, hout, 0,
                                     NULL, NULL));
    ref_rect(href, ho2, HRP, HSP, bref, bo2, BRP, BSP, reg2);
    d = first_diff(href, hout, HN);
    CHECK(d < 0, "read rect differs at %d", d);
    /* pitches 0 mean tightly packed */
    unsigned char tight[6 * 4 * 2], tref[6 * 4 * 2];
    size_t z3[3] = {0, 0, 0}, bo3[3] = {1, 1, 1}, reg3[3] = {6, 4, 2};
    CHECK_OK(clEnqueueReadBufferRect(f.q, b, CL_TRUE, bo3, z3, reg3, BRP, BSP, 0, 0, tight, 0,
                                     NULL, NULL));
    ref_rect(tref, z3, 6, 24, bref, bo3, BRP, BSP, reg3);
    d = first_diff(tref, tight, sizeof tight);
    CHECK(d < 0, "tight read rect differs at %d", d);
    /* copy rect into a second buffer with other pitches */
    unsigned char cinit[1024], cref[1024], cout[1024];
    fill_pattern(cinit, sizeof cinit, 9);
    cl_mem c2 = mkbuf(&f, sizeof cinit, cinit);
    REQUIRE(c2, "buffer 2");
    size_t so[3] = {4, 2, 1}, dor[3] = {1, 0, 0}, creg[3] = {10, 5, 2};
    CHECK_OK(clEnqueueCopyBufferRect(f.q, b, c2, so, dor, creg, BRP, BSP, 16, 256, 0, NULL, NULL));
    memcpy(cref, cinit, sizeof cinit);
    ref_rect(cref, dor, 16, 256, bref, so, BRP, BSP, creg);
    CHECK_OK(clEnqueueReadBuffer(f.q, c2, CL_TRUE, 0, sizeof cout, cout, 0, NULL, NULL));
    d = first_diff(cref, cout, sizeof cout);
    CHECK(d < 0, "copy rect differs at %d", d);
    /* same buffer, disjoint rects */
    size_t s4[3] = {0, 0, 0}, d4[3] = {16, 0, 0}, r4[3] = {8, 8, 2};
    CHECK_OK(clEnqueueCopyBufferRect(f.q, b, b, s4, d4, r4, BRP, BSP, BRP, BSP, 0, NULL, NULL));
    ref_rect(bref, d4, BRP, BSP, bref, s4, BRP, BSP, r4);
    CHECK_OK(clEnqueueReadBuffer(f.q, b, CL_TRUE, 0, BN, bout, 0, NULL, NULL));
    d = first_diff(bref, bout, BN);
    CHECK(d < 0, "self copy rect differs at %d", d);
    /* errors */
    size_t s5[3] = {0, 0, 0}, d5[3] = {4, 2, 0}, r5[3] = {8, 8, 1};
    CHECK_ERR(clEnqueueCopyBufferRect(f.q, b, b, s5, d5, r5, BRP, BSP, BRP, BSP, 0, NULL, NULL),
              CL_MEM_COPY_OVERLAP);
    CHECK_ERR(clEnqueueCopyBufferRect(f.q, b, b, s4, d4, r4, BRP, BSP, 64, BSP, 0, NULL, NULL),
              CL_INVALID_VALUE);
    size_t zero[3] = {0, 4, 1};
    CHECK_ERR(clEnqueueReadBufferRect(f.q, b, CL_TRUE, bo, ho, zero, BRP, BSP, HRP, HSP, hout, 0,
                                      NULL, NULL), CL_INVALID_VALUE);
    size_t big[3] = {33, 1, 1};
    CHECK_ERR(clEnqueueReadBufferRect(f.q, b, CL_TRUE, z3, z3, big, BRP, BSP, 64, 0, hout, 0,
                                      NULL, NULL), CL_INVALID_VALUE); /* row pitch < region */
    size_t oob[3] = {8, 8, 5};
    CHECK_ERR(clEnqueueReadBufferRect(f.q, b, CL_TRUE, z3, z3, oob, BRP, BSP, 8, 64, hout, 0, NULL,
                                      NULL), CL_INVALID_VALUE); /* 5 slices of 512 > 2048 */
    CHECK_ERR(clEnqueueWriteBufferRect(f.q, b, CL_TRUE, z3, z3, reg, BRP, BSP, HRP, HSP, NULL, 0,
                                       NULL, NULL), CL_INVALID_VALUE);
    size_t r6[3] = {4, 4, 1};
    CHECK_ERR(clEnqueueReadBufferRect(f.q, b, CL_TRUE, z3, z3, r6, BRP, 40, HRP, HSP, hout, 0,
                                      NULL, NULL), CL_INVALID_VALUE); /* slice pitch < 4 rows */
    clReleaseMemObject(b);
    clReleaseMemObject(c2);
    fx_done(&f);
}

TEST(transfer_sub_buffer_io)
{
    struct fx f;
    if (!fx_init(&f)) { fx_done(&f); return; }
    cl_uint ab = 0;
    clGetDeviceInfo(h_device(), CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof ab, &ab, NULL);
    size_t al = ab / 8;
    size_t N = al * 4;
    unsigned char *init = malloc(N), *out = malloc(N), *ref = malloc(N);
    fill_pattern(init, N, 11);
    cl_mem b = mkbuf(&f, N, init);
    REQUIRE(b, "buffer");
    cl_int e;
    cl_buffer_region r = {al, al * 2};
    cl_mem s = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
    REQUIRE(s, "sub: %s", h_err(e));
    unsigned char pat = 0x42;
    CHECK_OK(clEnqueueFillBuffer(f.q, s, &pat, 1, 0, al * 2, 0, NULL, NULL));
    memcpy(ref, init, N);
    memset(ref + al, 0x42, al * 2);
    CHECK_OK(clEnqueueReadBuffer(f.q, b, CL_TRUE, 0, N, out, 0, NULL, NULL));
    int d = first_diff(ref, out, N);
    CHECK(d < 0, "fill through sub-buffer differs at %d", d);
    CHECK_ERR(clEnqueueReadBuffer(f.q, s, CL_TRUE, al, al + 1, out, 0, NULL, NULL),
              CL_INVALID_VALUE);
    clReleaseMemObject(s);
    clReleaseMemObject(b);
    free(init); free(out); free(ref);
    fx_done(&f);
}

int main(int argc, char **argv)
{
    h_init("buffers", argc, argv);
    H_RUN(transfer_write_read);
    H_RUN(transfer_copy);
    H_RUN(transfer_fill);
    H_RUN(transfer_rect);
    H_RUN(transfer_sub_buffer_io);
    return h_done();
}
