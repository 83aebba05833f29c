/* builtins: cl_khr_fp16. half arithmetic, math, conversions with every
 * rounding mode, relational and bit functions, sub-group functions, images
 * and kernel arguments, each against a host reference built from GCC's
 * _Float16 (correctly rounded conversions) and the host's double math.
 * The directed roundings are checked against a table of every half, not
 * against a formula like the library's. */
#include "harness.h"
#include <math.h>

typedef _Float16 f16;

static uint16_t bits_of(f16 h) { uint16_t u; memcpy(&u, &h, 2); return u; }
static f16 half_of(uint16_t u) { f16 h; memcpy(&h, &u, 2); return h; }
static int is_nan_bits(uint16_t u) { return (u & 0x7c00) == 0x7c00 && (u & 0x3ff); }

/* Runs kernel "k" of `src` over n work-items: arg 0 the input (in_size
 * bytes), arg 1 the output (out_size bytes); 0 on success. */
static int run_kernel(const char *src, const void *in, size_t in_size, void *out, size_t out_size,
                      size_t n)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, src, NULL);
    if (!p) { clReleaseCommandQueue(q); clReleaseContext(c); return -1; }
    cl_int e;
    cl_kernel k = clCreateKernel(p, "k", &e);
    cl_mem I = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, in_size, (void *)in, &e);
    cl_mem O = clCreateBuffer(c, 0, out_size, NULL, &e);
    clSetKernelArg(k, 0, sizeof I, &I);
    clSetKernelArg(k, 1, sizeof O, &O);
    int rc = clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL) == CL_SUCCESS &&
                     clEnqueueReadBuffer(q, O, CL_TRUE, 0, out_size, out, 0, NULL, NULL) == CL_SUCCESS
                 ? 0
                 : -1;
    clReleaseMemObject(I); clReleaseMemObject(O);
    clReleaseKernel(k); clReleaseProgram(p);
    clReleaseCommandQueue(q); clReleaseContext(c);
    return rc;
}

TEST(device_reports_fp16)
{
    char *ext = h_device_string(h_device(), CL_DEVICE_EXTENSIONS);
    REQUIRE(ext && strstr(ext, "cl_khr_fp16"), "cl_khr_fp16 not reported");
    free(ext);
    cl_device_fp_config cfg = 0;
    REQUIRE_OK(clGetDeviceInfo(h_device(), CL_DEVICE_HALF_FP_CONFIG, sizeof cfg, &cfg, NULL));
    CHECK((cfg & CL_FP_INF_NAN) && (cfg & CL_FP_ROUND_TO_NEAREST), "half config %#llx",
          (unsigned long long)cfg);
    cl_uint w = 0;
    REQUIRE_OK(clGetDeviceInfo(h_device(), CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, sizeof w, &w, NULL));
    CHECK(w > 0, "preferred half width 0 with cl_khr_fp16");
    size_t size = 0;
    REQUIRE_OK(clGetDeviceInfo(h_device(), CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &size));
    cl_name_version *f = malloc(size);
    REQUIRE_OK(clGetDeviceInfo(h_device(), CL_DEVICE_OPENCL_C_FEATURES, size, f, NULL));
    int found = 0;
    for (size_t i = 0; i < size / sizeof *f; i++) found |= !strcmp(f[i].name, "__opencl_c_fp16");
    CHECK(found, "__opencl_c_fp16 not among the OpenCL C features");
    free(f);
}

/* Every pair of a spread of halves (subnormals, normals, infinities, NaN):
 * +, -, *, / and sqrt, correctly rounded (float's rounding then half's is). */
