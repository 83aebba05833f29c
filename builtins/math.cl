/* ferrocl builtins in OpenCL C: overloads get clang's mangled names.
 * A first set: float/double math (scalars and vectors), common, geometric and
 * integer functions, conversions without rounding modes, 32-bit atomics.
 * The full library is later work. */
#define OVL __attribute__((overloadable))

/* Vector forms from the scalar (or half-width) form. */
#define VEC1(name, T) \
    T##2 OVL name(T##2 x) { return (T##2)(name(x.lo), name(x.hi)); } \
    T##3 OVL name(T##3 x) { return (T##3)(name(x.s0), name(x.s1), name(x.s2)); } \
    T##4 OVL name(T##4 x) { return (T##4)(name(x.lo), name(x.hi)); } \
    T##8 OVL name(T##8 x) { return (T##8)(name(x.lo), name(x.hi)); } \
    T##16 OVL name(T##16 x) { return (T##16)(name(x.lo), name(x.hi)); }
#define VEC2(name, T) \
    T##2 OVL name(T##2 x, T##2 y) { return (T##2)(name(x.lo, y.lo), name(x.hi, y.hi)); } \
    T##3 OVL name(T##3 x, T##3 y) { return (T##3)(name(x.s0, y.s0), name(x.s1, y.s1), name(x.s2, y.s2)); } \
    T##4 OVL name(T##4 x, T##4 y) { return (T##4)(name(x.lo, y.lo), name(x.hi, y.hi)); } \
    T##8 OVL name(T##8 x, T##8 y) { return (T##8)(name(x.lo, y.lo), name(x.hi, y.hi)); } \
    T##16 OVL name(T##16 x, T##16 y) { return (T##16)(name(x.lo, y.lo), name(x.hi, y.hi)); }
#define VEC3(name, T) \
    T##2 OVL name(T##2 x, T##2 y, T##2 z) { return (T##2)(name(x.lo, y.lo, z.lo), name(x.hi, y.hi, z.hi)); } \
    T##3 OVL name(T##3 x, T##3 y, T##3 z) { return (T##3)(name(x.s0, y.s0, z.s0), name(x.s1, y.s1, z.s1), name(x.s2, y.s2, z.s2)); } \
    T##4 OVL name(T##4 x, T##4 y, T##4 z) { return (T##4)(name(x.lo, y.lo, z.lo), name(x.hi, y.hi, z.hi)); } \
    T##8 OVL name(T##8 x, T##8 y, T##8 z) { return (T##8)(name(x.lo, y.lo, z.lo), name(x.hi, y.hi, z.hi)); } \
    T##16 OVL name(T##16 x, T##16 y, T##16 z) { return (T##16)(name(x.lo, y.lo, z.lo), name(x.hi, y.hi, z.hi)); }
/* (vector, scalar) forms such as fmin(float4, float). */
#define VECS(name, T) \
    T##2 OVL name(T##2 x, T y) { return name(x, (T##2)(y)); } \
    T##3 OVL name(T##3 x, T y) { return name(x, (T##3)(y)); } \
    T##4 OVL name(T##4 x, T y) { return name(x, (T##4)(y)); } \
    T##8 OVL name(T##8 x, T y) { return name(x, (T##8)(y)); } \
    T##16 OVL name(T##16 x, T y) { return name(x, (T##16)(y)); }

#define F1(name, expr_f, expr_d) \
    float OVL name(float x) { return expr_f; } \
    double OVL name(double x) { return expr_d; } \
    VEC1(name, float) VEC1(name, double)
#define F2(name, expr_f, expr_d) \
    float OVL name(float x, float y) { return expr_f; } \
    double OVL name(double x, double y) { return expr_d; } \
    VEC2(name, float) VEC2(name, double)
#define F3(name, expr_f, expr_d) \
    float OVL name(float x, float y, float z) { return expr_f; } \
    double OVL name(double x, double y, double z) { return expr_d; } \
    VEC3(name, float) VEC3(name, double)
#define LIB1(name) F1(name, __builtin_##name##f(x), __builtin_##name(x))
#define LIB2(name) F2(name, __builtin_##name##f(x, y), __builtin_##name(x, y))

