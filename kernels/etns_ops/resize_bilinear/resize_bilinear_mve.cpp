#include "kernels/etns_ops/resize_bilinear/resize_bilinear.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

namespace etns::etns_ops {

// The same values as resize_bilinear_s8_ref: each pixel's channels four at a
// time, the corners widened to int32 lanes (VLDRB.S32), the two blends as
// VMUL/VMLA by the scalar weights (exact: prepare bounds the fractions), the
// rounding on the magnitude (VABS, add 2^19, shift by 20, negate the lanes
// that were negative) and VSTRB.32 keeping each lane's low byte. The last
// pass of a pixel is predicated to its remaining channels.
void resize_bilinear_s8_mve(const ResizeBilinearParams& p, const int32_t* rows, const int32_t* cols,
                            const int8_t* self, int8_t* out) {
  const size_t c = static_cast<size_t>(p.channels);
  const size_t row_bytes = static_cast<size_t>(p.in_w) * c;
  const size_t image_bytes = static_cast<size_t>(p.in_h) * row_bytes;
  for (int32_t n = 0; n < p.batches; ++n) {
    const int8_t* image = self + static_cast<size_t>(n) * image_bytes;
    for (int32_t y = 0; y < p.out_h; ++y) {
      const int8_t* line0 = image + static_cast<size_t>(rows[3 * y]) * row_bytes;
      const int8_t* line1 = image + static_cast<size_t>(rows[3 * y + 1]) * row_bytes;
      const int32_t wy1 = rows[3 * y + 2];
      const int32_t wy0 = 1024 - wy1;
      for (int32_t x = 0; x < p.out_w; ++x) {
        const int8_t* a = line0 + static_cast<size_t>(cols[3 * x]) * c;
        const int8_t* b = line0 + static_cast<size_t>(cols[3 * x + 1]) * c;
        const int8_t* d = line1 + static_cast<size_t>(cols[3 * x]) * c;
        const int8_t* e = line1 + static_cast<size_t>(cols[3 * x + 1]) * c;
        const int32_t wx1 = cols[3 * x + 2];
        const int32_t wx0 = 1024 - wx1;
        for (size_t k = 0; k < c; k += 4) {
          const mve_pred16_t lanes = vctp32q(static_cast<uint32_t>(c - k));
          int32x4_t top = vmulq_n_s32(vldrbq_z_s32(a + k, lanes), wx0);
          top = vmlaq_n_s32(top, vldrbq_z_s32(b + k, lanes), wx1);
          int32x4_t bottom = vmulq_n_s32(vldrbq_z_s32(d + k, lanes), wx0);
          bottom = vmlaq_n_s32(bottom, vldrbq_z_s32(e + k, lanes), wx1);
          int32x4_t s = vmulq_n_s32(top, wy0);
          s = vmlaq_n_s32(s, bottom, wy1);
          int32x4_t magnitude = vshrq_n_s32(vaddq_n_s32(vabsq_s32(s), 1 << 19), 20);
          magnitude = vnegq_m_s32(magnitude, magnitude, vcmpltq_n_s32(s, 0));
          vstrbq_p_s32(out + k, magnitude, lanes);
        }
        out += c;
      }
    }
  }
}

}  // namespace etns::etns_ops
#endif  // ETNS_HAVE_MVE
