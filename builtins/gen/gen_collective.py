"""Generates builtins/lib/collective.cl: the work-group collective functions
(OpenCL C 6.15.17, __opencl_c_work_group_collective_functions) and the
sub-group ones (6.15.19, __opencl_c_subgroups / cl_khr_subgroups):
all, any, broadcast, reduce, scan_inclusive and scan_exclusive with add,
min and max, for int, uint, long, ulong, float and double; and the
sub-group extensions' shuffle, shuffle_xor, shuffle_up/down, rotate,
clustered_rotate and clustered_reduce_<op> (cl_khr_subgroup_shuffle,
_shuffle_relative, _rotate, _clustered_reduce), for char to double;
cl_khr_subgroup_extended_types' broadcast, reduce and scans for char to
ushort and broadcast of every type's vectors; and cl_intel_subgroups'
shuffles (scalars and vectors), which DPC++ calls.

Kernels calling them run one fiber per work-item (src/compiler/ir.rs), so a
collective is: every work-item of the group (or sub-group) stores its value
in its own slot of the group's scratch (struct ferrocl_wg_ctx,
collective_scratch: one 8-byte slot per local linear id, then a result slot
for the group and one per sub-group), waits, the first work-item combines the
slots in local-linear-id order (so scans follow that order and float results
are the same on every run) into the result slot, or in place for a scan,
and after a second wait every work-item reads its answer. A broadcast
waits first and only then stores the source's value in the result slot,
so it needs no third wait either.

What makes back-to-back collectives safe: after a collective's last wait
the work-items still read (their own slot or the result slot), and the
next collective may start in one work-item before another has read. So a
collective stores, before its first wait, only into the caller's own slot
(which only the caller reads after a last wait), and writes the result
slot or other work-items' slots only after its first wait, which every
member reaches after its reads of the previous collective. (A broadcast
that stored the result slot before waiting overwrote an any's or a
reduce's result that later work-items of the sub-group, or of the group's
work-item loop, had yet to read.) A sub-group's wait is a sub-group
barrier: other sub-groups go on (src/sched/ndrange.rs)."""
from common import *

TYPES = ['int', 'uint', 'long', 'ulong', 'float', 'double']
# The identities of min and max, for every type a sub-group reduces.
MIN_ID = {'int': 'INT_MAX', 'uint': 'UINT_MAX', 'long': 'LONG_MAX', 'ulong': 'ULONG_MAX',
          'float': 'INFINITY', 'double': '(double)INFINITY', 'char': 'CHAR_MAX',
          'uchar': 'UCHAR_MAX', 'short': 'SHRT_MAX', 'ushort': 'USHRT_MAX', 'half': '(half)INFINITY'}
MAX_ID = {'int': 'INT_MIN', 'uint': '0', 'long': 'LONG_MIN', 'ulong': '0',
          'float': '-INFINITY', 'double': '-(double)INFINITY', 'char': 'CHAR_MIN',
          'uchar': '0', 'short': 'SHRT_MIN', 'ushort': '0', 'half': '-(half)INFINITY'}
OPS = {
    'add': (lambda a, b: f'{a} + {b}', lambda T: '0'),
    'min': (lambda a, b: f'({b} < {a} ? {b} : {a})', lambda T: MIN_ID[T]),
    'max': (lambda a, b: f'({a} < {b} ? {b} : {a})', lambda T: MAX_ID[T]),
    # cl_khr_work_group_uniform_arithmetic's, which DPC++'s SPIR-V calls
    # (dpnp's prod, cumprod, det; any/all as logical_or/and).
    'mul': (lambda a, b: f'{a} * {b}', lambda T: '1'),
}
INTEGER_OPS = {
    'and': (lambda a, b: f'{a} & {b}', lambda T: f'({T})~({T})0'),
    'or': (lambda a, b: f'{a} | {b}', lambda T: '0'),
    'xor': (lambda a, b: f'{a} ^ {b}', lambda T: '0'),
}
LOGICAL_OPS = {
    'logical_and': (lambda a, b: f'(int)({a} && {b})', lambda T: '1'),
    'logical_or': (lambda a, b: f'(int)({a} || {b})', lambda T: '0'),
    'logical_xor': (lambda a, b: f'(int)(!{a} != !{b})', lambda T: '0'),
}


def ops_for(T):
    ops = dict(OPS)
    if T in ('int', 'uint', 'long', 'ulong'):
        ops.update(INTEGER_OPS)
    if T == 'int':
        ops.update(LOGICAL_OPS)
    return ops
