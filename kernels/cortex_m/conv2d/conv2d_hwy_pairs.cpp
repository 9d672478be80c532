// conv2d's host SIMD path with int16 pairs, for x86 without VNNI (Highway, host
// only; see conv2d_hwy_block.h): compiled once per target by foreach_target.h,
// with code for the x86 targets below AVX3_DL.
#include <algorithm>
#include <cstring>

#include "kernels/common/requantize.h"
#include "kernels/cortex_m/conv2d/conv2d.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cortex_m/conv2d/conv2d_hwy_pairs.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/common/pad_image_hwy.h"
#include "kernels/common/requantize_hwy.h"
#include "kernels/cortex_m/conv2d/conv2d_hwy_block.h"

HWY_BEFORE_NAMESPACE();
namespace etns::cortex_m::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

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

}  // namespace etns::cortex_m::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
