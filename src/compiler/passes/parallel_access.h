// What the work-item loops of one kernel's work-group entry may assume
// about its memory accesses, told to LLVM as metadata.
//
// An access group: the accesses no other work-item of the group touches
// between two barriers. The work-item loops declare it parallel
// (`llvm.loop.parallel_accesses`), so the vectorizer needs no dependence
// checks (which fail at run time for a tree reduction's
// `tmp[l] += tmp[l + s]`, and cannot tell __local from __global). Why this
// is sound: "a data race [conflicting accesses by different work-items, not
// both atomic, neither happening before the other] results in undefined
// behavior" (OpenCL 3.0, 3.3.6.1), and between barriers nothing orders two
// work-items of a group but atomics and fences, which LLVM never
// vectorizes. Only plain loads and stores through __global, __constant and
// __local pointers are in it, and the region frame's slots: private memory
// (allocas the loop reuses for every work-item) and generic pointers (which
// may point there) are not, and LLVM treats a loop with any access outside
// the group as an ordinary one.
//
// Four alias scopes, for memory that never overlaps but LLVM cannot see so
// (the frame's address is loaded from the context): global, constant and
// local memory; the work-items' frame slots; the group's uniform slots; and
// the uniform slots' staging copy (region_entries.cpp).
#pragma once

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>

#include <optional>

namespace llvm {
class BinaryOperator;
class BranchInst;
class ICmpInst;
class Instruction;
class Loop;
class LLVMContext;
class MDNode;
class PHINode;
class Value;
} // namespace llvm

namespace ferrocl {

// Whether `l` is a work-item loop: its accesses are declared parallel
// (`llvm.loop.parallel_accesses`).
bool is_work_item_loop(const llvm::Loop *l);

// The access groups work-item loop `l` declares parallel, and whether `i`
// is in one of them (its `!llvm.access.group`, or a list holding one).
llvm::SmallPtrSet<const llvm::MDNode *, 4> parallel_groups(const llvm::Loop &l);
bool in_groups(const llvm::Instruction &i,
               const llvm::SmallPtrSetImpl<const llvm::MDNode *> &groups);

// Whether running the work-items of work-item loop `l` in another order
// (interleaved: interleave_work_items.cpp, latency_bound_work_items.cpp)
// keeps each one's steps and changes nothing else: it changes only the
// order between work-items, which nothing orders between two barriers but
// atomics and fences (OpenCL 3.0, 3.3.6.1). So: stores only of its access
// group, no other side effect, no convergent call, no private memory of
// its own (its work-items share one alloca), no value used after it.
bool interleavable_work_items(const llvm::Loop &l);

// The counter of a work-item loop as work_group_entries.cpp makes it: the
// header's only phi (no other value is carried from one work-item to the
// next), `next = id + 1` in the latch, and the latch, the loop's only
// exiting block, leaving on `next == end` (or staying on `next != end`),
// `end` invariant.
struct WorkItemCounter {
    llvm::PHINode *id;
    llvm::BinaryOperator *next;
    llvm::ICmpInst *exit; // next == end or next != end, in either order
    llvm::BranchInst *branch;
    llvm::Value *end;
};
std::optional<WorkItemCounter> read_work_item_counter(const llvm::Loop &l);

// Alias scopes for `count` parts of memory that no access of one part
// reaches in another: the copies of a work-item loop's body, each the
// code of another work-item (interleave_work_items.cpp,
// latency_bound_work_items.cpp: two work-items' accesses of one address,
// one a store, would be a data race), or the frame's per-work-item slots
// (region_entries.cpp: each slot an array of its own, which no access
// through another slot reaches in bounds).
class DisjointScopes {
  public:
    DisjointScopes(llvm::LLVMContext &ctx, unsigned count, llvm::StringRef name);

    // Puts access `i` in part `part`'s scope, apart from the others'
    // (nothing for a part beyond `count`).
    void add(llvm::Instruction &i, unsigned part) const;

  private:
    llvm::SmallVector<llvm::MDNode *, 8> own, others;
};

enum class AccessKind { Memory = 0, Frame = 1, Uniform = 2, Staging = 3 };

class ParallelAccess {
  public:
    explicit ParallelAccess(llvm::LLVMContext &ctx);

    // Tags `i` if it is a plain load or store through a global, constant
    // or local pointer: the group, and unless it has scopes of its own
    // (from inlining) the memory scope and the others'.
    void tag_memory(llvm::Instruction &i) const;

    // Tags an access to the region frame (every such access is in the
    // group: a work-item's slot is its own, uniform slots are only read
    // while the loop runs, the staging copy is written by every work-item
    // with the same value).
    void tag_slot(llvm::Instruction &i, AccessKind kind) const;

    // Puts `i` in the group only, without scopes: a copy between a
    // work-item's slot and memory of another kind (region_entries.cpp).
    void tag_group(llvm::Instruction &i) const;

    // A work-item loop's `!llvm.loop`: its identity, the group it runs in
    // parallel, not interleaved (a vector loop interleaved 4 times needs
    // 64 work-items per row before it runs at all) and not unrolled at run
    // time (a row is a few vector iterations; unrolling every region's
    // loops made a third of the back end's time). Not `vectorized`: also
    // kept scalar (`llvm.loop.vectorize.width` 1).
    llvm::MDNode *loop_metadata(bool vectorized = true) const;

  private:
    void tag(llvm::Instruction &i, AccessKind kind) const;

    llvm::LLVMContext &ctx;
    llvm::MDNode *group;
    llvm::MDNode *own[4];
    llvm::MDNode *others[4];
};

} // namespace ferrocl