LIB1(sqrt) LIB1(fabs) LIB1(sin) LIB1(cos) LIB1(tan) LIB1(asin) LIB1(acos) LIB1(atan)
LIB1(sinh) LIB1(cosh) LIB1(tanh) LIB1(asinh) LIB1(acosh) LIB1(atanh)
LIB1(exp) LIB1(exp2) LIB1(expm1) LIB1(log) LIB1(log2) LIB1(log10) LIB1(log1p)
LIB1(floor) LIB1(ceil) LIB1(trunc) LIB1(round) LIB1(rint) LIB1(cbrt) LIB1(erf) LIB1(erfc)
LIB1(tgamma) LIB1(lgamma) LIB1(logb)
LIB2(pow) LIB2(fmin) LIB2(fmax) LIB2(fmod) LIB2(atan2) LIB2(hypot) LIB2(copysign)
LIB2(fdim) LIB2(remainder) LIB2(nextafter)
VECS(fmin, float) VECS(fmin, double) VECS(fmax, float) VECS(fmax, double)
F1(exp10, __builtin_exp2f(x * 3.32192809488736234787f), __builtin_exp2(x * 3.32192809488736234787))
F1(rsqrt, 1.0f / __builtin_sqrtf(x), 1.0 / __builtin_sqrt(x))
F2(powr, __builtin_powf(x, y), __builtin_pow(x, y))
F2(maxmag, __builtin_fabsf(x) > __builtin_fabsf(y) ? x : __builtin_fabsf(y) > __builtin_fabsf(x) ? y : __builtin_fmaxf(x, y),
   __builtin_fabs(x) > __builtin_fabs(y) ? x : __builtin_fabs(y) > __builtin_fabs(x) ? y : __builtin_fmax(x, y))
F2(minmag, __builtin_fabsf(x) < __builtin_fabsf(y) ? x : __builtin_fabsf(y) < __builtin_fabsf(x) ? y : __builtin_fminf(x, y),
   __builtin_fabs(x) < __builtin_fabs(y) ? x : __builtin_fabs(y) < __builtin_fabs(x) ? y : __builtin_fmin(x, y))
F3(fma, __builtin_fmaf(x, y, z), __builtin_fma(x, y, z))
F3(mad, x * y + z, x * y + z)
F1(sinpi, __builtin_sinf(x * M_PI_F), __builtin_sin(x * M_PI))
F1(cospi, __builtin_cosf(x * M_PI_F), __builtin_cos(x * M_PI))
F1(tanpi, __builtin_tanf(x * M_PI_F), __builtin_tan(x * M_PI))

/* native_ and half_ forms: the full-precision functions. */
#define NATIVE1(name) F1(native_##name, name(x), name(x)) F1(half_##name, name(x), name(x))
NATIVE1(sqrt) NATIVE1(sin) NATIVE1(cos) NATIVE1(tan) NATIVE1(exp) NATIVE1(exp2) NATIVE1(exp10)
NATIVE1(log) NATIVE1(log2) NATIVE1(log10) NATIVE1(rsqrt)
F1(native_recip, 1.0f / x, 1.0 / x) F1(half_recip, 1.0f / x, 1.0 / x)
F2(native_divide, x / y, x / y) F2(half_divide, x / y, x / y)
F2(native_powr, powr(x, y), powr(x, y)) F2(half_powr, powr(x, y), powr(x, y))

/* Common functions. */
F1(degrees, x * (180.0f / M_PI_F), x * (180.0 / M_PI))
F1(radians, x * (M_PI_F / 180.0f), x * (M_PI / 180.0))
F1(sign, x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : x == x ? 0.0f * x : 0.0f,
   x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : x == x ? 0.0 * x : 0.0)
F2(step, y < x ? 0.0f : 1.0f, y < x ? 0.0 : 1.0)
F3(clamp, __builtin_fminf(__builtin_fmaxf(x, y), z), __builtin_fmin(__builtin_fmax(x, y), z))
F3(mix, x + (y - x) * z, x + (y - x) * z)
F3(smoothstep, ({ float t = clamp((z - x) / (y - x), 0.0f, 1.0f); t * t * (3.0f - 2.0f * t); }),
   ({ double t = clamp((z - x) / (y - x), 0.0, 1.0); t * t * (3.0 - 2.0 * t); }))