TEST(arithmetic_correctly_rounded)
{
    enum { N = 4096 };
    uint16_t *in = malloc(N * 4), *out = malloc(N * 10);
    srand(1);
    for (int i = 0; i < 2 * N; i++) in[i] = (uint16_t)(rand() & 0xffff);
    in[0] = 0x0001; in[1] = 0x3c00;  /* subnormal */
    in[2] = 0x7bff; in[3] = 0x7bff;  /* overflow */
    const char *src =
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "kernel void k(global const half *in, global half *out) {\n"
        "  size_t i = get_global_id(0); half a = in[2 * i], b = in[2 * i + 1];\n"
        "  out[5 * i] = a + b; out[5 * i + 1] = a - b; out[5 * i + 2] = a * b;\n"
        "  out[5 * i + 3] = a / b; out[5 * i + 4] = sqrt(a); }\n";
    REQUIRE(run_kernel(src, in, N * 4, out, N * 10, N) == 0, "kernel did not run");
    for (int i = 0; i < N && !h_failed(); i++) {
        f16 a = half_of(in[2 * i]), b = half_of(in[2 * i + 1]);
        float fa = (float)a, fb = (float)b;
        uint16_t want[5] = {bits_of((f16)(fa + fb)), bits_of((f16)(fa - fb)), bits_of((f16)(fa * fb)),
                            bits_of((f16)(fa / fb)), bits_of((f16)sqrtf(fa))};
        for (int j = 0; j < 5; j++) {
            uint16_t got = out[5 * i + j];
            CHECK(got == want[j] || (is_nan_bits(got) && is_nan_bits(want[j])),
                  "op %d of %#06x, %#06x: %#06x, expected %#06x", j, in[2 * i], in[2 * i + 1], got,
                  want[j]);
        }
    }
    free(in); free(out);
}

/* fma rounds once: a*b is exact in double, and so is a*b + c wherever the
 * result is a finite half (the reference). The library's version also
 * rounds the sum to odd, for the cases where double would round. */
TEST(fma_correctly_rounded)
{
    enum { N = 8192 };
    uint16_t *in = malloc(N * 6), *out = malloc(N * 2);
    srand(2);
    for (int i = 0; i < 3 * N; i++) in[i] = (uint16_t)(rand() & 0xffff);
    /* a*b on a midpoint of halves and c the smallest subnormal: rounds up. */
    in[0] = 0x3c01; in[1] = 0x3c00 | 0x200; in[2] = 0x0001;
    in[3] = 0x3c01; in[4] = 0x3e00; in[5] = 0x8001;
    const char *src =
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "kernel void k(global const half *in, global half *out) {\n"
        "  size_t i = get_global_id(0);\n"
        "  out[i] = fma(in[3 * i], in[3 * i + 1], in[3 * i + 2]); }\n";
    REQUIRE(run_kernel(src, in, N * 6, out, N * 2, N) == 0, "kernel did not run");
    for (int i = 0; i < N && !h_failed(); i++) {
        double a = (double)half_of(in[3 * i]), b = (double)half_of(in[3 * i + 1]),
               c = (double)half_of(in[3 * i + 2]);
        double exact = a * b + c;
        if (!(fabs(exact) < 65504.0)) continue;
        uint16_t want = bits_of((f16)exact), got = out[i];
        CHECK(got == want || (is_nan_bits(got) && is_nan_bits(want)),
              "fma(%#06x, %#06x, %#06x): %#06x, expected %#06x", in[3 * i], in[3 * i + 1],
              in[3 * i + 2], got, want);
    }
    free(in); free(out);
}

/* Every finite half and the infinities, as doubles in increasing order
 * (negative zero left out: it equals zero). */
static double table[63490];
static int table_size;

static void make_table(void)
{
    double *t = table;
    int n = 0;
    for (int u = 0xfc00; u > 0x8000; u--) t[n++] = (double)half_of((uint16_t)u);
    for (int u = 0; u <= 0x7c00; u++) t[n++] = (double)half_of((uint16_t)u);
    table_size = n;
}

/* The half below or equal (down) or above or equal (up) to x. */
static double neighbour(double x, int up)
{
    int lo = 0, hi = table_size - 1;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (table[mid] <= x) lo = mid; else hi = mid;
    }
    if (table[lo] == x) return x;
    if (table[hi] == x) return x;
    return up ? table[hi] : table[lo];
}