def reduce_scan_helpers(T, op, combine, identity):
    """The static reduce and scans of `op` over a span, for T."""
    return f'''static {T} OVL __ferrocl_reduce_{op}(__ferrocl_span g, {T} x) {{
  __global ulong *s = __ferrocl_slots();
  *(__global {T} *)(s + g.me) = x;
  __ferrocl_collective_wait(g.sub_group);
  if (g.me == g.first) {{
    {T} acc = {identity(T)};
    for (size_t i = g.first; i < g.first + g.count; i++) acc = {combine('acc', f'*(__global {T} *)(s + i)')};
    *(__global {T} *)(s + g.result) = acc;
  }}
  __ferrocl_collective_wait(g.sub_group);
  return *(__global {T} *)(s + g.result);
}}
static {T} OVL __ferrocl_scan_inclusive_{op}(__ferrocl_span g, {T} x) {{
  __global ulong *s = __ferrocl_slots();
  *(__global {T} *)(s + g.me) = x;
  __ferrocl_collective_wait(g.sub_group);
  if (g.me == g.first) {{
    {T} acc = {identity(T)};
    for (size_t i = g.first; i < g.first + g.count; i++) {{
      __global {T} *p = (__global {T} *)(s + i);
      acc = {combine('acc', '*p')};
      *p = acc;
    }}
  }}
  __ferrocl_collective_wait(g.sub_group);
  return *(__global {T} *)(s + g.me);
}}
static {T} OVL __ferrocl_scan_exclusive_{op}(__ferrocl_span g, {T} x) {{
  __global ulong *s = __ferrocl_slots();
  *(__global {T} *)(s + g.me) = x;
  __ferrocl_collective_wait(g.sub_group);
  if (g.me == g.first) {{
    {T} acc = {identity(T)};
    for (size_t i = g.first; i < g.first + g.count; i++) {{
      __global {T} *p = (__global {T} *)(s + i);
      {T} v = *p;
      *p = acc;
      acc = {combine('acc', 'v')};
    }}
  }}
  __ferrocl_collective_wait(g.sub_group);
  return *(__global {T} *)(s + g.me);
}}'''


# (prefix, the span of work-items taking part)
SCOPES = [('work_group', '__ferrocl_wg_span()'), ('sub_group', '__ferrocl_sg_span()')]

out = []
emit = out.append
emit(HEADER.format(gen='gen_collective.py'))
emit('''
/* builtins/workitem.c */
ulong __ferrocl_collective_scratch(void);
__attribute__((convergent)) void __ferrocl_collective_wait(uint sub_group);

/* The work-items taking part in a collective: local linear ids
 * [first, first + count), the caller's id, the result slot, and whether the
 * wait is a sub-group barrier. */
typedef struct {
  size_t first, count, me, result;
  uint sub_group;
} __ferrocl_span;

static size_t __ferrocl_items(void) {
  return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

static __ferrocl_span __ferrocl_wg_span(void) {
  size_t n = __ferrocl_items();
  __ferrocl_span g = {0, n, get_local_linear_id(), n, 0};
  return g;
}

static __ferrocl_span __ferrocl_sg_span(void) {
  size_t me = get_local_linear_id();
  __ferrocl_span g = {me - get_sub_group_local_id(), get_sub_group_size(), me,
                      __ferrocl_items() + 1 + get_sub_group_id(), 1};
  return g;
}

static __global ulong *__ferrocl_slots(void) {
  return (__global ulong *)__ferrocl_collective_scratch();
}

/* all/any: predicates as 0/1 in the slots, combined with & or |. */
static int __ferrocl_vote(__ferrocl_span g, int predicate, int all) {
  __global ulong *s = __ferrocl_slots();
  s[g.me] = predicate != 0;
  __ferrocl_collective_wait(g.sub_group);
  if (g.me == g.first) {
    ulong acc = all;
    for (size_t i = g.first; i < g.first + g.count; i++) acc = all ? acc & s[i] : acc | s[i];
    s[g.result] = acc;
  }
  __ferrocl_collective_wait(g.sub_group);
  return (int)s[g.result];
}
''')
for scope, span in SCOPES:
    emit(f'int OVL {scope}_all(int predicate) {{ return __ferrocl_vote({span}, predicate, 1); }}')
    emit(f'int OVL {scope}_any(int predicate) {{ return __ferrocl_vote({span}, predicate, 0); }}')

