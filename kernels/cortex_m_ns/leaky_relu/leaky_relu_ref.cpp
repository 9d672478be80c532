#include <algorithm>

#include "kernels/cortex_m_ns/leaky_relu/leaky_relu.h"

namespace etns::cortex_m_ns {

using kernels::requantize;

// quantized_leaky_relu's numerics (docs/numerics.md#leaky_relu): ns-cmsis-nn's
// arm_leaky_relu_s8 as operators.md §3.2 states it; variants match it bit for bit.
void leaky_relu_s8_ref(const LeakyReluParams& p, const int8_t* in, int8_t* out, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const int32_t x = in[i] - p.in_zero_point;
    const int64_t y = int64_t{requantize(x, x >= 0 ? p.identity : p.alpha)} + p.out_zero_point;
    out[i] = static_cast<int8_t>(std::clamp<int64_t>(y, -128, 127));
  }
}

}  // namespace etns::cortex_m_ns
