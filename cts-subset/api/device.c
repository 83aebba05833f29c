/* api/device: clGetDeviceIDs and clGetDeviceInfo for every OpenCL 3.0 query. */
#include "harness.h"

enum kind { K_UINT, K_ULONG, K_SIZE, K_BOOL, K_STR, K_PTR, K_NV, K_PART, K_SIZES, K_VER };
static const struct { cl_device_info p; const char *n; enum kind k; } params[] = {
#define P(x, k) {x, #x, k}
    P(CL_DEVICE_TYPE, K_ULONG), P(CL_DEVICE_VENDOR_ID, K_UINT),
    P(CL_DEVICE_MAX_COMPUTE_UNITS, K_UINT), P(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, K_UINT),
    P(CL_DEVICE_MAX_WORK_ITEM_SIZES, K_SIZES), P(CL_DEVICE_MAX_WORK_GROUP_SIZE, K_SIZE),
    P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, K_UINT), P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, K_UINT),
    P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, K_UINT), P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, K_UINT),
    P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, K_UINT), P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, K_UINT),
    P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, K_UINT),
    P(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, K_UINT), P(CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, K_UINT),
    P(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, K_UINT), P(CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, K_UINT),
    P(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, K_UINT), P(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, K_UINT),
    P(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, K_UINT),
    P(CL_DEVICE_MAX_CLOCK_FREQUENCY, K_UINT), P(CL_DEVICE_ADDRESS_BITS, K_UINT),
    P(CL_DEVICE_MAX_MEM_ALLOC_SIZE, K_ULONG), P(CL_DEVICE_IMAGE_SUPPORT, K_BOOL),
    P(CL_DEVICE_MAX_READ_IMAGE_ARGS, K_UINT), P(CL_DEVICE_MAX_WRITE_IMAGE_ARGS, K_UINT),
    P(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, K_UINT), P(CL_DEVICE_IL_VERSION, K_STR),
    P(CL_DEVICE_ILS_WITH_VERSION, K_NV),
    P(CL_DEVICE_IMAGE2D_MAX_WIDTH, K_SIZE), P(CL_DEVICE_IMAGE2D_MAX_HEIGHT, K_SIZE),
    P(CL_DEVICE_IMAGE3D_MAX_WIDTH, K_SIZE), P(CL_DEVICE_IMAGE3D_MAX_HEIGHT, K_SIZE),
    P(CL_DEVICE_IMAGE3D_MAX_DEPTH, K_SIZE), P(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, K_SIZE),
    P(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, K_SIZE), P(CL_DEVICE_MAX_SAMPLERS, K_UINT),
    P(CL_DEVICE_IMAGE_PITCH_ALIGNMENT, K_UINT), P(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, K_UINT),
    P(CL_DEVICE_MAX_PIPE_ARGS, K_UINT), P(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, K_UINT),
    P(CL_DEVICE_PIPE_MAX_PACKET_SIZE, K_UINT), P(CL_DEVICE_MAX_PARAMETER_SIZE, K_SIZE),
    P(CL_DEVICE_MEM_BASE_ADDR_ALIGN, K_UINT), P(CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, K_UINT),
    P(CL_DEVICE_SINGLE_FP_CONFIG, K_ULONG), P(CL_DEVICE_DOUBLE_FP_CONFIG, K_ULONG),
    P(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, K_UINT), P(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, K_UINT),
    P(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, K_ULONG), P(CL_DEVICE_GLOBAL_MEM_SIZE, K_ULONG),
    P(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, K_ULONG), P(CL_DEVICE_MAX_CONSTANT_ARGS, K_UINT),
    P(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, K_SIZE),
    P(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, K_SIZE),
    P(CL_DEVICE_LOCAL_MEM_TYPE, K_UINT), P(CL_DEVICE_LOCAL_MEM_SIZE, K_ULONG),
    P(CL_DEVICE_ERROR_CORRECTION_SUPPORT, K_BOOL), P(CL_DEVICE_HOST_UNIFIED_MEMORY, K_BOOL),
    P(CL_DEVICE_PROFILING_TIMER_RESOLUTION, K_SIZE), P(CL_DEVICE_ENDIAN_LITTLE, K_BOOL),
    P(CL_DEVICE_AVAILABLE, K_BOOL), P(CL_DEVICE_COMPILER_AVAILABLE, K_BOOL),
    P(CL_DEVICE_LINKER_AVAILABLE, K_BOOL), P(CL_DEVICE_EXECUTION_CAPABILITIES, K_ULONG),
    P(CL_DEVICE_QUEUE_PROPERTIES, K_ULONG), P(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, K_ULONG),
    P(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, K_ULONG),
    P(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, K_UINT), P(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, K_UINT),
    P(CL_DEVICE_MAX_ON_DEVICE_QUEUES, K_UINT), P(CL_DEVICE_MAX_ON_DEVICE_EVENTS, K_UINT),
    P(CL_DEVICE_BUILT_IN_KERNELS, K_STR), P(CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, K_NV),
    P(CL_DEVICE_PLATFORM, K_PTR), P(CL_DEVICE_NAME, K_STR), P(CL_DEVICE_VENDOR, K_STR),
    P(CL_DRIVER_VERSION, K_STR), P(CL_DEVICE_PROFILE, K_STR), P(CL_DEVICE_VERSION, K_STR),
    P(CL_DEVICE_NUMERIC_VERSION, K_VER), P(CL_DEVICE_OPENCL_C_VERSION, K_STR),
    P(CL_DEVICE_OPENCL_C_ALL_VERSIONS, K_NV), P(CL_DEVICE_OPENCL_C_FEATURES, K_NV),
    P(CL_DEVICE_EXTENSIONS, K_STR), P(CL_DEVICE_EXTENSIONS_WITH_VERSION, K_NV),
    P(CL_DEVICE_PRINTF_BUFFER_SIZE, K_SIZE), P(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, K_BOOL),
    P(CL_DEVICE_PARENT_DEVICE, K_PTR), P(CL_DEVICE_PARTITION_MAX_SUB_DEVICES, K_UINT),
    P(CL_DEVICE_PARTITION_PROPERTIES, K_PART), P(CL_DEVICE_PARTITION_AFFINITY_DOMAIN, K_ULONG),
    P(CL_DEVICE_PARTITION_TYPE, K_PART), P(CL_DEVICE_REFERENCE_COUNT, K_UINT),
    P(CL_DEVICE_SVM_CAPABILITIES, K_ULONG),
    P(CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, K_UINT),
    P(CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, K_UINT),
    P(CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, K_UINT),
    P(CL_DEVICE_MAX_NUM_SUB_GROUPS, K_UINT),
    P(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, K_BOOL),
    P(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, K_ULONG), P(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, K_ULONG),
    P(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, K_BOOL),
    P(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, K_BOOL),
    P(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, K_BOOL),
    P(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, K_ULONG), P(CL_DEVICE_PIPE_SUPPORT, K_BOOL),
    P(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, K_SIZE),
    P(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, K_STR),
