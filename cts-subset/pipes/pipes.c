/* pipes/pipes: clCreatePipe/clGetPipeInfo, read_pipe/write_pipe (2 and 4
 * arguments), reservations (work-item and work-group), full and empty
 * pipes, the packet queries, and a producer and a consumer kernel running
 * at the same time on two queues. Kernels are OpenCL C 2.0. */
#include "harness.h"

#define STD "-cl-std=CL2.0"

static int supported(void)
{
    cl_bool pipes = CL_FALSE;
    cl_device_id d = h_device();
    if (!d) return 0;
    if (clGetDeviceInfo(d, CL_DEVICE_PIPE_SUPPORT, sizeof pipes, &pipes, NULL) || !pipes) {
        h_skip("CL_DEVICE_PIPE_SUPPORT is false");
        return 0;
    }
    return 1;
}

static cl_uint dev_uint(cl_device_info p)
{
    cl_uint v = 0;
    clGetDeviceInfo(h_device(), p, sizeof v, &v, NULL);
    return v;
}

TEST(pipe_objects)
{
    cl_context c = h_context();
    REQUIRE(c, "no context");
    cl_int err = 0;
    if (!supported()) {
        /* Without pipes, creating one is CL_INVALID_OPERATION. */
        cl_mem p = clCreatePipe(c, 0, 4, 4, NULL, &err);
        CHECK_CREATE_FAILS(p, err, CL_INVALID_OPERATION);
        clReleaseContext(c);
        return;
    }
    cl_uint max_packet = dev_uint(CL_DEVICE_PIPE_MAX_PACKET_SIZE);
    CHECK(max_packet >= 1024, "CL_DEVICE_PIPE_MAX_PACKET_SIZE %u", max_packet);
    CHECK(dev_uint(CL_DEVICE_MAX_PIPE_ARGS) >= 16, "CL_DEVICE_MAX_PIPE_ARGS");
    CHECK(dev_uint(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS) >= 1, "active reservations");

    cl_mem p = clCreatePipe(c, CL_MEM_READ_WRITE, 12, 100, NULL, &err);
    REQUIRE(p && err == CL_SUCCESS, "clCreatePipe: %s", h_err(err));
    cl_uint v = 0;
    size_t sz = 0;
    CHECK_OK(clGetPipeInfo(p, CL_PIPE_PACKET_SIZE, sizeof v, &v, &sz));
    CHECK(v == 12 && sz == sizeof v, "CL_PIPE_PACKET_SIZE %u", v);
    CHECK_OK(clGetPipeInfo(p, CL_PIPE_MAX_PACKETS, sizeof v, &v, NULL));
    CHECK(v == 100, "CL_PIPE_MAX_PACKETS %u", v);
    CHECK_OK(clGetPipeInfo(p, CL_PIPE_PROPERTIES, 0, NULL, &sz));
    CHECK(sz == 0, "CL_PIPE_PROPERTIES size %zu", sz);
    CHECK_ERR(clGetPipeInfo(p, CL_MEM_SIZE, sizeof v, &v, NULL), CL_INVALID_VALUE);
    cl_mem_object_type t = 0;
    CHECK_OK(clGetMemObjectInfo(p, CL_MEM_TYPE, sizeof t, &t, NULL));
    CHECK(t == CL_MEM_OBJECT_PIPE, "CL_MEM_TYPE 0x%x", t);
    cl_mem_flags f = 0;
    CHECK_OK(clGetMemObjectInfo(p, CL_MEM_FLAGS, sizeof f, &f, NULL));
    CHECK(f == CL_MEM_READ_WRITE, "CL_MEM_FLAGS 0x%llx", (unsigned long long)f);
    /* A pipe is no buffer. */
    cl_command_queue q = h_queue(c, 0);
    char bytes[16];
    CHECK_ERR(clEnqueueWriteBuffer(q, p, CL_TRUE, 0, sizeof bytes, bytes, 0, NULL, NULL),
              CL_INVALID_MEM_OBJECT);
    cl_buffer_region region = {0, 16};
    cl_mem sub = clCreateSubBuffer(p, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    CHECK_CREATE_FAILS(sub, err, CL_INVALID_MEM_OBJECT);
    clReleaseCommandQueue(q);
    clReleaseMemObject(p);

    /* flags 0: CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS. */
    p = clCreatePipe(c, 0, 4, 1, NULL, &err);
    REQUIRE(p, "clCreatePipe(flags 0): %s", h_err(err));
    CHECK_OK(clGetMemObjectInfo(p, CL_MEM_FLAGS, sizeof f, &f, NULL));
    CHECK(f == (CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS), "default flags 0x%llx",
          (unsigned long long)f);
    clReleaseMemObject(p);

    cl_mem bad = clCreatePipe(c, 0, 0, 4, NULL, &err);
    CHECK_CREATE_FAILS(bad, err, CL_INVALID_PIPE_SIZE);
    bad = clCreatePipe(c, 0, 4, 0, NULL, &err);
    CHECK_CREATE_FAILS(bad, err, CL_INVALID_PIPE_SIZE);
    bad = clCreatePipe(c, 0, max_packet + 1, 4, NULL, &err);
    CHECK_CREATE_FAILS(bad, err, CL_INVALID_PIPE_SIZE);
    bad = clCreatePipe(c, CL_MEM_READ_ONLY, 4, 4, NULL, &err);
    CHECK_CREATE_FAILS(bad, err, CL_INVALID_VALUE);
    bad = clCreatePipe(c, CL_MEM_USE_HOST_PTR, 4, 4, NULL, &err);
    CHECK_CREATE_FAILS(bad, err, CL_INVALID_VALUE);
    cl_pipe_properties props[] = {0, 0, 0};
    bad = clCreatePipe(c, 0, 4, 4, props, &err);
    CHECK_CREATE_FAILS(bad, err, CL_INVALID_VALUE);
    bad = clCreatePipe(NULL, 0, 4, 4, NULL, &err);
    CHECK_CREATE_FAILS(bad, err, CL_INVALID_CONTEXT);

    /* A pipe argument takes a pipe, a pointer argument a buffer. */
    cl_mem buf = clCreateBuffer(c, 0, 16, NULL, &err);
    cl_program prog = h_build(c, "kernel void k(read_only pipe int p, global int *b) {}", STD);
    if (prog) {
        cl_kernel k = clCreateKernel(prog, "k", &err);
        cl_mem pipe = clCreatePipe(c, 0, 4, 4, NULL, &err);
        CHECK_ERR(clSetKernelArg(k, 0, sizeof buf, &buf), CL_INVALID_MEM_OBJECT);
        CHECK_ERR(clSetKernelArg(k, 1, sizeof pipe, &pipe), CL_INVALID_MEM_OBJECT);
        CHECK_OK(clSetKernelArg(k, 0, sizeof pipe, &pipe));
        CHECK_OK(clSetKernelArg(k, 1, sizeof buf, &buf));
        clReleaseMemObject(pipe);
        clReleaseKernel(k);
        clReleaseProgram(prog);
    } else {
        h_fail_at(__FILE__, __LINE__, "build failed");
    }
    CHECK_ERR(clGetPipeInfo(buf, CL_PIPE_PACKET_SIZE, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clGetPipeInfo(NULL, CL_PIPE_PACKET_SIZE, sizeof v, &v, NULL),
              CL_INVALID_MEM_OBJECT);
    clReleaseMemObject(buf);
    clReleaseContext(c);
}

static const char *src =
    "typedef struct { int id; float f; char tag; } packet;\n"
    "kernel void produce(write_only pipe packet p, global int *ok) {\n"
    "  int i = (int)get_global_id(0);\n"
    "  packet v = { i, (float)i * 0.5f, (char)(i & 127) };\n"
    "  if (write_pipe(p, &v) == 0) atomic_inc(ok);\n"
    "}\n"
    "kernel void consume(read_only pipe packet p, global int *seen, global int *ok) {\n"
    "  packet v;\n"
    "  if (read_pipe(p, &v) == 0) {\n"
    "    atomic_inc(ok);\n"
    "    if (v.f == (float)v.id * 0.5f && v.tag == (char)(v.id & 127)) atomic_inc(&seen[v.id]);\n"
    "  }\n"
    "}\n"
    "kernel void produce_reserved(write_only pipe int p, global int *ok) {\n"
    "  int i = (int)get_global_id(0);\n"
    "  reserve_id_t r = reserve_write_pipe(p, 4);\n"
    "  if (is_valid_reserve_id(r)) {\n"
    "    for (uint k = 0; k < 4; k++) write_pipe(p, r, 3 - k, &(int){ 4 * i + 3 - (int)k });\n"
    "    if (write_pipe(p, r, 4, &i) == 0) ok[1] = 1; /* index out of range */\n"
    "    commit_write_pipe(p, r);\n"
    "    atomic_inc(ok);\n"
    "  }\n"
    "}\n"
    "kernel void consume_reserved(read_only pipe int p, global int *seen, global int *ok) {\n"
    "  reserve_id_t r = reserve_read_pipe(p, 2);\n"
    "  if (is_valid_reserve_id(r)) {\n"
    "    int a, b;\n"
    "    read_pipe(p, r, 0, &a); read_pipe(p, r, 1, &b);\n"
    "    commit_read_pipe(p, r);\n"
    "    atomic_inc(&seen[a]); atomic_inc(&seen[b]);\n"
    "    if (b == a + 1 && (a & 1) == 0) atomic_inc(ok);\n"
    "  }\n"
    "}\n"
    "kernel void produce_group(write_only pipe int p, global int *ok) {\n"
    "  int i = (int)get_global_id(0);\n"
    "  reserve_id_t r = work_group_reserve_write_pipe(p, get_local_size(0));\n"
    "  if (is_valid_reserve_id(r)) {\n"
    "    write_pipe(p, r, get_local_id(0), &i);\n"
    "    if (get_local_id(0) == 0) atomic_inc(ok);\n"
    "  }\n"
    "  work_group_commit_write_pipe(p, r);\n"
    "}\n"
    "kernel void consume_group(read_only pipe int p, global int *seen, global int *ok) {\n"
    "  reserve_id_t r = work_group_reserve_read_pipe(p, get_local_size(0));\n"
    "  if (is_valid_reserve_id(r)) {\n"
    "    int v;\n"
    "    read_pipe(p, r, get_local_id(0), &v);\n"
    "    atomic_inc(&seen[v]);\n"
    "    if (get_local_id(0) == 0) atomic_inc(ok);\n"
    "  }\n"
    "  work_group_commit_read_pipe(p, r);\n"
    "}\n"
    "kernel void counts(read_only pipe int p, global int *out) {\n"
    "  out[0] = get_pipe_num_packets(p);\n"
    "  out[1] = get_pipe_max_packets(p);\n"
    "}\n"
    "kernel void counts_wo(write_only pipe int p, global int *out) {\n"
    "  out[2] = get_pipe_num_packets(p);\n"
    "  out[3] = get_pipe_max_packets(p);\n"
    "}\n"
    /* One work-item each, spinning while the pipe is full (producer) or
     * empty (consumer); bounded, so a missing partner fails, not hangs. */
    "kernel void stream_out(write_only pipe int p, int n, global int *status) {\n"
    "  long spins = 0;\n"
    "  for (int i = 0; i < n; ) {\n"
    "    if (write_pipe(p, &i) == 0) i++; else if (++spins > 2000000000L) { status[0] = -1; return; }\n"
    "  }\n"
    "  status[0] = 1;\n"
    "}\n"
    "kernel void stream_in(read_only pipe int p, int n, global int *status) {\n"
    "  long spins = 0; int bad = 0;\n"
    "  for (int i = 0; i < n; ) {\n"
    "    int v;\n"
    "    if (read_pipe(p, &v) == 0) { bad += v != i; i++; }\n"
    "    else if (++spins > 2000000000L) { status[1] = -1; return; }\n"
    "  }\n"
    "  status[1] = 1; status[2] = bad;\n"
    "}\n";

struct env {
    cl_context c;
    cl_command_queue q;
    cl_program p;
};

static int setup(struct env *e)
{
    memset(e, 0, sizeof *e);
    if (!supported()) return 0;
    e->c = h_context();
    e->q = h_queue(e->c, 0);
    if (!e->q) return 0;
    e->p = h_build(e->c, src, STD);
    if (!e->p) h_fail_at(__FILE__, __LINE__, "build failed");
    return e->p != NULL;
}

static void teardown(struct env *e)
{
    if (e->p) clReleaseProgram(e->p);
    if (e->q) clReleaseCommandQueue(e->q);
    if (e->c) clReleaseContext(e->c);
}

static cl_mem zeros(cl_context c, size_t n)
{
    int *z = calloc(n, sizeof(int));
    cl_mem b = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, n * sizeof(int), z, NULL);
    free(z);
    return b;
}

/* Runs kernel(args...) over global/local on queue q and waits. */
static void launch(struct env *e, cl_command_queue q, const char *name, size_t global,
                   size_t local, int nargs, cl_mem *args)
{
    cl_int err = 0;
    cl_kernel k = clCreateKernel(e->p, name, &err);
    if (!k) {
        h_fail_at(__FILE__, __LINE__, "kernel %s: %s", name, h_err(err));
        return;
    }
    for (int i = 0; i < nargs; i++) {
        err = clSetKernelArg(k, i, sizeof(cl_mem), &args[i]);
        if (err) h_fail_at(__FILE__, __LINE__, "%s arg %d: %s", name, i, h_err(err));
    }
    err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, local ? &local : NULL, 0, NULL, NULL);
    if (err) h_fail_at(__FILE__, __LINE__, "enqueue %s: %s", name, h_err(err));
    clFinish(q);
    clReleaseKernel(k);
}

