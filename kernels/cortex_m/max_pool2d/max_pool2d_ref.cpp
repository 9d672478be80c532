#include "kernels/cortex_m/max_pool2d/max_pool2d.h"

namespace etns::cortex_m {

// CMSIS-NN arm_max_pool_s8, one channel at a time.
void max_pool2d_s8_ref(const MaxPool2dParams& p, const int8_t* input, int8_t* out) {
  const size_t c = static_cast<size_t>(p.shape.channels);
  const size_t row = static_cast<size_t>(p.shape.input_w) * c;
  kernels::for_each_pool_window(
      p.shape, input, out, [&](const kernels::PoolWindow& w, const int8_t* first, int8_t* pixel) {
        for (size_t ch = 0; ch < c; ++ch) {
          int32_t largest = INT8_MIN;
          for (int32_t y = 0; y < w.y1 - w.y0; ++y) {
            const int8_t* tap = first + static_cast<size_t>(y) * row + ch;
            for (int32_t x = 0; x < w.x1 - w.x0; ++x, tap += c) {
              if (*tap > largest) largest = *tap;
            }
          }
          if (largest < p.activation_min) largest = p.activation_min;
          if (largest > p.activation_max) largest = p.activation_max;
          pixel[ch] = static_cast<int8_t>(largest);
        }
      });
}

}  // namespace etns::cortex_m
