#include "tools/writers/import/tflm/quantize_table.h"

#include <algorithm>

#include "kernels/common/requantize.h"
#include "tools/writers/import/tflm/multipliers.h"

namespace etns::tools::tflm {

RequantizeParams requantize_params(float input_scale, int32_t input_zero_point, float output_scale,
                                   int32_t output_zero_point, const std::string& what) {
  RequantizeParams p;
  p.input_zero_point = input_zero_point;
  p.output_zero_point = output_zero_point;
  p.factor = quantize_multiplier(static_cast<double>(input_scale) / static_cast<double>(output_scale),
                                 what + ": rescaling factor");
  return p;
}

std::array<int8_t, 256> requantize_table(const RequantizeParams& p) {
  std::array<int8_t, 256> table{};
  for (int32_t q = -128; q <= 127; ++q) {
    const int64_t y = int64_t{kernels::requantize(q - p.input_zero_point,
                                                  kernels::Requant{p.factor.multiplier, p.factor.shift})} +
                      p.output_zero_point;
    table[static_cast<uint8_t>(q)] = static_cast<int8_t>(std::clamp<int64_t>(y, -128, 127));
  }
  return table;
}

}  // namespace etns::tools::tflm
