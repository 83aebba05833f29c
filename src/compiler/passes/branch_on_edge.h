// A test put on a control-flow edge: the transform loops_out_of_guards.cpp
// and grid_stride_loops.cpp both make, to let some work-items skip a loop's
// body or what follows a loop; and what the loop carries past a skipped
// body.
#pragma once

#include <llvm/ADT/SmallPtrSet.h>

namespace llvm {
class BasicBlock;
class Loop;
class PHINode;
class Twine;
class Value;
} // namespace llvm

namespace ferrocl {

// A new block `name`, placed before `to`, on the edges from `from` to `to`:
// it goes on to `to` when `condition` holds and to `otherwise` when not.
// `to`'s phis take their values from it instead of from `from`; `otherwise`
// must have no phis (the caller's loops guarantee it). `condition` must be
// available at the end of `from`.
llvm::BasicBlock *branch_on_edge(llvm::BasicBlock *from, llvm::BasicBlock *to,
                                 llvm::BasicBlock *otherwise, llvm::Value *condition,
                                 const llvm::Twine &name);

// After branch_on_edge let work-items go from `skip` to `latch` past the
// body of `l`: each header phi whose next value the body makes (a sum)
// takes it through a new phi `<phi>.latch` in `latch`, which keeps the
// phi's own value on the edge from `skip`. Values made in the header or
// the latch, or before the loop, and the phis in `leave`, stay as they are.
void carry_past_skip(const llvm::Loop &l, llvm::BasicBlock *latch, llvm::BasicBlock *skip,
                     const llvm::SmallPtrSetImpl<llvm::PHINode *> &leave);

} // namespace ferrocl
