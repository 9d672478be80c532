#include "tools/writers/export/seeded_random.h"

#include <cmath>
#include <cstring>

namespace etns::tools {

uint64_t SeededRandom::next_u64() {
  state_ += 0x9e3779b97f4a7c15ULL;
  uint64_t z = state_;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double SeededRandom::uniform() {
  return static_cast<double>(next_u64() >> 11) * (1.0 / 9007199254740992.0);
}

double SeededRandom::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  double u = 0.0, v = 0.0, s = 0.0;
  do {
    u = 2.0 * uniform() - 1.0;
    v = 2.0 * uniform() - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  // std::sqrt is one of IEEE-754's correctly rounded operations.
  const double factor = std::sqrt(-2.0 * natural_log(s) / s);
  spare_ = v * factor;
  has_spare_ = true;
  return u * factor;
}

std::vector<float> SeededRandom::normal_floats(size_t n) {
  std::vector<float> values(n);
  for (float& value : values) value = normal_float();
  return values;
}

double natural_log(double x) {
  constexpr double kLn2 = 0.6931471805599453094;  // rounds to the double nearest ln 2
  constexpr double kSqrt2 = 1.4142135623730951;
  uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof(bits));
  int exponent = static_cast<int>((bits >> 52) & 0x7ff);
  uint64_t fraction = bits & 0xfffffffffffffULL;
  if (exponent == 0) {
    // Subnormal: scale by 2^64 exactly and read the fields again.
    const double scaled = x * 18446744073709551616.0;
    std::memcpy(&bits, &scaled, sizeof(bits));
    exponent = static_cast<int>((bits >> 52) & 0x7ff) - 64;
    fraction = bits & 0xfffffffffffffULL;
  }
  exponent -= 1023;
  // m in [1, 2) with the same fraction bits.
  const uint64_t m_bits = (uint64_t{1023} << 52) | fraction;
  double m = 0.0;
  std::memcpy(&m, &m_bits, sizeof(m));
  if (m > kSqrt2) {
    m *= 0.5;  // exact
    exponent += 1;
  }
  const double t = (m - 1.0) / (m + 1.0);
  const double t2 = t * t;
  // 2 (t + t^3/3 + ... + t^27/27) by Horner's rule, highest term first.
  double series = 0.0;
  for (int k = 13; k >= 1; --k) series = series * t2 + 1.0 / (2 * k + 1);
  series = series * t2 + 1.0;
  return static_cast<double>(exponent) * kLn2 + 2.0 * t * series;
}

}  // namespace etns::tools