#undef P
};

static size_t fixed_size(enum kind k)
{
    switch (k) {
    case K_UINT: case K_BOOL: case K_VER: return 4;
    case K_ULONG: return 8;
    case K_SIZE: case K_PTR: return sizeof(size_t);
    default: return 0;
    }
}

TEST(device_all_queries)
{
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
        size_t sz = 99999;
        cl_int e = clGetDeviceInfo(d, params[i].p, 0, NULL, &sz);
        CHECK(e == CL_SUCCESS, "%s: %s", params[i].n, h_err(e));
        if (e != CL_SUCCESS) continue;
        size_t fs = fixed_size(params[i].k);
        if (fs) CHECK(sz == fs, "%s: size_ret %zu, expected %zu", params[i].n, sz, fs);
        if (params[i].k == K_STR) CHECK(sz >= 1, "%s: string size 0", params[i].n);
        if (params[i].k == K_NV)
            CHECK(sz % sizeof(cl_name_version) == 0, "%s: size %zu", params[i].n, sz);
        if (params[i].k == K_PART)
            CHECK(sz % sizeof(cl_device_partition_property) == 0, "%s: size %zu",
                  params[i].n, sz);
        unsigned char *buf = malloc(sz + 8);
        size_t sz2 = 0;
        CHECK_OK(clGetDeviceInfo(d, params[i].p, sz, buf, &sz2));
        CHECK(sz2 == sz, "%s: size_ret changed %zu -> %zu", params[i].n, sz, sz2);
        if (params[i].k == K_STR && sz)
            CHECK(buf[sz - 1] == 0 && strlen((char *)buf) + 1 == sz,
                  "%s: bad string termination", params[i].n);
        if (sz > 0)
            CHECK_ERR(clGetDeviceInfo(d, params[i].p, sz - 1, buf, NULL), CL_INVALID_VALUE);
        CHECK_OK(clGetDeviceInfo(d, params[i].p, sz, NULL, NULL));
        free(buf);
    }
}

