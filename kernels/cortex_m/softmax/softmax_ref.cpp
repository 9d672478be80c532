#include "kernels/cortex_m/softmax/softmax.h"

#include "kernels/common/requantize.h"

namespace etns::cortex_m {

using kernels::clamp_s32;
using kernels::doubling_high_multiply;

namespace {

// int32 arithmetic that wraps, as upstream's vector lanes (and, in practice,
// its scalar code) do, without signed overflow here.
int32_t wrap_add(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
int32_t wrap_sub(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}

// CMSIS-NN DIV_POW2 (ties away from zero); exponents of 32 and more give 0,
// as the Helium path's VRSHL does (CMSIS-NN's scalar code is undefined there).
int32_t rounding_divide(int32_t x, int32_t exponent) {
  return exponent >= 32 ? 0 : kernels::rounding_divide_by_pow2(x, exponent);
}

// CMSIS-NN MUL_POW2: x * 2^exponent, saturating (its thresholds, exactly).
int32_t saturating_multiply_by_pow2(int32_t x, int32_t exponent) {
  const int32_t threshold = (int32_t{1} << (31 - exponent)) - 1;
  if (x > threshold) return INT32_MAX;
  if (x < -threshold) return INT32_MIN;
  return x * (int32_t{1} << exponent);
}

// CMSIS-NN arm_nn_exp_on_negative_values (its scalar and Helium forms are the
// same steps): exp(x / 2^26) in Q0.31 for x <= 0, from a polynomial on
// [-1/4, 0) and one constant factor per set bit of the rest.
int32_t exp_on_negative_values(int32_t value) {
  constexpr int kShift = 24;
  const int32_t mod_minus_quarter =
      static_cast<int32_t>(static_cast<uint32_t>(value) & ((uint32_t{1} << kShift) - 1)) -
      (int32_t{1} << kShift);
  const int32_t remainder = wrap_sub(mod_minus_quarter, value);
  const int32_t x = mod_minus_quarter * 32 + (int32_t{1} << 28);  // |x| <= 2^28: exact
  const int32_t x2 = doubling_high_multiply(x, x);
  const int32_t op1 = wrap_add(
      rounding_divide(doubling_high_multiply(x2, x2), 2), doubling_high_multiply(x2, x));
  const int32_t op2 = wrap_add(
      x, rounding_divide(wrap_add(doubling_high_multiply(op1, 715827883), x2), 1));
  int32_t result = wrap_add(1895147668, doubling_high_multiply(1895147668, op2));
  constexpr int32_t kFactors[7] = {1672461947, 1302514674, 790015084, 290630308,
                                   39332535,   720401,     242};
  for (int k = 0; k < 7; ++k) {
    if ((static_cast<uint32_t>(remainder) & (uint32_t{1} << (kShift + k))) != 0) {
      result = doubling_high_multiply(result, kFactors[k]);
    }
  }
  return value == 0 ? INT32_MAX : result;
}

// CMSIS-NN arm_nn_one_over_one_plus_x_for_x_in_0_1: 1 / (1 + x) for x in
// [0, 1) in Q0.31, three Newton-Raphson steps.
int32_t one_over_one_plus_x(int32_t value) {
  const int64_t sum = int64_t{value} + INT32_MAX;
  // Halved, ties away from zero (C's truncating division of sum +- 1).
  const int32_t half_denominator = static_cast<int32_t>((sum + (sum >= 0 ? 1 : -1)) / 2);
  int32_t x = wrap_add(1515870810, doubling_high_multiply(half_denominator, -1010580540));
  constexpr int32_t kOne = int32_t{1} << 29;
  for (int step = 0; step < 3; ++step) {
    const int32_t error = wrap_sub(kOne, doubling_high_multiply(half_denominator, x));
    x = wrap_add(x, saturating_multiply_by_pow2(doubling_high_multiply(x, error), 2));
  }
  return saturating_multiply_by_pow2(x, 1);
}

int32_t count_leading_zeros(uint32_t v) {
  int32_t n = 0;
  for (uint32_t bit = uint32_t{1} << 31; bit != 0 && (v & bit) == 0; bit >>= 1) ++n;
  return n;
}

}  // namespace

int32_t softmax_exp_s8(const SoftmaxParams& p, int32_t diff) {
  if (diff < p.diff_min) return 0;
  // diff * 2^shift wraps like upstream's int32 multiply.
  const int32_t scaled =
      static_cast<int32_t>(static_cast<uint32_t>(diff) * (uint32_t{1} << p.shift));
  return exp_on_negative_values(doubling_high_multiply(scaled, p.multiplier));
}

SoftmaxRowScale softmax_row_scale(uint32_t sum) {
  const int32_t headroom = count_leading_zeros(sum);
  // sum << headroom has its top bit set; minus 2^31 it is x in [0, 1) of 1 + x.
  const uint32_t normalized = static_cast<int32_t>(sum) > 0 ? sum << headroom : 0u;
  return {one_over_one_plus_x(static_cast<int32_t>(normalized - (uint32_t{1} << 31))),
          12 - headroom + 23};
}

// CMSIS-NN arm_softmax_s8, its Helium path (docs/numerics.md#softmax).
void softmax_s8_ref(const SoftmaxParams& p, const int8_t* input, int8_t* out) {
  constexpr int32_t kAccumBits = 12;
  const size_t n = static_cast<size_t>(p.row_size);
  for (int32_t row = 0; row < p.rows; ++row, input += n, out += n) {
    int32_t max = INT8_MIN;
    for (size_t j = 0; j < n; ++j) max = input[j] > max ? input[j] : max;
    uint32_t sum = 0;  // wraps like upstream's int32 for very long rows
    for (size_t j = 0; j < n; ++j) {
      const int32_t diff = input[j] - max;
      if (diff >= p.diff_min) {
        sum += static_cast<uint32_t>(rounding_divide(softmax_exp_s8(p, diff), kAccumBits));
      }
    }
    const SoftmaxRowScale row_scale = softmax_row_scale(sum);
    for (size_t j = 0; j < n; ++j) {
      const int32_t diff = input[j] - max;
      if (diff < p.diff_min) {
        out[j] = INT8_MIN;
        continue;
      }
      const int32_t e = softmax_exp_s8(p, diff);
      const int32_t scaled = doubling_high_multiply(row_scale.scale, e);
      const int32_t value = wrap_add(rounding_divide(scaled, row_scale.bits_over_unit), INT8_MIN);
      out[j] = static_cast<int8_t>(clamp_s32(value, INT8_MIN, INT8_MAX));
    }
  }
}

}  // namespace etns::cortex_m