static int *read_back(struct env *e, cl_mem b, size_t n)
{
    int *o = calloc(n, sizeof(int));
    clEnqueueReadBuffer(e->q, b, CL_TRUE, 0, n * sizeof(int), o, 0, NULL, NULL);
    return o;
}

TEST(write_then_read)
{
    struct env e;
    if (!setup(&e)) goto out;
    int n = 1000;
    cl_mem p = clCreatePipe(e.c, 0, 12, n, NULL, NULL);
    cl_mem ok = zeros(e.c, 1), seen = zeros(e.c, n), ok2 = zeros(e.c, 1);
    cl_mem a1[] = {p, ok};
    launch(&e, e.q, "produce", n, 0, 2, a1);
    cl_mem a2[] = {p, seen, ok2};
    launch(&e, e.q, "consume", n + 50, 0, 3, a2);
    int *w = read_back(&e, ok, 1), *r = read_back(&e, ok2, 1), *s = read_back(&e, seen, n);
    int missing = 0;
    for (int i = 0; i < n; i++) missing += s[i] != 1;
    CHECK(w[0] == n && r[0] == n && missing == 0, "wrote %d, read %d, %d packets wrong", w[0],
          r[0], missing);
    free(w), free(r), free(s);
    clReleaseMemObject(p), clReleaseMemObject(ok), clReleaseMemObject(seen),
        clReleaseMemObject(ok2);
out:
    teardown(&e);
}

