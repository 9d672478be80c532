#include "kernels/cortex_m/pad/pad.h"

namespace etns::cortex_m {
namespace {

bool inside(int32_t i, int32_t pre, int32_t size) { return i >= pre && i < pre + size; }

}  // namespace

// CMSIS-NN arm_pad_s8: out in physical (n, h, w, c) order; an element inside
// the input block copies it, every other one is pad_value.
void pad_s8_ref(const PadParams& p, const int8_t* input, int8_t* out) {
  int32_t out_dims[4];
  for (int k = 0; k < 4; ++k) out_dims[k] = p.pre[k] + p.input_dims[k] + p.post[k];
  const auto value = static_cast<int8_t>(p.pad_value);
  for (int32_t n = 0; n < out_dims[0]; ++n) {
    for (int32_t h = 0; h < out_dims[1]; ++h) {
      for (int32_t w = 0; w < out_dims[2]; ++w) {
        for (int32_t c = 0; c < out_dims[3]; ++c) {
          const bool in = inside(n, p.pre[0], p.input_dims[0]) &&
                          inside(h, p.pre[1], p.input_dims[1]) &&
                          inside(w, p.pre[2], p.input_dims[2]) &&
                          inside(c, p.pre[3], p.input_dims[3]);
          *out++ = in ? *input++ : value;
        }
      }
    }
  }
}

}  // namespace etns::cortex_m
