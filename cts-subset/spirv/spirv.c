/* spirv/spirv: programs from SPIR-V modules (clCreateProgramWithIL), in
 * the spirit of the Khronos test_spirv_new: the IL queries, kernels with
 * barriers, atomics of every scope, generic pointers and collective
 * functions checked against host references, specialization constants,
 * compile and link with OpenCL C objects, SPIR-V 1.4 and 1.5 instructions,
 * and malformed modules. The modules sit beside this file (kernels.cl,
 * linked.cl, spec.spvasm, newer.spvasm, odr_*.spvasm; make_modules.sh made
 * them). A device without IL (CL_DEVICE_IL_VERSION empty) skips all. */
#include "harness.h"
#include <math.h>
#include <stdlib.h>

static unsigned char *read_module(const char *name, size_t *size)
{
    char path[4096];
    const char *here = __FILE__;
    const char *slash = strrchr(here, '/');
    int dir = slash ? (int)(slash - here) : 1;
    snprintf(path, sizeof path, "%.*s/%s", dir, slash ? here : ".", name);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *bytes = malloc(n > 0 ? (size_t)n : 1);
    *size = fread(bytes, 1, (size_t)n, f);
    fclose(f);
    return bytes;
}

static int has_il(void)
{
    char *v = h_device_string(h_device(), CL_DEVICE_IL_VERSION);
    int yes = v && strstr(v, "SPIR-V_1.0");
    free(v);
    return yes;
}

#define NEED_IL() \
    do { if (!has_il()) { h_skip("no SPIR-V (CL_DEVICE_IL_VERSION)"); return; } } while (0)

/* The program of module `name` (NULL on failure). */
static cl_program create_module(cl_context c, const char *name)
{
    size_t size = 0;
    unsigned char *il = read_module(name, &size);
    if (!il) {
        h_fail_at(__FILE__, __LINE__, "cannot read %s", name);
        return NULL;
    }
    cl_int e;
    cl_program p = clCreateProgramWithIL(c, il, size, &e);
    free(il);
    if (!p || e) {
        h_fail_at(__FILE__, __LINE__, "clCreateProgramWithIL(%s): %s", name, h_err(e));
        return NULL;
    }
    return p;
}

/* The program of module `name`, built (NULL on failure, with the log). */
static cl_program build_module(cl_context c, const char *name)
{
    cl_program p = create_module(c, name);
    if (!p) return NULL;
    cl_device_id d = h_device();
    cl_int e = clBuildProgram(p, 1, &d, "", NULL, NULL);
    if (e) {
        char log[8192] = {0};
        clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        h_fail_at(__FILE__, __LINE__, "building %s: %s\n%s", name, h_err(e), log);
        clReleaseProgram(p);
        return NULL;
    }
    return p;
}

TEST(queries)
{
    NEED_IL();
    cl_device_id d = h_device();
    char *v = h_device_string(d, CL_DEVICE_IL_VERSION);
    CHECK(v && strstr(v, "SPIR-V_1.0") && strstr(v, "SPIR-V_1.5"), "IL version '%s'", v);
    free(v);
    char *ext = h_device_string(d, CL_DEVICE_EXTENSIONS);
    CHECK(ext && strstr(ext, "cl_khr_il_program"), "extensions lack cl_khr_il_program");
    free(ext);
    cl_name_version ils[16];
    size_t size = 0;
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_ILS_WITH_VERSION, sizeof ils, ils, &size));
    CHECK(size >= 6 * sizeof ils[0], "%zu ILs", size / sizeof ils[0]);
    for (size_t i = 0; i < size / sizeof ils[0]; i++)
        CHECK(strcmp(ils[i].name, "SPIR-V") == 0 && CL_VERSION_MAJOR(ils[i].version) == 1,
              "IL %zu: %s %u", i, ils[i].name, ils[i].version);
    CHECK(clGetExtensionFunctionAddressForPlatform(h_platform(), "clCreateProgramWithILKHR"),
          "no clCreateProgramWithILKHR");
}

#define CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR 0x12B9
#define CL_DEVICE_SPIRV_EXTENSIONS_KHR 0x12BA
#define CL_DEVICE_SPIRV_CAPABILITIES_KHR 0x12BB

/* Whether the list of `n` names has `name`. */
static int has_name(const char **names, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (names[i] && strcmp(names[i], name) == 0) return 1;
    return 0;
}

/* cl_khr_spirv_queries: OpenCL.std, the SPIR-V extensions of the OpenCL
 * extensions the device reports (what the Khronos CTS requires of them)
 * and the capabilities of the modules here, among them the ones every
 * device reading SPIR-V must accept. */
