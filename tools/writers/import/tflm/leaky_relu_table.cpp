#include "tools/writers/import/tflm/leaky_relu_table.h"

#include <algorithm>
#include <cmath>

#include "kernels/common/requantize.h"
#include "tools/common/failure.h"
#include "tools/writers/import/tflm/multipliers.h"

namespace etns::tools::tflm {

Requant signed_quantize_multiplier(double x, const std::string& what) {
  if (!std::isfinite(x)) throw Failure(what + ": factor is not finite");
  if (x >= 0.0) return quantize_multiplier(x, what);
  int exponent = 0;
  const double mantissa = std::frexp(x, &exponent);  // in (-1, -0.5]
  // Halves away from zero; -2^31 is not carried (TFLM compares with +2^31).
  const int64_t multiplier = static_cast<int64_t>(std::round(mantissa * 2147483648.0));
  if (exponent < -31) return {};
  if (exponent > 30) throw Failure(what + ": factor " + std::to_string(x) + " needs a left shift above 30");
  return {static_cast<int32_t>(multiplier), exponent};
}

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
