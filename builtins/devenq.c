/* ferrocl builtins: device-side enqueue and pipes, the runtime side.
 *
 * Included by workitem.c (it reaches the work-group through the same
 * thread-local context). clang lowers enqueue_kernel, the get_kernel_*
 * queries and the pipe functions into calls to the unmangled functions
 * defined here; the mangled overloads (ndrange_*, enqueue_marker, the event
 * functions) are OpenCL C in lib/devenq.cl and call the __ferrocl_* helpers
 * below.
 *
 * Device-side enqueue goes to the executor through ctx->enqueue_fn and
 * ctx->device_op (src/sched/device_queue.rs).
 *
 * Pipes need no executor: a pipe is a memory object whose bytes are a
 * struct ferrocl_pipe (laid out by src/api/pipe.rs) followed by one
 * sequence word per slot and the packets. It is a bounded lock-free ring:
 * packet i (counting from 0 since the pipe was made) goes to slot i % cap,
 * whose sequence word is i while the slot is free for packet i, i + 1 once
 * packet i is committed (readable), and i + cap once it has been read (free
 * for packet i + cap). Writers reserve packets by advancing write_next,
 * readers by advancing read_next, each only over slots in the state it
 * needs, so a reservation never waits for another: a pipe without room
 * (or without committed packets) answers at once. */

#ifndef FERROCL_SUB_GROUP_SIZE
#define FERROCL_SUB_GROUP_SIZE 8
#endif
#ifndef FERROCL_SUB_GROUP_BARRIER
#define FERROCL_SUB_GROUP_BARRIER 0x80000000u
#endif

/* CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE */
#define ALL_FENCES 3u

/* ------------------------------------------------------------------ */
/* Device-side enqueue                                                 */
/* ------------------------------------------------------------------ */

static int enqueue(void *queue, unsigned flags, const struct ferrocl_ndrange *nd, unsigned nev,
                   void *const *wait, void **ret, void *kernel, const void *block,
                   unsigned num_locals, const size_t *sizes) {
    struct ferrocl_enqueue r = {queue, flags, nev, nd, wait, ret, kernel, block,
                                num_locals, 0, sizes};
    return CTX->enqueue_fn(CTX, &r);
}

int __enqueue_kernel_basic(void *queue, unsigned flags, struct ferrocl_ndrange nd, void *kernel,
                           void *block) {
    return enqueue(queue, flags, &nd, 0, 0, 0, kernel, block, 0, 0);
}

int __enqueue_kernel_basic_events(void *queue, unsigned flags, const struct ferrocl_ndrange *nd,
                                  unsigned nev, void *const *wait, void **ret, void *kernel,
                                  void *block) {
    return enqueue(queue, flags, nd, nev, wait, ret, kernel, block, 0, 0);
}

int __enqueue_kernel_varargs(void *queue, unsigned flags, const struct ferrocl_ndrange *nd,
                             void *kernel, void *block, unsigned num_locals, const size_t *sizes) {
    return enqueue(queue, flags, nd, 0, 0, 0, kernel, block, num_locals, sizes);
}

int __enqueue_kernel_events_varargs(void *queue, unsigned flags, const struct ferrocl_ndrange *nd,
                                    unsigned nev, void *const *wait, void **ret, void *kernel,
                                    void *block, unsigned num_locals, const size_t *sizes) {
    return enqueue(queue, flags, nd, nev, wait, ret, kernel, block, num_locals, sizes);
}

int __ferrocl_enqueue_marker(void *queue, unsigned nev, void *const *wait, void **ret) {
    return enqueue(queue, 0, 0, nev, wait, ret, 0, 0, 0, 0);
}

long __ferrocl_device_op(unsigned op, void *event, long value, void *out) {
    return CTX->device_op(CTX, op, event, value, out);
}

void *__ferrocl_default_queue(void) {
    return (void *)CTX->device_op(CTX, FERROCL_DEVICE_OP_DEFAULT_QUEUE, 0, 0, 0);
}

void *__ferrocl_create_user_event(void) {
    return (void *)CTX->device_op(CTX, FERROCL_DEVICE_OP_CREATE_USER_EVENT, 0, 0, 0);
}

