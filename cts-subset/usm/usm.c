/* usm/usm: unified shared memory (cl_intel_unified_shared_memory), in the
 * spirit of the Khronos test_unified_shared_memory: the extension's
 * functions reached through clGetExtensionFunctionAddressForPlatform, the
 * three kinds of allocation, their info, kernels reading and writing them
 * (atomics included), fill, memset, memcpy, migrate and advise commands,
 * and the error codes. A device without the extension skips all. */
#include "harness.h"
#include <CL/cl_ext.h>
#include <stdlib.h>
#include <unistd.h>

static struct {
    clHostMemAllocINTEL_fn host_alloc;
    clDeviceMemAllocINTEL_fn device_alloc;
    clSharedMemAllocINTEL_fn shared_alloc;
    clMemFreeINTEL_fn free;
    clMemBlockingFreeINTEL_fn blocking_free;
    clGetMemAllocInfoINTEL_fn info;
    clSetKernelArgMemPointerINTEL_fn set_arg;
    clEnqueueMemsetINTEL_fn memset;
    clEnqueueMemFillINTEL_fn fill;
    clEnqueueMemcpyINTEL_fn memcpy;
    clEnqueueMigrateMemINTEL_fn migrate;
    clEnqueueMemAdviseINTEL_fn advise;
} usm;

/* Whether the device has the extension and every function is there. */
static int has_usm(void)
{
    char *ext = h_device_string(h_device(), CL_DEVICE_EXTENSIONS);
    int yes = ext && strstr(ext, "cl_intel_unified_shared_memory");
    free(ext);
    if (!yes) return 0;
    cl_platform_id p = h_platform();
#define GET(field, name) usm.field = (name##_fn)clGetExtensionFunctionAddressForPlatform(p, #name)
    GET(host_alloc, clHostMemAllocINTEL);
    GET(device_alloc, clDeviceMemAllocINTEL);
    GET(shared_alloc, clSharedMemAllocINTEL);
    GET(free, clMemFreeINTEL);
    GET(blocking_free, clMemBlockingFreeINTEL);
    GET(info, clGetMemAllocInfoINTEL);
    GET(set_arg, clSetKernelArgMemPointerINTEL);
    GET(memset, clEnqueueMemsetINTEL);
    GET(fill, clEnqueueMemFillINTEL);
    GET(memcpy, clEnqueueMemcpyINTEL);
    GET(migrate, clEnqueueMigrateMemINTEL);
    GET(advise, clEnqueueMemAdviseINTEL);
#undef GET
    return 1;
}

#define NEED_USM()                                                                      \
    do {                                                                                \
        if (!has_usm()) { h_skip("no cl_intel_unified_shared_memory"); return; }        \
        REQUIRE(usm.host_alloc && usm.device_alloc && usm.shared_alloc && usm.free &&   \
                    usm.blocking_free && usm.info && usm.set_arg && usm.memset &&       \
                    usm.fill && usm.memcpy && usm.migrate && usm.advise,                \
                "an extension function is missing");                                    \
    } while (0)

TEST(capabilities)
{
    NEED_USM();
    cl_device_info queries[] = {
        CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL, CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL,
        CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL,
        CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL,
        CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL};
    for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++) {
        cl_device_unified_shared_memory_capabilities_intel caps = 0;
        size_t size = 0;
        CHECK_OK(clGetDeviceInfo(h_device(), queries[i], sizeof caps, &caps, &size));
        CHECK(size == sizeof caps, "query %#x: %zu bytes", queries[i], size);
        CHECK(caps & CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL, "query %#x: no access", queries[i]);
    }
}

/* Each kind: its type, base, size, device and flags, inside and at the
 * end; what is not an allocation is of unknown type. */
