"""Generates builtins/lib/extended_integer.cl: the integer functions of
cl_khr_extended_bit_ops (bitfield_insert, bitfield_extract_signed,
bitfield_extract_unsigned, bit_reverse) and cl_khr_integer_dot_product
(dot, dot_acc_sat and their 4x8-bit packed forms)."""
from common import *

out = []
emit = out.append
emit(HEADER.format(gen='gen_extended_integer.py'))

emit('\n/* ---------------- cl_khr_extended_bit_ops ---------------- */')
emit('/* A count of 0 gives base (insert) or 0 (extract); offset + count beyond')
emit(' * the type\'s width is undefined (the extension says so). The bits are')
emit(' * handled in 64-bit registers, so that a count of the full width needs')
emit(' * no special case. */')
for T in IT:
    B = BITS[T]
    U = UNS[T]
    S = SGN[T]
    mask = '(~(ulong)0 >> (64 - count))'
    emit(f'{T} CNFN bitfield_insert({T} base, {T} insert, uint offset, uint count) {{ '
         f'if (count == 0) return base; ulong m = {mask} << offset; '
         f'return ({T})(({U})base & ~m | (((ulong)({U})insert << offset) & m)); }}')
    emit(f'{S} CNFN bitfield_extract_signed({T} base, uint offset, uint count) {{ '
         f'if (count == 0) return 0; '
         f'return ({S})((long)((ulong)({U})base << (64 - offset - count)) >> (64 - count)); }}')
    emit(f'{U} CNFN bitfield_extract_unsigned({T} base, uint offset, uint count) {{ '
         f'if (count == 0) return 0; return ({U})(((ulong)({U})base >> offset) & {mask}); }}')
    emit(f'{T} CNFN bit_reverse({T} base) {{ return ({T})__builtin_bitreverse{B}(({U})base); }}')
    for n in VW:
        V, UV, SV = vt(T, n), vt(U, n), vt(S, n)
        emit(f'{V} CNFN bitfield_insert({V} base, {V} insert, uint offset, uint count) {{ '
             f'{V} r; for (int i = 0; i < {n}; i++) r[i] = bitfield_insert(base[i], insert[i], offset, count); return r; }}')
        emit(f'{SV} CNFN bitfield_extract_signed({V} base, uint offset, uint count) {{ '
             f'{SV} r; for (int i = 0; i < {n}; i++) r[i] = bitfield_extract_signed(base[i], offset, count); return r; }}')
        emit(f'{UV} CNFN bitfield_extract_unsigned({V} base, uint offset, uint count) {{ '
             f'{UV} r; for (int i = 0; i < {n}; i++) r[i] = bitfield_extract_unsigned(base[i], offset, count); return r; }}')
        emit(f'{V} CNFN bit_reverse({V} base) {{ '
             f'return __builtin_astype(__builtin_elementwise_bitreverse(__builtin_astype(base, {UV})), {V}); }}')

emit('\n/* ---------------- cl_khr_integer_dot_product ---------------- */')
emit('/* Four products of 8-bit values summed in 32 bits (no overflow: at most')
emit(' * 4 * 255 * 255), then for dot_acc_sat added to the accumulator with')
emit(' * saturation. */')
PAIRS = [('uchar', 'uchar', 'uint', 'uu'), ('char', 'char', 'int', 'ss'),
         ('uchar', 'char', 'int', 'us'), ('char', 'uchar', 'int', 'su')]
for A, Bt, R, tag in PAIRS:
    emit(f'{R} CNFN dot({A}4 a, {Bt}4 b) {{ '
         f'return ({R})((int)a.x * (int)b.x + (int)a.y * (int)b.y + (int)a.z * (int)b.z + (int)a.w * (int)b.w); }}')
    emit(f'{R} CNFN dot_acc_sat({A}4 a, {Bt}4 b, {R} acc) {{ return add_sat(dot(a, b), acc); }}')
    emit(f'{R} CNFN dot_4x8packed_{tag}_{R}(uint a, uint b) {{ '
         f'return dot(__builtin_astype(a, {A}4), __builtin_astype(b, {Bt}4)); }}')
    emit(f'{R} CNFN dot_acc_sat_4x8packed_{tag}_{R}(uint a, uint b, {R} acc) {{ '
         f'return dot_acc_sat(__builtin_astype(a, {A}4), __builtin_astype(b, {Bt}4), acc); }}')

emit('\n/* SPIR-V\'s OpSDot, OpUDot, OpSUDot and their AccSat forms')
emit(' * (SPV_KHR_integer_dot_product), under the names the SPIR-V translator')
emit(' * calls: __spirv_<op>KHR_R<result type>, every operand mangled signed')
emit(' * (char4, or int for the packed form, whose last operand is the format:')
emit(' * 4x8-bit is the only one). The result is the exact dot product\'s low')
emit(' * bits; AccSat adds it to the accumulator with saturation in the result')
emit(' * type. */')
LIMITS = {'short': ('SHRT_MIN', 'SHRT_MAX'), 'ushort': ('0', 'USHRT_MAX'),
          'int': ('INT_MIN', 'INT_MAX'), 'uint': ('0', 'UINT_MAX')}
for op, A, Bt in (('S', 'char', 'char'), ('U', 'uchar', 'uchar'), ('SU', 'char', 'uchar')):
    for W in ('short', 'int', 'long'):
        R = 'u' + W if op == 'U' else W
        d = f'dot(__builtin_astype(a, {A}4), __builtin_astype(b, {Bt}4))'
        name, acc_name = f'__spirv_{op}DotKHR_R{R}', f'__spirv_{op}DotAccSatKHR_R{R}'
        emit(f'{R} CNFN {name}(char4 a, char4 b) {{ return ({R}){d}; }}')
        emit(f'{R} CNFN {name}(int a, int b, int format) {{ '
             f'return {name}(__builtin_astype(a, char4), __builtin_astype(b, char4)); }}')
        if R in LIMITS:
            lo, hi = LIMITS[R]
            sat = f'return ({R})clamp((long)({R})acc + (long){d}, (long){lo}, (long){hi});'
        else:
            sat = f'return add_sat(({R})acc, ({R}){d});'
        emit(f'{R} CNFN {acc_name}(char4 a, char4 b, {W} acc) {{ {sat} }}')
        emit(f'{R} CNFN {acc_name}(int a, int b, {W} acc, int format) {{ '
             f'return {acc_name}(__builtin_astype(a, char4), __builtin_astype(b, char4), acc); }}')

out = [l for l in out if l]
open('../lib/extended_integer.cl', 'w').write('\n'.join(out) + '\n')
