"""Generates builtins/lib/async.cl: async_work_group_copy,
async_work_group_strided_copy, wait_group_events and prefetch (OpenCL C
6.15.11) for every gentype.

On a CPU the copy is done at once, by the work-items together: every
work-item of the group meets the call with the same arguments (the spec
requires it) and copies the elements whose index is congruent to its local
linear id modulo the group's size. The returned event is the one passed in
(nothing stays in flight); wait_group_events is a work-group barrier, after
which every element is in place for every work-item. Kernels calling these
therefore run with barrier support (src/compiler/ir.rs)."""
from common import *

TYPES = IT + FT + ['half']

out = []
emit = out.append
emit(HEADER.format(gen='gen_async.py'))
emit('''
static size_t __ferrocl_group_items(void) {
  return get_local_size(0) * get_local_size(1) * get_local_size(2);
}
''')
for T in TYPES:
    for n in W:
        V = vt(T, n)
        body_copy = ('{ size_t s_ = __ferrocl_group_items(); '
                     'for (size_t i = get_local_linear_id(); i < num; i += s_) dst[i] = src[i]; '
                     'return event; }')
        emit(f'event_t OVL async_work_group_copy(__local {V} *dst, const __global {V} *src, '
             f'size_t num, event_t event) {body_copy}')
        emit(f'event_t OVL async_work_group_copy(__global {V} *dst, const __local {V} *src, '
             f'size_t num, event_t event) {body_copy}')
        emit(f'event_t OVL async_work_group_strided_copy(__local {V} *dst, const __global {V} *src, '
             f'size_t num, size_t src_stride, event_t event) '
             '{ size_t s_ = __ferrocl_group_items(); '
             'for (size_t i = get_local_linear_id(); i < num; i += s_) dst[i] = src[i * src_stride]; '
             'return event; }')
        emit(f'event_t OVL async_work_group_strided_copy(__global {V} *dst, const __local {V} *src, '
             f'size_t num, size_t dst_stride, event_t event) '
             '{ size_t s_ = __ferrocl_group_items(); '
             'for (size_t i = get_local_linear_id(); i < num; i += s_) dst[i * dst_stride] = src[i]; '
             'return event; }')
        emit(f'void OVL prefetch(const __global {V} *p, size_t num) {{ (void)p; (void)num; }}')

emit('''
/* Every copy is complete once every work-item has done its part. */
void OVL wait_group_events(int num_events, event_t *event_list) {
  (void)num_events; (void)event_list;
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
void OVL wait_group_events(int num_events, __private event_t *event_list) {
  (void)num_events; (void)event_list;
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
''')

with open('../lib/async.cl', 'w') as f:
    f.write('\n'.join(out))
