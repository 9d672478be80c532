#include "kernels/cortex_m/dequantize/dequantize.h"

namespace etns::cortex_m {

// ExecuTorch backends/cortex_m/ops/op_dequantize_per_tensor.cpp (its Helium
// path is bit-identical).
void dequantize_s8_f32_ref(const DequantizeParams& p, const int8_t* in, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    out[i] = static_cast<float>(int32_t{in[i]} - p.zero_point) * p.scale;
  }
}

void dequantize_s16_f32_ref(const DequantizeParams& p, const int16_t* in, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    out[i] = static_cast<float>(int32_t{in[i]} - p.zero_point) * p.scale;
  }
}

}  // namespace etns::cortex_m
