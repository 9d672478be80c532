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
#include "kernels/common/pad_image_hwy.h"
#include "kernels/common/requantize_hwy.h"

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

// The output stage of one block of output channels [oc0, oc0 + count), at
// most kMaxLanes, for the paths that sum whole vectors of channels: each
// pixel's int32 sums requantised with the channels' factors (copied once, 0
// past count), offset, clamped and stored. Whole vectors are stored in place;
// the last count % lanes bytes go through `bytes` (a library memcpy per pixel
// cost more than the requantisation).
template <size_t kMaxLanes>
struct BlockOutput {
  BlockOutput(const Conv2dParams& p, int32_t first, int32_t channels) : oc0(first), count(channels) {
    std::copy_n(p.multipliers + oc0, count, multipliers);
    std::copy_n(p.shifts + oc0, count, shifts);
  }

  // `sums`: the pixel's kVectors vectors, ceil(count / lanes); `pixel`: its
  // output. The vector count is a constant so the loop unrolls.
  template <int kVectors>
  HWY_INLINE void Store(const Conv2dParams& p, const int32_t* sums, int8_t* pixel) {
    const hn::ScalableTag<int32_t> d32;
    const hn::Rebind<int8_t, decltype(d32)> d8;
    const size_t lanes = hn::Lanes(d32);
    const size_t n = static_cast<size_t>(count);
    const size_t whole = n / lanes * lanes;
    const auto output_offset = hn::Set(d32, p.output_offset);
    const auto low = hn::Set(d32, p.activation_min);
    const auto high = hn::Set(d32, p.activation_max);
    int8_t* dst = pixel + oc0;
    for (int v = 0; v < kVectors; ++v) {
      const size_t lane = static_cast<size_t>(v) * lanes;
      const auto y = RequantPerLane(d32, hn::Load(d32, sums + lane), hn::Load(d32, multipliers + lane),
                                    hn::Load(d32, shifts + lane));
      const auto clamped = hn::Min(hn::Max(WrappingAdd(d32, y, output_offset), low), high);
      if (lane < whole) {
        hn::StoreU(hn::DemoteTo(d8, clamped), d8, dst + lane);
      } else {
        hn::Store(hn::DemoteTo(d8, clamped), d8, bytes + lane);
      }
    }
    if (whole < n) std::memcpy(dst + whole, bytes + whole, n - whole);
  }

  int32_t oc0, count;
  HWY_ALIGN int32_t multipliers[kMaxLanes] = {};
  HWY_ALIGN int32_t shifts[kMaxLanes] = {};
  HWY_ALIGN int8_t bytes[kMaxLanes];
};

#if HWY_TARGET == HWY_AVX3_DL
// AVX-512 VNNI (Highway's AVX3_DL target implies it; Highway 1.0.3 has no
// operation for it, so these few lines are intrinsics): vpdpbusd multiplies
// 4 unsigned bytes by 4 signed bytes and adds the four products to an int32
// lane, 64 multiply-adds an instruction. The output channels are the 16
// lanes; each lane holds 4 consecutive window elements of its channel's
// weights, and the window's 4 bytes are broadcast to every lane.
//
// The input is signed, so it goes in as in ^ 0x80 = in + 128 (unsigned) and
// the sum is corrected per channel, modulo 2^32 as the reference wraps:
//   sum (in + input_offset) * w = sum (in + 128) * w + (input_offset - 128) * sum w.
// The image is copied once per call, flipped so, into a padded image whose
// border holds the flipped input zero point (-input_offset, an int8 as
// validated at load): there (in + input_offset) is 0, as the reference skips
// those taps, and every window reads in bounds without a test. Products of
// 4 bytes add to at most 4 * 255 * 128 and the lanes add wrapping, so nothing
// saturates.

constexpr size_t kVnniLanes = 16;
// Stack buffers: the weights repacked per block of 64 channels as
// [k / 4][vector][lane][4], and the padded image.
constexpr size_t kVnniPackedBytes = 64 * 1024;
constexpr size_t kVnniImageBytes = 64 * 1024;
constexpr size_t kVnniMaxChannels = 2048;

