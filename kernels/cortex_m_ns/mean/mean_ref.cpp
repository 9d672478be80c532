#include <algorithm>

#include "kernels/cortex_m_ns/mean/mean.h"

namespace etns::cortex_m_ns {

using kernels::requantize;

// quantized_mean's numerics (docs/numerics.md#mean): ns-cmsis-nn's arm_mean_s8
// as operators.md §3.5 states it (all its internal paths form the same sum);
// variants match it bit for bit.
void mean_s8_ref(const MeanParams& p, const int8_t* in, int8_t* out, size_t outer, size_t reduce,
                 size_t inner) {
  for (size_t o = 0; o < outer; ++o) {
    for (size_t i = 0; i < inner; ++i) {
      const int8_t* column = in + o * reduce * inner + i;
      int32_t acc = 0;
      for (size_t r = 0; r < reduce; ++r) acc += column[r * inner] - p.in_zero_point;
      const int64_t y = int64_t{requantize(acc, p.out)} + p.out_zero_point;
      out[o * inner + i] = static_cast<int8_t>(std::clamp<int64_t>(y, -128, 127));
    }
  }
}

}  // namespace etns::cortex_m_ns
