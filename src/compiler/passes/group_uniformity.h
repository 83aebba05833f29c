// Which values all work-items of a group agree on, which blocks they run
// together, and which loops they run the same number of times: the
// analysis behind implicit barriers (implicit_barriers.cpp,
// mark_loops_for_unrolling.cpp) and uniform branch cuts
// (cut_uniform_branches.cpp). Not an LLVM analysis pass: each of those
// passes asks it once per function, on the IR it is about to change.
//
// It fails closed: a value is uniform only when built from the kernel's
// parameters, constants, group-wide work-item functions and uniform phis
// by operations it knows; a terminator it does not know decides nothing
// together.
#pragma once

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>

#include <memory>

namespace llvm {
class BasicBlock;
class DominatorTree;
class Function;
class Instruction;
class Loop;
class LoopInfo;
class PHINode;
class PostDominatorTree;
class Value;
} // namespace llvm

namespace ferrocl {

using PhiSet = llvm::SmallPtrSet<const llvm::PHINode *, 16>;

// Integer arithmetic, casts and addresses: as cheap to compute again as to
// keep (rematerialize.cpp), uniform when their operands are.
bool is_cheap_operation(const llvm::Instruction &i);

// Whether `v` is the same in every work-item of a group, given the phis
// taken as uniform.
bool is_uniform(const llvm::Value *v, const PhiSet &phis);

// Per block of a function: whether it calls a plain barrier.
bool has_plain_barrier(const llvm::BasicBlock &b);

// Whether a block of the loop calls a plain barrier.
bool has_plain_barrier(const llvm::Loop &l);

// Whether `l` and every loop around it contain a plain barrier (true for
// no loop): all work-items run such loops together.
bool only_barrier_loops(const llvm::Loop *l);

class GroupUniformity {
  public:
    // Optimistic, to a fixed point: every phi starts uniform and is dropped
    // once an incoming value is not, or once work-items may reach its
    // block from different predecessors; the blocks run together are those
    // reached from the entry or a barrier (which all work-items reach)
    // through branches on uniform values, and the blocks where the paths
    // of a branch on a varying value meet again (reconverges). Loop
    // counters stay uniform through their own back edges.
    explicit GroupUniformity(const llvm::Function &f);
    ~GroupUniformity();

    bool together(const llvm::BasicBlock *b) const { return together_.contains(b); }
    const PhiSet &phis() const { return phis_; }
    bool uniform(const llvm::Value *v) const { return is_uniform(v, phis_); }

  private:
    void find_together();
    const llvm::BasicBlock *reconverges(const llvm::BasicBlock *b) const;
    bool leaves_loop_together(const llvm::BasicBlock *b, const llvm::BasicBlock *meet) const;

    llvm::SmallPtrSet<const llvm::BasicBlock *, 32> together_;
    PhiSet phis_;
    const llvm::Function &f_;
    std::unique_ptr<llvm::DominatorTree> dt_;
    std::unique_ptr<llvm::PostDominatorTree> pdt_;
    std::unique_ptr<llvm::LoopInfo> loops_;
};

// A loop all work-items run the same number of times: each branch out of it
// tests a uniform value, given its header's uniform phis. The counters: the
// header's phis that are uniform; None (false) if some exit is not uniform
// or not a two-way branch.
bool exits_uniformly(const llvm::Loop &l, llvm::SmallVectorImpl<llvm::PHINode *> &counters);

// The same, with the phis outside the loop in `outside` taken as uniform.
bool exits_uniformly(const llvm::Loop &l, const PhiSet &outside,
                     llvm::SmallVectorImpl<llvm::PHINode *> &counters);

// Whether `l` carries, from one iteration to the next, a value only the
// work-item loop around it can vectorize: a floating-point value (a sum),
// a work-item's integer that it multiplies (a chain of products), or a
// floating-point value in memory (a load and a store of the same address
// in each iteration); or a grid-stride loop (grid_stride_loops.cpp), whose
// work-items touch neighbouring elements in each iteration.
bool carries_compute(const llvm::Loop &l, const GroupUniformity &u);

// A loop worth an implicit barrier at its header (implicit barriers in the
// design notes): not nested, entered from one block outside it that every
// work-item reaches, carrying what carries_compute says, and exited
// uniformly. Its counters in `counters`.
bool is_uniform_compute_loop(const llvm::Loop &l, const GroupUniformity &u,
                             const llvm::PostDominatorTree &pdt,
                             llvm::SmallVectorImpl<llvm::PHINode *> &counters);

// The same in a kernel with barriers: an innermost loop without a barrier,
// inside loops that all have one (or none), entered from a block all
// work-items run together, carrying such a value and exited uniformly (an
// n-body kernel's loop over its __local tile).
bool is_uniform_inner_compute_loop(const llvm::Loop &l, const GroupUniformity &u,
                                   llvm::SmallVectorImpl<llvm::PHINode *> &counters);

} // namespace ferrocl
