#include "kernels/cortex_m/max_pool2d/max_pool2d.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

namespace etns::cortex_m {

namespace {

// One out pixel's 16 (or, last, fewer) channels: VMAX over the taps from the
// activation minimum (which folds the lower clamp into the max), then VMIN
// with the maximum. kFull: all 16 lanes live, the loads unpredicated.
template <bool kFull>
void pool_block(const int8_t* first, size_t row_step, size_t tap_step, int32_t rows, int32_t cols,
                int8x16_t lowest, int8x16_t highest, uint32_t live, int8_t* out) {
  const mve_pred16_t pred = vctp8q(live);
  int8x16_t largest = lowest;
  for (int32_t y = 0; y < rows; ++y) {
    const int8_t* tap = first + static_cast<size_t>(y) * row_step;
    for (int32_t x = 0; x < cols; ++x, tap += tap_step) {
      if constexpr (kFull) {
        largest = vmaxq_s8(largest, vldrbq_s8(tap));
      } else {
        largest = vmaxq_s8(largest, vldrbq_z_s8(tap, pred));
      }
    }
  }
  vstrbq_p_s8(out, vminq_s8(largest, highest), pred);
}

}  // namespace

void max_pool2d_s8_mve(const MaxPool2dParams& p, const int8_t* input, int8_t* out) {
  const size_t c = static_cast<size_t>(p.shape.channels);
  const size_t row = static_cast<size_t>(p.shape.input_w) * c;
  const int8x16_t lowest = vdupq_n_s8(static_cast<int8_t>(p.activation_min));
  const int8x16_t highest = vdupq_n_s8(static_cast<int8_t>(p.activation_max));
  kernels::for_each_pool_window(
      p.shape, input, out, [&](const kernels::PoolWindow& w, const int8_t* first, int8_t* pixel) {
        const int32_t rows = w.y1 - w.y0;
        const int32_t cols = w.x1 - w.x0;
        size_t ch = 0;
        for (; ch + 16 <= c; ch += 16) {
          pool_block<true>(first + ch, row, c, rows, cols, lowest, highest, 16, pixel + ch);
        }
        if (ch < c) {
          pool_block<false>(first + ch, row, c, rows, cols, lowest, highest,
                            static_cast<uint32_t>(c - ch), pixel + ch);
        }
      });
}

}  // namespace etns::cortex_m

#endif  // ETNS_HAVE_MVE