for T in TYPES:
    emit(f'''
/* {T} */
static {T} OVL __ferrocl_broadcast(__ferrocl_span g, {T} x, size_t source) {{
  __global {T} *r = (__global {T} *)(__ferrocl_slots() + g.result);
  /* Not before the others have read the previous result (see above). */
  __ferrocl_collective_wait(g.sub_group);
  if (g.me == source) *r = x;
  __ferrocl_collective_wait(g.sub_group);
  return *r;
}}
{T} OVL work_group_broadcast({T} x, size_t local_id) {{
  return __ferrocl_broadcast(__ferrocl_wg_span(), x, local_id);
}}
{T} OVL work_group_broadcast({T} x, size_t lx, size_t ly) {{
  return __ferrocl_broadcast(__ferrocl_wg_span(), x, ly * get_local_size(0) + lx);
}}
{T} OVL work_group_broadcast({T} x, size_t lx, size_t ly, size_t lz) {{
  return __ferrocl_broadcast(__ferrocl_wg_span(), x,
                             (lz * get_local_size(1) + ly) * get_local_size(0) + lx);
}}
{T} OVL sub_group_broadcast({T} x, uint sub_group_local_id) {{
  __ferrocl_span g = __ferrocl_sg_span();
  return __ferrocl_broadcast(g, x, g.first + sub_group_local_id);
}}''')
    for op, (combine, identity) in ops_for(T).items():
        emit(reduce_scan_helpers(T, op, combine, identity))
        # The integer ones also under the names the SPIR-V translator gives
        # OpGroupBitwise*KHR (SPV_KHR_uniform_group_instructions).
        names = [op] + ([f'bitwise_{op}'] if op in INTEGER_OPS else [])
        for scope, span in SCOPES:
            for kind in ['reduce', 'scan_inclusive', 'scan_exclusive']:
                for name in names:
                    emit(f'{T} OVL {scope}_{kind}_{name}({T} x) '
                         f'{{ return __ferrocl_{kind}_{op}({span}, x); }}')

# cl_khr_subgroup_shuffle, _shuffle_relative, _rotate, _clustered_reduce:
# every work-item stores its value in its own slot, waits, reads the slot
# (or the cluster's slots) it wants, and waits again before returning, so
# that no later collective overwrites a slot another work-item has yet to
# read (the rule above: before its first wait a collective writes only the
# caller's slot). A source index outside the sub-group (undefined by the
# extensions) gives the caller's own value rather than another sub-group's
# slot.
# half: cl_khr_fp16's overloads of the sub-group functions.
SHUFFLE_TYPES = ['char', 'uchar', 'short', 'ushort'] + TYPES + ['half']
INT_TYPES = ['char', 'uchar', 'short', 'ushort', 'int', 'uint', 'long', 'ulong']
emit('''
/* The value of the sub-group's work-item `source` (sub-group local id). */
#define __FERROCL_SHUFFLE(T, x, source) do { \\
  __ferrocl_span g = __ferrocl_sg_span(); \\
  __global ulong *s = __ferrocl_slots(); \\
  *(__global T *)(s + g.me) = (x); \\
  __ferrocl_collective_wait(1); \\
  size_t src = (source); \\
  T v = src < g.count ? *(__global T *)(s + g.first + src) : (x); \\
  __ferrocl_collective_wait(1); \\
  return v; \\
} while (0)
''')
for T in SHUFFLE_TYPES:
    emit(f'static {T} OVL __ferrocl_shuffle({T} x, size_t source) {{ __FERROCL_SHUFFLE({T}, x, source); }}')
    emit(f'{T} OVL sub_group_shuffle({T} x, uint index) {{ return __ferrocl_shuffle(x, index); }}')
    emit(f'{T} OVL sub_group_shuffle_xor({T} x, uint mask) {{ return __ferrocl_shuffle(x, get_sub_group_local_id() ^ mask); }}')
    emit(f'{T} OVL sub_group_shuffle_up({T} x, uint delta) {{ return __ferrocl_shuffle(x, get_sub_group_local_id() - delta); }}')
    emit(f'{T} OVL sub_group_shuffle_down({T} x, uint delta) {{ return __ferrocl_shuffle(x, get_sub_group_local_id() + delta); }}')
    emit(f'{T} OVL sub_group_rotate({T} x, int delta) {{ '
         f'long n = get_sub_group_size(); __FERROCL_SHUFFLE({T}, x, (size_t)((((long)get_sub_group_local_id() + delta) % n + n) % n)); }}')
    emit(f'{T} OVL sub_group_clustered_rotate({T} x, int delta, uint clustersize) {{ '
         f'long c = clustersize, l = get_sub_group_local_id(); '
         f'__FERROCL_SHUFFLE({T}, x, (size_t)(l - l % c + ((l % c + delta) % c + c) % c)); }}')

