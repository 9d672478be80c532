#pragma once

#include <cstddef>

#include "kernels/common/isa.h"

// A variant list's Helium entry, present when the build compiles Helium.
#if ETNS_HAVE_MVE
#define ETNS_MVE_VARIANT(fn) {"mve", fn},
#else
#define ETNS_MVE_VARIANT(fn)
#endif

// A variant list's host SIMD entry, present when the host build compiles
// Highway; listed last, so the host runs it (fastest below).
#if ETNS_HAVE_HWY
#define ETNS_HWY_VARIANT(fn) {"hwy", fn},
#else
#define ETNS_HWY_VARIANT(fn)
#endif

namespace etns::kernels {

// One compiled implementation of an operator's kernel function; `isa` names
// it: "ref" (the scalar reference, the definition of the numerics), "lut"
// (a table built from the reference), "mve" (Helium), "hwy" (host SIMD,
// Highway, dispatched at run time to the best instruction set the CPU has).
template <typename Fn>
struct Variant {
  const char* isa;
  Fn fn;
};

// The build's choice: each operator's header lists its variants (k<Op>Variants,
// "ref" first, one line per variant), ordered from the reference to the
// fastest variant compiled. A build with
// ETNS_REFERENCE_KERNELS (CMake option) runs the references everywhere, so a
// whole program can be measured both ways (`etns bench`). On the host the
// choice can also be made at run time (set_reference_kernels), so that a
// benchmark times both in one run on one machine.
#if ETNS_HAVE_MVE || defined(ETNS_REFERENCE_KERNELS)
template <typename Fn, size_t N>
constexpr Fn fastest(const Variant<Fn> (&variants)[N]) {
#if defined(ETNS_REFERENCE_KERNELS)
  return variants[0].fn;
#else
  return variants[N - 1].fn;
#endif
}
#else
// Whether the host runs every operator's reference (default: the fastest
// variant). Set it before running methods, not while they run.
void set_reference_kernels(bool on);
bool reference_kernels();

template <typename Fn, size_t N>
inline Fn fastest(const Variant<Fn> (&variants)[N]) {
  return reference_kernels() ? variants[0].fn : variants[N - 1].fn;
}
#endif

}  // namespace etns::kernels
