// `ferrocl-region-entries`: kernels with barriers as compiled work-item
// loops.
//
// A kernel whose only waits are plain barriers in its own body (or that
// has implicit barriers) is cut at its barriers into regions
// (region_plan.h). Region r is a copy of the kernel's work-group copy
// entered at its r-th barrier's continuation; each barrier's block, and the
// kernel's return, note the next region's number (0: done) and leave. The
// work-group entry runs one region for every work-item in loops (z, y, x; x
// innermost and parallel, so vectorized across work-items like a
// barrier-free kernel), then the region the work-items' barrier named, until
// the kernel returns. A kernel whose memory is contiguous along y
// (contiguous_dimension.h) run in groups one work-item wide gets a y loop
// innermost and parallel instead. This is correct in any control flow OpenCL allows
// around barriers (loops, uniformly taken branches, inlined calls), because a
// region is a copy of the whole kernel.
//
// Values that live across a barrier are kept per work-item in a frame the
// executor provides (`WorkGroupContext::frame`, FRAME_SIZE_ATTRIBUTE bytes
// per work-item); values the same for the whole group once per group, in
// the uniform area after the per-work-item arrays: a region writes them to
// a staging copy, which the work-group entry copies back once every
// work-item has run the region (others may still read the value from
// before). A kernel whose shape the plan does not handle keeps running on
// fibers, and the module's FIBER_KERNELS metadata names it for the build
// log.
//
// A kernel whose barriers are its sub-groups' (SUB_GROUP_REGIONS_ATTRIBUTE,
// collective_waits_as_barriers.cpp) runs the regions for one sub-group at a
// time: its entry loops over the sub-groups, and for each over the rows of
// the group it covers (its sub-group size of consecutive local linear ids).
#include "contiguous_dimension.h"
#include "idle_work_items.h"
#include "kernel_abi.h"
#include "kernel_calls.h"
#include "kernel_symbols.h"
#include "passes.h"
#include "work_group_copy.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>

using namespace llvm;