/* The reference of a conversion to half of x in mode 0 (rte), 1 (rtz),
 * 2 (rtp), 3 (rtn); x is exact in double. */
static uint16_t ref_to_half(double x, f16 nearest, int mode)
{
    if (isnan(x)) return 0x7e00;
    double r;
    switch (mode) {
    case 0: return bits_of(nearest);
    case 1: r = neighbour(x, x < 0); break;
    case 2: r = neighbour(x, 1); break;
    default: r = neighbour(x, 0); break;
    }
    f16 h = (f16)(r == 0 ? copysign(0.0, x) : r);
    return bits_of(h);
}

static const char *MODES[] = {"_rte", "_rtz", "_rtp", "_rtn"};

/* convert_half{,_rte,_rtz,_rtp,_rtn} from float, int, long, ulong and
 * double, scalars and (for float) vectors of 4, against the table. */
TEST(conversions_to_half_every_mode)
{
    make_table();
    enum { N = 4096 };
    float *fin = malloc(N * 4);
    int32_t *iin = malloc(N * 4);
    int64_t *lin = malloc(N * 8);
    double *din = malloc(N * 8);
    srand(3);
    for (int i = 0; i < N; i++) {
        uint32_t u = (uint32_t)rand() << 16 ^ (uint32_t)rand();
        /* floats around the half range: exponents -30 .. 20 */
        float f = ldexpf(1.0f + (float)(u & 0xffffff) / 16777216.0f, (int)(u % 51) - 30);
        fin[i] = (u & 0x80000000u) ? -f : f;
        iin[i] = (int32_t)(u >> (u % 20));
        if (u & 1) iin[i] = -iin[i];
        lin[i] = (int64_t)iin[i] * (int64_t)((u % 7) == 0 ? 1000000 : 1);
        din[i] = (double)fin[i] * (1.0 + 0x1p-40 * (double)(u & 0xfff));
    }
    fin[0] = 65520.0f; fin[1] = -65520.0f; fin[2] = 0x1p-25f; fin[3] = -0x1p-26f;
    fin[4] = INFINITY; fin[5] = NAN; fin[6] = -0.0f; fin[7] = 65504.0f;
    iin[0] = 65519; iin[1] = 2049; iin[2] = 0x7fffffff; iin[3] = -2051;
    lin[0] = INT64_MIN; lin[1] = INT64_MAX; lin[2] = 4097;
    struct { const char *type; const void *in; size_t size; } srcs[] = {
        {"float", fin, 4}, {"int", iin, 4}, {"long", lin, 8}, {"double", din, 8},
    };
    uint16_t *out = malloc(N * 4);
    for (int s = 0; s < 4 && !h_failed(); s++) {
        for (int m = 0; m < 4 && !h_failed(); m++) {
            /* Scalars in out[0 .. N), vectors of 4 in out[N .. 2N). */
            char src[512];
            snprintf(src, sizeof src,
                     "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                     "kernel void k(global const %s *in, global half *out) {\n"
                     "  size_t i = get_global_id(0); out[i] = convert_half%s(in[i]);\n"
                     "  if (i %% 4 == 0) vstore4(convert_half4%s(vload4(i / 4, in)), i / 4, out + %d); }\n",
                     srcs[s].type, MODES[m], MODES[m], (int)N);
            REQUIRE(run_kernel(src, srcs[s].in, N * srcs[s].size, out, N * 4, N) == 0,
                    "kernel for %s, %s did not run", srcs[s].type, MODES[m]);
            for (int i = 0; i < N && !h_failed(); i++) {
                double x;
                f16 nearest;
                switch (s) {
                case 0: x = fin[i]; nearest = (f16)fin[i]; break;
                case 1: x = iin[i]; nearest = (f16)iin[i]; break;
                case 2: x = (double)lin[i]; nearest = (f16)lin[i];
                    if (lin[i] > 1000000 || lin[i] < -1000000) x = lin[i] > 0 ? 1e7 : -1e7;
                    break;
                default: x = din[i]; nearest = (f16)din[i]; break;
                }
                uint16_t want = ref_to_half(x, nearest, m);
                for (int v = 0; v < 2; v++) {
                    uint16_t got = out[v * N + i];
                    CHECK(got == want || (is_nan_bits(got) && is_nan_bits(want)),
                          "convert_half%s%s((%s)%a) = %#06x, expected %#06x", v ? "4" : "", MODES[m],
                          srcs[s].type, x, got, want);
                }
            }
        }
    }
    free(fin); free(iin); free(lin); free(din); free(out);
}

/* half to int with saturation and each rounding, and to float exactly. */
TEST(conversions_from_half)
{
    enum { N = 65536 };
    uint16_t *in = malloc(N * 2);
    for (int i = 0; i < N; i++) in[i] = (uint16_t)i;
    int32_t *out = malloc(N * 4 * 5);
    const char *src =
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "kernel void k(global const half *in, global int *out) {\n"
        "  size_t i = get_global_id(0); half h = in[i];\n"
        "  out[5 * i] = convert_int_sat_rte(h); out[5 * i + 1] = convert_int_sat_rtz(h);\n"
        "  out[5 * i + 2] = convert_int_sat_rtp(h); out[5 * i + 3] = convert_char_sat_rtn(h);\n"
        "  out[5 * i + 4] = as_int(convert_float(h)); }\n";
    REQUIRE(run_kernel(src, in, N * 2, out, N * 20, N) == 0, "kernel did not run");
    for (int i = 0; i < N && !h_failed(); i++) {
        float f = (float)half_of((uint16_t)i);
        int32_t fb;
        memcpy(&fb, &f, 4);
        if (isnan(f)) {
            CHECK(out[5 * i] == 0 && out[5 * i + 3] == 0, "NaN %#06x to int not 0", i);
            continue;
        }
        double big = 2147483647.0;
        int32_t want[4] = {
            (int32_t)fmax(-big - 1, fmin(big, nearbyint(f))), (int32_t)fmax(-big - 1, fmin(big, trunc(f))),
            (int32_t)fmax(-big - 1, fmin(big, ceil(f))), (int32_t)fmax(-128, fmin(127, floor(f)))};
        for (int j = 0; j < 4; j++)
            CHECK(out[5 * i + j] == want[j], "conversion %d of half %#06x (%g): %d, expected %d", j, i,
                  (double)f, out[5 * i + j], want[j]);
        CHECK(out[5 * i + 4] == fb, "convert_float(%#06x) = %#x, expected %#x", i, out[5 * i + 4], fb);
    }
    free(in); free(out);
}

/* Every half through sin, exp, log, pow and rsqrt, within 2 ulp of the
 * double reference (the spec's half bounds are 2 ulp or more), as scalars
 * and as vectors of 8 (another code path: F16C on 8 lanes). */
TEST(math_every_half_within_bounds)
{
    enum { N = 65536, F = 6 };
    uint16_t *in = malloc(N * 2), *out = malloc(N * 2 * F);
    for (int i = 0; i < N; i++) in[i] = (uint16_t)i;
    const char *src =
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "kernel void k(global const half *in, global half *out) {\n"
        "  size_t i = get_global_id(0);\n"
        "  if (i % 2) { half x = in[i];\n"
        "    out[i] = sin(x); out[65536 + i] = exp(x); out[2 * 65536 + i] = log(x);\n"
        "    out[3 * 65536 + i] = pow(x, (half)1.5h); out[4 * 65536 + i] = rsqrt(x);\n"
        "    out[5 * 65536 + i] = atan2(x, (half)0.75h); }\n"
        "  else if (i % 16 == 0) { half8 x = vload8(i / 8, in), y = vload8(i / 8 + 1, in);\n"
        "    vstore8(sin(x), i / 8, out); vstore8(sin(y), i / 8 + 1, out);\n"
        "    vstore8(exp(x), i / 8, out + 65536); vstore8(exp(y), i / 8 + 1, out + 65536);\n"
        "    vstore8(log(x), i / 8, out + 2 * 65536); vstore8(log(y), i / 8 + 1, out + 2 * 65536);\n"
        "    vstore8(pow(x, (half8)1.5h), i / 8, out + 3 * 65536); vstore8(pow(y, (half8)1.5h), i / 8 + 1, out + 3 * 65536);\n"
        "    vstore8(rsqrt(x), i / 8, out + 4 * 65536); vstore8(rsqrt(y), i / 8 + 1, out + 4 * 65536);\n"
        "    vstore8(atan2(x, (half8)0.75h), i / 8, out + 5 * 65536); vstore8(atan2(y, (half8)0.75h), i / 8 + 1, out + 5 * 65536); } }\n";
    REQUIRE(run_kernel(src, in, N * 2, out, N * 2 * F, N) == 0, "kernel did not run");
    static const char *names[F] = {"sin", "exp", "log", "pow", "rsqrt", "atan2"};
    for (int f = 0; f < F; f++) {
        double worst = 0;
        int at = 0;
        for (int i = 0; i < N; i++) {
            double x = (double)half_of((uint16_t)i);
            double want;
            switch (f) {
            case 0: want = sin(x); break;
            case 1: want = exp(x); break;
            case 2: want = log(x); break;
            case 3: want = pow(x, 1.5); break;
            case 4: want = 1.0 / sqrt(x); break;
            default: want = atan2(x, 0.75); break;
            }
            double got = (double)half_of(out[f * N + i]);
            double err;
            if (isnan(want)) err = isnan(got) ? 0 : INFINITY;
            else if (isinf(want) || fabs(want) > 65504) {
                f16 w = (f16)want;
                err = (double)w == got ? 0 : INFINITY;
            } else {
                int e;
                frexp(want, &e);
                double ulp = ldexp(1.0, e - 11 < -24 ? -24 : e - 11);
                err = fabs(got - want) / ulp;
            }
            if (!(err <= worst)) { worst = err; at = i; }
        }
        CHECK(worst <= 2.0, "%s: %g ulp at %#06x (got %#06x)", names[f], worst, at, out[f * N + at]);
    }
    free(in); free(out);
}

/* The functions that work on half's bits rather than through float. */
TEST(bits_relational_and_steps)
{
    uint16_t in[8] = {0x0001, 0x03ff, 0x0400, 0x8000, 0x7c00, 0x7e00, 0x3c00, 0x8001};
    int16_t out[64];
    const char *src =
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "kernel void k(global const ushort *in, global short *out) {\n"
        "  half8 x = as_half8(vload8(0, in));\n"
        "  vstore8(isnormal(x), 0, out);\n"
        "  vstore8(signbit(x), 1, out);\n"
        "  vstore8(as_short8(nextafter(x, (half8)0.0h)), 2, out);\n"
        "  half ip; out[24] = as_short(fract(as_half((ushort)0x8001), &ip)); out[25] = as_short(ip);\n"
        "  out[26] = as_short(nan((ushort)5)); out[27] = isnormal(as_half(in[2]));\n"
        "  out[28] = as_short(select((half)1.0h, (half)2.0h, (short)-1));\n"
        "  vstore8(as_short8(select((half8)1.0h, (half8)2.0h, (short8)(0, -1, 0, -1, 1, 1, -32768, 0))), 4, out);\n"
        "  out[29] = as_short(nextafter((half)0.0h, (half)-1.0h));\n"
        "  out[30] = as_short(bitselect((half)1.0h, (half)-2.0h, as_half((ushort)0x8000)));\n"
        "  out[31] = ilogb(as_half((ushort)0x0001)); }\n";
    REQUIRE(run_kernel(src, in, sizeof in, out, sizeof out, 1) == 0, "kernel did not run");
    int16_t normal[8] = {0, 0, -1, 0, 0, 0, -1, 0}, sign[8] = {0, 0, 0, -1, 0, 0, 0, -1};
    uint16_t toward0[8] = {0x0000, 0x03fe, 0x03ff, 0x0000, 0x7bff, 0x7e00, 0x3bff, 0x8000};
    for (int i = 0; i < 8; i++) {
        CHECK(out[i] == normal[i], "isnormal(%#06x) = %d", in[i], out[i]);
        CHECK(out[8 + i] == sign[i], "signbit(%#06x) = %d", in[i], out[8 + i]);
        uint16_t got = (uint16_t)out[16 + i];
        CHECK(got == toward0[i] || (is_nan_bits(got) && is_nan_bits(toward0[i])),
              "nextafter(%#06x, 0) = %#06x, expected %#06x", in[i], got, toward0[i]);
    }
    CHECK((uint16_t)out[24] == 0x3bff, "fract(-2^-24) = %#06x, expected 0x3bff (the half below 1)",
          (uint16_t)out[24]);
    CHECK((uint16_t)out[25] == 0xbc00, "fract(-2^-24)'s floor %#06x, expected -1", (uint16_t)out[25]);
    CHECK((uint16_t)out[26] == 0x7e05, "nan(5) = %#06x", (uint16_t)out[26]);
    CHECK(out[27] == 1, "scalar isnormal(2^-14) = %d, expected 1", out[27]);
    CHECK((uint16_t)out[28] == 0x4000, "select(1, 2, -1) = %#06x", (uint16_t)out[28]);
    uint16_t sel[8] = {0x3c00, 0x4000, 0x3c00, 0x4000, 0x3c00, 0x3c00, 0x4000, 0x3c00};
    for (int i = 0; i < 8; i++)
        CHECK((uint16_t)out[32 + i] == sel[i], "select lane %d: %#06x", i, (uint16_t)out[32 + i]);
    CHECK((uint16_t)out[29] == 0x8001, "nextafter(0, -1) = %#06x", (uint16_t)out[29]);
    CHECK((uint16_t)out[30] == 0xbc00, "bitselect sign = %#06x", (uint16_t)out[30]);
    CHECK(out[31] == -24, "ilogb(2^-24) = %d", out[31]);
}

/* A half argument by value, sub-group reductions, scans and broadcasts of
 * half. */
TEST(kernel_argument_and_sub_groups)
{
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    const char *src =
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "kernel void k(half s, half4 v, global half *out) {\n"
        "  size_t i = get_global_id(0); half x = (half)(float)(i + 1) * s;\n"
        "  out[4 * i] = sub_group_reduce_add(x);\n"
        "  out[4 * i + 1] = sub_group_scan_inclusive_max(x);\n"
        "  out[4 * i + 2] = sub_group_broadcast(x, 0u);\n"
        "  out[4 * i + 3] = v.w + sub_group_shuffle_xor(x, 1u) * (half)0.0h; }\n";
    cl_program p = h_build(c, src, NULL);
    REQUIRE(p, "build failed");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "k", &e);
    enum { N = 64 };
    cl_mem O = clCreateBuffer(c, 0, N * 8, NULL, &e);
    f16 s = (f16)0.5f, v[4] = {(f16)1.0f, (f16)2.0f, (f16)3.0f, (f16)-4.0f};
    REQUIRE_OK(clSetKernelArg(k, 0, 2, &s));
    REQUIRE_OK(clSetKernelArg(k, 1, 8, v));
    REQUIRE_OK(clSetKernelArg(k, 2, sizeof O, &O));
    size_t g = N, l = 16;
    REQUIRE_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    f16 out[N * 4];
    REQUIRE_OK(clEnqueueReadBuffer(q, O, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    size_t sg = 0;
    REQUIRE_OK(clGetKernelSubGroupInfo(k, h_device(), CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                       sizeof l, &l, sizeof sg, &sg, NULL));
    REQUIRE(sg > 0 && 16 % sg == 0, "sub-group size %zu", sg);
    for (size_t i = 0; i < N; i++) {
        size_t first = i - i % sg;
        float sum = 0;
        for (size_t j = first; j < first + sg; j++) sum = (float)(f16)(sum + (float)(j + 1) * 0.5f);
        CHECK((float)out[4 * i] == sum, "reduce_add at %zu: %g, expected %g", i, (double)out[4 * i],
              (double)sum);
        CHECK((float)out[4 * i + 1] == (float)(i + 1) * 0.5f, "scan max at %zu: %g", i,
              (double)out[4 * i + 1]);
        CHECK((float)out[4 * i + 2] == (float)(first + 1) * 0.5f, "broadcast at %zu: %g", i,
              (double)out[4 * i + 2]);
        CHECK((float)out[4 * i + 3] == -4.0f, "half4 argument's w at %zu: %g", i,
              (double)out[4 * i + 3]);
    }
    clReleaseMemObject(O); clReleaseKernel(k); clReleaseProgram(p);
    clReleaseCommandQueue(q); clReleaseContext(c);
}

/* write_imageh and read_imageh on a CL_HALF_FLOAT image. */
TEST(images_read_and_write_half)
{
    cl_bool images = CL_FALSE;
    clGetDeviceInfo(h_device(), CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
    if (!images) { h_skip("no images"); return; }
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    const char *src =
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "kernel void w(write_only image2d_t img) {\n"
        "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
        "  write_imageh(img, p, (half4)((half)p.x, (half)p.y, 0.5h, -1.0h)); }\n"
        "kernel void r(read_only image2d_t img, global half4 *out) {\n"
        "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
        "  const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
        "  out[p.y * 4 + p.x] = read_imageh(img, s, p) + read_imageh(img, p); }\n";
    cl_program p = h_build(c, src, NULL);
    REQUIRE(p, "build failed");
    cl_int e;
    cl_image_format fmt = {CL_RGBA, CL_HALF_FLOAT};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4};
    cl_mem img = clCreateImage(c, CL_MEM_READ_WRITE, &fmt, &desc, NULL, &e);
    REQUIRE_OK(e);
    cl_mem O = clCreateBuffer(c, 0, 16 * 8, NULL, &e);
    cl_kernel w = clCreateKernel(p, "w", &e), r = clCreateKernel(p, "r", &e);
    clSetKernelArg(w, 0, sizeof img, &img);
    clSetKernelArg(r, 0, sizeof img, &img);
    clSetKernelArg(r, 1, sizeof O, &O);
    size_t g[2] = {4, 4};
    REQUIRE_OK(clEnqueueNDRangeKernel(q, w, 2, NULL, g, NULL, 0, NULL, NULL));
    REQUIRE_OK(clEnqueueNDRangeKernel(q, r, 2, NULL, g, NULL, 0, NULL, NULL));
    f16 out[64];
    REQUIRE_OK(clEnqueueReadBuffer(q, O, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) {
            f16 *o = out + 4 * (y * 4 + x);
            CHECK((float)o[0] == 2.0f * x && (float)o[1] == 2.0f * y && (float)o[2] == 1.0f &&
                      (float)o[3] == -2.0f,
                  "pixel (%d, %d): %g %g %g %g", x, y, (double)o[0], (double)o[1], (double)o[2],
                  (double)o[3]);
        }
    clReleaseMemObject(img); clReleaseMemObject(O);
    clReleaseKernel(w); clReleaseKernel(r); clReleaseProgram(p);
    clReleaseCommandQueue(q); clReleaseContext(c);
}

/* cl_ext_float_atomics (not in every system's CL/cl_ext.h). */
#define CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT 0x4233

/* cl_ext_float_atomics in half: add, min, max, exchange, load and store
 * on a global and a local atomic_half, 256 work-items at once. */
TEST(atomics)
{
    cl_bitfield caps = 0;
    REQUIRE_OK(clGetDeviceInfo(h_device(), CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT, sizeof caps,
                               &caps, NULL));
    /* load/store, add and min/max, global (bits 0-2) and local (16-18) */
    REQUIRE(caps == (0x7 | 0x7 << 16),
            "half atomic capabilities %#llx", (unsigned long long)caps);
    enum { N = 256 };
    uint16_t in[4] = {0}, out[8];
    const char *src =
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "#define R memory_order_relaxed\n"
        "kernel void k(global atomic_half *g, global half *out) {\n"
        "  local atomic_half l;\n"
        "  size_t i = get_global_id(0); half x = (half)(float)i;\n"
        "  if (i == 0) atomic_store_explicit(&l, 0.5h, R, memory_scope_work_group);\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  atomic_fetch_add_explicit(&g[0], 1.0h, R, memory_scope_device);\n"
        "  atomic_fetch_max_explicit(&g[1], x, R, memory_scope_device);\n"
        "  atomic_fetch_min_explicit(&g[2], -x, R, memory_scope_device);\n"
        "  atomic_fetch_sub_explicit(&l, 0.25h, R, memory_scope_work_group);\n"
        "  half old = atomic_exchange_explicit(&g[3], x, R, memory_scope_device);\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  if (i == 0) { out[4] = atomic_load_explicit(&l, R, memory_scope_work_group); }\n"
        "  if (old == (half)-1.0h) out[5] = 1.0h; }\n";
    cl_context c = h_context();
    cl_command_queue q = h_queue(c, 0);
    cl_program p = h_build(c, src, "-cl-std=CL3.0");
    REQUIRE(p, "build failed");
    cl_int e;
    cl_kernel k = clCreateKernel(p, "k", &e);
    in[3] = 0xbc00; /* -1: the one exchange that sees it writes out[5] */
    cl_mem G = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof in, in, &e);
    memset(out, 0, sizeof out);
    cl_mem O = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof out, out, &e);
    clSetKernelArg(k, 0, sizeof G, &G);
    clSetKernelArg(k, 1, sizeof O, &O);
    size_t g = N, l = N;
    REQUIRE_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    REQUIRE_OK(clEnqueueReadBuffer(q, G, CL_TRUE, 0, sizeof in, in, 0, NULL, NULL));
    REQUIRE_OK(clEnqueueReadBuffer(q, O, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CHECK((float)half_of(in[0]) == (float)N, "sum %g, expected %d", (double)half_of(in[0]), N);
    CHECK((float)half_of(in[1]) == (float)(N - 1), "max %g", (double)half_of(in[1]));
    CHECK((float)half_of(in[2]) == -(float)(N - 1), "min %g", (double)half_of(in[2]));
    CHECK((float)half_of(in[3]) >= 0.0f && (float)half_of(in[3]) < (float)N, "exchange left %g",
          (double)half_of(in[3]));
    CHECK((float)half_of(out[4]) == 0.5f - 0.25f * N, "local %g, expected %g", (double)half_of(out[4]),
          0.5 - 0.25 * N);
    CHECK(out[5] == 0x3c00, "no exchange returned the initial -1");
    clReleaseMemObject(G); clReleaseMemObject(O); clReleaseKernel(k); clReleaseProgram(p);
    clReleaseCommandQueue(q); clReleaseContext(c);
}

int main(int argc, char **argv)
{
    h_init("builtins", argc, argv);
    H_RUN(device_reports_fp16);
    H_RUN_T(arithmetic_correctly_rounded, 60);
    H_RUN_T(fma_correctly_rounded, 60);
    H_RUN_T(conversions_to_half_every_mode, 120);
    H_RUN_T(conversions_from_half, 60);
    H_RUN_T(math_every_half_within_bounds, 120);
    H_RUN(bits_relational_and_steps);
    H_RUN(kernel_argument_and_sub_groups);
    H_RUN(images_read_and_write_half);
    H_RUN(atomics);
    return h_done();
}
