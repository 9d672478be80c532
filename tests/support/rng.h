#pragma once

#include <cstdint>
#include <vector>

namespace etns::testing {

// Deterministic generator (SplitMix64) so every failure reproduces from its seed.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi] (inclusive).
  int64_t uniform(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }
  // Uniform in [0, 1).
  double unit() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }

 private:
  uint64_t state_;
};

inline std::vector<int8_t> random_s8(Rng& rng, size_t n) {
  std::vector<int8_t> v(n);
  for (auto& x : v) x = static_cast<int8_t>(rng.uniform(-128, 127));
  return v;
}

}  // namespace etns::testing
