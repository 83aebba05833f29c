/* printf: kernels print integers, floats, vectors and strings; the text a
 * command prints must be on stdout (here redirected to a file) once
 * clFinish returns, exactly as C's printf formats each conversion. */
#include "harness.h"
#include <unistd.h>

/* stdout to a temporary file while capturing. */
static int saved_fd = -1;
static FILE *capture_file;

static int capture_begin(void)
{
    fflush(stdout);
    capture_file = tmpfile();
    if (!capture_file) return 0;
    saved_fd = dup(1);
    return saved_fd >= 0 && dup2(fileno(capture_file), 1) >= 0;
}

/* Restores stdout; returns what was written (malloc'd). */
static char *capture_end(void)
{
    fflush(stdout);
    dup2(saved_fd, 1);
    close(saved_fd);
    long n = ftell(capture_file);
    if (n < 0) n = lseek(fileno(capture_file), 0, SEEK_END);
    char *s = calloc((size_t)n + 1, 1);
    rewind(capture_file);
    lseek(fileno(capture_file), 0, SEEK_SET);
    size_t got = fread(s, 1, (size_t)n, capture_file);
    s[got] = 0;
    fclose(capture_file);
    return s;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts the lines of s in place (work-groups print in any order). */
static size_t sorted_lines(char *s, char **lines, size_t max)
{
    size_t n = 0;
    for (char *t = strtok(s, "\n"); t && n < max; t = strtok(NULL, "\n")) lines[n++] = t;
    qsort(lines, n, sizeof *lines, cmp_str);
    return n;
}

static const char *src =
    "kernel void p(global int *ret, global const float4 *f) {\n"
    "  int i = (int)get_global_id(0);\n"
    "  ret[i] = printf(\"wi %d: %5.2f|%v4hlf|%s|%v2hhd|%ld|%#x|%-4s|100%%\\n\",\n"
    "                  i, (float)i * 1.5f, f[i], \"str\", (char2)((char)i, (char)-i),\n"
    "                  (long)i << 33, 255u + (uint)i, \"ab\");\n"
    "  printf(\"%v3hu;%.3v2lf;%e;%c\\n\", (ushort3)(i, 2, 65535), (double2)(0.5, -i), 1e10f, 'A' + i);\n"
    "}\n";

TEST(ints_floats_vectors_strings)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, src, "");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "p", &e);
    REQUIRE(k && !e, "kernel: %s", h_err(e));
    enum { N = 8 };
    cl_float f[N * 4];
    for (int i = 0; i < N * 4; i++) f[i] = (float)i * 0.25f - 1.0f;
    cl_mem ret = clCreateBuffer(c, CL_MEM_READ_WRITE, N * 4, NULL, &e);
    cl_mem fb = clCreateBuffer(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof f, f, &e);
    CHECK_OK(clSetKernelArg(k, 0, sizeof ret, &ret));
    CHECK_OK(clSetKernelArg(k, 1, sizeof fb, &fb));
    size_t g = N, l = 2;
    REQUIRE(capture_begin(), "cannot redirect stdout");
    e = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
    cl_int fe = clFinish(q);
    char *out = capture_end();
    CHECK_OK(e);
    CHECK_OK(fe);
    cl_int r[N];
    CHECK_OK(clEnqueueReadBuffer(q, ret, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL));
    for (int i = 0; i < N; i++) CHECK(r[i] == 0, "printf returned %d in work-item %d", r[i], i);

    /* The expected text, from the host's printf. */
    char want[4096] = {0};
    size_t at = 0;
    for (int i = 0; i < N; i++) {
        const float *v = f + 4 * i;
        at += (size_t)snprintf(want + at, sizeof want - at,
                               "wi %d: %5.2f|%f,%f,%f,%f|%s|%hhd,%hhd|%ld|%#x|%-4s|100%%\n", i,
                               (double)((float)i * 1.5f), v[0], v[1], v[2], v[3], "str",
                               (char)i, (char)-i, (long)i << 33, 255u + (unsigned)i, "ab");
        at += (size_t)snprintf(want + at, sizeof want - at, "%hu,%hu,%hu;%.3f,%.3f;%e;%c\n",
                               (unsigned short)i, (unsigned short)2, (unsigned short)65535, 0.5,
                               (double)-i, (double)1e10f, 'A' + i);
    }
    char *got_l[64], *want_l[64];
    char *got_copy = strdup(out);
    size_t ng = sorted_lines(got_copy, got_l, 64), nw = sorted_lines(want, want_l, 64);
    CHECK(ng == nw, "%zu lines printed, expected %zu:\n%s", ng, nw, out);
    for (size_t i = 0; i < ng && i < nw; i++)
        CHECK(strcmp(got_l[i], want_l[i]) == 0, "line \"%s\", expected \"%s\"", got_l[i],
              want_l[i]);
    free(got_copy);
    free(out);
    clReleaseMemObject(ret);
    clReleaseMemObject(fb);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

