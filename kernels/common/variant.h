#pragma once

#include <cstddef>

namespace etns::kernels {

// One compiled implementation of an operator's kernel function; `isa` names
// it: "ref" (the scalar reference, the definition of the numerics), "lut"
// (a table built from the reference), "mve" (Helium), "sse41" (x86-64).
template <typename Fn>
struct Variant {
  const char* isa;
  Fn fn;
};

// The build's choice: each list in kernels/variants.h is ordered from the
// reference to the fastest variant compiled.
template <typename Fn, size_t N>
constexpr Fn fastest(const Variant<Fn> (&variants)[N]) {
  return variants[N - 1].fn;
}

}  // namespace etns::kernels
