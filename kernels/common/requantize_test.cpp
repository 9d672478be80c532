#include "kernels/common/requantize.h"

#include <gtest/gtest.h>

#include <cstdint>

#include "tests/support/rng.h"

namespace etns::kernels {
namespace {

TEST(Requantize, DoublingHighMultiplyRoundsHalfUp) {
  EXPECT_EQ(doubling_high_multiply(1, 1 << 30), 1);   // 0.5 -> 1
  EXPECT_EQ(doubling_high_multiply(-1, 1 << 30), 0);  // -0.5 -> 0
  EXPECT_EQ(doubling_high_multiply(INT32_MIN, INT32_MIN), INT32_MAX);
  EXPECT_EQ(doubling_high_multiply(INT32_MAX, INT32_MAX), INT32_MAX - 1);
}

TEST(Requantize, RoundingDivideRoundsHalfAwayFromZero) {
  EXPECT_EQ(rounding_divide_by_pow2(3, 1), 2);
  EXPECT_EQ(rounding_divide_by_pow2(-3, 1), -2);
  EXPECT_EQ(rounding_divide_by_pow2(5, 2), 1);
  EXPECT_EQ(rounding_divide_by_pow2(-5, 2), -1);
  EXPECT_EQ(rounding_divide_by_pow2(6, 2), 2);
  EXPECT_EQ(rounding_divide_by_pow2(-6, 2), -2);
  EXPECT_EQ(rounding_divide_by_pow2(12345, 0), 12345);
  EXPECT_EQ(rounding_divide_by_pow2(INT32_MIN, 31), -1);
  EXPECT_EQ(rounding_divide_by_pow2(INT32_MAX, 31), 1);
}

// operators.md §1.3 test vectors.
TEST(Requantize, SpecVectors) {
  struct Vector {
    int32_t v, m, s, rq;
  };
  const Vector vectors[] = {
      {1, 1073741824, 0, 1},           {-1, 1073741824, 0, 0},
      {3, 1073741824, -1, 1},          {-3, 1073741824, -1, -1},
      {5, 1073741824, -2, 1},          {-5, 1073741824, -2, -1},
      {-6, 1073741824, -2, -1},        {12345, 1109979705, -8, 25},
      {-12345, 1109979705, -8, -25},   {1000, 1109119514, 2, 2066},
      {-1000, 1494462729, -4, -44},    {267386880, 2044058342, -1, 127254609},
  };
  for (const Vector& t : vectors) {
    EXPECT_EQ(requantize(t.v, Requant{t.m, t.s}), t.rq) << t.v << " " << t.m << " " << t.s;
  }
}

// The reference formula, evaluated with exact 128-bit arithmetic where it matters.
int32_t requantize_slow(int32_t v, int32_t m, int32_t s) {
  const int64_t scaled = static_cast<int32_t>(static_cast<uint32_t>(v) << (s > 0 ? s : 0));
  const __int128 product = static_cast<__int128>(scaled) * m;
  // floor((product + 2^30) / 2^31)
  __int128 numerator = product + (static_cast<__int128>(1) << 30);
  __int128 q = numerator / (static_cast<__int128>(1) << 31);
  if (numerator % (static_cast<__int128>(1) << 31) < 0) q -= 1;
  const int64_t high = static_cast<int64_t>(q);
  const int right = s < 0 ? -s : 0;
  if (right == 0) return static_cast<int32_t>(high);
  const int64_t magnitude = ((high < 0 ? -high : high) + (int64_t{1} << (right - 1))) >> right;
  return static_cast<int32_t>(high < 0 ? -magnitude : magnitude);
}

TEST(Requantize, MatchesAnIndependentWideEvaluation) {
  testing::Rng rng(20261130);
  for (int i = 0; i < 200000; ++i) {
    const int32_t s = static_cast<int32_t>(rng.uniform(-31, 30));
    const int32_t m = static_cast<int32_t>(rng.uniform(0, INT32_MAX));
    // Keep v * 2^s inside int32, as every caller does.
    const int64_t limit = s > 0 ? (int64_t{1} << (31 - s)) - 1 : INT32_MAX;
    const int32_t v = static_cast<int32_t>(rng.uniform(-limit, limit));
    ASSERT_EQ(requantize(v, Requant{m, s}), requantize_slow(v, m, s)) << v << " " << m << " " << s;
  }
}

}  // namespace
}  // namespace etns::kernels