TEST(allocations_and_their_info)
{
    NEED_USM();
    cl_context c = h_context();
    cl_device_id d = h_device();
    cl_int e;
    cl_mem_properties_intel props[] = {CL_MEM_ALLOC_FLAGS_INTEL,
                                       CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL, 0};
    void *host = usm.host_alloc(c, NULL, 1000, 0, &e);
    CHECK(host && !e, "host: %s", h_err(e));
    void *dev = usm.device_alloc(c, d, NULL, 1000, 4096, &e);
    CHECK(dev && !e && (uintptr_t)dev % 4096 == 0, "device: %s", h_err(e));
    void *shared = usm.shared_alloc(c, d, props, 1000, 64, &e);
    CHECK(shared && !e && (uintptr_t)shared % 64 == 0, "shared: %s", h_err(e));
    void *nodev = usm.shared_alloc(c, NULL, NULL, 8, 0, &e);
    CHECK(nodev && !e, "shared without a device: %s", h_err(e));
    struct { void *p; cl_unified_shared_memory_type_intel type; cl_device_id dev; } all[] = {
        {host, CL_MEM_TYPE_HOST_INTEL, NULL},
        {dev, CL_MEM_TYPE_DEVICE_INTEL, d},
        {shared, CL_MEM_TYPE_SHARED_INTEL, d},
    };
    for (int i = 0; i < 3 && !h_failed(); i++) {
        char *inside = (char *)all[i].p + 999;
        cl_unified_shared_memory_type_intel type = 0;
        void *base = NULL;
        size_t size = 0;
        cl_device_id owner = (cl_device_id)1;
        CHECK_OK(usm.info(c, inside, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type, NULL));
        CHECK_OK(usm.info(c, inside, CL_MEM_ALLOC_BASE_PTR_INTEL, sizeof base, &base, NULL));
        CHECK_OK(usm.info(c, inside, CL_MEM_ALLOC_SIZE_INTEL, sizeof size, &size, NULL));
        CHECK_OK(usm.info(c, inside, CL_MEM_ALLOC_DEVICE_INTEL, sizeof owner, &owner, NULL));
        CHECK(type == all[i].type, "%d: type %#x", i, type);
        CHECK(base == all[i].p && size == 1000, "%d: base %p size %zu", i, base, size);
        CHECK(owner == all[i].dev, "%d: device %p", i, (void *)owner);
    }
    cl_mem_alloc_flags_intel flags = 0;
    CHECK_OK(usm.info(c, shared, CL_MEM_ALLOC_FLAGS_INTEL, sizeof flags, &flags, NULL));
    CHECK(flags == CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL, "flags %#llx",
          (unsigned long long)flags);
    int on_stack = 0;
    cl_unified_shared_memory_type_intel type = 0;
    CHECK_OK(usm.info(c, &on_stack, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type, NULL));
    CHECK(type == CL_MEM_TYPE_UNKNOWN_INTEL, "stack memory of type %#x", type);
    CHECK_OK(usm.info(c, (char *)host + 1000, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type, NULL));
    CHECK(type == CL_MEM_TYPE_UNKNOWN_INTEL, "one past the end of type %#x", type);
    CHECK_ERR(usm.info(c, host, 0x1234, sizeof type, &type, NULL), CL_INVALID_VALUE);
    CHECK_OK(usm.free(c, host));
    CHECK_OK(usm.free(c, dev));
    CHECK_OK(usm.blocking_free(c, shared));
    CHECK_OK(usm.free(c, nodev));
    CHECK_OK(usm.free(c, NULL));
    CHECK_OK(usm.info(c, host, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type, NULL));
    CHECK(type == CL_MEM_TYPE_UNKNOWN_INTEL, "a freed allocation of type %#x", type);
    clReleaseContext(c);
}

