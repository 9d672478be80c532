#include "tools/writers/import/tflm/tanh_table.h"

#include <algorithm>

#include "kernels/common/requantize.h"
#include "tools/writers/import/tflm/fixed_point.h"

namespace etns::tools::tflm {

std::array<int8_t, 256> tanh_table(const SigmoidInput& p) {
  std::array<int8_t, 256> table{};
  for (int32_t q = -128; q <= 127; ++q) {
    const int32_t x = q - p.zero_point;
    int32_t y = 0;
    if (x <= -p.range_radius) {
      y = -128;
    } else if (x >= p.range_radius) {
      y = 127;
    } else {
      const int32_t in_q4 = kernels::requantize(x, kernels::Requant{p.multiplier, p.left_shift});
      y = std::clamp(kernels::rounding_divide_by_pow2(fixed_point::tanh(in_q4, 4), 31 - 7), -128, 127);
    }
    table[static_cast<uint8_t>(q)] = static_cast<int8_t>(y);
  }
  return table;
}

}  // namespace etns::tools::tflm
