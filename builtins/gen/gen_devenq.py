"""Generates builtins/lib/devenq.cl: the overloaded OpenCL C functions of
device-side enqueue (OpenCL C 6.15.16) and pipes (6.15.15) that clang does
not lower itself.

clang turns enqueue_kernel, the pipe functions and get_kernel_* into calls
to unmangled runtime functions (__enqueue_kernel_basic, __read_pipe_2, ...);
those live in builtins/devenq.c, next to the work-item functions, because
they reach the executor through the work-group context. What is left here
are the ordinary overloads (ndrange_1D/2D/3D, enqueue_marker, the device
event functions, get_default_queue, is_valid_reserve_id), written in OpenCL
C so that clang mangles them exactly as it mangles the declarations user
kernels call; they forward to C helpers in devenq.c."""
from common import *

out = []
emit = out.append
emit(HEADER.format(gen='gen_devenq.py'))
emit('''
// The C side (builtins/devenq.c).
int __ferrocl_enqueue_marker(queue_t queue, uint num_events, const clk_event_t *wait_list,
                             clk_event_t *event_ret);
long __ferrocl_device_op(uint op, clk_event_t event, long value, __global void *out);
queue_t __ferrocl_default_queue(void);
clk_event_t __ferrocl_create_user_event(void);
int __ferrocl_reserve_id_valid(reserve_id_t id);

// FERROCL_DEVICE_OP_* (include/ferrocl_kernel.h).
#define OP_RETAIN 1
#define OP_RELEASE 2
#define OP_SET_STATUS 4
#define OP_PROFILING 5
#define OP_IS_VALID 8
''')

# ndrange_t: {workDimension, globalWorkOffset[3], globalWorkSize[3],
# localWorkSize[3]}; unnamed dimensions are 1 (sizes) and 0 (offsets); a
# local size of 0 means "the implementation chooses".
def ndrange(dims, with_offset, with_local, array):
    params = []
    if array:
        if with_offset:
            params.append(f'const size_t global_work_offset[{dims}]')
        params.append(f'const size_t global_work_size[{dims}]')
        if with_local:
            params.append(f'const size_t local_work_size[{dims}]')
    else:
        if with_offset:
            params.append('size_t global_work_offset')
        params.append('size_t global_work_size')
        if with_local:
            params.append('size_t local_work_size')
    body = [f'ndrange_t r; r.workDimension = {dims};']
    for d in range(3):
        idx = f'[{d}]' if array else ''
        if d < dims:
            off = f'global_work_offset{idx}' if with_offset else '0'
            loc = f'local_work_size{idx}' if with_local else '0'
            body.append(f'r.globalWorkOffset[{d}] = {off}; r.globalWorkSize[{d}] = global_work_size{idx}; '
                        f'r.localWorkSize[{d}] = {loc};')
        else:
            body.append(f'r.globalWorkOffset[{d}] = 0; r.globalWorkSize[{d}] = 1; r.localWorkSize[{d}] = 1;')
    body.append('return r;')
    emit(f'ndrange_t OVL ndrange_{dims}D({", ".join(params)}) {{\n  ' + '\n  '.join(body) + '\n}')

for dims in [1, 2, 3]:
    array = dims > 1
    ndrange(dims, False, False, array)
    ndrange(dims, False, True, array)
    ndrange(dims, True, True, array)

emit('''
int OVL enqueue_marker(queue_t queue, uint num_events_in_wait_list,
                       const clk_event_t *event_wait_list, clk_event_t *event_ret) {
  return __ferrocl_enqueue_marker(queue, num_events_in_wait_list, event_wait_list, event_ret);
}

void OVL retain_event(clk_event_t event) { __ferrocl_device_op(OP_RETAIN, event, 0, 0); }
void OVL release_event(clk_event_t event) { __ferrocl_device_op(OP_RELEASE, event, 0, 0); }
clk_event_t OVL create_user_event(void) { return __ferrocl_create_user_event(); }
bool OVL is_valid_event(clk_event_t event) {
  return __ferrocl_device_op(OP_IS_VALID, event, 0, 0) != 0;
}
void OVL set_user_event_status(clk_event_t event, int status) {
  __ferrocl_device_op(OP_SET_STATUS, event, status, 0);
}
void OVL capture_event_profiling_info(clk_event_t event, clk_profiling_info name,
                                      __global void *value) {
  __ferrocl_device_op(OP_PROFILING, event, name, value);
}
queue_t OVL get_default_queue(void) { return __ferrocl_default_queue(); }

bool OVL is_valid_reserve_id(reserve_id_t reserve_id) {
  return __ferrocl_reserve_id_valid(reserve_id) != 0;
}
''')

with open('../lib/devenq.cl', 'w') as f:
    f.write('\n'.join(out) + '\n')
