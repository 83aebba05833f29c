"""Generates builtins/lib/collective.cl: the work-group collective functions
(OpenCL C 6.15.17, __opencl_c_work_group_collective_functions) and the
sub-group ones (6.15.19, __opencl_c_subgroups / cl_khr_subgroups):
all, any, broadcast, reduce, scan_inclusive and scan_exclusive with add,
min and max, for int, uint, long, ulong, float and double.

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
MIN_ID = {'int': 'INT_MAX', 'uint': 'UINT_MAX', 'long': 'LONG_MAX', 'ulong': 'ULONG_MAX',
          'float': 'INFINITY', 'double': '(double)INFINITY'}
MAX_ID = {'int': 'INT_MIN', 'uint': '0', 'long': 'LONG_MIN', 'ulong': '0',
          'float': '-INFINITY', 'double': '-(double)INFINITY'}
OPS = {
    'add': (lambda a, b: f'{a} + {b}', lambda T: '0'),
    'min': (lambda a, b: f'({b} < {a} ? {b} : {a})', lambda T: MIN_ID[T]),
    'max': (lambda a, b: f'({a} < {b} ? {b} : {a})', lambda T: MAX_ID[T]),
}
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
    for op, (combine, identity) in OPS.items():
        emit(f'''static {T} OVL __ferrocl_reduce_{op}(__ferrocl_span g, {T} x) {{
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
}}''')
        for scope, span in SCOPES:
            for kind in ['reduce', 'scan_inclusive', 'scan_exclusive']:
                emit(f'{T} OVL {scope}_{kind}_{op}({T} x) '
                     f'{{ return __ferrocl_{kind}_{op}({span}, x); }}')

with open('../lib/collective.cl', 'w') as f:
    f.write('\n'.join(out) + '\n')
