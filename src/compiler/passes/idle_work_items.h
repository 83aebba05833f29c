// Work-items a region can skip: the guard of a tree reduction.
//
// `for (s = n / 2; s > 0; s /= 2) { barrier(...); if (l < s) t[l] += t[l + s]; }`
// leaves most work-items idle in most rounds, yet the work-item loop runs
// all of them, each vector iteration fully masked. When a region starts by
// testing `get_local_id(0) < V` with V the same for the whole group, and a
// work-item that fails the test has no effect of its own until the region
// ends (no store but to uniform values and temporaries, no call but to
// work-item functions; a branch on `get_local_id(0) == 0` counts as not
// taken, as a skipped work-item has `lx >= 1`), the work-items with
// `lx >= V` change nothing the others do not change too. The work-group
// entry then runs the region only for `lx < max(1, min(V, local size))`
// (one always runs, to note the uniform values and the next region),
// computing V first with a small function made of the test's inputs.
#pragma once

#include "region_plan.h"

#include <llvm/ADT/SetVector.h>

namespace llvm {
class Instruction;
class Value;
} // namespace llvm

namespace ferrocl {

// Region r's bound V and the instructions of its first block that compute
// it (in order): only uniform values (parameters, constants, uniform
// slots, uniform work-item functions) go into it.
struct Guard {
    llvm::Value *bound;
    llvm::SmallVector<llvm::Instruction *, 8> lines;
};

// The guard of region `r` of a plan (on its function, before the regions
// are copied out of it), if it has one that lets idle work-items be
// skipped.
std::optional<Guard> find_guard(const RegionPlan &plan, unsigned r);

} // namespace ferrocl
