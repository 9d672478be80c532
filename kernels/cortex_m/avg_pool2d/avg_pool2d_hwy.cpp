#include "kernels/common/pool2d.h"
#include "kernels/cortex_m/avg_pool2d/avg_pool2d.h"

// Host SIMD (Highway): compiled once per target by foreach_target.h, the
// target chosen at run time (HWY_DYNAMIC_DISPATCH).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cortex_m/avg_pool2d/avg_pool2d_hwy.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace etns::cortex_m::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Channels [ch, ch + Lanes(df)) of one out pixel: int32 sums over the taps,
// then the reference's (sum +- taps / 2) / taps, truncating. The division is
// in double: a dividend a below 2^31 is exact there, and a quotient that is
// not an integer is at least 1 / taps from one, far more than the rounding
// error |a / taps| * 2^-53; so truncating gives C's integer quotient exactly.
template <class DF>
HWY_INLINE void AverageChannels(DF df, const AvgPool2dParams& p, const kernels::PoolWindow& w, const int8_t* first,
                                size_t row, size_t ch, int8_t* pixel) {
  const hn::Rebind<int32_t, DF> d32;
  const hn::Rebind<int8_t, DF> d8;
  const size_t c = static_cast<size_t>(p.channels);
  const int32_t taps = w.taps();
  auto sum = hn::Zero(d32);
  for (int32_t y = 0; y < w.y1 - w.y0; ++y) {
    const int8_t* tap = first + static_cast<size_t>(y) * row + ch;
    for (int32_t x = 0; x < w.x1 - w.x0; ++x, tap += c) sum = hn::Add(sum, hn::PromoteTo(d32, hn::LoadU(d8, tap)));
  }
  const auto half = hn::Set(d32, taps / 2);
  const auto rounded = hn::IfThenElse(hn::Gt(sum, hn::Zero(d32)), hn::Add(sum, half), hn::Sub(sum, half));
  const auto quotient = hn::Trunc(hn::Div(hn::PromoteTo(df, rounded), hn::Set(df, static_cast<double>(taps))));
  hn::StoreU(hn::DemoteTo(d8, hn::DemoteTo(d32, quotient)), d8, pixel + ch);
}

// Channels are contiguous in NHWC: whole vectors (one double lane per
// channel), then 128-bit ones, then one channel at a time as the reference.
void AvgPool2dS8(const AvgPool2dParams& p, const int8_t* input, int8_t* out) {
  const hn::ScalableTag<double> df;
  const hn::CappedTag<double, 16 / sizeof(double)> df_narrow;
  const size_t c = static_cast<size_t>(p.channels);
  const size_t row = static_cast<size_t>(p.input_w) * c;
  kernels::for_each_pool_window(
      p, input, out, [&](const kernels::PoolWindow& w, const int8_t* first, int8_t* pixel) {
        size_t ch = 0;
        for (; ch + hn::Lanes(df) <= c; ch += hn::Lanes(df)) AverageChannels(df, p, w, first, row, ch, pixel);
        for (; ch + hn::Lanes(df_narrow) <= c; ch += hn::Lanes(df_narrow)) {
          AverageChannels(df_narrow, p, w, first, row, ch, pixel);
        }
        const int32_t taps = w.taps();
        const int32_t half = taps / 2;
        for (; ch < c; ++ch) {
          int32_t sum = 0;
          for (int32_t y = 0; y < w.y1 - w.y0; ++y) {
            const int8_t* tap = first + static_cast<size_t>(y) * row + ch;
            for (int32_t x = 0; x < w.x1 - w.x0; ++x, tap += c) sum += *tap;
          }
          pixel[ch] = static_cast<int8_t>((sum > 0 ? sum + half : sum - half) / taps);
        }
      });
}

}  // namespace etns::cortex_m::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace etns::cortex_m {

HWY_EXPORT(AvgPool2dS8);

void avg_pool2d_s8_hwy(const AvgPool2dParams& p, const int8_t* input, int8_t* out) {
  HWY_DYNAMIC_DISPATCH(AvgPool2dS8)(p, input, out);
}

}  // namespace etns::cortex_m
#endif  // HWY_ONCE
