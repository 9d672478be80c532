#include "kernels/cortex_m/quantize/quantize.h"

#include <algorithm>
#include <cmath>

namespace etns::cortex_m {
namespace {

// ExecuTorch backends/cortex_m/ops/op_quantize_per_tensor.cpp, scalar path,
// made saturating and free of undefined behaviour.
int32_t quantize_value(const QuantizeParams& p, float x) {
  const float product = p.inv_scale * x;
  // Converting NaN to an integer is undefined; prepare keeps zero_point in range.
  if (std::isnan(product)) return p.zero_point;
  // The sum is formed and clamped in double, where it is exact for every
  // in-range result, so the final conversion cannot overflow.
  const double q = static_cast<double>(p.zero_point) + static_cast<double>(std::nearbyint(product));
  return static_cast<int32_t>(
      std::clamp(q, static_cast<double>(p.quant_min), static_cast<double>(p.quant_max)));
}

}  // namespace

void quantize_f32_s8_ref(const QuantizeParams& p, const float* in, int8_t* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<int8_t>(quantize_value(p, in[i]));
}

void quantize_f32_s16_ref(const QuantizeParams& p, const float* in, int16_t* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<int16_t>(quantize_value(p, in[i]));
}

}  // namespace etns::cortex_m
