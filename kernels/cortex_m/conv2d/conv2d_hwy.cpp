#include <algorithm>
#include <cstring>
#include <vector>

#include "kernels/common/requantize.h"
#include "kernels/cortex_m/conv2d/conv2d.h"

// Host SIMD (Highway): compiled once per target by foreach_target.h, the
// target chosen at run time (HWY_DYNAMIC_DISPATCH).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cortex_m/conv2d/conv2d_hwy.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/common/dot_hwy.h"
#include "kernels/common/requantize_hwy.h"
#include "kernels/cortex_m/conv2d/conv2d_hwy_block.h"

HWY_BEFORE_NAMESPACE();
namespace etns::cortex_m::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using kernels::HWY_NAMESPACE::DotRows;
using kernels::HWY_NAMESPACE::RequantPerLane;
using kernels::HWY_NAMESPACE::WrappingAdd;

// Window elements gathered at once (a stack buffer of int16). Also bounds a
// chunk's dot product: 4096 products of at most 255 * 128 stay below 2^31,
// so the int32 lanes never overflow; chunks are then summed wrapping, as the
// reference's accumulator wraps.
constexpr size_t kChunk = 4096;
// Output channels whose sums are kept while the window chunks go by.
constexpr int32_t kChannelBlock = 64;

// One output pixel's window (one group's input channels), elements [k0, k0 +
// count) in the weights' [ky][kx][ic] order, as (in + input_offset) in int16
// ([-255, 255]); taps outside the image are 0, so they add nothing, as the
// reference skips them.
void GatherWindow(const Conv2dParams& p, const int8_t* image, int32_t oy, int32_t ox,
                  int32_t first_channel, size_t k0, size_t count, int16_t* window) {
  const size_t filter_c = static_cast<size_t>(p.filter_c);
  // The first tap and channel by division, the rest by stepping.
  size_t ic = k0 % filter_c;
  int32_t kx = static_cast<int32_t>((k0 / filter_c) % static_cast<size_t>(p.filter_w));
  int32_t ky = static_cast<int32_t>((k0 / filter_c) / static_cast<size_t>(p.filter_w));
  size_t k = k0;
  const size_t end = k0 + count;
  while (k < end) {
    const size_t run = std::min(filter_c - ic, end - k);
    const int32_t iy = oy * p.stride_h - p.pad_h + ky * p.dilation_h;
    const int32_t ix = ox * p.stride_w - p.pad_w + kx * p.dilation_w;
    int16_t* dst = window + (k - k0);
    if (iy < 0 || iy >= p.input_h || ix < 0 || ix >= p.input_w) {
      std::fill(dst, dst + run, int16_t{0});
    } else {
      const int8_t* src =
          image + (static_cast<size_t>(iy) * p.input_w + ix) * p.input_c + first_channel + ic;
      for (size_t i = 0; i < run; ++i) dst[i] = static_cast<int16_t>(src[i] + p.input_offset);
    }
    k += run;
    ic = 0;
    if (++kx == p.filter_w) {
      kx = 0;
      ++ky;
    }
  }
}

// Output channels [oc, oc + Lanes(d)) of one pixel from their sums.
template <class D>
HWY_INLINE void RequantStore(D d, const Conv2dParams& p, const uint32_t* sums, int32_t oc, int8_t* pixel) {
  const hn::RebindToUnsigned<D> du;
  const hn::Rebind<int8_t, D> d8;
  const auto y = RequantPerLane(d, hn::BitCast(d, hn::LoadU(du, sums)), hn::LoadU(d, p.multipliers + oc),
                                hn::LoadU(d, p.shifts + oc));
  const auto value = WrappingAdd(d, y, hn::Set(d, p.output_offset));
  const auto clamped = hn::Min(hn::Max(value, hn::Set(d, p.activation_min)), hn::Set(d, p.activation_max));
  hn::StoreU(hn::DemoteTo(d8, clamped), d8, pixel + oc);
}

