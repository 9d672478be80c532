#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/variant.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::kernels::testing {

// The elements of bench_unary_tier1's tensor, 1x16x32x32.
inline constexpr size_t kUnaryBenchCount = size_t{16} * 32 * 32;

// Every variant of an elementwise int8 -> int8 operator over the Tier-1
// programs' 1x16x32x32 tensor of random codes.
template <typename Params, size_t N>
void bench_unary_tier1(Bench& bench,
                       const Variant<void (*)(const Params&, const int8_t*, int8_t*, size_t)> (
                           &variants)[N],
                       const Params& p) {
  constexpr size_t kCount = kUnaryBenchCount;
  int8_t* in = ETNS_TEST_ARRAY(int8_t, kCount);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, kCount);
  Rng rng(kCount);
  rng.fill_s8(in, kCount);
  for (const auto& v : variants) bench.measure(v.isa, [&] { v.fn(p, in, out, kCount); });
}

}  // namespace etns::kernels::testing
