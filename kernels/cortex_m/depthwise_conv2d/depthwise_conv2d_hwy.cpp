#include <algorithm>
#include <vector>

#include "kernels/common/requantize.h"
#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d.h"

// Host SIMD (Highway): compiled once per target by foreach_target.h, the
// target chosen at run time (HWY_DYNAMIC_DISPATCH).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d_hwy.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/common/dot_hwy.h"
#include "kernels/common/pad_image_hwy.h"
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

// Every channel of one output pixel: whole vectors, then 256- and 128-bit
// ones (so 8 or 16 channels are not one at a time, nor a 4-lane pair, on
// wide targets), then single channels.
void OnePixel(const DepthwiseConv2dParams& p, const int8_t* image, const int8_t* weight, const int32_t* bias,
              int32_t oy, int32_t ox, int8_t* pixel) {
  const hn::ScalableTag<int32_t> d;
  const hn::CappedTag<int32_t, 32 / sizeof(int32_t)> d_half;
  const hn::CappedTag<int32_t, 16 / sizeof(int32_t)> d_narrow;
  const size_t channels = static_cast<size_t>(p.output_c);
  size_t c = 0;
  for (; c + hn::Lanes(d) <= channels; c += hn::Lanes(d)) ChannelVector(d, p, image, weight, bias, oy, ox, c, pixel);
  for (; c + hn::Lanes(d_half) <= channels; c += hn::Lanes(d_half)) {
    ChannelVector(d_half, p, image, weight, bias, oy, ox, c, pixel);
  }
  for (; c + hn::Lanes(d_narrow) <= channels; c += hn::Lanes(d_narrow)) {
    ChannelVector(d_narrow, p, image, weight, bias, oy, ox, c, pixel);
  }
  for (; c < channels; ++c) pixel[c] = OneChannel(p, image, weight, bias, oy, ox, static_cast<int32_t>(c));
}

#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR
// Depth multiplier 1 on the x86 targets without VNNI (and shapes the VNNI
// path declines): the image is copied once per call, widened to int16 as
// (x + input_offset), into a padded image whose border is 0, and the weights
// are widened to int32; an output pixel's channel vector then takes, for each
// tap, one widening load, one multiply and one add, with no bounds test (a
// border tap adds 0, as the reference skips it). Sums wrap in int32 as the
// reference's.

// The padded image of one batch, in int16 elements: (padded row, padded
// column) = (iy + pad_h, ix + pad_w), rows of row_elems, pixels of input_c.
struct PaddedImage {
  const int16_t* data;
  size_t row_elems;
};

template <class D>
HWY_INLINE void PaddedChannelVector(D d, const DepthwiseConv2dParams& p, const PaddedImage& image,
                                    const int32_t* weights, const int32_t* bias, int32_t oy, int32_t ox, size_t c,
                                    int8_t* pixel) {
  const hn::Rebind<int16_t, D> d16;
  const hn::Rebind<int8_t, D> d8;
  const size_t channels = static_cast<size_t>(p.output_c);
  const int16_t* corner = image.data + static_cast<size_t>(oy) * p.stride_h * image.row_elems +
                          static_cast<size_t>(ox) * p.stride_w * channels + c;
  const size_t tap_down = static_cast<size_t>(p.dilation_h) * image.row_elems;
  const size_t tap_across = static_cast<size_t>(p.dilation_w) * channels;
  auto acc = bias != nullptr ? hn::LoadU(d, bias + c) : hn::Zero(d);
  const int32_t* w = weights + c;
  for (int32_t ky = 0; ky < p.filter_h; ++ky) {
    const int16_t* tap = corner + static_cast<size_t>(ky) * tap_down;
    for (int32_t kx = 0; kx < p.filter_w; ++kx, tap += tap_across, w += channels) {
      // (x + input_offset) * w is within +-255 * 128: no overflow.
      acc = WrappingAdd(d, acc, hn::Mul(hn::PromoteTo(d, hn::LoadU(d16, tap)), hn::LoadU(d, w)));
    }
  }
  const auto y = RequantPerLane(d, acc, hn::LoadU(d, p.multipliers + c), hn::LoadU(d, p.shifts + c));
  const auto clamped = hn::Min(hn::Max(WrappingAdd(d, y, hn::Set(d, p.output_offset)), hn::Set(d, p.activation_min)),
                               hn::Set(d, p.activation_max));
  hn::StoreU(hn::DemoteTo(d8, clamped), d8, pixel + c);
}

// An image whose padded copy would pass this many elements keeps the
// per-tap path.
constexpr int64_t kMaxPaddedImage = int64_t{1} << 24;

