"""Generates builtins/lib/math.cl: OpenCL C 6.15.2 math functions."""
from common import *

out = []
emit = out.append


def sfx(t):
    return 'f' if t == 'float' else ''


# Functions whose scalar version is a clang builtin that lowers to an LLVM
# intrinsic or a libm call (glibc's float and double functions are within the
# OpenCL ULP bounds).
LIBM_UNARY = ['acos', 'acosh', 'asin', 'asinh', 'atan', 'atanh', 'cbrt', 'cos',
              'cosh', 'erf', 'erfc', 'exp', 'exp2', 'exp10', 'expm1', 'lgamma',
              'log', 'log2', 'log10', 'log1p', 'logb', 'sin', 'sinh', 'tan',
              'tanh', 'tgamma']
# these also have an elementwise builtin usable for vectors
ELEM_UNARY = {'ceil': 'ceil', 'floor': 'floor', 'rint': 'rint', 'round': 'round',
              'trunc': 'trunc', 'fabs': 'abs', 'sqrt': 'sqrt'}
LIBM_BINARY = ['atan2', 'fdim', 'fmod', 'hypot', 'nextafter', 'pow', 'remainder']
ELEM_BINARY = {'copysign': 'copysign', 'fmax': 'max', 'fmin': 'min'}

# libm results refined where glibc exceeds the OpenCL bound: glibc's double
# cbrt is off by up to 3.3 ulp (the CTS measured 2.05; the bound is 2). One
# Newton step on y^3 - x, with the cube's rounding errors recovered by fma
# (y^3 and x are within a factor of 2, so their difference is exact), brings
# it within 0.5 ulp (checked against cbrtl on 20M random doubles). Very small
# and very large x are scaled by 2^(+-600) first (exact), so the squares
# neither underflow nor overflow.
#
# float hypot in double instead of glibc's hypotf: the squares are exact in
# double and their sum and square root are rounded once each, with no
# overflow or underflow for any float, so the result is within 0.5 ulp and
# a hair (the bound is 4); and it vectorizes, where hypotf is a call per
# lane (AMD's Sobel filter, float4 hypot in its work-item loop). C99's
# special case: an infinite argument gives +inf even beside a NaN.
#
# float log computed here in float, without branches, so that a work-item
# loop calling it vectorizes: glibc's vector logf (libmvec) is off by up to
# 3.94 ulp (the bound is 3), and its scalar logf is a call per lane
# (AMD's Black-Scholes). x = 2^k m with m in [sqrt(2)/2, sqrt(2)) (the
# exponent's bits moved so that m's crossing of sqrt(2) carries into k),
# f = m - 1 exactly, and log(1 + f) = 2 atanh(s) with s = f / (2 + f),
# |s| < 0.1716, arranged as f - f^2/2 + s (f^2/2 + R) with
# R = 2z/3 + 2z^2/5 + 2z^3/7 + 2z^4/9, z = s^2 (the series' next term is
# 2e-9 of the result): f is exact and the terms added to it are small.
# k ln2 is taken in two parts, the first exact in k. Denormals are scaled
# by 2^25 first. Within 0.86 ulp over every float (checked against glibc's
# double log, with and without contraction into fma).
# float sin and cos computed here in float, without calls, so that a
# work-item loop calling them vectorizes into straight-line code: as calls
# of glibc's vector sinf and cosf, every live vector register was spilled
# around each call, and sin(x) and cos(x) of one x reduced x twice
# (Parboil's mri-q: 1.8 ms on one core where the same loop in C with the
# same calls takes 0.83, and this code 0.5 or less). |x| = k pi/2 + r,
# k = rint(|x| 2/pi), r in [-pi/4, pi/4] by Cody and Waite's reduction
# with pi/2 in three floats: the first product k P1 is exact in the fma
# and |x| - k P1 is exact (both are multiples of 2^-24 near each other),
# so r is off by rounding of the small later terms only. sin r and cos r
# by Cephes' sinf and cosf polynomials; k's low bits choose one and its
# sign. Within 1.56 ulp for |x| <= 2^16 (every float, against glibc's
# double sin and cos; the bound is 4). Larger |x|, infinities and NaN go
# to glibc's sinf and cosf through __ferrocl_fallback_sinf/_cosf: calls
# that are not speculated, which the back end gives masked vector
# variants that call them only when some lane needs them
# (fallback_vector_variants.cpp). sin and cos of one x inline to one
# reduction and one pair of polynomials.
# Where float sin and cos stop reducing |x| themselves (see above).
TRIG_LIMIT = '0x1p16f'
TRIG_REDUCTION = '''/* sin and cos of |x| = k pi/2 + r: sin r in *s, cos r in *c, k's low bits
   in *q (gen_math.py TRIG_REDUCTION); for |x| <= 2^16 */
static inline void __ferrocl_reduced_sin_cos(float ax, __private float *s, __private float *c, __private int *q) {
  float a = ax <= ''' + TRIG_LIMIT + ''' ? ax : 0.0f;
  float k = __builtin_rintf(a * 0x1.45f306p-1f);
  float r = __builtin_fmaf(-k, 0x1.921fb6p0f, a);
  r = __builtin_fmaf(-k, -0x1.777a5cp-25f, r);
  r = __builtin_fmaf(-k, -0x1.ee59dap-50f, r);
  float z = r * r;
  *s = __builtin_fmaf(r * z, __builtin_fmaf(z, __builtin_fmaf(z, -1.9515295891e-4f, 8.3321608736e-3f), -1.6666654611e-1f), r);
  *c = __builtin_fmaf(z * z, __builtin_fmaf(z, __builtin_fmaf(z, 2.443315711809948e-5f, -1.388731625493765e-3f), 4.166664568298827e-2f), __builtin_fmaf(-0.5f, z, 1.0f));
  *q = (int)k;
}'''