// Output channels [oc0, oc0 + count) of one pixel from their sums: a vector
// at a time with each channel's factors (128-bit vectors for what is short of
// a whole one), the rest one by one.
HWY_INLINE void RequantBlock(const Conv2dParams& p, const uint32_t* sums, int32_t oc0, int32_t count, int8_t* pixel) {
  const hn::ScalableTag<int32_t> d32;
  const hn::CappedTag<int32_t, 16 / sizeof(int32_t)> d32_narrow;
  const int32_t lanes = static_cast<int32_t>(hn::Lanes(d32));
  const int32_t narrow_lanes = static_cast<int32_t>(hn::Lanes(d32_narrow));
  int32_t j = 0;
  for (; j + lanes <= count; j += lanes) RequantStore(d32, p, sums + j, oc0 + j, pixel);
  for (; j + narrow_lanes <= count; j += narrow_lanes) RequantStore(d32_narrow, p, sums + j, oc0 + j, pixel);
  for (; j < count; ++j) {
    const int32_t oc = oc0 + j;
    const kernels::Requant rq{p.multipliers[oc], p.shifts[oc]};
    const int32_t value = static_cast<int32_t>(static_cast<uint32_t>(kernels::requantize(static_cast<int32_t>(sums[j]), rq)) +
                                               static_cast<uint32_t>(p.output_offset));
    pixel[oc] = static_cast<int8_t>(kernels::clamp_s32(value, p.activation_min, p.activation_max));
  }
}

// Short windows (at most kShortWindow elements, one group): the dot
// products would be mostly their reductions, so the output channels are the
// lanes instead. The weights are transposed once per call into int32 [k][oc]
// rows on the stack (output channels padded to a vector with 0), and each
// window element, broadcast, multiplies one row. The sums stay within
// 48 * 255 * 128, so they cannot overflow before the bias is added wrapping.
// Returns false, doing nothing, when the transposed weights would not fit.
constexpr size_t kShortWindow = 48;
constexpr size_t kPackedWeights = 4096;

template <class D>
bool Conv2dS8ShortWindows(D d32, const Conv2dParams& p, const int8_t* input, const int8_t* weight,
                          const int32_t* bias, int8_t* out, size_t k_total) {
  const hn::Rebind<int8_t, D> d8;
  const size_t lanes = hn::Lanes(d32);
  const size_t channels = static_cast<size_t>(p.output_c);
  const size_t padded = (channels + lanes - 1) / lanes * lanes;
  if (padded * k_total > kPackedWeights) return false;
  HWY_ALIGN int32_t packed[kPackedWeights];
  for (size_t k = 0; k < k_total; ++k) {
    for (size_t oc = 0; oc < padded; ++oc) packed[k * padded + oc] = oc < channels ? weight[oc * k_total + k] : 0;
  }
  HWY_ALIGN int16_t window[kShortWindow];
  HWY_ALIGN int32_t tail[HWY_MAX_BYTES / sizeof(int32_t)];
  for (int32_t n = 0; n < p.batches; ++n) {
    const int8_t* image = input + static_cast<size_t>(n) * p.input_h * p.input_w * p.input_c;
    for (int32_t oy = 0; oy < p.output_h; ++oy) {
      for (int32_t ox = 0; ox < p.output_w; ++ox) {
        int8_t* pixel = out + ((static_cast<size_t>(n) * p.output_h + oy) * p.output_w + ox) * channels;
        GatherWindow(p, image, oy, ox, 0, 0, k_total, window);
        for (size_t oc = 0; oc < padded; oc += lanes) {
          auto sum = hn::Zero(d32);
          for (size_t k = 0; k < k_total; ++k) {
            sum = hn::Add(sum, hn::Mul(hn::Set(d32, window[k]), hn::Load(d32, packed + k * padded + oc)));
          }
          if (oc + lanes <= channels) {
            const auto acc = bias != nullptr ? WrappingAdd(d32, sum, hn::LoadU(d32, bias + oc)) : sum;
            const auto y = RequantPerLane(d32, acc, hn::LoadU(d32, p.multipliers + oc), hn::LoadU(d32, p.shifts + oc));
            const auto value = WrappingAdd(d32, y, hn::Set(d32, p.output_offset));
            const auto clamped =
                hn::Min(hn::Max(value, hn::Set(d32, p.activation_min)), hn::Set(d32, p.activation_max));
            hn::StoreU(hn::DemoteTo(d8, clamped), d8, pixel + oc);
            continue;
          }
          // The channels after the last whole vector, one at a time.
          hn::Store(sum, d32, tail);
          for (size_t j = 0; oc + j < channels; ++j) {
            const size_t c = oc + j;
            const uint32_t acc =
                static_cast<uint32_t>(tail[j]) + (bias != nullptr ? static_cast<uint32_t>(bias[c]) : 0u);
            const kernels::Requant rq{p.multipliers[c], p.shifts[c]};
            const int32_t value = static_cast<int32_t>(
                static_cast<uint32_t>(kernels::requantize(static_cast<int32_t>(acc), rq)) +
                static_cast<uint32_t>(p.output_offset));
            pixel[c] = static_cast<int8_t>(kernels::clamp_s32(value, p.activation_min, p.activation_max));
          }
        }
      }
    }
  }
  return true;
}


