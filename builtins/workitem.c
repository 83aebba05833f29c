/* ferrocl builtins: work-item functions, barriers and fences.
 *
 * Written in C with the Itanium-mangled names clang gives the OpenCL C
 * declarations (opencl-c.h). Every function reaches the running work-group
 * through the thread-local __ferrocl_ctx, which each kernel's work-item entry
 * sets before calling the kernel (see include/ferrocl_kernel.h). */
#include "ferrocl_kernel.h"

__attribute__((visibility("hidden"))) __thread struct ferrocl_wg_ctx *__ferrocl_ctx;

#define CTX (__ferrocl_ctx)
/* Dimensions at or past work_dim answer the spec's defaults. */
#define DIM_OR(d, expr, dflt) ((d) < CTX->work_dim ? (expr) : (dflt))

unsigned _Z12get_work_dimv(void) { return CTX->work_dim; }
size_t _Z15get_global_sizej(unsigned d) { return DIM_OR(d, CTX->global_size[d], 1); }
size_t _Z14get_local_sizej(unsigned d) { return DIM_OR(d, CTX->local_size[d], 1); }
size_t _Z23get_enqueued_local_sizej(unsigned d) { return DIM_OR(d, CTX->enqueued_local_size[d], 1); }
size_t _Z12get_local_idj(unsigned d) { return DIM_OR(d, CTX->local_id[d], 0); }
size_t _Z14get_num_groupsj(unsigned d) { return DIM_OR(d, CTX->num_groups[d], 1); }
size_t _Z12get_group_idj(unsigned d) { return DIM_OR(d, CTX->group_id[d], 0); }
size_t _Z17get_global_offsetj(unsigned d) { return DIM_OR(d, CTX->global_offset[d], 0); }

size_t _Z13get_global_idj(unsigned d) {
    struct ferrocl_wg_ctx *c = CTX;
    return d < c->work_dim
               ? c->group_id[d] * c->enqueued_local_size[d] + c->local_id[d] + c->global_offset[d]
               : 0;
}

static size_t global_id_from_offset(struct ferrocl_wg_ctx *c, unsigned d) {
    return d < c->work_dim ? c->group_id[d] * c->enqueued_local_size[d] + c->local_id[d] : 0;
}

static size_t global_size_or_1(struct ferrocl_wg_ctx *c, unsigned d) {
    return d < c->work_dim ? c->global_size[d] : 1;
}

size_t _Z20get_global_linear_idv(void) {
    struct ferrocl_wg_ctx *c = CTX;
    return (global_id_from_offset(c, 2) * global_size_or_1(c, 1) + global_id_from_offset(c, 1)) *
               global_size_or_1(c, 0) +
           global_id_from_offset(c, 0);
}

size_t _Z19get_local_linear_idv(void) {
    struct ferrocl_wg_ctx *c = CTX;
    size_t l1 = c->work_dim > 1 ? c->local_size[1] : 1;
    size_t id1 = c->work_dim > 1 ? c->local_id[1] : 0;
    size_t id2 = c->work_dim > 2 ? c->local_id[2] : 0;
    return (id2 * l1 + id1) * c->local_size[0] + c->local_id[0];
}

void _Z7barrierj(unsigned flags) { CTX->barrier(CTX, flags); }
void _Z18work_group_barrierj(unsigned flags) { CTX->barrier(CTX, flags); }
void _Z18work_group_barrierj12memory_scope(unsigned flags, int scope) {
    (void)scope;
    CTX->barrier(CTX, flags);
}

/* The compiler's implicit barriers (src/compiler/uniform_loops.rs) only cut
 * regions; run work-item by work-item they have nothing to do. */
void __ferrocl_implicit_barrier(void) {}
/* Sub-groups (OpenCL C 6.15.19, cl_khr_subgroups): the kernel's sub-group
 * size (ctx->sub_group_size) of consecutive local linear ids each, the last
 * one of a group smaller when the group's size is not a multiple. The
 * compiler computes these in place where it knows the kernel's size
 * (sub_group_ids_from_local_ids.cpp). The executor lets a sub_group_barrier
 * wait for the caller's sub-group only. */
