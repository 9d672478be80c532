#include "kernels/cortex_m/add/add.h"

namespace etns::cortex_m {

using kernels::clamp_s32;
using kernels::requantize;

namespace {

// int32 addition wrapping as VADD does, without signed overflow.
int32_t wrapping_add(int32_t x, int32_t y) {
  return static_cast<int32_t>(static_cast<uint32_t>(x) + static_cast<uint32_t>(y));
}

}  // namespace

// CMSIS-NN arm_elementwise_add_s8 (Helium path) with left shift 20.
void add_s8_ref(const AddParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n) {
  constexpr int32_t kHeadroom = int32_t{1} << kAddLeftShift;
  for (size_t i = 0; i < n; ++i) {
    const size_t j = p.b_channels == 0 ? i : i % p.b_channels;
    // |q - zero_point| <= 255: the product stays below 2^28. Multiplied, not
    // shifted: left-shifting a negative value is undefined in C++17.
    const int32_t a_scaled = requantize((a[i] - p.a_zero_point) * kHeadroom, p.a);
    const int32_t b_scaled = requantize((b[j] - p.b_zero_point) * kHeadroom, p.b);
    const int32_t sum = requantize(wrapping_add(a_scaled, b_scaled), p.out);
    out[i] = static_cast<int8_t>(
        clamp_s32(wrapping_add(sum, p.out_zero_point), p.activation_min, p.activation_max));
  }
}

}  // namespace etns::cortex_m
