/* subgroups/forward_progress: independent forward progress of sub-groups
 * (cl_khr_subgroups, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS), in
 * the spirit of the Khronos test_subgroups ifp tests: a sub-group that
 * spins until a later sub-group of its group stores a value must let that
 * one run, whatever else the kernel does (barriers of the group and of the
 * sub-group, none at all, a test-and-set lock, the wait in a helper
 * function). A hang is a failure (the harness's timeout). A device that
 * does not report independent forward progress skips all. */
#include "harness.h"

static int need_sub_groups(void)
{
    cl_uint max = 0;
    clGetDeviceInfo(h_device(), CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof max, &max, NULL);
    if (!max) h_skip("no sub-groups");
    return max > 0;
}

static int need_ifp(void)
{
    cl_bool ifp = CL_FALSE;
    clGetDeviceInfo(h_device(), CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, sizeof ifp, &ifp,
                    NULL);
    if (!ifp) h_skip("no independent forward progress of sub-groups");
    return ifp;
}

static const char *src =
    "#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n"
    /* The first sub-group's leader waits for the last one's, which stores
     * only after it has waited for the first to pass a stage of its own:
     * both directions, in a group with barriers. */
    "kernel void handshake(global int *out) {\n"
    "  local atomic_int flag, back;\n"
    "  if (get_local_id(0) == 0) { atomic_init(&flag, 0); atomic_init(&back, 0); }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  uint sg = get_sub_group_id(), last = get_num_sub_groups() - 1;\n"
    "  int seen = -1;\n"
    "  if (get_sub_group_local_id() == 0) {\n"
    "    if (sg == 0) {\n"
    "      while (atomic_load(&flag) != 1) ;\n"
    "      atomic_store(&back, 1);\n"
    "      seen = 1;\n"
    "    } else if (sg == last) {\n"
    "      atomic_store(&flag, 1);\n"
    "      while (atomic_load(&back) != 1) ;\n"
    "      seen = 2;\n"
    "    }\n"
    "  }\n"
    "  sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = seen;\n"
    "}\n"
    /* No barrier at all: work-item 0 of each group waits for the group's
     * last work-item through global memory. */
    "kernel void no_barriers(global atomic_int *flags, global int *out) {\n"
    "  size_t g = get_group_id(0);\n"
    "  if (get_local_id(0) == 0) {\n"
    "    while (atomic_load_explicit(&flags[g], memory_order_acquire) == 0) ;\n"
    "    out[g] = 1;\n"
    "  }\n"
    "  if (get_local_id(0) == get_local_size(0) - 1)\n"
    "    atomic_store_explicit(&flags[g], 1, memory_order_release);\n"
    "}\n"
    /* The wait in a helper the loop calls. */
    "int read_flag(volatile global int *p) { return atomic_load((volatile global atomic_int *)p); }\n"
    "kernel void helper_wait(global int *flags, global int *out) {\n"
    "  size_t g = get_group_id(0);\n"
    "  if (get_local_id(0) == 0) { while (!read_flag(&flags[g])) ; out[g] = 7; }\n"
    "  if (get_local_id(0) == get_local_size(0) - 1)\n"
    "    atomic_store((volatile global atomic_int *)&flags[g], 1);\n"
    "}\n"
    /* Every work-item takes a test-and-set lock to add to a plain counter;
     * the lock's holder is one sub-group's, the waiters every other's. */
    "kernel void locked(global int *out) {\n"
    "  local atomic_int lock;\n"
    "  local int count;\n"
    "  if (get_local_id(0) == 0) { atomic_init(&lock, 0); count = 0; }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (int i = 0; i < 3; i++) {\n"
    "    while (atomic_exchange(&lock, 1) != 0) ;\n"
    "    count += 1;\n"
    "    atomic_store(&lock, 0);\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (get_local_id(0) == 0) out[get_group_id(0)] = count;\n"
    "}\n";

struct env {
    cl_context c;
    cl_command_queue q;
    cl_program p;
};

static int setup(struct env *e)
{
    if (!need_sub_groups() || !need_ifp()) return 0;
    e->c = h_context();
    e->q = h_queue(e->c, 0);
    e->p = h_build(e->c, src, "-cl-std=CL3.0");
    return e->p != NULL;
}

static void teardown(struct env *e)
{
    clReleaseProgram(e->p);
    clReleaseCommandQueue(e->q);
    clReleaseContext(e->c);
}

/* Runs kernel `name` over `groups` groups of `local` with (optionally) a
 * zeroed int buffer of `groups` as argument 0 and the output (`n` ints,
 * zeroed) last; returns the output (malloc'd) or NULL. */