F2(max, __builtin_fmaxf(x, y), __builtin_fmax(x, y))
F2(min, __builtin_fminf(x, y), __builtin_fmin(x, y))
VECS(max, float) VECS(max, double) VECS(min, float) VECS(min, double)

/* Geometric functions. */
#define GEO(T) \
    T OVL dot(T x, T y) { return x * y; } \
    T OVL dot(T##2 x, T##2 y) { return x.x * y.x + x.y * y.y; } \
    T OVL dot(T##3 x, T##3 y) { return x.x * y.x + x.y * y.y + x.z * y.z; } \
    T OVL dot(T##4 x, T##4 y) { return x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w; } \
    T OVL length(T x) { return fabs(x); } \
    T OVL length(T##2 x) { return sqrt(dot(x, x)); } \
    T OVL length(T##3 x) { return sqrt(dot(x, x)); } \
    T OVL length(T##4 x) { return sqrt(dot(x, x)); } \
    T OVL distance(T x, T y) { return length(x - y); } \
    T OVL distance(T##2 x, T##2 y) { return length(x - y); } \
    T OVL distance(T##3 x, T##3 y) { return length(x - y); } \
    T OVL distance(T##4 x, T##4 y) { return length(x - y); } \
    T OVL normalize(T x) { return sign(x); } \
    T##2 OVL normalize(T##2 x) { return x / length(x); } \
    T##3 OVL normalize(T##3 x) { return x / length(x); } \
    T##4 OVL normalize(T##4 x) { return x / length(x); } \
    T##3 OVL cross(T##3 a, T##3 b) { return (T##3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); } \
    T##4 OVL cross(T##4 a, T##4 b) { return (T##4)(cross(a.xyz, b.xyz), 0); }
GEO(float) GEO(double)

/* Integer functions. */
#define INT_FNS(T) \
    T OVL min(T x, T y) { return x < y ? x : y; } \
    T OVL max(T x, T y) { return x > y ? x : y; } \
    T OVL clamp(T x, T lo, T hi) { return min(max(x, lo), hi); } \
    T OVL mad24(T x, T y, T z) { return x * y + z; } \
    T OVL mul24(T x, T y) { return x * y; } \
    VEC2(min, T) VEC2(max, T) VEC3(clamp, T) VEC3(mad24, T) VEC2(mul24, T) VECS(min, T) VECS(max, T)
INT_FNS(char) INT_FNS(uchar) INT_FNS(short) INT_FNS(ushort) INT_FNS(int) INT_FNS(uint)
INT_FNS(long) INT_FNS(ulong)
#define ABS(T, UT) \
    UT OVL abs(T x) { return x < 0 ? (UT)(-x) : (UT)x; } \
    UT##2 OVL abs(T##2 x) { return (UT##2)(abs(x.lo), abs(x.hi)); } \
    UT##3 OVL abs(T##3 x) { return (UT##3)(abs(x.s0), abs(x.s1), abs(x.s2)); } \
    UT##4 OVL abs(T##4 x) { return (UT##4)(abs(x.lo), abs(x.hi)); } \
    UT##8 OVL abs(T##8 x) { return (UT##8)(abs(x.lo), abs(x.hi)); } \
    UT##16 OVL abs(T##16 x) { return (UT##16)(abs(x.lo), abs(x.hi)); }
ABS(char, uchar) ABS(short, ushort) ABS(int, uint) ABS(long, ulong)
ABS(uchar, uchar) ABS(ushort, ushort) ABS(uint, uint) ABS(ulong, ulong)
#define POPCLZ(T, BITS) \
    T OVL popcount(T x) { return (T)__builtin_popcountll((ulong)x & (((ulong)1 << (BITS - 1) << 1) - 1)); } \
    T OVL clz(T x) { return x == 0 ? (T)BITS : (T)(__builtin_clzll((ulong)x & (((ulong)1 << (BITS - 1) << 1) - 1)) - (64 - BITS)); } \
    VEC1(popcount, T) VEC1(clz, T)
POPCLZ(char, 8) POPCLZ(uchar, 8) POPCLZ(short, 16) POPCLZ(ushort, 16) POPCLZ(int, 32) POPCLZ(uint, 32)
POPCLZ(long, 64) POPCLZ(ulong, 64)

/* Conversions, default rounding, no saturation. */
#define CONV_TO(D, S) \
    D OVL convert_##D(S x) { return (D)x; } \
    D##2 OVL convert_##D##2(S##2 x) { return __builtin_convertvector(x, D##2); } \
    D##3 OVL convert_##D##3(S##3 x) { return __builtin_convertvector(x, D##3); } \
    D##4 OVL convert_##D##4(S##4 x) { return __builtin_convertvector(x, D##4); } \
    D##8 OVL convert_##D##8(S##8 x) { return __builtin_convertvector(x, D##8); } \
    D##16 OVL convert_##D##16(S##16 x) { return __builtin_convertvector(x, D##16); }
#define CONV_FROM(S) \
    CONV_TO(char, S) CONV_TO(uchar, S) CONV_TO(short, S) CONV_TO(ushort, S) CONV_TO(int, S) \
    CONV_TO(uint, S) CONV_TO(long, S) CONV_TO(ulong, S) CONV_TO(float, S) CONV_TO(double, S)
CONV_FROM(char) CONV_FROM(uchar) CONV_FROM(short) CONV_FROM(ushort) CONV_FROM(int)
CONV_FROM(uint) CONV_FROM(long) CONV_FROM(ulong) CONV_FROM(float) CONV_FROM(double)

/* 32-bit atomics (OpenCL 1.x names, and the cl_khr_*_atomics atom_ names). */
#define ATOMIC_RMW(AS, T) \
    T OVL atomic_add(volatile AS T *p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); } \
    T OVL atomic_sub(volatile AS T *p, T v) { return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST); } \
    T OVL atomic_and(volatile AS T *p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); } \
    T OVL atomic_or(volatile AS T *p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); } \
    T OVL atomic_xor(volatile AS T *p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST); } \
    T OVL atomic_min(volatile AS T *p, T v) { return __atomic_fetch_min(p, v, __ATOMIC_SEQ_CST); } \
    T OVL atomic_max(volatile AS T *p, T v) { return __atomic_fetch_max(p, v, __ATOMIC_SEQ_CST); } \
    T OVL atomic_xchg(volatile AS T *p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); } \
    T OVL atomic_inc(volatile AS T *p) { return __atomic_fetch_add(p, (T)1, __ATOMIC_SEQ_CST); } \
    T OVL atomic_dec(volatile AS T *p) { return __atomic_fetch_sub(p, (T)1, __ATOMIC_SEQ_CST); } \
    T OVL atomic_cmpxchg(volatile AS T *p, T cmp, T v) { \
        __atomic_compare_exchange_n(p, &cmp, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
        return cmp; \
    } \
    T OVL atom_add(volatile AS T *p, T v) { return atomic_add(p, v); } \
    T OVL atom_sub(volatile AS T *p, T v) { return atomic_sub(p, v); } \
    T OVL atom_and(volatile AS T *p, T v) { return atomic_and(p, v); } \
    T OVL atom_or(volatile AS T *p, T v) { return atomic_or(p, v); } \
    T OVL atom_xor(volatile AS T *p, T v) { return atomic_xor(p, v); } \
    T OVL atom_min(volatile AS T *p, T v) { return atomic_min(p, v); } \
    T OVL atom_max(volatile AS T *p, T v) { return atomic_max(p, v); } \
    T OVL atom_xchg(volatile AS T *p, T v) { return atomic_xchg(p, v); } \
    T OVL atom_inc(volatile AS T *p) { return atomic_inc(p); } \
    T OVL atom_dec(volatile AS T *p) { return atomic_dec(p); } \
    T OVL atom_cmpxchg(volatile AS T *p, T cmp, T v) { return atomic_cmpxchg(p, cmp, v); }
ATOMIC_RMW(__global, int) ATOMIC_RMW(__global, uint) ATOMIC_RMW(__local, int) ATOMIC_RMW(__local, uint)
float OVL atomic_xchg(volatile __global float *p, float v) { return as_float(atomic_xchg((volatile __global uint *)p, as_uint(v))); }
float OVL atomic_xchg(volatile __local float *p, float v) { return as_float(atomic_xchg((volatile __local uint *)p, as_uint(v))); }
