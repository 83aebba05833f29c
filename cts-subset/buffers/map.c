/* buffers/map: map/unmap, CL_MEM_MAP_COUNT, migration, host access flags. */
#include "harness.h"

static cl_uint map_count(cl_mem m)
{
    cl_uint c = 0;
    CHECK_OK(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof c, &c, NULL));
    return c;
}

TEST(map_read_write)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    enum { N = 8192 };
    unsigned char init[N], out[N];
    for (int i = 0; i < N; i++) init[i] = (unsigned char)(i * 31 + 1);
    cl_int e = 0;
    cl_mem b = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N, init, &e);
    REQUIRE(b, "buffer: %s", h_err(e));
    unsigned char *p = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ, 100, 1000, 0, NULL, NULL, &e);
    REQUIRE(p && e == CL_SUCCESS, "map read: %s", h_err(e));
    CHECK(!memcmp(p, init + 100, 1000), "mapped-for-read data differs");
    CHECK(map_count(b) == 1, "map count %u after one map", map_count(b));
    unsigned char *p2 = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ, 0, 64, 0, NULL, NULL, &e);
    CHECK(p2 && e == CL_SUCCESS, "second map: %s", h_err(e));
    CHECK(map_count(b) == 2, "map count %u after two maps", map_count(b));
    CHECK_OK(clEnqueueUnmapMemObject(q, b, p, 0, NULL, NULL));
    if (p2) CHECK_OK(clEnqueueUnmapMemObject(q, b, p2, 0, NULL, NULL));
    CHECK_OK(clFinish(q));
    CHECK(map_count(b) == 0, "map count %u after unmaps", map_count(b));
    /* write through a mapping */
    cl_event ev = NULL;
    p = clEnqueueMapBuffer(q, b, CL_FALSE, CL_MAP_WRITE, 4000, 500, 0, NULL, &ev, &e);
    REQUIRE(p && e == CL_SUCCESS, "map write: %s", h_err(e));
    CHECK_OK(clWaitForEvents(1, &ev));
    cl_command_type ct = 0;
    CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL));
    CHECK(ct == CL_COMMAND_MAP_BUFFER, "map command type 0x%x", ct);
    clReleaseEvent(ev);
    for (int i = 0; i < 500; i++) p[i] = (unsigned char)(0xA0 ^ i);
    CHECK_OK(clEnqueueUnmapMemObject(q, b, p, 0, NULL, &ev));
    CHECK_OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, N, out, 0, NULL, NULL));
    CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL));
    CHECK(ct == CL_COMMAND_UNMAP_MEM_OBJECT, "unmap command type 0x%x", ct);
    clReleaseEvent(ev);
    for (int i = 0; i < N; i++) {
        unsigned char want = (i >= 4000 && i < 4500) ? (unsigned char)(0xA0 ^ (i - 4000)) : init[i];
        if (out[i] != want) {
            CHECK(0, "byte %d is %u, expected %u", i, out[i], want);
            break;
        }
    }
    /* WRITE_INVALIDATE_REGION: everything we write must land */
    p = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 256, 0, NULL, NULL, &e);
    REQUIRE(p, "map invalidate: %s", h_err(e));
    memset(p, 0x77, 256);
    CHECK_OK(clEnqueueUnmapMemObject(q, b, p, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, 257, out, 0, NULL, NULL));
    CHECK(out[0] == 0x77 && out[255] == 0x77 && out[256] == init[256], "invalidate-region map");
    /* errors */
    p = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ, N - 4, 8, 0, NULL, NULL, &e);
    CHECK(p == NULL && e == CL_INVALID_VALUE, "out-of-range map: %s", h_err(e));
    p = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ, 0, 0, 0, NULL, NULL, &e);
    CHECK(p == NULL && e == CL_INVALID_VALUE, "size-0 map: %s", h_err(e));
    CHECK_ERR(clEnqueueUnmapMemObject(q, b, out, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_OK(clFinish(q));
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(map_use_host_ptr)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    static unsigned char host[4096] __attribute__((aligned(4096)));
    for (int i = 0; i < 4096; i++) host[i] = (unsigned char)i;
    cl_int e = 0;
    cl_mem b = clCreateBuffer(c, CL_MEM_USE_HOST_PTR, sizeof host, host, &e);
    REQUIRE(b, "buffer: %s", h_err(e));
    unsigned char v[16];
    memset(v, 0x3c, sizeof v);
    CHECK_OK(clEnqueueWriteBuffer(q, b, CL_TRUE, 512, sizeof v, v, 0, NULL, NULL));
    unsigned char *p = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 256, 1024, 0,
                                          NULL, NULL, &e);
    REQUIRE(p, "map: %s", h_err(e));
    /* CPU implementations may (not must) return host + offset; data must match */
    CHECK(p[256] == 0x3c && p[271] == 0x3c && p[272] == (unsigned char)(512 + 16),
          "mapped data wrong");
    CHECK(host[512] == 0x3c, "host_ptr not updated while mapped");
    p[0] = 0xF1;
    CHECK_OK(clEnqueueUnmapMemObject(q, b, p, 0, NULL, NULL));
    unsigned char r = 0;
    CHECK_OK(clEnqueueReadBuffer(q, b, CL_TRUE, 256, 1, &r, 0, NULL, NULL));
    CHECK(r == 0xF1, "write through USE_HOST_PTR mapping lost: %u", r);
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(map_host_access_flags)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    cl_int e = 0;
    unsigned char buf[64] = {0};
    cl_mem na = clCreateBuffer(c, CL_MEM_HOST_NO_ACCESS, 64, NULL, &e);
    cl_mem ro = clCreateBuffer(c, CL_MEM_HOST_READ_ONLY, 64, NULL, &e);
    cl_mem wo = clCreateBuffer(c, CL_MEM_HOST_WRITE_ONLY, 64, NULL, &e);
    REQUIRE(na && ro && wo, "buffers");
    size_t o[3] = {0, 0, 0}, r[3] = {4, 1, 1};
    void *p;
    /* NO_ACCESS: no host read, write, or map */
    CHECK_ERR(clEnqueueReadBuffer(q, na, CL_TRUE, 0, 4, buf, 0, NULL, NULL), CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueWriteBuffer(q, na, CL_TRUE, 0, 4, buf, 0, NULL, NULL), CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueReadBufferRect(q, na, CL_TRUE, o, o, r, 0, 0, 0, 0, buf, 0, NULL, NULL),
              CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueWriteBufferRect(q, na, CL_TRUE, o, o, r, 0, 0, 0, 0, buf, 0, NULL, NULL),
              CL_INVALID_OPERATION);
    p = clEnqueueMapBuffer(q, na, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &e);
    CHECK(!p && e == CL_INVALID_OPERATION, "map NO_ACCESS for read: %s", h_err(e));
    p = clEnqueueMapBuffer(q, na, CL_TRUE, CL_MAP_WRITE, 0, 4, 0, NULL, NULL, &e);
    CHECK(!p && e == CL_INVALID_OPERATION, "map NO_ACCESS for write: %s", h_err(e));
    /* READ_ONLY: no writes */
    CHECK_ERR(clEnqueueWriteBuffer(q, ro, CL_TRUE, 0, 4, buf, 0, NULL, NULL), CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueWriteBufferRect(q, ro, CL_TRUE, o, o, r, 0, 0, 0, 0, buf, 0, NULL, NULL),
              CL_INVALID_OPERATION);
    p = clEnqueueMapBuffer(q, ro, CL_TRUE, CL_MAP_WRITE, 0, 4, 0, NULL, NULL, &e);
    CHECK(!p && e == CL_INVALID_OPERATION, "map HOST_READ_ONLY for write: %s", h_err(e));
    p = clEnqueueMapBuffer(q, ro, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 4, 0, NULL, NULL, &e);
    CHECK(!p && e == CL_INVALID_OPERATION, "map HOST_READ_ONLY invalidate: %s", h_err(e));
    CHECK_OK(clEnqueueReadBuffer(q, ro, CL_TRUE, 0, 4, buf, 0, NULL, NULL));
    p = clEnqueueMapBuffer(q, ro, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &e);
    CHECK(p && e == CL_SUCCESS, "map HOST_READ_ONLY for read: %s", h_err(e));
    if (p) CHECK_OK(clEnqueueUnmapMemObject(q, ro, p, 0, NULL, NULL));
    /* WRITE_ONLY: no reads */
    CHECK_ERR(clEnqueueReadBuffer(q, wo, CL_TRUE, 0, 4, buf, 0, NULL, NULL), CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueReadBufferRect(q, wo, CL_TRUE, o, o, r, 0, 0, 0, 0, buf, 0, NULL, NULL),
              CL_INVALID_OPERATION);
    p = clEnqueueMapBuffer(q, wo, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &e);
    CHECK(!p && e == CL_INVALID_OPERATION, "map HOST_WRITE_ONLY for read: %s", h_err(e));
    CHECK_OK(clEnqueueWriteBuffer(q, wo, CL_TRUE, 0, 4, buf, 0, NULL, NULL));
    p = clEnqueueMapBuffer(q, wo, CL_TRUE, CL_MAP_WRITE, 0, 4, 0, NULL, NULL, &e);
    CHECK(p && e == CL_SUCCESS, "map HOST_WRITE_ONLY for write: %s", h_err(e));
    if (p) CHECK_OK(clEnqueueUnmapMemObject(q, wo, p, 0, NULL, NULL));
    /* device-side operations are still allowed */
    unsigned char pat = 1;
    CHECK_OK(clEnqueueFillBuffer(q, na, &pat, 1, 0, 64, 0, NULL, NULL));
    CHECK_OK(clEnqueueCopyBuffer(q, na, ro, 0, 0, 64, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, ro, CL_TRUE, 0, 64, buf, 0, NULL, NULL));
    CHECK(buf[0] == 1 && buf[63] == 1, "copy from NO_ACCESS buffer");
    CHECK_OK(clFinish(q));
    clReleaseMemObject(na);
    clReleaseMemObject(ro);
    clReleaseMemObject(wo);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(map_migrate)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    cl_int e = 0;
    unsigned char init[256], out[256];
    for (int i = 0; i < 256; i++) init[i] = (unsigned char)(i + 9);
    cl_mem b[2];
    b[0] = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, 256, init, &e);
    b[1] = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, 256, init, &e);
    REQUIRE(b[0] && b[1], "buffers");
    cl_event ev = NULL;
    CHECK_OK(clEnqueueMigrateMemObjects(q, 2, b, 0, 0, NULL, &ev));
    CHECK_OK(clWaitForEvents(1, &ev));
    cl_command_type ct = 0;
    CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL));
    CHECK(ct == CL_COMMAND_MIGRATE_MEM_OBJECTS, "command type 0x%x", ct);
    clReleaseEvent(ev);
    CHECK_OK(clEnqueueReadBuffer(q, b[0], CL_TRUE, 0, 256, out, 0, NULL, NULL));
    CHECK(!memcmp(out, init, 256), "data changed by migration to device");
    CHECK_OK(clEnqueueMigrateMemObjects(q, 1, b, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, b[0], CL_TRUE, 0, 256, out, 0, NULL, NULL));
    CHECK(!memcmp(out, init, 256), "data changed by migration to host");
    CHECK_OK(clEnqueueMigrateMemObjects(q, 2, b, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, NULL,
                                        NULL));
    CHECK_OK(clEnqueueWriteBuffer(q, b[1], CL_TRUE, 0, 256, init, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, b[1], CL_TRUE, 0, 256, out, 0, NULL, NULL));
    CHECK(!memcmp(out, init, 256), "buffer unusable after CONTENT_UNDEFINED migration");
    CHECK_ERR(clEnqueueMigrateMemObjects(q, 0, b, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueMigrateMemObjects(q, 1, b, 0x100, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_OK(clFinish(q));
    clReleaseMemObject(b[0]);
    clReleaseMemObject(b[1]);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(map_release_while_mapped_keeps_data)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    REQUIRE(q, "no queue");
    cl_int e = 0;
    cl_mem b = clCreateBuffer(c, CL_MEM_ALLOC_HOST_PTR, 1024, NULL, &e);
    REQUIRE(b, "buffer");
    unsigned char *p = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_WRITE, 0, 1024, 0, NULL, NULL, &e);
    REQUIRE(p, "map: %s", h_err(e));
    for (int i = 0; i < 1024; i++) p[i] = (unsigned char)(i * 3);
    CHECK_OK(clEnqueueUnmapMemObject(q, b, p, 0, NULL, NULL));
    p = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ, 512, 512, 0, NULL, NULL, &e);
    REQUIRE(p, "map 2: %s", h_err(e));
    int ok = 1;
    for (int i = 0; i < 512; i++) ok &= p[i] == (unsigned char)((i + 512) * 3);
    CHECK(ok, "data written through an earlier mapping not visible");
    CHECK_OK(clEnqueueUnmapMemObject(q, b, p, 0, NULL, NULL));
    CHECK_OK(clFinish(q));
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("buffers", argc, argv);
    H_RUN(map_read_write);
    H_RUN(map_use_host_ptr);
    H_RUN(map_host_access_flags);
    H_RUN(map_migrate);
    H_RUN(map_release_while_mapped_keeps_data);
    return h_done();
}
