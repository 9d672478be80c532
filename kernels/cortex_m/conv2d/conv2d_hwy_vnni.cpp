// conv2d's host SIMD path with AVX-512 VNNI byte dot products (Highway, host
// only; see conv2d_hwy_block.h): compiled once per target by foreach_target.h,
// with code for AVX3_DL only.
#include <algorithm>
#include <cstring>

#include "kernels/common/requantize.h"
#include "kernels/cortex_m/conv2d/conv2d.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cortex_m/conv2d/conv2d_hwy_vnni.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/common/dot_hwy.h"
#include "kernels/common/requantize_hwy.h"
#include "kernels/cortex_m/conv2d/conv2d_hwy_block.h"

HWY_BEFORE_NAMESPACE();
namespace etns::cortex_m::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

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

}  // namespace etns::cortex_m::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
