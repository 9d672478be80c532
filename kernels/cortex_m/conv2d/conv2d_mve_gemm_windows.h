#pragma once

// The window walk of conv2d's "mve_gemm" variant (conv2d_mve_gemm.cpp): where
// each output pixel's window is read from, in place or gathered into the
// staging slots. Only that file and conv2d_mve_gemm_windows.cpp include it.

#include <cstddef>
#include <cstdint>

#include "kernels/cortex_m/conv2d/conv2d.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

namespace etns::cortex_m::gemm {

// Where the next window comes from: per-call constants, and the next output
// pixel (batch, oy, ox) in memory order with its window's first tap's offset
// from `input` (negative or past the row when that tap is padding).
struct Windows {
  const Conv2dParams* p;
  const int8_t* input;
  const int8_t* input_end;
  const int8_t* zeros;
  int8_t* staging;
  ptrdiff_t image_bytes, row_stride, pixel_step, row_step;
  int32_t input_h, input_w, output_h, output_w, stride_h, stride_w, pad_h, pad_w, input_c;
  int32_t filter_w, dilation_h;
  // The outputs whose windows lie wholly in the image: [lo, hi) per axis.
  int32_t oy_lo, oy_hi, ox_lo, ox_hi;
  int32_t filter_h, row_bytes, staging_slot;
  bool whole_rows, one_tap;
  int32_t batch = 0, oy = 0, ox = 0;
  ptrdiff_t at = 0;
};

// [lo, hi): the outputs along one axis whose taps all lie in [0, in).
inline void inside_range(int32_t in, int32_t out, int32_t stride, int32_t pad, int32_t span, int32_t& lo,
                         int32_t& hi) {
  lo = (pad + stride - 1) / stride;
  hi = in - span + pad >= 0 ? (in - span + pad) / stride + 1 : 0;
  if (hi > out) hi = out;
  if (hi < lo) hi = lo;
}

// The walk's per-call constants for p, from the first output pixel: `zeros`
// holds `slot` bytes of the input zero point, `staging` the gathered windows'
// slots (slot + 16 bytes each). Inline: it runs once per call, in the caller.
inline Windows start_windows(const Conv2dParams& p, const int8_t* input, const int8_t* zeros,
                             int8_t* staging, int32_t slot) {
  Windows g;
  g.p = &p;
  g.input = input;
  g.zeros = zeros;
  g.staging = staging;
  g.image_bytes = static_cast<ptrdiff_t>(p.input_h) * p.input_w * p.input_c;
  g.input_end = input + p.batches * g.image_bytes;
  g.row_stride = static_cast<ptrdiff_t>(p.input_w) * p.input_c;
  g.pixel_step = static_cast<ptrdiff_t>(p.stride_w) * p.input_c;
  g.row_step = p.dilation_h * g.row_stride;
  g.input_h = p.input_h;
  g.input_w = p.input_w;
  g.output_h = p.output_h;
  g.output_w = p.output_w;
  g.stride_h = p.stride_h;
  g.stride_w = p.stride_w;
  g.filter_w = p.filter_w;
  g.dilation_h = p.dilation_h;
  g.pad_h = p.pad_h;
  g.pad_w = p.pad_w;
  g.input_c = p.input_c;
  inside_range(p.input_h, p.output_h, p.stride_h, p.pad_h, (p.filter_h - 1) * p.dilation_h + 1,
               g.oy_lo, g.oy_hi);
  inside_range(p.input_w, p.output_w, p.stride_w, p.pad_w, (p.filter_w - 1) * p.dilation_w + 1,
               g.ox_lo, g.ox_hi);
  g.filter_h = p.filter_h;
  g.row_bytes = p.filter_w * p.input_c;
  g.staging_slot = slot + 16;
  g.whole_rows = p.dilation_w == 1;
  g.one_tap = p.filter_h == 1 && p.filter_w == 1;
  g.at =
      -static_cast<ptrdiff_t>(p.pad_h) * g.row_stride - static_cast<ptrdiff_t>(p.pad_w) * p.input_c;
  return g;
}

// Where the windows of the next `count` output pixels are (any filter,
// stride, padding): a 1x1 window in the image is read in place, others are
// gathered into the staging slots. Advances g to the pixel after them.
void window_sources(Windows& g, int32_t count, const int8_t** sources, int8x16_t zero_point);

}  // namespace etns::cortex_m::gemm

#endif  // ETNS_HAVE_MVE