TEST(spirv_queries)
{
    NEED_IL();
    cl_device_id d = h_device();
    char *ext = h_device_string(d, CL_DEVICE_EXTENSIONS);
    int yes = ext && strstr(ext, "cl_khr_spirv_queries");
    if (!yes) {
        free(ext);
        h_skip("no cl_khr_spirv_queries");
        return;
    }
    const char *sets[16], *exts[64];
    cl_uint caps[128];
    size_t nsets = 0, nexts = 0, ncaps = 0;
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR, sizeof sets, sets,
                             &nsets));
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_SPIRV_EXTENSIONS_KHR, sizeof exts, exts, &nexts));
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_SPIRV_CAPABILITIES_KHR, sizeof caps, caps, &ncaps));
    nsets /= sizeof sets[0];
    nexts /= sizeof exts[0];
    ncaps /= sizeof caps[0];
    CHECK(has_name(sets, nsets, "OpenCL.std"), "no OpenCL.std among %zu sets", nsets);
    static const struct { const char *cl, *spv; } PAIRS[] = {
        {"cl_khr_expect_assume", "SPV_KHR_expect_assume"},
        {"cl_khr_extended_bit_ops", "SPV_KHR_bit_instructions"},
        {"cl_khr_integer_dot_product", "SPV_KHR_integer_dot_product"},
        {"cl_khr_spirv_linkonce_odr", "SPV_KHR_linkonce_odr"},
        {"cl_khr_subgroup_rotate", "SPV_KHR_subgroup_rotate"},
        {"cl_ext_float_atomics", "SPV_EXT_shader_atomic_float_add"},
        {"cl_ext_float_atomics", "SPV_EXT_shader_atomic_float_min_max"},
    };
    for (size_t i = 0; i < sizeof PAIRS / sizeof PAIRS[0]; i++)
        if (strstr(ext, PAIRS[i].cl))
            CHECK(has_name(exts, nexts, PAIRS[i].spv), "%s without %s", PAIRS[i].cl, PAIRS[i].spv);
    free(ext);
    /* Addresses, Linkage, Kernel, Vector16, Float16Buffer, Int16, Int8,
     * Int64, GenericPointer, Groups, and those of extensions.spvasm. */
    static const cl_uint NEEDED[] = {4, 5, 6, 7, 8, 22, 39, 11, 38, 18, 6025, 6017, 6018, 6019,
                                     65, 66, 67, 6026, 6400, 6033, 5612};
    for (size_t i = 0; i < sizeof NEEDED / sizeof NEEDED[0]; i++) {
        int found = 0;
        for (size_t j = 0; j < ncaps; j++) found |= caps[j] == NEEDED[i];
        CHECK(found, "capability %u missing", NEEDED[i]);
    }
}

/* The SPIR-V extensions' instructions (extensions.spvasm) against host
 * references, on groups of 16 work-items. */
TEST(spirv_extensions)
{
    NEED_IL();
    enum { N = 64, L = 16, OUTS = 16 };
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = build_module(c, "extensions.spv");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "extensions", &e);
    REQUIRE(k && !e, "clCreateKernel: %s", h_err(e));
    cl_uint in[N];
    cl_int out[OUTS * N];
    cl_float fout[3] = {0.0f, -1.0f, 1e9f};
    for (int i = 0; i < N; i++) in[i] = (cl_uint)i * 2654435761u ^ ((cl_uint)i << 7);
    cl_mem mi = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof in, in, &e);
    cl_mem mo = clCreateBuffer(c, CL_MEM_WRITE_ONLY, sizeof out, NULL, &e);
    cl_mem mf = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof fout, fout, &e);
    clSetKernelArg(k, 0, sizeof mo, &mo);
    clSetKernelArg(k, 1, sizeof mi, &mi);
    clSetKernelArg(k, 2, sizeof mf, &mf);
    size_t g = N, l = L;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, mf, CL_TRUE, 0, sizeof fout, fout, 0, NULL, NULL));
    float sum = 0.0f, max = -1.0f, min = 1e9f;
    for (int i = 0; i < N && !h_failed(); i++) {
        const cl_int *o = out + OUTS * i;
        cl_uint x = in[i];
        int lid = o[14], n = o[15], first = i - lid, group = i - i % L;
        REQUIRE(n > 0 && lid >= 0 && lid < n && L % n == 0, "%d: sub-group %d of %d", i, lid, n);
        cl_int want[14];
        want[0] = (cl_int)((x & ~(0xffu << 4)) | (0x5au << 4));
        want[1] = ((cl_int)(x << 27)) >> 29;
        want[2] = (cl_int)((x >> 2) & 7);
        cl_uint r = 0;
        for (int b = 0; b < 32; b++) r |= ((x >> b) & 1u) << (31 - b);
        want[3] = (cl_int)r;
        int udot = 0, sdot = 0, sudot = 0;
        for (int b = 0; b < 4; b++) {
            cl_uchar u = (cl_uchar)(x >> (8 * b));
            udot += u * u;
            sdot += (cl_char)u * (cl_char)u;
            sudot += (cl_char)u * u;
        }
        want[4] = udot;
        want[5] = (cl_char)(x & 0xff) * 0x5a;
        want[6] = (cl_int)in[first + (lid + 1) % n];
        want[7] = (cl_int)in[first];
        want[8] = lid ? (cl_int)in[i - 1] : o[8];
        cl_uint cluster = 0;
        for (int j = 0; j < 4; j++) cluster += in[first + (lid / 4) * 4 + j];
        want[9] = (cl_int)cluster;
        want[10] = 1 << L;
        cl_uint scan = 0;
        for (int j = group; j <= i; j++) scan ^= in[j];
        want[11] = (cl_int)scan;
        long long acc = 0x7ffffff0LL + sdot;
        want[12] = acc > 0x7fffffff ? 0x7fffffff : (cl_int)acc;
        want[13] = sudot;
        for (int j = 0; j < 14 && !h_failed(); j++)
            CHECK(o[j] == want[j], "work-item %d, value %d: %d, not %d", i, j, o[j], want[j]);
        float xf = (float)(x & 1023);
        sum += xf;
        max = xf > max ? xf : max;
        min = xf < min ? xf : min;
    }
    CHECK(fout[0] == sum && fout[1] == max && fout[2] == min, "atomics %g %g %g, not %g %g %g",
          fout[0], fout[1], fout[2], sum, max, min);
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    clReleaseMemObject(mf);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* CL_PROGRAM_IL gives the module back; the source is empty. */
/* OpExecutionMode SubgroupSize 32 (sizes.spvasm): the kernel reports the
 * size it requires and runs with sub-groups of 32, where the device lists
 * that size (cl_intel_required_subgroup_size). */