static size_t group_linear_size(const struct ferrocl_wg_ctx *c) {
    /* Dimensions past work_dim hold 1. */
    return c->local_size[0] * c->local_size[1] * c->local_size[2];
}
static size_t sub_group_size(void) { return CTX->sub_group_size; }
static unsigned sub_group_count(size_t items) {
    return (unsigned)((items + sub_group_size() - 1) / sub_group_size());
}
unsigned _Z16get_sub_group_idv(void) {
    return (unsigned)(_Z19get_local_linear_idv() / sub_group_size());
}
unsigned _Z22get_sub_group_local_idv(void) {
    return (unsigned)(_Z19get_local_linear_idv() % sub_group_size());
}
unsigned _Z18get_sub_group_sizev(void) {
    size_t size = sub_group_size();
    size_t first = (size_t)_Z16get_sub_group_idv() * size;
    size_t left = group_linear_size(CTX) - first;
    return (unsigned)(left < size ? left : size);
}
unsigned _Z22get_max_sub_group_sizev(void) {
    const struct ferrocl_wg_ctx *c = CTX;
    size_t enqueued = c->enqueued_local_size[0] * c->enqueued_local_size[1] * c->enqueued_local_size[2];
    size_t size = c->sub_group_size;
    return (unsigned)(enqueued < size ? enqueued : size);
}
unsigned _Z18get_num_sub_groupsv(void) { return sub_group_count(group_linear_size(CTX)); }
unsigned _Z27get_enqueued_num_sub_groupsv(void) {
    const struct ferrocl_wg_ctx *c = CTX;
    return sub_group_count(c->enqueued_local_size[0] * c->enqueued_local_size[1] *
                           c->enqueued_local_size[2]);
}
void _Z17sub_group_barrierj(unsigned flags) { CTX->barrier(CTX, flags | FERROCL_SUB_GROUP_BARRIER); }
void _Z17sub_group_barrierj12memory_scope(unsigned flags, int scope) {
    (void)scope;
    CTX->barrier(CTX, flags | FERROCL_SUB_GROUP_BARRIER);
}

/* A program-scope sampler constant (clang calls this with its CLK_* bits):
 * builtins/lib/image.cl reads a sampler as its bits, and the runtime passes
 * sampler arguments so. */
__attribute__((address_space(2))) void *__translate_sampler_initializer(int bits) {
    return (__attribute__((address_space(2))) void *)(uintptr_t)(unsigned)bits;
}

/* For builtins/lib/collective.cl (the work-group and sub-group collective
 * functions): the group's scratch slots (see struct ferrocl_wg_ctx), as an
 * address, and the barrier of a work-group (0) or sub-group (1) collective. */
uint64_t __ferrocl_collective_scratch(void) { return (uint64_t)(uintptr_t)CTX->collective_scratch; }
void __ferrocl_collective_wait(unsigned sub_group) {
    CTX->barrier(CTX, sub_group ? FERROCL_SUB_GROUP_BARRIER : 0);
}
/* For the non-uniform sub-group functions (cl_khr_subgroup_non_uniform_*):
 * waits with the work-items of the caller's sub-group that wait at the same
 * `site` (FERROCL_NON_UNIFORM_WAIT), and returns their mask. */
uint64_t __ferrocl_non_uniform_wait(uint64_t site) {
    uint64_t *s = CTX->collective_scratch;
    size_t items = group_linear_size(CTX), subs = sub_group_count(items);
    s[items + 1 + 2 * subs + _Z19get_local_linear_idv()] = site;
    CTX->barrier(CTX, FERROCL_NON_UNIFORM_WAIT);
    return s[items + 1 + subs + _Z16get_sub_group_idv()];
}

/* Called each iteration by a loop that may wait for another work-item
 * (passes/progress_in_waiting_loops.cpp): the group's others run first. */
void __ferrocl_progress(void) { CTX->barrier(CTX, FERROCL_PROGRESS); }

