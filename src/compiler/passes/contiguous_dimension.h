// Which work-item dimension a kernel's memory is contiguous in: the
// dimension its work-group entry loops over innermost (work_group_entries.cpp)
// and the runtime makes the longest side of a group it sizes itself
// (core/kernel.rs choose_local_size). Not an LLVM analysis pass: the entry
// pass asks it once per kernel, on the kernel's own body.
#pragma once

namespace llvm {
class Function;
} // namespace llvm

namespace ferrocl {

// 0, 1 or 2: the dimension whose work-item id moves the kernel's loads and
// stores by one element in the most of them and strides the fewest (each
// access counts for each dimension: +1 contiguous or the same address,
// -1 a stride or an address it cannot tell), among the dimensions some
// access is contiguous in. Dimension 0 unless another scores higher (fail closed: x innermost is what kernels are written for).
unsigned contiguous_dimension(const llvm::Function &kernel);

} // namespace ferrocl
