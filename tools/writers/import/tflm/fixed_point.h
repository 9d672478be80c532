#pragma once

#include <cstdint>

// The pieces of gemmlowp's fixedpoint.h that TFLM's int8 LOGISTIC and TANH
// (reference/integer_ops/logistic.h, tanh.h) run, on raw int32 values: a
// FixedPoint<int32_t, I> is a raw value standing for raw / 2^(31 - I). Sums
// and differences are plain int32 arithmetic, as in gemmlowp; products are
// SaturatingRoundingDoublingHighMul (kernels::doubling_high_multiply).
namespace etns::tools::tflm::fixed_point {

// SaturatingRoundingMultiplyByPOT: exponent > 0 shifts left, saturating to
// int32's ends past +-(2^(31 - exponent) - 1); exponent < 0 is
// RoundingDivideByPOT (halves away from zero).
int32_t multiply_by_pot(int32_t x, int exponent);

// exp_on_negative_values: e^a for a <= 0 with `integer_bits` integer bits
// (1 to 6); the result has 0 integer bits.
int32_t exp_on_negative_values(int32_t a, int integer_bits);

// 1 / (1 + a) and (1 - a) / (1 + a) for a in [0, 1), 0 integer bits in and out
// (one_over_one_plus_x_for_x_in_0_1, one_minus_x_over_one_plus_x_for_x_in_0_1).
int32_t one_over_one_plus_x(int32_t a);
int32_t one_minus_x_over_one_plus_x(int32_t a);

// logistic and tanh of a value with `integer_bits` integer bits (at most 5);
// results with 0 integer bits.
int32_t logistic(int32_t a, int integer_bits);
int32_t tanh(int32_t a, int integer_bits);

}  // namespace etns::tools::tflm::fixed_point
