"""Generates builtins/lib/vload.cl (vloadn/vstoren, vload_half/vstore_half
families with all rounding modes, shuffle/shuffle2) and builtins/lib/atomic.cl
(OpenCL 1.x atomic_* and atom_* functions)."""
from common import *

VN = [2, 3, 4, 8, 16]
HEX = '0123456789abcdef'
MODES = {'': 0, '_rte': 0, '_rtz': 1, '_rtp': 2, '_rtn': 3}


def q(AS):
    return (AS + ' ') if AS else ''


out = []
emit = out.append
emit(HEADER.format(gen='gen_memory.py'))
emit(r'''
/* half <-> float/double conversions in software (exact, all rounding modes) */
static float __ferrocl_h2f(ushort h) {
  uint s = (uint)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0x1fu) return __builtin_astype(s | 0x7f800000u | (m << 13), float);
  if (e == 0u) { float v = (float)m * 0x1p-24f; return s ? -v : v; }
  return __builtin_astype(s | ((e + 112u) << 23) | (m << 13), float);
}
/* mode: 0 rte, 1 rtz, 2 rtp, 3 rtn */
static ushort __ferrocl_d2h(double x, int mode) {
  ulong b = __builtin_astype(x, ulong);
  ushort s = (ushort)((b >> 48) & 0x8000u);
  double a = __builtin_fabs(x);
  if (a != a) return (ushort)(s | 0x7e00u | ((b >> 42) & 0x3ffu));
  if (a == __builtin_inf()) return (ushort)(s | 0x7c00u);
  int up_inf = mode == 0 || (mode == 2 && !s) || (mode == 3 && s);
  if (a >= 65536.0) return (ushort)(s | (up_inf ? 0x7c00u : 0x7bffu));
  double ulp = a >= 0x1p-14 ? __builtin_ldexp(1.0, __builtin_ilogb(a) - 10) : 0x1p-24;
  double qv = a / ulp, n = __builtin_floor(qv), fr = qv - n;
  if (fr > 0.0) {
    if ((mode == 0 && (fr > 0.5 || (fr == 0.5 && __builtin_fmod(n, 2.0) != 0.0))) ||
        (mode == 2 && !s) || (mode == 3 && s))
      n += 1.0;
  }
  double v = n * ulp;
  if (v >= 65536.0) return (ushort)(s | 0x7c00u);
  if (v < 0x1p-14) return (ushort)(s | (ushort)n);
  int e = __builtin_ilogb(v);
  ushort mant = (ushort)(__builtin_ldexp(v, 10 - e) - 1024.0);
  return (ushort)(s | (ushort)((e + 15) << 10) | mant);
}
''')

# vloadn / vstoren
for T in IT + FT + ['half']:
    for n in VN:
        V = vt(T, n)
        comps = ', '.join(f'q[{i}]' for i in range(n))
        for AS in AS_IN:
            emit(f'{V} OVL vload{n}(size_t o, const {q(AS)}{T} *p) {{ const {q(AS)}{T} *q = p + o * {n}; return ({V})({comps}); }}')
        for AS in AS_OUT:
            st = ' '.join(f'q[{i}] = d.s{HEX[i]};' for i in range(n))
            emit(f'void OVL vstore{n}({V} d, size_t o, {q(AS)}{T} *p) {{ {q(AS)}{T} *q = p + o * {n}; {st} }}')

# half loads/stores
for AS in AS_IN:
    c = f'const {q(AS)}'
    emit(f'float OVL vload_half(size_t o, {c}half *p) {{ return __ferrocl_h2f((({c}ushort *)p)[o]); }}')
    for n in VN:
        comps = ', '.join(f'__ferrocl_h2f(q[{i}])' for i in range(n))
        for pre, stride in [('vload_half', n), ('vloada_half', 4 if n == 3 else n)]:
            emit(f'float{n} OVL {pre}{n}(size_t o, {c}half *p) {{ {c}ushort *q = ({c}ushort *)p + o * {stride}; return (float{n})({comps}); }}')
