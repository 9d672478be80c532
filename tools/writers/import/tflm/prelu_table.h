#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "tools/writers/program/quantized_graph.h"

// TFLM's int8 PRELU (prelu_common.cc's CalculatePreluParams, reference
// prelu.h's BroadcastPrelu4DSlow) for one alpha code, as the 256-entry table
// etns_ops::lookup_table reads: the importer runs TFLM's arithmetic on every
// input code.
namespace etns::tools::tflm {

struct PreluParams {
  int32_t input_zero_point = 0;
  int32_t alpha_zero_point = 0;
  int32_t output_zero_point = 0;
  Requant identity;  // double(s_in) / double(s_out), for x >= 0
  Requant alpha;     // double(s_in) * double(s_alpha) / double(s_out), for x < 0
};

// The parameters as TFLM's Prepare derives them (QuantizeMultiplier of
// each). Throws Failure naming `what` for a negative or non-finite factor or
// one that needs a left shift above 30.
PreluParams prelu_params(float input_scale, int32_t input_zero_point, float alpha_scale, int32_t alpha_zero_point,
                         float output_scale, int32_t output_zero_point, const std::string& what);

// Entry (uint8_t)q is TFLM's output for input code q and alpha code a: with
// x = q - zp_in, MultiplyByQuantizedMultiplier(x, identity) for x >= 0, else
// MultiplyByQuantizedMultiplier(x * (a - zp_alpha), alpha); plus zp_out,
// clamped to int8 (the double-rounding form, as kernels::requantize).
std::array<int8_t, 256> prelu_table(const PreluParams& p, int8_t alpha_code);

}  // namespace etns::tools::tflm
