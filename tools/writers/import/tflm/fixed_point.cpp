#include "tools/writers/import/tflm/fixed_point.h"

#include <limits>

#include "kernels/common/requantize.h"

namespace etns::tools::tflm::fixed_point {
namespace {

constexpr int32_t kInt32Max = std::numeric_limits<int32_t>::max();
constexpr int32_t kInt32Min = std::numeric_limits<int32_t>::min();

int32_t mul(int32_t a, int32_t b) { return kernels::doubling_high_multiply(a, b); }

// int32 wrap-around sums, as gemmlowp's raw + and - on int32.
int32_t add(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
int32_t sub(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}

// RoundingHalfSum: (a + b) / 2 in 64 bits, rounded away from zero.
int32_t rounding_half_sum(int32_t a, int32_t b) {
  const int64_t sum = int64_t{a} + int64_t{b};
  return static_cast<int32_t>((sum + (sum >= 0 ? 1 : -1)) / 2);
}

// exp_on_interval_between_negative_one_quarter_and_0_excl: e^a for a in
// [-1/4, 0), 0 integer bits, from e^(-1/8) times a Taylor series in
// x = a + 1/8.
int32_t exp_on_last_quarter(int32_t a) {
  constexpr int32_t kExpMinusEighth = 1895147668;
  constexpr int32_t kOneThird = 715827883;
  const int32_t x = add(a, int32_t{1} << 28);
  const int32_t x2 = mul(x, x);
  const int32_t x3 = mul(x2, x);
  const int32_t x4 = mul(x2, x2);
  const int32_t x4_over_4 = multiply_by_pot(x4, -2);
  const int32_t series = multiply_by_pot(add(mul(add(x4_over_4, x3), kOneThird), x2), -1);
  return add(kExpMinusEighth, mul(kExpMinusEighth, add(x, series)));
}

// The Newton-Raphson reciprocal both divisions share: 1 / (1 + a) / 2 with 2
// integer bits (x of gemmlowp's loop, after three steps).
int32_t half_reciprocal_of_one_plus(int32_t a) {
  constexpr int32_t k48Over17 = 1515870810;
  constexpr int32_t kMinus32Over17 = -1010580540;
  constexpr int32_t kOneF2 = int32_t{1} << 29;
  const int32_t half_denominator = rounding_half_sum(a, kInt32Max);
  int32_t x = add(k48Over17, mul(half_denominator, kMinus32Over17));
  for (int i = 0; i < 3; ++i) {
    const int32_t one_minus = sub(kOneF2, mul(half_denominator, x));
    x = add(x, multiply_by_pot(mul(x, one_minus), 2));
  }
  return x;
}

}  // namespace

int32_t multiply_by_pot(int32_t x, int exponent) {
  if (exponent < 0) return kernels::rounding_divide_by_pow2(x, -exponent);
  if (exponent == 0) return x;
  const int32_t threshold = static_cast<int32_t>((int64_t{1} << (31 - exponent)) - 1);
  if (x > threshold) return kInt32Max;
  if (x < -threshold) return kInt32Min;
  return static_cast<int32_t>(static_cast<uint32_t>(x) << exponent);
}

int32_t exp_on_negative_values(int32_t a, int integer_bits) {
  const int fractional_bits = 31 - integer_bits;
  const int32_t one_quarter = int32_t{1} << (fractional_bits - 2);
  const int32_t a_mod_quarter_minus_quarter = sub(a & (one_quarter - 1), one_quarter);
  int32_t result = exp_on_last_quarter(multiply_by_pot(a_mod_quarter_minus_quarter, integer_bits));
  const int32_t remainder = sub(a_mod_quarter_minus_quarter, a);
  // The barrel shifter: bit (fractional_bits + k) of the remainder set
  // multiplies by e^(-2^k), for each k below integer_bits.
  constexpr int32_t kExpMinusPow2[] = {1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
  for (int k = -2; k <= 4; ++k) {
    if (integer_bits <= k) continue;
    if ((remainder & (int32_t{1} << (fractional_bits + k))) != 0) result = mul(result, kExpMinusPow2[k + 2]);
  }
  if (integer_bits > 5 && a < -(int32_t{1} << (36 - integer_bits))) result = 0;
  if (a == 0) result = kInt32Max;
  return result;
}

int32_t one_over_one_plus_x(int32_t a) {
  // Rescale<0>(ExactMulByPot<-1>(x)): the raw value as 1 integer bit, to 0.
  return multiply_by_pot(half_reciprocal_of_one_plus(a), 1);
}

int32_t one_minus_x_over_one_plus_x(int32_t a) {
  // Rescale<0>(x - 1) from 2 integer bits.
  return multiply_by_pot(sub(half_reciprocal_of_one_plus(a), int32_t{1} << 29), 2);
}

int32_t logistic(int32_t a, int integer_bits) {
  if (a == 0) return int32_t{1} << 30;
  const int32_t magnitude = a > 0 ? a : sub(0, a);
  const int32_t positive = one_over_one_plus_x(exp_on_negative_values(sub(0, magnitude), integer_bits));
  return a > 0 ? positive : sub(kInt32Max, positive);
}

int32_t tanh(int32_t a, int integer_bits) {
  if (a == 0) return 0;
  const int32_t negative_part = a < 0 ? a : sub(0, a);
  // neg_tanh_on_negative_values: ExactMulByPot<1> keeps the raw value and
  // adds an integer bit.
  const int32_t t = one_minus_x_over_one_plus_x(exp_on_negative_values(negative_part, integer_bits + 1));
  return a < 0 ? sub(0, t) : t;
}

}  // namespace etns::tools::tflm::fixed_point
