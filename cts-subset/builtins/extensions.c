/* builtins/extensions: the integer extensions' functions against host
 * references (cl_khr_extended_bit_ops, cl_khr_integer_dot_product), their
 * device queries, cl_khr_expect_assume's builtins, cl_khr_device_uuid and
 * cl_khr_suggested_local_work_size.
 * A device without an extension skips its sub-tests. */
#include "harness.h"
#include <stdint.h>
#include <stdlib.h>

#define N 1024

static int has_extension(const char *name)
{
    char *ext = h_device_string(h_device(), CL_DEVICE_EXTENSIONS);
    int yes = ext && strstr(ext, name);
    free(ext);
    return yes;
}

/* Runs kernel `name`(global const uint *a, global const uint *b, global
 * uint *out) over N work-items; out has `per_item` values per item. */
static void run(const char *src, const char *name, const cl_uint *a, const cl_uint *b,
                cl_uint *out, int per_item)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, src, "-cl-std=CL3.0");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, name, &e);
    REQUIRE(k && !e, "clCreateKernel: %s", h_err(e));
    cl_mem ma = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, N * 4, (void *)a, &e);
    cl_mem mb = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, N * 4, (void *)b, &e);
    cl_mem mo = clCreateBuffer(c, CL_MEM_WRITE_ONLY, N * 4 * per_item, NULL, &e);
    clSetKernelArg(k, 0, sizeof ma, &ma);
    clSetKernelArg(k, 1, sizeof mb, &mb);
    clSetKernelArg(k, 2, sizeof mo, &mo);
    size_t g = N;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, mo, CL_TRUE, 0, N * 4 * per_item, out, 0, NULL, NULL));
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

static void random_words(cl_uint *w, unsigned seed)
{
    for (int i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        w[i] = seed ^ (seed >> 13) * 2654435761u;
    }
}

/* Host references on 32-bit values (the kernel's uint and int forms). */
static uint32_t insert32(uint32_t base, uint32_t ins, unsigned off, unsigned cnt)
{
    if (!cnt) return base;
    uint64_t m = (~0ull >> (64 - cnt)) << off;
    return (uint32_t)((base & ~m) | (((uint64_t)ins << off) & m));
}
static uint32_t extract_u32(uint32_t base, unsigned off, unsigned cnt)
{
    return cnt ? (uint32_t)(((uint64_t)base >> off) & (~0ull >> (64 - cnt))) : 0;
}
static int32_t extract_s32(uint32_t base, unsigned off, unsigned cnt)
{
    if (!cnt) return 0;
    uint32_t v = extract_u32(base, off, cnt);
    return cnt < 32 && (v >> (cnt - 1)) & 1 ? (int32_t)(v | ~((1u << cnt) - 1)) : (int32_t)v;
}
static uint32_t reverse32(uint32_t x)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++) r |= ((x >> i) & 1u) << (31 - i);
    return r;
}

