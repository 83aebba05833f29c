"""Generates builtins/lib/kernel_clock.cl: cl_khr_kernel_clock's
clock_read_{device,work_group,sub_group} and their hilo forms, from the x86
time-stamp counter. The driver reports the extension only where the counter
is invariant and so one clock for every core (compiler::kernel_clock_supported:
constant_tsc and nonstop_tsc), which makes it a device-scope clock; the
work-group and sub-group clocks are the same counter."""
from common import *

out = []
emit = out.append
emit(HEADER.format(gen='gen_kernel_clock.py'))
emit('/* lfence first: the counter is read after the instructions before it,')
emit(' * so two reads in program order never go backwards; the memory clobber')
emit(' * keeps the compiler from moving memory accesses across a read. */')
emit('static inline ulong ferrocl_time_stamp(void) { uint lo, hi; '
     '__asm__ volatile("lfence\\n\\trdtsc" : "=a"(lo), "=d"(hi) : : "memory"); '
     'return ((ulong)hi << 32) | lo; }')
for scope in ['device', 'work_group', 'sub_group']:
    emit(f'ulong OVL clock_read_{scope}(void) {{ return ferrocl_time_stamp(); }}')
    emit(f'uint2 OVL clock_read_hilo_{scope}(void) {{ ulong t = ferrocl_time_stamp(); '
         f'return (uint2)((uint)t, (uint)(t >> 32)); }}')

open('../lib/kernel_clock.cl', 'w').write('\n'.join(out) + '\n')
