#include "kernels/cortex_m/avg_pool2d/avg_pool2d.h"

namespace etns::cortex_m {

// CMSIS-NN arm_avgpool_s8, one channel at a time.
void avg_pool2d_s8_ref(const AvgPool2dParams& p, const int8_t* input, int8_t* out) {
  const size_t c = static_cast<size_t>(p.channels);
  const size_t row = static_cast<size_t>(p.input_w) * c;
  kernels::for_each_pool_window(
      p, input, out, [&](const kernels::PoolWindow& w, const int8_t* first, int8_t* pixel) {
        const int32_t taps = w.taps();
        const int32_t half = taps / 2;
        for (size_t ch = 0; ch < c; ++ch) {
          // prepare bounds the taps by 2^23: |sum| + taps / 2 < 2^31.
          int32_t sum = 0;
          for (int32_t y = 0; y < w.y1 - w.y0; ++y) {
            const int8_t* tap = first + static_cast<size_t>(y) * row + ch;
            for (int32_t x = 0; x < w.x1 - w.x0; ++x, tap += c) sum += *tap;
          }
          pixel[ch] = static_cast<int8_t>((sum > 0 ? sum + half : sum - half) / taps);
        }
      });
}

}  // namespace etns::cortex_m