void _Z9mem_fencej(unsigned flags) {
    (void)flags;
    __atomic_thread_fence(__ATOMIC_ACQ_REL);
}
void _Z14read_mem_fencej(unsigned flags) {
    (void)flags;
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
}
void _Z15write_mem_fencej(unsigned flags) {
    (void)flags;
    __atomic_thread_fence(__ATOMIC_RELEASE);
}
/* OpenCL's memory_order values are C11's (opencl-c-base.h). */
void _Z22atomic_work_item_fencej12memory_order12memory_scope(unsigned flags, int order, int scope) {
    (void)flags;
    (void)scope;
    switch (order) {
    case __ATOMIC_RELAXED:
        break;
    case __ATOMIC_ACQUIRE:
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        break;
    case __ATOMIC_RELEASE:
        __atomic_thread_fence(__ATOMIC_RELEASE);
        break;
    case __ATOMIC_ACQ_REL:
        __atomic_thread_fence(__ATOMIC_ACQ_REL);
        break;
    default:
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        break;
    }
}

/* The generic address space (OpenCL C 6.15.9, __opencl_c_generic_address_space).
 * Every address space is the host's one address space here; a generic
 * pointer is told apart by where it points:
 *  - local: into the group's arena of __local arguments, or into one of the
 *    kernel's __local variables (thread-local globals of the program, whose
 *    ranges only the program knows: the compiler defines
 *    __ferrocl_is_local_variable in every program, src/compiler);
 *  - private: between the stack pointer (less the red zone a leaf function
 *    may use) and the top of the stack the work-item runs on, or in the
 *    frame of a kernel run as regions (its private values that live across
 *    barriers);
 *  - global: anything else. */
#define AS_GLOBAL __attribute__((address_space(1)))
#define AS_LOCAL __attribute__((address_space(3)))
#define AS_GENERIC __attribute__((address_space(4)))
#define CLK_GLOBAL_MEM_FENCE 0x02u
#define CLK_LOCAL_MEM_FENCE 0x01u
#define X86_64_RED_ZONE 128

_Bool __ferrocl_is_local_variable(const AS_GENERIC void *p);

static int is_local(const AS_GENERIC void *p) {
    uintptr_t a = (uintptr_t)p;
    return (a >= (uintptr_t)CTX->local_arena_begin && a < (uintptr_t)CTX->local_arena_end) ||
           __ferrocl_is_local_variable(p);
}

static int is_private(const AS_GENERIC void *p) {
    uintptr_t a = (uintptr_t)p, sp;
    __asm__ volatile("mov %%rsp, %0" : "=r"(sp));
    return (a >= sp - X86_64_RED_ZONE && a < (uintptr_t)CTX->stack_top) ||
           (a >= (uintptr_t)CTX->frame && a < (uintptr_t)CTX->frame_end);
}

AS_GLOBAL void *__to_global(AS_GENERIC void *p) {
    return p && !is_local(p) && !is_private(p) ? (AS_GLOBAL void *)p : 0;
}
AS_LOCAL void *__to_local(AS_GENERIC void *p) {
    return p && is_local(p) ? (AS_LOCAL void *)p : 0;
}
void *__to_private(AS_GENERIC void *p) {
    return p && !is_local(p) && is_private(p) ? (void *)p : 0;
}
/* get_fence: the fence flag of the pointer's address space (private memory
 * needs none). */
unsigned _Z9get_fencePU3AS4v(AS_GENERIC void *p) {
    return is_local(p) ? CLK_LOCAL_MEM_FENCE : is_private(p) ? 0 : CLK_GLOBAL_MEM_FENCE;
}
unsigned _Z9get_fencePU3AS4Kv(const AS_GENERIC void *p) {
    return _Z9get_fencePU3AS4v((AS_GENERIC void *)p);
}

