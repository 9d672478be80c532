#include <cstddef>
#include <cstdint>

#include "kernels/etns_ops/resize_bilinear/resize_bilinear.h"

namespace etns::etns_ops {

// resize_bilinear's numerics (docs/numerics.md#resize_bilinear), from TFLite's
// reference_ops::ResizeBilinearInteger: the four weighted corners summed with
// 20 fractional bits (the horizontal blend first: the same exact sum), then
// divided by 2^20 rounding ties away from zero (TFLM's build, without
// TFLITE_SINGLE_ROUNDING). Variants match it byte for byte.
void resize_bilinear_s8_ref(const ResizeBilinearParams& p, const int32_t* rows, const int32_t* cols,
                            const int8_t* self, int8_t* out) {
  const size_t c = static_cast<size_t>(p.channels);
  const size_t row_bytes = static_cast<size_t>(p.in_w) * c;
  const size_t image_bytes = static_cast<size_t>(p.in_h) * row_bytes;
  for (int32_t n = 0; n < p.batches; ++n) {
    const int8_t* image = self + static_cast<size_t>(n) * image_bytes;
    for (int32_t y = 0; y < p.out_h; ++y) {
      const int8_t* line0 = image + static_cast<size_t>(rows[3 * y]) * row_bytes;
      const int8_t* line1 = image + static_cast<size_t>(rows[3 * y + 1]) * row_bytes;
      const int32_t fy = rows[3 * y + 2];
      for (int32_t x = 0; x < p.out_w; ++x) {
        const size_t x0 = static_cast<size_t>(cols[3 * x]) * c;
        const size_t x1 = static_cast<size_t>(cols[3 * x + 1]) * c;
        const int32_t fx = cols[3 * x + 2];
        for (size_t k = 0; k < c; ++k) {
          const int32_t top = line0[x0 + k] * (1024 - fx) + line0[x1 + k] * fx;
          const int32_t bottom = line1[x0 + k] * (1024 - fx) + line1[x1 + k] * fx;
          const int32_t s = top * (1024 - fy) + bottom * fy;
          const int32_t magnitude = ((s < 0 ? -s : s) + (1 << 19)) >> 20;
          *out++ = static_cast<int8_t>(s < 0 ? -magnitude : magnitude);
        }
      }
    }
  }
}

}  // namespace etns::etns_ops
