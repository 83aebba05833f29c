/* The interface between ferrocl's executor and compiled kernels.
 * Mirrored by src/compiler/abi.rs (#[repr(C)]); change both together.
 *
 * A compiled program is a shared object. For each kernel K it exports
 *
 *     void __ferrocl_wi_K(void *const *args, struct ferrocl_wg_ctx *ctx);
 *
 * which runs ONE work-item: the one whose local id is ctx->local_id, in the
 * work-group ctx->group_id. args[i] points to the value of argument i: for a
 * __global/__constant pointer, to the pointer; for a __local pointer, to the
 * pointer to this work-group's local buffer; for a value, to its bytes.
 * The entry stores ctx in the object's thread-local __ferrocl_ctx, through
 * which the work-item builtins (get_global_id, barrier, ...) reach it.
 *
 * The executor runs a work-group by calling the entry for each work-item,
 * updating ctx->local_id between calls. barrier() calls ctx->barrier, which
 * the executor implements (switching to the next work-item's fiber when the
 * kernel uses barriers).
 *
 * A kernel without barriers (whose work-item functions are all called in
 * its own body, after inlining) also gets
 *
 *     void __ferrocl_wg_K(void *const *args, struct ferrocl_wg_ctx *ctx);
 *
 * which runs ALL work-items of the group ctx->group_id, in loops over the
 * local ids (z outermost, x innermost): the work-item functions become the
 * loop variables and loads from ctx, so the loops can be vectorized across
 * work-items. It neither reads nor writes ctx->local_id; ctx must not change
 * while it runs. The program binary's metadata says which kernels have one;
 * the executor then calls it once per work-group instead of __ferrocl_wi_K.
 *
 * Dimensions at and past work_dim hold the spec's defaults: global_size,
 * local_size, enqueued_local_size and num_groups 1, global_offset and
 * group_id 0. */
#ifndef FERROCL_KERNEL_H
#define FERROCL_KERNEL_H

#include <stddef.h>
#include <stdint.h>

struct ferrocl_enqueue;

struct ferrocl_wg_ctx {
    uint32_t work_dim;
    /* The kernel's sub-group size: FERROCL_SUB_GROUP_SIZE unless it requires
     * another (cl_intel_required_subgroup_size: 8, 16 or 32). */
    uint32_t sub_group_size;
    size_t global_offset[3];
    size_t global_size[3];
    /* The size of this work-group (smaller for the last, non-uniform group). */
    size_t local_size[3];
    size_t enqueued_local_size[3];
    size_t num_groups[3];
    size_t group_id[3];
    /* The work-item running now (__ferrocl_wi_K only). */
    size_t local_id[3];
    /* barrier(flags) and work_group_barrier: provided by the executor. */
    void (*barrier)(struct ferrocl_wg_ctx *ctx, uint32_t flags);
    /* printf(format, ...) lands here: provided by the executor. The third
     * argument is a struct ferrocl_printf_args (below): the builtin printf
     * fetches the variadic arguments itself (va_arg, so clang's own x86_64
     * varargs lowering matches the caller's) and hands them over flat. */
    int (*printf_fn)(struct ferrocl_wg_ctx *ctx, const char *format, void *va_list_ptr);
    /* Opaque to compiled code. */
    void *executor;
    /* For a kernel with barriers run as compiled regions (__ferrocl_wg_K):
     * the values that live across barriers, one array per value, each
     * indexed by the local linear id. */
    void *frame;
    /* The frame's end: private memory, like the stack (to_private). */
    void *frame_end;
    /* The work-group and sub-group collective functions' scratch (kernels
     * with barriers only): one 8-byte slot per work-item of the group (by
     * local linear id), then the group's result slot, then one result slot
     * per sub-group; on fibers also (FERROCL_NON_UNIFORM_WAIT) one active
     * mask per sub-group, then one call site per work-item. */
    uint64_t *collective_scratch;
    /* Device-side enqueue (builtins/devenq.c): enqueue_kernel and
     * enqueue_marker (request->entry NULL) return CLK_SUCCESS or a CLK_*
     * error; provided by the executor. */
    int (*enqueue_fn)(struct ferrocl_wg_ctx *ctx, const struct ferrocl_enqueue *request);
    /* The device event, queue and kernel queries (FERROCL_DEVICE_OP_*). */
    intptr_t (*device_op)(struct ferrocl_wg_ctx *ctx, uint32_t op, void *a, intptr_t b, void *c);
    /* Opaque to compiled code: the launch's device-side enqueue state. */
    void *device_side;
    /* The work-group's arena of __local kernel arguments, [begin, end):
     * with the kernel's __local variables (thread-local, see
     * __ferrocl_is_local_variable) what to_local and get_fence call local. */
    void *local_arena_begin;
    void *local_arena_end;
    /* The highest address of the stack the work-item runs on (its fiber's,
     * or the worker thread's above the kernel's frames): what lies between
     * the stack pointer and here is private memory (to_private). */
    void *stack_top;
    /* The local ids a barrier-free kernel's work-group entry runs,
     * [items_begin, items_end) in each dimension: the whole group, or, for
     * an entry marked splittable, one piece of it while other threads run
     * the others. Never beyond local_size. */
    size_t items_begin[3];
    size_t items_end[3];
};

