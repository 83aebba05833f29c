// The builtins library's fallback calls (builtins/gen/gen_math.py): float
// functions computed inline for the common arguments call
// `__ferrocl_fallback_<libm name>` for the rest. Their masked vector
// variants are named `<fallback>.m<lanes>`: declared for the loop
// vectorizer (fallback_vector_variants.cpp), replaced after it
// (expand_fallback_variants.cpp).
#pragma once

#include <llvm/ADT/StringRef.h>

namespace ferrocl {

constexpr llvm::StringLiteral FALLBACK_PREFIX = "__ferrocl_fallback_";
// Between a fallback's name and its lane count in a variant's name.
constexpr llvm::StringLiteral FALLBACK_VARIANT_INFIX = ".m";

} // namespace ferrocl