REFINED = {
    ('sin', 'float'): '''float CNFN sin(float x) {
  float ax = __builtin_fabsf(x), s, c;
  int q;
  __ferrocl_reduced_sin_cos(ax, &s, &c, &q);
  float v = (q & 1) ? c : s;
  v = (q & 2) ? -v : v;
  return __builtin_expect(ax <= ''' + TRIG_LIMIT + ''', 1) ? __builtin_copysignf(1.0f, x) * v : __ferrocl_fallback_sinf(x);
}''',
    ('cos', 'float'): '''float CNFN cos(float x) {
  float ax = __builtin_fabsf(x), s, c;
  int q;
  __ferrocl_reduced_sin_cos(ax, &s, &c, &q);
  float v = (q & 1) ? s : c;
  v = ((q + 1) & 2) ? -v : v;
  return __builtin_expect(ax <= ''' + TRIG_LIMIT + ''', 1) ? v : __ferrocl_fallback_cosf(x);
}''',
    ('log', 'float'): '''float CNFN log(float x) {
  uint ix = __builtin_astype(x, uint);
  int tiny = ix < 0x00800000u;
  uint iy = tiny ? __builtin_astype(x * 0x1p25f, uint) : ix;
  iy += 0x3f800000u - 0x3f3504f3u;
  int k = (int)(iy >> 23) - 127 - (tiny ? 25 : 0);
  float f = __builtin_astype((iy & 0x007fffffu) + 0x3f3504f3u, float) - 1.0f;
  float s = f / (2.0f + f);
  float z = s * s;
  float R = z * (0x1.555556p-1f + z * (0x1.99999ap-2f + z * (0x1.24924ap-2f + z * 0x1.c71c72p-3f)));
  float hfsq = 0.5f * f * f;
  float dk = (float)k;
  float r = dk * 0x1.62p-1f + (((s * (hfsq + R) + dk * 0x1.c85fep-10f) - hfsq) + f);
  r = x == 0.0f ? -__builtin_inff() : r;
  r = x < 0.0f ? __builtin_nanf("") : r;
  return __builtin_isnan(x) || x == __builtin_inff() ? x : r;
}''',
    ('hypot', 'float'): '''float CNFN hypot(float x, float y) {
  double dx = (double)x, dy = (double)y;
  float r = (float)__builtin_sqrt(dx * dx + dy * dy);
  return __builtin_isinf(x) || __builtin_isinf(y) ? __builtin_inff() : r;
}''',
    ('cbrt', 'double'): '''double CNFN cbrt(double x) {
  double ax = __builtin_fabs(x), scale = 1.0;
  if (!(ax < 0x1p900)) {
    if (!__builtin_isfinite(x)) return x;
    x *= 0x1p-600;
    scale = 0x1p200;
  } else if (ax < 0x1p-900) {
    if (x == 0.0) return x;
    x *= 0x1p600;
    scale = 0x1p-200;
  }
  double y = __builtin_cbrt(x);
  double y2 = y * y, e2 = __builtin_fma(y, y, -y2);
  double y3 = y2 * y, e3 = __builtin_fma(y2, y, -y3) + e2 * y;
  double r = (y3 - x) + e3;
  return (y - r / (3.0 * y2)) * scale;
}''',
}