static int *run(struct env *e, const char *name, size_t groups, size_t local, int flags_arg,
                size_t n)
{
    cl_int err;
    cl_kernel k = clCreateKernel(e->p, name, &err);
    CHECK(k, "kernel %s: %s", name, h_err(err));
    if (!k) return NULL;
    int zero = 0;
    cl_mem flags = clCreateBuffer(e->c, CL_MEM_READ_WRITE, groups * sizeof(int), NULL, &err);
    cl_mem out = clCreateBuffer(e->c, CL_MEM_READ_WRITE, n * sizeof(int), NULL, &err);
    CHECK_OK(clEnqueueFillBuffer(e->q, flags, &zero, sizeof zero, 0, groups * sizeof(int), 0, NULL,
                                 NULL));
    CHECK_OK(clEnqueueFillBuffer(e->q, out, &zero, sizeof zero, 0, n * sizeof(int), 0, NULL, NULL));
    cl_uint a = 0;
    if (flags_arg) CHECK_OK(clSetKernelArg(k, a++, sizeof flags, &flags));
    CHECK_OK(clSetKernelArg(k, a, sizeof out, &out));
    size_t global = groups * local;
    CHECK_OK(clEnqueueNDRangeKernel(e->q, k, 1, NULL, &global, &local, 0, NULL, NULL));
    int *host = malloc(n * sizeof(int));
    CHECK_OK(clEnqueueReadBuffer(e->q, out, CL_TRUE, 0, n * sizeof(int), host, 0, NULL, NULL));
    clReleaseMemObject(flags);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    return host;
}

TEST(device_reports_it_with_the_extension)
{
    if (!need_sub_groups() || !need_ifp()) return;
    char *ext = h_device_string(h_device(), CL_DEVICE_EXTENSIONS);
    const char *at = ext ? strstr(ext, "cl_khr_subgroups") : NULL;
    CHECK(at && (at[16] == ' ' || at[16] == 0), "cl_khr_subgroups not reported: %s",
          ext ? ext : "(none)");
    free(ext);
}

TEST(sub_groups_wait_for_each_other)
{
    struct env e;
    if (!setup(&e)) return;
    const size_t groups = 4, local = 64;
    int *out = run(&e, "handshake", groups, local, 0, groups * local);
    for (size_t i = 0; out && i < groups * local; i++) {
        size_t lid = i % local;
        int want = lid == 0 ? 1 : lid == local - 8 ? 2 : -1;
        CHECK(out[i] == want, "item %zu: %d, expected %d", i, out[i], want);
    }
    free(out);
    teardown(&e);
}

TEST(work_items_without_barriers_wait_for_each_other)
{
    struct env e;
    if (!setup(&e)) return;
    const size_t groups = 16;
    int *out = run(&e, "no_barriers", groups, 128, 1, groups);
    for (size_t g = 0; out && g < groups; g++) CHECK(out[g] == 1, "group %zu: %d", g, out[g]);
    free(out);
    out = run(&e, "helper_wait", groups, 32, 1, groups);
    for (size_t g = 0; out && g < groups; g++) CHECK(out[g] == 7, "group %zu: %d", g, out[g]);
    free(out);
    teardown(&e);
}

TEST(a_test_and_set_lock)
{
    struct env e;
    if (!setup(&e)) return;
    const size_t groups = 8, local = 40;
    int *out = run(&e, "locked", groups, local, 0, groups);
    for (size_t g = 0; out && g < groups; g++)
        CHECK(out[g] == 3 * (int)local, "group %zu: %d, expected %d", g, out[g], 3 * (int)local);
    free(out);
    teardown(&e);
}

/* The build log says which kernels give way and why. */
TEST(build_log_names_the_waiting_loop)
{
    struct env e;
    if (!setup(&e)) return;
    size_t size = 0;
    CHECK_OK(clGetProgramBuildInfo(e.p, h_device(), CL_PROGRAM_BUILD_LOG, 0, NULL, &size));
    char *log = malloc(size + 1);
    CHECK_OK(clGetProgramBuildInfo(e.p, h_device(), CL_PROGRAM_BUILD_LOG, size, log, NULL));
    log[size] = 0;
    CHECK(strstr(log, "no_barriers") && strstr(log, "may wait for another work-item"),
          "build log: %s", log);
    free(log);
    teardown(&e);
}

int main(int argc, char **argv)
{
    h_init("forward_progress", argc, argv);
    H_RUN(device_reports_it_with_the_extension);
    H_RUN_T(sub_groups_wait_for_each_other, 60);
    H_RUN_T(work_items_without_barriers_wait_for_each_other, 60);
    H_RUN_T(a_test_and_set_lock, 60);
    H_RUN(build_log_names_the_waiting_loop);
    return h_done();
}
