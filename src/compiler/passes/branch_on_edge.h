// A test put on a control-flow edge: the transform loops_out_of_guards.cpp
// and grid_stride_loops.cpp both make, to let some work-items skip a loop's
// body or what follows a loop.
#pragma once

namespace llvm {
class BasicBlock;
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

} // namespace ferrocl