// The padded, flipped image of one batch: (padded row, padded column) =
// (iy + pad_h, ix + pad_w), rows of row_bytes, pixels of input_c bytes (or,
// for one group of a channel count not a multiple of 4, whole words);
// `data` points at the group's first channel.
struct VnniImage {
  const uint8_t* data;
  int32_t words;  // 4-byte words of a window's pixel: filter_c / 4, rounded up
  size_t row_bytes;
  size_t step_h, step_w;          // one output pixel down, across
  size_t dilation_h, dilation_w;  // one tap down, across
};

// The sums of `kVectors` * 16 output channels for `kPixels` pixels of one
// output row, starting at (oy, ox), each from `start` (the channels'
// correction and bias). The pixel and vector loops are unrolled so the
// accumulators stay in registers.
template <int kVectors, int kPixels>
ETNS_VNNI_ATTR void VnniPixels(const Conv2dParams& p, const VnniImage& image, const uint8_t* packed,
                               const uint32_t* start, int32_t oy, int32_t ox, uint32_t* sums) {
  __m512i acc[kPixels][kVectors];
#pragma GCC unroll 8
  for (int i = 0; i < kPixels; ++i) {
#pragma GCC unroll 8
    for (int v = 0; v < kVectors; ++v) acc[i][v] = _mm512_loadu_si512(start + v * kVnniLanes);
  }
  const uint8_t* weights = packed;
  const uint8_t* corner = image.data + static_cast<size_t>(oy) * image.step_h + static_cast<size_t>(ox) * image.step_w;
  for (int32_t ky = 0; ky < p.filter_h; ++ky) {
    for (int32_t kx = 0; kx < p.filter_w; ++kx) {
      const uint8_t* tap = corner + static_cast<size_t>(ky) * image.dilation_h + static_cast<size_t>(kx) * image.dilation_w;
      for (int32_t c4 = 0; c4 < image.words; ++c4) {
        __m512i wv[kVectors];
#pragma GCC unroll 8
        for (int v = 0; v < kVectors; ++v) wv[v] = _mm512_load_si512(weights + 64 * v);
        weights += 64 * kVectors;
#pragma GCC unroll 8
        for (int i = 0; i < kPixels; ++i) {
          int32_t bytes;
          std::memcpy(&bytes, tap + static_cast<size_t>(i) * image.step_w + 4 * static_cast<size_t>(c4), sizeof(bytes));
          const __m512i x = _mm512_set1_epi32(bytes);
#pragma GCC unroll 8
          for (int v = 0; v < kVectors; ++v) acc[i][v] = _mm512_dpbusd_epi32(acc[i][v], x, wv[v]);
        }
      }
    }
  }
#pragma GCC unroll 8
  for (int i = 0; i < kPixels; ++i) {
#pragma GCC unroll 8
    for (int v = 0; v < kVectors; ++v) {
      _mm512_storeu_si512(sums + (static_cast<size_t>(i) * kVectors + v) * kVnniLanes, acc[i][v]);
    }
  }
}

// Packs output channels [oc0, oc0 + count) of the OHWI weights, rows of
// k_total bytes (a multiple of 4), into [k / 4][vector][lane][4] with
// `vectors` vectors per step (channels past count 0): one gather of 16 rows'
// 4 bytes a step. Also sets weight_sums[0, count) to each row's sum, by the
// same vpdpbusd against unsigned 1s.
ETNS_VNNI_ATTR void VnniPack(const int8_t* weight, size_t k_total, int32_t oc0, int32_t count, int32_t vectors,
                             uint8_t* packed, uint32_t* weight_sums) {
  const __m512i ones = _mm512_set1_epi8(1);
  const int32_t row_words = static_cast<int32_t>(k_total / 4);
  const __m512i rows = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                          _mm512_set1_epi32(row_words));
  for (int32_t v = 0; v < vectors; ++v) {
    const int32_t first = v * static_cast<int32_t>(kVnniLanes);
    const int32_t here = std::min<int32_t>(static_cast<int32_t>(kVnniLanes), count - first);
    const __mmask16 present = static_cast<__mmask16>((1u << here) - 1);
    const int8_t* base = weight + static_cast<size_t>(oc0 + first) * k_total;
    __m512i sums = _mm512_setzero_si512();
    for (int32_t k4 = 0; k4 < row_words; ++k4) {
      const __m512i words =
          _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), present, rows, base + 4 * static_cast<size_t>(k4), 4);
      _mm512_store_si512(packed + (static_cast<size_t>(k4) * vectors + v) * 64, words);
      sums = _mm512_dpbusd_epi32(sums, ones, words);
    }
    alignas(64) uint32_t lanes[kVnniLanes];
    _mm512_store_si512(lanes, sums);
    for (int32_t j = 0; j < here; ++j) weight_sums[first + j] = lanes[j];
  }
}