# scalar bodies written by hand; {T} type, {s} libm suffix.
# float versions of the *pi functions, powr/pown/rootn and rsqrt are
# computed in double and rounded once (error < 0.5 ulp + tiny).
CUSTOM_DOUBLE = {
    'acospi': ('u', 'return acos(x) * M_1_PI;'),
    'asinpi': ('u', 'return asin(x) * M_1_PI;'),
    'atanpi': ('u', 'return atan(x) * M_1_PI;'),
    'atan2pi': ('b', 'return atan2(x, y) * M_1_PI;'),
    'rsqrt': ('u', 'return 1.0 / __builtin_sqrt(x);'),
    'sinpi': ('u', '''double ax = __builtin_fabs(x);
  if (__builtin_isinf(ax)) return __builtin_nan("");
  double r = __builtin_fmod(ax, 2.0), sg = 1.0;
  if (r >= 1.0) { r -= 1.0; sg = -1.0; }
  if (r > 0.5) r = 1.0 - r;
  double v = r <= 0.25 ? __builtin_sin(M_PI * r) : __builtin_cos(M_PI * (0.5 - r));
  v *= sg;
  if (v == 0.0) return __builtin_copysign(0.0, x);
  return x < 0.0 ? -v : v;'''),
    'cospi': ('u', '''double ax = __builtin_fabs(x);
  if (__builtin_isinf(ax)) return __builtin_nan("");
  double r = __builtin_fmod(ax, 2.0), sg = 1.0;
  if (r >= 1.0) { r -= 1.0; sg = -1.0; }
  if (r > 0.5) { r = 1.0 - r; sg = -sg; }
  double v = r <= 0.25 ? __builtin_cos(M_PI * r) : __builtin_sin(M_PI * (0.5 - r));
  return v == 0.0 ? 0.0 : sg * v;'''),
    'tanpi': ('u', '''double ax = __builtin_fabs(x);
  if (__builtin_isinf(ax)) return __builtin_nan("");
  double r = __builtin_fmod(ax, 1.0), sg = 1.0;
  if (r > 0.5) { r = 1.0 - r; sg = -1.0; }
  double v = r <= 0.25 ? __builtin_tan(M_PI * r) : 1.0 / __builtin_tan(M_PI * (0.5 - r));
  if (v == 0.0) v = 0.0;
  /* integer n: +-0 with sign of x for even n, opposite for odd n */
  if (r == 0.0) { double m = __builtin_fmod(ax, 2.0); v = (m == 1.0) ? -0.0 : 0.0; }
  /* n + 1/2: +inf for even n, -inf for odd n */
  if (r == 0.5) v = __builtin_fmod(ax - 0.5, 2.0) == 1.0 ? -__builtin_inf() : __builtin_inf();
  v *= sg;
  return __builtin_signbit(x) ? -v : v;'''),
    'powr': ('b', '''if (__builtin_isnan(x) || __builtin_isnan(y) || x < 0.0) return __builtin_nan("");
  if (x == 0.0 && y == 0.0) return __builtin_nan("");
  if (__builtin_isinf(x) && y == 0.0) return __builtin_nan("");
  if (x == 1.0 && __builtin_isinf(y)) return __builtin_nan("");
  /* powr is pow on x >= 0: -0 counts as +0 (pow(-0, odd) would be -0 or -inf) */
  if (x == 0.0) x = 0.0;
  return __builtin_pow(x, y);'''),
    'maxmag': ('b', '''double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
  return ax > ay ? x : ay > ax ? y : __builtin_fmax(x, y);'''),
    'minmag': ('b', '''double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
  return ax < ay ? x : ay < ax ? y : __builtin_fmin(x, y);'''),
}

# Float bodies of CUSTOM_DOUBLE functions written for float. rsqrt: a
# float square root and a float division, each rounded once, are within
# 1.49 ulp of 1/sqrt(x) over every float (the bound is 2); as float
# vectors they run twice as many lanes as the double conversion did
# (Parboil's cutcp, the n-body kernels).
FLOAT_BODIES = {'rsqrt': 'return 1.0f / __builtin_sqrtf(x);'}

FLOAT_VIA_DOUBLE = ['acospi', 'asinpi', 'atanpi', 'atan2pi', 'sinpi',
                    'cospi', 'tanpi', 'powr']


