// The iterations of an innermost work-item loop where a test of its own
// index holds, as intervals computed before the loop: what
// bounds_checks_as_ranges.cpp and index_choices_as_ranges.cpp cut a loop's
// work-items into.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/IR/PassManager.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <optional>
#include <utility>

namespace llvm {
class AAResults;
class LoadInst;
class Loop;
class ScalarEvolution;
class SCEVAddRecExpr;
class SCEVExpander;
} // namespace llvm

namespace ferrocl {

// Rows of work-items at least this long run in intervals of a bounds
// check: each interval's last few work-items run one at a time after its
// vector loop, which a long row pays for with its unmasked vectors
// (measured in bounds_checks_as_ranges.cpp). index_choices_as_ranges.cpp
// cuts shorter rows too (its MIN_ROW): there the loop as it was is scalar.
constexpr uint64_t LONG_ROW = 256;

// `index PRED bound`, index affine in the loop's iterations with step one
// in an integer type of 32 to 64 bits, bound invariant.
struct Test {
    llvm::ICmpInst::Predicate pred;
    const llvm::SCEVAddRecExpr *index;
    llvm::Value *bound;
};

// `v` as an index of `l`: affine in its iterations with step one, in an
// integer type of 32 to 64 bits, its start computable before the loop.
const llvm::SCEVAddRecExpr *read_index(llvm::Value *v, llvm::Loop *l, llvm::ScalarEvolution &se);

// Reads `cond` (through a freeze) as a test of an index of `l` against an
// invariant bound, negated where `negate`.
std::optional<Test> read_test(llvm::Value *cond, bool negate, llvm::Loop *l,
                              llvm::ScalarEvolution &se);

// Iterations [first, last) of the loop, as values before it.
using Interval = std::pair<llvm::Value *, llvm::Value *>;

// Clamps `v` to [from, to] (signed, in the wide type).
llvm::Value *clamp(llvm::IRBuilder<> &b, llvm::Value *v, llvm::Value *from, llvm::Value *to);

// The iterations in [0, count) whose work-items pass test `t` (for `!=`,
// only those below the bound, the rest not being one interval), computed
// in `wide` (twice the index's width at least) before the loop: two
// intervals, the first before the index wraps around its type, the second
// after (a work-item loop runs fewer than 2^32 work-items, so an index of
// 32 bits or more wraps at most once).
llvm::SmallVector<Interval, 2> intervals_passing(llvm::IRBuilder<> &b, const Test &t,
                                                 llvm::Value *count, llvm::Type *wide,
                                                 llvm::SCEVExpander &expander);

// An innermost work-item loop as the passes that cut it into pieces read
// it: its latch is its only exit, no value of it is used after it, and its
// counter runs from `start` while the latch's `exit` test of `next`
// against `end` (parallel_access.h, WorkItemCounter) fails.
struct Row {
    llvm::Loop *loop;
    llvm::PHINode *counter;
    llvm::Value *start;
    llvm::ICmpInst *exit;
    llvm::Value *next;
    llvm::Value *end;
};
std::optional<Row> read_row(llvm::Loop *l);

// The loop's ends as a loop over pieces of it needs them: a block of its
// own before it (where the bounds are computed), and an exit only its
// latch reaches, without phis (the exit's phis then name the new one).
std::pair<llvm::BasicBlock *, llvm::BasicBlock *> own_preheader_and_exit(llvm::Loop *l);

// A loop over pieces of a work-item loop's counters: `head` takes piece
// `piece`'s [lo, hi) and enters (`enter`, which still branches to the
// loop's header) when it is not empty, else goes on to `next`, which
// close_pieces ends.
struct Pieces {
    llvm::BasicBlock *head, *enter, *next;
    llvm::PHINode *piece;
    llvm::Value *lo, *hi;
    unsigned count;
};
Pieces open_pieces(llvm::BasicBlock *preheader, llvm::BasicBlock *exit_block,
                   llvm::ArrayRef<Interval> counters);

// Ends the pieces' loop: after the last piece, on to `after`. A few trips,
// each around a vector loop: not unrolled.
void close_pieces(const Pieces &p, llvm::BasicBlock *after);

// Whether some instruction of `l` may write what `load` reads, in any
// iteration: the location is all memory around the load's address (alias
// analysis compares the addresses of one iteration), which the frame's
// alias scopes still tell apart from a buffer's.
bool written_in_loop(llvm::Loop *l, llvm::LoadInst *load, llvm::AAResults &aa);

// Rewrites the loops of `f` that `shape` takes, one at a time: every loop
// is read first (`shape(l, false)`), then each one taken is read again,
// with analyses that see the loops rewritten before it, and rewritten
// (`shape(l, true)`). The loops are apart: rewriting one changes none of
// the others' blocks. Whether some loop was taken.
bool rewrite_loops_one_at_a_time(llvm::Function &f, llvm::FunctionAnalysisManager &fam,
                                 llvm::function_ref<bool(llvm::Loop *, bool apply)> shape);

// A copy of `blocks` (names ending in `suffix`), at the function's end;
// `map` takes each original to its copy. Uses of the blocks' values in the
// copies name the copies' values; uses of others stay.
void copy_blocks(llvm::ArrayRef<llvm::BasicBlock *> blocks, const llvm::Twine &suffix,
                 llvm::ValueToValueMapTy &map);

// Asks the loop vectorizer to run the last, partial vector of the loop
// whose latch ends in `latch_branch` under a mask (tail folding) instead of
// a scalar loop after the vector loop, on hosts with AVX-512, where masked
// loads and stores cost what plain ones do. For the loops of short pieces:
// Rodinia hotspot's rows of 16 cut at a clamped neighbour left an inner
// piece of 14 work-items, which ran as a vector of 8 and 6 work-items one
// at a time. The loop gets a loop ID of its own. Nothing where the
// function is not compiled for AVX-512 (compiled_for_avx512).
void fold_tail_under_mask(llvm::Instruction *latch_branch);

// What a pass that changed at most loop IDs (vectorizer hints) keeps: all
// when `changed` is false, else the CFG, loops and scalar evolution.
llvm::PreservedAnalyses kept_after_loop_hints(bool changed);

} // namespace ferrocl
