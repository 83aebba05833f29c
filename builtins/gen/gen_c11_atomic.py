"""Generates builtins/lib/c11_atomic.cl: the OpenCL C 2.0/3.0 atomic
functions (atomic_init, atomic_load/store/exchange, atomic_compare_exchange_*,
atomic_fetch_*, atomic_flag_*, with and without _explicit, on generic,
__global and __local atomic objects), cl_ext_float_atomics' half, float and
double load/store/exchange and fetch_add/sub/min/max included.

The overload set is read from clang-19's own opencl-c.h (the section
"OpenCL v2.0 s6.13.11 - Atomics Functions"), so that every declaration a
kernel can see has exactly one definition here. The guards there (the
__opencl_c_atomic_order_*, __opencl_c_atomic_scope_*,
__opencl_c_generic_address_space and __opencl_c_ext_* feature macros) decide
what a kernel sees; this library defines the whole set unconditionally
(the feature macros the device reports are set on the kernel's side, see
src/compiler/mod.rs), except atomic_work_item_fence (builtins/workitem.c).
The atomic_half read-modify-writes are compare-and-swap loops of 16 bits
(LLVM's expansion of atomicrmw on half for x86).

Each function is one clang __opencl_atomic_* builtin, which lowers to the
LLVM atomic instruction (load, store, atomicrmw, cmpxchg) with the same
memory order: on x86_64 exactly the host's C11 atomics, so host threads
using <stdatomic.h> on fine-grain SVM interoperate with kernels. A memory
order that is not a constant becomes a switch, which inlining folds. The
memory scope is passed on; clang maps every OpenCL scope to LLVM's system
scope for this target (no narrower scope is cheaper on a CPU whose
work-groups may run on any core)."""
import re
from common import HEADER

OPENCL_C_H = '/usr/lib/llvm-19/lib/clang/19/include/opencl-c.h'
BEGIN = '// OpenCL v2.0 s6.13.11 - Atomics Functions'
END = '// OpenCL v1.1 s6.11.12, v1.2 s6.12.12, v2.0 s6.13.12'

SAME = {'intptr_t': 'long', 'uintptr_t': 'ulong', 'ptrdiff_t': 'long',
        'size_t': 'ulong'}

DEFAULT_ORDER = 'memory_order_seq_cst'
DEFAULT_SCOPE = 'memory_scope_device'


def declarations(text):
    """Each `__ovld` declaration of the atomics section, whitespace
    normalized, in header order, without duplicates."""
    section = text[text.index(BEGIN):text.index(END)].replace('\\\n', ' ')
    # Drop comments and preprocessor lines; join the rest into statements.
    lines = [l for l in section.splitlines()
             if not l.lstrip().startswith(('#', '//'))]
    seen, out = set(), []
    for stmt in ' '.join(lines).split(';'):
        stmt = ' '.join(stmt.split())
        if '__ovld' not in stmt:
            continue
        # uintptr_t is ulong here (and intptr_t, ptrdiff_t long): overloads
        # that differ only in those names are one function.
        key = re.sub(r'\b(atomic_)?(u?intptr_t|ptrdiff_t|size_t)\b',
                     lambda m: (m.group(1) or '') + SAME[m.group(2)],
                     stmt[stmt.index('__ovld'):])
        if key in seen:
            continue
        seen.add(key)
        out.append(stmt)
    return out


DECL = re.compile(r'^(?P<ret>.+?) __ovld (?P<name>\w+)\((?P<params>.*)\)$')


def value_type(object_type):
    """`volatile __global atomic_uintptr_t *` -> `uintptr_t`."""
    t = re.search(r'\batomic_(\w+)', object_type).group(1)
    return 'int' if t == 'flag' else t


def define(decl):
    m = DECL.match(decl)
    ret, name = m.group('ret'), m.group('name')
    params = [p.strip() for p in m.group('params').split(',')]
    obj = params[0]
    names, values, orders, scope, expected = ['p'], [], [], None, None
    for i, t in enumerate(params[1:]):
        if t == 'memory_order':
            names.append(f'o{len(orders)}')
            orders.append(names[-1])
        elif t == 'memory_scope':
            names.append('s')
            scope = 's'
        elif t.endswith('*'):
            names.append('e')
            expected = 'e'
        else:
            names.append(f'v{len(values)}')
            values.append(names[-1])
    sig = ', '.join(f'{t} {n}' for t, n in zip(params, names))
    vt = value_type(obj)
    vals = [f'({vt}){v}' for v in values]
    scope = scope or DEFAULT_SCOPE
    order = orders[0] if orders else DEFAULT_ORDER
    op = name[len('atomic_'):].removesuffix('_explicit')
    if op == 'init':
        body = f'__opencl_atomic_init(p, {vals[0]})'
    elif op == 'load':
        body = f'__opencl_atomic_load(p, {order}, {scope})'
    elif op in ('store', 'flag_clear'):
        v = vals[0] if vals else '0'
        body = f'__opencl_atomic_store(p, {v}, {order}, {scope})'
    elif op == 'exchange' or op.startswith('fetch_'):
        builtin = 'exchange' if op == 'exchange' else op
        body = f'__opencl_atomic_{builtin}(p, {vals[0]}, {order}, {scope})'
    elif op == 'flag_test_and_set':
        body = f'__opencl_atomic_exchange(p, 1, {order}, {scope}) != 0'
    elif op.startswith('compare_exchange_'):
        failure = orders[1] if len(orders) > 1 else order
        body = (f'__opencl_atomic_{op}(p, {expected}, {vals[0]}, '
                f'{order}, {failure}, {scope})')
    else:
        raise ValueError(f'unknown atomic function {name}')
    ret_kw = '' if ret == 'void' else 'return '
    return f'{ret} OVL {name}({sig}) {{ {ret_kw}{body}; }}'


def main():
    decls = [d for d in declarations(open(OPENCL_C_H).read())
             if 'atomic_work_item_fence' not in d]
    out = [HEADER.format(gen='gen_c11_atomic.py')]
    out.append('// OpenCL C 2.0/3.0 atomics: one definition per declaration of '
               'opencl-c.h (see the generator).')
    out.extend(define(d) for d in decls)
    # clang-19's own declarations of the builtins (-fdeclare-opencl-builtins,
    # what kernels get) give atomic_half's atomic_store_explicit an
    # atomic_half value (`U7_AtomicDhS_` in its name): those overloads too.
    for space in ['__global ', '__local ', '']:
        obj = f'volatile {space}atomic_half *p, atomic_half v, memory_order o'
        out.append(f'void OVL atomic_store_explicit({obj}, memory_scope s) '
                   f'{{ half h = v; __opencl_atomic_store(p, h, o, s); }}')
        out.append(f'void OVL atomic_store_explicit({obj}) '
                   f'{{ half h = v; __opencl_atomic_store(p, h, o, {DEFAULT_SCOPE}); }}')
        out.append(f'void OVL atomic_store(volatile {space}atomic_half *p, atomic_half v) '
                   f'{{ half h = v; __opencl_atomic_store(p, h, {DEFAULT_ORDER}, {DEFAULT_SCOPE}); }}')
    open('../lib/c11_atomic.cl', 'w').write('\n'.join(out) + '\n')


main()
