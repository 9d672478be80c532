#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "tools/writers/program/quantized_graph.h"

// TFLM's int8 LEAKY_RELU (leaky_relu_common.cc's Prepare, reference
// leaky_relu.h's QuantizeLeakyRelu) as the 256-entry table
// etns_ops::lookup_table reads: the importer runs TFLM's arithmetic on every
// code, so the program gives TFLM's bytes by construction.
namespace etns::tools::tflm {

// TFLM's per-tensor parameters: two factors, both from QuantizeMultiplier.
struct LeakyReluParams {
  int32_t input_zero_point = 0;
  int32_t output_zero_point = 0;
  Requant alpha;     // double(s_in) * double(alpha) / double(s_out), for x < 0
  Requant identity;  // double(s_in) / double(s_out), for x >= 0
};

// The parameters as TFLM's Prepare derives them. alpha may be any finite
// value: a negative one gives a negative multiplier, as TFLM's
// QuantizeMultiplier does (frexp keeps the sign; its carry at 2^31 is for
// positive values only, so a mantissa rounding to -2^31 stays INT32_MIN).
// Throws Failure naming `what` for a non-finite factor or one that needs a
// left shift above 30.
LeakyReluParams leaky_relu_params(float input_scale, int32_t input_zero_point, float output_scale,
                                  int32_t output_zero_point, float alpha, const std::string& what);

// Entry (uint8_t)q is TFLM's output for input code q: with x = q - zp_in,
// clamp(zp_out + MultiplyByQuantizedMultiplier(x, x >= 0 ? identity : alpha),
// -128, 127), MultiplyByQuantizedMultiplier in its default double-rounding
// form (the same arithmetic as kernels::requantize).
std::array<int8_t, 256> leaky_relu_table(const LeakyReluParams& p);

}  // namespace etns::tools::tflm
