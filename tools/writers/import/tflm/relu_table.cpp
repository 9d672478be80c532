#include "tools/writers/import/tflm/relu_table.h"

#include <algorithm>
#include <cmath>

#include "kernels/common/requantize.h"
#include "tools/common/failure.h"
#include "tools/writers/import/tflm/multipliers.h"

namespace etns::tools::tflm {

ReluParams relu_params(float input_scale, int32_t input_zero_point, float output_scale, int32_t output_zero_point,
                       const std::string& what) {
  ReluParams p;
  p.input_zero_point = input_zero_point;
  p.output_zero_point = output_zero_point;
  p.factor = quantize_multiplier(static_cast<double>(input_scale) / static_cast<double>(output_scale),
                                 what + ": rescaling factor");
  p.range = activation_range(tflite::Activation::Relu, output_scale, output_zero_point, what);
  return p;
}

ReluParams relu_n1_to_1_params(float input_scale, int32_t input_zero_point, float output_scale,
                               int32_t output_zero_point, const std::string& what) {
  ReluParams p;
  p.input_zero_point = input_zero_point;
  p.output_zero_point = output_zero_point;
  const float quotient = input_scale / output_scale;  // float32 on purpose: TFLite's ReluPrepare divides so
  p.factor = quantize_multiplier(static_cast<double>(quotient), what + ": rescaling factor");
  p.range = activation_range(tflite::Activation::ReluN1To1, output_scale, output_zero_point, what);
  return p;
}

std::array<int8_t, 256> relu_table(const ReluParams& p) {
  std::array<int8_t, 256> table{};
  for (int32_t q = -128; q <= 127; ++q) {
    const int64_t y = int64_t{p.output_zero_point} +
                      kernels::requantize(q - p.input_zero_point, kernels::Requant{p.factor.multiplier, p.factor.shift});
    table[static_cast<uint8_t>(q)] = static_cast<int8_t>(std::clamp<int64_t>(y, p.range.min, p.range.max));
  }
  return table;
}

Relu6Params relu6_params(float input_scale, int32_t input_zero_point, const std::string& what) {
  const float steps = std::round(6.0F / input_scale);
  if (!(steps >= -2147483648.0F && steps <= 2147483520.0F)) {
    throw Failure(what + ": 6 is " + std::to_string(steps) + " steps of the input grid, outside int32");
  }
  Relu6Params p;
  p.zero = input_zero_point;
  const int64_t six = int64_t{input_zero_point} + static_cast<int64_t>(steps);
  p.six = static_cast<int32_t>(std::clamp<int64_t>(six, -128, 127));
  return p;
}

std::array<int8_t, 256> relu6_table(const Relu6Params& p) {
  std::array<int8_t, 256> table{};
  for (int32_t q = -128; q <= 127; ++q) {
    const int32_t y = q > p.six ? p.six : (q < p.zero ? p.zero : q);
    table[static_cast<uint8_t>(q)] = static_cast<int8_t>(y);
  }
  return table;
}

}  // namespace etns::tools::tflm
