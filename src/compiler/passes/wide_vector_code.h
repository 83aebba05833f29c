// Whether a kernel is already wide vector code: its work is done by
// vectors at least as wide as the host's vector registers (float8, int8,
// double4 with AVX; float16, int16 with AVX-512), so that splitting them
// into scalars for the loop vectorizer only takes them apart again
// (wide_vector_code.cpp).
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/TargetParser/SubtargetFeature.h>

namespace ferrocl {

// The width in bits of the host's vector registers as LLVM's cost model
// for the host CPU sees them (256 with AVX2; 512 with AVX-512, or 256
// where the CPU prefers 256-bit vectors), at least 256. Asked once per
// process: the region pipeline compiles for a generic x86-64 and the back
// end for the host, and both must decide alike.
unsigned host_vector_bits();

// The host's CPU features as the back end's -march=native gives them
// (each of LLVM's host features, on or off).
llvm::SubtargetFeatures host_features();

// True when, in `blocks`, the arithmetic and memory accesses on vectors of
// `bits` or more outnumber, element by element, those on narrower vectors
// and on floating-point scalars at least four to one, and there is some.
// Integer scalars are not counted: they are mostly the addresses and
// counters every work-item computes anyway.
bool is_wide_vector_code(llvm::ArrayRef<const llvm::BasicBlock *> blocks, unsigned bits);

} // namespace ferrocl