TEST(spirv_sub_group_size)
{
    NEED_IL();
    char *ext = h_device_string(h_device(), CL_DEVICE_EXTENSIONS);
    int yes = ext && strstr(ext, "cl_intel_required_subgroup_size");
    free(ext);
    size_t sizes[16], bytes = 0;
    if (yes)
        CHECK_OK(clGetDeviceInfo(h_device(), CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof sizes, sizes,
                                 &bytes));
    int listed = 0;
    for (size_t i = 0; i < bytes / sizeof(size_t); i++) listed |= sizes[i] == 32;
    if (!listed) {
        h_skip("sub-groups of 32 not listed");
        return;
    }
    enum { N = 96, L = 48 };
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = build_module(c, "sizes.spv");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "wide", &e);
    REQUIRE(k && !e, "clCreateKernel: %s", h_err(e));
    size_t compiled = 0;
    CHECK_OK(clGetKernelSubGroupInfo(k, h_device(), CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0, NULL,
                                     sizeof compiled, &compiled, NULL));
    CHECK(compiled == 32, "CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL %zu", compiled);
    cl_uint out[N];
    cl_mem mo = clCreateBuffer(c, CL_MEM_WRITE_ONLY, sizeof out, NULL, &e);
    clSetKernelArg(k, 0, sizeof mo, &mo);
    size_t g = N, l = L;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < N && !h_failed(); i++) {
        /* Groups of 48: a sub-group of 32, then one of 16. */
        cl_uint lid = i % L, n = lid < 32 ? 32 : 16, want = lid % 32 | n << 8 | n << 16;
        CHECK(out[i] == want, "%d: %#x, not %#x", i, out[i], want);
    }
    clReleaseMemObject(mo);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(program_il)
{
    NEED_IL();
    cl_context c = h_context();
    size_t size = 0;
    unsigned char *il = read_module("kernels.spv", &size);
    REQUIRE(il && size > 20, "cannot read kernels.spv");
    cl_int e;
    cl_program p = clCreateProgramWithIL(c, il, size, &e);
    REQUIRE(p && !e, "clCreateProgramWithIL: %s", h_err(e));
    size_t back_size = 0;
    CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &back_size));
    CHECK(back_size == size, "CL_PROGRAM_IL: %zu bytes, not %zu", back_size, size);
    unsigned char *back = malloc(size);
    CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_IL, size, back, NULL));
    CHECK(memcmp(back, il, size) == 0, "CL_PROGRAM_IL differs from the module");
    size_t source_size = 0;
    CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_SOURCE, 0, NULL, &source_size));
    CHECK(source_size == 1, "CL_PROGRAM_SOURCE of %zu bytes", source_size);
    cl_device_id d = h_device();
    CHECK_OK(clBuildProgram(p, 1, &d, "", NULL, NULL));
    char names[256] = {0};
    CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL));
    CHECK(strstr(names, "math_local") && strstr(names, "atomics") &&
              strstr(names, "generic_pointers") && strstr(names, "collectives"),
          "kernel names '%s'", names);
    free(back);
    free(il);
    clReleaseProgram(p);
    clReleaseContext(c);
}

