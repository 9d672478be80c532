#include <cstdint>

#include "kernels/etns_ops/slice_copy/slice_copy.h"

namespace etns::etns_ops {

// slice_copy's numerics (docs/numerics.md#slice_copy): out's elements in
// order, each p.element_size bytes read from self at the walk's offset;
// variants match it byte for byte.
void slice_copy_ref(const SliceCopyParams& p, const uint8_t* self, uint8_t* out) {
  const size_t size = static_cast<size_t>(p.element_size);
  for (int32_t i0 = 0; i0 < p.count[0]; ++i0) {
    for (int32_t i1 = 0; i1 < p.count[1]; ++i1) {
      for (int32_t i2 = 0; i2 < p.count[2]; ++i2) {
        for (int32_t i3 = 0; i3 < p.count[3]; ++i3) {
          for (int32_t i4 = 0; i4 < p.count[4]; ++i4) {
            const int64_t at = int64_t{p.offset} + int64_t{i0} * p.stride[0] + int64_t{i1} * p.stride[1] +
                               int64_t{i2} * p.stride[2] + int64_t{i3} * p.stride[3] + int64_t{i4} * p.stride[4];
            const uint8_t* from = self + at;
            for (size_t b = 0; b < size; ++b) *out++ = from[b];
          }
        }
      }
    }
  }
}

}  // namespace etns::etns_ops
