#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/pool2d.h"
#include "kernels/testing/rng.h"

// Pooling geometries for the variant tests of avg_pool2d and max_pool2d.
namespace etns::kernels::testing {

// Kernel 1..4, stride 1..3, padding below the kernel, input 1..9 square-ish,
// channels around the 16-lane tile, batches 1..2; out sizes from PyTorch's
// formula or one more on the far side (uneven "SAME" padding), never a window
// without an input tap.
inline Pool2dShape random_pool_shape(Rng& rng) {
  const int32_t channels[] = {1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64};
  Pool2dShape s;
  s.batches = rng.uniform32(1, 2);
  s.input_h = rng.uniform32(1, 9);
  s.input_w = rng.uniform32(1, 9);
  s.channels = rng.pick(channels);
  s.kernel_h = rng.uniform32(1, 4);
  s.kernel_w = rng.uniform32(1, 4);
  s.stride_h = rng.uniform32(1, 3);
  s.stride_w = rng.uniform32(1, 3);
  s.pad_h = rng.uniform32(0, s.kernel_h - 1);
  s.pad_w = rng.uniform32(0, s.kernel_w - 1);
  const auto extent = [&](int32_t in, int32_t k, int32_t stride, int32_t pad) {
    int32_t out = (in + 2 * pad - k) / stride + 1;
    if (out < 1) out = 1;
    if (rng.coin() && out * stride - pad < in) ++out;
    while (out > 1 && (out - 1) * stride - pad >= in) --out;
    return out;
  };
  s.output_h = extent(s.input_h, s.kernel_h, s.stride_h, s.pad_h);
  s.output_w = extent(s.input_w, s.kernel_w, s.stride_w, s.pad_w);
  return s;
}

inline size_t pool_input_count(const Pool2dShape& s) {
  return static_cast<size_t>(s.batches) * static_cast<size_t>(s.input_h) *
         static_cast<size_t>(s.input_w) * static_cast<size_t>(s.channels);
}

inline size_t pool_out_count(const Pool2dShape& s) {
  return static_cast<size_t>(s.batches) * static_cast<size_t>(s.output_h) *
         static_cast<size_t>(s.output_w) * static_cast<size_t>(s.channels);
}

}  // namespace etns::kernels::testing