TEST(math_local)
{
    NEED_IL();
    enum { N = 256, L = 64 };
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = build_module(c, "kernels.spv");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "math_local", &e);
    REQUIRE(k && !e, "clCreateKernel: %s", h_err(e));
    float in[N], b[N], out[N];
    for (int i = 0; i < N; i++) {
        in[i] = (float)i;
        b[i] = (float)(i - N / 2) / 37.0f;
    }
    cl_mem min = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof in, in, &e);
    cl_mem mb = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof b, b, &e);
    cl_mem mout = clCreateBuffer(c, CL_MEM_WRITE_ONLY, sizeof out, NULL, &e);
    clSetKernelArg(k, 0, sizeof min, &min);
    clSetKernelArg(k, 1, sizeof mb, &mb);
    clSetKernelArg(k, 2, sizeof mout, &mout);
    clSetKernelArg(k, 3, L * sizeof(float), NULL);
    size_t g = N, l = L;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, mout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < N && !h_failed(); i++) {
        int mirror = (i / L) * L + (L - 1 - i % L);
        double x = b[i];
        double want = in[mirror] + sqrt(fabs(x)) + sin(x) + exp(-x * x) + (x * x + 1.0) +
                      pow(fabs(x), 1.5);
        CHECK(fabs(out[i] - want) <= 1e-5 * fabs(want) + 1e-5, "out[%d] = %.9g, not %.9g", i,
              out[i], want);
    }
    clReleaseMemObject(min);
    clReleaseMemObject(mb);
    clReleaseMemObject(mout);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* Builtins of vectors the host's C ABI passes otherwise than SPIR-V's calls
 * do (kernels.cl, vector_abi): in memory when wider than 16 bytes, as an
 * integer or a double when 8 bytes or less. */
TEST(vector_abi)
{
    NEED_IL();
    enum { N = 64 };
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = build_module(c, "kernels.spv");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "vector_abi", &e);
    REQUIRE(k && !e, "clCreateKernel: %s", h_err(e));
    double d[4 * N], out[16 * N];
    float f[2 * N];
    cl_char ch[2 * N];
    for (int i = 0; i < 4 * N; i++)
        d[i] = i % 7 == 3 ? (i % 2 ? -INFINITY : INFINITY) : (double)(i - 2 * N) / 3.0;
    for (int i = 0; i < 2 * N; i++) {
        f[i] = (float)(i - N) / 5.0f;
        ch[i] = (cl_char)(i * 37 - 128);
    }
    cl_mem md = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof d, d, &e);
    cl_mem mf = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof f, f, &e);
    cl_mem mc = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof ch, ch, &e);
    cl_mem mout = clCreateBuffer(c, CL_MEM_WRITE_ONLY, sizeof out, NULL, &e);
    clSetKernelArg(k, 0, sizeof md, &md);
    clSetKernelArg(k, 1, sizeof mf, &mf);
    clSetKernelArg(k, 2, sizeof mc, &mc);
    clSetKernelArg(k, 3, sizeof mout, &mout);
    size_t g = N;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, mout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < N && !h_failed(); i++) {
        const double *o = out + 16 * i;
        double want[16];
        for (int j = 0; j < 4; j++) {
            double x = d[4 * i + j];
            want[j] = isinf(x) ? -1.0 : 0.0;
            want[4 + j] = x * (180.0 / M_PI);
        }
        for (int j = 0; j < 2; j++) {
            want[8 + j] = f[2 * i + j] * (M_PI / 180.0);
            want[10 + j] = abs(ch[2 * i + j]);
        }
        float y0 = f[2 * i], y1 = f[2 * i + 1];
        want[12] = fmax(y0, 0.5);
        want[13] = fmax(y1 * 2.0f, 0.5);
        want[14] = fmax(-y1 * 2.0f, 0.5);
        want[15] = 1.0;
        for (int j = 0; j < 16 && !h_failed(); j++) {
            int same = isinf(want[j]) ? o[j] == want[j]
                                      : fabs(o[j] - want[j]) <= 1e-6 * fabs(want[j]) + 1e-12;
            CHECK(same, "work-item %d, value %d: %.9g, not %.9g", i, j, o[j], want[j]);
        }
    }
    clReleaseMemObject(md);
    clReleaseMemObject(mf);
    clReleaseMemObject(mc);
    clReleaseMemObject(mout);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(atomics)
{
    NEED_IL();
    enum { N = 1024, L = 64 };
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = build_module(c, "kernels.spv");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "atomics", &e);
    REQUIRE(k && !e, "clCreateKernel: %s", h_err(e));
    cl_int counts[6] = {0}, legacy[3] = {0};
    cl_uint maxima[1] = {0};
    cl_mem mc = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof counts, counts, &e);
    cl_mem mm = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof maxima, maxima, &e);
    cl_mem ml = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof legacy, legacy, &e);
    clSetKernelArg(k, 0, sizeof mc, &mc);
    clSetKernelArg(k, 1, sizeof mm, &mm);
    clSetKernelArg(k, 2, sizeof ml, &ml);
    size_t g = N, l = L;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, mc, CL_TRUE, 0, sizeof counts, counts, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, mm, CL_TRUE, 0, sizeof maxima, maxima, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, ml, CL_TRUE, 0, sizeof legacy, legacy, 0, NULL, NULL));
    for (int i = 0; i < 5; i++)
        CHECK(counts[i] == N, "counts[%d] = %d, not %d", i, counts[i], N);
    CHECK(counts[5] == N / L, "groups counted %d, not %d", counts[5], N / L);
    CHECK(maxima[0] == N - 1, "max %u", maxima[0]);
    CHECK(legacy[0] == N && legacy[1] == 2 * N && legacy[2] == N - 1, "legacy %d %d %d",
          legacy[0], legacy[1], legacy[2]);
    clReleaseMemObject(mc);
    clReleaseMemObject(mm);
    clReleaseMemObject(ml);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(generic_pointers)
{
    NEED_IL();
    enum { N = 128, L = 32 };
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = build_module(c, "kernels.spv");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "generic_pointers", &e);
    REQUIRE(k && !e, "clCreateKernel: %s", h_err(e));
    /* Two more elements than work-items: sum3 reads ahead. */
    cl_int data[N + 2], out[N];
    for (int i = 0; i < N + 2; i++) data[i] = i * 3 + 1;
    cl_mem md = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof data, data, &e);
    cl_mem mo = clCreateBuffer(c, CL_MEM_WRITE_ONLY, sizeof out, NULL, &e);
    clSetKernelArg(k, 0, sizeof md, &md);
    clSetKernelArg(k, 1, sizeof mo, &mo);
    /* Only even local ids read shared[l..l+2]: keep them inside the group. */
    size_t g = N, l = L;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < N && !h_failed(); i++) {
        int local_id = i % L, want;
        if (local_id % 2)
            want = (data[i] + data[i + 1] + data[i + 2]) * 10 + 1;
        else if (local_id + 2 < L)
            want = 2 * (data[i] + data[i + 1] + data[i + 2]) * 10 + 2;
        else
            continue; /* reads shared[] past this group's writes */
        CHECK(out[i] == want, "out[%d] = %d, not %d", i, out[i], want);
    }
    clReleaseMemObject(md);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

