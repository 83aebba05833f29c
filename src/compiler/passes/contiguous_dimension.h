// Which work-item dimension a kernel's memory is contiguous in: the
// dimension its work-group entry loops over innermost (work_group_entries.cpp)
// and the runtime makes the longest side of a group it sizes itself
// (core/kernel.rs choose_local_size). Not an LLVM analysis pass: the entry
// pass asks it once per kernel, on the kernel's own body.
#pragma once

#include <llvm/ADT/ArrayRef.h>

#include <cstdint>
#include <optional>

namespace llvm {
class DataLayout;
class Function;
class Value;
} // namespace llvm

namespace ferrocl {

// 0, 1 or 2: the dimension whose work-item id moves the kernel's loads and
// stores by one element in the most of them and strides the fewest (each
// access counts for each dimension: +1 contiguous or the same address,
// -1 a stride or an address it cannot tell), among the dimensions some
// access is contiguous in. Dimension 0 unless another scores higher (fail closed: x innermost is what kernels are written for).
// Values no work-item id flows into (loop counters, sizes the kernel asks
// for, loads from such addresses) move no address; private variables
// stored once move as their value; calls of index helpers (pure functions
// of their arguments) as their result.
unsigned contiguous_dimension(const llvm::Function &kernel);

// How many bytes `address` moves when dimension `dim`'s work-item id grows
// by one, when that is a constant (ids of the other dimensions count 0).
std::optional<int64_t> address_step(const llvm::Value *address, unsigned dim,
                                    const llvm::DataLayout &layout);

// The same, with the values in `fixed` (a uniform loop's counters) counting
// 0 too.
std::optional<int64_t> address_step(const llvm::Value *address, unsigned dim,
                                    llvm::ArrayRef<const llvm::Value *> fixed,
                                    const llvm::DataLayout &layout);

// The same per iteration of a loop whose `counter` grows by `increment`
// (work-item ids count 0).
std::optional<int64_t> address_step(const llvm::Value *address, const llvm::Value *counter,
                                    int64_t increment, const llvm::DataLayout &layout);

} // namespace ferrocl
