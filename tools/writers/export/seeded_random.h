#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace etns::tools {

// The exporter's deterministic random numbers: the same seed gives the same
// bits on every machine, compiler and C library.
//
// Uniforms come from SplitMix64 (Steele, Lea and Flood 2014): a 64-bit counter
// advanced by 0x9e3779b97f4a7c15 and mixed by two xor-shift-multiply rounds,
// integer arithmetic only. Normals use Marsaglia's polar form of Box-Muller:
// draw u, v uniform in [-1, 1) until 0 < s = u^2 + v^2 < 1, then
// u * sqrt(-2 ln s / s) and v * sqrt(-2 ln s / s) are two independent standard
// normals (the second is kept for the next call). The polar form needs no sine
// or cosine. The value path uses only IEEE-754 double +, -, *, / and sqrt, all
// correctly rounded by the standard (so identical everywhere, built with
// -ffp-contract=off as etns_options does), and our own natural logarithm
// (natural_log below) made of those same operations. std::normal_distribution
// is avoided because its algorithm is implementation-defined, std::log because
// libm results may differ in the last bit between C libraries.
class SeededRandom {
 public:
  explicit SeededRandom(uint64_t seed) : state_(seed) {}

  // The next SplitMix64 output.
  uint64_t next_u64();
  // Uniform in [0, 1): the top 53 bits of next_u64() times 2^-53 (exact).
  double uniform();
  // A standard-normal double (polar method above).
  double normal();
  // A standard-normal sample rounded once to float32.
  float normal_float() { return static_cast<float>(normal()); }
  // n normal_float() values in draw order.
  std::vector<float> normal_floats(size_t n);

 private:
  uint64_t state_;
  bool has_spare_ = false;
  double spare_ = 0.0;
};

// ln(x) for finite x > 0, from basic double operations only: x = m * 2^e
// exactly (bit fields; m in [sqrt(1/2), sqrt(2))), ln m = 2 atanh(t) with
// t = (m - 1) / (m + 1) as a fixed 14-term odd series (|t| <= 0.1716, so the
// first omitted term is below 2^-60 relative), and e * ln 2 added last. Within
// a few ulp of the true value; what matters here is that it is reproducible.
double natural_log(double x);

}  // namespace etns::tools