#define GET(p, v) CHECK_OK(clGetDeviceInfo(d, p, sizeof(v), &(v), NULL))

TEST(device_sane_values)
{
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    cl_device_type t = 0; GET(CL_DEVICE_TYPE, t);
    CHECK(t & CL_DEVICE_TYPE_CPU, "type 0x%llx lacks CPU", (unsigned long long)t);
    cl_uint cu = 0; GET(CL_DEVICE_MAX_COMPUTE_UNITS, cu);
    CHECK(cu >= 1, "compute units %u", cu);
    cl_ulong gm = 0; GET(CL_DEVICE_GLOBAL_MEM_SIZE, gm);
    CHECK(gm > 0, "global mem 0");
    cl_ulong ma = 0; GET(CL_DEVICE_MAX_MEM_ALLOC_SIZE, ma);
    cl_ulong want = gm / 4 < 1024ull * 1024 * 1024 ? gm / 4 : 1024ull * 1024 * 1024;
    if (want < 32ull * 1024 * 1024) want = 32ull * 1024 * 1024;
    CHECK(ma >= want && ma <= gm, "max alloc %llu (global %llu)",
          (unsigned long long)ma, (unsigned long long)gm);
    cl_uint dims = 0; GET(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, dims);
    CHECK(dims >= 3, "work item dims %u", dims);
    size_t szs = 0;
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, 0, NULL, &szs));
    CHECK(szs == dims * sizeof(size_t), "work item sizes size %zu", szs);
    size_t wis[16] = {0};
    if (dims <= 16) {
        CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof wis, wis, NULL));
        for (cl_uint i = 0; i < dims; i++) CHECK(wis[i] >= 1, "wi size[%u]=0", i);
    }
    size_t wg = 0; GET(CL_DEVICE_MAX_WORK_GROUP_SIZE, wg);
    CHECK(wg >= 1, "max wg 0");
    cl_uint ab = 0; GET(CL_DEVICE_ADDRESS_BITS, ab);
    CHECK(ab == 32 || ab == 64, "address bits %u", ab);
    CHECK(ab == 8 * sizeof(void *), "address bits %u on a %zu-bit host", ab, 8 * sizeof(void *));
    cl_bool av = 0; GET(CL_DEVICE_AVAILABLE, av);
    CHECK(av == CL_TRUE, "not available");
    cl_bool le = 0; GET(CL_DEVICE_ENDIAN_LITTLE, le);
    CHECK(le == CL_TRUE, "x86 device not little endian");
    cl_platform_id pl = NULL; GET(CL_DEVICE_PLATFORM, pl);
    CHECK(pl == h_platform(), "device platform mismatch");
    cl_device_id parent = (cl_device_id)1; GET(CL_DEVICE_PARENT_DEVICE, parent);
    CHECK(parent == NULL, "root device has parent %p", (void *)parent);
    cl_uint rc = 0; GET(CL_DEVICE_REFERENCE_COUNT, rc);
    CHECK(rc == 1, "root device refcount %u", rc);
    cl_uint align = 0; GET(CL_DEVICE_MEM_BASE_ADDR_ALIGN, align);
    CHECK(align >= 1024 && (align & (align - 1)) == 0,
          "mem base addr align %u bits (needs >= 1024, power of 2)", align);
    cl_command_queue_properties qp = 0, qh = 0;
    GET(CL_DEVICE_QUEUE_PROPERTIES, qp);
    GET(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, qh);
    CHECK(qp == qh, "QUEUE_PROPERTIES != QUEUE_ON_HOST_PROPERTIES");
    CHECK(qh & CL_QUEUE_PROFILING_ENABLE, "profiling is mandatory");
    cl_device_fp_config fp = 0; GET(CL_DEVICE_SINGLE_FP_CONFIG, fp);
    CHECK((fp & (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN)) ==
          (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN), "single fp config 0x%llx",
          (unsigned long long)fp);
    cl_ulong lm = 0; GET(CL_DEVICE_LOCAL_MEM_SIZE, lm);
    CHECK(lm >= 32 * 1024, "local mem %llu", (unsigned long long)lm);
    cl_ulong cb = 0; GET(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, cb);
    CHECK(cb >= 64 * 1024, "constant buffer %llu", (unsigned long long)cb);
    size_t ps = 0; GET(CL_DEVICE_MAX_PARAMETER_SIZE, ps);
    CHECK(ps >= 1024, "max parameter size %zu", ps);
    cl_device_svm_capabilities svm = 0; GET(CL_DEVICE_SVM_CAPABILITIES, svm);
    CHECK(svm == 0 || (svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER),
          "SVM caps 0x%llx without coarse grain", (unsigned long long)svm);
    cl_device_atomic_capabilities am = 0; GET(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, am);
    CHECK((am & (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP)) ==
          (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP),
          "atomic memory caps 0x%llx lack the 3.0 minimum", (unsigned long long)am);
    cl_device_atomic_capabilities af = 0; GET(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, af);
    cl_device_atomic_capabilities fmin = CL_DEVICE_ATOMIC_ORDER_RELAXED |
        CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
    CHECK((af & fmin) == fmin, "atomic fence caps 0x%llx lack the 3.0 minimum",
          (unsigned long long)af);
    char *prof = h_device_string(d, CL_DEVICE_PROFILE);
    CHECK(prof && (!strcmp(prof, "FULL_PROFILE") || !strcmp(prof, "EMBEDDED_PROFILE")),
          "profile '%s'", prof ? prof : "(null)");
    char *cver = h_device_string(d, CL_DEVICE_OPENCL_C_VERSION);
    CHECK(cver && !strncmp(cver, "OpenCL C ", 9), "C version '%s'", cver ? cver : "(null)");
    char *name = h_device_string(d, CL_DEVICE_NAME);
    CHECK(name && strlen(name) > 0, "empty device name");
    free(prof); free(cver); free(name);
}