TEST(collectives)
{
    NEED_IL();
    enum { N = 256, L = 64 };
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = build_module(c, "kernels.spv");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "collectives", &e);
    REQUIRE(k && !e, "clCreateKernel: %s", h_err(e));
    cl_int in[N], out[4 * N];
    for (int i = 0; i < N; i++) in[i] = (i * 37) % 101;
    cl_mem mi = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof in, in, &e);
    cl_mem mo = clCreateBuffer(c, CL_MEM_WRITE_ONLY, sizeof out, NULL, &e);
    clSetKernelArg(k, 0, sizeof mi, &mi);
    clSetKernelArg(k, 1, sizeof mo, &mo);
    size_t g = N, l = L;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int grp = 0; grp < N / L; grp++) {
        int sum = 0, max = -1;
        for (int i = grp * L; i < (grp + 1) * L; i++) sum += in[i];
        for (int i = grp * L; i < (grp + 1) * L && !h_failed(); i++) {
            max = in[i] > max ? in[i] : max;
            CHECK(out[4 * i] == sum, "reduce[%d] = %d, not %d", i, out[4 * i], sum);
            CHECK(out[4 * i + 1] == max, "scan max[%d] = %d, not %d", i, out[4 * i + 1], max);
            CHECK(out[4 * i + 2] == in[grp * L + 3], "broadcast[%d] = %d", i, out[4 * i + 2]);
            CHECK(out[4 * i + 3] == 1, "sub-group sum != size at %d", i);
        }
    }
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* kernels.cl's strided_reduction over a 2 x 3 x W array of floats: each
 * group sums a chunk of L * PER elements of its row, which the kernel finds
 * by taking the row's index apart over the indexer's dimensions. */