void Conv2dS8(const Conv2dParams& p, const int8_t* input, const int8_t* weight, const int32_t* bias,
              int8_t* out) {
  const int32_t groups = p.input_c / p.filter_c;
  const int32_t channels_per_group = p.output_c / groups;
  const size_t k_total = static_cast<size_t>(p.filter_h) * p.filter_w * p.filter_c;
#if HWY_TARGET == HWY_AVX3_DL
  if (Conv2dS8Vnni(p, input, weight, bias, out)) return;
#endif
#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR
  if (Conv2dS8Pairs(p, input, weight, bias, out)) return;
#endif
  if (p.filter_c == p.input_c && k_total <= kShortWindow) {
    // Lanes no wider than the output channels, so few fall to the tail.
    const hn::ScalableTag<int32_t> full;
    const hn::CappedTag<int32_t, 8> half;
    const hn::CappedTag<int32_t, 4> quarter;
    const size_t channels = static_cast<size_t>(p.output_c);
    if (channels >= hn::Lanes(full) ? Conv2dS8ShortWindows(full, p, input, weight, bias, out, k_total)
        : channels >= hn::Lanes(half) ? Conv2dS8ShortWindows(half, p, input, weight, bias, out, k_total)
                                      : Conv2dS8ShortWindows(quarter, p, input, weight, bias, out, k_total)) {
      return;
    }
  }
  // Room for a whole vector past the chunk, kept 0.
  HWY_ALIGN int16_t window[kChunk + HWY_MAX_BYTES / sizeof(int16_t)];
  const size_t weight_bytes = static_cast<size_t>(p.output_c) * k_total;
  const hn::ScalableTag<int32_t> d32;
  // 128-bit vectors where a full one would be mostly the zero padding.
  const hn::CappedTag<int32_t, 16 / sizeof(int32_t)> d32_narrow;
  uint32_t acc[kChannelBlock];
  int32_t sums[4];
  for (int32_t n = 0; n < p.batches; ++n) {
    const int8_t* image = input + static_cast<size_t>(n) * p.input_h * p.input_w * p.input_c;
    for (int32_t oy = 0; oy < p.output_h; ++oy) {
      for (int32_t ox = 0; ox < p.output_w; ++ox) {
        int8_t* pixel = out + ((static_cast<size_t>(n) * p.output_h + oy) * p.output_w + ox) * p.output_c;
        // Which chunk the window buffer holds: gathered once per pixel when
        // a group's window fits one chunk.
        int32_t held_group = -1;
        size_t held_k0 = 0;
        for (int32_t g = 0; g < groups; ++g) {
          const int32_t group_end = (g + 1) * channels_per_group;
          for (int32_t oc0 = g * channels_per_group; oc0 < group_end; oc0 += kChannelBlock) {
            const int32_t block = std::min(kChannelBlock, group_end - oc0);
            for (int32_t j = 0; j < block; ++j) {
              acc[j] = bias != nullptr ? static_cast<uint32_t>(bias[oc0 + j]) : 0u;
            }
            for (size_t k0 = 0; k0 < k_total; k0 += kChunk) {
              const size_t count = std::min(kChunk, k_total - k0);
              if (held_group != g || held_k0 != k0) {
                GatherWindow(p, image, oy, ox, g * p.filter_c, k0, count, window);
                std::fill_n(window + count, HWY_MAX_BYTES / sizeof(int16_t), int16_t{0});
                held_group = g;
                held_k0 = k0;
              }
              const bool narrow = count < hn::Lanes(d32);
              for (int32_t j = 0; j < block; j += 4) {
                const int rows = std::min(4, block - j);
                const size_t first = static_cast<size_t>(oc0 + j) * k_total + k0;
                const size_t room = weight_bytes - (first + static_cast<size_t>(rows - 1) * k_total);
                if (narrow) {
                  DotRows(d32_narrow, window, weight + first, k_total, count, rows, room, sums);
                } else {
                  DotRows(d32, window, weight + first, k_total, count, rows, room, sums);
                }
                for (int r = 0; r < rows; ++r) acc[j + r] += static_cast<uint32_t>(sums[r]);
              }
            }
            RequantBlock(p, acc, oc0, block, pixel);
          }
        }
      }
    }
  }
}

}  // namespace etns::cortex_m::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace etns::cortex_m {

HWY_EXPORT(Conv2dS8);

void conv2d_s8_hwy(const Conv2dParams& p, const int8_t* input, const int8_t* weight,
                   const int32_t* bias, int8_t* out, uint8_t* /*scratch*/) {
  HWY_DYNAMIC_DISPATCH(Conv2dS8)(p, input, weight, bias, out);
}

}  // namespace etns::cortex_m
#endif  // HWY_ONCE
