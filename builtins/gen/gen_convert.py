"""Generates builtins/lib/convert.cl: OpenCL C 6.2.3 explicit conversions
convert_<dst><n>[_sat][_rte|_rtz|_rtp|_rtn](<src><n>) for all scalar types
char..ulong, float, double and widths 1, 2, 3, 4, 8, 16."""
from common import *

out = []
emit = out.append
emit(HEADER.format(gen='gen_convert.py'))

ALL = IT + FT
MODES = ['', '_rte', '_rtz', '_rtp', '_rtn']
MANT = {'float': 24, 'double': 53}


def irange(t):
    b = BITS[t]
    if t in SIGNED:
        return -(1 << (b - 1)), (1 << (b - 1)) - 1
    return 0, (1 << b) - 1


def lit(v, t):
    # integer literal of value v usable in type-t comparisons
    if v == -(1 << 63):
        return '(-0x7fffffffffffffffL - 1)'
    if v < 0:
        return f'({v}L)'
    return f'{v}UL' if v >= (1 << 63) else f'{v}L'


def flit(v, t):
    e = v.bit_length() - 1 if v > 0 else 0
    assert v == 0 or abs(v) == 1 << (abs(v).bit_length() - 1)
    if v == 0:
        return '0.0f' if t == 'float' else '0.0'
    sgn = '-' if v < 0 else ''
    ex = abs(v).bit_length() - 1
    return f'{sgn}0x1p{ex}' + ('f' if t == 'float' else '')


def exact_int_to_float(S, D):
    return BITS[S] - (1 if S in SIGNED else 0) <= MANT[D]


def scalar_body(D, S, sat, mode):
    s = 'f' if S == 'float' else ''
    if D in IT and S in IT:
        if not sat:
            return f'return ({D})x;'
        dlo, dhi = irange(D)
        slo, shi = irange(S)
        code = ''
        if slo < dlo:
            code += f'if (x < ({S}){lit(dlo, S)}) return ({D}){lit(dlo, D)}; '
        if shi > dhi:
            code += f'if (x > ({S}){lit(dhi, S)}) return ({D}){lit(dhi, D)}; '
        return code + f'return ({D})x;'
    if D in IT and S in FT:
        rnd = {'': 'trunc', '_rtz': 'trunc', '_rte': 'roundeven', '_rtp': 'ceil', '_rtn': 'floor'}[mode]
        dlo, dhi = irange(D)
        return (f'{S} r = __builtin_{rnd}{s}(x); if (r != r) return 0; '
                f'if (r >= {flit(dhi + 1, S)}) return ({D}){lit(dhi, D)}; '
                f'if (r <= {flit(dlo, S)}) return ({D}){lit(dlo, D)}; return ({D})r;')
    if D in FT and S in IT:
        if mode in ('', '_rte') or exact_int_to_float(S, D):
            return f'return ({D})x;'
        shi = irange(S)[1] + 1
        d = 'f' if D == 'float' else ''
        code = (f'{D} r = ({D})x; int c; if (r >= {flit(shi, D)}) c = 1; '
                f'else {{ {S} b = ({S})r; c = b > x ? 1 : (b < x ? -1 : 0); }} ')
    else:  # float <-> float
        if D == S or (D == 'double') or mode in ('', '_rte'):
            return f'return ({D})x;'
        d = 'f'
        code = f'float r = (float)x; int c = (double)r > x ? 1 : ((double)r < x ? -1 : 0); '
    if mode == '_rtz':
        code += f'if (x >= 0 ? c > 0 : c < 0) r = __builtin_nextafter{d}(r, 0); '
    elif mode == '_rtp':
        code += f'if (c < 0) r = __builtin_nextafter{d}(r, __builtin_inf{d}()); '
    elif mode == '_rtn':
        code += f'if (c > 0) r = __builtin_nextafter{d}(r, -__builtin_inf{d}()); '
    return code + 'return r;'


def vector_direct(D, S, sat, mode):
    if D in IT and S in IT:
        return not sat
    if D in FT and S in IT:
        return mode in ('', '_rte') or exact_int_to_float(S, D)
    if D in FT and S in FT:
        return D == S or D == 'double' or mode in ('', '_rte')
    return False


for D in ALL:
    for S in ALL:
        for sat in (['', '_sat'] if D in IT else ['']):
            for mode in MODES:
                name1 = f'convert_{D}{sat}{mode}'
                emit(f'{D} CNFN {name1}({S} x) {{ {scalar_body(D, S, sat, mode)} }}')
                for n in VW:
                    name = f'convert_{vt(D, n)}{sat}{mode}'
                    if vector_direct(D, S, sat, mode):
                        body = f'{{ return __builtin_convertvector(x, {vt(D, n)}); }}'
                    else:
                        lw, ls, hw, hs = halves(n)
                        lo = f'convert_{vt(D, lw)}{sat}{mode}(x{ls})'
                        hi = f'convert_{vt(D, hw)}{sat}{mode}(x{hs})'
                        body = f'{{ return ({vt(D, n)})({lo}, {hi}); }}'
                    emit(f'{vt(D, n)} CNFN {name}({vt(S, n)} x) {body}')

open('../lib/convert.cl', 'w').write('\n'.join(out) + '\n')