def sig(kind, T, n):
    t = vt(T, n)
    if kind == 'u':
        return f'{t} x'
    if kind == 'b':
        return f'{t} x, {t} y'
    if kind == 't':
        return f'{t} x, {t} y, {t} z'


def vparams(kind, T):
    names = {'u': 'x', 'b': 'xy', 't': 'xyz'}[kind]
    return [('v', T, c) for c in names]


def args(kind):
    return {'u': 'x', 'b': 'x, y', 't': 'x, y, z'}[kind]


def gen_vec(name, kind, T, ret=None):
    ret = ret or T
    for n in VW:
        emit(f'{vt(ret, n)} CNFN {name}({sig(kind, T, n)}) '
             + split_call(ret, name, vparams(kind, T), n))


emit(HEADER.format(gen='gen_math.py'))
emit('''
/* libm entry points that have no clang builtin */
float __ferrocl_lgammaf_r(float, __private int *) __asm__("lgammaf_r");
double __ferrocl_lgamma_r(double, __private int *) __asm__("lgamma_r");

/* float sin and cos's way for large |x|, infinities and NaN (see
   TRIG_REDUCTION): never inlined, so that their calls stay conditional,
   and saving every register they use, so that the code around their
   rare calls keeps its values in registers instead of spilling them for
   the call on every way past it (the vector code of a work-item loop
   spilled 20 registers an iteration, half its time on Parboil's mri-q);
   no tail calls, which would leave glibc's function free to clobber them */
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wexcessive-regsave"
__attribute__((noinline, const, no_caller_saved_registers, disable_tail_calls)) float __ferrocl_fallback_sinf(float x) { return __builtin_sinf(x); }
__attribute__((noinline, const, no_caller_saved_registers, disable_tail_calls)) float __ferrocl_fallback_cosf(float x) { return __builtin_cosf(x); }
#pragma clang diagnostic pop
''')
emit(TRIG_REDUCTION)