TEST(strided_reduction)
{
    NEED_IL();
    enum { L = 64, PER = 5, CHUNKS = 3, ROWS = 6, W = L * PER * CHUNKS, GROUPS = ROWS * CHUNKS };
    struct {
        cl_long offset, shape[2], stride[2];
        cl_int nd, pad;
    } ix = {0, {2, 3}, {3 * W, W}, 2, 0};
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = build_module(c, "kernels.spv");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "strided_reduction", &e);
    REQUIRE(k && !e, "clCreateKernel: %s", h_err(e));
    static float in[ROWS * W], out[GROUPS + GROUPS * L];
    for (int i = 0; i < ROWS * W; i++) in[i] = (float)(i % 7) + 0.5f;
    cl_mem mi = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof in, in, &e);
    cl_mem mo = clCreateBuffer(c, CL_MEM_WRITE_ONLY, sizeof out, NULL, &e);
    cl_long per = PER, chunks = CHUNKS;
    clSetKernelArg(k, 0, sizeof mi, &mi);
    clSetKernelArg(k, 1, sizeof mo, &mo);
    CHECK_OK(clSetKernelArg(k, 2, sizeof ix, &ix));
    clSetKernelArg(k, 3, sizeof per, &per);
    clSetKernelArg(k, 4, sizeof chunks, &chunks);
    size_t g = GROUPS * L, l = L;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int grp = 0; grp < GROUPS && !h_failed(); grp++) {
        int row = grp / CHUNKS, chunk = grp % CHUNKS;
        const float *base = in + (row / 3) * 3 * W + (row % 3) * W + chunk * L * PER;
        float total = 0;
        for (int lid = 0; lid < L; lid++) {
            float own = 0;
            for (int m = 0; m < PER; m++)
                own += base[lid + m * L];
            total += own;
            float want = own * (float)(1 + lid % 4), got = out[GROUPS + grp * L + lid];
            CHECK(got == want, "work-item %d of group %d: %g, not %g", lid, grp, got, want);
        }
        CHECK(out[grp] == total, "group %d: %g, not %g", grp, out[grp], total);
    }
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* spec.spv's kernel writes its four specialization constants: defaults,
 * then values set with clSetProgramSpecializationConstant. */
static void run_spec(cl_context c, cl_program p, cl_long out[4])
{
    cl_int e;
    cl_kernel k = clCreateKernel(p, "spec", &e);
    REQUIRE(k && !e, "clCreateKernel: %s", h_err(e));
    cl_command_queue q = h_queue(c, 0);
    cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE, 4 * sizeof(cl_long), NULL, &e);
    clSetKernelArg(k, 0, sizeof m, &m);
    size_t g = 1;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4 * sizeof(cl_long), out, 0, NULL, NULL));
    clReleaseMemObject(m);
    clReleaseCommandQueue(q);
    clReleaseKernel(k);
}

TEST(specialization_constants)
{
    NEED_IL();
    cl_context c = h_context();
    size_t size = 0;
    unsigned char *il = read_module("spec.spv", &size);
    REQUIRE(il, "cannot read spec.spv");
    cl_int e;
    cl_program p = clCreateProgramWithIL(c, il, size, &e);
    REQUIRE(p && !e, "clCreateProgramWithIL: %s", h_err(e));
    cl_device_id d = h_device();
    CHECK_OK(clBuildProgram(p, 1, &d, "", NULL, NULL));
    cl_long out[4] = {0};
    run_spec(c, p, out);
    CHECK(out[0] == 0 && out[1] == 7 && out[2] == 2 && out[3] == 1000000000000LL,
          "defaults: %lld %lld %lld %lld", (long long)out[0], (long long)out[1],
          (long long)out[2], (long long)out[3]);
    cl_uchar yes = 1, small = 0xfe;
    cl_float scale = 3.0f;
    cl_long big = -5;
    CHECK_OK(clSetProgramSpecializationConstant(p, 1, 1, &yes));
    CHECK_OK(clSetProgramSpecializationConstant(p, 2, 1, &small));
    CHECK_OK(clSetProgramSpecializationConstant(p, 3, 4, &scale));
    CHECK_OK(clSetProgramSpecializationConstant(p, 4, 8, &big));
    CHECK_ERR(clSetProgramSpecializationConstant(p, 9, 4, &scale), CL_INVALID_SPEC_ID);
    CHECK_ERR(clSetProgramSpecializationConstant(p, 3, 8, &big), CL_INVALID_VALUE);
    CHECK_ERR(clSetProgramSpecializationConstant(p, 3, 4, NULL), CL_INVALID_VALUE);
    CHECK_OK(clBuildProgram(p, 1, &d, "", NULL, NULL));
    run_spec(c, p, out);
    /* The char is OpSConvert'ed: 0xfe is -2. */
    CHECK(out[0] == 1 && out[1] == -2 && out[2] == 9 && out[3] == -5,
          "set: %lld %lld %lld %lld", (long long)out[0], (long long)out[1],
          (long long)out[2], (long long)out[3]);
    /* Only programs of IL have specialization constants. */
    cl_program src = h_build(c, "kernel void k(void) {}", "");
    CHECK_ERR(clSetProgramSpecializationConstant(src, 1, 1, &yes), CL_INVALID_PROGRAM);
    clReleaseProgram(src);
    clReleaseProgram(p);
    free(il);
    clReleaseContext(c);
}

