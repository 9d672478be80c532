#include "kernels/cortex_m/mul/mul.h"

namespace etns::cortex_m {

using kernels::clamp_s32;
using kernels::requantize;

// CMSIS-NN arm_elementwise_mul_s8 (its C and Helium paths agree).
void mul_s8_ref(const MulParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const size_t j = p.b_channels == 0 ? i : i % p.b_channels;
    // At most 255 * 255 in magnitude: no overflow.
    const int32_t product = (a[i] - p.a_zero_point) * (b[j] - p.b_zero_point);
    // Upstream adds the offset in int32, which wraps for extreme shifts; adding
    // as uint32 wraps the same way without signed overflow.
    const int32_t sum = static_cast<int32_t>(static_cast<uint32_t>(requantize(product, p.out)) +
                                             static_cast<uint32_t>(p.out_zero_point));
    out[i] = static_cast<int8_t>(clamp_s32(sum, INT8_MIN, INT8_MAX));
  }
}

}  // namespace etns::cortex_m
