#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/result.h"
#include "runtime/core/target_layout.h"
#include "runtime/exec/kernel.h"

namespace etns::kernels {

// The geometry of a 2-D pooling (cortex_m::quantized_avg_pool2d.out and
// quantized_max_pool2d.out): input [batches, input_h, input_w, channels] and
// out [batches, output_h, output_w, channels] in NHWC memory; out pixel (y, x)
// pools the input taps of the window whose top-left corner is
// (y * stride_h - pad_h, x * stride_w - pad_w), clipped to the input (taps
// outside are not counted). out's spatial sizes are trusted, so an extra row
// or column of uneven "SAME" padding lies on the far side.
struct Pool2dShape {
  int32_t batches = 0;
  int32_t input_h = 0, input_w = 0, channels = 0;
  int32_t output_h = 0, output_w = 0;
  int32_t kernel_h = 1, kernel_w = 1;
  int32_t stride_h = 1, stride_w = 1;
  int32_t pad_h = 0, pad_w = 0;
};
ETNS_TARGET_LAYOUT(Pool2dShape,
                   runtime::StructLayout().member(runtime::fixed<int32_t>(), 12).done());

// One out pixel's window clipped to the input: rows [y0, y1), columns [x0, x1).
struct PoolWindow {
  int32_t y0, y1, x0, x1;
  int32_t taps() const { return (y1 - y0) * (x1 - x0); }
};

inline PoolWindow pool_window(const Pool2dShape& s, int32_t out_y, int32_t out_x) {
  const int32_t top = out_y * s.stride_h - s.pad_h;
  const int32_t left = out_x * s.stride_w - s.pad_w;
  PoolWindow w;
  w.y0 = top > 0 ? top : 0;
  w.y1 = top + s.kernel_h < s.input_h ? top + s.kernel_h : s.input_h;
  w.x0 = left > 0 ? left : 0;
  w.x1 = left + s.kernel_w < s.input_w ? left + s.kernel_w : s.input_w;
  return w;
}

// Calls visit(window, first, out) for every out pixel, batch by batch, where
// `first` is the input pixel at the window's clipped top-left corner and
// `out` the out pixel (channels values each). Within a window, rows are
// input_w * channels bytes apart and taps channels bytes apart.
template <typename Visit>
void for_each_pool_window(const Pool2dShape& s, const int8_t* input, int8_t* out, Visit visit) {
  const size_t c = static_cast<size_t>(s.channels);
  const size_t row = static_cast<size_t>(s.input_w) * c;
  for (int32_t b = 0; b < s.batches; ++b) {
    for (int32_t y = 0; y < s.output_h; ++y) {
      for (int32_t x = 0; x < s.output_w; ++x) {
        const PoolWindow w = pool_window(s, y, x);
        visit(w, input + static_cast<size_t>(w.y0) * row + static_cast<size_t>(w.x0) * c, out);
        out += c;
      }
    }
    input += static_cast<size_t>(s.input_h) * row;
  }
}

// Reads a pooling's input and out tensors and its kernel_size, stride and
// padding lists, by the operator's contract arguments. The contract has
// already checked input and out are int8 in NHWC memory (rank 4,
// channels_last) and every argument's kind. InvalidArgument for out's batch
// or channels not the input's, kernel_size or stride not two values >= 1,
// padding not two values >= 0, and, when out is not empty (an empty out is
// nothing to compute), an empty input, a window that holds no input tap
// (CMSIS-NN divides by its tap count or leaves out unwritten), or an index
// leaving int32.
struct Pool2dArgs {
  runtime::Arg input, kernel_size, stride, padding, out;
};
runtime::Result<Pool2dShape> read_pool2d_shape(const runtime::PrepareContext& ctx,
                                               const Pool2dArgs& args);

}  // namespace etns::kernels
