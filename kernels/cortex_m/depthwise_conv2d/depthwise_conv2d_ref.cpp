#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d.h"

#include "kernels/common/requantize.h"

namespace etns::cortex_m {

using kernels::clamp_s32;
using kernels::Requant;
using kernels::requantize;

// CMSIS-NN arm_depthwise_conv_s8 (every arm_depthwise_conv_wrapper_s8
// variant computes the same sum), one batch after another.
void depthwise_conv2d_s8_ref(const DepthwiseConv2dParams& p, const int8_t* input,
                             const int8_t* weight, const int32_t* bias, int8_t* out,
                             uint8_t* /*scratch*/) {
  for (int32_t n = 0; n < p.batches; ++n) {
    for (int32_t oy = 0; oy < p.output_h; ++oy) {
      for (int32_t ox = 0; ox < p.output_w; ++ox) {
        for (int32_t oc = 0; oc < p.output_c; ++oc) {
          const int32_t ic = oc / p.depth_multiplier;
          // int64 so that a sum beyond int32 wraps below (as upstream's int32
          // accumulator does) instead of overflowing.
          int64_t acc = bias != nullptr ? bias[oc] : 0;
          for (int32_t ky = 0; ky < p.filter_h; ++ky) {
            const int32_t iy = oy * p.stride_h - p.pad_h + ky * p.dilation_h;
            if (iy < 0 || iy >= p.input_h) continue;
            for (int32_t kx = 0; kx < p.filter_w; ++kx) {
              const int32_t ix = ox * p.stride_w - p.pad_w + kx * p.dilation_w;
              if (ix < 0 || ix >= p.input_w) continue;
              const int8_t x =
                  input[((static_cast<size_t>(n) * p.input_h + iy) * p.input_w + ix) * p.input_c +
                        ic];
              const int8_t w =
                  weight[(static_cast<size_t>(ky) * p.filter_w + kx) * p.output_c + oc];
              acc += (x + p.input_offset) * w;
            }
          }
          const int32_t sum = static_cast<int32_t>(static_cast<uint32_t>(acc));
          const Requant rq{p.multipliers[oc], p.shifts[oc]};
          const int32_t value = static_cast<int32_t>(static_cast<uint32_t>(requantize(sum, rq)) +
                                                     static_cast<uint32_t>(p.output_offset));
          const size_t out_index =
              ((static_cast<size_t>(n) * p.output_h + oy) * p.output_w + ox) * p.output_c + oc;
          out[out_index] =
              static_cast<int8_t>(clamp_s32(value, p.activation_min, p.activation_max));
        }
      }
    }
  }
}

}  // namespace etns::cortex_m