// Returns false, doing nothing, for a depth multiplier other than 1 or an
// image past kMaxPaddedImage.
bool DepthwisePadded(const DepthwiseConv2dParams& p, const int8_t* input, const int8_t* weight, const int32_t* bias,
                     int8_t* out) {
  if (p.depth_multiplier != 1) return false;
  const int64_t padded_h = int64_t{p.output_h - 1} * p.stride_h + int64_t{p.filter_h - 1} * p.dilation_h + 1;
  const int64_t padded_w = int64_t{p.output_w - 1} * p.stride_w + int64_t{p.filter_w - 1} * p.dilation_w + 1;
  const size_t channels = static_cast<size_t>(p.output_c);
  // Each side first, so the product cannot overflow (an empty output has none).
  if (padded_h <= 0 || padded_w <= 0 || padded_h > kMaxPaddedImage || padded_w > kMaxPaddedImage ||
      padded_h * padded_w > kMaxPaddedImage / static_cast<int64_t>(channels)) {
    return false;
  }
  // Host memory, kept per thread.
  thread_local std::vector<int16_t> padded;
  thread_local std::vector<int32_t> weights;
  padded.resize(static_cast<size_t>(padded_h * padded_w) * channels);
  const size_t taps = static_cast<size_t>(p.filter_h) * p.filter_w;
  weights.resize(taps * channels);
  for (size_t k = 0; k < taps * channels; ++k) weights[k] = weight[k];
  const hn::ScalableTag<int32_t> d;
  const hn::CappedTag<int32_t, 32 / sizeof(int32_t)> d_half;
  const hn::CappedTag<int32_t, 16 / sizeof(int32_t)> d_narrow;
  const PaddedImage image{padded.data(), static_cast<size_t>(padded_w) * channels};
  const size_t image_bytes = static_cast<size_t>(p.input_h) * p.input_w * channels;
  for (int32_t n = 0; n < p.batches; ++n) {
    const int8_t* batch = input + static_cast<size_t>(n) * image_bytes;
    kernels::HWY_NAMESPACE::PadImageInt16({p.input_h, p.input_w, p.input_c, p.pad_h, p.pad_w, p.input_offset}, batch,
                                          padded_h, padded_w, channels, padded.data());
    for (int32_t oy = 0; oy < p.output_h; ++oy) {
      for (int32_t ox = 0; ox < p.output_w; ++ox) {
        int8_t* pixel = out + ((static_cast<size_t>(n) * p.output_h + oy) * p.output_w + ox) * channels;
        size_t c = 0;
        for (; c + hn::Lanes(d) <= channels; c += hn::Lanes(d)) {
          PaddedChannelVector(d, p, image, weights.data(), bias, oy, ox, c, pixel);
        }
        for (; c + hn::Lanes(d_half) <= channels; c += hn::Lanes(d_half)) {
          PaddedChannelVector(d_half, p, image, weights.data(), bias, oy, ox, c, pixel);
        }
        for (; c + hn::Lanes(d_narrow) <= channels; c += hn::Lanes(d_narrow)) {
          PaddedChannelVector(d_narrow, p, image, weights.data(), bias, oy, ox, c, pixel);
        }
        for (; c < channels; ++c) pixel[c] = OneChannel(p, batch, weight, bias, oy, ox, static_cast<int32_t>(c));
      }
    }
  }
  return true;
}
#endif  // x86 without VNNI

#if HWY_TARGET == HWY_AVX3_DL
// AVX-512 VNNI (Highway 1.0.3 has no operation for it, so these lines are
// intrinsics), for depth multiplier 1: vpdpbusd sums 4 products of unsigned
// and signed bytes into an int32 lane, so each lane takes 4 taps of one
// channel at once. The image is copied into a border of its zero point with
// every byte flipped (x ^ 0x80 = x + 128 as unsigned), so every output pixel
// runs every tap:
//   sum over taps of (x + input_offset) * w
//     = sum of (x + 128) * w + (input_offset - 128) * sum of w,
// and a border tap, x = -input_offset, adds 0 as the reference's skipped
// taps do. The second term goes into the bias once per call.
// A step is 64 bytes of output: 64 channels of one pixel (channels a
// multiple of 64), or the 64 / C pixels whose channels (C dividing 64) are
// 64 bytes in a row of the output and of the padded image alike; the pixels
// left at a row's end go one at a time. For the latter at a stride s along
// the row, each padded row is split into s phases: padded column px is
// column px / s of phase px % s, so the columns a step's pixels read for one
// tap, s apart, are adjacent in one phase. Four
// taps of a step are 4 loads and 8 byte and word unpacks, which leave the
// bytes in unpack order (lane 4j + i of the k-th vector holds byte
// 16j + 4k + i); the weights, bias and factors are arranged in that order,
// and the saturating packs at the end restore it. Sums wrap in int32 as the
// reference's.
constexpr size_t kDwStep = 64;                       // output bytes a step
constexpr size_t kDwPaddedBytes = size_t{64} << 10;  // the padded image on the stack
constexpr size_t kDwWeightBytes = size_t{32} << 10;  // the arranged weights
constexpr size_t kDwMaxChannels = 1024;
constexpr size_t kDwMaxTaps = 64;

