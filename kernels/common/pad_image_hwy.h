// The padded int16 copy of an NHWC image that the host conv2d and
// depthwise_conv2d variants read on x86 targets without VNNI (Highway, host
// only). Included by each *_hwy.cpp after hwy/foreach_target.h, so it is
// compiled once per target: the guard below toggles with HWY_TARGET_TOGGLE
// instead of #pragma once.
#if defined(ETNS_KERNELS_COMMON_PAD_IMAGE_HWY_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ETNS_KERNELS_COMMON_PAD_IMAGE_HWY_H_
#undef ETNS_KERNELS_COMMON_PAD_IMAGE_HWY_H_
#else
#define ETNS_KERNELS_COMMON_PAD_IMAGE_HWY_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace etns::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// One batch's image, input_h x input_w pixels of `channels` int8.
struct ImageShape {
  int32_t input_h, input_w, channels;
  int32_t pad_h, pad_w;
  int32_t input_offset;  // added to every element copied
};

// Copies the image into `padded`: padded_h rows of padded_w pixels of
// pixel_elems int16 (channels, or more: the rest of a pixel is 0), padded
// row py, column px holding image row py - pad_h, column px - pad_w as
// x + input_offset, and 0 outside the image. The padded rows and columns
// may stop short of the image's far side (an output that does not reach it).
inline void PadImageInt16(const ImageShape& s, const int8_t* image, int64_t padded_h, int64_t padded_w,
                          size_t pixel_elems, int16_t* padded) {
  const hn::ScalableTag<int16_t> d16;
  const hn::Rebind<int8_t, decltype(d16)> d8;
  const size_t lanes = hn::Lanes(d16);
  const auto offset = hn::Set(d16, static_cast<int16_t>(s.input_offset));
  const size_t channels = static_cast<size_t>(s.channels);
  const size_t row_elems = static_cast<size_t>(padded_w) * pixel_elems;
  // The padded columns inside the image: [left, right).
  const int64_t left = std::min<int64_t>(s.pad_w, padded_w);
  const int64_t right = std::max<int64_t>(left, std::min<int64_t>(s.pad_w + int64_t{s.input_w}, padded_w));
  const size_t inside = static_cast<size_t>(right - left) * channels;
  for (int64_t py = 0; py < padded_h; ++py) {
    int16_t* dst = padded + static_cast<size_t>(py) * row_elems;
    const int64_t iy = py - s.pad_h;
    std::fill_n(dst, row_elems, int16_t{0});
    if (iy < 0 || iy >= s.input_h || inside == 0) continue;
    const int8_t* src = image + static_cast<size_t>(iy) * s.input_w * channels;
    int16_t* run = dst + static_cast<size_t>(left) * pixel_elems;
    if (pixel_elems != channels) {  // pixels padded past their channels: one at a time
      for (int64_t px = left; px < right; ++px, run += pixel_elems, src += channels) {
        for (size_t c = 0; c < channels; ++c) run[c] = static_cast<int16_t>(src[c] + s.input_offset);
      }
      continue;
    }
    size_t i = 0;
    for (; i + lanes <= inside; i += lanes) {
      hn::StoreU(hn::Add(hn::PromoteTo(d16, hn::LoadU(d8, src + i)), offset), d16, run + i);
    }
    for (; i < inside; ++i) run[i] = static_cast<int16_t>(src[i] + s.input_offset);
  }
}

}  // namespace etns::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ETNS_KERNELS_COMMON_PAD_IMAGE_HWY_H_
