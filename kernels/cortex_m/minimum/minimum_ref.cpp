#include <algorithm>

#include "kernels/cortex_m/minimum/minimum.h"

namespace etns::cortex_m {

// CMSIS-NN arm_minimum_s8 for every case prepare accepts: out in row-major
// order over p.dims, each operand read through its strides (0 = broadcast).
void minimum_s8_ref(const MinimumParams& p, const int8_t* self, const int8_t* other, int8_t* out) {
  kernels::broadcast_walk_s8(p, self, other, out,
                             [](int8_t a, int8_t b) { return std::min(a, b); });
}

}  // namespace etns::cortex_m