TEST(full_and_empty)
{
    struct env e;
    if (!setup(&e)) goto out;
    cl_mem p = clCreatePipe(e.c, 0, 12, 100, NULL, NULL);
    cl_mem ok = zeros(e.c, 1), seen = zeros(e.c, 300), ok2 = zeros(e.c, 1);
    cl_mem a1[] = {p, ok};
    launch(&e, e.q, "produce", 300, 0, 2, a1);
    cl_mem cnt = zeros(e.c, 4);
    cl_mem c1[] = {p, cnt};
    launch(&e, e.q, "counts", 1, 0, 2, c1);
    launch(&e, e.q, "counts_wo", 1, 0, 2, c1);
    int *cv = read_back(&e, cnt, 4);
    CHECK(cv[0] == 100 && cv[1] == 100 && cv[2] == 100 && cv[3] == 100,
          "num/max packets %d %d (write side %d %d)", cv[0], cv[1], cv[2], cv[3]);
    free(cv);
    cl_mem a2[] = {p, seen, ok2};
    launch(&e, e.q, "consume", 300, 0, 3, a2);
    int *w = read_back(&e, ok, 1), *r = read_back(&e, ok2, 1), *s = read_back(&e, seen, 300);
    int total = 0, dup = 0;
    for (int i = 0; i < 300; i++) total += s[i], dup += s[i] > 1;
    CHECK(w[0] == 100 && r[0] == 100 && total == 100 && dup == 0,
          "capacity 100: %d written, %d read, %d distinct, %d duplicated", w[0], r[0], total, dup);
    launch(&e, e.q, "counts", 1, 0, 2, c1);
    cv = read_back(&e, cnt, 1);
    CHECK(cv[0] == 0, "num packets after draining %d", cv[0]);
    free(cv), free(w), free(r), free(s);
    clReleaseMemObject(p), clReleaseMemObject(ok), clReleaseMemObject(seen),
        clReleaseMemObject(ok2), clReleaseMemObject(cnt);
out:
    teardown(&e);
}

