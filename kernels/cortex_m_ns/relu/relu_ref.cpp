#include <algorithm>

#include "kernels/cortex_m_ns/relu/relu.h"

namespace etns::cortex_m_ns {

using kernels::requantize;

// quantized_relu's numerics (docs/numerics.md#relu): ns-cmsis-nn's arm_clamp_s8
// and arm_relu_generic_s8 as operators.md §3.4 states them; variants match it bit for bit.
void relu_s8_ref(const ReluParams& p, const int8_t* in, int8_t* out, size_t n) {
  if (p.identity) {
    for (size_t i = 0; i < n; ++i) {
      out[i] = static_cast<int8_t>(std::clamp<int32_t>(in[i], p.act_min, p.act_max));
    }
    return;
  }
  for (size_t i = 0; i < n; ++i) {
    const int64_t y = int64_t{requantize(in[i] - p.in_zero_point, p.out)} + p.out_zero_point;
    out[i] = static_cast<int8_t>(std::clamp<int64_t>(y, p.act_min, p.act_max));
  }
}

}  // namespace etns::cortex_m_ns