# cl_intel_subgroups' shuffles, which DPC++'s SPIR-V calls (the
# translator's names for OpSubgroupShuffle*INTEL), for scalars and, a
# component at a time, vectors. shuffle_up/down take their values from the
# work-item delta below/above, and past the sub-group's start/end from the
# other operand of the work-item a maximum sub-group size away; both
# exchanges run in every work-item (they wait), and each keeps the one it
# needs.
for T in SHUFFLE_TYPES:
    emit(f'{T} OVL intel_sub_group_shuffle({T} x, uint c) {{ return __ferrocl_shuffle(x, c); }}')
    emit(f'{T} OVL intel_sub_group_shuffle_xor({T} x, uint c) {{ return __ferrocl_shuffle(x, get_sub_group_local_id() ^ c); }}')
    emit(f'{T} OVL intel_sub_group_shuffle_up({T} prev, {T} cur, uint delta) {{ '
         f'long j = (long)get_sub_group_local_id() - delta; '
         f'{T} a = __ferrocl_shuffle(cur, (size_t)j); '
         f'{T} b = __ferrocl_shuffle(prev, (size_t)(j + get_max_sub_group_size())); '
         f'return j >= 0 ? a : b; }}')
    emit(f'{T} OVL intel_sub_group_shuffle_down({T} cur, {T} next, uint delta) {{ '
         f'size_t j = get_sub_group_local_id() + delta, m = get_max_sub_group_size(); '
         f'{T} a = __ferrocl_shuffle(cur, j); {T} b = __ferrocl_shuffle(next, j - m); '
         f'return j < m ? a : b; }}')
    for n in VW:
        V = vt(T, n)
        emit(f'{V} OVL intel_sub_group_shuffle({V} x, uint c) {{ '
             f'{V} r; for (int i = 0; i < {n}; i++) r[i] = intel_sub_group_shuffle(x[i], c); return r; }}')
        emit(f'{V} OVL intel_sub_group_shuffle_xor({V} x, uint c) {{ '
             f'{V} r; for (int i = 0; i < {n}; i++) r[i] = intel_sub_group_shuffle_xor(x[i], c); return r; }}')
        emit(f'{V} OVL intel_sub_group_shuffle_up({V} p, {V} x, uint d) {{ '
             f'{V} r; for (int i = 0; i < {n}; i++) r[i] = intel_sub_group_shuffle_up(p[i], x[i], d); return r; }}')
        emit(f'{V} OVL intel_sub_group_shuffle_down({V} x, {V} q, uint d) {{ '
             f'{V} r; for (int i = 0; i < {n}; i++) r[i] = intel_sub_group_shuffle_down(x[i], q[i], d); return r; }}')

# cl_khr_subgroup_extended_types: broadcast, reduce and scans (add, min,
# max) for char, uchar, short, ushort and half (cl_khr_fp16), and broadcast for the vectors of
# every type, a component at a time (a vector does not fit the result slot;
# a broadcast is a shuffle from the same work-item everywhere).
EXT_TYPES = ['char', 'uchar', 'short', 'ushort', 'half']
for T in EXT_TYPES:
    emit(f'{T} OVL sub_group_broadcast({T} x, uint sub_group_local_id) '
         f'{{ return __ferrocl_shuffle(x, sub_group_local_id); }}')
    for op in ['add', 'min', 'max']:
        combine, identity = OPS[op]
        emit(reduce_scan_helpers(T, op, combine, identity))
        for kind in ['reduce', 'scan_inclusive', 'scan_exclusive']:
            emit(f'{T} OVL sub_group_{kind}_{op}({T} x) '
                 f'{{ return __ferrocl_{kind}_{op}(__ferrocl_sg_span(), x); }}')
for T in SHUFFLE_TYPES:
    for n in VW:
        V = vt(T, n)
        emit(f'{V} OVL sub_group_broadcast({V} x, uint sub_group_local_id) {{ '
             f'{V} r; for (int i = 0; i < {n}; i++) r[i] = __ferrocl_shuffle(x[i], sub_group_local_id); return r; }}')

# cl_intel_subgroups' buffer block reads and writes (declared to kernels
# by intel_subgroups.h, below): the sub-group's
# work-items read or write a block from a pointer they share, work-item l
# element l, and component i of a vector i maximum sub-group sizes further.
# No work-item reads another's value: no wait.
# (BLOCK_WIDTHS and block_widths: common.py, which gen_image.py shares.)


