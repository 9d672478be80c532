#include "tools/writers/import/tflm/logistic_table.h"

#include <algorithm>
#include <cmath>

#include "kernels/common/requantize.h"
#include "tools/common/failure.h"
#include "tools/writers/import/tflm/fixed_point.h"

namespace etns::tools::tflm {

SigmoidInput sigmoid_input(float input_scale, int32_t input_zero_point, const std::string& what) {
  constexpr int kInputIntegerBits = 4;
  SigmoidInput p;
  p.zero_point = input_zero_point;
  const double real = static_cast<double>(input_scale) * static_cast<double>(1 << (31 - kInputIntegerBits));
  int shift = 0;
  const double mantissa = std::frexp(real, &shift);
  if (shift < 0 || shift > 62) {
    throw Failure(what + ": input scale " + std::to_string(input_scale) + " gives TFLM's input shift " +
                  std::to_string(shift) + " (it needs 0 to 62)");
  }
  // A float32 scale has 24 significant bits: m * 2^31 is an exact integer
  // below 2^31, so TfLiteRound changes nothing and never reaches 2^31.
  p.multiplier = static_cast<int32_t>(std::round(mantissa * 2147483648.0));
  p.left_shift = shift;
  const double max_input = 1.0 * ((1 << kInputIntegerBits) - 1) *
                           static_cast<double>(int64_t{1} << (31 - kInputIntegerBits)) /
                           static_cast<double>(int64_t{1} << shift);
  p.range_radius = static_cast<int32_t>(std::floor(max_input));
  return p;
}

std::array<int8_t, 256> logistic_table(const SigmoidInput& p) {
  std::array<int8_t, 256> table{};
  for (int32_t q = -128; q <= 127; ++q) {
    const int32_t x = q - p.zero_point;
    int32_t y = 0;
    if (x <= -p.range_radius) {
      y = -128;
    } else if (x >= p.range_radius) {
      y = 127;
    } else {
      // Inside the radius x * 2^shift fits int32 and shift <= 30.
      const int32_t in_q4 = kernels::requantize(x, kernels::Requant{p.multiplier, p.left_shift});
      const int32_t out_q0 = fixed_point::logistic(in_q4, 4);
      y = std::clamp(kernels::rounding_divide_by_pow2(out_q0, 31 - 8) - 128, -128, 127);
    }
    table[static_cast<uint8_t>(q)] = static_cast<int8_t>(y);
  }
  return table;
}

}  // namespace etns::tools::tflm