unsigned __get_kernel_work_group_size_impl(void *kernel, void *block) {
    (void)block;
    return (unsigned)CTX->device_op(CTX, FERROCL_DEVICE_OP_KERNEL_WORK_GROUP_SIZE, kernel, 0, 0);
}

unsigned __get_kernel_preferred_work_group_size_multiple_impl(void *kernel, void *block) {
    (void)block;
    return (unsigned)CTX->device_op(CTX, FERROCL_DEVICE_OP_PREFERRED_MULTIPLE, kernel, 0, 0);
}

/* Sub-groups are FERROCL_SUB_GROUP_SIZE consecutive local linear ids: a
 * block is a kernel of its own, which requires no other size. */
static size_t ndrange_group_items(const struct ferrocl_ndrange *nd) {
    size_t n = 1;
    for (unsigned d = 0; d < nd->work_dim && d < 3; d++) {
        size_t l = nd->local[d] ? nd->local[d] : 1;
        n *= l;
    }
    return n;
}

unsigned __get_kernel_sub_group_count_for_ndrange_impl(const struct ferrocl_ndrange *nd,
                                                       void *kernel, void *block) {
    (void)kernel, (void)block;
    return (unsigned)((ndrange_group_items(nd) + FERROCL_SUB_GROUP_SIZE - 1) /
                      FERROCL_SUB_GROUP_SIZE);
}

unsigned __get_kernel_max_sub_group_size_for_ndrange_impl(const struct ferrocl_ndrange *nd,
                                                          void *kernel, void *block) {
    (void)kernel, (void)block;
    size_t n = ndrange_group_items(nd);
    return (unsigned)(n < FERROCL_SUB_GROUP_SIZE ? n : FERROCL_SUB_GROUP_SIZE);
}

/* ------------------------------------------------------------------ */
/* Pipes                                                               */
/* ------------------------------------------------------------------ */

/* Mirrored by src/api/pipe.rs (PipeHeader). The two cursors sit on cache
 * lines of their own. */
struct ferrocl_pipe {
    uint32_t packet_size;
    uint32_t max_packets;
    uint64_t pad0[7];
    uint64_t write_next;
    uint64_t pad1[7];
    uint64_t read_next;
    uint64_t pad2[7];
    /* uint64_t seq[max_packets]; then the packets. */
};

#define SEQ(p) ((uint64_t *)((struct ferrocl_pipe *)(p) + 1))
#define PACKET(p, i)                                                                       \
    ((char *)(SEQ(p) + (p)->max_packets) + ((i) % (p)->max_packets) * (uint64_t)(p)->packet_size)

/* reserve_id_t: the first packet << 24 | the count; CLK_NULL_RESERVE_ID is
 * all ones. */
#define RID_COUNT_BITS 24
#define RID_NULL ((void *)~(uintptr_t)0)

static void *rid_make(uint64_t start, uint32_t n) {
    return (void *)(uintptr_t)((start << RID_COUNT_BITS) | n);
}
static uint64_t rid_start(void *rid) { return (uint64_t)(uintptr_t)rid >> RID_COUNT_BITS; }
static uint32_t rid_count(void *rid) {
    return (uint32_t)((uintptr_t)rid & ((1u << RID_COUNT_BITS) - 1));
}

int __ferrocl_reserve_id_valid(void *rid) { return rid != RID_NULL && rid != 0; }

/* Advances `cursor` over n slots whose sequence words are `index + ahead`
 * (0: free for writing, 1: committed), or answers UINT64_MAX when those
 * slots are not (yet) in that state. */
static uint64_t reserve(struct ferrocl_pipe *p, uint64_t *cursor, uint32_t n, uint64_t ahead) {
    if (n == 0 || n > p->max_packets || n >= (1u << RID_COUNT_BITS)) return UINT64_MAX;
    uint64_t *seq = SEQ(p);
    for (;;) {
        uint64_t at = __atomic_load_n(cursor, __ATOMIC_ACQUIRE);
        int ready = 1;
        for (uint32_t k = 0; k < n && ready; k++) {
            uint64_t i = at + k;
            ready = __atomic_load_n(&seq[i % p->max_packets], __ATOMIC_ACQUIRE) == i + ahead;
        }
        if (!ready) {
            /* Another reservation moved the cursor: look again. */
            if (__atomic_load_n(cursor, __ATOMIC_ACQUIRE) != at) continue;
            return UINT64_MAX;
        }
        if (__atomic_compare_exchange_n(cursor, &at, at + n, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE))
            return at;
    }
}