TEST(extended_bit_ops)
{
    if (!has_extension("cl_khr_extended_bit_ops")) { h_skip("no cl_khr_extended_bit_ops"); return; }
    const char *src =
        "kernel void k(global const uint *a, global const uint *b, global uint *out) {\n"
        "    size_t i = get_global_id(0);\n"
        "    uint off = b[i] % 33, cnt = (b[i] >> 8) % (33 - off);\n"
        "    out[8*i+0] = bitfield_insert(a[i], b[i], off, cnt);\n"
        "    out[8*i+1] = as_uint(bitfield_extract_signed(as_int(a[i]), off, cnt));\n"
        "    out[8*i+2] = bitfield_extract_unsigned(a[i], off, cnt);\n"
        "    out[8*i+3] = bit_reverse(a[i]);\n"
        "    uchar4 v = as_uchar4(a[i]);\n"
        "    uint o8 = off % 9, c8 = cnt % (9 - o8);\n"
        "    out[8*i+4] = as_uint(bitfield_insert(v, as_uchar4(b[i]), o8, c8));\n"
        "    out[8*i+5] = as_uint(bitfield_extract_signed(v, o8, c8));\n"
        "    out[8*i+6] = as_uint(bit_reverse(v));\n"
        "    out[8*i+7] = (uint)bit_reverse((ushort)a[i]);\n"
        "}\n";
    cl_uint a[N], b[N];
    cl_uint *out = malloc(N * 4 * 8);
    random_words(a, 1);
    random_words(b, 2);
    run(src, "k", a, b, out, 8);
    for (int i = 0; i < N && !h_failed(); i++) {
        unsigned off = b[i] % 33, cnt = (b[i] >> 8) % (33 - off);
        CHECK(out[8 * i] == insert32(a[i], b[i], off, cnt), "insert %d", i);
        CHECK((int32_t)out[8 * i + 1] == extract_s32(a[i], off, cnt), "extract_signed %d: %08x off %u cnt %u -> %08x", i, a[i], off, cnt, out[8 * i + 1]);
        CHECK(out[8 * i + 2] == extract_u32(a[i], off, cnt), "extract_unsigned %d", i);
        CHECK(out[8 * i + 3] == reverse32(a[i]), "bit_reverse %d", i);
        unsigned o8 = off % 9, c8 = cnt % (9 - o8);
        for (int lane = 0; lane < 4; lane++) {
            uint8_t x = (uint8_t)(a[i] >> 8 * lane), y = (uint8_t)(b[i] >> 8 * lane);
            uint8_t ins = (uint8_t)insert32(x, y, o8, c8);
            int8_t ext = (int8_t)(c8 ? (int8_t)((uint8_t)(x << (8 - o8 - c8))) >> (8 - c8) : 0);
            uint8_t rev = (uint8_t)(reverse32(x) >> 24);
            CHECK((uint8_t)(out[8 * i + 4] >> 8 * lane) == ins, "uchar4 insert %d.%d", i, lane);
            CHECK((int8_t)(out[8 * i + 5] >> 8 * lane) == ext, "uchar4 extract %d.%d", i, lane);
            CHECK((uint8_t)(out[8 * i + 6] >> 8 * lane) == rev, "uchar4 reverse %d.%d", i, lane);
        }
        CHECK(out[8 * i + 7] == reverse32(a[i] & 0xffff) >> 16, "ushort reverse %d", i);
    }
    free(out);
}

static int32_t dot_ref(uint32_t a, uint32_t b, int sa, int sb)
{
    int32_t sum = 0;
    for (int lane = 0; lane < 4; lane++) {
        int x = sa ? (int8_t)(a >> 8 * lane) : (uint8_t)(a >> 8 * lane);
        int y = sb ? (int8_t)(b >> 8 * lane) : (uint8_t)(b >> 8 * lane);
        sum += x * y;
    }
    return sum;
}