// The byte of a 64-byte step that lane `lane` of the k-th vector holds.
constexpr size_t UnpackedByte(size_t k, size_t lane) { return 16 * (lane / 4) + 4 * k + lane % 4; }

// dst[i] = src[i] ^ 0x80 for n bytes; the last part of a vector masked.
ETNS_VNNI_ATTR inline void CopyFlipped(uint8_t* dst, const uint8_t* src, size_t n) {
  const __m512i flip = _mm512_set1_epi8(-128);
  size_t i = 0;
  for (; i + 64 <= n; i += 64) _mm512_storeu_si512(dst + i, _mm512_xor_si512(_mm512_loadu_si512(src + i), flip));
  if (i < n) {
    const __mmask64 rest = (~__mmask64{0}) >> (64 - (n - i));
    _mm512_mask_storeu_epi8(dst + i, rest, _mm512_xor_si512(_mm512_maskz_loadu_epi8(rest, src + i), flip));
  }
}

// Per step s, quad q, vector k: 16 lanes of 4 taps' weights (0 past the
// last tap) in `arranged`, and each lane's channel's bias with
// (input_offset - 128) * sum w folded in, multiplier and shift.
ETNS_VNNI_ATTR HWY_INLINE void ArrangeWeights(const DepthwiseConv2dParams& p, const int8_t* weight,
                                              const int32_t* bias, size_t steps, size_t quads,
                                              int8_t* arranged, int32_t* arranged_bias,
                                              int32_t* arranged_multiplier, int32_t* arranged_shift) {
  const size_t channels = static_cast<size_t>(p.output_c);
  const size_t taps = static_cast<size_t>(p.filter_h) * static_cast<size_t>(p.filter_w);
  for (size_t step = 0; step < steps; ++step) {
    for (size_t k = 0; k < 4; ++k) {
      for (size_t lane = 0; lane < 16; ++lane) {
        const size_t c = (step * kDwStep + UnpackedByte(k, lane)) % channels;
        const size_t at = step * kDwStep + 16 * k + lane;
        int64_t weight_sum = 0;
        for (size_t q = 0; q < quads; ++q) {
          for (size_t j = 0; j < 4; ++j) {
            const size_t t = 4 * q + j;
            const int8_t w = t < taps ? weight[t * channels + c] : int8_t{0};
            arranged[((step * quads + q) * 4 + k) * 64 + 4 * lane + j] = w;
            weight_sum += w;
          }
        }
        const int64_t corrected = int64_t{bias != nullptr ? bias[c] : 0} + (int64_t{p.input_offset} - 128) * weight_sum;
        arranged_bias[at] = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(corrected)));
        arranged_multiplier[at] = p.multipliers[c];
        arranged_shift[at] = p.shifts[c];
      }
    }
  }
}

// One batch's image flipped (^ 0x80) into `padded`: padded_h rows of
// row_bytes, the border the flipped input zero point, each row's pixels
// split into `phases` phases of phase_w columns.
ETNS_VNNI_ATTR HWY_INLINE void PadFlippedImage(const DepthwiseConv2dParams& p, const int8_t* image,
                                               int64_t padded_h, int64_t padded_w, int64_t phases,
                                               int64_t phase_w, size_t row_bytes, uint8_t* padded) {
  const size_t channels = static_cast<size_t>(p.output_c);
  const uint8_t border = static_cast<uint8_t>(static_cast<uint8_t>(-p.input_offset) ^ 0x80u);
  // Padded row py is image row py - pad_h, column px is px - pad_w; the
  // image's first `inside` bytes of a row are inside the padded one.
  const int64_t columns = std::min<int64_t>(p.input_w, padded_w - p.pad_w);
  const size_t inside = columns > 0 ? static_cast<size_t>(columns) * channels : 0;
  for (int64_t py = 0; py < padded_h; ++py) {
    uint8_t* row = padded + static_cast<size_t>(py) * row_bytes;
    std::fill_n(row, row_bytes, border);
    const int64_t iy = py - p.pad_h;
    if (iy < 0 || iy >= p.input_h || inside == 0) continue;
    const auto* src = reinterpret_cast<const uint8_t*>(image) + static_cast<size_t>(iy) * p.input_w * channels;
    if (phases == 1) {
      CopyFlipped(row + static_cast<size_t>(p.pad_w) * channels, src, inside);
      continue;
    }
    // Pixel by pixel, each into its phase (no division per pixel).
    size_t phase = static_cast<size_t>(p.pad_w) % static_cast<size_t>(phases);
    size_t column = static_cast<size_t>(p.pad_w) / static_cast<size_t>(phases);
    for (size_t i = 0; i < inside; i += channels) {
      uint8_t* dst = row + (phase * static_cast<size_t>(phase_w) + column) * channels;
      if (++phase == static_cast<size_t>(phases)) {
        phase = 0;
        ++column;
      }
      CopyFlipped(dst, src + i, channels);
    }
  }
}

