#include <algorithm>

#include "kernels/cortex_m_ns/sub/sub.h"

namespace etns::cortex_m_ns {

using kernels::requantize;

namespace {

// Reachable only with input factors >= 4 (shift >= 3), which no exporter emits.
int32_t saturate_s32(int64_t v) {
  return static_cast<int32_t>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX));
}

}  // namespace

// quantized_sub's numerics (docs/numerics.md#sub): ns-cmsis-nn's
// arm_elementwise_sub_s8 as operators.md §3.3 states it; variants match it bit for bit.
void sub_s8_ref(const SubParams& p, const int8_t* self, const int8_t* other, int8_t* out,
                size_t n) {
  constexpr int32_t kHeadroom = int32_t{1} << kSubLeftShift;
  for (size_t i = 0; i < n; ++i) {
    // Multiply, do not shift: left-shifting a negative value is undefined in C++17.
    const int32_t a = requantize((self[i] - p.self_zero_point) * kHeadroom, p.self);
    const int32_t b = requantize((other[i] - p.other_zero_point) * kHeadroom, p.other);
    const int32_t diff = saturate_s32(int64_t{a} - b);
    const int64_t y = int64_t{requantize(diff, p.out)} + p.out_zero_point;
    out[i] = static_cast<int8_t>(std::clamp<int64_t>(y, p.act_min, p.act_max));
  }
}

}  // namespace etns::cortex_m_ns