TEST(integer_dot_product)
{
    if (!has_extension("cl_khr_integer_dot_product")) { h_skip("no cl_khr_integer_dot_product"); return; }
    cl_device_integer_dot_product_capabilities_khr caps = 0;
    CHECK_OK(clGetDeviceInfo(h_device(), CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR,
                             sizeof caps, &caps, NULL));
    CHECK(caps == (CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR |
                   CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR), "capabilities %#llx",
          (unsigned long long)caps);
    cl_device_integer_dot_product_acceleration_properties_khr props;
    size_t size = 0;
    CHECK_OK(clGetDeviceInfo(h_device(), CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR,
                             sizeof props, &props, &size));
    CHECK(size == sizeof props, "acceleration properties of %zu bytes", size);
    const char *src =
        "kernel void k(global const uint *a, global const uint *b, global uint *out) {\n"
        "    size_t i = get_global_id(0);\n"
        "    uint x = a[i], y = b[i];\n"
        "    out[8*i+0] = dot(as_uchar4(x), as_uchar4(y));\n"
        "    out[8*i+1] = as_uint(dot(as_char4(x), as_char4(y)));\n"
        "    out[8*i+2] = as_uint(dot(as_uchar4(x), as_char4(y)));\n"
        "    out[8*i+3] = as_uint(dot(as_char4(x), as_uchar4(y)));\n"
        "    out[8*i+4] = dot_4x8packed_uu_uint(x, y) ^ as_uint(dot_4x8packed_ss_int(x, y));\n"
        "    out[8*i+5] = as_uint(dot_4x8packed_us_int(x, y)) ^ as_uint(dot_4x8packed_su_int(x, y));\n"
        "    out[8*i+6] = dot_acc_sat(as_uchar4(x), as_uchar4(y), 0xffffff00u);\n"
        "    out[8*i+7] = as_uint(dot_acc_sat_4x8packed_ss_int(x, y, (int)(y & 1 ? 0x7fffff00 : 0x80000100)));\n"
        "}\n";
    cl_uint a[N], b[N];
    cl_uint *out = malloc(N * 4 * 8);
    random_words(a, 3);
    random_words(b, 4);
    run(src, "k", a, b, out, 8);
    for (int i = 0; i < N && !h_failed(); i++) {
        int32_t uu = dot_ref(a[i], b[i], 0, 0), ss = dot_ref(a[i], b[i], 1, 1);
        int32_t us = dot_ref(a[i], b[i], 0, 1), su = dot_ref(a[i], b[i], 1, 0);
        CHECK(out[8 * i] == (uint32_t)uu, "uu %d", i);
        CHECK((int32_t)out[8 * i + 1] == ss, "ss %d", i);
        CHECK((int32_t)out[8 * i + 2] == us, "us %d", i);
        CHECK((int32_t)out[8 * i + 3] == su, "su %d", i);
        CHECK(out[8 * i + 4] == ((uint32_t)uu ^ (uint32_t)ss), "packed uu/ss %d", i);
        CHECK(out[8 * i + 5] == ((uint32_t)us ^ (uint32_t)su), "packed us/su %d", i);
        uint64_t acc = (uint64_t)0xffffff00u + (uint32_t)uu;
        CHECK(out[8 * i + 6] == (acc > 0xffffffffu ? 0xffffffffu : (uint32_t)acc), "acc_sat uu %d", i);
        int64_t sacc = (int64_t)(b[i] & 1 ? 0x7fffff00 : (int32_t)0x80000100) + ss;
        int32_t want = sacc > INT32_MAX ? INT32_MAX : sacc < INT32_MIN ? INT32_MIN : (int32_t)sacc;
        CHECK((int32_t)out[8 * i + 7] == want, "acc_sat ss %d", i);
    }
    free(out);
}

TEST(expect_assume)
{
    if (!has_extension("cl_khr_expect_assume")) { h_skip("no cl_khr_expect_assume"); return; }
    const char *src =
        "#ifndef cl_khr_expect_assume\n#error no cl_khr_expect_assume\n#endif\n"
        "kernel void k(global const uint *a, global const uint *b, global uint *out) {\n"
        "    size_t i = get_global_id(0);\n"
        "    __builtin_assume(i < 1024);\n"
        "    out[i] = __builtin_expect(a[i] > b[i], 1) ? a[i] - b[i] : b[i] - a[i];\n"
        "}\n";
    cl_uint a[N], b[N], out[N];
    random_words(a, 5);
    random_words(b, 6);
    run(src, "k", a, b, out, 1);
    for (int i = 0; i < N && !h_failed(); i++)
        CHECK(out[i] == (a[i] > b[i] ? a[i] - b[i] : b[i] - a[i]), "out[%d]", i);
}

