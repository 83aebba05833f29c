"""Generates builtins/lib/half.cl: cl_khr_fp16's overloads of the math,
common, geometric and relational functions and the conversions to and
from half.

Every half value is exact in float, and float carries 24 bits, at least
2 x 11 + 2: an operation computed in float on half arguments and rounded
to half once is correctly rounded for +, -, *, / and sqrt (double rounding
is innocuous at that width), and within 0.5 ulp plus float's own error
(a few thousandths of a half ulp) for the others, far inside the half
bounds. So each function converts its arguments to float (vectors stay
vectors: F16C or AVX-512 FP16 convert eight or sixteen lanes at once),
calls the float function and rounds the result to half. The exceptions,
where rounding twice or float's own range would be wrong:
- fma: correctly rounded, so computed in double (the product is exact)
  with the sum rounded to odd (TwoSum gives its error), then rounded once
  to half: round-to-odd at 53 bits then to nearest at 11 is correct;
- nextafter steps half's ulp, on the bits;
- fract is at most the half just below 1 (float's value rounds up to 1);
- isnormal: a half subnormal is a normal float;
- conversions to half with a rounding mode round once from a source the
  intermediate holds exactly (8- and 16-bit integers in float, 32-bit ones
  in double, 64-bit ones clamped to +-2^20 first, beyond which every
  result is the largest half or infinity anyway), and the directed modes
  step one half ulp from the nearest result where it lies on the wrong
  side of the source.
"""
from common import *

out = []
emit = out.append
emit(HEADER.format(gen='gen_half.py'))
# Where the declarations of the float functions called go (see the end).
emit('@USES@')


def f_of(e, n, to='float'):
    """Expression `e` (half of width n) converted to `to` of width n."""
    return f'(({to}){e})' if n == 1 else f'__builtin_convertvector({e}, {to}{n})'


def h_of(e, n):
    """Expression `e` (float or double of width n) rounded to half."""
    return f'((half){e})' if n == 1 else f'__builtin_convertvector({e}, half{n})'


def mask_of(e, n):
    """A relational result of float width n as half's: int for scalars,
    shortN (-1 or 0 per lane) for vectors."""
    return e if n == 1 else f'__builtin_convertvector({e}, short{n})'


def ast(e, t):
    return f'__builtin_astype({e}, {t})'


def call(f, *args):
    return f'{f}({", ".join(args)})'


def in_float(f, n, *names):
    """`f` called on the half arguments `names` (width n) converted to float."""
    return call(f, *(f_of(v, n) for v in names))


H = lambda n: vt('half', n)

# The relational functions computed on floats (their results as half's).
RELATIONAL_BINARY = ['isequal', 'isnotequal', 'isgreater', 'isgreaterequal', 'isless',
                     'islessequal', 'islessgreater', 'isordered', 'isunordered']
RELATIONAL_UNARY = ['isfinite', 'isinf', 'isnan']

UNARY = ['acos', 'acosh', 'acospi', 'asin', 'asinh', 'asinpi', 'atan', 'atanh',
         'atanpi', 'cbrt', 'ceil', 'cos', 'cosh', 'cospi', 'erfc', 'erf', 'exp',
         'exp2', 'exp10', 'expm1', 'fabs', 'floor', 'lgamma', 'log', 'log2',
         'log10', 'log1p', 'logb', 'rint', 'round', 'rsqrt', 'sin', 'sinh',
         'sinpi', 'sqrt', 'tan', 'tanh', 'tanpi', 'tgamma', 'trunc']
BINARY = ['atan2', 'atan2pi', 'copysign', 'fdim', 'fmax', 'fmin', 'fmod',
          'hypot', 'maxmag', 'minmag', 'pow', 'powr', 'remainder']

