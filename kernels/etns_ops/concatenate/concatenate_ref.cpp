#include <cstdint>

#include "kernels/etns_ops/concatenate/concatenate.h"

namespace etns::etns_ops {

// concatenate's numerics (docs/numerics.md#concatenate): row k of out is
// row k of every input in turn; variants match it byte for byte.
void concatenate_ref(const ConcatenateParams& p, const uint8_t* const* inputs, uint8_t* out) {
  for (int32_t k = 0; k < p.outer; ++k) {
    for (int32_t i = 0; i < p.count; ++i) {
      const int32_t n = p.row_bytes[i];
      const uint8_t* row = inputs[i] + static_cast<size_t>(k) * static_cast<size_t>(n);
      for (int32_t b = 0; b < n; ++b) *out++ = row[b];
    }
  }
}

}  // namespace etns::etns_ops
