#include <algorithm>

#include "kernels/cortex_m_ns/hardswish/hardswish.h"

namespace etns::cortex_m_ns {

using kernels::clamp_s32;
using kernels::requantize;

// quantized_hardswish's numerics (docs/numerics.md#hardswish): ns-cmsis-nn's
// arm_hard_swish_precise_s8 as operators.md §3.1 states it; variants match it bit for bit.
void hardswish_s8_ref(const HardswishParams& p, const int8_t* in, int8_t* out, size_t n) {
  const int32_t round_half = p.prescale > 0 ? int32_t{1} << (p.prescale - 1) : 0;
  for (size_t i = 0; i < n; ++i) {
    const int32_t x = in[i] - p.in_zero_point;
    int32_t t = clamp_s32(x + p.relu_q3, 0, p.relu_q6);
    // t >= 0 and t + 2^30 < 2^31, so the shift is well defined.
    t = (t + round_half) >> p.prescale;
    const int64_t y = int64_t{requantize(x * t, p.out)} + p.out_zero_point;
    out[i] = static_cast<int8_t>(std::clamp<int64_t>(y, -128, 127));
  }
}

}  // namespace etns::cortex_m_ns