emit('\n/* ================ math (6.15.2) ================ */')
for n in W:
    V = H(n)
    I = vt('int', n)
    xf, yf = f_of('x', n), f_of('y', n)
    for f in UNARY:
        emit(f'{V} CNFN {f}({V} x) {{ return {h_of(call(f, xf), n)}; }}')
    for f in BINARY:
        emit(f'{V} CNFN {f}({V} x, {V} y) {{ return {h_of(call(f, xf, yf), n)}; }}')
    emit(f'{V} CNFN mad({V} x, {V} y, {V} z) {{ return {h_of(call("fma", xf, yf, f_of("z", n)), n)}; }}')
    emit(f'{I} CNFN ilogb({V} x) {{ return ilogb({xf}); }}')
    for f in ['ldexp', 'pown', 'rootn']:
        emit(f'{V} CNFN {f}({V} x, {I} k) {{ return {h_of(call(f, xf, "k"), n)}; }}')
    if n > 1:
        emit(f'{V} CNFN ldexp({V} x, int k) {{ return ldexp(x, ({I})k); }}')
        for f in ['fmax', 'fmin']:
            emit(f'{V} CNFN {f}({V} x, half y) {{ return {f}(x, ({V})y); }}')
    U = vt('ushort', n)
    ad, bd, cd = (f_of(v, n, 'double') for v in 'abc')
    emit(f'{V} CNFN nan({U} c) {{ return __builtin_astype(({U})(({U})0x7e00 | (c & ({U})0x01ff)), {V}); }}')

    # fma: double's product is exact; its sum rounded to odd, then to half.
    D, L = vt('double', n), vt('long', n)
    emit(f'''{V} CNFN fma({V} a, {V} b, {V} c) {{
  {D} p = {ad} * {bd}, cd = {cd};
  {D} s = p + cd, bb = s - p;
  {D} e = (p - (s - bb)) + (cd - bb);
  {L} sb = __builtin_astype(s, {L});
  {L} inexact_even = (e < 0 || e > 0) & ((sb & 1) == 0);
  {L} toward = (e > 0) == (s > 0);
  sb += inexact_even ? (toward ? ({L})1 : ({L})-1) : ({L})0;
  return {h_of(ast("sb", D), n)};
}}''')

    # nextafter on the bits, one lane at a time.
    if n == 1:
        emit('''half CNFN nextafter(half x, half y) {
  if (__builtin_isnan(x) || __builtin_isnan(y)) return x + y;
  if ((float)x == (float)y) return y;
  ushort ux = __builtin_astype(x, ushort);
  if ((ux & 0x7fff) == 0) return __builtin_astype((ushort)((__builtin_astype(y, ushort) & 0x8000) | 1), half);
  ux += ((float)x < (float)y) == ((float)x > 0.0f) ? 1 : -1;
  return __builtin_astype(ux, half);
}''')
    else:
        emit(f'{V} CNFN nextafter({V} x, {V} y) ' + split_call('half', 'nextafter', [('v', 'half', 'x'), ('v', 'half', 'y')], n))

# Functions with a result written through a pointer.
for AS in AS_OUT:
    q = f'{AS} ' if AS else ''
    for n in W:
        V, I = H(n), vt('int', n)
        Fv, Iv = vt('float', n), vt('int', n)
        x = f_of('x', n)
        emit(f'{V} OVL frexp({V} x, {q}{I} *e) {{ {Iv} t; {V} r = {h_of(f"frexp({x}, &t)", n)}; *e = t; return r; }}')
        emit(f'{V} OVL lgamma_r({V} x, {q}{I} *s) {{ {Iv} t; {V} r = {h_of(f"lgamma_r({x}, &t)", n)}; *s = t; return r; }}')
        emit(f'{V} OVL remquo({V} x, {V} y, {q}{I} *qo) {{ {Iv} t; {V} r = {h_of(call("remquo", x, f_of("y", n), "&t"), n)}; *qo = t; return r; }}')
        emit(f'{V} OVL modf({V} x, {q}{V} *ip) {{ {Fv} t; {V} r = {h_of(f"modf({x}, &t)", n)}; *ip = {h_of("t", n)}; return r; }}')
        emit(f'{V} OVL sincos({V} x, {q}{V} *c) {{ {Fv} t; {V} r = {h_of(f"sincos({x}, &t)", n)}; *c = {h_of("t", n)}; return r; }}')
        # The half below 1: float's largest fraction rounds up to 1.
        emit(f'{V} OVL fract({V} x, {q}{V} *ip) {{ {Fv} t, r = fract({x}, &t); '
             f'r = r > 0x1.ffcp-1f ? 0x1.ffcp-1f : r; *ip = {h_of("t", n)}; return {h_of("r", n)}; }}')

