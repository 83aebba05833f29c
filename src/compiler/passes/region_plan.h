// How a kernel with barriers runs as regions: where each region starts,
// which values live across barriers (its frame slots) and the frame's
// layout. Planned on the kernel's work-group copy after the region
// pipeline (driver.rs REGIONS_PIPELINE): each barrier alone in its block,
// every value used outside its block demoted to an alloca (reg2mem).
//
// Region 0 starts at the entry's continuation (the block after its
// allocas), region r at the block after the r-th barrier. An alloca goes to
// the frame only when the value it holds may be read after a barrier
// before being written again, or when its address escapes and a region
// after a barrier uses it; the others stay allocas, which the back end
// promotes back into registers.
#pragma once

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>

#include <optional>
#include <string>

namespace llvm {
class AllocaInst;
class BasicBlock;
class Function;
class Type;
} // namespace llvm

namespace ferrocl {

// One frame slot: an alloca kept per work-item (or once per group).
struct Slot {
    llvm::AllocaInst *alloca;
    // For a value only loaded and stored whole: the region copies it into
    // its own alloca on entry and back on exit, so inside the region it is
    // a register again. An alloca whose address escapes is used in the
    // frame directly (false).
    bool copied;
    // Bytes per work-item (a multiple of the alignment), and alignment.
    uint64_t stride, align;
    // Bytes of frame per work-item before this slot's array; for a uniform
    // slot, its offset in the uniform area.
    uint64_t offset;
    // One value for the whole group (kernel_symbols.h UNIFORM_PREFIX), in
    // the uniform area after the per-work-item arrays.
    bool uniform;
    // Bytes the array starts after nwi * offset (kernel_abi.h FRAME_SKEW).
    uint64_t skew = 0;
};

struct RegionPlan {
    // The first block of region r.
    llvm::SmallVector<llvm::BasicBlock *, 8> starts;
    // Each barrier's block (only the barrier and a branch), and the region
    // it starts.
    llvm::DenseMap<llvm::BasicBlock *, unsigned> barriers;
    llvm::SmallVector<Slot, 16> slots;
    // Bytes per work-item of the per-work-item arrays (the uniform area
    // starts at this times the group's work-items).
    uint64_t per_item_size = 0;
    // Bytes of the uniform slots: their staging copy follows them, then the
    // next region's number (an i32).
    uint64_t uniform_size = 0;
    // Frame bytes per work-item (the executor sizes the frame by
    // work-items, so the uniform area counts per work-item too).
    uint64_t frame_size = 0;

    const Slot *slot_of(const llvm::AllocaInst *a) const;
};

// The plan for `copy` (whose entry block this splits after its allocas:
// the split-off block starts region 0), or the reason it has none: a
// shape the region transform does not handle.
std::optional<RegionPlan> plan_regions(llvm::Function &copy, std::string &why);

} // namespace ferrocl
