#pragma once

#include <array>
#include <cstdint>
#include <string>

// TFLM's int8 LOGISTIC (logistic_common.cc's CalculateArithmeticOpDataLogistic,
// reference/integer_ops/logistic.h) as the 256-entry table
// etns_ops::lookup_table reads. TANH (tanh_table.h) shares the input side.
namespace etns::tools::tflm {

// The input rescaling both derive: s_in * 2^27 (4 integer bits) split by
// frexp into a multiplier round(m * 2^31) and a left shift, and
// CalculateInputRadius: floor(15 * 2^27 / 2^shift), past which the output
// saturates without arithmetic.
struct SigmoidInput {
  int32_t zero_point = 0;
  int32_t multiplier = 0;
  int32_t left_shift = 0;  // negative: a right shift
  int32_t range_radius = 0;
};

// Throws Failure naming `what` for a scale whose shift TFLM cannot use:
// below 0 (s_in < 2^-28: CalculateInputRadius shifts by a negative amount)
// or above 62 (its 64-bit shift overflows).
SigmoidInput sigmoid_input(float input_scale, int32_t input_zero_point, const std::string& what);

// Entry (uint8_t)q, x = q - zp: -128 for x <= -radius, 127 for x >= radius,
// else clamp(RoundingDivideByPOT(logistic(MultiplyByQuantizedMultiplier(x)),
// 23) - 128, -128, 127). The output grid is 1/256 with zero point -128 by
// TFLM's check (the importer checks the zero point; TFLM reads no scale).
std::array<int8_t, 256> logistic_table(const SigmoidInput& p);

}  // namespace etns::tools::tflm