emit('\n/* ================ common (6.15.4) ================ */')
for n in W:
    V = H(n)
    fc = lambda f, *vs: in_float(f, n, *vs)
    emit(f'{V} CNFN clamp({V} x, {V} lo, {V} hi) {{ return {h_of(fc("clamp", "x", "lo", "hi"), n)}; }}')
    emit(f'{V} CNFN degrees({V} r) {{ return {h_of(fc("degrees", "r"), n)}; }}')
    emit(f'{V} CNFN radians({V} d) {{ return {h_of(fc("radians", "d"), n)}; }}')
    emit(f'{V} CNFN max({V} x, {V} y) {{ return {h_of(fc("max", "x", "y"), n)}; }}')
    emit(f'{V} CNFN min({V} x, {V} y) {{ return {h_of(fc("min", "x", "y"), n)}; }}')
    emit(f'{V} CNFN mix({V} x, {V} y, {V} t) {{ return {h_of(fc("mix", "x", "y", "t"), n)}; }}')
    emit(f'{V} CNFN step({V} edge, {V} x) {{ return {h_of(fc("step", "edge", "x"), n)}; }}')
    emit(f'{V} CNFN smoothstep({V} e0, {V} e1, {V} x) {{ return {h_of(fc("smoothstep", "e0", "e1", "x"), n)}; }}')
    emit(f'{V} CNFN sign({V} x) {{ return {h_of(fc("sign", "x"), n)}; }}')
    if n > 1:
        emit(f'{V} CNFN clamp({V} x, half lo, half hi) {{ return clamp(x, ({V})lo, ({V})hi); }}')
        emit(f'{V} CNFN max({V} x, half y) {{ return max(x, ({V})y); }}')
        emit(f'{V} CNFN min({V} x, half y) {{ return min(x, ({V})y); }}')
        emit(f'{V} CNFN mix({V} x, {V} y, half t) {{ return mix(x, y, ({V})t); }}')
        emit(f'{V} CNFN step(half edge, {V} x) {{ return step(({V})edge, x); }}')
        emit(f'{V} CNFN smoothstep(half e0, half e1, {V} x) {{ return smoothstep(({V})e0, ({V})e1, x); }}')

emit('\n/* ================ geometric (6.15.5) ================ */')
for n in [1, 2, 3, 4]:
    V = H(n)
    fc = lambda f, *vs: in_float(f, n, *vs)
    emit(f'half CNFN dot({V} x, {V} y) {{ return (half){fc("dot", "x", "y")}; }}')
    emit(f'half CNFN distance({V} x, {V} y) {{ return (half){fc("distance", "x", "y")}; }}')
    emit(f'half CNFN length({V} x) {{ return (half){fc("length", "x")}; }}')
    emit(f'{V} CNFN normalize({V} x) {{ return {h_of(fc("normalize", "x"), n)}; }}')
    if n in (3, 4):
        emit(f'{V} CNFN cross({V} x, {V} y) {{ return {h_of(fc("cross", "x", "y"), n)}; }}')

emit('\n/* ================ relational (6.15.6) ================ */')
for n in W:
    V = H(n)
    M = 'int' if n == 1 else f'short{n}'
    U = vt('ushort', n)
    fc = lambda f, *vs: in_float(f, n, *vs)
    for f in RELATIONAL_BINARY:
        emit(f'{M} CNFN {f}({V} x, {V} y) {{ return {mask_of(fc(f, "x", "y"), n)}; }}')
    for f in RELATIONAL_UNARY:
        emit(f'{M} CNFN {f}({V} x) {{ return {mask_of(fc(f, "x"), n)}; }}')
    # Half's own normal range (its subnormals are normal floats), and the
    # sign on the bits.
    if n == 1:
        emit('int CNFN isnormal(half x) { ushort m = __builtin_astype(x, ushort) & 0x7fff; return m >= 0x0400 && m < 0x7c00; }')
        emit('int CNFN signbit(half x) { return __builtin_astype(x, ushort) >> 15; }')
    else:
        emit(f'{M} CNFN isnormal({V} x) {{ {U} m = {ast("x", U)} & ({U})0x7fff; return m >= ({U})0x0400 & m < ({U})0x7c00; }}')
        emit(f'{M} CNFN signbit({V} x) {{ return {ast("x", M)} >> ({M})15; }}')
    emit(f'{V} CNFN bitselect({V} a, {V} b, {V} c) {{ return {ast(call("bitselect", ast("a", U), ast("b", U), ast("c", U)), V)}; }}')
    S = vt('short', n)
    for C in [S, U]:
        emit(f'{V} CNFN select({V} a, {V} b, {C} c) {{ return {ast(call("select", ast("a", U), ast("b", U), "c"), V)}; }}')

emit('\n/* ================ conversions (6.2.3) ================ */')
MODES = ['', '_rte', '_rtz', '_rtp', '_rtn']
SMALL_INT = ['char', 'uchar', 'short', 'ushort']


def exact_source(S, n):
    """(type, expression of x) holding x (S of width n) exactly in a type
    wide enough to round to half once from: see the docstring. 64-bit
    integers are clamped to +-2^20 first."""
    X = 'float' if S in SMALL_INT or S == 'float' else 'double'
    x = 'x'
    if S in ('long', 'ulong'):
        V = vt(S, n)
        lim = f'({V})0x100000'
        x = f'(x > {lim} ? {lim} : x)'
        if S == 'long':
            x = f'(x < -{lim} ? -{lim} : {x})'
    return X, (f'({X}){x}' if n == 1 else f'__builtin_convertvector({x}, {X}{n})')