// VnniPack for input channels not a multiple of 4 (one group): each tap's
// channels padded with 0 weights to whole words (a first layer's few hundred
// bytes). The block is zeroed, then each present channel's row is read in
// order and its bytes placed: with a test per byte, this packing took half a
// 10x4 one-channel layer's time.
void VnniPackPadded(const Conv2dParams& p, const int8_t* weight, int32_t oc0, int32_t count, int32_t vectors,
                    int32_t words, uint8_t* packed, uint32_t* weight_sums) {
  const size_t taps = static_cast<size_t>(p.filter_h) * p.filter_w;
  const size_t channels = static_cast<size_t>(p.filter_c);
  const size_t k_total = taps * channels;
  const size_t lanes = static_cast<size_t>(vectors) * kVnniLanes;
  const size_t word_step = 4 * lanes;  // one word of every lane
  std::memset(packed, 0, taps * static_cast<size_t>(words) * word_step);
  for (size_t lane = 0; lane < static_cast<size_t>(count); ++lane) {
    const int8_t* row = weight + (static_cast<size_t>(oc0) + lane) * k_total;
    uint32_t sum = 0;
    for (size_t tap = 0; tap < taps; ++tap) {
      uint8_t* dst = packed + tap * static_cast<size_t>(words) * word_step + 4 * lane;
      for (size_t c = 0; c < channels; ++c) {
        const uint8_t byte = static_cast<uint8_t>(row[tap * channels + c]);
        dst[(c / 4) * word_step + c % 4] = byte;
        sum += static_cast<uint32_t>(static_cast<int8_t>(byte));
      }
    }
    weight_sums[lane] = sum;
  }
}

// One block of output channels [oc0, oc0 + count) (count at most kVectors *
// 16, one group) over every output pixel of one batch. The requantisation
// takes whole vectors, its factors copied once per call with the lanes past
// count 0, and stores only the count bytes.
template <int kVectors, int kPixels>
void VnniBlock(const Conv2dParams& p, const VnniImage& image, const uint8_t* packed, const uint32_t* correction,
               int32_t oc0, int32_t count, int8_t* out_image) {
  constexpr size_t kLanes = kVectors * kVnniLanes;
  BlockOutput<kLanes> output(p, oc0, count);
  HWY_ALIGN uint32_t sums[kPixels * kLanes];
  const auto finish = [&](int8_t* first_pixel, int32_t pixels) {
    for (int32_t i = 0; i < pixels; ++i) {
      // The sums wrapped as uint32; read as int32, the same bits.
      const auto* pixel_sums = reinterpret_cast<const int32_t*>(sums + static_cast<size_t>(i) * kLanes);
      output.template Store<kVectors>(p, pixel_sums, first_pixel + static_cast<size_t>(i) * p.output_c);
    }
  };
  for (int32_t oy = 0; oy < p.output_h; ++oy) {
    int8_t* row = out_image + static_cast<size_t>(oy) * p.output_w * p.output_c;
    int32_t ox = 0;
    for (; ox + kPixels <= p.output_w; ox += kPixels) {
      VnniPixels<kVectors, kPixels>(p, image, packed, correction, oy, ox, sums);
      finish(row + static_cast<size_t>(ox) * p.output_c, kPixels);
    }
    // A short row's pixels (DS-CNN's first layer has 5) four at a time.
    if constexpr (kPixels > 4) {
      for (; ox + 4 <= p.output_w; ox += 4) {
        VnniPixels<kVectors, 4>(p, image, packed, correction, oy, ox, sums);
        finish(row + static_cast<size_t>(ox) * p.output_c, 4);
      }
    }
    for (; ox < p.output_w; ++ox) {
      VnniPixels<kVectors, 1>(p, image, packed, correction, oy, ox, sums);
      finish(row + static_cast<size_t>(ox) * p.output_c, 1);
    }
  }
}

