#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "tools/writers/import/tflm/activation_range.h"
#include "tools/writers/program/quantized_graph.h"

// RELU, RELU_N1_TO_1 and RELU6 on int8 as the 256-entry table
// etns_ops::lookup_table reads (see leaky_relu_table.h for the idea).
//
// RELU is TFLM's: activations_common.cc's CalculateReluOpData (factor
// double(s_in) / double(s_out), clamp from 0 on the output grid) and
// ReluQuantized. RELU6 is TFLM's Relu6Prepare and Relu6Quantized: a clamp of
// the input byte to [zp_in, zp_in + round(6 / s_in)], the output's
// quantisation unused. TFLM registers no RELU_N1_TO_1 kernel; its table is
// TFLite's (activations.cc: ReluPrepare's factor from the float32 quotient
// s_in / s_out, QuantizedReluX(-1, 1)), the arithmetic of TFLM's RELU with
// the bounds -1 and 1.
namespace etns::tools::tflm {

// ReluX's parameters: out = clamp(zp_out + MultiplyByQuantizedMultiplier(q -
// zp_in, factor), range.min, range.max).
struct ReluParams {
  int32_t input_zero_point = 0;
  int32_t output_zero_point = 0;
  Requant factor;
  ActivationRange range;
};

// RELU as TFLM's Prepare derives it. Throws Failure naming `what` for a
// factor that needs a left shift above 30.
ReluParams relu_params(float input_scale, int32_t input_zero_point, float output_scale, int32_t output_zero_point,
                       const std::string& what);
// RELU_N1_TO_1 as TFLite's Prepare and Eval derive it.
ReluParams relu_n1_to_1_params(float input_scale, int32_t input_zero_point, float output_scale,
                               int32_t output_zero_point, const std::string& what);
std::array<int8_t, 256> relu_table(const ReluParams& p);

// RELU6: the clamp bounds on the input grid (FloatToQuantizedType: the float
// quotient 6 / s_in rounded, plus zp_in, clamped to int8). Throws Failure
// naming `what` when round(6 / s_in) leaves int32 (TFLM's conversion would be
// undefined).
struct Relu6Params {
  int32_t zero = 0;
  int32_t six = 127;
};
Relu6Params relu6_params(float input_scale, int32_t input_zero_point, const std::string& what);
// Entry (uint8_t)q: q > six ? six : q < zero ? zero : q.
std::array<int8_t, 256> relu6_table(const Relu6Params& p);

}  // namespace etns::tools::tflm