def to_half_scalar(S, mode):
    if S == 'half':
        return 'return x;'
    X, w = exact_source(S, 1)
    if mode in ('', '_rte'):
        return f'return (half){w};'
    code = f'{X} w = {w}; half r = (half)w; {X} b = ({X})r; int c = b > w ? 1 : (b < w ? -1 : 0); '
    inf = '(half)__builtin_inff()'
    step = {'_rtz': f'if (w >= 0 ? c > 0 : c < 0) r = nextafter(r, (half)0.0f); ',
            '_rtp': f'if (c < 0) r = nextafter(r, {inf}); ',
            '_rtn': f'if (c > 0) r = nextafter(r, -{inf}); '}[mode]
    return code + step + 'return r;'


for S in IT + FT + ['half']:
    for mode in MODES:
        emit(f'half CNFN convert_half{mode}({S} x) {{ {to_half_scalar(S, mode)} }}')
        for n in VW:
            V = vt('half', n)
            if S == 'half':
                body = '{ return x; }'
            elif mode in ('', '_rte'):
                body = f'{{ return __builtin_convertvector({exact_source(S, n)[1]}, {V}); }}'
            else:
                lw, ls, hw, hs = halves(n)
                body = (f'{{ return ({V})(convert_{vt("half", lw)}{mode}(x{ls}), '
                        f'convert_{vt("half", hw)}{mode}(x{hs})); }}')
            emit(f'{V} CNFN convert_{V}{mode}({vt(S, n)} x) {body}')

for D in IT + FT:
    for sat in (['', '_sat'] if D in IT else ['']):
        for mode in MODES:
            name = f'convert_{D}{sat}{mode}'
            if D in IT:
                emit(f'{D} CNFN {name}(half x) {{ return {name}((float)x); }}')
            else:
                emit(f'{D} CNFN {name}(half x) {{ return ({D})x; }}')
            for n in VW:
                DV = vt(D, n)
                if D in IT:
                    body = f'{{ return convert_{DV}{sat}{mode}(__builtin_convertvector(x, float{n})); }}'
                else:
                    body = f'{{ return __builtin_convertvector(x, {DV}); }}'
                emit(f'{DV} CNFN convert_{DV}{sat}{mode}(half{n} x) {body}')

# clang-19 declares the builtins only when a name is looked up and nothing
# of that name is declared yet (-fdeclare-opencl-builtins): once
# `acos(half)` is defined here, `acos(float2)` would not be found and
# `acos((float)x)` would call the half overload. So every float function
# this file calls is declared first (defined in the library's other files).
protos = []
for n in W:
    F, I, U, S = vt('float', n), vt('int', n), vt('ushort', n), vt('short', n)
    R = 'int' if n == 1 else I
    sig = {'F': F, 'I': I, 'U': U, 'S': S, 'R': R, 's': 'float',
           'pI': f'__private {I} *', 'pF': f'__private {F} *'}
    decl = lambda ret, f, *args: protos.append(f'{sig[ret]} OVL {f}({", ".join(sig[x] for x in args)});')
    for f in UNARY + ['degrees', 'radians', 'sign', 'normalize']:
        decl('F', f, 'F')
    for f in BINARY + ['max', 'min', 'step'] + (['cross'] if n in (3, 4) else []):
        decl('F', f, 'F', 'F')
    for f in ['fma', 'clamp', 'mix', 'smoothstep']:
        decl('F', f, 'F', 'F', 'F')
    for f in ['ldexp', 'pown', 'rootn']:
        decl('F', f, 'F', 'I')
    decl('I', 'ilogb', 'F')
    for f in ['frexp', 'lgamma_r']:
        decl('F', f, 'F', 'pI')
    decl('F', 'remquo', 'F', 'F', 'pI')
    for f in ['modf', 'sincos', 'fract']:
        decl('F', f, 'F', 'pF')
    for f in RELATIONAL_UNARY:
        decl('R', f, 'F')
    for f in RELATIONAL_BINARY:
        decl('R', f, 'F', 'F')
    if n <= 4:
        decl('s', 'length', 'F')
        decl('s', 'dot', 'F', 'F')
        decl('s', 'distance', 'F', 'F')
    decl('U', 'bitselect', 'U', 'U', 'U')
    decl('U', 'select', 'U', 'U', 'U')
    decl('U', 'select', 'U', 'U', 'S')
    for D in IT:
        for sat in ['', '_sat']:
            for mode in MODES:
                protos.append(f'{vt(D, n)} OVL convert_{vt(D, n)}{sat}{mode}({F});')
out[out.index('@USES@')] = '\n'.join(protos)
open('../lib/half.cl', 'w').write('\n'.join(out) + '\n')
