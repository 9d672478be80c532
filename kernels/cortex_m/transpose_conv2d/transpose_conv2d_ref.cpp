#include "kernels/cortex_m/transpose_conv2d/transpose_conv2d.h"

#include "kernels/common/requantize.h"

namespace etns::cortex_m {

using kernels::clamp_s32;
using kernels::Requant;
using kernels::requantize;

// CMSIS-NN arm_transpose_conv_wrapper_s8's sum, gathered per output pixel
// instead of scattered into an int32 image: output position y (after the
// padding crop, so y + pad_h in the uncropped image) receives input row iy
// through filter row ky exactly when iy * stride_h + ky = y + pad_h. The sum
// is mod 2^32, so the order CMSIS-NN adds in does not matter.
void transpose_conv2d_s8_ref(const TransposeConv2dParams& p, const int8_t* input,
                             const int8_t* weight, const int32_t* bias, int8_t* out,
                             uint8_t* /*scratch*/) {
  for (int32_t n = 0; n < p.batches; ++n) {
    for (int32_t oy = 0; oy < p.output_h; ++oy) {
      const int64_t ty = int64_t{oy} + p.pad_h;
      for (int32_t ox = 0; ox < p.output_w; ++ox) {
        const int64_t tx = int64_t{ox} + p.pad_w;
        for (int32_t oc = 0; oc < p.output_c; ++oc) {
          // int64 so that a sum beyond int32 wraps below (as upstream's int32
          // accumulator does) instead of overflowing.
          int64_t acc = bias != nullptr ? bias[oc] : 0;
          for (int32_t ky = 0; ky < p.filter_h; ++ky) {
            const int64_t sy = ty - ky;
            if (sy < 0 || sy % p.stride_h != 0 || sy / p.stride_h >= p.input_h) continue;
            const int64_t iy = sy / p.stride_h;
            for (int32_t kx = 0; kx < p.filter_w; ++kx) {
              const int64_t sx = tx - kx;
              if (sx < 0 || sx % p.stride_w != 0 || sx / p.stride_w >= p.input_w) continue;
              const int64_t ix = sx / p.stride_w;
              const int8_t* in_tap =
                  input +
                  ((static_cast<size_t>(n) * p.input_h + static_cast<size_t>(iy)) * p.input_w +
                   static_cast<size_t>(ix)) *
                      p.input_c;
              const int8_t* w_tap =
                  weight +
                  ((static_cast<size_t>(oc) * p.filter_h + ky) * p.filter_w + kx) * p.input_c;
              for (int32_t ic = 0; ic < p.input_c; ++ic) {
                acc += (in_tap[ic] + p.input_offset) * w_tap[ic];
              }
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