static void *reserve_id(struct ferrocl_pipe *p, unsigned n, int writing) {
    uint64_t at = writing ? reserve(p, &p->write_next, n, 0) : reserve(p, &p->read_next, n, 1);
    return at == UINT64_MAX ? RID_NULL : rid_make(at, n);
}

/* Commits packets [start, start + n): readable (writing) or free again. */
static void commit(struct ferrocl_pipe *p, uint64_t start, uint32_t n, int writing) {
    uint64_t *seq = SEQ(p);
    for (uint32_t k = 0; k < n; k++) {
        uint64_t i = start + k;
        __atomic_store_n(&seq[i % p->max_packets], writing ? i + 1 : i + p->max_packets,
                         __ATOMIC_RELEASE);
    }
}

static void commit_id(struct ferrocl_pipe *p, void *rid, int writing) {
    if (__ferrocl_reserve_id_valid(rid)) commit(p, rid_start(rid), rid_count(rid), writing);
}

int __read_pipe_2(struct ferrocl_pipe *p, void *data, unsigned size, unsigned align) {
    (void)size, (void)align;
    uint64_t at = reserve(p, &p->read_next, 1, 1);
    if (at == UINT64_MAX) return -1;
    __builtin_memcpy(data, PACKET(p, at), p->packet_size);
    commit(p, at, 1, 0);
    return 0;
}

int __write_pipe_2(struct ferrocl_pipe *p, const void *data, unsigned size, unsigned align) {
    (void)size, (void)align;
    uint64_t at = reserve(p, &p->write_next, 1, 0);
    if (at == UINT64_MAX) return -1;
    __builtin_memcpy(PACKET(p, at), data, p->packet_size);
    commit(p, at, 1, 1);
    return 0;
}

int __read_pipe_4(struct ferrocl_pipe *p, void *rid, unsigned index, void *data, unsigned size,
                  unsigned align) {
    (void)size, (void)align;
    if (!__ferrocl_reserve_id_valid(rid) || index >= rid_count(rid)) return -1;
    __builtin_memcpy(data, PACKET(p, rid_start(rid) + index), p->packet_size);
    return 0;
}

int __write_pipe_4(struct ferrocl_pipe *p, void *rid, unsigned index, const void *data,
                   unsigned size, unsigned align) {
    (void)size, (void)align;
    if (!__ferrocl_reserve_id_valid(rid) || index >= rid_count(rid)) return -1;
    __builtin_memcpy(PACKET(p, rid_start(rid) + index), data, p->packet_size);
    return 0;
}

void *__reserve_read_pipe(struct ferrocl_pipe *p, unsigned n, unsigned size, unsigned align) {
    (void)size, (void)align;
    return reserve_id(p, n, 0);
}

void *__reserve_write_pipe(struct ferrocl_pipe *p, unsigned n, unsigned size, unsigned align) {
    (void)size, (void)align;
    return reserve_id(p, n, 1);
}

void __commit_read_pipe(struct ferrocl_pipe *p, void *rid, unsigned size, unsigned align) {
    (void)size, (void)align;
    commit_id(p, rid, 0);
}

void __commit_write_pipe(struct ferrocl_pipe *p, void *rid, unsigned size, unsigned align) {
    (void)size, (void)align;
    commit_id(p, rid, 1);
}

/* The work-group and sub-group forms: every work-item of the group (or
 * sub-group) calls them with the same arguments; the first work-item
 * reserves for all, and the reservation reaches the others through a
 * thread-local slot (a work-group runs on one thread at a time) between
 * two barriers. Kernels calling them run with barrier support (the
 * compiler sees their names). The commit waits for every work-item to have
 * read or written its packets. */
static __thread void *group_rid;
static __thread void *sub_group_rid[1024 / FERROCL_SUB_GROUP_SIZE];

static size_t local_linear_id(void) {
    struct ferrocl_wg_ctx *c = CTX;
    return (c->local_id[2] * c->local_size[1] + c->local_id[1]) * c->local_size[0] +
           c->local_id[0];
}

