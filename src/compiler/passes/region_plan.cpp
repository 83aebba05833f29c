// See region_plan.h.
#include "region_plan.h"
#include "kernel_abi.h"
#include "kernel_symbols.h"

#include <algorithm>

#include <llvm/ADT/DenseSet.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include <algorithm>

using namespace llvm;

namespace ferrocl {

namespace {

// How a block first touches an alloca.
enum class Access {
    None,
    // Overwrites it before any read: the value held before is dead.
    Store,
    // Reads it (or does something else with it).
    Read,
};

// How `i` uses the alloca `a` (one of its operands), and whether that
// lets its address escape.
Access access_of(const Instruction &i, const AllocaInst *a, bool &escapes)
{
    if (isa<LifetimeIntrinsic>(i))
        return Access::None;
    if (const auto *load = dyn_cast<LoadInst>(&i); load && load->getPointerOperand() == a)
        return Access::Read;
    if (const auto *store = dyn_cast<StoreInst>(&i))
        if (store->getPointerOperand() == a && store->getValueOperand() != a)
            return Access::Store;
    escapes = true;
    return Access::Read;
}

uint64_t round_up(uint64_t n, uint64_t to) { return (n + to - 1) / to * to; }

// Whether an address computed from the alloca `a` is kept where a later
// region may find it: stored to memory (a slot reg2mem made for a value
// used in another block, such as the element addresses the scalarizer
// computes once), turned into an integer, or passed to a call that may
// keep it. Then the variable must outlive every barrier: each region is a
// function of its own, and its own copy of the variable would leave the
// pointer dangling.
bool address_kept(const AllocaInst *a)
{
    SmallVector<const Value *, 16> work = {a};
    DenseSet<const Value *> seen = {a};
    while (!work.empty()) {
        const Value *v = work.pop_back_val();
        for (const Use &use : v->uses()) {
            const auto *user = cast<Instruction>(use.getUser());
            if (const auto *store = dyn_cast<StoreInst>(user)) {
                if (store->getValueOperand() == v)
                    return true;
                continue;
            }
            if (const auto *call = dyn_cast<CallBase>(user)) {
                if (!isa<LifetimeIntrinsic>(call) &&
                    !(call->isArgOperand(&use) &&
                      call->paramHasAttr(call->getArgOperandNo(&use), Attribute::NoCapture)))
                    return true;
                continue;
            }
            if (isa<PtrToIntInst>(user))
                return true;
            if ((isa<GetElementPtrInst>(user) || isa<CastInst>(user) || isa<SelectInst>(user) ||
                 isa<PHINode>(user)) &&
                seen.insert(user).second)
                work.push_back(user);
        }
    }
    return false;
}

} // namespace

const Slot *RegionPlan::slot_of(const AllocaInst *a) const
{
    for (const Slot &s : slots)
        if (s.alloca == a)
            return &s;
    return nullptr;
}

std::optional<RegionPlan> plan_regions(Function &f, std::string &why)
{
    BasicBlock &entry = f.getEntryBlock();
    // The entry block's variables of a size known at compile time first:
    // the scalarizer puts a vector variable's element addresses right
    // after it, before the next variable (dpnp's sub-group loads into
    // sycl::vec), and each is as well placed at the top.
    Instruction *top = &*entry.getFirstInsertionPt();
    for (Instruction &i : make_early_inc_range(entry))
        if (auto *a = dyn_cast<AllocaInst>(&i); a && a->isStaticAlloca() && a != top)
            a->moveBefore(top);
    SmallVector<AllocaInst *, 32> allocas;
    auto first_other = entry.begin();
    while (auto *a = dyn_cast<AllocaInst>(&*first_other)) {
        allocas.push_back(a);
        ++first_other;
    }
    // Fail closed: the transform copies each region's blocks on their own,
    // so no value may flow between blocks but through memory.
    for (BasicBlock &bb : f)
        for (Instruction &i : bb) {
            if (auto *a = dyn_cast<AllocaInst>(&i)) {
                if (std::find(allocas.begin(), allocas.end(), a) == allocas.end()) {
                    why = "a variable of run-time size";
                    return std::nullopt;
                }
                continue;
            }
            bool crosses = isa<PHINode>(i);
            for (const User *u : i.users())
                crosses |= cast<Instruction>(u)->getParent() != &bb;
            if (crosses) {
                why = "a value flows between blocks other than through memory";
                return std::nullopt;
            }
            if (isa<InvokeInst>(i) || isa<CallBrInst>(i) || isa<IndirectBrInst>(i)) {
                why = "control flow the region transform does not handle";
                return std::nullopt;
            }
        }
    RegionPlan plan;
    plan.starts.push_back(entry.splitBasicBlock(first_other, "__fcl.start"));
    for (BasicBlock &bb : f) {
        if (std::none_of(bb.begin(), bb.end(),
                         [](const Instruction &i) { return calls_plain_barrier(i); }))
            continue;
        const auto *br = dyn_cast<BranchInst>(bb.getTerminator());
        if (bb.size() != 2 || !br || br->isConditional()) {
            why = "a barrier not alone in its block";
            return std::nullopt;
        }
        plan.barriers[&bb] = plan.starts.size();
        plan.starts.push_back(br->getSuccessor(0));
    }
    if (plan.barriers.empty()) {
        why = "no barrier in the kernel's own body";
        return std::nullopt;
    }
    // Per alloca: how each block touches it first, which blocks use it, and
    // whether its address escapes.
    SmallVector<BasicBlock *, 64> blocks;
    DenseMap<const BasicBlock *, unsigned> index;
    for (BasicBlock &bb : f) {
        index[&bb] = blocks.size();
        blocks.push_back(&bb);
    }
    DenseMap<const AllocaInst *, unsigned> number;
    for (unsigned k = 0; k < allocas.size(); k++)
        number[allocas[k]] = k;
    size_t n = allocas.size();
    std::vector<std::vector<Access>> first(n, std::vector<Access>(blocks.size(), Access::None));
    std::vector<std::vector<bool>> used(n, std::vector<bool>(blocks.size(), false));
    std::vector<bool> escaped(n, false), kept(n, false);
    for (unsigned k = 0; k < n; k++)
        kept[k] = address_kept(allocas[k]);
    for (unsigned b = 0; b < blocks.size(); b++)
        for (Instruction &i : *blocks[b])
            for (Value *op : i.operands()) {
                auto *a = dyn_cast<AllocaInst>(op);
                auto it = a ? number.find(a) : number.end();
                if (it == number.end())
                    continue;
                unsigned k = it->second;
                bool escapes = false;
                Access access = access_of(i, a, escapes);
                if (escapes)
                    escaped[k] = true;
                used[k][b] = true;
                if (first[k][b] == Access::None)
                    first[k][b] = access;
            }
    // Whether a walk from block `from` that does not pass a barrier finds a
    // block where the alloca's value from before is needed.
    auto live_from = [&](unsigned from, unsigned k) {
        if (kept[k])
            return true;
        std::vector<bool> seen(blocks.size(), false);
        SmallVector<unsigned, 32> stack = {from};
        while (!stack.empty()) {
            unsigned b = stack.pop_back_val();
            if (seen[b])
                continue;
            seen[b] = true;
            if (escaped[k] ? used[k][b] : first[k][b] == Access::Read)
                return true;
            if (!escaped[k] && first[k][b] == Access::Store)
                continue;
            if (plan.barriers.count(blocks[b]))
                continue;
            for (BasicBlock *s : successors(blocks[b]))
                stack.push_back(index[s]);
        }
        return false;
    };
    const DataLayout &layout = f.getParent()->getDataLayout();
    for (AllocaInst *a : allocas) {
        unsigned k = number[a];
        bool live = false;
        for (size_t r = 1; r < plan.starts.size() && !live; r++)
            live = live_from(index[plan.starts[r]], k);
        if (!live)
            continue;
        Type *type = a->getAllocatedType();
        if (a->isArrayAllocation() || a->getAddressSpace() != 0 || type->isScalableTy()) {
            why = "a variable of run-time size or in another address space lives across a "
                  "barrier";
            return std::nullopt;
        }
        uint64_t size = layout.getTypeAllocSize(type).getFixedValue();
        uint64_t align = std::max<uint64_t>(a->getAlign().value(),
                                            layout.getABITypeAlign(type).value());
        if (size == 0 || align > FRAME_ALIGN) {
            why = "a variable aligned more than a frame slot can be lives across a barrier";
            return std::nullopt;
        }
        plan.slots.push_back(Slot{a, !escaped[k], round_up(size, align), align, 0,
                                  a->getName().starts_with(UNIFORM_PREFIX) && !escaped[k]});
    }
    // One array per slot, widest alignment first so that each array's
    // offset (per work-item offset times work-items) stays aligned.
    std::stable_sort(plan.slots.begin(), plan.slots.end(),
                     [](const Slot &a, const Slot &b) { return a.align > b.align; });
    uint64_t per_item = 0, uniform = 0, arrays = 0;
    for (Slot &s : plan.slots) {
        uint64_t &offset = s.uniform ? uniform : per_item;
        s.offset = offset;
        offset += s.stride;
        // Never decreasing, so that no array reaches into the next: the
        // first 63 arrays are a cache line apart, the rest share the last
        // skew (wrapping around to 0 overlapped array 64 with array 63).
        if (!s.uniform)
            s.skew = std::min(arrays++, FRAME_SKEW / FRAME_ALIGN - 1) * FRAME_ALIGN;
    }
    // The uniform area follows the arrays, aligned: the uniform slots, their
    // staging copy, the next region's number.
    plan.per_item_size = round_up(per_item, FRAME_ALIGN);
    plan.uniform_size = round_up(uniform, 8);
    plan.frame_size = plan.per_item_size + 2 * plan.uniform_size + 8;
    return plan;
}

} // namespace ferrocl
