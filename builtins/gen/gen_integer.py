"""Generates builtins/lib/integer.cl: OpenCL C 6.15.3 integer functions."""
from common import *

out = []
emit = out.append
emit(HEADER.format(gen='gen_integer.py'))

WIDER = {'char': 'short', 'uchar': 'ushort', 'short': 'int', 'ushort': 'uint',
         'int': 'long', 'uint': 'ulong'}
LIMITS = {'char': ('CHAR_MIN', 'CHAR_MAX'), 'uchar': ('0', 'UCHAR_MAX'),
          'short': ('SHRT_MIN', 'SHRT_MAX'), 'ushort': ('0', 'USHRT_MAX'),
          'int': ('INT_MIN', 'INT_MAX'), 'uint': ('0', 'UINT_MAX'),
          'long': ('LONG_MIN', 'LONG_MAX'), 'ulong': ('0', 'ULONG_MAX')}


def ast(e, t):
    return f'__builtin_astype({e}, {t})'


for T in IT:
    B = BITS[T]
    U = UNS[T]
    signed = T in SIGNED
    emit(f'\n/* ---------------- {T} ---------------- */')
    # scalar functions that vectors split into
    scal = {}
    # direct (width-agnostic) bodies
    for n in W:
        V, UV = vt(T, n), vt(U, n)
        if signed:
            ax, ay = ast('x', UV), ast('y', UV)
            emit(f'{UV} CNFN abs({V} x) {{ {UV} u = {ax}; return x < ({V})0 ? ({UV})(-u) : u; }}')
            emit(f'{UV} CNFN abs_diff({V} x, {V} y) {{ {UV} a = {ax}, b = {ay}; return x > y ? ({UV})(a - b) : ({UV})(b - a); }}')
        else:
            emit(f'{UV} CNFN abs({V} x) {{ return x; }}')
            emit(f'{UV} CNFN abs_diff({V} x, {V} y) {{ return x > y ? ({UV})(x - y) : ({UV})(y - x); }}')
        if n == 1 and B < 32:
            # clang promotes scalar char/short operands of the elementwise
            # builtins to int, where nothing saturates: clamp in int.
            lo, hi = LIMITS[T]
            emit(f'{V} CNFN add_sat({V} x, {V} y) {{ int r = (int)x + (int)y; return ({V})(r < {lo} ? {lo} : r > {hi} ? {hi} : r); }}')
            emit(f'{V} CNFN sub_sat({V} x, {V} y) {{ int r = (int)x - (int)y; return ({V})(r < {lo} ? {lo} : r > {hi} ? {hi} : r); }}')
        else:
            emit(f'{V} CNFN add_sat({V} x, {V} y) {{ return __builtin_elementwise_add_sat(x, y); }}')
            emit(f'{V} CNFN sub_sat({V} x, {V} y) {{ return __builtin_elementwise_sub_sat(x, y); }}')
        emit(f'{V} CNFN hadd({V} x, {V} y) {{ return ({V})((x >> 1) + (y >> 1) + (x & y & ({V})1)); }}')
        emit(f'{V} CNFN rhadd({V} x, {V} y) {{ return ({V})((x >> 1) + (y >> 1) + ((x | y) & ({V})1)); }}')
        emit(f'{V} CNFN max({V} x, {V} y) {{ return __builtin_elementwise_max(x, y); }}')
        emit(f'{V} CNFN min({V} x, {V} y) {{ return __builtin_elementwise_min(x, y); }}')
        emit(f'{V} CNFN clamp({V} x, {V} lo, {V} hi) {{ return __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi); }}')
        if n > 1:
            emit(f'{V} CNFN max({V} x, {T} y) {{ return __builtin_elementwise_max(x, ({V})y); }}')
            emit(f'{V} CNFN min({V} x, {T} y) {{ return __builtin_elementwise_min(x, ({V})y); }}')
            emit(f'{V} CNFN clamp({V} x, {T} lo, {T} hi) {{ return clamp(x, ({V})lo, ({V})hi); }}')
        av, ai = ast('v', UV), ast('i', UV)
        rot = ast(f'({UV})((u << k) | (u >> ((({UV}){B} - k) & ({UV}){B - 1})))', V)
        emit(f'{V} CNFN rotate({V} v, {V} i) {{ {UV} u = {av}; {UV} k = {ai} & ({UV}){B - 1}; return {rot}; }}')
        if T in ('int', 'uint'):
            ax, ay, az = ast('x', UV), ast('y', UV), ast('z', UV)
            m = ast(f'{ax} * {ay}', V)
            ma = ast(f'{ax} * {ay} + {az}', V)
            emit(f'{V} CNFN mul24({V} x, {V} y) {{ return {m}; }}')
            emit(f'{V} CNFN mad24({V} x, {V} y, {V} z) {{ return {ma}; }}')
    # scalar-only bodies, vectors split
    emit(f'{T} CNFN clz({T} x) {{ return ({T})__builtin_clzg(({U})x, {B}); }}')
    emit(f'{T} CNFN ctz({T} x) {{ return ({T})__builtin_ctzg(({U})x, {B}); }}')
    emit(f'{T} CNFN popcount({T} x) {{ return ({T})__builtin_popcountg(({U})x); }}')
    if B < 64:
        Wd = WIDER[T]
        emit(f'{T} CNFN mul_hi({T} x, {T} y) {{ return ({T})((({Wd})x * ({Wd})y) >> {B}); }}')
        lo, hi = LIMITS[T]
        emit(f'{T} CNFN mad_sat({T} a, {T} b, {T} c) {{ {"long" if signed else "ulong"} p = ({"long" if signed else "ulong"})a * b + c; '
             + (f'if (p < {lo}) return {lo}; ' if signed else '')
             + f'return p > {hi} ? {hi} : ({T})p; }}')
        if B == 32 and not signed:
            # ulong product cannot overflow for uint (max (2^32-1)^2 + 2^32-1 < 2^64)
            pass
    else:
        w = '__int128' if signed else 'unsigned __int128'
        emit(f'{T} CNFN mul_hi({T} x, {T} y) {{ return ({T})((({w})x * ({w})y) >> 64); }}')
        lo, hi = LIMITS[T]
        emit(f'{T} CNFN mad_sat({T} a, {T} b, {T} c) {{ {w} p = ({w})a * b + c; '
             + (f'if (p < ({w}){lo}) return {lo}; ' if signed else '')
             + f'return p > ({w}){hi} ? {hi} : ({T})p; }}')
    emit(f'{T} CNFN mad_hi({T} a, {T} b, {T} c) {{ return ({T})(mul_hi(a, b) + c); }}')
    for n in VW:
        V = vt(T, n)
        for f in ['clz', 'ctz', 'popcount']:
            emit(f'{V} CNFN {f}({V} x) ' + split_call(T, f, [('v', T, 'x')], n))
        emit(f'{V} CNFN mul_hi({V} x, {V} y) ' + split_call(T, 'mul_hi', [('v', T, 'x'), ('v', T, 'y')], n))
        emit(f'{V} CNFN mad_hi({V} a, {V} b, {V} c) {{ return ({V})(mul_hi(a, b) + c); }}')
        emit(f'{V} CNFN mad_sat({V} a, {V} b, {V} c) ' + split_call(T, 'mad_sat', [('v', T, 'a'), ('v', T, 'b'), ('v', T, 'c')], n))
    # upsample
    if B < 64:
        Wd = WIDER[T]
        emit(f'{Wd} CNFN upsample({T} hi, {U} lo) {{ return ({Wd})((({Wd})hi << {B}) | ({Wd})lo); }}')
        for n in VW:
            emit(f'{vt(Wd, n)} CNFN upsample({vt(T, n)} hi, {vt(U, n)} lo) '
                 + split_call(Wd, 'upsample', [('v', T, 'hi'), ('v', U, 'lo')], n))

out = [l for l in out if l]
open('../lib/integer.cl', 'w').write('\n'.join(out) + '\n')