static void *work_group_reserve(struct ferrocl_pipe *p, unsigned n, int writing) {
    CTX->barrier(CTX, ALL_FENCES);
    if (local_linear_id() == 0) group_rid = reserve_id(p, n, writing);
    CTX->barrier(CTX, ALL_FENCES);
    return group_rid;
}

static void work_group_commit(struct ferrocl_pipe *p, void *rid, int writing) {
    CTX->barrier(CTX, ALL_FENCES);
    if (local_linear_id() == 0) commit_id(p, rid, writing);
}

static void *sub_group_reserve(struct ferrocl_pipe *p, unsigned n, int writing) {
    size_t lid = local_linear_id();
    size_t size = CTX->sub_group_size;
    void **slot = &sub_group_rid[(lid / size) % (1024 / FERROCL_SUB_GROUP_SIZE)];
    CTX->barrier(CTX, ALL_FENCES | FERROCL_SUB_GROUP_BARRIER);
    if (lid % size == 0) *slot = reserve_id(p, n, writing);
    CTX->barrier(CTX, ALL_FENCES | FERROCL_SUB_GROUP_BARRIER);
    return *slot;
}

static void sub_group_commit(struct ferrocl_pipe *p, void *rid, int writing) {
    CTX->barrier(CTX, ALL_FENCES | FERROCL_SUB_GROUP_BARRIER);
    if (local_linear_id() % CTX->sub_group_size == 0) commit_id(p, rid, writing);
}

void *__work_group_reserve_read_pipe(struct ferrocl_pipe *p, unsigned n, unsigned size,
                                     unsigned align) {
    (void)size, (void)align;
    return work_group_reserve(p, n, 0);
}
void *__work_group_reserve_write_pipe(struct ferrocl_pipe *p, unsigned n, unsigned size,
                                      unsigned align) {
    (void)size, (void)align;
    return work_group_reserve(p, n, 1);
}
void __work_group_commit_read_pipe(struct ferrocl_pipe *p, void *rid, unsigned size,
                                   unsigned align) {
    (void)size, (void)align;
    work_group_commit(p, rid, 0);
}
void __work_group_commit_write_pipe(struct ferrocl_pipe *p, void *rid, unsigned size,
                                    unsigned align) {
    (void)size, (void)align;
    work_group_commit(p, rid, 1);
}
void *__sub_group_reserve_read_pipe(struct ferrocl_pipe *p, unsigned n, unsigned size,
                                    unsigned align) {
    (void)size, (void)align;
    return sub_group_reserve(p, n, 0);
}
void *__sub_group_reserve_write_pipe(struct ferrocl_pipe *p, unsigned n, unsigned size,
                                     unsigned align) {
    (void)size, (void)align;
    return sub_group_reserve(p, n, 1);
}
void __sub_group_commit_read_pipe(struct ferrocl_pipe *p, void *rid, unsigned size,
                                  unsigned align) {
    (void)size, (void)align;
    sub_group_commit(p, rid, 0);
}
void __sub_group_commit_write_pipe(struct ferrocl_pipe *p, void *rid, unsigned size,
                                   unsigned align) {
    (void)size, (void)align;
    sub_group_commit(p, rid, 1);
}

/* Packets written (reserved) and not yet read (reserved): exact once the
 * pipe is quiet, which is when the count means something. */
static unsigned num_packets(struct ferrocl_pipe *p) {
    uint64_t r = __atomic_load_n(&p->read_next, __ATOMIC_ACQUIRE);
    uint64_t w = __atomic_load_n(&p->write_next, __ATOMIC_ACQUIRE);
    return w > r ? (unsigned)(w - r) : 0;
}

unsigned __get_pipe_num_packets_ro(struct ferrocl_pipe *p, unsigned size, unsigned align) {
    (void)size, (void)align;
    return num_packets(p);
}
unsigned __get_pipe_num_packets_wo(struct ferrocl_pipe *p, unsigned size, unsigned align) {
    (void)size, (void)align;
    return num_packets(p);
}
unsigned __get_pipe_max_packets_ro(struct ferrocl_pipe *p, unsigned size, unsigned align) {
    (void)size, (void)align;
    return p->max_packets;
}
unsigned __get_pipe_max_packets_wo(struct ferrocl_pipe *p, unsigned size, unsigned align) {
    (void)size, (void)align;
    return p->max_packets;
}