TEST(reservations)
{
    struct env e;
    if (!setup(&e)) goto out;
    int writers = 256;
    cl_mem p = clCreatePipe(e.c, 0, sizeof(int), 4 * writers, NULL, NULL);
    cl_mem ok = zeros(e.c, 2), seen = zeros(e.c, 4 * writers), ok2 = zeros(e.c, 1);
    cl_mem a1[] = {p, ok};
    launch(&e, e.q, "produce_reserved", writers, 0, 2, a1);
    cl_mem a2[] = {p, seen, ok2};
    launch(&e, e.q, "consume_reserved", 2 * writers, 0, 3, a2);
    int *w = read_back(&e, ok, 2), *r = read_back(&e, ok2, 1), *s = read_back(&e, seen, 4 * writers);
    int missing = 0;
    for (int i = 0; i < 4 * writers; i++) missing += s[i] != 1;
    CHECK(w[0] == writers && w[1] == 0, "%d reservations of 4 (out-of-range index accepted: %d)",
          w[0], w[1]);
    CHECK(r[0] == 2 * writers && missing == 0, "%d in-order pairs read, %d packets wrong", r[0],
          missing);
    free(w), free(r), free(s);
    clReleaseMemObject(p), clReleaseMemObject(ok), clReleaseMemObject(seen),
        clReleaseMemObject(ok2);
out:
    teardown(&e);
}