def block_buffer_functions(W, name):
    """The buffer block reads and writes of elements of type W, named
    intel_sub_group_block_read{name}{n} and _write{name}{n}."""
    for n in block_widths(W):
        suffix = '' if n == 1 else str(n)
        V = vt(W, n)
        emit(f'{V} OVL intel_sub_group_block_read{name}{suffix}(const __global {W} *p) {{ '
             f'size_t l = get_sub_group_local_id(), m = get_max_sub_group_size(); '
             f'{V} r; for (int i = 0; i < {n}; i++) (({W} *)&r)[i] = p[l + i * m]; return r; }}')
        emit(f'void OVL intel_sub_group_block_write{name}{suffix}(__global {W} *p, {V} data) {{ '
             f'size_t l = get_sub_group_local_id(), m = get_max_sub_group_size(); '
             f'for (int i = 0; i < {n}; i++) p[l + i * m] = (({W} *)&data)[i]; }}')


block_buffer_functions('uint', '')

# cl_intel_subgroups_short: the intel_ names of the 16-bit broadcasts,
# reductions and scans (the cl_khr_subgroup_extended_types functions
# above), block reads and writes of ushort buffers (as the uint ones), and
# the uint block functions under their _ui names.
SHORT_TYPES = ['short', 'ushort']
# cl_intel_subgroups_char: the same of 8-bit integers, and uchar blocks.
CHAR_TYPES = ['char', 'uchar']


def intel_collectives(types):
    """The intel_ broadcasts (scalars and vectors), reductions and scans of
    `types`, as (result, name, parameters as (type, name), the call)."""
    out = []
    for T in types:
        for V in [T] + [vt(T, n) for n in VW]:
            out.append((V, 'intel_sub_group_broadcast', [(V, 'x'), ('uint', 'id')], 'sub_group_broadcast(x, id)'))
        for op in ['add', 'min', 'max']:
            for kind in ['reduce', 'scan_inclusive', 'scan_exclusive']:
                out.append((T, f'intel_sub_group_{kind}_{op}', [(T, 'x')], f'sub_group_{kind}_{op}(x)'))
    return out


def define_intel_collectives(types):
    for r, name, params, call in intel_collectives(types):
        emit(f'{r} OVL {name}({", ".join(f"{t} {n}" for t, n in params)}) {{ return {call}; }}')


define_intel_collectives(SHORT_TYPES)
block_buffer_functions('ushort', '_us')
define_intel_collectives(CHAR_TYPES)
block_buffer_functions('uchar', '_uc')
# cl_intel_subgroups_long: ulong blocks.
block_buffer_functions('ulong', '_ul')
for n in BLOCK_WIDTHS:
    suffix = '' if n == 1 else str(n)
    U = vt('uint', n)
    emit(f'{U} OVL intel_sub_group_block_read_ui{suffix}(const __global uint *p) {{ '
         f'return intel_sub_group_block_read{suffix}(p); }}')
    emit(f'void OVL intel_sub_group_block_write_ui{suffix}(__global uint *p, {U} data) {{ '
         f'intel_sub_group_block_write{suffix}(p, data); }}')

CLUSTER_OPS = {
    'add': (lambda a, b: f'{a} + {b}', SHUFFLE_TYPES),
    'mul': (lambda a, b: f'{a} * {b}', SHUFFLE_TYPES),
    'min': (lambda a, b: f'({b} < {a} ? {b} : {a})', SHUFFLE_TYPES),
    'max': (lambda a, b: f'({a} < {b} ? {b} : {a})', SHUFFLE_TYPES),
    'and': (lambda a, b: f'{a} & {b}', INT_TYPES),
    'or': (lambda a, b: f'{a} | {b}', INT_TYPES),
    'xor': (lambda a, b: f'{a} ^ {b}', INT_TYPES),
    'logical_and': (lambda a, b: f'(int)({a} && {b})', ['int']),
    'logical_or': (lambda a, b: f'(int)({a} || {b})', ['int']),
    'logical_xor': (lambda a, b: f'(int)(!{a} != !{b})', ['int']),
}
emit('/* A cluster\'s values combined in sub-group local id order, by every')
emit(' * work-item of the cluster (the same order for all: the same float result). */')
for op, (combine, types) in CLUSTER_OPS.items():
    for T in types:
        first = '*(__global T *)(s + start)'.replace('T', T)
        acc = combine('acc', f'*(__global {T} *)(s + i)')
        if op.startswith('logical'):
            first = f'(int)(*(__global {T} *)(s + start) != 0)'
        emit(f'{T} OVL sub_group_clustered_reduce_{op}({T} x, uint clustersize) {{ '
             f'__ferrocl_span g = __ferrocl_sg_span(); __global ulong *s = __ferrocl_slots(); '
             f'*(__global {T} *)(s + g.me) = x; __ferrocl_collective_wait(1); '
             f'size_t start = g.me - (g.me - g.first) % clustersize; '
             f'size_t end = min(start + clustersize, g.first + g.count); '
             f'{T} acc = {first}; for (size_t i = start + 1; i < end; i++) acc = {acc}; '
             f'__ferrocl_collective_wait(1); return acc; }}')