TEST(bad_arguments)
{
    NEED_USM();
    cl_context c = h_context();
    cl_int e = 0;
    CHECK_CREATE_FAILS(usm.host_alloc(c, NULL, 0, 0, &e), e, CL_INVALID_BUFFER_SIZE);
    CHECK_CREATE_FAILS(usm.host_alloc(c, NULL, 8, 3, &e), e, CL_INVALID_VALUE);
    CHECK_CREATE_FAILS(usm.host_alloc(NULL, NULL, 8, 0, &e), e, CL_INVALID_CONTEXT);
    CHECK_CREATE_FAILS(usm.device_alloc(c, NULL, NULL, 8, 0, &e), e, CL_INVALID_DEVICE);
    cl_mem_properties_intel unknown[] = {0x9999, 0, 0};
    CHECK_CREATE_FAILS(usm.shared_alloc(c, NULL, unknown, 8, 0, &e), e, CL_INVALID_PROPERTY);
    cl_mem_properties_intel both[] = {CL_MEM_ALLOC_FLAGS_INTEL,
                                      CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL |
                                          CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL,
                                      0};
    CHECK_CREATE_FAILS(usm.shared_alloc(c, NULL, both, 8, 0, &e), e, CL_INVALID_PROPERTY);
    cl_mem_properties_intel twice[] = {CL_MEM_ALLOC_FLAGS_INTEL, 0, CL_MEM_ALLOC_FLAGS_INTEL, 0, 0};
    CHECK_CREATE_FAILS(usm.shared_alloc(c, NULL, twice, 8, 0, &e), e, CL_INVALID_PROPERTY);
    int on_stack;
    CHECK_ERR(usm.free(c, &on_stack), CL_INVALID_VALUE);
    void *p = usm.host_alloc(c, NULL, 64, 0, &e);
    CHECK_ERR(usm.free(c, (char *)p + 8), CL_INVALID_VALUE);
    cl_command_queue q = h_queue(c, 0);
    CHECK_ERR(usm.memcpy(q, CL_TRUE, p, (char *)p + 8, 16, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    CHECK_ERR(usm.memcpy(q, CL_TRUE, NULL, p, 16, 0, NULL, NULL), CL_INVALID_VALUE);
    int pattern = 0;
    CHECK_ERR(usm.fill(q, p, &pattern, 3, 12, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(usm.fill(q, p, &pattern, 4, 10, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(usm.migrate(q, p, 64, 0x80, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_OK(usm.free(c, p));
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* A kernel on all three kinds: reads host and shared memory, writes
 * device memory, counts with atomics in shared memory; the host fills,
 * sets and copies with the extension's commands, whose events say what
 * they were. */
TEST(kernels_and_commands)
{
    NEED_USM();
    enum { N = 4096 };
    cl_context c = h_context();
    cl_device_id d = h_device();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c,
        "kernel void k(global const int *a, global const int *b, global int *out,\n"
        "              global atomic_int *count) {\n"
        "    size_t i = get_global_id(0);\n"
        "    out[i] = a[i] * 3 + b[i];\n"
        "    atomic_fetch_add_explicit(count, 1, memory_order_relaxed, memory_scope_device);\n"
        "}\n", "-cl-std=CL2.0");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "k", &e);
    REQUIRE(k && !e, "clCreateKernel: %s", h_err(e));
    int *a = usm.host_alloc(c, NULL, N * sizeof(int), 0, &e);
    int *b = usm.shared_alloc(c, d, NULL, N * sizeof(int), 0, &e);
    int *out = usm.device_alloc(c, d, NULL, N * sizeof(int), 0, &e);
    int *count = usm.shared_alloc(c, d, NULL, sizeof(int), 0, &e);
    int *back = malloc(N * sizeof(int));
    REQUIRE(a && b && out && count, "allocations");
    for (int i = 0; i < N; i++) a[i] = i;
    int seven = 7;
    cl_event fill_ev, memset_ev, copy_ev;
    CHECK_OK(usm.fill(q, b, &seven, sizeof seven, N * sizeof(int), 0, NULL, &fill_ev));
    CHECK_OK(usm.memset(q, count, 0, sizeof(int), 0, NULL, &memset_ev));
    CHECK_OK(usm.migrate(q, b, N * sizeof(int), CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL));
    CHECK_OK(usm.advise(q, b, N * sizeof(int), 0, 0, NULL, NULL));
    CHECK_OK(usm.set_arg(k, 0, a));
    CHECK_OK(usm.set_arg(k, 1, b));
    CHECK_OK(usm.set_arg(k, 2, out));
    CHECK_OK(usm.set_arg(k, 3, count));
    cl_bool yes = CL_TRUE;
    CHECK_OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL, sizeof yes, &yes));
    void *ptrs[] = {a, b};
    CHECK_OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, sizeof ptrs, ptrs));
    size_t g = N;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    CHECK_OK(usm.memcpy(q, CL_TRUE, back, out, N * sizeof(int), 0, NULL, &copy_ev));
    for (int i = 0; i < N && !h_failed(); i++)
        CHECK(back[i] == 3 * i + 7, "out[%d] = %d", i, back[i]);
    CHECK(*count == N, "count %d", *count);
    cl_command_type type = 0;
    CHECK_OK(clGetEventInfo(fill_ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_MEMFILL_INTEL, "fill's command type %#x", type);
    CHECK_OK(clGetEventInfo(memset_ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_MEMFILL_INTEL, "memset's command type %#x", type);
    CHECK_OK(clGetEventInfo(copy_ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_MEMCPY_INTEL, "memcpy's command type %#x", type);
    clReleaseEvent(fill_ev);
    clReleaseEvent(memset_ev);
    clReleaseEvent(copy_ev);
    /* A blocking free waits for the kernel that still uses the memory. */
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    CHECK_OK(usm.blocking_free(c, out));
    CHECK(*count == 2 * N, "count after the blocking free %d", *count);
    CHECK_OK(usm.free(c, a));
    CHECK_OK(usm.free(c, b));
    CHECK_OK(usm.free(c, count));
    free(back);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* clMemBlockingFreeINTEL from an event callback, as SYCL frees its
 * temporaries: it must not wait there for a command that cannot end until
 * the callback returns; the allocation is freed once that command ends. */
static struct {
    void *ptr;
    cl_context context;
    cl_int err;
    volatile int returned;
} freeing;

static void CL_CALLBACK free_in_callback(cl_event ev, cl_int status, void *data)
{
    (void)ev;
    (void)status;
    (void)data;
    freeing.err = usm.blocking_free(freeing.context, freeing.ptr);
    freeing.returned = 1;
}

TEST(blocking_free_in_a_callback)
{
    NEED_USM();
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_int e;
    cl_int *p = usm.shared_alloc(c, h_device(), NULL, 64 * sizeof(cl_int), 0, &e);
    REQUIRE(p && !e, "shared: %s", h_err(e));
    cl_event gate = clCreateUserEvent(c, &e);
    cl_event trigger = clCreateUserEvent(c, &e);
    cl_int pattern = 7;
    /* The fill waits on `gate`, which this thread opens only once the
     * callback has returned. */
    CHECK_OK(usm.fill(q, p, &pattern, sizeof pattern, 64 * sizeof(cl_int), 1, &gate, NULL));
    freeing.ptr = p;
    freeing.context = c;
    freeing.err = -1;
    freeing.returned = 0;
    CHECK_OK(clSetEventCallback(trigger, CL_COMPLETE, free_in_callback, NULL));
    CHECK_OK(clSetUserEventStatus(trigger, CL_COMPLETE));
    for (int i = 0; i < 500 && !freeing.returned; i++) usleep(10000);
    CHECK(freeing.returned && freeing.err == CL_SUCCESS,
          "the callback's clMemBlockingFreeINTEL: returned %d, %s", freeing.returned,
          h_err(freeing.err));
    CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_OK(clFinish(q));
    /* Freed after the fill: the pointer's type becomes unknown. */
    cl_unified_shared_memory_type_intel type = CL_MEM_TYPE_SHARED_INTEL;
    for (int i = 0; i < 500; i++) {
        CHECK_OK(usm.info(c, p, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type, NULL));
        if (type == CL_MEM_TYPE_UNKNOWN_INTEL) break;
        usleep(10000);
    }
    CHECK(type == CL_MEM_TYPE_UNKNOWN_INTEL, "still allocated after the fill: type 0x%x",
          (unsigned)type);
    clReleaseEvent(gate);
    clReleaseEvent(trigger);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("usm", argc, argv);
    H_RUN(capabilities);
    H_RUN(allocations_and_their_info);
    H_RUN(bad_arguments);
    H_RUN_T(kernels_and_commands, 60);
    H_RUN_T(blocking_free_in_a_callback, 60);
    return h_done();
}
