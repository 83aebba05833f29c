/* subgroups: cl_khr_subgroup_non_uniform_vote, _ballot and
 * _non_uniform_arithmetic. The work-items of a sub-group that call one of
 * them at one call site together are its active set: each branch of an
 * if/else (the same code in both, which a compiler may merge) gets its own
 * answer, and a loop's iterations theirs. */
#include "harness.h"

/* Runs kernel "k" over 64 work-items in groups of `l` (sub-groups of the
 * device's size; OpenCL C 3.0 where `l` leaves a smaller last group), out:
 * 64 ints. */
static void run_in_groups(const char *src, int *out, size_t *sg, size_t l)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, src, 64 % l ? "-cl-std=CL3.0" : NULL);
    REQUIRE(p, "build failed");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "k", &e);
    cl_mem O = clCreateBuffer(c, 0, 64 * sizeof(int), NULL, &e);
    clSetKernelArg(k, 0, sizeof O, &O);
    size_t g = 64;
    REQUIRE_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    REQUIRE_OK(clEnqueueReadBuffer(q, O, CL_TRUE, 0, 64 * sizeof(int), out, 0, NULL, NULL));
    REQUIRE_OK(clGetKernelSubGroupInfo(k, h_device(), CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                       sizeof l, &l, sizeof *sg, sg, NULL));
    clReleaseMemObject(O); clReleaseKernel(k); clReleaseProgram(p);
    clReleaseCommandQueue(q); clReleaseContext(c);
}

/* The same in groups of 32. */
static void run(const char *src, int *out, size_t *sg) { run_in_groups(src, out, sg, 32); }

static int reported(const char *ext)
{
    char *all = h_device_string(h_device(), CL_DEVICE_EXTENSIONS);
    int on = all && strstr(all, ext);
    free(all);
    return on;
}

/* The same call in both branches of an if/else: two active sets. */
TEST(branches_are_separate_sets)
{
    if (!reported("cl_khr_subgroup_non_uniform_arithmetic")) { h_skip("not reported"); return; }
    int out[64];
    size_t sg = 0;
    run("#pragma OPENCL EXTENSION cl_khr_subgroup_non_uniform_arithmetic : enable\n"
        "kernel void k(global int *out) {\n"
        "  int x = (int)get_sub_group_local_id() + 1;\n"
        "  if (get_sub_group_local_id() % 3 == 0) out[get_global_id(0)] = sub_group_non_uniform_reduce_add(x);\n"
        "  else out[get_global_id(0)] = sub_group_non_uniform_reduce_add(x); }\n",
        out, &sg);
    REQUIRE(sg > 0 && 32 % sg == 0, "sub-group size %zu", sg);
    int sum[2] = {0, 0};
    for (size_t i = 0; i < sg; i++) sum[i % 3 == 0] += (int)i + 1;
    for (int i = 0; i < 64; i++)
        CHECK(out[i] == sum[(i % sg) % 3 == 0], "work-item %d: %d, expected %d", i, out[i],
              sum[(i % sg) % 3 == 0]);
}

/* Scans, min and a bitwise reduction over the odd work-items only. */
TEST(scans_over_the_active_items)
{
    if (!reported("cl_khr_subgroup_non_uniform_arithmetic")) { h_skip("not reported"); return; }
    int out[64];
    size_t sg = 0;
    run("#pragma OPENCL EXTENSION cl_khr_subgroup_non_uniform_arithmetic : enable\n"
        "kernel void k(global int *out) {\n"
        "  uint l = get_sub_group_local_id(); int x = (int)l * 10;\n"
        "  out[get_global_id(0)] = -1;\n"
        "  if (l & 1) out[get_global_id(0)] = sub_group_non_uniform_scan_exclusive_add(x) * 1000\n"
        "      + sub_group_non_uniform_scan_inclusive_min(x) / 10 * 100 + sub_group_non_uniform_reduce_or(1 << l) % 97; }\n",
        out, &sg);
    for (int i = 0; i < 64; i++) {
        int l = i % (int)sg;
        if (!(l & 1)) { CHECK(out[i] == -1, "inactive work-item %d wrote %d", i, out[i]); continue; }
        int before = 0, bits = 0;
        for (int j = 1; j < (int)sg; j += 2) {
            if (j < l) before += j * 10;
            bits |= 1 << j;
        }
        int want = before * 1000 + 1 * 100 + bits % 97;
        CHECK(out[i] == want, "work-item %d: %d, expected %d", i, out[i], want);
    }
}

/* elect, ballot, all/any, broadcast_first and the ballot's bit counts in
 * a branch; the same call in each iteration of a loop. */