/* The work-item functions of work-group entries (__ferrocl_wg_K, see
 * include/ferrocl_kernel.h): the compiler rewrites each call to a work-item
 * function in a barrier-free kernel into a call to its __ferrocl_loop_ twin,
 * which takes the context and the local id (the work-item loop's induction
 * variables) as arguments. Inlined, with a constant dimension each is one
 * load from the context (hoisted out of the work-item loops) or a loop
 * variable; a runtime dimension becomes a select. The executor fills the
 * dimensions at and past work_dim with the spec's defaults (sizes 1, ids and
 * offsets 0), so only dimensions past 2 need a test. `c` is not restrict: an
 * inlined restrict parameter leaves a noalias.scope.decl call in the loop,
 * which keeps LLVM from treating it as parallel; the entry's ctx is noalias
 * readonly, which makes these loads invariant anyway. */
#define WG_FN __attribute__((always_inline))
#define WG_ARGS const struct ferrocl_wg_ctx *c, size_t lx, size_t ly, size_t lz
#define WG_LID(d) ((d) == 0 ? lx : (d) == 1 ? ly : (d) == 2 ? lz : 0)

WG_FN unsigned __ferrocl_loop_work_dim(WG_ARGS) {
    (void)lx, (void)ly, (void)lz;
    return c->work_dim;
}
WG_FN size_t __ferrocl_loop_global_size(WG_ARGS, unsigned d) {
    (void)lx, (void)ly, (void)lz;
    return d < 3 ? c->global_size[d] : 1;
}
WG_FN size_t __ferrocl_loop_local_size(WG_ARGS, unsigned d) {
    (void)lx, (void)ly, (void)lz;
    return d < 3 ? c->local_size[d] : 1;
}
WG_FN size_t __ferrocl_loop_enqueued_local_size(WG_ARGS, unsigned d) {
    (void)lx, (void)ly, (void)lz;
    return d < 3 ? c->enqueued_local_size[d] : 1;
}
WG_FN size_t __ferrocl_loop_local_id(WG_ARGS, unsigned d) {
    (void)c;
    return WG_LID(d);
}
WG_FN size_t __ferrocl_loop_num_groups(WG_ARGS, unsigned d) {
    (void)lx, (void)ly, (void)lz;
    return d < 3 ? c->num_groups[d] : 1;
}
WG_FN size_t __ferrocl_loop_group_id(WG_ARGS, unsigned d) {
    (void)lx, (void)ly, (void)lz;
    return d < 3 ? c->group_id[d] : 0;
}
WG_FN size_t __ferrocl_loop_global_offset(WG_ARGS, unsigned d) {
    (void)lx, (void)ly, (void)lz;
    return d < 3 ? c->global_offset[d] : 0;
}
WG_FN size_t __ferrocl_loop_global_id(WG_ARGS, unsigned d) {
    return d < 3 ? c->group_id[d] * c->enqueued_local_size[d] + WG_LID(d) + c->global_offset[d]
                 : 0;
}
WG_FN size_t __ferrocl_loop_global_linear_id(WG_ARGS) {
    size_t g0 = c->group_id[0] * c->enqueued_local_size[0] + lx;
    size_t g1 = c->group_id[1] * c->enqueued_local_size[1] + ly;
    size_t g2 = c->group_id[2] * c->enqueued_local_size[2] + lz;
    return (g2 * c->global_size[1] + g1) * c->global_size[0] + g0;
}
WG_FN size_t __ferrocl_loop_local_linear_id(WG_ARGS) {
    return (lz * c->local_size[1] + ly) * c->local_size[0] + lx;
}


/* printf (OpenCL C 6.15.14). clang emits calls to the plain C symbol
 * `printf` (format in __constant memory, which is an ordinary pointer
 * here). This parses the format only as far as needed to know each
 * argument's type, fetches the arguments with va_arg and hands them to the
 * executor flat (struct ferrocl_printf_args), which validates and formats.
 * Returns 0 on success, -1 on error (an invalid format included). */
#include <stdarg.h>

/* One 64-bit slot with the bits of `value` (zero-extended). */
#define PUT(value)                                                                \
    do {                                                                          \
        __typeof__(value) v_ = (value);                                           \
        uint64_t b_ = 0;                                                          \
        if (a->count >= FERROCL_PRINTF_MAX_SLOTS) return -1;                      \
        __builtin_memcpy(&b_, &v_, sizeof v_);                                    \
        a->slots[a->count++] = b_;                                                \
    } while (0)

