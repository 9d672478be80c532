#include "kernels/common/requantize.h"
#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d.h"

// Host SIMD (Highway): compiled once per target by foreach_target.h, the
// target chosen at run time (HWY_DYNAMIC_DISPATCH).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d_hwy.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/common/requantize_hwy.h"

HWY_BEFORE_NAMESPACE();
namespace etns::cortex_m::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using kernels::HWY_NAMESPACE::RequantPerLane;
using kernels::HWY_NAMESPACE::WrappingAdd;

// One output channel of one pixel, as the reference computes it (the
// channels after the last whole vector).
int8_t OneChannel(const DepthwiseConv2dParams& p, const int8_t* image, const int8_t* weight,
                  const int32_t* bias, int32_t oy, int32_t ox, int32_t oc) {
  const int32_t ic = oc / p.depth_multiplier;
  uint32_t acc = bias != nullptr ? static_cast<uint32_t>(bias[oc]) : 0u;
  for (int32_t ky = 0; ky < p.filter_h; ++ky) {
    const int32_t iy = oy * p.stride_h - p.pad_h + ky * p.dilation_h;
    if (iy < 0 || iy >= p.input_h) continue;
    for (int32_t kx = 0; kx < p.filter_w; ++kx) {
      const int32_t ix = ox * p.stride_w - p.pad_w + kx * p.dilation_w;
      if (ix < 0 || ix >= p.input_w) continue;
      const int8_t x = image[(static_cast<size_t>(iy) * p.input_w + ix) * p.input_c + ic];
      const int8_t w = weight[(static_cast<size_t>(ky) * p.filter_w + kx) * p.output_c + oc];
      acc += static_cast<uint32_t>((x + p.input_offset) * w);
    }
  }
  const kernels::Requant rq{p.multipliers[oc], p.shifts[oc]};
  const int32_t value = static_cast<int32_t>(static_cast<uint32_t>(kernels::requantize(static_cast<int32_t>(acc), rq)) +
                                             static_cast<uint32_t>(p.output_offset));
  return static_cast<int8_t>(kernels::clamp_s32(value, p.activation_min, p.activation_max));
}

// Channels [c, c + Lanes(d)) of one output pixel: one int32 lane per output
// channel, summed over the in-image taps (the reference skips the others)
// with wrapping adds, as its accumulator wraps, then requantised with each
// lane's own factors. Channels are contiguous in NHWC input and output and in
// the [KH, KW, C] weights.
template <class D>
void ChannelVector(D d, const DepthwiseConv2dParams& p, const int8_t* image, const int8_t* weight,
                   const int32_t* bias, int32_t oy, int32_t ox, size_t c, int8_t* pixel) {
  const hn::Rebind<int8_t, D> d8;
  const size_t lanes = hn::Lanes(d);
  const size_t channels = static_cast<size_t>(p.output_c);
  const auto input_offset = hn::Set(d, p.input_offset);
  // One vector of input channels oc / depth_multiplier, for multipliers > 1.
  HWY_ALIGN int32_t spread[HWY_MAX_BYTES / sizeof(int32_t)];
  auto acc = bias != nullptr ? hn::LoadU(d, bias + c) : hn::Zero(d);
  for (int32_t ky = 0; ky < p.filter_h; ++ky) {
    const int32_t iy = oy * p.stride_h - p.pad_h + ky * p.dilation_h;
    if (iy < 0 || iy >= p.input_h) continue;
    for (int32_t kx = 0; kx < p.filter_w; ++kx) {
      const int32_t ix = ox * p.stride_w - p.pad_w + kx * p.dilation_w;
      if (ix < 0 || ix >= p.input_w) continue;
      const int8_t* tap = image + (static_cast<size_t>(iy) * p.input_w + ix) * p.input_c;
      hn::Vec<D> x;
      if (p.depth_multiplier == 1) {
        x = hn::PromoteTo(d, hn::LoadU(d8, tap + c));
      } else {
        for (size_t l = 0; l < lanes; ++l) spread[l] = tap[(c + l) / static_cast<size_t>(p.depth_multiplier)];
        x = hn::Load(d, spread);
      }
      const auto w =
          hn::PromoteTo(d, hn::LoadU(d8, weight + (static_cast<size_t>(ky) * p.filter_w + kx) * channels + c));
      // (x + input_offset) * w is within +-255 * 128: no overflow.
      acc = WrappingAdd(d, acc, hn::Mul(hn::Add(x, input_offset), w));
    }
  }
  const auto y = RequantPerLane(d, acc, hn::LoadU(d, p.multipliers + c), hn::LoadU(d, p.shifts + c));
  const auto clamped = hn::Min(hn::Max(WrappingAdd(d, y, hn::Set(d, p.output_offset)), hn::Set(d, p.activation_min)),
                               hn::Set(d, p.activation_max));
  hn::StoreU(hn::DemoteTo(d8, clamped), d8, pixel + c);
}

// Whole vectors of channels, then 256- and 128-bit ones (so 8 or 16 channels
// are not one at a time, nor a 4-lane pair, on wide targets), then single
// channels.
void DepthwiseConv2dS8(const DepthwiseConv2dParams& p, const int8_t* input, const int8_t* weight,
                       const int32_t* bias, int8_t* out) {
  const hn::ScalableTag<int32_t> d;
  const hn::CappedTag<int32_t, 32 / sizeof(int32_t)> d_half;
  const hn::CappedTag<int32_t, 16 / sizeof(int32_t)> d_narrow;
  const size_t lanes = hn::Lanes(d);
  const size_t half_lanes = hn::Lanes(d_half);
  const size_t narrow_lanes = hn::Lanes(d_narrow);
  const size_t channels = static_cast<size_t>(p.output_c);
  for (int32_t n = 0; n < p.batches; ++n) {
    const int8_t* image = input + static_cast<size_t>(n) * p.input_h * p.input_w * p.input_c;
    for (int32_t oy = 0; oy < p.output_h; ++oy) {
      for (int32_t ox = 0; ox < p.output_w; ++ox) {
        int8_t* pixel = out + ((static_cast<size_t>(n) * p.output_h + oy) * p.output_w + ox) * channels;
        size_t c = 0;
        for (; c + lanes <= channels; c += lanes) ChannelVector(d, p, image, weight, bias, oy, ox, c, pixel);
        for (; c + half_lanes <= channels; c += half_lanes) {
          ChannelVector(d_half, p, image, weight, bias, oy, ox, c, pixel);
        }
        for (; c + narrow_lanes <= channels; c += narrow_lanes) {
          ChannelVector(d_narrow, p, image, weight, bias, oy, ox, c, pixel);
        }
        for (; c < channels; ++c) pixel[c] = OneChannel(p, image, weight, bias, oy, ox, static_cast<int32_t>(c));
      }
    }
  }
}

}  // namespace etns::cortex_m::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace etns::cortex_m {

HWY_EXPORT(DepthwiseConv2dS8);

void depthwise_conv2d_s8_hwy(const DepthwiseConv2dParams& p, const int8_t* input, const int8_t* weight,
                             const int32_t* bias, int8_t* out, uint8_t* /*scratch*/) {
  HWY_DYNAMIC_DISPATCH(DepthwiseConv2dS8)(p, input, weight, bias, out);
}

}  // namespace etns::cortex_m
#endif  // HWY_ONCE
