#include <algorithm>

#include "kernels/cortex_m/maximum/maximum.h"

namespace etns::cortex_m {

void maximum_s8_ref(const MaximumParams& p, const int8_t* self, const int8_t* other, int8_t* out) {
  kernels::broadcast_walk_s8(p, self, other, out,
                             [](int8_t a, int8_t b) { return std::max(a, b); });
}

}  // namespace etns::cortex_m