#define VEC_CASE(T, N)                                                            \
    case N: {                                                                     \
        typedef T vec_t __attribute__((ext_vector_type(N)));                      \
        vec_t x = va_arg(*ap, vec_t);                                             \
        for (int i = 0; i < N; i++) PUT((T)x[i]);                                 \
        return 0;                                                                 \
    }

#define VEC_FETCH(T)                                                              \
    static int fetch_vec_##T(struct ferrocl_printf_args *a, va_list *ap, int n) { \
        switch (n) {                                                              \
            VEC_CASE(T, 2)                                                        \
            VEC_CASE(T, 3)                                                        \
            VEC_CASE(T, 4)                                                        \
            VEC_CASE(T, 8)                                                        \
            VEC_CASE(T, 16)                                                       \
        default:                                                                  \
            return -1;                                                            \
        }                                                                         \
    }

VEC_FETCH(uint8_t)
VEC_FETCH(uint16_t)
VEC_FETCH(uint32_t)
VEC_FETCH(uint64_t)
VEC_FETCH(_Float16)
VEC_FETCH(float)
VEC_FETCH(double)

static int fetch_star(struct ferrocl_printf_args *a, va_list *ap, const char **p) {
    if (**p == '*') {
        PUT(va_arg(*ap, int));
        (*p)++;
    } else {
        while (**p >= '0' && **p <= '9') (*p)++;
    }
    return 0;
}

static int fetch_args(struct ferrocl_printf_args *a, const char *p, va_list *ap) {
    for (; *p; p++) {
        if (*p != '%') continue;
        p++;
        if (*p == '%') continue;
        while (*p == '-' || *p == '+' || *p == ' ' || *p == '#' || *p == '0') p++;
        if (fetch_star(a, ap, &p)) return -1;
        if (*p == '.') {
            p++;
            if (fetch_star(a, ap, &p)) return -1;
        }
        int vec = 0;
        if (*p == 'v') {
            p++;
            while (*p >= '0' && *p <= '9') vec = vec * 10 + (*p++ - '0');
            if (vec == 0) return -1;
        }
        int len = 0; /* 1 hh, 2 h, 4 hl, 8 l */
        if (p[0] == 'h' && p[1] == 'h') len = 1, p += 2;
        else if (p[0] == 'h' && p[1] == 'l') len = 4, p += 2;
        else if (p[0] == 'h') len = 2, p++;
        else if (p[0] == 'l') len = 8, p++;
        switch (*p) {
        case 'd': case 'i': case 'o': case 'u': case 'x': case 'X':
            if (vec) {
                int r = len == 1   ? fetch_vec_uint8_t(a, ap, vec)
                        : len == 2 ? fetch_vec_uint16_t(a, ap, vec)
                        : len == 8 ? fetch_vec_uint64_t(a, ap, vec)
                                   : fetch_vec_uint32_t(a, ap, vec);
                if (r) return -1;
            } else if (len == 8) {
                PUT(va_arg(*ap, uint64_t));
            } else {
                PUT(va_arg(*ap, unsigned));
            }
            break;
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
            if (vec) {
                int r = len == 2   ? fetch_vec__Float16(a, ap, vec)
                        : len == 4 ? fetch_vec_float(a, ap, vec)
                                   : fetch_vec_double(a, ap, vec);
                if (r) return -1;
            } else {
                PUT(va_arg(*ap, double));
            }
            break;
        case 'c':
            if (vec) return -1;
            PUT(va_arg(*ap, unsigned));
            break;
        case 's': case 'p':
            if (vec) return -1;
            PUT(va_arg(*ap, void *));
            break;
        default:
            return -1;
        }
    }
    return 0;
}

__attribute__((visibility("hidden"))) int printf(const char *restrict format, ...) {
    struct ferrocl_printf_args args;
    args.count = 0;
    va_list ap;
    va_start(ap, format);
    int r = fetch_args(&args, format, &ap);
    va_end(ap);
    if (r) return -1;
    return CTX->printf_fn(CTX, format, &args);
}

/* Device-side enqueue and pipes. */
#include "devenq.c"
