#include "kernels/cortex_m/minimum/minimum.h"

#include <algorithm>

namespace etns::cortex_m {

// CMSIS-NN arm_minimum_s8, for the shapes prepare accepts.
void minimum_s8_ref(const MinimumParams& p, const int8_t* self, const int8_t* other, int8_t* out,
                    size_t n) {
  for (size_t i = 0; i < n; ++i) {
    out[i] = std::min(self[i * p.self_stride], other[i * p.other_stride]);
  }
}

}  // namespace etns::cortex_m
