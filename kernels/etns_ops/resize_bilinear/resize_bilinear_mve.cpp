#include "kernels/etns_ops/resize_bilinear/resize_bilinear.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

namespace etns::etns_ops {
namespace {

// One output pixel's n channels from its four corner pixels, four int32
// lanes a pass as a tail-predicated low-overhead loop (wlstp/letp; GCC 12
// does not form these loops from intrinsics, and its intrinsic loop spilled
// the weights). The blends are VMUL/VMLA by the scalar weights (exact:
// prepare bounds the fractions). The rounding is the reference's
// sign(s) * ((|s| + 2^19) >> 20) as floor((s + (s >> 31) + 2^19) / 2^20):
// for s >= 0 the same; for s < 0, -floor((2^19 - s) / 2^20) =
// ceil((s - 2^19) / 2^20) = floor((s + 2^19 - 1) / 2^20). VSHR #31 gives
// s >> 31, VRSHR #20 adds 2^19 and floors; VSTRB.32 keeps the low bytes.
// The widening loads and narrowing stores take low registers only, so the
// pointers are "l" and four of the scalars "h" (GCC finds no allocation when
// they are left "r"), and the loop stays out of line.
__attribute__((noinline)) void blend_pixel(const int8_t* a, const int8_t* b, const int8_t* d, const int8_t* e, int8_t* out, size_t n,
                 int32_t wx0, int32_t wx1, int32_t wy0, int32_t wy1) {
  asm volatile(
      "   wlstp.32  lr, %[n], 2f\n"
      "1: vldrb.s32 q0, [%[a]], #4\n"
      "   vldrb.s32 q1, [%[b]], #4\n"
      "   vmul.i32  q0, q0, %[wx0]\n"
      "   vldrb.s32 q2, [%[d]], #4\n"
      "   vmla.s32  q0, q1, %[wx1]\n"
      "   vldrb.s32 q3, [%[e]], #4\n"
      "   vmul.i32  q2, q2, %[wx0]\n"
      "   vmla.s32  q2, q3, %[wx1]\n"
      "   vmul.i32  q0, q0, %[wy0]\n"
      "   vmla.s32  q0, q2, %[wy1]\n"
      "   vshr.s32  q1, q0, #31\n"
      "   vadd.i32  q0, q0, q1\n"
      "   vrshr.s32 q0, q0, #20\n"
      "   vstrb.32  q0, [%[out]], #4\n"
      "   letp      lr, 1b\n"
      "2:\n"
      : [a] "+l"(a), [b] "+l"(b), [d] "+l"(d), [e] "+l"(e), [out] "+l"(out)
      : [n] "h"(n), [wx0] "h"(wx0), [wx1] "h"(wx1), [wy0] "h"(wy0), [wy1] "r"(wy1)
      : "q0", "q1", "q2", "q3", "lr", "memory");
}

}  // namespace

// The same values as resize_bilinear_s8_ref, one blend_pixel per output
// pixel.
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
      for (int32_t x = 0; x < p.out_w; ++x) {
        const size_t x0 = static_cast<size_t>(cols[3 * x]) * c;
        const size_t x1 = static_cast<size_t>(cols[3 * x + 1]) * c;
        const int32_t wx1 = cols[3 * x + 2];
        blend_pixel(line0 + x0, line0 + x1, line1 + x0, line1 + x1, out, c, 1024 - wx1, wx1, 1024 - wy1, wy1);
        out += c;
      }
    }
  }
}

}  // namespace etns::etns_ops
#endif  // ETNS_HAVE_MVE