static const char *barrier_src =
    "kernel void b(local int *s) {\n"
    "  int i = (int)get_local_id(0);\n"
    "  s[i] = i * 10;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int n = (int)get_local_size(0);\n"
    "  printf(\"group %d item %d sees %d\\n\", (int)get_group_id(0), i, s[(i + 1) % n]);\n"
    "}\n";

TEST(printf_after_barrier_every_work_item_once)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, barrier_src, "");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "b", &e);
    REQUIRE(k && !e, "kernel: %s", h_err(e));
    CHECK_OK(clSetKernelArg(k, 0, 4 * 4, NULL));
    size_t g = 12, l = 4;
    REQUIRE(capture_begin(), "cannot redirect stdout");
    e = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
    cl_int fe = clFinish(q);
    char *out = capture_end();
    CHECK_OK(e);
    CHECK_OK(fe);
    char want[2048] = {0};
    size_t at = 0;
    for (int grp = 0; grp < 3; grp++)
        for (int i = 0; i < 4; i++)
            at += (size_t)snprintf(want + at, sizeof want - at, "group %d item %d sees %d\n", grp,
                                   i, ((i + 1) % 4) * 10);
    char *got_l[64], *want_l[64];
    char *got_copy = strdup(out);
    size_t ng = sorted_lines(got_copy, got_l, 64), nw = sorted_lines(want, want_l, 64);
    CHECK(ng == nw, "%zu lines printed, expected %zu:\n%s", ng, nw, out);
    for (size_t i = 0; i < ng && i < nw; i++)
        CHECK(strcmp(got_l[i], want_l[i]) == 0, "line \"%s\", expected \"%s\"", got_l[i],
              want_l[i]);
    free(got_copy);
    free(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* Wide vectors are passed in memory, narrow ones in registers: every
 * width and element type reaches the formatter intact. */
static const char *wide_src =
    "kernel void w(global const float *f) {\n"
    "  float16 a = vload16(0, f);\n"
    "  double16 d = convert_double16(a);\n"
    "  printf(\"%v8hlf|%v16hhd|%v16lg|%v4hlf|%v3hlx|%d\\n\", a.lo, convert_char16(a),\n"
    "         d, (float4)(1.0f, 0.5f, -2.0f, 8.0f), (uint3)(1, 2, 0xffffffffu), 42);\n"
    "  printf(\"%v2hhd|%v2hld|%v8hd|%v2hlf|%s\\n\", (char2)(-1, 1), (int2)(-7, 7),\n"
    "         convert_short8(a.hi), a.s01, \"end\");\n"
    "}\n";

TEST(every_vector_width)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, wide_src, "");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "w", &e);
    REQUIRE(k && !e, "kernel: %s", h_err(e));
    cl_float f[16];
    for (int i = 0; i < 16; i++) f[i] = (float)i - 4.5f;
    cl_mem fb = clCreateBuffer(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof f, f, &e);
    CHECK_OK(clSetKernelArg(k, 0, sizeof fb, &fb));
    size_t g = 1;
    REQUIRE(capture_begin(), "cannot redirect stdout");
    e = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL);
    cl_int fe = clFinish(q);
    char *out = capture_end();
    CHECK_OK(e);
    CHECK_OK(fe);
    char want[4096] = {0};
    size_t at = 0;
    for (int i = 0; i < 8; i++) at += (size_t)sprintf(want + at, "%s%f", i ? "," : "", f[i]);
    /* convert_char16 rounds toward zero. */
    for (int i = 0; i < 16; i++) at += (size_t)sprintf(want + at, "%s%d", i ? "," : "|", (int)f[i]);
    for (int i = 0; i < 16; i++) at += (size_t)sprintf(want + at, "%s%g", i ? "," : "|", f[i]);
    at += (size_t)sprintf(want + at, "|%f,%f,%f,%f|%x,%x,%x|%d\n", 1.0, 0.5, -2.0, 8.0, 1u, 2u,
                          0xffffffffu, 42);
    at += (size_t)sprintf(want + at, "-1,1|-7,7|");
    for (int i = 8; i < 16; i++) at += (size_t)sprintf(want + at, "%s%d", i > 8 ? "," : "", (int)f[i]);
    at += (size_t)sprintf(want + at, "|%f,%f|end\n", f[0], f[1]);
    CHECK(strcmp(out, want) == 0, "printed\n%s\nexpected\n%s", out, want);
    free(out);
    clReleaseMemObject(fb);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("printf", argc, argv);
    H_RUN(ints_floats_vectors_strings);
    H_RUN(printf_after_barrier_every_work_item_once);
    H_RUN(every_vector_width);
    return h_done();
}
