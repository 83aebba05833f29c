"""Generates builtins/lib/common.cl: OpenCL C 6.15.4 common, 6.15.5 geometric
and 6.15.6 relational functions."""
from common import *

out = []
emit = out.append
emit(HEADER.format(gen='gen_common.py'))


def ast(e, t):
    return f'__builtin_astype({e}, {t})'


emit('\n/* ================ common (6.15.4) ================ */')
for T in FT:
    s = 'f' if T == 'float' else ''
    for n in W:
        V = vt(T, n)
        I = vt(FINT[T], n) if n > 1 else 'int'
        emit(f'{V} CNFN clamp({V} x, {V} lo, {V} hi) {{ return fmin(fmax(x, lo), hi); }}')
        emit(f'{V} CNFN degrees({V} r) {{ return r * ({V})(({T})(180.0 / M_PI)); }}')
        emit(f'{V} CNFN radians({V} d) {{ return d * ({V})(({T})(M_PI / 180.0)); }}')
        emit(f'{V} CNFN max({V} x, {V} y) {{ return fmax(x, y); }}')
        emit(f'{V} CNFN min({V} x, {V} y) {{ return fmin(x, y); }}')
        emit(f'{V} CNFN mix({V} x, {V} y, {V} a) {{ return x + (y - x) * a; }}')
        emit(f'{V} CNFN step({V} edge, {V} x) {{ return x < edge ? ({V})0 : ({V})1; }}')
        emit(f'{V} CNFN smoothstep({V} e0, {V} e1, {V} x) {{ {V} t = clamp((x - e0) / (e1 - e0), ({V})0, ({V})1); return t * t * (({V})3 - ({V})2 * t); }}')
        emit(f'{V} CNFN sign({V} x) {{ return x != x ? ({V})0 : (x == ({V})0 ? x : copysign(({V})1, x)); }}')
        if n > 1:
            emit(f'{V} CNFN clamp({V} x, {T} lo, {T} hi) {{ return clamp(x, ({V})lo, ({V})hi); }}')
            emit(f'{V} CNFN max({V} x, {T} y) {{ return fmax(x, ({V})y); }}')
            emit(f'{V} CNFN min({V} x, {T} y) {{ return fmin(x, ({V})y); }}')
            emit(f'{V} CNFN mix({V} x, {V} y, {T} a) {{ return mix(x, y, ({V})a); }}')
            emit(f'{V} CNFN step({T} edge, {V} x) {{ return step(({V})edge, x); }}')
            emit(f'{V} CNFN smoothstep({T} e0, {T} e1, {V} x) {{ return smoothstep(({V})e0, ({V})e1, x); }}')

emit('\n/* ================ geometric (6.15.5) ================ */')
GW = [1, 2, 3, 4]
for T in ['double', 'float']:
    for n in GW:
        V = vt(T, n)
        comps = ['x'] if n == 1 else [f'p.s{i}' for i in range(n)]
        qs = ['y'] if n == 1 else [f'q.s{i}' for i in range(n)]
        if n == 1:
            emit(f'{T} CNFN dot({T} p, {T} q) {{ return p * q; }}')
        else:
            emit(f'{T} CNFN dot({V} p, {V} q) {{ return ' + ' + '.join(f'p.s{i} * q.s{i}' for i in range(n)) + '; }')
        pc = ['p'] if n == 1 else [f'p.s{i}' for i in range(n)]
        if T == 'float':
            # exact enough in double: no overflow/underflow for float inputs
            emit(f'float CNFN length({V} p) {{ return (float)__builtin_sqrt('
                 + ' + '.join(f'(double){c} * (double){c}' for c in pc) + '); }')
        else:
            mx = '__builtin_fabs(' + pc[0] + ')'
            for c in pc[1:]:
                mx = f'__builtin_fmax({mx}, __builtin_fabs({c}))'
            emit(f'''double CNFN length({V} p) {{
  double d = dot(p, p);
  if (d < __builtin_inf() && d > 0x1p-968) return __builtin_sqrt(d);
  if (__builtin_isnan(d)) return d;
  double m = {mx};
  if (m == 0.0 || __builtin_isinf(m)) return m;
  {V} y = p / m;
  return m * __builtin_sqrt(dot(y, y));
}}''')
        emit(f'{T} CNFN distance({V} p, {V} q) {{ return length(p - q); }}')
        isinf_any = ' || '.join(f'__builtin_isinf({c})' for c in pc)
        if T == 'float':
            # The length of a float vector may exceed FLT_MAX (or underflow):
            # divide in double, where neither happens.
            dv = 'double' if n == 1 else f'double{n}'
            to_d = '(double)p' if n == 1 else f'convert_{dv}(p)'
            back = '(float)' if n == 1 else f'convert_float{n}'
            emit((f'''{V} CNFN normalize({V} p) {{
  if ({isinf_any}) p = __builtin_isinf(p) ? copysign(({V})1, p) : ({V})0;
  double l = __builtin_sqrt(''' + ' + '.join(f'(double){c} * (double){c}' for c in pc) + f''');
  if (l == 0.0) return p;
  return {back}({to_d} / l);
}}''').replace('__builtin_isinf(p) ?', ('__builtin_isinf(p) ?' if n == 1 else 'isinf(p) ?')))
        else:
            # Scale by the largest magnitude first: the length of a double
            # vector may exceed DBL_MAX.
            emit(f'''{V} CNFN normalize({V} p) {{
  if ({isinf_any}) p = __builtin_isinf(p) ? copysign(({V})1, p) : ({V})0;
  {T} m = {mx};
  if (m == ({T})0) return p;
  p = p / m;
  return p / length(p);
}}'''.replace('__builtin_isinf(p) ?', ('__builtin_isinf(p) ?' if n == 1 else 'isinf(p) ?')))
        if T == 'float':
            emit(f'float CNFN fast_length({V} p) {{ return length(p); }}')
            emit(f'float CNFN fast_distance({V} p, {V} q) {{ return length(p - q); }}')
            emit(f'{V} CNFN fast_normalize({V} p) {{ return normalize(p); }}')
    emit(f'{T}3 CNFN cross({T}3 a, {T}3 b) {{ return ({T}3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }}')
    emit(f'{T}4 CNFN cross({T}4 a, {T}4 b) {{ return ({T}4)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x, ({T})0); }}')

