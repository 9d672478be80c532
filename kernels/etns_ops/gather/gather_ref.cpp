#include <cstddef>
#include <cstdint>

#include "kernels/etns_ops/gather/gather.h"

namespace etns::etns_ops {

// gather's numerics (docs/numerics.md#gather): TFLite Micro's gather.cc
// loops over batch, outer and coordinate and copies one inner run from the
// indexed row of the axis; the same bytes in the same order, one at a time.
// Variants match it byte for byte.
void gather_ref(const GatherParams& p, const int32_t* indices, const uint8_t* self, uint8_t* out) {
  const size_t inner = static_cast<size_t>(p.inner_bytes);
  const size_t axis = static_cast<size_t>(p.axis_size);
  for (int32_t b = 0; b < p.batches; ++b) {
    const int32_t* row = indices + static_cast<size_t>(b) * static_cast<size_t>(p.coords);
    for (int32_t o = 0; o < p.outer; ++o) {
      const size_t block = (static_cast<size_t>(b) * static_cast<size_t>(p.outer) + static_cast<size_t>(o)) * axis;
      for (int32_t j = 0; j < p.coords; ++j) {
        const uint8_t* from = self + (block + static_cast<size_t>(row[j])) * inner;
        for (size_t k = 0; k < inner; ++k) *out++ = from[k];
      }
    }
  }
}

}  // namespace etns::etns_ops