// Copies one batch's image into `padded` (padded_h rows of padded_w pixels of
// pixel_bytes, input_c or more), flipped to unsigned, with the flipped zero
// point outside the image: row by row, the part inside the image one run when
// pixels keep their size, else pixel by pixel (the bytes past input_c meet 0
// weights; they hold the border value).
void VnniPadImage(const Conv2dParams& p, const int8_t* image, int64_t padded_h, int64_t padded_w, size_t pixel_bytes,
                  uint8_t* padded) {
  const hn::ScalableTag<uint8_t> d8;
  const size_t lanes = hn::Lanes(d8);
  const auto flip = hn::Set(d8, uint8_t{0x80});
  const size_t channels = static_cast<size_t>(p.input_c);
  const size_t row_bytes = static_cast<size_t>(padded_w) * pixel_bytes;
  const uint8_t border = static_cast<uint8_t>(static_cast<uint8_t>(-p.input_offset) ^ 0x80u);
  // The padded columns inside the image: [left, right).
  const int64_t left = std::min<int64_t>(p.pad_w, padded_w);
  const int64_t right = std::max<int64_t>(left, std::min<int64_t>(p.pad_w + int64_t{p.input_w}, padded_w));
  const size_t inside = static_cast<size_t>(right - left) * channels;
  for (int64_t py = 0; py < padded_h; ++py) {
    uint8_t* dst = padded + static_cast<size_t>(py) * row_bytes;
    const int64_t iy = py - p.pad_h;
    std::fill_n(dst, row_bytes, border);
    if (iy < 0 || iy >= p.input_h || inside == 0) continue;
    const uint8_t* src = reinterpret_cast<const uint8_t*>(image) + static_cast<size_t>(iy) * p.input_w * channels;
    uint8_t* run = dst + static_cast<size_t>(left) * pixel_bytes;
    if (pixel_bytes == 4 && channels < 4) {  // a first layer's 1 to 3 channels: one word a pixel
      for (int64_t px = left; px < right; ++px, run += 4, src += channels) {
        for (size_t c = 0; c < 4; ++c) run[c] = c < channels ? static_cast<uint8_t>(src[c] ^ 0x80u) : border;
      }
      continue;
    }
    if (pixel_bytes != channels) {
      for (int64_t px = left; px < right; ++px, run += pixel_bytes, src += channels) {
        for (size_t c = 0; c < channels; ++c) run[c] = static_cast<uint8_t>(src[c] ^ 0x80u);
      }
      continue;
    }
    size_t i = 0;
    for (; i + lanes <= inside; i += lanes) hn::StoreU(hn::Xor(hn::LoadU(d8, src + i), flip), d8, run + i);
    for (; i < inside; ++i) run[i] = static_cast<uint8_t>(src[i] ^ 0x80u);
  }
}