for AS in AS_OUT:
    for mode, mv in MODES.items():
        for T in FT:
            emit(f'void OVL vstore_half{mode}({T} d, size_t o, {q(AS)}half *p) {{ (({q(AS)}ushort *)p)[o] = __ferrocl_d2h((double)d, {mv}); }}')
            for n in VN:
                st = ' '.join(f'q[{i}] = __ferrocl_d2h((double)d.s{HEX[i]}, {mv});' for i in range(n))
                for pre, stride in [('vstore_half', n), ('vstorea_half', 4 if n == 3 else n)]:
                    emit(f'void OVL {pre}{n}{mode}({T}{n} d, size_t o, {q(AS)}half *p) {{ {q(AS)}ushort *q = ({q(AS)}ushort *)p + o * {stride}; {st} }}')

# shuffle / shuffle2
MASK = dict(UNS)
MASK.update({'float': 'uint', 'double': 'ulong', 'half': 'ushort'})
for T in IT + FT + ['half']:
    for m in [2, 4, 8, 16]:
        for n in [2, 4, 8, 16]:
            M = vt(MASK[T], n)
            emit(f'{vt(T, n)} CNFN shuffle({vt(T, m)} x, {M} mask) {{ {vt(T, n)} r; '
                 f'for (int i = 0; i < {n}; i++) r[i] = x[mask[i] & {m - 1}]; return r; }}')
            emit(f'{vt(T, n)} CNFN shuffle2({vt(T, m)} x, {vt(T, m)} y, {M} mask) {{ {vt(T, n)} r; '
                 f'for (int i = 0; i < {n}; i++) {{ uint k = (uint)(mask[i] & {2 * m - 1}); r[i] = k < {m} ? x[k] : y[k - {m}]; }} return r; }}')
open('../lib/vload.cl', 'w').write('\n'.join(out) + '\n')

# ---------------- atomics ----------------
out = []
emit = out.append
emit(HEADER.format(gen='gen_memory.py'))
SC = '__ATOMIC_SEQ_CST'
OPS = {'add': 'add', 'sub': 'sub', 'min': 'min', 'max': 'max', 'and': 'and', 'or': 'or', 'xor': 'xor'}


def atomics(prefix, T, AS):
    P = f'volatile {q(AS)}{T} *p'
    for op, b in OPS.items():
        emit(f'{T} OVL {prefix}_{op}({P}, {T} v) {{ return __atomic_fetch_{b}(p, v, {SC}); }}')
    emit(f'{T} OVL {prefix}_xchg({P}, {T} v) {{ return __atomic_exchange_n(p, v, {SC}); }}')
    emit(f'{T} OVL {prefix}_inc({P}) {{ return __atomic_fetch_add(p, ({T})1, {SC}); }}')
    emit(f'{T} OVL {prefix}_dec({P}) {{ return __atomic_fetch_sub(p, ({T})1, {SC}); }}')
    emit(f'{T} OVL {prefix}_cmpxchg({P}, {T} cmp, {T} v) {{ {T} e = cmp; '
         f'__atomic_compare_exchange_n(p, &e, v, 0, {SC}, {SC}); return e; }}')


for AS in ['__global', '__local', '']:
    for T in ['int', 'uint']:
        atomics('atomic', T, AS)
    emit(f'float OVL atomic_xchg(volatile {q(AS)}float *p, float v) {{ '
         f'return __builtin_astype(__atomic_exchange_n((volatile {q(AS)}uint *)p, __builtin_astype(v, uint), {SC}), float); }}')
for AS in ['__global', '__local']:
    for T in ['int', 'uint', 'long', 'ulong']:
        atomics('atom', T, AS)
open('../lib/atomic.cl', 'w').write('\n'.join(out) + '\n')
