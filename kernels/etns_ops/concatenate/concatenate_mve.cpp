#include "kernels/etns_ops/concatenate/concatenate.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

#include "kernels/common/copy_mve.h"

namespace etns::etns_ops {

// The same bytes as concatenate_ref: each input keeps a read pointer that
// advances one row per outer step.
void concatenate_mve(const ConcatenateParams& p, const uint8_t* const* inputs, uint8_t* out) {
  const uint8_t* at[kConcatenateMaxInputs];
  for (int32_t i = 0; i < p.count; ++i) at[i] = inputs[i];
  for (int32_t k = 0; k < p.outer; ++k) {
    for (int32_t i = 0; i < p.count; ++i) {
      const auto n = static_cast<size_t>(p.row_bytes[i]);
      kernels::copy_bytes_mve(at[i], out, n);
      at[i] += n;
      out += n;
    }
  }
}

}  // namespace etns::etns_ops
#endif  // ETNS_HAVE_MVE