// Returns false, doing nothing, for what this path does not take: groups
// whose input channels are not a multiple of 4, or repacked weights or the
// padded image past their stack buffers. One group of other channel counts
// (a first layer's 1 or 3) has its pixels padded to whole words.
bool Conv2dS8Vnni(const Conv2dParams& p, const int8_t* input, const int8_t* weight, const int32_t* bias,
                  int8_t* out) {
  const int32_t groups = p.input_c / p.filter_c;
  if (p.filter_c % 4 != 0 && groups != 1) return false;
  const int32_t per_group = p.output_c / groups;
  const int32_t words = (p.filter_c + 3) / 4;
  const size_t pixel_bytes = p.filter_c % 4 == 0 ? static_cast<size_t>(p.input_c) : 4 * static_cast<size_t>(words);
  const size_t k_total = static_cast<size_t>(p.filter_h) * p.filter_w * 4 * static_cast<size_t>(words);
  // A block is at most 4 vectors of channels.
  const size_t vectors = std::min<size_t>(4, (static_cast<size_t>(per_group) + kVnniLanes - 1) / kVnniLanes);
  // The padded image spans every tap any output pixel reads.
  const int64_t padded_h = int64_t{p.output_h - 1} * p.stride_h + int64_t{p.filter_h - 1} * p.dilation_h + 1;
  const int64_t padded_w = int64_t{p.output_w - 1} * p.stride_w + int64_t{p.filter_w - 1} * p.dilation_w + 1;
  if (k_total * vectors * kVnniLanes > kVnniPackedBytes || static_cast<size_t>(p.output_c) > kVnniMaxChannels ||
      padded_h * padded_w > static_cast<int64_t>(kVnniImageBytes / pixel_bytes)) {
    return false;
  }
  alignas(64) uint8_t packed[kVnniPackedBytes];
  alignas(64) uint8_t padded[kVnniImageBytes];
  // Per channel, (input_offset - 128) * sum w + bias; a block's last vector
  // may read past output_c (lanes that are dropped).
  uint32_t correction[kVnniMaxChannels + 4 * kVnniLanes] = {};
  const uint32_t offset_correction = static_cast<uint32_t>(p.input_offset - 128);
  const size_t row_bytes = static_cast<size_t>(padded_w) * pixel_bytes;
  const size_t image_bytes = static_cast<size_t>(p.input_h) * p.input_w * p.input_c;
  const size_t out_bytes = static_cast<size_t>(p.output_h) * p.output_w * p.output_c;
  for (int32_t n = 0; n < p.batches; ++n) {
    VnniPadImage(p, input + n * image_bytes, padded_h, padded_w, pixel_bytes, padded);
    for (int32_t g = 0; g < groups; ++g) {
      const VnniImage image{padded + static_cast<size_t>(g) * p.filter_c,
                            words,
                            row_bytes,
                            static_cast<size_t>(p.stride_h) * row_bytes,
                            static_cast<size_t>(p.stride_w) * pixel_bytes,
                            static_cast<size_t>(p.dilation_h) * row_bytes,
                            static_cast<size_t>(p.dilation_w) * pixel_bytes};
      for (int32_t first = 0; first < per_group; first += 4 * kVnniLanes) {
        const int32_t oc0 = g * per_group + first;
        const int32_t count = std::min<int32_t>(4 * kVnniLanes, per_group - first);
        const int32_t block_vectors = (count + kVnniLanes - 1) / kVnniLanes;
        // Repacked per batch: a second batch is rare, and the stack holds one block.
        if (p.filter_c % 4 == 0) {
          VnniPack(weight, k_total, oc0, count, block_vectors, packed, correction + oc0);
        } else {
          VnniPackPadded(p, weight, oc0, count, block_vectors, words, packed, correction + oc0);
        }
        for (int32_t j = oc0; j < oc0 + count; ++j) {
          correction[j] = offset_correction * correction[j] + (bias != nullptr ? static_cast<uint32_t>(bias[j]) : 0u);
        }
        int8_t* out_image = out + n * out_bytes;
        const uint32_t* block_correction = correction + oc0;
        switch (block_vectors) {
          case 1:
            VnniBlock<1, 8>(p, image, packed, block_correction, oc0, count, out_image);
            break;
          case 2:
            VnniBlock<2, 8>(p, image, packed, block_correction, oc0, count, out_image);
            break;
          case 3:
            VnniBlock<3, 4>(p, image, packed, block_correction, oc0, count, out_image);
            break;
          default:
            VnniBlock<4, 4>(p, image, packed, block_correction, oc0, count, out_image);
            break;
        }
      }
    }
  }
  return true;
}
#undef ETNS_VNNI_ATTR
#endif  // HWY_TARGET == HWY_AVX3_DL

#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR
// Int16 pairs, for the x86 targets without VNNI (AVX3, AVX2, SSE4, SSSE3):
// the VNNI path's shape with a pair of window elements per lane where VNNI
// takes 4. vpmaddwd (ReorderWidenMulAccumulate on x86, each int32 lane the sum
// of its two int16 products) multiplies 2 * lanes pairs an instruction. The
// output channels are the lanes; each lane holds 2 consecutive window
// elements of its channel's weights, as int16, and the window's pair, (in +
// input_offset) as int16, is broadcast to every lane. The image is copied
// once per call so widened, into a padded image whose border is 0, as the
// reference skips those taps. A pair's products add to at most 2 * 255 * 128,
// and the lanes add wrapping from the bias, as the reference's sum wraps.

