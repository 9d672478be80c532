#include "kernels/etns_ops/gather/gather.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

#include "kernels/common/copy_mve.h"

namespace etns::etns_ops {

// The same bytes as gather_ref: each selected run is one Helium copy loop;
// runs of a single byte (int8 gathered on the innermost dim) are plain
// byte moves, a loop setup per byte would cost more than the byte.
void gather_mve(const GatherParams& p, const int32_t* indices, const uint8_t* self, uint8_t* out) {
  const size_t inner = static_cast<size_t>(p.inner_bytes);
  const size_t axis = static_cast<size_t>(p.axis_size);
  for (int32_t b = 0; b < p.batches; ++b) {
    const int32_t* row = indices + static_cast<size_t>(b) * static_cast<size_t>(p.coords);
    for (int32_t o = 0; o < p.outer; ++o) {
      const uint8_t* block =
          self + (static_cast<size_t>(b) * static_cast<size_t>(p.outer) + static_cast<size_t>(o)) * axis * inner;
      if (inner == 1) {
        for (int32_t j = 0; j < p.coords; ++j) *out++ = block[row[j]];
        continue;
      }
      for (int32_t j = 0; j < p.coords; ++j) {
        kernels::copy_bytes_mve(block + static_cast<size_t>(row[j]) * inner, out, inner);
        out += inner;
      }
    }
  }
}

}  // namespace etns::etns_ops
#endif  // ETNS_HAVE_MVE