for T in ['double', 'float']:
    s = sfx(T)
    emit(f'\n/* ---------------- {T} ---------------- */')
    for f in LIBM_UNARY:
        if (f, T) in REFINED:
            emit(REFINED[(f, T)])
        else:
            emit(f'{T} CNFN {f}({T} x) {{ return __builtin_{f}{s}(x); }}')
        gen_vec(f, 'u', T)
    for f, e in ELEM_UNARY.items():
        emit(f'{T} CNFN {f}({T} x) {{ return __builtin_{f}{s}(x); }}')
        for n in VW:
            emit(f'{vt(T, n)} CNFN {f}({vt(T, n)} x) {{ return __builtin_elementwise_{e}(x); }}')
    for f in LIBM_BINARY:
        if (f, T) in REFINED:
            emit(REFINED[(f, T)])
        else:
            emit(f'{T} CNFN {f}({T} x, {T} y) {{ return __builtin_{f}{s}(x, y); }}')
        gen_vec(f, 'b', T)
    for f, e in ELEM_BINARY.items():
        emit(f'{T} CNFN {f}({T} x, {T} y) {{ return __builtin_{f}{s}(x, y); }}')
        for n in VW:
            emit(f'{vt(T, n)} CNFN {f}({vt(T, n)} x, {vt(T, n)} y) {{ return __builtin_elementwise_{e}(x, y); }}')
    for f in ['fmax', 'fmin']:
        for n in VW:
            emit(f'{vt(T, n)} CNFN {f}({vt(T, n)} x, {T} y) {{ return {f}(x, ({vt(T, n)})y); }}')
    # fma / mad
    for f in ['fma', 'mad']:
        emit(f'{T} CNFN {f}({T} x, {T} y, {T} z) {{ return __builtin_fma{s}(x, y, z); }}')
        for n in VW:
            emit(f'{vt(T, n)} CNFN {f}({vt(T, n)} x, {vt(T, n)} y, {vt(T, n)} z) {{ return __builtin_elementwise_fma(x, y, z); }}')
    # custom
    for f, (kind, body) in CUSTOM_DOUBLE.items():
        if T == 'double':
            emit(f'double CNFN {f}({sig(kind, "double", 1)}) {{\n  {body}\n}}')
        elif f in FLOAT_BODIES:
            emit(f'float CNFN {f}({sig(kind, "float", 1)}) {{ {FLOAT_BODIES[f]} }}')
        elif f in FLOAT_VIA_DOUBLE:
            a = ', '.join(f'(double){c}' for c in args(kind).split(', '))
            emit(f'float CNFN {f}({sig(kind, "float", 1)}) {{ return (float){f}({a}); }}')
        else:
            emit(f'float CNFN {f}({sig(kind, "float", 1)}) {{\n  '
                 + body.replace('double', 'float').replace('__builtin_fabs(', '__builtin_fabsf(')
                 .replace('__builtin_fmax(', '__builtin_fmaxf(').replace('__builtin_fmin(', '__builtin_fminf(')
                 + '\n}')
        gen_vec(f, kind, T)
    # ilogb
    # OpenCL's FP_ILOGBNAN is INT_MAX (glibc's is INT_MIN).
    emit(f'int CNFN ilogb({T} x) {{ return __builtin_isnan(x) ? INT_MAX : __builtin_ilogb{s}(x); }}')
    for n in VW:
        emit(f'{vt("int", n)} CNFN ilogb({vt(T, n)} x) ' + split_call('int', 'ilogb', [('v', T, 'x')], n))
    # ldexp
    emit(f'{T} CNFN ldexp({T} x, int k) {{ return __builtin_ldexp{s}(x, k); }}')
    for n in VW:
        emit(f'{vt(T, n)} CNFN ldexp({vt(T, n)} x, {vt("int", n)} k) '
             + split_call(T, 'ldexp', [('v', T, 'x'), ('v', 'int', 'k')], n))
        emit(f'{vt(T, n)} CNFN ldexp({vt(T, n)} x, int k) {{ return ldexp(x, ({vt("int", n)})k); }}')
    # pown / rootn
    emit(f'{T} CNFN pown({T} x, int k) {{ return (({T})__builtin_pow((double)x, (double)k)); }}')
    if T == 'float':
        emit('''float CNFN rootn(float x, int k) {
  if (k == 0 || (x < 0.0f && (k & 1) == 0) || __builtin_isnan(x)) return __builtin_nanf("");
  double r = __builtin_pow(__builtin_fabs((double)x), 1.0 / (double)k);
  return (float)((k & 1) ? __builtin_copysign(r, (double)x) : r);
}''')
    else:
        emit('''double CNFN rootn(double x, int k) {
  if (k == 0 || (x < 0.0 && (k & 1) == 0) || __builtin_isnan(x)) return __builtin_nan("");
  /* rootn(+-0, n): +-inf for odd n < 0, +inf for even n < 0, +-0 for odd
     n > 0, +0 for even n > 0 */
  if (x == 0.0) {
    double z = (k < 0) ? __builtin_inf() : 0.0;
    return (k & 1) ? __builtin_copysign(z, x) : z;
  }
  double ax = __builtin_fabs(x), r;
  switch (k) {
  case 1: return x;
  case -1: return 1.0 / x;
  case 2: return __builtin_sqrt(x);
  case -2: return 1.0 / __builtin_sqrt(x);
  case 3: return __builtin_cbrt(x);
  case -3: return 1.0 / __builtin_cbrt(x);
  case 4: return __builtin_sqrt(__builtin_sqrt(x));
  default: r = __builtin_pow(ax, 1.0 / (double)k);
  }
  return (k & 1) ? __builtin_copysign(r, x) : r;
}''')
    for f in ['pown', 'rootn']:
        for n in VW:
            emit(f'{vt(T, n)} CNFN {f}({vt(T, n)} x, {vt("int", n)} k) '
                 + split_call(T, f, [('v', T, 'x'), ('v', 'int', 'k')], n))
    # nan
    if T == 'float':
        emit('float CNFN nan(uint c) { return __builtin_astype(0x7fc00000u | (c & 0x003fffffu), float); }')
        for n in VW:
            emit(f'float{n} CNFN nan(uint{n} c) {{ return __builtin_astype((uint{n})0x7fc00000u | (c & (uint{n})0x003fffffu), float{n}); }}')
    else:
        emit('double CNFN nan(ulong c) { return __builtin_astype(0x7ff8000000000000ul | (c & 0x0007fffffffffffful), double); }')
        for n in VW:
            emit(f'double{n} CNFN nan(ulong{n} c) {{ return __builtin_astype((ulong{n})0x7ff8000000000000ul | (c & (ulong{n})0x0007fffffffffffful), double{n}); }}')
    # pointer-argument functions
    emit(f'''static int __ferrocl_remquo_bits{s}({T} x, {T} y) {{
  if (__builtin_isnan(x) || __builtin_isnan(y) || __builtin_isinf(x) || y == ({T})0) return 0;
  double ay = __builtin_fabs((double)y), m = __builtin_fmod(__builtin_fabs((double)x), 128.0 * ay);
  if (__builtin_isinf(128.0 * ay)) m = __builtin_fabs((double)x);
  double rm = __builtin_remainder(m, ay);
  int q = (int)__builtin_rint((m - rm) / ay) & 127;
  return ((__builtin_signbit(x) != 0) != (__builtin_signbit(y) != 0)) ? -q : q;
}}''')
    one_minus = '0x1.fffffep-1f' if T == 'float' else '0x1.fffffffffffffp-1'
    for AS in AS_OUT:
        q = (AS + ' ') if AS else ''
        emit(f'{T} OVL frexp({T} x, {q}int *e) {{ int t; {T} r = __builtin_frexp{s}(x, &t); *e = t; return r; }}')
        # OpenCL wants at least 7 low bits of the quotient; glibc gives 3.
        # The quotient mod 128 comes from x reduced modulo 128|y| (exact).
        emit(f'{T} OVL remquo({T} x, {T} y, {q}int *qo) {{ *qo = __ferrocl_remquo_bits{s}(x, y); return __builtin_remainder{s}(x, y); }}')
        lg = '__ferrocl_lgammaf_r' if T == 'float' else '__ferrocl_lgamma_r'
        emit(f'{T} OVL lgamma_r({T} x, {q}int *sg) {{ int t; {T} r = {lg}(x, &t); *sg = t; return r; }}')
        emit(f'{T} OVL modf({T} x, {q}{T} *ip) {{ {T} t; {T} r = __builtin_modf{s}(x, &t); *ip = t; return r; }}')
        # float: the library's sin and cos, which share their reduction
        if T == 'float':
            emit(f'{T} OVL sincos({T} x, {q}{T} *c) {{ *c = cos(x); return sin(x); }}')
        else:
            emit(f'{T} OVL sincos({T} x, {q}{T} *c) {{ *c = __builtin_cos{s}(x); return __builtin_sin{s}(x); }}')
        emit(f'''{T} OVL fract({T} x, {q}{T} *ip) {{
  {T} fl = __builtin_floor{s}(x);
  *ip = fl;
  if (__builtin_isnan(x)) return x;
  if (__builtin_isinf(x)) return __builtin_copysign{s}(0, x);
  return __builtin_fmin{s}(x - fl, {one_minus});
}}''')
    for AS in AS_OUT:
        q = (AS + ' ') if AS else ''
        for n in VW:
            V = vt(T, n)
            I = vt('int', n)
            emit(f'{V} OVL frexp({V} x, {q}{I} *e) ' + split_call(T, 'frexp', [('v', T, 'x'), ('p', 'int', 'e')], n))
            emit(f'{V} OVL remquo({V} x, {V} y, {q}{I} *qo) ' + split_call(T, 'remquo', [('v', T, 'x'), ('v', T, 'y'), ('p', 'int', 'qo')], n))
            emit(f'{V} OVL lgamma_r({V} x, {q}{I} *sg) ' + split_call(T, 'lgamma_r', [('v', T, 'x'), ('p', 'int', 'sg')], n))
            for f, pn in [('modf', 'ip'), ('sincos', 'c'), ('fract', 'ip')]:
                emit(f'{V} OVL {f}({V} x, {q}{V} *{pn}) ' + split_call(T, f, [('v', T, 'x'), ('p', T, pn)], n))

# half_ and native_ (float only; full precision, well inside their bounds)
HN_UNARY = {'cos': 'cos', 'exp': 'exp', 'exp2': 'exp2', 'exp10': 'exp10', 'log': 'log',
            'log2': 'log2', 'log10': 'log10', 'rsqrt': 'rsqrt', 'sin': 'sin',
            'sqrt': 'sqrt', 'tan': 'tan'}
emit('\n/* ---------------- half_ and native_ ---------------- */')
for pre in ['half_', 'native_']:
    for n in W:
        V = vt('float', n)
        for f, g in HN_UNARY.items():
            emit(f'{V} CNFN {pre}{f}({V} x) {{ return {g}(x); }}')
        emit(f'{V} CNFN {pre}recip({V} x) {{ return 1.0f / x; }}')
        emit(f'{V} CNFN {pre}divide({V} x, {V} y) {{ return x / y; }}')
        emit(f'{V} CNFN {pre}powr({V} x, {V} y) {{ return powr(x, y); }}')

open('../lib/math.cl', 'w').write('\n'.join(out) + '\n')
