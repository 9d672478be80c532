#pragma once

#include <cstdint>
#include <vector>

#include "kernels/testing/rng.h"

namespace etns::testing {

// The kernel tests' generator (SplitMix64): every failure reproduces from its seed.
using Rng = kernels::testing::Rng;

inline std::vector<int8_t> random_s8(Rng& rng, size_t n) {
  std::vector<int8_t> v(n);
  for (auto& x : v) x = static_cast<int8_t>(rng.uniform(-128, 127));
  return v;
}

}  // namespace etns::testing
