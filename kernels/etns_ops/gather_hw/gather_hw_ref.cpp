#include <cstddef>
#include <cstdint>

#include "kernels/etns_ops/gather_hw/gather_hw.h"

namespace etns::etns_ops {

// gather_hw's numerics (docs/numerics.md#gather_hw): out's bytes in NHWC
// order, each the self byte at the same batch and channel, at row rows[y]
// and column cols[x] (TFLite's reference_ops::ResizeNearestNeighbor copies
// the same bytes, one pixel's depth at a time); variants match it byte for
// byte.
void gather_hw_s8_ref(const GatherHwParams& p, const int32_t* rows, const int32_t* cols, const int8_t* self,
                      int8_t* out) {
  const size_t c = static_cast<size_t>(p.channels);
  const size_t in_w = static_cast<size_t>(p.in_w);
  const size_t in_h = static_cast<size_t>(p.in_h);
  for (int32_t n = 0; n < p.batches; ++n) {
    for (int32_t y = 0; y < p.out_h; ++y) {
      for (int32_t x = 0; x < p.out_w; ++x) {
        const size_t pixel = (static_cast<size_t>(n) * in_h + static_cast<size_t>(rows[y])) * in_w +
                             static_cast<size_t>(cols[x]);
        for (size_t k = 0; k < c; ++k) *out++ = self[pixel * c + k];
      }
    }
  }
}

}  // namespace etns::etns_ops