// The padded image of one batch, in int16 elements: (padded row, padded
// column) = (iy + pad_h, ix + pad_w); `data` points at the group's first
// channel.
struct PairsImage {
  const int16_t* data;
  int32_t words;                  // channel pairs of a window's pixel: filter_c / 2, rounded up
  size_t step_h, step_w;          // one output pixel down, across
  size_t dilation_h, dilation_w;  // one tap down, across
};

// Registers: AVX-512 has 32, the others 16, which bound the accumulators
// (vectors x pixels) beside the weight vectors.
#if HWY_TARGET <= HWY_AVX3
constexpr int kPairsPixels[5] = {0, 8, 8, 4, 4};
#else
constexpr int kPairsPixels[5] = {0, 8, 4, 3, 2};
#endif
constexpr int32_t kPairsMaxVectors = 4;

// The sums of `kVectors` vectors of output channels for `kPixels` pixels of
// one output row from (oy, ox), each from `start` (the channels' bias).
template <int kVectors, int kPixels>
HWY_INLINE void PairsPixels(const Conv2dParams& p, const PairsImage& image, const int16_t* packed,
                            const int32_t* start, int32_t oy, int32_t ox, int32_t* sums) {
  const hn::ScalableTag<int32_t> d32;
  const hn::Repartition<int16_t, decltype(d32)> d16;
  const size_t lanes = hn::Lanes(d32);
  using V = hn::Vec<decltype(d32)>;
  V acc[kPixels][kVectors];
  V odd = hn::Zero(d32);  // ReorderWidenMulAccumulate's second sum: unused on x86
#pragma GCC unroll 8
  for (int i = 0; i < kPixels; ++i) {
#pragma GCC unroll 8
    for (int v = 0; v < kVectors; ++v) acc[i][v] = hn::Load(d32, start + v * lanes);
  }
  const int16_t* weights = packed;
  const int16_t* corner = image.data + static_cast<size_t>(oy) * image.step_h + static_cast<size_t>(ox) * image.step_w;
  for (int32_t ky = 0; ky < p.filter_h; ++ky) {
    for (int32_t kx = 0; kx < p.filter_w; ++kx) {
      const int16_t* tap =
          corner + static_cast<size_t>(ky) * image.dilation_h + static_cast<size_t>(kx) * image.dilation_w;
      for (int32_t c2 = 0; c2 < image.words; ++c2) {
        hn::Vec<decltype(d16)> wv[kVectors];
#pragma GCC unroll 8
        for (int v = 0; v < kVectors; ++v) wv[v] = hn::LoadU(d16, weights + 2 * lanes * v);
        weights += 2 * lanes * kVectors;
#pragma GCC unroll 8
        for (int i = 0; i < kPixels; ++i) {
          int32_t pair;
          std::memcpy(&pair, tap + static_cast<size_t>(i) * image.step_w + 2 * static_cast<size_t>(c2), sizeof(pair));
          const auto x = hn::BitCast(d16, hn::Set(d32, pair));
#pragma GCC unroll 8
          for (int v = 0; v < kVectors; ++v) acc[i][v] = hn::ReorderWidenMulAccumulate(d32, x, wv[v], acc[i][v], odd);
        }
      }
    }
  }
#pragma GCC unroll 8
  for (int i = 0; i < kPixels; ++i) {
#pragma GCC unroll 8
    for (int v = 0; v < kVectors; ++v) {
      int32_t* dst = sums + (static_cast<size_t>(i) * kVectors + v) * lanes;
      hn::Store(hn::RearrangeToOddPlusEven(acc[i][v], odd), d32, dst);
    }
  }
}