TEST(device_version)
{
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    char *v = h_device_string(d, CL_DEVICE_VERSION);
    REQUIRE(v, "no version");
    CHECK(!strncmp(v, "OpenCL 3.0 ", 11), "CL_DEVICE_VERSION '%s'", v);
    cl_version nv = 0;
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_NUMERIC_VERSION, sizeof nv, &nv, NULL));
    CHECK(CL_VERSION_MAJOR(nv) == 3 && CL_VERSION_MINOR(nv) == 0, "numeric %u.%u.%u",
          CL_VERSION_MAJOR(nv), CL_VERSION_MINOR(nv), CL_VERSION_PATCH(nv));
    free(v);
}

static int has_word(const char *list, const char *w)
{
    size_t l = strlen(w);
    for (const char *p = list; (p = strstr(p, w)); p += l)
        if ((p == list || p[-1] == ' ') && (p[l] == 0 || p[l] == ' ')) return 1;
    return 0;
}

TEST(device_extensions_consistent)
{
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    char *ext = h_device_string(d, CL_DEVICE_EXTENSIONS);
    REQUIRE(ext, "no extension string");
    size_t sz = 0;
    REQUIRE_OK(clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, NULL, &sz));
    size_t n = sz / sizeof(cl_name_version);
    cl_name_version *nv = calloc(n + 1, sizeof *nv);
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS_WITH_VERSION, sz, nv, NULL));
    size_t words = 0;
    char *copy = strdup(ext), *save = NULL;
    for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        words++;
        int found = 0;
        for (size_t i = 0; i < n; i++) found |= !strcmp(nv[i].name, w);
        CHECK(found, "'%s' in CL_DEVICE_EXTENSIONS but not WITH_VERSION", w);
    }
    for (size_t i = 0; i < n; i++)
        CHECK(has_word(ext, nv[i].name), "'%s' in WITH_VERSION but not in string",
              nv[i].name);
    CHECK(words == n, "%zu words vs %zu entries", words, n);
    /* fp64 consistency */
    cl_uint dw = 0;
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, sizeof dw, &dw, NULL));
    CHECK(has_word(ext, "cl_khr_fp64") ? dw != 0 : dw == 0,
          "preferred double width %u inconsistent with cl_khr_fp64", dw);
    cl_uint hw = 0;
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, sizeof hw, &hw, NULL));
    CHECK(has_word(ext, "cl_khr_fp16") || hw == 0, "half width %u without cl_khr_fp16", hw);
    if (has_word(ext, "cl_khr_fp64")) {
        cl_device_fp_config fp = 0;
        CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL));
        CHECK(fp != 0, "fp64 reported but DOUBLE_FP_CONFIG is 0");
    }
    free(copy); free(nv); free(ext);
}