# cl_khr_subgroup_non_uniform_vote, _ballot and _non_uniform_arithmetic:
# the work-items that call one of these functions together are those of
# the sub-group waiting at the same call site (__ferrocl_non_uniform_wait,
# builtins/workitem.c; the executor gathers them, src/sched/ndrange.rs).
# The site is the function's return address, so the public functions are
# never inlined; each waits twice, as the collectives above do (after its
# value is in its slot, and after the first active work-item has combined
# them), at the site's two phases. The mask the wait returns has bit i for
# sub-group local id i.
NU_TYPES = ['char', 'uchar', 'short', 'ushort', 'int', 'uint', 'long', 'ulong', 'float', 'double', 'half']
NU = '__attribute__((overloadable, noinline))'
SITE = '(ulong)__builtin_return_address(0) << 1'
emit('''
/* builtins/workitem.c */
__attribute__((convergent)) ulong __ferrocl_non_uniform_wait(ulong site);

/* The caller's value in its slot, the wait with the others at `site`; their
 * mask. */
#define __FERROCL_NU_ARRIVE(T, x, site) \\
  __ferrocl_span g = __ferrocl_sg_span(); \\
  __global ulong *s = __ferrocl_slots(); \\
  *(__global T *)(s + g.me) = (x); \\
  ulong mask = __ferrocl_non_uniform_wait(site); \\
  size_t me = g.me - g.first
/* The value of sub-group local id i. */
#define __FERROCL_NU_AT(T, i) (*(__global T *)(s + g.first + (i)))
/* Before anyone writes its slot again. */
#define __FERROCL_NU_LEAVE(site) __ferrocl_non_uniform_wait((site) | 1)
''')
# The operations of the uniform reductions above, over the same types.
NU_OPS = {op: (combine, identity, NU_TYPES if op in OPS else INT_TYPES if op in INTEGER_OPS else ['int'])
          for op, (combine, identity) in {**OPS, **INTEGER_OPS, **LOGICAL_OPS}.items()}


def nu_fold(T, value, R, init, update, result='acc'):
    """A non-uniform function whose result is one value for the active
    work-items: `value` (of type T) in the caller's slot; the first active
    work-item runs the statement `update(v)` (of `acc`, of type R, from
    `init`) for each active work-item i in local id order, whose value is v,
    and leaves acc in the sub-group's result slot, which each returns as
    `result` (of acc). One pass over the slots for the sub-group, not one
    per work-item."""
    v = f'__FERROCL_NU_AT({T}, i)'
    return (f'ulong site = {SITE}; __FERROCL_NU_ARRIVE({T}, {value}, site); '
            f'__global {R} *out = (__global {R} *)(s + g.result); '
            f'if (me == (size_t)__builtin_ctzl(mask)) {{ {R} acc = {init}; '
            f'for (size_t i = 0; i < g.count; i++) if (mask >> i & 1) {update(v)}; *out = acc; }} '
            f'__FERROCL_NU_LEAVE(site); {R} acc = *out; return {result};')


def nu_scan(T, combine, identity, inclusive):
    """A non-uniform scan: the first active work-item replaces each active
    one's value in its slot by the combination of those up to it
    (inclusive) or before it (exclusive), which each returns."""
    v = f'__FERROCL_NU_AT({T}, i)'
    step = (f'acc = {combine("acc", "v")}; {v} = acc;' if inclusive
            else f'{v} = acc; acc = {combine("acc", "v")};')
    return (f'ulong site = {SITE}; __FERROCL_NU_ARRIVE({T}, x, site); '
            f'if (me == (size_t)__builtin_ctzl(mask)) {{ {T} acc = {identity}; '
            f'for (size_t i = 0; i < g.count; i++) if (mask >> i & 1) {{ {T} v = {v}; {step} }} }} '
            f'__FERROCL_NU_LEAVE(site); return __FERROCL_NU_AT({T}, me);')