// One block of output channels [oc0, oc0 + count) (at most kVectors vectors,
// one group) over every output pixel of one batch.
template <int kVectors>
void PairsBlock(const Conv2dParams& p, const PairsImage& image, const int16_t* packed, const int32_t* start,
                int32_t oc0, int32_t count, int8_t* out_image) {
  constexpr int kPixels = kPairsPixels[kVectors];
  constexpr size_t kMaxLanes = kVectors * HWY_MAX_BYTES / sizeof(int32_t);
  const size_t lanes = hn::Lanes(hn::ScalableTag<int32_t>());
  BlockOutput<kMaxLanes> output(p, oc0, count);
  HWY_ALIGN int32_t sums[kPixels * kMaxLanes];
  const auto finish = [&](int8_t* first_pixel, int32_t pixels) {
    for (int32_t i = 0; i < pixels; ++i) {
      const int32_t* pixel_sums = sums + static_cast<size_t>(i) * kVectors * lanes;
      output.template Store<kVectors>(p, pixel_sums, first_pixel + static_cast<size_t>(i) * p.output_c);
    }
  };
  for (int32_t oy = 0; oy < p.output_h; ++oy) {
    int8_t* row = out_image + static_cast<size_t>(oy) * p.output_w * p.output_c;
    int32_t ox = 0;
    for (; ox + kPixels <= p.output_w; ox += kPixels) {
      PairsPixels<kVectors, kPixels>(p, image, packed, start, oy, ox, sums);
      finish(row + static_cast<size_t>(ox) * p.output_c, kPixels);
    }
    // A short row's pixels (DS-CNN's first layer has 5) four at a time.
    if constexpr (kPixels > 4) {
      for (; ox + 4 <= p.output_w; ox += 4) {
        PairsPixels<kVectors, 4>(p, image, packed, start, oy, ox, sums);
        finish(row + static_cast<size_t>(ox) * p.output_c, 4);
      }
    }
    for (; ox < p.output_w; ++ox) {
      PairsPixels<kVectors, 1>(p, image, packed, start, oy, ox, sums);
      finish(row + static_cast<size_t>(ox) * p.output_c, 1);
    }
  }
}

// Packs output channels [oc0, oc0 + count) of the OHWI weights into
// [tap][word][vector][lane][2] int16, `vectors` vectors a step, 0 past count
// and past a tap's filter_c channels. This runs on every call: the stores go
// in order, a 32-bit pair each, and the rows are read across (a row's line
// serves 32 steps); written a row at a time, or byte by byte with tests, it
// took a third of a 3x3x64 layer's time.
void PairsPack(const Conv2dParams& p, const int8_t* weight, int32_t oc0, int32_t count, int32_t vectors,
               int32_t words, size_t lanes, int16_t* packed) {
  const size_t taps = static_cast<size_t>(p.filter_h) * p.filter_w;
  const size_t channels = static_cast<size_t>(p.filter_c);
  const size_t k_total = taps * channels;
  const size_t block_lanes = static_cast<size_t>(vectors) * lanes;
  const size_t present = static_cast<size_t>(count);
  const int8_t* rows = weight + static_cast<size_t>(oc0) * k_total;
  uint32_t step[kPairsMaxVectors * HWY_MAX_BYTES / sizeof(int32_t)] = {};
  // One word of every lane: channel pair (c, c + 1) of `tap`, or (c, 0) for
  // the last of an odd count.
  const auto put = [&](size_t k, bool last_odd) {
    for (size_t lane = 0; lane < present; ++lane) {
      const int8_t* row = rows + lane * k_total + k;
      const int16_t high = last_odd ? int16_t{0} : int16_t{row[1]};
      step[lane] = static_cast<uint32_t>(static_cast<uint16_t>(int16_t{row[0]})) |
                   (static_cast<uint32_t>(static_cast<uint16_t>(high)) << 16);
    }
    std::memcpy(packed, step, block_lanes * sizeof(uint32_t));
    packed += 2 * block_lanes;
  };
  if (channels % 2 == 0) {
    for (size_t k = 0; k < k_total; k += 2) put(k, false);
    return;
  }
  for (size_t tap = 0; tap < taps; ++tap) {
    for (size_t word = 0; word < static_cast<size_t>(words); ++word) {
      put(tap * channels + 2 * word, 2 * word + 1 == channels);
    }
  }
}

// Returns false, doing nothing, for groups of an odd input channel count (one
// group of an odd count has its pixels padded with a 0 element), and for an
// image whose padded copy would pass kPairsMaxImage elements.
constexpr int64_t kPairsMaxImage = int64_t{1} << 24;