TEST(work_group_reservations)
{
    struct env e;
    if (!setup(&e)) goto out;
    int n = 1024;
    /* Room for 12 of the 16 groups of 64. */
    cl_mem p = clCreatePipe(e.c, 0, sizeof(int), 12 * 64 + 10, NULL, NULL);
    cl_mem ok = zeros(e.c, 1), seen = zeros(e.c, n), ok2 = zeros(e.c, 1);
    cl_mem a1[] = {p, ok};
    launch(&e, e.q, "produce_group", n, 64, 2, a1);
    cl_mem a2[] = {p, seen, ok2};
    launch(&e, e.q, "consume_group", n, 64, 3, a2);
    int *w = read_back(&e, ok, 1), *r = read_back(&e, ok2, 1), *s = read_back(&e, seen, n);
    int total = 0, bad_groups = 0;
    for (int g = 0; g < 16; g++) {
        int in = 0;
        for (int l = 0; l < 64; l++) in += s[g * 64 + l];
        total += in;
        bad_groups += in != 0 && in != 64; /* a group's packets travel together */
    }
    CHECK(w[0] == 12 && r[0] == 12 && total == 12 * 64 && bad_groups == 0,
          "groups written %d, read %d, packets %d, split groups %d", w[0], r[0], total,
          bad_groups);
    free(w), free(r), free(s);
    clReleaseMemObject(p), clReleaseMemObject(ok), clReleaseMemObject(seen),
        clReleaseMemObject(ok2);
out:
    teardown(&e);
}

TEST(producer_consumer_concurrently)
{
    struct env e;
    if (!setup(&e)) goto out;
    if (h_compute_units() < 2) {
        h_skip("needs two compute units to run both kernels at once");
        goto out;
    }
    cl_command_queue q2 = h_queue(e.c, 0);
    int n = 200000;
    /* Far smaller than the stream: both kernels must run at once. */
    cl_mem p = clCreatePipe(e.c, 0, sizeof(int), 64, NULL, NULL);
    cl_mem status = zeros(e.c, 3);
    cl_int err = 0;
    cl_kernel in = clCreateKernel(e.p, "stream_in", &err);
    cl_kernel out_k = clCreateKernel(e.p, "stream_out", &err);
    clSetKernelArg(in, 0, sizeof p, &p);
    clSetKernelArg(in, 1, sizeof n, &n);
    clSetKernelArg(in, 2, sizeof status, &status);
    clSetKernelArg(out_k, 0, sizeof p, &p);
    clSetKernelArg(out_k, 1, sizeof n, &n);
    clSetKernelArg(out_k, 2, sizeof status, &status);
    size_t one = 1;
    CHECK_OK(clEnqueueNDRangeKernel(e.q, in, 1, NULL, &one, NULL, 0, NULL, NULL));
    CHECK_OK(clFlush(e.q));
    CHECK_OK(clEnqueueNDRangeKernel(q2, out_k, 1, NULL, &one, NULL, 0, NULL, NULL));
    CHECK_OK(clFinish(q2));
    CHECK_OK(clFinish(e.q));
    int *s = read_back(&e, status, 3);
    CHECK(s[0] == 1 && s[1] == 1 && s[2] == 0, "producer %d, consumer %d, out of order %d", s[0],
          s[1], s[2]);
    free(s);
    clReleaseKernel(in), clReleaseKernel(out_k);
    clReleaseMemObject(p), clReleaseMemObject(status);
    clReleaseCommandQueue(q2);
out:
    teardown(&e);
}

int main(int argc, char **argv)
{
    h_init("pipes", argc, argv);
    H_RUN(pipe_objects);
    H_RUN(write_then_read);
    H_RUN(full_and_empty);
    H_RUN(reservations);
    H_RUN(work_group_reservations);
    H_RUN_T(producer_consumer_concurrently, 60);
    return h_done();
}
