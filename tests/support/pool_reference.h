#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

// The definition a 2-D pooling kernel must reproduce, written as plainly as
// CMSIS-NN's portable C: NHWC input [n, h, w, c], out [n, oh, ow, c]; out
// pixel (y, x) visits kernel offsets and keeps the taps inside the input.
namespace etns::testing {

struct PoolCase {
  int32_t n, h, w, c, oh, ow, kh, kw, sh, sw, ph, pw;
};

// The edge shapes both pooling tests run: kernel 1 and 3, stride 1 and 2,
// padding, uneven far-side padding, channels 1, 16, 17, 33, batch 2.
inline const PoolCase kPoolEdgeCases[] = {
    {1, 4, 5, 1, 4, 5, 1, 1, 1, 1, 0, 0},   // kernel 1
    {2, 5, 5, 16, 5, 5, 3, 3, 1, 1, 1, 1},  // kernel 3 stride 1 padding 1, batch 2
    {1, 7, 6, 17, 4, 3, 3, 3, 2, 2, 1, 1},  // stride 2, 17 channels
    {2, 6, 6, 33, 3, 3, 2, 2, 2, 2, 0, 0},  // 33 channels
    {1, 5, 4, 17, 3, 2, 2, 3, 2, 2, 0, 0},  // uneven far side both ways
    {2, 3, 4, 1, 2, 4, 3, 1, 2, 1, 1, 0},   // non-square kernel, stride [2, 1]
};

// reduce(taps) gets the in-input tap values of one out element.
template <typename Reduce>
std::vector<int8_t> pool_reference(const PoolCase& s, const std::vector<int8_t>& in,
                                   Reduce reduce) {
  std::vector<int8_t> out;
  std::vector<int8_t> taps;
  for (int32_t b = 0; b < s.n; ++b) {
    for (int32_t y = 0; y < s.oh; ++y) {
      for (int32_t x = 0; x < s.ow; ++x) {
        for (int32_t ch = 0; ch < s.c; ++ch) {
          taps.clear();
          for (int32_t ky = 0; ky < s.kh; ++ky) {
            for (int32_t kx = 0; kx < s.kw; ++kx) {
              const int32_t iy = y * s.sh - s.ph + ky;
              const int32_t ix = x * s.sw - s.pw + kx;
              if (iy < 0 || ix < 0 || iy >= s.h || ix >= s.w) continue;
              taps.push_back(in[((static_cast<size_t>(b) * s.h + iy) * s.w + ix) * s.c + ch]);
            }
          }
          out.push_back(reduce(taps));
        }
      }
    }
  }
  return out;
}

}  // namespace etns::testing