emit('\n/* ================ relational (6.15.6) ================ */')
# isinf for vectors is used by normalize above; opencl-c.h declares it, but we
# define the relational functions before first use by emitting them at the top.
rel = []
remit = rel.append
for T in FT:
    for n in W:
        V = vt(T, n)
        R = 'int' if n == 1 else vt(FINT[T], n)
        UI = vt(FUINT[T], n)
        SI = vt(FINT[T], n)
        big = '0x1p127f' if T == 'float' else '0x1p1023'
        mn = 'FLT_MIN' if T == 'float' else 'DBL_MIN'
        inf = f'({V})__builtin_inf()'
        ax = f'fabs(x)' if True else ''
        for f, e in [('isequal', 'x == y'), ('isnotequal', 'x != y'), ('isgreater', 'x > y'),
                     ('isgreaterequal', 'x >= y'), ('isless', 'x < y'), ('islessequal', 'x <= y'),
                     ('islessgreater', '(x < y) || (x > y)'),
                     ('isordered', '(x == x) && (y == y)'), ('isunordered', '(x != x) || (y != y)')]:
            remit(f'{R} CNFN {f}({V} x, {V} y) {{ return {e}; }}')
        remit(f'{R} CNFN isfinite({V} x) {{ return fabs(x) < {inf}; }}')
        remit(f'{R} CNFN isinf({V} x) {{ return fabs(x) == {inf}; }}')
        remit(f'{R} CNFN isnan({V} x) {{ return x != x; }}')
        remit(f'{R} CNFN isnormal({V} x) {{ return (fabs(x) >= ({V}){mn}) && (fabs(x) < {inf}); }}')
        if n == 1:
            remit(f'int CNFN signbit({T} x) {{ return {ast("x", FINT[T])} < 0; }}')
        else:
            remit(f'{R} CNFN signbit({V} x) {{ return {ast("x", SI)} < ({SI})0; }}')
out[1:1] = rel  # right after the header

for T in ['char', 'short', 'int', 'long']:
    emit(f'int CNFN any({T} x) {{ return x < 0; }}')
    emit(f'int CNFN all({T} x) {{ return x < 0; }}')
    for n in VW:
        lw, ls, hw, hs = halves(n)
        emit(f'int CNFN any({vt(T, n)} x) {{ return any(x{ls}) | any(x{hs}); }}')
        emit(f'int CNFN all({vt(T, n)} x) {{ return all(x{ls}) & all(x{hs}); }}')

for T in IT + FT:
    for n in W:
        V = vt(T, n)
        if T in FT:
            UV = vt(FUINT[T], n)
            emit(f'{V} CNFN bitselect({V} a, {V} b, {V} c) {{ {UV} ua = {ast("a", UV)}, ub = {ast("b", UV)}, uc = {ast("c", UV)}; '
                 f'return {ast("(ua & ~uc) | (ub & uc)", V)}; }}')
        else:
            emit(f'{V} CNFN bitselect({V} a, {V} b, {V} c) {{ return (a & ~c) | (b & c); }}')
        ET = T if T in IT else FINT[T]
        for C in sorted({SGN[ET], UNS[ET]}):
            CV = vt(C, n)
            if n == 1:
                emit(f'{V} CNFN select({V} a, {V} b, {C} c) {{ return c ? b : a; }}')
            else:
                SV = vt(SGN[ET], n)
                emit(f'{V} CNFN select({V} a, {V} b, {CV} c) {{ return {ast("c", SV)} < ({SV})0 ? b : a; }}')

open('../lib/common.cl', 'w').write('\n'.join(out) + '\n')
