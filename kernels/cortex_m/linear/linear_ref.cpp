#include "kernels/cortex_m/linear/linear.h"

namespace etns::cortex_m {

using kernels::clamp_s32;
using kernels::requantize;

// CMSIS-NN arm_fully_connected_s8 -> arm_nn_vec_mat_mult_t_s8, its Helium path
// (docs/numerics.md#linear). Sums are uint32 so that they wrap as upstream's
// int32 accumulators do, without signed overflow.
void linear_s8_ref(const LinearParams& p, const int8_t* input, const int8_t* weight,
                   const int32_t* bias, const int32_t* kernel_sum, int8_t* out,
                   uint8_t* /*scratch*/) {
  const size_t in = static_cast<size_t>(p.in_features);
  const size_t rows = static_cast<size_t>(p.out_features);
  for (size_t b = 0; b < static_cast<size_t>(p.batches); ++b) {
    const int8_t* x = input + b * in;
    uint32_t input_sum = 0;
    for (size_t i = 0; i < in; ++i) input_sum += static_cast<uint32_t>(x[i]);
    for (size_t r = 0; r < rows; ++r) {
      const int8_t* w = weight + r * in;
      uint32_t ks = 0;
      if (kernel_sum != nullptr) {
        ks = static_cast<uint32_t>(kernel_sum[r]);
      } else {
        // What the exporter would have folded: bias + input_offset * sum(w + filter_offset).
        uint32_t filter_sum = 0;
        for (size_t i = 0; i < in; ++i) {
          filter_sum += static_cast<uint32_t>(w[i] + p.filter_offset);
        }
        ks = (bias != nullptr ? static_cast<uint32_t>(bias[r]) : 0u) +
             static_cast<uint32_t>(p.input_offset) * filter_sum;
      }
      uint32_t acc = ks + static_cast<uint32_t>(p.filter_offset) * input_sum;
      for (size_t i = 0; i < in; ++i) acc += static_cast<uint32_t>(x[i] * w[i]);
      const uint32_t value = static_cast<uint32_t>(requantize(static_cast<int32_t>(acc), p.out)) +
                             static_cast<uint32_t>(p.output_offset);
      out[b * rows + r] = static_cast<int8_t>(
          clamp_s32(static_cast<int32_t>(value), p.activation_min, p.activation_max));
    }
  }
}

}  // namespace etns::cortex_m
