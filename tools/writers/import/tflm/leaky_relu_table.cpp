#include "tools/writers/import/tflm/leaky_relu_table.h"

#include <algorithm>

#include "kernels/common/requantize.h"
#include "tools/writers/import/tflm/multipliers.h"

namespace etns::tools::tflm {

LeakyReluParams leaky_relu_params(float input_scale, int32_t input_zero_point, float output_scale,
                                  int32_t output_zero_point, float alpha, const std::string& what) {
  LeakyReluParams p;
  p.input_zero_point = input_zero_point;
  p.output_zero_point = output_zero_point;
  const double s_in = static_cast<double>(input_scale), s_out = static_cast<double>(output_scale);
  p.alpha = signed_quantize_multiplier(s_in * static_cast<double>(alpha) / s_out, what + ": alpha factor");
  p.identity = quantize_multiplier(s_in / s_out, what + ": identity factor");
  return p;
}

std::array<int8_t, 256> leaky_relu_table(const LeakyReluParams& p) {
  std::array<int8_t, 256> table{};
  for (int32_t q = -128; q <= 127; ++q) {
    const int32_t x = q - p.input_zero_point;
    const Requant& factor = x >= 0 ? p.identity : p.alpha;
    const int64_t y = int64_t{p.output_zero_point} +
                      kernels::requantize(x, kernels::Requant{factor.multiplier, factor.shift});
    table[static_cast<uint8_t>(q)] = static_cast<int8_t>(std::clamp<int64_t>(y, -128, 127));
  }
  return table;
}

}  // namespace etns::tools::tflm
