#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "tools/writers/program/quantized_graph.h"

// TFLM's QUANTIZE from int8 to int8 (quantize_common.cc's
// PrepareQuantizeReference, reference/requantize.h) as the 256-entry table
// etns_ops::lookup_table reads.
namespace etns::tools::tflm {

struct RequantizeParams {
  int32_t input_zero_point = 0;
  int32_t output_zero_point = 0;
  Requant factor;  // double(s_in) / double(s_out)
};

// Throws Failure naming `what` for a factor needing a left shift above 30.
RequantizeParams requantize_params(float input_scale, int32_t input_zero_point, float output_scale,
                                   int32_t output_zero_point, const std::string& what);

// Entry (uint8_t)q: clamp(MultiplyByQuantizedMultiplier(q - zp_in, factor) +
// zp_out, -128, 127). (Requantize's same-scale shortcut applies only between
// int8 and uint8.)
std::array<int8_t, 256> requantize_table(const RequantizeParams& p);

}  // namespace etns::tools::tflm
