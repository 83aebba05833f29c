// Kernels of cts-subset/spirv/spirv.c, compiled to SPIR-V by make_modules.sh
// (clang-15 to SPIR LLVM IR, the Khronos translator to SPIR-V 1.0).

// Local memory, a barrier, OpenCL.std math: out[i] = in[reversed in the
// group] + sqrt(|b|) + sin(b) + exp(-b*b) + fma(b, b, 1) + pow(|b|, 1.5).
kernel void math_local(global const float *in, global const float *b, global float *out,
                       local float *tmp)
{
    size_t l = get_local_id(0), g = get_global_id(0), n = get_local_size(0);
    tmp[l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    float x = b[g];
    out[g] = tmp[n - 1 - l] + sqrt(fabs(x)) + sin(x) + exp(-x * x) + fma(x, x, 1.0f) +
             pow(fabs(x), 1.5f);
}

// Atomics of every scope and order on global and local memory, and the
// legacy ones: counts[0..4] end at the number of work-items, counts[5] at
// the number of groups; maxima[0] at the largest global id.
kernel void atomics(global atomic_int *counts, global atomic_uint *maxima, global int *legacy)
{
    local atomic_int group_count;
    if (get_local_id(0) == 0)
        atomic_init(&group_count, 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_fetch_add_explicit(&counts[0], 1, memory_order_relaxed, memory_scope_work_group);
    atomic_fetch_add_explicit(&counts[1], 1, memory_order_acq_rel, memory_scope_device);
    atomic_fetch_add_explicit(&counts[2], 1, memory_order_seq_cst, memory_scope_all_svm_devices);
    atomic_fetch_add(&counts[3], 1);
    int expected = atomic_load(&counts[4]);
    while (!atomic_compare_exchange_weak(&counts[4], &expected, expected + 1))
        ;
    atomic_fetch_add_explicit(&group_count, 1, memory_order_relaxed, memory_scope_work_group);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0 &&
        atomic_load_explicit(&group_count, memory_order_relaxed, memory_scope_work_group) ==
            (int)get_local_size(0))
        atomic_fetch_add(&counts[5], 1);
    atomic_fetch_max_explicit(&maxima[0], (uint)get_global_id(0), memory_order_relaxed,
                              memory_scope_device);
    atomic_inc(&legacy[0]);
    atomic_add(&legacy[1], 2);
    atomic_max(&legacy[2], (int)get_global_id(0));
}

// Generic pointers: one function on global and on local memory, and the
// address-space queries.
int sum3(const int *p) { return p[0] + p[1] + p[2]; }

kernel void generic_pointers(global int *data, global int *out)
{
    local int shared[64];
    size_t l = get_local_id(0), g = get_global_id(0);
    shared[l] = data[g] * 2;
    barrier(CLK_LOCAL_MEM_FENCE);
    int *any = l % 2 ? (int *)&data[g] : (int *)&shared[l];
    int where = to_global(any) ? 1 : to_local(any) ? 2 : 0;
    out[g] = sum3(any) * 10 + where;
}

// Work-group and sub-group functions.
kernel void collectives(global const int *in, global int *out)
{
    size_t g = get_global_id(0);
    int x = in[g];
    out[4 * g + 0] = work_group_reduce_add(x);
    out[4 * g + 1] = work_group_scan_inclusive_max(x);
    out[4 * g + 2] = work_group_broadcast(x, 3);
    out[4 * g + 3] = sub_group_reduce_add(1) == (int)get_sub_group_size();
}

// Builtins called with vectors that the host's C ABI passes otherwise than
// a SPIR-V call does: wider than 16 bytes (in memory, byval), of 8 bytes or
// less (as an integer or a double). Per work-item i, out[16 i ..] holds
// isinf(double4), degrees(double4), radians(float2), abs(char2) and
// fmax(float8, 0.5f)'s lanes 0, 5 and 7.
kernel void vector_abi(global const double *d, global const float *f, global const char *c,
                       global double *out)
{
    size_t i = get_global_id(0);
    double4 x = vload4(i, d);
    long4 inf = isinf(x);
    double4 deg = degrees(x);
    float2 y = vload2(i, f);
    float2 rad = radians(y);
    uchar2 a = abs(vload2(i, c));
    float8 m = fmax((float8)(y, -y, y * 2.0f, -y * 2.0f), 0.5f);
    global double *o = out + i * 16;
    o[0] = inf.x;
    o[1] = inf.y;
    o[2] = inf.z;
    o[3] = inf.w;
    o[4] = deg.x;
    o[5] = deg.y;
    o[6] = deg.z;
    o[7] = deg.w;
    o[8] = rad.x;
    o[9] = rad.y;
    o[10] = a.x;
    o[11] = a.y;
    o[12] = m.s0;
    o[13] = m.s5;
    o[14] = m.s7;
    o[15] = 1.0;
}

// The shapes of dpctl's reductions (dpnp.sum and its kin): an indexer
// passed by value, a loop taking the row's index apart over the array's
// dimensions, each work-item's float sum over a loop of its group's chunk,
// a work-group reduction; and a pointer into a private array kept across
// the barriers. out[group] is the chunk's sum; out[groups + i] is work-item
// i's own sum times 1 + its local id % 4.
typedef struct {
    long offset;
    long shape[2];
    long stride[2];
    int nd;
} indexer;

kernel void strided_reduction(global const float *in, global float *out, indexer ix,
                              long per_item, long groups_per_row)
{
    long lid = get_local_id(0), wg = get_local_size(0), grp = get_group_id(0);
    long row = grp / groups_per_row, chunk = grp - row * groups_per_row;
    long id = row, off = ix.offset;
    for (int d = ix.nd - 1; d >= 0; d--) {
        long q = id / ix.shape[d];
        off += (id - q * ix.shape[d]) * ix.stride[d];
        id = q;
    }
    global const float *base = in + off;
    long first = lid + chunk * wg * per_item;
    float sum = 0.0f;
    for (long m = 0; m < per_item; m++)
        sum += base[first + m * wg];
    float vals[4] = {sum, 2 * sum, 3 * sum, 4 * sum};
    float *pick = vals + lid % 4;
    float total = work_group_reduce_add(sum);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
        out[grp] = total;
    out[get_num_groups(0) + get_global_id(0)] = *pick;
}
