/* device_execution/enqueue: device-side enqueue (OpenCL C 2.0 enqueue_kernel,
 * on-device queues, device events, markers, flags, nesting, failure
 * propagation, limits). Kernels are OpenCL C 2.0 (-cl-std=CL2.0). */
#include "harness.h"

#define STD "-cl-std=CL2.0"

static int supported(void)
{
    cl_device_device_enqueue_capabilities caps = 0;
    cl_device_id d = h_device();
    if (!d) return 0;
    if (clGetDeviceInfo(d, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof caps, &caps, NULL) ||
        !(caps & CL_DEVICE_QUEUE_SUPPORTED)) {
        h_skip("no device-side enqueue (CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES)");
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

/* An on-device queue: default or not, with a size (0: the default size). */
static cl_command_queue device_queue(cl_context c, int is_default, cl_uint size, int profiling,
                                     cl_int *err)
{
    cl_queue_properties props[5] = {CL_QUEUE_PROPERTIES,
                                    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE |
                                        (is_default ? CL_QUEUE_ON_DEVICE_DEFAULT : 0) |
                                        (profiling ? CL_QUEUE_PROFILING_ENABLE : 0),
                                    0, 0, 0};
    if (size) {
        props[2] = CL_QUEUE_SIZE;
        props[3] = size;
    }
    return clCreateCommandQueueWithProperties(c, h_device(), props, err);
}

/* Context, host queue, default device queue (max size) and a program. */
struct env {
    cl_context c;
    cl_command_queue q, dq;
    cl_program p;
};

static int setup(struct env *e, const char *src)
{
    memset(e, 0, sizeof *e);
    if (!supported()) return 0;
    e->c = h_context();
    if (!e->c) return 0;
    e->q = h_queue(e->c, 0);
    cl_int err = 0;
    e->dq = device_queue(e->c, 1, dev_uint(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE), 0, &err);
    if (!e->q || !e->dq) {
        h_fail_at(__FILE__, __LINE__, "queues: %s", h_err(err));
        return 0;
    }
    e->p = h_build(e->c, src, STD);
    if (!e->p) {
        h_fail_at(__FILE__, __LINE__, "build failed");
        return 0;
    }
    return 1;
}

static void teardown(struct env *e)
{
    if (e->p) clReleaseProgram(e->p);
    if (e->dq) clReleaseCommandQueue(e->dq);
    if (e->q) clReleaseCommandQueue(e->q);
    if (e->c) clReleaseContext(e->c);
}

static cl_mem int_buffer(cl_context c, size_t n, int fill)
{
    int *init = malloc(n * sizeof(int));
    for (size_t i = 0; i < n; i++) init[i] = fill;
    cl_mem b = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(int), init,
                              NULL);
    free(init);
    return b;
}

/* Runs kernel `name` over `global` (local: 0 = any) with the buffers and ints
 * given; returns the command's final status. */
static cl_int run(struct env *e, const char *name, size_t global, size_t local, int nbufs,
                  cl_mem *bufs, int nints, const int *ints)
{
    cl_int err = 0;
    cl_kernel k = clCreateKernel(e->p, name, &err);
    if (!k) {
        h_fail_at(__FILE__, __LINE__, "clCreateKernel(%s): %s", name, h_err(err));
        return err;
    }
    for (int i = 0; i < nbufs; i++) clSetKernelArg(k, i, sizeof(cl_mem), &bufs[i]);
    for (int i = 0; i < nints; i++) clSetKernelArg(k, nbufs + i, sizeof(int), &ints[i]);
    cl_event ev = NULL;
    err = clEnqueueNDRangeKernel(e->q, k, 1, NULL, &global, local ? &local : NULL, 0, NULL, &ev);
    if (err) {
        h_fail_at(__FILE__, __LINE__, "enqueue %s: %s", name, h_err(err));
        clReleaseKernel(k);
        return err;
    }
    clWaitForEvents(1, &ev);
    cl_int st = h_event_status(ev);
    clReleaseEvent(ev);
    clReleaseKernel(k);
    return st;
}

static int *read_ints(struct env *e, cl_mem b, size_t n)
{
    int *out = calloc(n, sizeof(int));
    clEnqueueReadBuffer(e->q, b, CL_TRUE, 0, n * sizeof(int), out, 0, NULL, NULL);
    return out;
}

TEST(device_queue_objects)
{
    if (!supported()) return;
    cl_device_id d = h_device();
    cl_command_queue_properties dp = 0;
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, sizeof dp, &dp, NULL));
    CHECK(dp & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, "on-device properties 0x%llx",
          (unsigned long long)dp);
    cl_uint pref = dev_uint(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE);
    cl_uint max = dev_uint(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE);
    CHECK(pref >= 16 * 1024 && max >= 256 * 1024 && pref <= max, "sizes %u %u", pref, max);
    CHECK(dev_uint(CL_DEVICE_MAX_ON_DEVICE_QUEUES) >= 1, "max queues");
    CHECK(dev_uint(CL_DEVICE_MAX_ON_DEVICE_EVENTS) >= 1024, "max events");

    cl_context c = h_context();
    REQUIRE(c, "no context");
    cl_int err = 0;
    cl_command_queue dq = device_queue(c, 1, 0, 0, &err);
    REQUIRE(dq && err == CL_SUCCESS, "default device queue: %s", h_err(err));
    cl_uint size = 0;
    CHECK_OK(clGetCommandQueueInfo(dq, CL_QUEUE_SIZE, sizeof size, &size, NULL));
    CHECK(size == pref, "CL_QUEUE_SIZE %u, preferred %u", size, pref);
    cl_command_queue def = NULL;
    CHECK_OK(clGetCommandQueueInfo(dq, CL_QUEUE_DEVICE_DEFAULT, sizeof def, &def, NULL));
    CHECK(def == dq, "CL_QUEUE_DEVICE_DEFAULT %p, queue %p", (void *)def, (void *)dq);
    cl_command_queue_properties qp = 0;
    CHECK_OK(clGetCommandQueueInfo(dq, CL_QUEUE_PROPERTIES, sizeof qp, &qp, NULL));
    CHECK(qp & CL_QUEUE_ON_DEVICE_DEFAULT, "properties 0x%llx", (unsigned long long)qp);

    /* A second default queue is the same queue, one reference more. */
    cl_command_queue dq2 = device_queue(c, 1, 0, 0, &err);
    CHECK(dq2 == dq && err == CL_SUCCESS, "second default queue %p (%s)", (void *)dq2,
          h_err(err));
    cl_uint refs = 0;
    CHECK_OK(clGetCommandQueueInfo(dq, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    CHECK(refs == 2, "reference count %u", refs);
    if (dq2) clReleaseCommandQueue(dq2);

    /* Bad ones. */
    cl_command_queue bad = device_queue(c, 0, max + 1, 0, &err);
    CHECK(bad == NULL && (err == CL_INVALID_VALUE || err == CL_INVALID_QUEUE_PROPERTIES),
          "size > max: %s", h_err(err));
    cl_queue_properties no_ooo[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0};
    bad = clCreateCommandQueueWithProperties(c, d, no_ooo, &err);
    CHECK_CREATE_FAILS(bad, err, CL_INVALID_VALUE);
    cl_queue_properties def_only[] = {CL_QUEUE_PROPERTIES,
                                      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                          CL_QUEUE_ON_DEVICE_DEFAULT,
                                      0};
    bad = clCreateCommandQueueWithProperties(c, d, def_only, &err);
    CHECK_CREATE_FAILS(bad, err, CL_INVALID_VALUE);

    /* Host commands do not go to device queues. */
    cl_mem b = int_buffer(c, 4, 0);
    int x = 0;
    CHECK_ERR(clEnqueueReadBuffer(dq, b, CL_TRUE, 0, 4, &x, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clFinish(dq), CL_INVALID_COMMAND_QUEUE);

    /* A replacement default. */
    cl_command_queue other = device_queue(c, 0, 64 * 1024, 0, &err);
    REQUIRE(other, "second device queue: %s", h_err(err));
    CHECK_OK(clGetCommandQueueInfo(other, CL_QUEUE_SIZE, sizeof size, &size, NULL));
    CHECK(size == 64 * 1024, "CL_QUEUE_SIZE %u", size);
    CHECK_OK(clSetDefaultDeviceCommandQueue(c, d, other));
    CHECK_OK(clGetCommandQueueInfo(dq, CL_QUEUE_DEVICE_DEFAULT, sizeof def, &def, NULL));
    CHECK(def == other, "default after clSetDefaultDeviceCommandQueue");
    cl_command_queue host = h_queue(c, 0);
    CHECK_ERR(clSetDefaultDeviceCommandQueue(c, d, host), CL_INVALID_COMMAND_QUEUE);
    /* "Return the current default command-queue for the underlying
     * device", a host queue's too. */
    CHECK_OK(clGetCommandQueueInfo(host, CL_QUEUE_DEVICE_DEFAULT, sizeof def, &def, NULL));
    CHECK(def == other, "host queue's CL_QUEUE_DEVICE_DEFAULT");
    clReleaseCommandQueue(host);
    clReleaseMemObject(b);
    clReleaseCommandQueue(other);
    clReleaseCommandQueue(dq);
    clReleaseContext(c);
}

static const char *basic_src =
    "kernel void parent(global int *out, int v) {\n"
    "  size_t i = get_global_id(0);\n"
    "  queue_t q = get_default_queue();\n"
    "  int r = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),\n"
    "                        ^{ out[i] = v + (int)i; });\n"
    "  if (r != CLK_SUCCESS) out[i] = -1000 + r;\n"
    "}\n"
    "kernel void kernel_info(global int *out) {\n"
    "  out[0] = get_kernel_work_group_size(^{ out[1] = 1; });\n"
    "  out[1] = get_kernel_preferred_work_group_size_multiple(^{ out[1] = 2; });\n"
    "  out[2] = get_default_queue() != 0;\n"
    "}\n";

TEST(captured_values)
{
    struct env e;
    if (!setup(&e, basic_src)) goto out;
    size_t n = 256;
    cl_mem b = int_buffer(e.c, n, 0);
    int v = 7000;
    CHECK_ERR(run(&e, "parent", n, 0, 1, &b, 1, &v), CL_COMPLETE);
    int *o = read_ints(&e, b, n);
    int bad = 0;
    for (size_t i = 0; i < n; i++) bad += o[i] != 7000 + (int)i;
    CHECK(bad == 0, "%d wrong, out[0]=%d out[255]=%d", bad, o[0], o[255]);
    free(o);
    /* Block kernels are not application kernels. */
    size_t names_len = 0;
    char names[256] = {0};
    CHECK_OK(clGetProgramInfo(e.p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, &names_len));
    CHECK(strcmp(names, "parent;kernel_info") == 0 || strcmp(names, "kernel_info;parent") == 0,
          "kernel names \"%s\"", names);
    cl_uint nk = 0;
    CHECK_OK(clCreateKernelsInProgram(e.p, 0, NULL, &nk));
    CHECK(nk == 2, "clCreateKernelsInProgram counts %u", nk);
    cl_mem info = int_buffer(e.c, 3, 0);
    CHECK_ERR(run(&e, "kernel_info", 1, 0, 1, &info, 0, NULL), CL_COMPLETE);
    o = read_ints(&e, info, 3);
    size_t wg = 0, mult = 0;
    clGetDeviceInfo(h_device(), CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    clGetDeviceInfo(h_device(), CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof mult, &mult,
                    NULL);
    CHECK(o[0] == (int)wg && o[1] == (int)mult && o[2] == 1, "kernel queries %d %d %d", o[0],
          o[1], o[2]);
    free(o);
    clReleaseMemObject(info);
    clReleaseMemObject(b);
out:
    teardown(&e);
}

/* Each form of ndrange: the child records what its work-items see. */
static const char *ndrange_src =
    "void record(global int *out) {\n"
    "  size_t gx = get_global_id(0), gy = get_global_id(1), gz = get_global_id(2);\n"
    "  size_t idx = (gz * 8 + gy) * 16 + gx;\n"
    "  atomic_inc(&out[idx]);\n"
    "  if (get_global_linear_id() == 0) {\n"
    "    out[2048] = get_work_dim();\n"
    "    out[2049] = get_global_size(0) * 100 + get_global_size(1) * 10 + get_global_size(2);\n"
    "    out[2050] = get_local_size(0) * 100 + get_local_size(1) * 10 + get_local_size(2);\n"
    "    out[2051] = get_global_offset(0) * 100 + get_global_offset(1) * 10 + get_global_offset(2);\n"
    "  }\n"
    "}\n"
    "kernel void one(global int *out) {\n"
    "  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(3, 12, 4),\n"
    "                 ^{ record(out); });\n"
    "}\n"
    "kernel void two(global int *out) {\n"
    "  size_t off[2] = {1, 2}, g[2] = {6, 4}, l[2] = {3, 2};\n"
    "  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_2D(off, g, l),\n"
    "                 ^{ record(out); });\n"
    "}\n"
    "kernel void three(global int *out) {\n"
    "  size_t g[3] = {4, 3, 2}, l[3] = {2, 3, 1};\n"
    "  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_3D(g, l),\n"
    "                 ^{ record(out); });\n"
    "}\n"
    "kernel void nonuniform(global int *out) {\n"
    "  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(10, 4),\n"
    "                 ^{ record(out); });\n"
    "}\n";

static void check_range(struct env *e, const char *name, const int *want_ids, int nwant,
                        int dim, int gsz, int lsz, int off)
{
    cl_mem b = int_buffer(e->c, 2052, 0);
    CHECK_ERR(run(e, name, 1, 0, 1, &b, 0, NULL), CL_COMPLETE);
    int *o = read_ints(e, b, 2052);
    int total = 0, missing = 0;
    for (int i = 0; i < 2048; i++) total += o[i];
    for (int i = 0; i < nwant; i++) missing += o[want_ids[i]] != 1;
    CHECK(total == nwant && missing == 0, "%s: %d work-items, %d missing", name, total, missing);
    CHECK(o[2048] == dim && o[2049] == gsz && o[2050] == lsz && o[2051] == off,
          "%s: dim %d global %d local %d offset %d", name, o[2048], o[2049], o[2050], o[2051]);
    free(o);
    clReleaseMemObject(b);
}

TEST(ndrange_forms)
{
    struct env e;
    if (!setup(&e, ndrange_src)) goto out;
    int ids[128], n = 0;
    for (int x = 3; x < 15; x++) ids[n++] = x;
    check_range(&e, "one", ids, n, 1, 1211, 411, 300);
    n = 0;
    for (int y = 2; y < 6; y++)
        for (int x = 1; x < 7; x++) ids[n++] = y * 16 + x;
    check_range(&e, "two", ids, n, 2, 641, 321, 120);
    n = 0;
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 3; y++)
            for (int x = 0; x < 4; x++) ids[n++] = (z * 8 + y) * 16 + x;
    check_range(&e, "three", ids, n, 3, 432, 231, 0);
    n = 0;
    for (int x = 0; x < 10; x++) ids[n++] = x;
    check_range(&e, "nonuniform", ids, n, 1, 1011, 411, 0);
out:
    teardown(&e);
}

/* Blocks with __local pointer arguments: one buffer per size. */
static const char *local_src =
    "kernel void parent(global int *out) {\n"
    "  void (^blk)(local void *, local void *) = ^(local void *a, local void *b) {\n"
    "    local int *x = (local int *)a; local long *y = (local long *)b;\n"
    "    size_t l = get_local_id(0), n = get_local_size(0);\n"
    "    x[l] = (int)l + 1; y[l] = 2 * (long)l;\n"
    "    work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (l == 0) { int s = 0; long t = 0;\n"
    "      for (size_t k = 0; k < n; k++) { s += x[k]; t += y[k]; }\n"
    "      out[get_group_id(0)] = s * 1000 + (int)t; }\n"
    "  };\n"
    "  int r = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(64, 16),\n"
    "                         blk, 16u * sizeof(int), 16u * sizeof(long));\n"
    "  out[10] = r;\n"
    "  out[11] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),\n"
    "                         blk, 0u, 8u);\n"
    "}\n";

TEST(local_arguments)
{
    struct env e;
    if (!setup(&e, local_src)) goto out;
    cl_mem b = int_buffer(e.c, 12, -1);
    CHECK_ERR(run(&e, "parent", 1, 0, 1, &b, 0, NULL), CL_COMPLETE);
    int *o = read_ints(&e, b, 12);
    /* sum(1..16) = 136, sum(2*l) = 240 */
    for (int g = 0; g < 4; g++) CHECK(o[g] == 136240, "group %d: %d", g, o[g]);
    CHECK(o[10] == 0, "enqueue returned %d", o[10]);
    CHECK(o[11] == -51, "local size 0: %d, expected CLK_INVALID_ARG_SIZE", o[11]);
    free(o);
    clReleaseMemObject(b);
out:
    teardown(&e);
}

/* 16 levels, each a child of the one before (CLK_ENQUEUE_FLAGS_WAIT_KERNEL):
 * level d runs 2 work-items, the first of which enqueues level d + 1. */
static char *nested_src(int depth)
{
    size_t cap = 4096 + depth * 512;
    char *s = malloc(cap);
    int n = snprintf(s, cap, "kernel void parent(global int *out) {\n  queue_t q = get_default_queue();\n");
    for (int d = 1; d <= depth; d++)
        n += snprintf(s + n, cap - n,
                      "%*s%sout[%d] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(2), ^{\n"
                      "%*s  atomic_add(&out[%d], (int)get_global_id(0) + 101);\n",
                      2 * d, "", d > 1 ? "if (get_global_id(0) == 0) " : "", 64 + d, 2 * d, "", d);
    n += snprintf(s + n, cap - n, "  out[0] = 1;\n");
    for (int d = depth; d >= 1; d--) n += snprintf(s + n, cap - n, "%*s});\n", 2 * d, "");
    snprintf(s + n, cap - n, "}\n");
    return s;
}

TEST(nesting_16_deep)
{
    char *src = nested_src(16);
    struct env e;
    if (!setup(&e, src)) goto out;
    cl_mem b = int_buffer(e.c, 128, 0);
    CHECK_ERR(run(&e, "parent", 1, 0, 1, &b, 0, NULL), CL_COMPLETE);
    int *o = read_ints(&e, b, 128);
    CHECK(o[0] == 1, "parent wrote %d", o[0]);
    for (int d = 1; d <= 16; d++) {
        CHECK(o[d] == 101 + 102, "level %d: %d, expected 203", d, o[d]);
        CHECK(o[64 + d] == 0, "level %d enqueue returned %d", d, o[64 + d]);
    }
    free(o);
    clReleaseMemObject(b);
out:
    teardown(&e);
    free(src);
}

static const char *many_src =
    "kernel void one_parent(global int *out, int n) {\n"
    "  queue_t q = get_default_queue();\n"
    "  int failures = 0;\n"
    "  for (int i = 0; i < n; i++)\n"
    "    failures += enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1),\n"
    "                               ^{ out[i] = i * 3; }) != CLK_SUCCESS;\n"
    "  out[n] = failures;\n"
    "}\n"
    "kernel void every_item(global int *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4),\n"
    "                 ^{ atomic_add(&out[i], (int)get_global_id(0) + 1); });\n"
    "}\n";

TEST(thousands_of_children)
{
    struct env e;
    if (!setup(&e, many_src)) goto out;
    int n = 5000;
    cl_mem b = int_buffer(e.c, n + 1, -1);
    CHECK_ERR(run(&e, "one_parent", 1, 0, 1, &b, 1, &n), CL_COMPLETE);
    int *o = read_ints(&e, b, n + 1);
    int bad = 0;
    for (int i = 0; i < n; i++) bad += o[i] != i * 3;
    CHECK(bad == 0 && o[n] == 0, "%d children wrong, %d enqueues failed", bad, o[n]);
    free(o);
    clReleaseMemObject(b);
    size_t items = 4096;
    b = int_buffer(e.c, items, 0);
    CHECK_ERR(run(&e, "every_item", items, 64, 1, &b, 0, NULL), CL_COMPLETE);
    o = read_ints(&e, b, items);
    bad = 0;
    for (size_t i = 0; i < items; i++) bad += o[i] != 10;
    CHECK(bad == 0, "%d parents' children wrong (out[0] %d)", bad, o[0]);
    free(o);
    clReleaseMemObject(b);
out:
    teardown(&e);
}

/* WAIT_KERNEL: the child sees what every work-item of the parent wrote
 * after the enqueue; WAIT_WORK_GROUP: what its group wrote. */
static const char *flags_src =
    "kernel void wait_kernel(global int *data, global int *out) {\n"
    "  size_t i = get_global_id(0), n = get_global_size(0);\n"
    "  if (i == 0)\n"
    "    out[1] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1),\n"
    "      ^{ int s = 0; for (size_t k = 0; k < n; k++) s += data[k]; out[0] = s; });\n"
    "  data[i] = 1;\n"
    "}\n"
    "kernel void wait_group(global int *data, global int *out) {\n"
    "  size_t i = get_global_id(0), g = get_group_id(0), l = get_local_id(0), n = get_local_size(0);\n"
    "  if (l == 0)\n"
    "    enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP, ndrange_1D(1),\n"
    "      ^{ int s = 0; for (size_t k = 0; k < n; k++) s += data[g * n + k]; out[g] = s; });\n"
    "  data[i] = (int)g + 1;\n"
    "}\n"
    "kernel void no_wait(global int *out) {\n"
    "  out[1] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(8),\n"
    "      ^{ atomic_inc(&out[0]); });\n"
    "}\n";

TEST(enqueue_flags)
{
    struct env e;
    if (!setup(&e, flags_src)) goto out;
    size_t n = 4096;
    cl_mem bufs[2] = {int_buffer(e.c, n, 0), int_buffer(e.c, 64, -1)};
    CHECK_ERR(run(&e, "wait_kernel", n, 64, 2, bufs, 0, NULL), CL_COMPLETE);
    int *o = read_ints(&e, bufs[1], 2);
    CHECK(o[0] == (int)n && o[1] == 0, "WAIT_KERNEL child saw %d of %d writes (enqueue %d)", o[0],
          (int)n, o[1]);
    free(o);
    clReleaseMemObject(bufs[0]);
    bufs[0] = int_buffer(e.c, n, 0);
    CHECK_ERR(run(&e, "wait_group", n, 64, 2, bufs, 0, NULL), CL_COMPLETE);
    o = read_ints(&e, bufs[1], 64);
    int bad = 0;
    for (int g = 0; g < 64; g++) bad += o[g] != (g + 1) * 64;
    CHECK(bad == 0, "WAIT_WORK_GROUP: %d groups' children missed writes (out[1] %d)", bad, o[1]);
    free(o);
    cl_mem b = int_buffer(e.c, 2, 0);
    CHECK_ERR(run(&e, "no_wait", 1, 0, 1, &b, 0, NULL), CL_COMPLETE);
    o = read_ints(&e, b, 2);
    CHECK(o[0] == 8 && o[1] == 0, "NO_WAIT child ran %d work-items (enqueue %d)", o[0], o[1]);
    free(o);
    clReleaseMemObject(b);
    clReleaseMemObject(bufs[0]);
    clReleaseMemObject(bufs[1]);
out:
    teardown(&e);
}

/* Device events: a chain through returned events, a marker, user events. */
static const char *events_src =
    "kernel void chain(global int *out) {\n"
    "  queue_t q = get_default_queue();\n"
    "  clk_event_t a, b, m, u = create_user_event();\n"
    "  out[10] = is_valid_event(u) ? 1 : 0;\n"
    "  out[11] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &u, &a,\n"
    "                           ^{ out[0] = 5; });\n"
    "  out[12] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &a, &b,\n"
    "                           ^{ out[1] = out[0] * 2; });\n"
    "  clk_event_t both[2] = {a, b};\n"
    "  out[13] = enqueue_marker(q, 2, both, &m);\n"
    "  out[14] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &m, NULL,\n"
    "                           ^{ out[2] = out[0] + out[1]; });\n"
    "  out[15] = enqueue_marker(q, 0, NULL, &m);\n"
    "  out[16] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, NULL, NULL,\n"
    "                           ^{ out[3] = 1; });\n"
    "  retain_event(a);\n"
    "  release_event(a);\n"
    "  set_user_event_status(u, CL_COMPLETE);\n"
    "  release_event(u); release_event(a); release_event(b); release_event(m);\n"
    "  out[17] = is_valid_event(CLK_NULL_EVENT) ? 1 : 0;\n"
    "}\n"
    "kernel void profiled(global int *out, global ulong *times) {\n"
    "  clk_event_t a;\n"
    "  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(64), 0, NULL, &a,\n"
    "                 ^{ atomic_inc(out); });\n"
    "  capture_event_profiling_info(a, CLK_PROFILING_COMMAND_EXEC_TIME, times);\n"
    "  release_event(a);\n"
    "}\n";

TEST(device_events_and_markers)
{
    struct env e;
    if (!setup(&e, events_src)) goto out;
    cl_mem b = int_buffer(e.c, 18, -1);
    CHECK_ERR(run(&e, "chain", 1, 0, 1, &b, 0, NULL), CL_COMPLETE);
    int *o = read_ints(&e, b, 18);
    CHECK(o[0] == 5 && o[1] == 10 && o[2] == 15, "chain results %d %d %d", o[0], o[1], o[2]);
    CHECK(o[3] == -1, "a child with a bad wait list ran");
    CHECK(o[10] == 1 && o[17] == 0, "is_valid_event %d, of CLK_NULL_EVENT %d", o[10], o[17]);
    CHECK(o[11] == 0 && o[12] == 0 && o[13] == 0 && o[14] == 0, "enqueues %d %d %d %d", o[11],
          o[12], o[13], o[14]);
    CHECK(o[15] == -57, "marker without events: %d, expected CLK_INVALID_EVENT_WAIT_LIST", o[15]);
    CHECK(o[16] == -57, "wait list NULL with 1 event: %d", o[16]);
    free(o);
    clReleaseMemObject(b);

    /* capture_event_profiling_info on a profiling device queue: the values
     * are there when the parent completes. */
    cl_int err = 0;
    cl_command_queue pq = device_queue(e.c, 0, 0, 1, &err);
    REQUIRE(pq, "profiling device queue: %s", h_err(err));
    CHECK_OK(clSetDefaultDeviceCommandQueue(e.c, h_device(), pq));
    cl_mem cnt = int_buffer(e.c, 1, 0);
    cl_ulong init[2] = {~0ull, ~0ull};
    cl_mem times = clCreateBuffer(e.c, CL_MEM_COPY_HOST_PTR, sizeof init, init, NULL);
    cl_mem args[2] = {cnt, times};
    CHECK_ERR(run(&e, "profiled", 1, 0, 2, args, 0, NULL), CL_COMPLETE);
    cl_ulong t[2];
    clEnqueueReadBuffer(e.q, times, CL_TRUE, 0, sizeof t, t, 0, NULL, NULL);
    CHECK(t[0] != ~0ull && t[1] != ~0ull && t[1] >= t[0], "captured %llu %llu",
          (unsigned long long)t[0], (unsigned long long)t[1]);
    o = read_ints(&e, cnt, 1);
    CHECK(o[0] == 64, "profiled child ran %d work-items", o[0]);
    free(o);
    clReleaseMemObject(cnt);
    clReleaseMemObject(times);
    clReleaseCommandQueue(pq);
out:
    teardown(&e);
}

/* A child's negative status becomes the parent command's. */
static const char *fail_src =
    "kernel void parent(global int *out) {\n"
    "  clk_event_t u = create_user_event();\n"
    "  out[1] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),\n"
    "                          1, &u, NULL, ^{ out[0] = 1; });\n"
    "  set_user_event_status(u, -7);\n"
    "  release_event(u);\n"
    "}\n"
    "kernel void grandparent(global int *out) {\n"
    "  out[2] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1),\n"
    "    ^{ clk_event_t u = create_user_event();\n"
    "       enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),\n"
    "                      1, &u, NULL, ^{ out[0] = 1; });\n"
    "       set_user_event_status(u, -7); release_event(u); });\n"
    "}\n";

TEST(child_failure_fails_parent)
{
    struct env e;
    if (!setup(&e, fail_src)) goto out;
    cl_mem b = int_buffer(e.c, 3, 0);
    cl_int st = run(&e, "parent", 1, 0, 1, &b, 0, NULL);
    CHECK(st < 0, "parent status %d, expected negative", st);
    int *o = read_ints(&e, b, 3);
    CHECK(o[0] == 0 && o[1] == 0, "failed child ran (%d), enqueue %d", o[0], o[1]);
    free(o);
    st = run(&e, "grandparent", 1, 0, 1, &b, 0, NULL);
    CHECK(st < 0, "grandparent status %d, expected negative", st);
    /* The queue still works afterwards. */
    cl_event mk = NULL;
    CHECK_OK(clEnqueueMarkerWithWaitList(e.q, 0, NULL, &mk));
    CHECK_OK(clWaitForEvents(1, &mk));
    clReleaseEvent(mk);
    clReleaseMemObject(b);
out:
    teardown(&e);
}

/* CLK_INVALID_NDRANGE, CLK_DEVICE_QUEUE_FULL, CLK_INVALID_QUEUE. */
static const char *limits_src =
    "kernel void bad_ranges(global int *out) {\n"
    "  queue_t q = get_default_queue();\n"
    "  out[0] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(0), ^{ out[9] = 1; });\n"
    "  out[1] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4096, 4096), ^{ out[9] = 1; });\n"
    "  size_t g[2] = {4, 4}, l[2] = {2, 0};\n"
    "  out[2] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_2D(g, l), ^{ out[9] = 1; });\n"
    "  queue_t none = CLK_NULL_QUEUE;\n"
    "  out[3] = enqueue_kernel(none, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ out[9] = 1; });\n"
    "}\n"
    "kernel void fill(global int *out, queue_t q, int n) {\n"
    "  int ok = 0, full = 0;\n"
    "  for (int i = 0; i < n; i++) {\n"
    "    int r = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1), ^{ atomic_inc(&out[2]); });\n"
    "    ok += r == CLK_SUCCESS; full += r == CLK_DEVICE_QUEUE_FULL;\n"
    "  }\n"
    "  out[0] = ok; out[1] = full;\n"
    "}\n"
    "kernel void wrong_queue(global int *out, queue_t q) {\n"
    "  out[0] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ out[1] = 1; });\n"
    "}\n";

TEST(invalid_ranges_and_full_queue)
{
    struct env e;
    if (!setup(&e, limits_src)) goto out;
    cl_mem b = int_buffer(e.c, 10, 5);
    CHECK_ERR(run(&e, "bad_ranges", 1, 0, 1, &b, 0, NULL), CL_COMPLETE);
    int *o = read_ints(&e, b, 10);
    for (int i = 0; i < 3; i++)
        CHECK(o[i] == -160, "bad range %d: %d, expected CLK_INVALID_NDRANGE", i, o[i]);
    CHECK(o[3] == -102, "NULL queue: %d, expected CLK_INVALID_QUEUE", o[3]);
    CHECK(o[9] == 5, "a child of an invalid enqueue ran");
    free(o);

    /* A queue of 4 commands: WAIT_KERNEL children cannot start before the
     * parent ends, so the fifth enqueue finds it full. */
    cl_int err = 0;
    cl_command_queue small = device_queue(e.c, 0, 4 * 64, 0, &err);
    REQUIRE(small, "small device queue: %s", h_err(err));
    cl_mem f = int_buffer(e.c, 3, 0);
    cl_kernel k = clCreateKernel(e.p, "fill", &err);
    int n = 10;
    clSetKernelArg(k, 0, sizeof f, &f);
    clSetKernelArg(k, 1, sizeof small, &small);
    clSetKernelArg(k, 2, sizeof n, &n);
    size_t one = 1;
    CHECK_OK(clEnqueueNDRangeKernel(e.q, k, 1, NULL, &one, NULL, 0, NULL, NULL));
    CHECK_OK(clFinish(e.q));
    o = read_ints(&e, f, 3);
    CHECK(o[0] == 4 && o[1] == 6 && o[2] == 4, "queue of 4: %d enqueued, %d full, %d ran", o[0],
          o[1], o[2]);
    free(o);
    /* Once they ran, the queue has room again. */
    CHECK_OK(clEnqueueNDRangeKernel(e.q, k, 1, NULL, &one, NULL, 0, NULL, NULL));
    CHECK_OK(clFinish(e.q));
    o = read_ints(&e, f, 3);
    CHECK(o[0] == 4 && o[2] == 8, "second round: %d enqueued, %d ran", o[0], o[2]);
    free(o);
    clReleaseKernel(k);

    /* A host queue is no queue_t. */
    k = clCreateKernel(e.p, "wrong_queue", &err);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof e.q, &e.q), CL_INVALID_DEVICE_QUEUE);
    cl_command_queue none = NULL;
    CHECK_ERR(clSetKernelArg(k, 1, sizeof none, &none), CL_INVALID_DEVICE_QUEUE);
    CHECK_OK(clSetKernelArg(k, 1, sizeof small, &small));
    clReleaseKernel(k);
    clReleaseMemObject(f);
    clReleaseCommandQueue(small);
    clReleaseMemObject(b);
out:
    teardown(&e);
}