TEST(device_get_ids)
{
    cl_platform_id pl = h_platform();
    REQUIRE(pl, "no platform");
    cl_uint n = 0;
    CHECK_OK(clGetDeviceIDs(pl, CL_DEVICE_TYPE_ALL, 0, NULL, &n));
    CHECK(n >= 1, "no devices");
    cl_uint ncpu = 0;
    CHECK_OK(clGetDeviceIDs(pl, CL_DEVICE_TYPE_CPU, 0, NULL, &ncpu));
    CHECK(ncpu >= 1 && ncpu <= n, "cpu count %u of %u", ncpu, n);
    cl_uint nd = 0;
    cl_device_id dd = NULL;
    CHECK_OK(clGetDeviceIDs(pl, CL_DEVICE_TYPE_DEFAULT, 1, &dd, &nd));
    CHECK(nd == 1 && dd != NULL, "default: %u devices", nd);
    cl_device_id devs[4] = {0};
    CHECK_ERR(clGetDeviceIDs(pl, CL_DEVICE_TYPE_CPU, 0, devs, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetDeviceIDs(pl, CL_DEVICE_TYPE_CPU, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetDeviceIDs(pl, (cl_device_type)1 << 40, 1, devs, NULL),
              CL_INVALID_DEVICE_TYPE);
    cl_uint ng = 77;
    cl_device_id g = NULL;
    cl_int e = clGetDeviceIDs(pl, CL_DEVICE_TYPE_GPU, 1, &g, &ng);
    CHECK(e == CL_DEVICE_NOT_FOUND, "GPU query on a CPU platform: %s", h_err(e));
    e = clGetDeviceIDs(pl, CL_DEVICE_TYPE_ACCELERATOR, 1, &g, &ng);
    CHECK(e == CL_DEVICE_NOT_FOUND, "ACCELERATOR query: %s", h_err(e));
    /* same handles each time */
    cl_device_id a = NULL, b = NULL;
    CHECK_OK(clGetDeviceIDs(pl, CL_DEVICE_TYPE_CPU, 1, &a, NULL));
    CHECK_OK(clGetDeviceIDs(pl, CL_DEVICE_TYPE_ALL, 1, &b, NULL));
    CHECK(a == b && a == h_device(), "device handle not stable");
}

TEST(device_invalid_param)
{
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    char buf[64];
    CHECK_ERR(clGetDeviceInfo(d, 0x7fffffff, sizeof buf, buf, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetDeviceInfo(d, CL_PLATFORM_NAME, sizeof buf, buf, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetDeviceInfo(NULL, CL_DEVICE_NAME, sizeof buf, buf, NULL), CL_INVALID_DEVICE);
    cl_uint u = 0;
    CHECK_ERR(clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, 2, &u, NULL), CL_INVALID_VALUE);
}

TEST(device_retain_release_root)
{
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    /* root devices: retain/release are no-ops that succeed */
    for (int i = 0; i < 5; i++) CHECK_OK(clRetainDevice(d));
    for (int i = 0; i < 5; i++) CHECK_OK(clReleaseDevice(d));
    CHECK_OK(clReleaseDevice(d));
    CHECK_OK(clRetainDevice(d));
    cl_uint rc = 0;
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_REFERENCE_COUNT, sizeof rc, &rc, NULL));
    CHECK(rc == 1, "root device refcount %u", rc);
    CHECK_ERR(clRetainDevice(NULL), CL_INVALID_DEVICE);
    CHECK_ERR(clReleaseDevice(NULL), CL_INVALID_DEVICE);
}

int main(int argc, char **argv)
{
    h_init("api", argc, argv);
    H_RUN(device_all_queries);
    H_RUN(device_sane_values);
    H_RUN(device_version);
    H_RUN(device_extensions_consistent);
    H_RUN(device_get_ids);
    H_RUN(device_invalid_param);
    H_RUN(device_retain_release_root);
    return h_done();
}