/* Instructions of SPIR-V 1.4 and 1.5 the translator cannot read
 * (newer.spvasm says which), rewritten by ferrocl before it reads them. */
TEST(newer_instructions)
{
    NEED_IL();
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = build_module(c, "newer.spv");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "newer", &e);
    REQUIRE(k && !e, "clCreateKernel: %s", h_err(e));
    cl_int in[2] = {11, 22}, out[11] = {0};
    cl_mem mi = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof in, in, &e);
    cl_mem mo = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof out, out, &e);
    clSetKernelArg(k, 0, sizeof mo, &mo);
    clSetKernelArg(k, 1, sizeof mi, &mi);
    size_t g = 1;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    cl_int want[11] = {1, 1, 3, 11, 22, 11, 11, 11, 22, 11, 22};
    for (int i = 0; i < 11; i++)
        CHECK(out[i] == want[i], "out[%d] = %d, not %d", i, out[i], want[i]);
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* clCompileProgram of a module, linked with an object compiled from
 * OpenCL C that defines the function the module imports. */
TEST(link_with_source)
{
    NEED_IL();
    enum { N = 64 };
    cl_context c = h_context();
    cl_device_id d = h_device();
    size_t size = 0;
    unsigned char *il = read_module("linked.spv", &size);
    REQUIRE(il, "cannot read linked.spv");
    cl_int e;
    cl_program pil = clCreateProgramWithIL(c, il, size, &e);
    REQUIRE(pil && !e, "clCreateProgramWithIL: %s", h_err(e));
    CHECK_OK(clCompileProgram(pil, 1, &d, "", 0, NULL, NULL, NULL, NULL));
    const char *src = "int linked_helper(int x) { return 3 * x + 1; }";
    cl_program psrc = clCreateProgramWithSource(c, 1, &src, NULL, &e);
    CHECK_OK(clCompileProgram(psrc, 1, &d, "", 0, NULL, NULL, NULL, NULL));
    cl_program both[2] = {pil, psrc};
    cl_program linked = clLinkProgram(c, 1, &d, "", 2, both, NULL, NULL, &e);
    REQUIRE(linked && !e, "clLinkProgram: %s", h_err(e));
    cl_kernel k = clCreateKernel(linked, "calls_linked", &e);
    REQUIRE(k && !e, "clCreateKernel: %s", h_err(e));
    cl_command_queue q = h_queue(c, 0);
    cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE, N * sizeof(cl_int), NULL, &e);
    clSetKernelArg(k, 0, sizeof m, &m);
    size_t g = N;
    cl_int out[N];
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < N && !h_failed(); i++)
        CHECK(out[i] == 3 * i + 1, "out[%d] = %d", i, out[i]);
    clReleaseMemObject(m);
    clReleaseCommandQueue(q);
    clReleaseKernel(k);
    clReleaseProgram(linked);
    clReleaseProgram(psrc);
    clReleaseProgram(pil);
    free(il);
    clReleaseContext(c);
}

/* The IL program of module `name`, compiled (clCompileProgram). */
static cl_program compile_module(cl_context c, const char *name)
{
    cl_program p = create_module(c, name);
    if (!p) return NULL;
    cl_device_id d = h_device();
    cl_int e = clCompileProgram(p, 1, &d, "", 0, NULL, NULL, NULL, NULL);
    if (e) h_fail_at(__FILE__, __LINE__, "compiling %s: %s", name, h_err(e));
    return p;
}

/* cl_khr_spirv_linkonce_odr: a LinkOnceODR function of one module that
 * only a module linked after it calls, and before it. */
TEST(linkonce_odr)
{
    NEED_IL();
    char *ext = h_device_string(h_device(), CL_DEVICE_EXTENSIONS);
    int yes = ext && strstr(ext, "cl_khr_spirv_linkonce_odr");
    free(ext);
    if (!yes) { h_skip("no cl_khr_spirv_linkonce_odr"); return; }
    enum { N = 32 };
    cl_context c = h_context();
    cl_device_id d = h_device();
    cl_program lib = compile_module(c, "odr_lib.spv");
    cl_program main_ = compile_module(c, "odr_main.spv");
    REQUIRE(lib && main_, "compile");
    cl_program orders[2][2] = {{lib, main_}, {main_, lib}};
    for (int o = 0; o < 2; o++) {
        cl_int e;
        cl_program linked = clLinkProgram(c, 1, &d, "", 2, orders[o], NULL, NULL, &e);
        CHECK(linked && !e, "order %d: clLinkProgram: %s", o, h_err(e));
        if (!linked) continue;
        cl_kernel k = clCreateKernel(linked, "triples", &e);
        cl_command_queue q = h_queue(c, 0);
        cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE, N * sizeof(cl_uint), NULL, &e);
        clSetKernelArg(k, 0, sizeof m, &m);
        size_t g = N;
        cl_uint out[N];
        CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        for (cl_uint i = 0; i < N; i++) CHECK(out[i] == 3 * i, "order %d: out[%u] = %u", o, i, out[i]);
        clReleaseMemObject(m);
        clReleaseCommandQueue(q);
        clReleaseKernel(k);
        clReleaseProgram(linked);
    }
    clReleaseProgram(lib);
    clReleaseProgram(main_);
    clReleaseContext(c);
}