// Returns false, doing nothing, for what this path does not take.
ETNS_VNNI_ATTR bool DepthwiseVnni(const DepthwiseConv2dParams& p, const int8_t* input, const int8_t* weight,
                                  const int32_t* bias, int8_t* out) {
  const size_t channels = static_cast<size_t>(p.output_c);
  const bool whole_pixels = channels % kDwStep == 0;
  if (p.depth_multiplier != 1 || channels > kDwMaxChannels ||
      !(whole_pixels || kDwStep % channels == 0)) {
    return false;
  }
  const size_t taps = static_cast<size_t>(p.filter_h) * static_cast<size_t>(p.filter_w);
  const size_t quads = (taps + 3) / 4;
  // The padded image covers every window of every output pixel.
  const int64_t padded_h = int64_t{p.output_h - 1} * p.stride_h + int64_t{p.filter_h - 1} * p.dilation_h + 1;
  const int64_t padded_w = int64_t{p.output_w - 1} * p.stride_w + int64_t{p.filter_w - 1} * p.dilation_w + 1;
  const size_t steps = whole_pixels ? channels / kDwStep : 1;  // per pixel, or per 64 / C pixels
  const auto limit = static_cast<int64_t>(kDwPaddedBytes);
  const int64_t stride = p.stride_w;
  if (4 * quads > kDwMaxTaps || steps * quads * 4 * kDwStep > kDwWeightBytes || padded_h > limit ||
      padded_w > limit || stride > limit) {
    return false;
  }
  const int64_t phases = whole_pixels ? 1 : stride;  // a step of whole pixels reads one pixel
  const int64_t phase_w = (padded_w + phases - 1) / phases;  // columns of a phase
  const int64_t padded_row = phases * phase_w * static_cast<int64_t>(channels);
  if (padded_row * padded_h > limit) return false;
  alignas(64) uint8_t padded[kDwPaddedBytes];
  alignas(64) int8_t arranged[kDwWeightBytes];
  alignas(64) int32_t arranged_bias[kDwMaxChannels];
  alignas(64) int32_t arranged_multiplier[kDwMaxChannels];
  alignas(64) int32_t arranged_shift[kDwMaxChannels];
  ArrangeWeights(p, weight, bias, steps, quads, arranged, arranged_bias, arranged_multiplier, arranged_shift);
  const auto row_bytes = static_cast<size_t>(padded_row);
  size_t tap_offset[kDwMaxTaps];  // bytes from a window's first tap; the padding taps read the first
  for (size_t t = 0; t < 4 * quads; ++t) {
    const size_t ky = t < taps ? t / static_cast<size_t>(p.filter_w) : 0;
    const size_t kx = t < taps ? t % static_cast<size_t>(p.filter_w) : 0;
    const size_t column = kx * static_cast<size_t>(p.dilation_w);
    const size_t in_phase =
        column % static_cast<size_t>(phases) * static_cast<size_t>(phase_w) + column / static_cast<size_t>(phases);
    tap_offset[t] = ky * static_cast<size_t>(p.dilation_h) * row_bytes + in_phase * channels;
  }
  const size_t image_bytes = static_cast<size_t>(p.input_h) * p.input_w * channels;
  const size_t pixels_a_step = whole_pixels ? 1 : kDwStep / channels;
  const size_t window_step = static_cast<size_t>(stride / phases) * channels;  // from a window to the next
  const hn::Full512<int32_t> d;
  const auto output_offset = hn::Set(d, p.output_offset);
  const auto low = hn::Set(d, p.activation_min);
  const auto high = hn::Set(d, p.activation_max);
  for (int32_t n = 0; n < p.batches; ++n) {
    const int8_t* image = input + static_cast<size_t>(n) * image_bytes;
    PadFlippedImage(p, image, padded_h, padded_w, phases, phase_w, row_bytes, padded);
    for (int32_t oy = 0; oy < p.output_h; ++oy) {
      const uint8_t* window_row = padded + static_cast<size_t>(oy) * p.stride_h * row_bytes;
      int8_t* out_row = out + (static_cast<size_t>(n) * p.output_h + oy) * p.output_w * channels;
      int32_t ox = 0;
      for (; ox + static_cast<int32_t>(pixels_a_step) <= p.output_w; ox += static_cast<int32_t>(pixels_a_step)) {
        const uint8_t* window = window_row + static_cast<size_t>(ox) * window_step;
        int8_t* pixels = out_row + static_cast<size_t>(ox) * channels;
        for (size_t step = 0; step < steps; ++step) {
          const size_t s0 = step * kDwStep;
          __m512i acc[4];
          for (size_t k = 0; k < 4; ++k) acc[k] = _mm512_load_si512(arranged_bias + s0 + 16 * k);
          const int8_t* w = arranged + step * quads * 4 * 64;
          for (size_t q = 0; q < quads; ++q, w += 4 * 64) {
            const __m512i v0 = _mm512_loadu_si512(window + tap_offset[4 * q] + s0);
            const __m512i v1 = _mm512_loadu_si512(window + tap_offset[4 * q + 1] + s0);
            const __m512i v2 = _mm512_loadu_si512(window + tap_offset[4 * q + 2] + s0);
            const __m512i v3 = _mm512_loadu_si512(window + tap_offset[4 * q + 3] + s0);
            const __m512i low01 = _mm512_unpacklo_epi8(v0, v1);
            const __m512i high01 = _mm512_unpackhi_epi8(v0, v1);
            const __m512i low23 = _mm512_unpacklo_epi8(v2, v3);
            const __m512i high23 = _mm512_unpackhi_epi8(v2, v3);
            acc[0] = _mm512_dpbusd_epi32(acc[0], _mm512_unpacklo_epi16(low01, low23), _mm512_load_si512(w));
            acc[1] = _mm512_dpbusd_epi32(acc[1], _mm512_unpackhi_epi16(low01, low23), _mm512_load_si512(w + 64));
            acc[2] = _mm512_dpbusd_epi32(acc[2], _mm512_unpacklo_epi16(high01, high23), _mm512_load_si512(w + 128));
            acc[3] = _mm512_dpbusd_epi32(acc[3], _mm512_unpackhi_epi16(high01, high23), _mm512_load_si512(w + 192));
          }
          __m512i result[4];
          for (size_t k = 0; k < 4; ++k) {
            const auto y = RequantPerLane(d, hn::Vec512<int32_t>{acc[k]}, hn::Load(d, arranged_multiplier + s0 + 16 * k),
                                          hn::Load(d, arranged_shift + s0 + 16 * k));
            result[k] = hn::Min(hn::Max(WrappingAdd(d, y, output_offset), low), high).raw;
          }
          const __m512i words_low = _mm512_packs_epi32(result[0], result[1]);
          const __m512i words_high = _mm512_packs_epi32(result[2], result[3]);
          _mm512_storeu_si512(pixels + s0, _mm512_packs_epi16(words_low, words_high));
        }
      }
      for (; ox < p.output_w; ++ox) {
        OnePixel(p, image, weight, bias, oy, ox, out_row + static_cast<size_t>(ox) * channels);
      }
    }
  }
  return true;
}
#endif  // HWY_TARGET == HWY_AVX3_DL

// Every output pixel, unless the VNNI path takes the shape.
void DepthwiseConv2dS8(const DepthwiseConv2dParams& p, const int8_t* input, const int8_t* weight,
                       const int32_t* bias, int8_t* out) {
  const size_t channels = static_cast<size_t>(p.output_c);
#if HWY_TARGET == HWY_AVX3_DL
  if (DepthwiseVnni(p, input, weight, bias, out)) return;
#endif
#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR
  if (DepthwisePadded(p, input, weight, bias, out)) return;
#endif
  for (int32_t n = 0; n < p.batches; ++n) {
    const int8_t* image = input + static_cast<size_t>(n) * p.input_h * p.input_w * p.input_c;
    for (int32_t oy = 0; oy < p.output_h; ++oy) {
      for (int32_t ox = 0; ox < p.output_w; ++ox) {
        OnePixel(p, image, weight, bias, oy, ox,
                 out + ((static_cast<size_t>(n) * p.output_h + oy) * p.output_w + ox) * channels);
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
