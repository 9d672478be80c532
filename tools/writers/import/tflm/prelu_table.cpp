#include "tools/writers/import/tflm/prelu_table.h"

#include <algorithm>

#include "kernels/common/requantize.h"
#include "tools/writers/import/tflm/multipliers.h"

namespace etns::tools::tflm {

PreluParams prelu_params(float input_scale, int32_t input_zero_point, float alpha_scale, int32_t alpha_zero_point,
                         float output_scale, int32_t output_zero_point, const std::string& what) {
  PreluParams p;
  p.input_zero_point = input_zero_point;
  p.alpha_zero_point = alpha_zero_point;
  p.output_zero_point = output_zero_point;
  const double s_in = static_cast<double>(input_scale), s_out = static_cast<double>(output_scale);
  p.identity = quantize_multiplier(s_in / s_out, what + ": identity factor");
  p.alpha = quantize_multiplier(s_in * static_cast<double>(alpha_scale) / s_out, what + ": alpha factor");
  return p;
}

std::array<int8_t, 256> prelu_table(const PreluParams& p, int8_t alpha_code) {
  std::array<int8_t, 256> table{};
  const int32_t a = int32_t{alpha_code} - p.alpha_zero_point;
  for (int32_t q = -128; q <= 127; ++q) {
    const int32_t x = q - p.input_zero_point;
    const int32_t scaled = x >= 0 ? kernels::requantize(x, kernels::Requant{p.identity.multiplier, p.identity.shift})
                                  : kernels::requantize(x * a, kernels::Requant{p.alpha.multiplier, p.alpha.shift});
    const int64_t y = int64_t{p.output_zero_point} + scaled;
    table[static_cast<uint8_t>(q)] = static_cast<int8_t>(std::clamp<int64_t>(y, -128, 127));
  }
  return table;
}

}  // namespace etns::tools::tflm
