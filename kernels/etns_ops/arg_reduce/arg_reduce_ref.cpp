#include <cstddef>
#include <cstdint>

#include "kernels/etns_ops/arg_reduce/arg_reduce.h"

namespace etns::etns_ops {

// arg_reduce's numerics (docs/numerics.md#arg_reduce): TFLite's
// reference_ops::ArgMinMax, which TFLite Micro's arg_min_max.cc calls. Each
// output starts at index 0 and moves to a later index only on a strictly
// better value, so ties keep the first. Variants match it value for value.
void arg_reduce_ref(const ArgReduceParams& p, const int8_t* self, int32_t* out) {
  const size_t axis = static_cast<size_t>(p.axis_size);
  const size_t inner = static_cast<size_t>(p.inner);
  for (size_t o = 0; o < static_cast<size_t>(p.outer); ++o) {
    const int8_t* block = self + o * axis * inner;
    for (size_t i = 0; i < inner; ++i) {
      int8_t best = block[i];
      int32_t at = 0;
      for (size_t a = 1; a < axis; ++a) {
        const int8_t v = block[a * inner + i];
        if (p.is_min != 0 ? v < best : v > best) {
          best = v;
          at = static_cast<int32_t>(a);
        }
      }
      out[o * inner + i] = at;
    }
  }
}

}  // namespace etns::etns_ops