TEST(device_uuid)
{
    if (!has_extension("cl_khr_device_uuid")) { h_skip("no cl_khr_device_uuid"); return; }
    cl_device_id d = h_device();
    cl_uchar uuid[CL_UUID_SIZE_KHR], again[CL_UUID_SIZE_KHR], driver[CL_UUID_SIZE_KHR];
    cl_uchar luid[CL_LUID_SIZE_KHR];
    size_t size = 0;
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_UUID_KHR, sizeof uuid, uuid, &size));
    CHECK(size == CL_UUID_SIZE_KHR, "device UUID of %zu bytes", size);
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_UUID_KHR, sizeof again, again, NULL));
    CHECK(memcmp(uuid, again, sizeof uuid) == 0, "the device UUID changed");
    CHECK_OK(clGetDeviceInfo(d, CL_DRIVER_UUID_KHR, sizeof driver, driver, &size));
    CHECK(size == CL_UUID_SIZE_KHR && memcmp(uuid, driver, sizeof uuid) != 0,
          "driver UUID of %zu bytes, equal to the device's", size);
    cl_bool valid = CL_TRUE;
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_LUID_VALID_KHR, sizeof valid, &valid, NULL));
    CHECK(valid == CL_FALSE, "a LUID on Linux");
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_LUID_KHR, sizeof luid, luid, &size));
    CHECK(size == CL_LUID_SIZE_KHR, "LUID of %zu bytes", size);
    cl_uint mask = 7;
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_NODE_MASK_KHR, sizeof mask, &mask, &size));
    CHECK(size == sizeof mask, "node mask of %zu bytes", size);
}

TEST(suggested_local_work_size)
{
    if (!has_extension("cl_khr_suggested_local_work_size")) {
        h_skip("no cl_khr_suggested_local_work_size");
        return;
    }
    clGetKernelSuggestedLocalWorkSizeKHR_fn suggest =
        (clGetKernelSuggestedLocalWorkSizeKHR_fn)clGetExtensionFunctionAddressForPlatform(
            h_platform(), "clGetKernelSuggestedLocalWorkSizeKHR");
    REQUIRE(suggest, "no clGetKernelSuggestedLocalWorkSizeKHR");
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, "kernel void k(global int *o) { o[get_global_id(0)] = 1; }", "");
    REQUIRE(p, "build");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "k", &e);
    size_t global[3] = {1000, 6, 4}, local[3] = {0, 0, 0};
    CHECK_ERR(suggest(q, k, 1, NULL, global, local), CL_INVALID_KERNEL_ARGS);
    cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE, 24000 * sizeof(int), NULL, &e);
    clSetKernelArg(k, 0, sizeof m, &m);
    size_t max_wg = 0;
    clGetDeviceInfo(h_device(), CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, NULL);
    for (cl_uint dims = 1; dims <= 3; dims++) {
        memset(local, 0, sizeof local);
        CHECK_OK(suggest(q, k, dims, NULL, global, local));
        size_t items = 1;
        for (cl_uint d = 0; d < dims; d++) {
            CHECK(local[d] >= 1 && global[d] % local[d] == 0, "dim %u of %u: local %zu", d, dims,
                  local[d]);
            items *= local[d];
        }
        CHECK(items <= max_wg, "%zu work-items in a group", items);
        CHECK_OK(clEnqueueNDRangeKernel(q, k, dims, NULL, global, local, 0, NULL, NULL));
    }
    CHECK_ERR(suggest(q, k, 1, NULL, NULL, local), CL_INVALID_GLOBAL_WORK_SIZE);
    size_t zero[1] = {0};
    CHECK_ERR(suggest(q, k, 1, NULL, zero, local), CL_INVALID_GLOBAL_WORK_SIZE);
    CHECK_ERR(suggest(q, k, 1, NULL, global, NULL), CL_INVALID_VALUE);
    CHECK_ERR(suggest(q, k, 4, NULL, global, local), CL_INVALID_WORK_DIMENSION);
    CHECK_OK(clFinish(q));
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("builtins", argc, argv);
    H_RUN_T(extended_bit_ops, 60);
    H_RUN_T(integer_dot_product, 60);
    H_RUN_T(expect_assume, 60);
    H_RUN(device_uuid);
    H_RUN(suggested_local_work_size);
    return h_done();
}
