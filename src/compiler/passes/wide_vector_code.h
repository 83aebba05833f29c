// Whether a kernel is already wide vector code: its work is done by
// vectors at least as wide as the host's vector registers (float8, int8,
// double4 with AVX; float16, int16 with AVX-512), so that splitting them
// into scalars for the loop vectorizer only takes them apart again
// (wide_vector_code.cpp).
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/Function.h>
#include <llvm/TargetParser/SubtargetFeature.h>

namespace ferrocl {

// The width in bits of the host's vector registers: 512 with AVX-512 (even
// where LLVM's tuning for the CPU prefers 256: host_vector_width.cpp), 256
// with AVX2, at least 256. Asked once per process: the region pipeline
// compiles for a generic x86-64 and the back end for the host, and both
// must decide alike.
unsigned host_vector_bits();

// The host's CPU features as the back end's -march=native gives them
// (each of LLVM's host features, on or off).
llvm::SubtargetFeatures host_features();

// Whether `f` is compiled for a CPU with AVX-512: by its own
// "target-features" where it has them (the pass tests), else the host's,
// which the back end compiles for (-march=native).
bool compiled_for_avx512(const llvm::Function &f);

// True when, in `blocks`, the arithmetic and memory accesses on vectors of
// `bits` or more outnumber, element by element, those on narrower vectors
// and on floating-point scalars at least four to one, and there is some.
// Also, where `bits` is above 256, when those on vectors of 256 bits or
// more do, and a fifth of those or more are loads and stores (float8 code
// that mostly moves its vectors, on an AVX-512 host). Integer scalars are
// not counted: they are mostly the addresses and counters every work-item
// computes anyway.
bool is_wide_vector_code(llvm::ArrayRef<const llvm::BasicBlock *> blocks, unsigned bits);

} // namespace ferrocl