for op, (combine, identity, types) in NU_OPS.items():
    for T in types:
        # The active work-items' values in local id order: all of them
        # (reduce), up to the caller's (inclusive) or before it (exclusive).
        body = nu_fold(T, 'x', T, identity(T), lambda v: f'acc = {combine("acc", v)}')
        emit(f'{T} {NU} sub_group_non_uniform_reduce_{op}({T} x) {{ {body} }}')
        for kind, inclusive in [('scan_inclusive', True), ('scan_exclusive', False)]:
            body = nu_scan(T, combine, identity(T), inclusive)
            emit(f'{T} {NU} sub_group_non_uniform_{kind}_{op}({T} x) {{ {body} }}')

# Votes and ballots.
emit(f'''int {NU} sub_group_elect(void) {{
  ulong mask = __ferrocl_non_uniform_wait({SITE});
  return get_sub_group_local_id() == (uint)__builtin_ctzl(mask);
}}
int {NU} sub_group_non_uniform_all(int predicate) {{ {nu_fold('int', 'predicate != 0', 'int', '1', lambda v: f'acc &= {v}')} }}
int {NU} sub_group_non_uniform_any(int predicate) {{ {nu_fold('int', 'predicate != 0', 'int', '0', lambda v: f'acc |= {v}')} }}
uint4 {NU} sub_group_ballot(int predicate) {{ {nu_fold('int', 'predicate != 0', 'uint', '0', lambda v: f'acc |= (uint)({v} != 0) << i', result='(uint4)(acc, 0, 0, 0)')} }}''')
for T in NU_TYPES:
    # Equal bits (NaN is not equal to itself, as ==).
    emit(f'int {NU} sub_group_non_uniform_all_equal({T} x) {{ {nu_fold(T, "x", "int", "1", lambda v: f"acc &= {v} == x")} }}')
    for n in W:
        V = vt(T, n)
        # A component at a time through the slot (a vector does not fit it).
        x, r = ('x', 'r') if n == 1 else ('x[c]', 'r[c]')
        for name, params, pick in [('sub_group_non_uniform_broadcast', f'{V} x, uint index', 'index'),
                                   ('sub_group_broadcast_first', f'{V} x', '(size_t)__builtin_ctzl(mask)')]:
            emit(f'{V} {NU} {name}({params}) {{ {V} r; ulong site = {SITE}; '
                 f'for (int c = 0; c < {n}; c++) {{ __FERROCL_NU_ARRIVE({T}, {x}, site); '
                 f'{r} = {pick} < g.count ? __FERROCL_NU_AT({T}, {pick}) : {x}; __FERROCL_NU_LEAVE(site); }} '
                 f'return r; }}')

# The ballot's bit functions, and the masks: no wait (functions of their
# arguments and the caller's id). Bits at or beyond the maximum sub-group
# size are not the sub-group's (the Khronos CTS counts a short last
# sub-group's bits up to that size).
emit('''static uint __ferrocl_sub_group_bits(void) {
  uint n = get_max_sub_group_size();
  return n >= 32 ? 0xffffffffu : (1u << n) - 1u;
}
int OVL sub_group_inverse_ballot(uint4 value) { return (value.x >> get_sub_group_local_id()) & 1; }
int OVL sub_group_ballot_bit_extract(uint4 value, uint index) {
  return index < 32 ? (value.x >> index) & 1 : 0;
}
uint OVL sub_group_ballot_bit_count(uint4 value) { return popcount(value.x & __ferrocl_sub_group_bits()); }
uint OVL sub_group_ballot_inclusive_scan(uint4 value) {
  return popcount(value.x & __ferrocl_sub_group_bits() & (uint)((2ul << get_sub_group_local_id()) - 1));
}
uint OVL sub_group_ballot_exclusive_scan(uint4 value) {
  return popcount(value.x & __ferrocl_sub_group_bits() & ((1u << get_sub_group_local_id()) - 1u));
}
uint OVL sub_group_ballot_find_lsb(uint4 value) { return ctz(value.x & __ferrocl_sub_group_bits()); }
uint OVL sub_group_ballot_find_msb(uint4 value) { return 31 - clz(value.x & __ferrocl_sub_group_bits()); }
uint4 OVL get_sub_group_eq_mask(void) { return (uint4)(1u << get_sub_group_local_id(), 0, 0, 0); }
uint4 OVL get_sub_group_ge_mask(void) {
  return (uint4)(__ferrocl_sub_group_bits() & ~((1u << get_sub_group_local_id()) - 1u), 0, 0, 0);
}
uint4 OVL get_sub_group_gt_mask(void) {
  return (uint4)(__ferrocl_sub_group_bits() & ~(uint)((2ul << get_sub_group_local_id()) - 1), 0, 0, 0);
}
uint4 OVL get_sub_group_le_mask(void) { return (uint4)((uint)((2ul << get_sub_group_local_id()) - 1), 0, 0, 0); }
uint4 OVL get_sub_group_lt_mask(void) { return (uint4)((1u << get_sub_group_local_id()) - 1u, 0, 0, 0); }''')

