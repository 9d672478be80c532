#pragma once

#include <cstddef>
#include <cstdint>

// Deterministic random numbers for kernel tests on the host and the M55
// (SplitMix64): a failure reproduces from the seed the test prints.
namespace etns::kernels::testing {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}

  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi], inclusive; lo <= hi.
  int64_t uniform(int64_t lo, int64_t hi) {
    const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
    const uint64_t offset = span == 0 ? next() : next() % span;
    return static_cast<int64_t>(static_cast<uint64_t>(lo) + offset);
  }
  int32_t uniform32(int32_t lo, int32_t hi) { return static_cast<int32_t>(uniform(lo, hi)); }
  // One of the values of a small table.
  template <typename T, size_t N>
  T pick(const T (&values)[N]) {
    return values[static_cast<size_t>(uniform(0, static_cast<int64_t>(N) - 1))];
  }
  // Uniform in [0, 1).
  double unit() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
  bool coin() { return (next() >> 63) != 0; }

  void fill_s8(int8_t* out, size_t n) {
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<int8_t>(next() >> 56);
  }

 private:
  uint64_t state_;
};

}  // namespace etns::kernels::testing
