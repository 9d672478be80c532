#include "kernels/common/pool2d.h"
#include "kernels/cortex_m/max_pool2d/max_pool2d.h"

// Host SIMD (Highway): compiled once per target by foreach_target.h, the
// target chosen at run time (HWY_DYNAMIC_DISPATCH).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cortex_m/max_pool2d/max_pool2d_hwy.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace etns::cortex_m::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Channels [ch, ch + Lanes(d)) of one out pixel: the largest tap, clamped.
template <class D>
HWY_INLINE void MaxChannels(D d, const MaxPool2dParams& p, const kernels::PoolWindow& w, const int8_t* first,
                            size_t row, size_t ch, int8_t* pixel) {
  const size_t c = static_cast<size_t>(p.shape.channels);
  auto largest = hn::Set(d, int8_t{INT8_MIN});
  for (int32_t y = 0; y < w.y1 - w.y0; ++y) {
    const int8_t* tap = first + static_cast<size_t>(y) * row + ch;
    for (int32_t x = 0; x < w.x1 - w.x0; ++x, tap += c) largest = hn::Max(largest, hn::LoadU(d, tap));
  }
  // The activation bounds are int8 values (validated at load).
  const auto low = hn::Set(d, static_cast<int8_t>(p.activation_min));
  const auto high = hn::Set(d, static_cast<int8_t>(p.activation_max));
  hn::StoreU(hn::Min(hn::Max(largest, low), high), d, pixel + ch);
}

// Channels are contiguous in NHWC: int8 lanes, whole vectors, then 16-byte
// ones (so 16- to 63-channel layers stay vectorised on AVX2/AVX-512), then
// one channel at a time as the reference.
void MaxPool2dS8(const MaxPool2dParams& p, const int8_t* input, int8_t* out) {
  const hn::ScalableTag<int8_t> d;
  const hn::CappedTag<int8_t, 16> d_narrow;
  const size_t c = static_cast<size_t>(p.shape.channels);
  const size_t row = static_cast<size_t>(p.shape.input_w) * c;
  kernels::for_each_pool_window(
      p.shape, input, out, [&](const kernels::PoolWindow& w, const int8_t* first, int8_t* pixel) {
        size_t ch = 0;
        for (; ch + hn::Lanes(d) <= c; ch += hn::Lanes(d)) MaxChannels(d, p, w, first, row, ch, pixel);
        for (; ch + hn::Lanes(d_narrow) <= c; ch += hn::Lanes(d_narrow)) {
          MaxChannels(d_narrow, p, w, first, row, ch, pixel);
        }
        for (; ch < c; ++ch) {
          int32_t largest = INT8_MIN;
          for (int32_t y = 0; y < w.y1 - w.y0; ++y) {
            const int8_t* tap = first + static_cast<size_t>(y) * row + ch;
            for (int32_t x = 0; x < w.x1 - w.x0; ++x, tap += c) {
              if (*tap > largest) largest = *tap;
            }
          }
          if (largest < p.activation_min) largest = p.activation_min;
          if (largest > p.activation_max) largest = p.activation_max;
          pixel[ch] = static_cast<int8_t>(largest);
        }
      });
}

}  // namespace etns::cortex_m::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace etns::cortex_m {

HWY_EXPORT(MaxPool2dS8);

void max_pool2d_s8_hwy(const MaxPool2dParams& p, const int8_t* input, int8_t* out) {
  HWY_DYNAMIC_DISPATCH(MaxPool2dS8)(p, input, out);
}

}  // namespace etns::cortex_m
#endif  // HWY_ONCE
