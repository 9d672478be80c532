#pragma once

#include <array>
#include <cstdint>

#include "tools/writers/import/tflm/logistic_table.h"

// TFLM's int8 TANH (tanh.cc's CalculateArithmeticOpData, reference
// integer_ops/tanh.h) as the 256-entry table etns_ops::lookup_table reads.
// The input side is LOGISTIC's (sigmoid_input); TFLM checks nothing about the
// output's quantisation and writes tanh in steps of 1/128 around 0.
namespace etns::tools::tflm {

// Entry (uint8_t)q, x = q - zp: -128 for x <= -radius, 127 for x >= radius,
// else clamp(RoundingDivideByPOT(tanh(MultiplyByQuantizedMultiplier(x)), 24),
// -128, 127).
std::array<int8_t, 256> tanh_table(const SigmoidInput& p);

}  // namespace etns::tools::tflm