TEST(votes_and_ballots)
{
    if (!reported("cl_khr_subgroup_ballot") || !reported("cl_khr_subgroup_non_uniform_vote")) {
        h_skip("not reported");
        return;
    }
    int out[64];
    size_t sg = 0;
    run("#pragma OPENCL EXTENSION cl_khr_subgroup_ballot : enable\n"
        "kernel void k(global int *out) {\n"
        "  uint l = get_sub_group_local_id(); int r = 0;\n"
        "  if (l >= 2) {\n"
        "    r = sub_group_elect();\n"
        "    uint4 b = sub_group_ballot(l % 2 == 0);\n"
        "    r |= (int)sub_group_ballot_bit_count(b) << 1;\n"
        "    r |= sub_group_non_uniform_all(l >= 2) << 6;\n"
        "    r |= sub_group_non_uniform_any(l == 0) << 7;\n"
        "    r |= (int)sub_group_broadcast_first(l) << 8;\n"
        "    r |= (int)sub_group_ballot_exclusive_scan(b) << 12;\n"
        "  }\n"
        "  int s = 0;\n"
        "  for (int it = 0; it < 3; it++) s += sub_group_non_uniform_reduce_add(it);\n"
        "  out[get_global_id(0)] = r | s << 16; }\n",
        out, &sg);
    for (int i = 0; i < 64; i++) {
        int l = i % (int)sg;
        int want = 0;
        if (l >= 2) {
            int evens = 0, evens_before = 0;
            for (int j = 2; j < (int)sg; j++)
                if (j % 2 == 0) { evens++; if (j < l) evens_before++; }
            want = (l == 2) | evens << 1 | 1 << 6 | 0 << 7 | 2 << 8 | evens_before << 12;
        }
        want |= (0 + (int)sg + 2 * (int)sg) << 16;
        CHECK(out[i] == want, "work-item %d: %#x, expected %#x", i, out[i], want);
    }
}

/* Every work-item of the sub-group calls them, in code all run (which the
 * compiler runs as regions across the work-items), in groups of 44: the
 * last sub-group of each group smaller. */
TEST(uniform_code_every_lane)
{
    if (!reported("cl_khr_subgroup_ballot") || !reported("cl_khr_subgroup_non_uniform_vote") ||
        !reported("cl_khr_subgroup_non_uniform_arithmetic")) {
        h_skip("not reported");
        return;
    }
    int out[64];
    size_t sg = 0;
    run_in_groups("#pragma OPENCL EXTENSION cl_khr_subgroup_ballot : enable\n"
        "kernel void k(global int *out) {\n"
        "  uint l = get_sub_group_local_id(); int x = (int)l + 1;\n"
        "  int r = sub_group_elect();\n"
        "  uint4 b = sub_group_ballot(l % 3 == 0);\n"
        "  r |= (int)sub_group_ballot_bit_count(b) << 1;\n"
        "  r |= sub_group_non_uniform_all(l < 100) << 6 | sub_group_non_uniform_any(l == 1) << 7;\n"
        "  r |= sub_group_non_uniform_all_equal(7) << 8 | sub_group_non_uniform_all_equal(x) << 9;\n"
        "  r |= (int)sub_group_broadcast_first(x) << 10 | sub_group_non_uniform_broadcast(x, 2u) << 14;\n"
        "  r |= sub_group_non_uniform_reduce_mul(l < 4 ? x : 1) << 18;\n"
        "  r |= (sub_group_non_uniform_scan_inclusive_add(x) & 63) << 24;\n"
        "  out[get_global_id(0)] = r ^ sub_group_non_uniform_reduce_xor(x); }\n",
        out, &sg, 44);
    REQUIRE(sg > 2, "sub-group size %zu", sg);
    for (int i = 0; i < 64; i++) {
        /* Groups of 44 and 20 work-items. */
        int lid = i % 44, items = i < 44 ? 44 : 20, l = lid % (int)sg, first = lid - l;
        int n = items - first < (int)sg ? items - first : (int)sg;
        int thirds = 0, product = 1, scan = 0, xor = 0;
        for (int j = 0; j < n; j++) {
            thirds += j % 3 == 0;
            product *= j < 4 ? j + 1 : 1;
            if (j <= l) scan += j + 1;
            xor ^= j + 1;
        }
        int want = (l == 0) | thirds << 1 | 1 << 6 | (n > 1) << 7 | 1 << 8 | (n == 1) << 9 |
                   1 << 10 | 3 << 14 | product << 18 | (scan & 63) << 24;
        CHECK(out[i] == (want ^ xor), "work-item %d: %#x, expected %#x", i, out[i], want ^ xor);
    }
}

int main(int argc, char **argv)
{
    h_init("subgroups", argc, argv);
    H_RUN(branches_are_separate_sets);
    H_RUN(scans_over_the_active_items);
    H_RUN(votes_and_ballots);
    H_RUN(uniform_code_every_lane);
    return h_done();
}