/* Sub-groups are FERROCL_SUB_GROUP_SIZE consecutive local linear ids (the
 * last one of a group may be smaller), or as many as the kernel requires
 * (ctx->sub_group_size). */
#define FERROCL_SUB_GROUP_SIZE 8
/* Or'ed into barrier()'s flags for sub_group_barrier: only the work-items
 * of the caller's sub-group wait for each other. */
#define FERROCL_SUB_GROUP_BARRIER 0x80000000u
/* Or'ed into barrier()'s flags by a non-uniform sub-group function
 * (cl_khr_subgroup_non_uniform_*, builtins/workitem.c): the caller waits
 * with the work-items of its sub-group that wait at the same call site (its
 * scratch slot of sites), until every work-item of the sub-group waits
 * somewhere or has ended; those at the site run on, with their mask (bit i:
 * sub-group local id i) in the sub-group's mask slot. */
#define FERROCL_NON_UNIFORM_WAIT 0x40000000u
/* Or'ed into barrier()'s flags by __ferrocl_progress, which a loop that may
 * wait for another work-item calls each iteration
 * (passes/progress_in_waiting_loops.cpp): the caller gives way to the
 * group's other work-items, waiting for none of them. */
#define FERROCL_PROGRESS 0x20000000u

/* ndrange_t as opencl-c-base.h lays it out. */
struct ferrocl_ndrange {
    uint32_t work_dim;
    size_t offset[3];
    size_t global[3];
    /* 0: the implementation chooses. */
    size_t local[3];
};

/* One enqueue_kernel (or enqueue_marker) call. */
struct ferrocl_enqueue {
    /* queue_t: the device queue's cl_command_queue handle. */
    void *queue;
    /* kernel_enqueue_flags_t. */
    uint32_t flags;
    uint32_t num_events;
    const struct ferrocl_ndrange *ndrange;
    /* clk_event_t values. */
    void *const *wait_list;
    void **event_ret;
    /* The block kernel's work-item entry (__ferrocl_wi_...); NULL for a
     * marker. */
    void *entry;
    /* The block literal: its first 4 bytes are its size, which the
     * executor copies. */
    const void *block;
    /* One __local buffer per size (the block's local pointer arguments). */
    uint32_t num_locals;
    uint32_t reserved2;
    const size_t *local_sizes;
};

/* device_op's operations: a is a clk_event_t (or the block entry for the
 * kernel queries), b a value, c an output pointer. */
#define FERROCL_DEVICE_OP_RETAIN_EVENT 1
#define FERROCL_DEVICE_OP_RELEASE_EVENT 2
#define FERROCL_DEVICE_OP_CREATE_USER_EVENT 3
#define FERROCL_DEVICE_OP_SET_USER_EVENT_STATUS 4
#define FERROCL_DEVICE_OP_CAPTURE_PROFILING 5
#define FERROCL_DEVICE_OP_DEFAULT_QUEUE 6
#define FERROCL_DEVICE_OP_KERNEL_WORK_GROUP_SIZE 7
#define FERROCL_DEVICE_OP_IS_VALID_EVENT 8
#define FERROCL_DEVICE_OP_PREFERRED_MULTIPLE 9

/* printf's arguments, in the order the format consumes them: one 64-bit
 * slot per scalar, per vector element and per '*' width or precision.
 * A slot holds the value's bits zero-extended: int/long/char (c) as
 * promoted, pointers (s, p), scalar floating values as double (they are
 * promoted), vector elements in their own type (half, float, double or the
 * integer of the length modifier). */
#define FERROCL_PRINTF_MAX_SLOTS 256
struct ferrocl_printf_args {
    uint64_t count;
    uint64_t slots[FERROCL_PRINTF_MAX_SLOTS];
};

/* What an image argument points to (builtins/lib/image.cl's img_t): the
 * pixels and how to find one, the sizes, and the format as CL_* values.
 * pitch_y: bytes from one y to the next (a row, or a 1D array's layer);
 * pitch_z: from one z to the next (a 3D slice, or a 2D array's layer).
 * A sampler argument is its CLK_* bits (addressing | normalized | filter)
 * in a pointer-sized value. */
struct ferrocl_image {
    uint8_t *data;
    uint64_t pitch_y;
    uint64_t pitch_z;
    int32_t width, height, depth, array_size;
    int32_t channel_order, channel_data_type, element_size, reserved;
};

#endif