bool Conv2dS8Pairs(const Conv2dParams& p, const int8_t* input, const int8_t* weight, const int32_t* bias,
                   int8_t* out) {
  const int32_t groups = p.input_c / p.filter_c;
  if (p.filter_c % 2 != 0 && groups != 1) return false;
  const hn::ScalableTag<int32_t> d32;
  const size_t lanes = hn::Lanes(d32);
  const int32_t per_group = p.output_c / groups;
  const int32_t words = (p.filter_c + 1) / 2;
  const size_t pixel_elems = p.filter_c % 2 == 0 ? static_cast<size_t>(p.input_c) : 2 * static_cast<size_t>(words);
  const int64_t padded_h = int64_t{p.output_h - 1} * p.stride_h + int64_t{p.filter_h - 1} * p.dilation_h + 1;
  const int64_t padded_w = int64_t{p.output_w - 1} * p.stride_w + int64_t{p.filter_w - 1} * p.dilation_w + 1;
  // Each side first, so the product cannot overflow (an empty output has none).
  if (padded_h <= 0 || padded_w <= 0 || padded_h > kPairsMaxImage || padded_w > kPairsMaxImage ||
      padded_h * padded_w > kPairsMaxImage / static_cast<int64_t>(pixel_elems)) {
    return false;
  }
  const size_t taps = static_cast<size_t>(p.filter_h) * p.filter_w;
  const size_t vectors = std::min<size_t>(kPairsMaxVectors, (static_cast<size_t>(per_group) + lanes - 1) / lanes);
  // Host memory, kept per thread: the padded image and one block's weights.
  thread_local std::vector<int16_t> padded;
  thread_local std::vector<int16_t> packed;
  padded.resize(static_cast<size_t>(padded_h * padded_w) * pixel_elems);
  packed.resize(taps * static_cast<size_t>(words) * vectors * 2 * lanes);
  HWY_ALIGN int32_t start[kPairsMaxVectors * HWY_MAX_BYTES / sizeof(int32_t)];
  const size_t row_elems = static_cast<size_t>(padded_w) * pixel_elems;
  const size_t image_bytes = static_cast<size_t>(p.input_h) * p.input_w * p.input_c;
  const size_t out_bytes = static_cast<size_t>(p.output_h) * p.output_w * p.output_c;
  for (int32_t n = 0; n < p.batches; ++n) {
    kernels::HWY_NAMESPACE::PadImageInt16({p.input_h, p.input_w, p.input_c, p.pad_h, p.pad_w, p.input_offset},
                                          input + n * image_bytes, padded_h, padded_w, pixel_elems, padded.data());
    for (int32_t g = 0; g < groups; ++g) {
      const PairsImage image{padded.data() + static_cast<size_t>(g) * p.filter_c,
                             words,
                             static_cast<size_t>(p.stride_h) * row_elems,
                             static_cast<size_t>(p.stride_w) * pixel_elems,
                             static_cast<size_t>(p.dilation_h) * row_elems,
                             static_cast<size_t>(p.dilation_w) * pixel_elems};
      for (int32_t first = 0; first < per_group; first += kPairsMaxVectors * static_cast<int32_t>(lanes)) {
        const int32_t oc0 = g * per_group + first;
        const int32_t count = std::min<int32_t>(kPairsMaxVectors * static_cast<int32_t>(lanes), per_group - first);
        const int32_t block_vectors = (count + static_cast<int32_t>(lanes) - 1) / static_cast<int32_t>(lanes);
        PairsPack(p, weight, oc0, count, block_vectors, words, lanes, packed.data());
        for (size_t j = 0; j < static_cast<size_t>(block_vectors) * lanes; ++j) {
          start[j] = bias != nullptr && j < static_cast<size_t>(count) ? bias[oc0 + j] : 0;
        }
        int8_t* out_image = out + n * out_bytes;
        switch (block_vectors) {
          case 1:
            PairsBlock<1>(p, image, packed.data(), start, oc0, count, out_image);
            break;
          case 2:
            PairsBlock<2>(p, image, packed.data(), start, oc0, count, out_image);
            break;
          case 3:
            PairsBlock<3>(p, image, packed.data(), start, oc0, count, out_image);
            break;
          default:
            PairsBlock<4>(p, image, packed.data(), start, oc0, count, out_image);
            break;
        }
      }
    }
  }
  return true;
}
#endif  // x86 without VNNI

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