with open('../lib/collective.cl', 'w') as f:
    f.write('\n'.join(out) + '\n')

# The declarations OpenCL C kernels need for cl_intel_subgroups, which
# clang-19 declares for no target ferrocl compiles for: the driver
# includes this file ahead of every OpenCL C source (compiler::driver).
decl = ['// Generated by builtins/gen/gen_collective.py -- do not edit by hand.',
        '// cl_intel_subgroups\' functions, defined in collective.cl and image.cl.',
        '#if defined(cl_intel_subgroups)',
        '#define FERROCL_OVL __attribute__((overloadable, convergent))']
for T in SHUFFLE_TYPES:
    if T == 'half':
        # Declared with half enabled, which a kernel enables after this
        # file (the pragma's default is disabled, as left here).
        decl.append('#if defined(cl_khr_fp16)')
        decl.append('#pragma OPENCL EXTENSION cl_khr_fp16 : enable')
    for V in [T] + [vt(T, n) for n in VW]:
        decl.append(f'{V} FERROCL_OVL intel_sub_group_shuffle({V}, uint);')
        decl.append(f'{V} FERROCL_OVL intel_sub_group_shuffle_xor({V}, uint);')
        decl.append(f'{V} FERROCL_OVL intel_sub_group_shuffle_up({V}, {V}, uint);')
        decl.append(f'{V} FERROCL_OVL intel_sub_group_shuffle_down({V}, {V}, uint);')
    if T == 'half':
        decl.append('#pragma OPENCL EXTENSION cl_khr_fp16 : disable')
        decl.append('#endif')
IMAGES = '!defined(__OPENCL_C_VERSION__) || __OPENCL_C_VERSION__ < 300 || defined(__opencl_c_images)'
RW_IMAGES = ('defined(__opencl_c_read_write_images) || '
             '(__OPENCL_C_VERSION__ >= 200 && __OPENCL_C_VERSION__ < 300)')


def block_declarations(blocks):
    """Declarations of the buffer and 2D image block reads and writes of
    `blocks`, (element type, name) pairs; image ones where the language
    version has images of that access."""
    for W, name in blocks:
        for n in block_widths(W):
            suffix, V = ('' if n == 1 else str(n)), vt(W, n)
            decl.append(f'{V} FERROCL_OVL intel_sub_group_block_read{name}{suffix}(const __global {W} *);')
            decl.append(f'void FERROCL_OVL intel_sub_group_block_write{name}{suffix}(__global {W} *, {V});')
    for access, cond in [('read_only', IMAGES), ('write_only', IMAGES), ('read_write', RW_IMAGES)]:
        decl.append(f'#if {cond}')
        for W, name in blocks:
            for n in block_widths(W):
                suffix, V = ('' if n == 1 else str(n)), vt(W, n)
                if access != 'write_only':
                    decl.append(f'{V} FERROCL_OVL intel_sub_group_block_read{name}{suffix}({access} image2d_t, int2);')
                if access != 'read_only':
                    decl.append(f'void FERROCL_OVL intel_sub_group_block_write{name}{suffix}({access} image2d_t, int2, {V});')
        decl.append('#endif')


def declare_intel_collectives(types):
    for r, name, params, _ in intel_collectives(types):
        decl.append(f'{r} FERROCL_OVL {name}({", ".join(t for t, _ in params)});')


block_declarations([('uint', '')])
decl.append('#if defined(cl_intel_subgroups_short)')
declare_intel_collectives(SHORT_TYPES)
block_declarations([('ushort', '_us'), ('uint', '_ui')])
decl.append('#endif // cl_intel_subgroups_short')
decl.append('#if defined(cl_intel_subgroups_char)')
declare_intel_collectives(CHAR_TYPES)
block_declarations([('uchar', '_uc')])
decl.append('#endif // cl_intel_subgroups_char')
decl.append('#if defined(cl_intel_subgroups_long)')
block_declarations([('ulong', '_ul')])
decl.append('#endif // cl_intel_subgroups_long')
decl += ['#undef FERROCL_OVL', '#endif // cl_intel_subgroups']
with open('../lib/intel_subgroups.h', 'w') as f:
    f.write('\n'.join(decl) + '\n')