/* A parent that meets barriers (its work-items run as fibers) enqueues
 * from between them; each group's child sees the group's reduction. */
static const char *barrier_src =
    "kernel void parent(global int *out, local int *scratch) {\n"
    "  size_t l = get_local_id(0), g = get_group_id(0), n = get_local_size(0);\n"
    "  scratch[l] = (int)(g * n + l);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (l == 0) {\n"
    "    int s = 0; for (size_t k = 0; k < n; k++) s += scratch[k];\n"
    "    enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP, ndrange_1D(2),\n"
    "                   ^{ atomic_add(&out[g], s + (int)get_global_id(0)); });\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  scratch[l] = -1;\n"
    "}\n";

TEST(enqueue_between_barriers)
{
    struct env e;
    if (!setup(&e, barrier_src)) goto out;
    size_t n = 512, local = 32;
    cl_mem b = int_buffer(e.c, n / local, 0);
    cl_int err = 0;
    cl_kernel k = clCreateKernel(e.p, "parent", &err);
    REQUIRE(k, "kernel: %s", h_err(err));
    clSetKernelArg(k, 0, sizeof b, &b);
    clSetKernelArg(k, 1, local * sizeof(int), NULL);
    CHECK_OK(clEnqueueNDRangeKernel(e.q, k, 1, NULL, &n, &local, 0, NULL, NULL));
    CHECK_OK(clFinish(e.q));
    int *o = read_ints(&e, b, n / local);
    int bad = 0;
    for (size_t g = 0; g < n / local; g++) {
        int base = (int)(g * local), s = 0;
        for (int l = 0; l < (int)local; l++) s += base + l;
        bad += o[g] != 2 * s + 1;
    }
    CHECK(bad == 0, "%d groups' children wrong (out[0] %d)", bad, o[0]);
    free(o);
    clReleaseKernel(k);
    clReleaseMemObject(b);
out:
    teardown(&e);
}

int main(int argc, char **argv)
{
    h_init("device_execution", argc, argv);
    H_RUN(device_queue_objects);
    H_RUN(captured_values);
    H_RUN(ndrange_forms);
    H_RUN(local_arguments);
    H_RUN_T(nesting_16_deep, 60);
    H_RUN_T(thousands_of_children, 60);
    H_RUN(enqueue_flags);
    H_RUN(enqueue_between_barriers);
    H_RUN(device_events_and_markers);
    H_RUN(child_failure_fails_parent);
    H_RUN(invalid_ranges_and_full_queue);
    return h_done();
}