/* What is not a module is refused at creation; a module the translator
 * cannot read fails its build with a log. Nothing crashes. */
TEST(malformed_modules)
{
    NEED_IL();
    cl_context c = h_context();
    cl_device_id d = h_device();
    size_t size = 0;
    unsigned char *il = read_module("kernels.spv", &size);
    REQUIRE(il && size > 64, "cannot read kernels.spv");
    cl_int e = 0;
    cl_program p;
    CHECK_CREATE_FAILS(clCreateProgramWithIL(c, il, 0, &e), e, CL_INVALID_VALUE);
    CHECK_CREATE_FAILS(clCreateProgramWithIL(c, NULL, size, &e), e, CL_INVALID_VALUE);
    CHECK_CREATE_FAILS(clCreateProgramWithIL(c, il, 12, &e), e, CL_INVALID_VALUE);
    CHECK_CREATE_FAILS(clCreateProgramWithIL(c, il, size - 2, &e), e, CL_INVALID_VALUE);
    /* An instruction whose word count runs past the end. */
    unsigned char *long_count = malloc(size);
    memcpy(long_count, il, size);
    long_count[22] = 0xff;
    long_count[23] = 0xff;
    CHECK_CREATE_FAILS(clCreateProgramWithIL(c, long_count, size, &e), e, CL_INVALID_VALUE);
    free(long_count);
    const char text[] = "kernel void k(global int *p) { *p = 1; }\n";
    CHECK_CREATE_FAILS(clCreateProgramWithIL(c, text, sizeof text - 1, &e), e, CL_INVALID_VALUE);
    CHECK_CREATE_FAILS(clCreateProgramWithIL(NULL, il, size, &e), e, CL_INVALID_CONTEXT);

    /* Well-formed words, unreadable content: an unknown opcode after the
     * header; a SPIR-V version the device does not list. */
    struct { const char *what; unsigned char *bytes; size_t size; } bad[2];
    cl_uint garbage[8] = {0x07230203, 0x00010000, 0, 16, 0, (3u << 16) | 0xfff0u, 1, 2};
    bad[0].what = "an unknown opcode";
    bad[0].bytes = (unsigned char *)garbage;
    bad[0].size = sizeof garbage;
    unsigned char *newer = malloc(size);
    memcpy(newer, il, size);
    cl_uint v16 = 0x00010600;
    memcpy(newer + 4, &v16, 4);
    bad[1].what = "SPIR-V 1.6";
    bad[1].bytes = newer;
    bad[1].size = size;
    for (int i = 0; i < 2; i++) {
        p = clCreateProgramWithIL(c, bad[i].bytes, bad[i].size, &e);
        CHECK(p && e == CL_SUCCESS, "%s: created with %s", bad[i].what, h_err(e));
        if (!p) continue;
        CHECK_ERR(clBuildProgram(p, 1, &d, "", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
        char log[4096] = {0};
        CHECK_OK(clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL));
        CHECK(strlen(log) > 10, "%s: build log '%s'", bad[i].what, log);
        cl_build_status st = 0;
        CHECK_OK(clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL));
        CHECK(st == CL_BUILD_ERROR, "%s: status %d", bad[i].what, st);
        CHECK_CREATE_FAILS(clCreateKernel(p, "k", &e), e, CL_INVALID_PROGRAM_EXECUTABLE);
        clReleaseProgram(p);
    }
    free(newer);
    free(il);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("spirv", argc, argv);
    H_RUN(queries);
    H_RUN(program_il);
    H_RUN(spirv_queries);
    H_RUN_T(spirv_extensions, 60);
    H_RUN_T(spirv_sub_group_size, 60);
    H_RUN_T(math_local, 60);
    H_RUN_T(vector_abi, 60);
    H_RUN_T(atomics, 60);
    H_RUN_T(generic_pointers, 60);
    H_RUN_T(collectives, 60);
    H_RUN_T(strided_reduction, 60);
    H_RUN_T(specialization_constants, 60);
    H_RUN_T(newer_instructions, 60);
    H_RUN_T(link_with_source, 60);
    H_RUN_T(linkonce_odr, 60);
    H_RUN_T(malformed_modules, 60);
    return h_done();
}