namespace ferrocl {

namespace {

// The parameters a region function takes after its work-group copy's. Not
// `noalias`: the frame's accesses carry alias scopes of their own.
// `__ferrocl.sg.first`: in a kernel run a sub-group at a time, the local
// linear id of the running sub-group's first work-item (0 elsewhere).
const char *REGION_PARAMETERS[] = {"__ferrocl.wi", "__ferrocl.nwi", "__ferrocl.frame",
                                   "__ferrocl.uniform", "__ferrocl.sg.first"};

// Slots of the frame that get alias scopes of their own (write_region), at
// most.
constexpr size_t MAX_SLOT_SCOPES = 48;

// A copied slot's type in the frame: a flag (i1) is a byte there. LLVM's
// vectorizer loads and stores no i1 vectors; a guard's flag read by a
// work-item loop was loaded one lane at a time to build each mask.
Type *in_frame(Type *type)
{
    return type->isIntegerTy(1) ? Type::getInt8Ty(type->getContext()) : type;
}

// Tags access `i` of work-item slot `k` as the frame's, in slot `k`'s scope
// of `slots` (write_region).
void tag_own_slot(Instruction &i, unsigned k, const ParallelAccess &access,
                  const DisjointScopes &slots)
{
    access.tag_slot(i, AccessKind::Frame);
    slots.add(i, k);
}

// Whether the memory at `v` is only ever read: plain loads, copies from
// it, and addresses computed for those. Anything else (a store, a copy
// into it, a call that gets the address) may write it. Asked of a
// program's internal variables (the SPIR-V translator leaves a private
// array's initializer such a variable, not a constant) and of a kernel's
// struct parameters.
bool only_read(const Value *v)
{
    for (const User *u : v->users()) {
        if (auto *load = dyn_cast<LoadInst>(u); load && load->isSimple())
            continue;
        if (auto *copy = dyn_cast<MemTransferInst>(u);
            copy && copy->getSource() == v && copy->getDest() != v)
            continue;
        if (auto *gep = dyn_cast<GEPOperator>(u); gep && gep->getPointerOperand() == v &&
                                                  only_read(gep))
            continue;
        return false;
    }
    return true;
}

// Tags the loads and stores through `slot`, a work-item's own slot in the
// frame, and through addresses computed from it, as the frame's: no other
// work-item reaches a work-item's private memory (OpenCL 3.0, 3.3.1), so
// they are in the work-item loop's access group. A private array indexed
// by data (Hetero-Mark's histogram, `priv_hist[color]++` in a grid-stride
// loop) otherwise kept that loop from vectorizing. Addresses that go on
// through anything but a GEP (a phi, a select, a store of the address)
// are not followed: what they reach stays out of the group. Each also gets
// `part`'s scope of `slots`: it reaches no other slot. A memcpy, memmove
// or memset through the slot is in the group too (SYCL copies a private
// `sycl::vec` whole; out of the group, the copy kept the work-item loop
// scalar) where what it copies from or to is of the same kinds: the
// frame, global, constant or local memory, a variable of the program
// nothing writes.
void tag_own_accesses(Value *slot, const ParallelAccess &access, const DisjointScopes &slots,
                      unsigned part)
{
    const Value *frame = getUnderlyingObject(slot);
    auto parallel_side = [frame](const Value *p) {
        unsigned space = p->getType()->getPointerAddressSpace();
        const Value *base = getUnderlyingObject(p);
        auto *variable = dyn_cast<GlobalVariable>(base);
        bool read_only = variable && (variable->isConstant() ||
                                      (variable->hasLocalLinkage() && only_read(variable)));
        return (space >= 1 && space <= 3) || base == frame || read_only;
    };
    SmallVector<Value *, 8> work{slot};
    SmallPtrSet<Value *, 16> seen;
    while (!work.empty()) {
        Value *v = work.pop_back_val();
        if (!seen.insert(v).second)
            continue;
        for (User *u : v->users()) {
            if (auto *gep = dyn_cast<GetElementPtrInst>(u); gep && gep->getPointerOperand() == v)
                work.push_back(gep);
            else if (auto *load = dyn_cast<LoadInst>(u); load && load->isSimple())
                tag_own_slot(*load, part, access, slots);
            else if (auto *store = dyn_cast<StoreInst>(u);
                     store && store->isSimple() && store->getPointerOperand() == v)
                tag_own_slot(*store, part, access, slots);
            else if (auto *mem = dyn_cast<MemIntrinsic>(u);
                     mem && !mem->isVolatile() && parallel_side(mem->getDest()) &&
                     (!isa<MemTransferInst>(mem) ||
                      parallel_side(cast<MemTransferInst>(mem)->getSource())))
                access.tag_group(*mem);
        }
    }
}

// Turns `f`, a clone of the planned copy (`map` from the copy's values to
// its), into region `r`. The accesses of work-items' slots get each slot's
// scope of `slots` (one part per slot of the plan): LLVM cannot tell two
// slots apart (their offsets are multiples of the group's size), and a
// loaded guard flag looked written by the loop that updates a sum.
void write_region(Function &f, const RegionPlan &plan, ValueToValueMapTy &map, unsigned r,
                  unsigned first, const ParallelAccess &access, const DisjointScopes &slots)
{
    LLVMContext &ctx = f.getContext();
    Argument *wi = f.getArg(first + 4), *nwi = f.getArg(first + 5),
             *frame = f.getArg(first + 6), *uniform = f.getArg(first + 7);
    BasicBlock &entry = f.getEntryBlock();
    IRBuilder<> b(&entry, entry.begin());
    Type *i8 = b.getInt8Ty(), *i32 = b.getInt32Ty();
    Value *next = b.CreateInBoundsGEP(i8, uniform, b.getInt64(2 * plan.uniform_size), "__fcl.next");
    AllocaInst *next_id = b.CreateAlloca(i32, nullptr, "__fcl.next.id");
    struct Placed {
        AllocaInst *alloca;
        Value *at, *stage;
    };
    SmallVector<Placed, 16> placed;
    for (const Slot &s : plan.slots) {
        auto *a = cast<AllocaInst>(map[s.alloca]);
        Placed p{a, nullptr, nullptr};
        if (s.uniform) {
            p.at = b.CreateInBoundsGEP(i8, uniform, b.getInt64(s.offset), "__fcl.at");
            p.stage = b.CreateInBoundsGEP(i8, uniform, b.getInt64(s.offset + plan.uniform_size),
                                          "__fcl.stage");
        } else {
            Value *offset = b.CreateAdd(b.CreateMul(nwi, b.getInt64(s.offset)),
                                        b.getInt64(s.skew), "__fcl.off");
            Value *array = b.CreateInBoundsGEP(i8, frame, offset, "__fcl.slot");
            p.at = b.CreateInBoundsGEP(ArrayType::get(i8, s.stride), array, wi, "__fcl.at");
        }
        placed.push_back(p);
    }
    // The slots' lifetime markers go (the frame outlives the region); an
    // escaping slot is used in the frame itself.
    for (size_t k = 0; k < placed.size(); k++) {
        AllocaInst *a = placed[k].alloca;
        for (User *u : make_early_inc_range(a->users()))
            if (isa<LifetimeIntrinsic>(u))
                cast<Instruction>(u)->eraseFromParent();
        if (!plan.slots[k].copied) {
            a->replaceAllUsesWith(placed[k].at);
            a->eraseFromParent();
            placed[k].alloca = nullptr;
            if (!plan.slots[k].uniform)
                tag_own_accesses(placed[k].at, access, slots, k);
        }
    }
    // Entered at the region's start, with the slots copied in.
    b.SetInsertPoint(entry.getTerminator());
    SmallPtrSet<const StoreInst *, 16> copies_in;
    for (size_t k = 0; k < placed.size(); k++) {
        const Slot &s = plan.slots[k];
        if (!s.copied)
            continue;
        Type *type = placed[k].alloca->getAllocatedType();
        LoadInst *in = b.CreateLoad(in_frame(type), placed[k].at, "__fcl.in");
        if (s.uniform)
            access.tag_slot(*in, AccessKind::Uniform);
        else
            tag_own_slot(*in, k, access, slots);
        copies_in.insert(b.CreateStore(b.CreateTruncOrBitCast(in, type), placed[k].alloca));
    }
    entry.getTerminator()->eraseFromParent();
    b.SetInsertPoint(&entry);
    b.CreateBr(cast<BasicBlock>(map[plan.starts[r]]));
    // Every way out notes the next region and goes to one exit, which copies
    // the slots back: copies at each exit would be merged by LLVM into
    // stores that lose their access group, and the work-item loop would no
    // longer be parallel.
    BasicBlock *exit = BasicBlock::Create(ctx, "__fcl.exit", &f);
    auto leave = [&](BasicBlock *from, unsigned next_region) {
        IRBuilder<> e(from);
        e.CreateStore(e.getInt32(next_region), next_id);
        e.CreateBr(exit);
    };
    for (auto [barrier, region] : plan.barriers) {
        auto *block = cast<BasicBlock>(map[barrier]);
        while (!block->empty())
            block->back().eraseFromParent();
        leave(block, region);
    }
    SmallVector<ReturnInst *, 4> returns;
    for (BasicBlock &block : f)
        if (auto *ret = dyn_cast_or_null<ReturnInst>(block.getTerminator()))
            returns.push_back(ret);
    for (ReturnInst *ret : returns) {
        BasicBlock *block = ret->getParent();
        if (block == exit)
            continue;
        ret->eraseFromParent();
        leave(block, 0);
    }
    // The exit. A uniform slot goes to its staging copy: the group's other
    // work-items may still have to read the value from before the region.
    b.SetInsertPoint(exit);
    SmallVector<std::pair<AllocaInst *, StoreInst *>, 16> copies_out;
    for (size_t k = 0; k < placed.size(); k++) {
        const Slot &s = plan.slots[k];
        if (!s.copied)
            continue;
        Type *type = placed[k].alloca->getAllocatedType();
        Value *out = b.CreateZExtOrBitCast(b.CreateLoad(type, placed[k].alloca, "__fcl.out"),
                                           in_frame(type));
        StoreInst *store = b.CreateStore(out, s.uniform ? placed[k].stage : placed[k].at);
        if (s.uniform) {
            access.tag_slot(*store, AccessKind::Staging);
        } else {
            tag_own_slot(*store, k, access, slots);
            copies_out.push_back({placed[k].alloca, store});
        }
    }
    Value *next_value = b.CreateLoad(i32, next_id, "__fcl.next.value");
    access.tag_slot(*b.CreateStore(next_value, next), AccessKind::Staging);
    b.CreateRetVoid();
    removeUnreachableBlocks(f);
    // A work-item's slot the region only reads is not copied back: the
    // store of what was loaded would keep a work-item loop from
    // vectorizing cheaply (a guard's i1 flag, stored back byte by byte).
    // Uniform slots always go to their staging copy, which is copied back
    // whole.
    for (auto [a, store] : copies_out) {
        bool written = false;
        for (const User *u : a->users())
            if (const auto *st = dyn_cast<StoreInst>(u))
                written = written || !copies_in.contains(st);
            else if (!isa<LoadInst>(u))
                written = true;
        if (written)
            continue;
        auto *out = cast<Instruction>(store->getValueOperand());
        store->eraseFromParent();
        if (auto *widened = dyn_cast<ZExtInst>(out)) {
            out = cast<Instruction>(widened->getOperand(0));
            widened->eraseFromParent();
        }
        out->eraseFromParent();
    }
}

// Region r's bound function (idle_work_items.h): the region's parameters,
// the uniform slots copied in, the guard's instructions, the bound
// returned.
Function *bound_function(Function &copy, const RegionPlan &plan, const Guard &guard,
                         StringRef name)
{
    LLVMContext &ctx = copy.getContext();
    auto *type = FunctionType::get(Type::getInt64Ty(ctx), copy.getFunctionType()->params(), false);
    Function *f = Function::Create(type, GlobalValue::InternalLinkage, name, copy.getParent());
    f->copyAttributesFrom(&copy);
    f->setLinkage(GlobalValue::InternalLinkage);
    ValueToValueMapTy map;
    for (Argument &a : copy.args()) {
        map[&a] = f->getArg(a.getArgNo());
        f->getArg(a.getArgNo())->setName(a.getName());
    }
    IRBuilder<> b(BasicBlock::Create(ctx, "entry", f));
    Value *uniform = f->getArg(f->arg_size() - 2);
    for (const Slot &s : plan.slots) {
        if (!s.uniform)
            continue;
        Type *t = s.alloca->getAllocatedType();
        AllocaInst *a = b.CreateAlloca(t, nullptr, s.alloca->getName());
        Value *at = b.CreateInBoundsGEP(b.getInt8Ty(), uniform, b.getInt64(s.offset));
        b.CreateStore(b.CreateLoad(t, at), a);
        map[s.alloca] = a;
    }
    for (Instruction *i : guard.lines) {
        Instruction *c = b.Insert(i->clone(), i->getName());
        RemapInstruction(c, map, RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
        map[i] = c;
    }
    Value *bound = map.lookup(guard.bound);
    b.CreateRet(bound ? bound : guard.bound);
    return f;
}

MDNode *outer_loop(LLVMContext &ctx)
{
    auto *temporary = MDNode::getTemporary(ctx, {}).release();
    Metadata *no_unroll[] = {MDString::get(ctx, "llvm.loop.unroll.disable")};
    Metadata *items[] = {temporary, MDNode::get(ctx, no_unroll)};
    MDNode *loop = MDNode::getDistinct(ctx, items);
    loop->replaceOperandWith(0, loop);
    MDNode::deleteTemporary(temporary);
    return loop;
}

// The local linear ids [first, last) of one sub-group, and the rows
// (lz * ls1 + ly) of its first and last.
struct SubGroupSpan {
    Value *first, *last, *first_row, *last_row;
};

// A region run for one sub-group's work-items (`run` calls it for one): a
// loop over the sub-group's rows, each with an x loop over the part of the
// row in the sub-group; `bound`
// (the region's guard, else null) ends each x loop early, though not
// before one work-item has run (to note the next region). Then `dispatch`.
template <typename Run>
void write_sub_group_rows(IRBuilder<> &b, const std::string &p, const Run &run, SubGroupSpan span,
                          Value **ls, Value *bound, BasicBlock *dispatch,
                          const ParallelAccess &access)
{
    LLVMContext &ctx = b.getContext();
    Function *entry = b.GetInsertBlock()->getParent();
    Type *i64 = b.getInt64Ty();
    BasicBlock *before = b.GetInsertBlock();
    auto *rows = BasicBlock::Create(ctx, p + "sg.row", entry, dispatch),
         *x = BasicBlock::Create(ctx, p + "sg.x", entry, dispatch),
         *latch = BasicBlock::Create(ctx, p + "sg.rowlatch", entry, dispatch);
    b.CreateBr(rows);
    b.SetInsertPoint(rows);
    PHINode *row = b.CreatePHI(i64, 2, p + "sg.r");
    Value *ly = b.CreateURem(row, ls[1], p + "ly");
    Value *lz = b.CreateUDiv(row, ls[1], p + "lz");
    Value *row_start = b.CreateMul(row, ls[0], p + "row");
    Value *x_begin = b.CreateSelect(b.CreateICmpEQ(row, span.first_row),
                                    b.CreateSub(span.first, row_start), b.getInt64(0),
                                    p + "x.begin");
    Value *x_end = b.CreateSelect(b.CreateICmpEQ(row, span.last_row),
                                  b.CreateSub(span.last, row_start), ls[0], p + "x.end.row");
    if (bound) {
        Value *below = b.CreateBinaryIntrinsic(Intrinsic::umin, bound, x_end, nullptr, p + "below");
        x_end = b.CreateSelect(b.CreateICmpULE(below, x_begin, p + "none"),
                               b.CreateNUWAdd(x_begin, b.getInt64(1)), below, p + "x.end");
    }
    b.CreateBr(x);
    b.SetInsertPoint(x);
    PHINode *lx = b.CreatePHI(i64, 2, p + "lx");
    Value *wi = b.CreateAdd(row_start, lx, p + "wi");
    run(lx, ly, lz, wi);
    Value *lx_next = b.CreateNUWAdd(lx, b.getInt64(1), p + "lx.next");
    b.CreateCondBr(b.CreateICmpULT(lx_next, x_end, p + "x.more"), x, latch)
        ->setMetadata(LLVMContext::MD_loop, access.loop_metadata());
    b.SetInsertPoint(latch);
    Value *row_next = b.CreateNUWAdd(row, b.getInt64(1), p + "sg.r.next");
    b.CreateCondBr(b.CreateICmpULE(row_next, span.last_row, p + "sg.r.more"), rows, dispatch)
        ->setMetadata(LLVMContext::MD_loop, outer_loop(ctx));
    row->addIncoming(span.first_row, before);
    row->addIncoming(row_next, latch);
    lx->addIncoming(x_begin, rows);
    lx->addIncoming(lx_next, x);
}

// The work-group entry of a kernel run as regions.
void write_group_entry(Function &kernel, const RegionPlan &plan, ArrayRef<Function *> regions,
                       ArrayRef<Function *> bounds, const ParallelAccess &access, bool columns,
                       bool sub_groups)
{
    LLVMContext &ctx = kernel.getContext();
    IRBuilder<> b(ctx);
    GroupEntryStart start = start_group_entry(kernel, b);
    Function *entry = start.entry.entry;
    entry->addFnAttr(FRAME_SIZE_ATTRIBUTE, std::to_string(plan.frame_size));
    // The runtime then sizes groups it chooses y-long and one work-item
    // wide, the shape the y nest below runs vectorized, and walks groups
    // along y.
    if (columns)
        entry->addFnAttr(INNER_DIMENSION_ATTRIBUTE, "1");
    Value **ls = start.local_size;
    Value *context = start.entry.context;
    Type *i8 = b.getInt8Ty(), *i64 = b.getInt64Ty(), *ptr = b.getPtrTy();
    Value *nwi = b.CreateMul(b.CreateMul(ls[0], ls[1], "nwi01"), ls[2], "nwi");
    Value *frame = b.CreateAlignedLoad(
        ptr, b.CreateInBoundsGEP(i8, context, b.getInt64(CONTEXT_FRAME), "frame.p"), Align(8),
        "frame");
    Value *uniform = b.CreateInBoundsGEP(
        i8, frame,
        b.CreateAdd(b.CreateMul(nwi, b.getInt64(plan.per_item_size)), b.getInt64(FRAME_SKEW),
                    "uniform.off"),
        "uniform");
    Value *next = b.CreateInBoundsGEP(i8, uniform, b.getInt64(2 * plan.uniform_size), "next.p");
    BasicBlock *done = BasicBlock::Create(ctx, "done", entry);
    BasicBlock *dispatch = BasicBlock::Create(ctx, "dispatch", entry);
    SmallVector<BasicBlock *, 8> runs;
    for (size_t r = 0; r < regions.size(); r++)
        runs.push_back(BasicBlock::Create(ctx, "run" + Twine(r), entry, dispatch));
    // A kernel whose barriers are its sub-groups' runs the regions for one
    // sub-group after the other: local linear ids [first, last), rows
    // first_row..last_row of the group (row = lz * ls1 + ly), the first and
    // last of them perhaps in part.
    BasicBlock *all_regions_run = done;
    PHINode *first = nullptr;
    Value *last = nullptr, *first_row = nullptr, *last_row = nullptr;
    if (sub_groups) {
        Value *size = b.getInt64(sub_group_size_of(kernel));
        auto *sub_group = BasicBlock::Create(ctx, "sg", entry, runs[0]);
        auto *sub_group_done = BasicBlock::Create(ctx, "sg.done", entry);
        BasicBlock *group_start = b.GetInsertBlock();
        b.CreateCondBr(start.empty, done, sub_group);
        b.SetInsertPoint(sub_group);
        first = b.CreatePHI(i64, 2, "sg.first");
        last = b.CreateBinaryIntrinsic(
            Intrinsic::umin, b.CreateNUWAdd(first, size), nwi, nullptr,
            "sg.last");
        first_row = b.CreateUDiv(first, ls[0], "sg.first.row");
        last_row = b.CreateUDiv(b.CreateSub(last, b.getInt64(1)), ls[0], "sg.last.row");
        b.CreateBr(runs[0]);
        b.SetInsertPoint(sub_group_done);
        Value *next_first = b.CreateNUWAdd(first, size, "sg.next");
        b.CreateCondBr(b.CreateICmpULT(next_first, nwi, "sg.more"), sub_group, done)
            ->setMetadata(LLVMContext::MD_loop, outer_loop(ctx));
        first->addIncoming(b.getInt64(0), group_start);
        first->addIncoming(next_first, sub_group_done);
        all_regions_run = sub_group_done;
    } else {
        b.CreateCondBr(start.empty, done, runs[0]);
    }
    auto arguments = [&](ArrayRef<Value *> rest) {
        SmallVector<Value *, 16> args(start.entry.arguments.begin(), start.entry.arguments.end());
        args.push_back(start.twin_context);
        args.append(rest.begin(), rest.end());
        args.push_back(first ? static_cast<Value *>(first) : b.getInt64(0));
        return args;
    };
    for (size_t r = 0; r < regions.size(); r++) {
        std::string p = "r" + std::to_string(r) + ".";
        b.SetInsertPoint(runs[r]);
        // The x loop's end: for a guarded region only the work-items below
        // its bound, at least one.
        Value *x_end = ls[0], *bound = nullptr, *zero = b.getInt64(0);
        if (bounds[r]) {
            bound = call_copy(b, kernel, bounds[r],
                              arguments({zero, zero, zero, zero, nwi, frame, uniform}));
            bound->setName(p + "bound");
        }
        if (bound && !sub_groups) {
            Value *below = b.CreateSelect(b.CreateICmpULT(bound, ls[0], p + "lt"), bound, ls[0],
                                          p + "below");
            x_end = b.CreateSelect(b.CreateICmpEQ(below, zero, p + "none"), b.getInt64(1), below,
                                   p + "x.end");
        }
        if (sub_groups) {
            auto run = [&](Value *lx, Value *ly, Value *lz, Value *wi) {
                call_copy(b, kernel, regions[r], arguments({lx, ly, lz, wi, nwi, frame, uniform}));
            };
            write_sub_group_rows(b, p, run, {first, last, first_row, last_row}, ls, bound,
                                 dispatch, access);
            continue;
        }
        if (columns) {
            // A kernel whose memory is contiguous along y, run in groups
            // one work-item wide (SHOC's Stencil2D: 1x256), gets a y loop
            // innermost and parallel: its x loop would run one work-item
            // per vector. The frame stays contiguous, a work-item's linear
            // id being lz * ly + ly there.
            auto *cz = BasicBlock::Create(ctx, p + "cz", entry, dispatch),
                 *cy = BasicBlock::Create(ctx, p + "cy", entry, dispatch),
                 *cz_latch = BasicBlock::Create(ctx, p + "czlatch", entry, dispatch),
                 *rows = BasicBlock::Create(ctx, p + "rows", entry, dispatch);
            b.CreateCondBr(b.CreateICmpEQ(ls[0], b.getInt64(1), p + "one.wide"), cz, rows);
            b.SetInsertPoint(cz);
            PHINode *lz = b.CreatePHI(i64, 2, p + "clz");
            Value *plane = b.CreateMul(lz, ls[1], p + "plane");
            b.CreateBr(cy);
            b.SetInsertPoint(cy);
            PHINode *ly = b.CreatePHI(i64, 2, p + "cly");
            Value *wi = b.CreateAdd(plane, ly, p + "cwi");
            call_copy(b, kernel, regions[r], arguments({b.getInt64(0), ly, lz, wi, nwi, frame, uniform}));
            Value *ly_next = b.CreateNUWAdd(ly, b.getInt64(1), p + "cly.next");
            b.CreateCondBr(b.CreateICmpULT(ly_next, ls[1], p + "cy.more"), cy, cz_latch)
                ->setMetadata(LLVMContext::MD_loop, access.loop_metadata());
            b.SetInsertPoint(cz_latch);
            Value *lz_next = b.CreateNUWAdd(lz, b.getInt64(1), p + "clz.next");
            b.CreateCondBr(b.CreateICmpULT(lz_next, ls[2], p + "cz.more"), cz, dispatch)
                ->setMetadata(LLVMContext::MD_loop, outer_loop(ctx));
            lz->addIncoming(b.getInt64(0), runs[r]);
            lz->addIncoming(lz_next, cz_latch);
            ly->addIncoming(b.getInt64(0), cz);
            ly->addIncoming(ly_next, cy);
            b.SetInsertPoint(rows);
        }
        BasicBlock *nest = b.GetInsertBlock();
        auto *z = BasicBlock::Create(ctx, p + "z", entry, dispatch),
             *y = BasicBlock::Create(ctx, p + "y", entry, dispatch),
             *x = BasicBlock::Create(ctx, p + "x", entry, dispatch),
             *x_done = BasicBlock::Create(ctx, p + "x.done", entry, dispatch),
             *y_latch = BasicBlock::Create(ctx, p + "ylatch", entry, dispatch);
        b.CreateBr(z);
        b.SetInsertPoint(z);
        PHINode *lz = b.CreatePHI(i64, 2, p + "lz");
        b.CreateBr(y);
        b.SetInsertPoint(y);
        PHINode *ly = b.CreatePHI(i64, 2, p + "ly");
        Value *row = b.CreateMul(b.CreateAdd(b.CreateMul(lz, ls[1], p + "row.zy"), ly, p + "row.y"),
                                 ls[0], p + "row");
        b.CreateBr(x);
        b.SetInsertPoint(x);
        PHINode *lx = b.CreatePHI(i64, 2, p + "lx");
        Value *wi = b.CreateAdd(row, lx, p + "wi");
        call_copy(b, kernel, regions[r], arguments({lx, ly, lz, wi, nwi, frame, uniform}));
        Value *lx_next = b.CreateNUWAdd(lx, b.getInt64(1), p + "lx.next");
        Value *x_more = b.CreateICmpULT(lx_next, x_end, p + "x.more");
        Value *ly_next = b.CreateNUWAdd(ly, b.getInt64(1), p + "ly.next");
        Value *y_more = b.CreateICmpULT(ly_next, ls[1], p + "y.more");
        // A kernel contiguous along y keeps this nest (groups more than
        // one work-item wide) scalar: along x its every access is a gather
        // or a scatter, no faster than one work-item at a time, and that
        // vector code was half the back end's time on SHOC's Stencil2D.
        b.CreateCondBr(x_more, x, x_done)
            ->setMetadata(LLVMContext::MD_loop, access.loop_metadata(!columns));
        b.SetInsertPoint(x_done);
        // The y and z loops are never unrolled: a copy of a row loop is a
        // copy of its vector, remainder and epilogue loops, for rows that
        // are few.
        b.CreateCondBr(y_more, y, y_latch)->setMetadata(LLVMContext::MD_loop, outer_loop(ctx));
        b.SetInsertPoint(y_latch);
        Value *lz_next = b.CreateNUWAdd(lz, b.getInt64(1), p + "lz.next");
        b.CreateCondBr(b.CreateICmpULT(lz_next, ls[2], p + "z.more"), z, dispatch)
            ->setMetadata(LLVMContext::MD_loop, outer_loop(ctx));
        lz->addIncoming(b.getInt64(0), nest);
        lz->addIncoming(lz_next, y_latch);
        ly->addIncoming(b.getInt64(0), z);
        ly->addIncoming(ly_next, x_done);
        lx->addIncoming(b.getInt64(0), y);
        lx->addIncoming(lx_next, x);
    }
    // Every region ends here: the uniform slots' staging copies go back to
    // the slots, and the number the region noted picks the next one.
    b.SetInsertPoint(dispatch);
    for (const Slot &s : plan.slots) {
        if (!s.uniform)
            continue;
        Type *t = s.alloca->getAllocatedType();
        Value *at = b.CreateInBoundsGEP(i8, uniform, b.getInt64(s.offset), "at");
        Value *stage = b.CreateInBoundsGEP(i8, uniform, b.getInt64(s.offset + plan.uniform_size),
                                           "stage");
        b.CreateStore(b.CreateLoad(t, stage, "staged"), at);
    }
    SwitchInst *to = b.CreateSwitch(b.CreateLoad(b.getInt32Ty(), next, "next"), all_regions_run,
                                    regions.size() - 1);
    for (size_t r = 1; r < regions.size(); r++)
        to->addCase(b.getInt32(r), runs[r]);
    b.SetInsertPoint(done);
    b.CreateRetVoid();
}

// In a kernel run a sub-group at a time, its work-item's place in its
// sub-group and the sub-group's index (sub_group_ids_from_local_ids.cpp:
// the local linear id's remainder and quotient by the sub-group size) as
// the region's own values: the linear id (`__ferrocl.wi` there) less the
// sub-group's first, and that first's quotient. The same numbers, since a
// region's x loop runs the work-items of one sub-group only
// (write_sub_group_rows); but now affine in the loop's work-item and
// invariant in it. Why: a sub-group's loads of DPC++'s group_load
// (`p[sub_group_local_id + k * sub_group_size]`) were gathers, and dpnp's
// where and isclose stayed scalar.
void sub_group_ids_from_region_arguments(Function &copy, unsigned first, uint64_t size)
{
    Argument *wi = copy.getArg(first + 4), *sub_group_first = copy.getArg(first + 8);
    SmallVector<BinaryOperator *, 8> found;
    for (Instruction &i : instructions(copy))
        if (auto *op = dyn_cast<BinaryOperator>(&i))
            if (auto *call = dyn_cast<CallInst>(op->getOperand(0)))
                if (const Function *callee = call->getCalledFunction();
                    callee && callee->getName() == "__ferrocl_loop_local_linear_id" &&
                    isa<ConstantInt>(op->getOperand(1)))
                    found.push_back(op);
    bool power_of_two = isPowerOf2_64(size);
    for (BinaryOperator *op : found) {
        uint64_t c = cast<ConstantInt>(op->getOperand(1))->getZExtValue();
        Instruction::BinaryOps code = op->getOpcode();
        bool remainder = (code == Instruction::URem && c == size) ||
                         (power_of_two && code == Instruction::And && c == size - 1);
        bool quotient = (code == Instruction::UDiv && c == size) ||
                        (power_of_two && code == Instruction::LShr && c < 64 && (1ull << c) == size);
        if (!remainder && !quotient)
            continue;
        IRBuilder<> b(op);
        Value *value = remainder ? b.CreateNUWSub(wi, sub_group_first)
                                 : b.CreateUDiv(sub_group_first, b.getInt64(size));
        value->takeName(op);
        op->replaceAllUsesWith(value);
        op->eraseFromParent();
    }
}

// A struct parameter passed by value that the kernel may change becomes a
// variable of the kernel's own, copied from it on entry, before the
// region plan: the plan keeps a variable a later region reads in the frame,
// one per work-item, where each region's call passes the parameter's
// bytes as they came (its own copy, the inliner's), and a change made
// before a barrier was gone after it (cts-subset
// basic/struct_arguments_are_each_work_items_own). A parameter only read
// stays as it is: uniform, out of the frame.
void private_copies_of_written_structs(Function &copy, unsigned params)
{
    IRBuilder<> b(&*copy.getEntryBlock().getFirstInsertionPt());
    for (unsigned i = 0; i < params; i++) {
        Argument *param = copy.getArg(i);
        if (!param->hasByValAttr() || only_read(param))
            continue;
        AllocaInst *own = by_value_copy(b, *param, param, param->getParamAlign().valueOrOne());
        own->setName(param->getName() + ".own");
        // Every use but the copy into `own` reads `own` instead.
        param->replaceUsesWithIf(own, [own](Use &u) {
            auto *into = dyn_cast<MemTransferInst>(u.getUser());
            return !into || into->getDest() != own;
        });
    }
}

// Cuts `kernel` into regions with a work-group entry; false (and why)
// when its shape is one the transform does not handle.
bool add_regions(Function &kernel, std::string &why)
{
    LLVMContext &ctx = kernel.getContext();
    ParallelAccess access(ctx);
    Type *i64 = Type::getInt64Ty(ctx), *ptr = PointerType::get(ctx, 0);
    std::string base = ("__ferrocl_region." + kernel.getName() + ".").str();
    // Read on the kernel's own body, before the copy.
    bool columns = contiguous_dimension(kernel) == 1;
    bool sub_groups = kernel.hasFnAttribute(SUB_GROUP_REGIONS_ATTRIBUTE);
    Function *copy = work_group_copy(kernel, access, {i64, i64, ptr, ptr, i64},
                                     REGION_PARAMETERS, base + "copy");
    unsigned first = kernel.arg_size();
    copy->addParamAttr(first + 6, Attribute::NoCapture);
    copy->addParamAttr(first + 7, Attribute::NoCapture);
    if (sub_groups)
        sub_group_ids_from_region_arguments(*copy, first, sub_group_size_of(kernel));
    private_copies_of_written_structs(*copy, kernel.arg_size());
    std::optional<RegionPlan> plan = plan_regions(*copy, why);
    if (!plan) {
        copy->eraseFromParent();
        return false;
    }
    SmallVector<Function *, 8> regions, bounds;
    // (Each access lists every other slot's scope: beyond MAX_SLOT_SCOPES
    // slots, the lists would cost each alias query more than they tell.)
    unsigned scoped = plan->slots.size() <= MAX_SLOT_SCOPES ? plan->slots.size() : 0;
    DisjointScopes slots(ctx, scoped, "ferrocl.frame-slots");
    for (unsigned r = 0; r < plan->starts.size(); r++) {
        std::optional<Guard> guard = find_guard(*plan, r);
        bounds.push_back(guard ? bound_function(*copy, *plan, *guard,
                                                ("__ferrocl_bound." + kernel.getName() + "." +
                                                 Twine(r)).str())
                               : nullptr);
        ValueToValueMapTy map;
        Function *region = CloneFunction(copy, map);
        region->setName(base + std::to_string(r));
        write_region(*region, *plan, map, r, first, access, slots);
        regions.push_back(region);
    }
    write_group_entry(kernel, *plan, regions, bounds, access, columns && !sub_groups,
                      sub_groups);
    copy->eraseFromParent();
    return true;
}

void note_fibers(Module &m, Function &kernel, const std::string &why)
{
    LLVMContext &ctx = m.getContext();
    Metadata *items[] = {MDString::get(ctx, kernel.getName()), MDString::get(ctx, why)};
    m.getOrInsertNamedMetadata(FIBER_KERNELS)->addOperand(MDNode::get(ctx, items));
}

} // namespace

PreservedAnalyses RegionEntriesPass::run(Module &m, ModuleAnalysisManager &)
{
    SmallVector<Function *, 8> kernels;
    for (Function &f : m)
        if (is_kernel(f) && !f.isDeclaration())
            kernels.push_back(&f);
    bool changed = false;
    for (Function *k : kernels) {
        // -cl-opt-disable: kernels stay as written (kernel_description.cpp
        // says so).
        if (k->hasFnAttribute(Attribute::OptimizeNone))
            continue;
        bool barriers = uses_barriers(*k);
        bool cut = barriers ? only_own_barriers(*k) : calls_implicit_barrier(*k);
        if (!cut || !loop_safe(*k))
            continue;
        std::string why;
        changed = true;
        if (!add_regions(*k, why) && barriers)
            note_fibers(m, *k, why);
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
