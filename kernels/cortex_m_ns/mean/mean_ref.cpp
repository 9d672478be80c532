#include <algorithm>

#include "kernels/cortex_m_ns/mean/mean.h"

namespace etns::cortex_m_ns {

using kernels::requantize;

// quantized_mean's numerics (docs/numerics.md#mean): ns-cmsis-nn's arm_mean_s8
// as operators.md §3.5 states it (all its internal paths form the same sum);
// variants match it bit for bit.
void mean_s8_ref(const MeanParams& p, const MeanGeometry& g, const int8_t* in, int8_t* out) {
  const size_t row = g.reduce * g.inner;        // one [reduce, inner] block
  const size_t block = g.middle * row;          // one [middle, reduce, inner] block
  for (size_t o = 0; o < g.outer; ++o) {
    for (size_t m = 0; m < g.middle; ++m) {
      for (size_t i = 0; i < g.inner; ++i) {
        int32_t acc = 0;
        for (size_t r = 0; r < g.reduce_outer; ++r) {
          const int8_t* column = in + (o * g.reduce_outer + r) * block + m * row + i;
          for (size_t s = 0; s < g.reduce; ++s) acc += column[s * g.inner] - p.in_zero_point;
        }
        const int64_t y = int64_t{requantize(acc, p.out)} + p.out_zero_point;
        *out++ = static_cast<int8_t>(std::clamp<int64_t>(y, -128, 127));
      }
    }
  }
}

}  // namespace etns::cortex_m_ns
