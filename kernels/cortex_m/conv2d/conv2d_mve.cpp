// Helium (MVE) variant of cortex_m::quantized_conv2d.out, bit-exact with
// conv2d_s8_ref (docs/numerics.md#conv2d explains why).
#include "kernels/cortex_m/conv2d/conv2d.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>
#endif

#include "kernels/common/requantize.h"
#include "kernels/common/requantize_mve.h"

namespace etns::cortex_m {
namespace {

using kernels::clamp_s32;
using kernels::Requant;
using kernels::requantize;

// Output pixels per pass: each weight vector loaded feeds four dot products.
constexpr int32_t kPixels = 4;
// Output channels per block: the accumulators of one block stay in scratch
// between filter rows, bounding it whatever the channel count.
constexpr int32_t kBlock = 64;
// Above this many bytes of row strips the per-pixel path runs instead, so the
// scratch stays small for any kernel (see Layout).
constexpr size_t kMaxStripBytes = 4096;

size_t round16(size_t n) { return (n + 15) & ~size_t{15}; }

enum class Mac { Taps, Slide3, Slide3C16, Row };

int64_t vectors16(int64_t bytes) { return (bytes + 15) / 16; }

// Row: with one group and no dilation along the row, a pixel's taps in one
// filter row are filter_w * filter_c adjacent input bytes, in the weight
// row's order, so the row is one long dot product. It needs fewer vectors
// than tap by tap when filter_c is small (a first layer's 1 or 3 channels).
Mac choose_mac(const Conv2dParams& p) {
  if (p.filter_c == p.input_c && p.dilation_w == 1 &&
      vectors16(int64_t{p.filter_w} * p.filter_c) < p.filter_w * vectors16(p.filter_c)) {
    return Mac::Row;
  }
  if (p.stride_w != 1 || p.dilation_w != 1 || p.filter_w != 3) return Mac::Taps;
  return p.filter_c == 16 && p.input_c == 16 ? Mac::Slide3C16 : Mac::Slide3;
}

// Window: Row's convolutions whose whole filter is at most this many bytes
// gather each output pixel's window into one run (im2col, padding as the
// input zero point) and take four pixels at a time, in any rows, with their
// accumulators in registers; a 1-channel 10x4 filter is 40 bytes.
constexpr int32_t kMaxWindowBytes = 256;

// Scratch, carved at 16-byte offsets from a 16-byte aligned base:
//   bias        int32[output_c]: bias + input_offset * sum(w), per call
//   acc         int32[min(kBlock, output_c)][4]: a block's accumulators, channel-major
//   transposed  int8[round16(output_c)][4]: a pass's outputs, channel-major
//   rows        const int8_t*[filter_h]: where each filter row's strip lives
//   strips      filter_h strips of `span` input columns, for rows touching padding
//   zero_points int8[round16(filter_c)] of the input zero point (per-pixel path)
// The window path keeps bias, transposed and
//   windows     int8[4][filter bytes]: four pixels' windows, gathered,
//               then int8[slices][4][16]: the same interleaved by 16-byte slice
struct Layout {
  bool window = false;  // whole windows, four pixels in registers (kMaxWindowBytes)
  bool quads = false;   // else the four-pixel path over row strips, else per pixel
  int32_t span = 0;    // input columns four adjacent pixels' taps cover
  size_t strip_bytes = 0;
  size_t bias = 0, acc = 0, transposed = 0, rows = 0, strips = 0, zero_points = 0, windows = 0;
  size_t window_bytes = 0;
  size_t total = 0;
};

Layout layout(const Conv2dParams& p) {
  Layout l;
  const int64_t filter_bytes = int64_t{p.filter_h} * p.filter_w * p.filter_c;
  if (choose_mac(p) == Mac::Row && filter_bytes <= kMaxWindowBytes) {
    l.window = true;
    size_t at = round16(static_cast<size_t>(p.output_c) * sizeof(int32_t));
    l.transposed = at;
    at += round16(static_cast<size_t>(p.output_c)) * kPixels;
    l.windows = at;
    l.window_bytes = round16(static_cast<size_t>(kPixels * filter_bytes));
    at += l.window_bytes + round16(static_cast<size_t>(filter_bytes)) * kPixels;
    l.total = at + 15;
    return l;
  }
  const int64_t span = int64_t{kPixels - 1} * p.stride_w +
                       int64_t{p.filter_w - 1} * p.dilation_w + 1;
  const int64_t strips = span * p.input_c * p.filter_h;
  const int64_t rows = int64_t{p.filter_h} * static_cast<int64_t>(kernels::kDevicePointerBytes);
  l.quads = strips + rows <= static_cast<int64_t>(kMaxStripBytes);
  size_t at = round16(static_cast<size_t>(p.output_c) * sizeof(int32_t));
  if (l.quads) {
    l.span = static_cast<int32_t>(span);
    l.strip_bytes = static_cast<size_t>(span) * static_cast<size_t>(p.input_c);
    l.acc = at;
    const int32_t block = p.output_c < kBlock ? p.output_c : kBlock;
    at += sizeof(int32_t) * kPixels * static_cast<size_t>(block);
    l.transposed = at;
    at += round16(static_cast<size_t>(p.output_c)) * kPixels;
    l.rows = at;
    at += round16(static_cast<size_t>(rows));
    l.strips = at;
    at += round16(static_cast<size_t>(strips));
  } else {
    l.zero_points = at;
    at += round16(static_cast<size_t>(p.filter_c));
  }
  l.total = at + 15;  // room to align the base
  return l;
}

#if ETNS_HAVE_MVE
// Of `count` input columns starting at column ix0 (negative: padding), the
// ones in the image are [begin, end); both are clamped to [0, count], so a
// padding wider than the run leaves it all padding.
struct Columns {
  int32_t begin, end;
};
Columns columns_in_image(int32_t ix0, int32_t count, int32_t input_w) {
  int32_t begin = ix0 < 0 ? -ix0 : 0;
  if (begin > count) begin = count;
  int32_t end = input_w - ix0 < count ? input_w - ix0 : count;
  if (end < begin) end = begin;
  return {begin, end};
}

// Sum of n int8 values, 16 per step, the tail predicated.
int32_t sum_s8(const int8_t* x, int32_t n) {
  int32_t sum = 0;
  for (; n >= 16; n -= 16, x += 16) sum = vaddvaq_s8(sum, vld1q_s8(x));
  if (n > 0) sum = vaddvaq_s8(sum, vldrbq_z_s8(x, vctp8q(static_cast<uint32_t>(n))));
  return sum;
}

// Copies n bytes, or fills them with `value`, 16 per step with predication.
inline __attribute__((always_inline)) void copy_s8(int8_t* dst, const int8_t* src, int32_t n) {
  for (; n > 0; n -= 16, dst += 16, src += 16) {
    const mve_pred16_t live = vctp8q(static_cast<uint32_t>(n));
    vstrbq_p_s8(dst, vldrbq_z_s8(src, live), live);
  }
}
inline __attribute__((always_inline)) void fill_s8(int8_t* dst, int8_t value, int32_t n) {
  const int8x16_t v = vdupq_n_s8(value);
  for (; n > 0; n -= 16, dst += 16) vstrbq_p_s8(dst, v, vctp8q(static_cast<uint32_t>(n)));
}

// acc += the dot product of a and b over n bytes.
inline __attribute__((always_inline)) int32_t dot_s8(int32_t acc, const int8_t* a,
                                                     const int8_t* b, int32_t n) {
  for (; n >= 16; n -= 16, a += 16, b += 16) acc = vmladavaq_s8(acc, vld1q_s8(a), vld1q_s8(b));
  if (n > 0) {
    const mve_pred16_t live = vctp8q(static_cast<uint32_t>(n));
    acc = vmladavaq_s8(acc, vldrbq_z_s8(a, live), vldrbq_z_s8(b, live));
  }
  return acc;
}

template <bool kTail>
inline __attribute__((always_inline)) int8x16_t load(const int8_t* x, mve_pred16_t live) {
  if constexpr (kTail) {
    return vldrbq_z_s8(x, live);
  } else {
    static_cast<void>(live);
    return vld1q_s8(x);
  }
}

// Dot-product passes over one 16-channel slice of one filter row for four
// pixels and a block of output channels. The input vectors are loaded once per
// slice and stay in Q registers while the channels' weights stream past; the
// four accumulators of each channel live in `acc` ([channel][pixel], int32)
// between slices and are moved through general registers, where VMLADAVA
// accumulates.

// Stride 1, dilation 1, 3-wide filter: pixel q's tap k reads input column
// q + k, so six column vectors x[0..5] serve all twelve (pixel, tap) pairs.
// With kC16 the weight's taps are 16 bytes apart (immediate offsets).
template <bool kC16, bool kTail>
inline __attribute__((always_inline)) void slide3_channels(int32_t* acc, int32_t count,
                                                           const int8_t* w, size_t w_stride,
                                                           int32_t filter_c, const int8x16_t* x,
                                                           mve_pred16_t live,
                                                           const int32_t* bias = nullptr) {
  const int8x16_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5];
  if constexpr (kC16 && !kTail) {
    // tier1's shape. Written out because GCC 12 spends 3 more instructions
    // per channel here (register copies, a dead add); "Te" is an even
    // register, as VMLADAVA's accumulator must be. count >= 1.
    static_cast<void>(filter_c);
    static_cast<void>(live);
    int32_t a0, a1, a2, a3;
    int8x16_t wv;
#define ETNS_CONV_SLIDE3_C16_LOOP(START)                                       \
    asm volatile(                                                              \
        "dls lr, %[n]\n"                                                       \
        "1:\n\t" START                                                         \
        "vldrb.8 %q[wv], [%[w]]\n\t"                                           \
        "vmladava.s8 %[a0], %q[x0], %q[wv]\n\t"                                \
        "vmladava.s8 %[a1], %q[x1], %q[wv]\n\t"                                \
        "vmladava.s8 %[a2], %q[x2], %q[wv]\n\t"                                \
        "vmladava.s8 %[a3], %q[x3], %q[wv]\n\t"                                \
        "vldrb.8 %q[wv], [%[w], #16]\n\t"                                      \
        "vmladava.s8 %[a0], %q[x1], %q[wv]\n\t"                                \
        "vmladava.s8 %[a1], %q[x2], %q[wv]\n\t"                                \
        "vmladava.s8 %[a2], %q[x3], %q[wv]\n\t"                                \
        "vmladava.s8 %[a3], %q[x4], %q[wv]\n\t"                                \
        "vldrb.8 %q[wv], [%[w], #32]\n\t"                                      \
        "add %[w], %[w], %[stride]\n\t"                                        \
        "vmladava.s8 %[a0], %q[x2], %q[wv]\n\t"                                \
        "vmladava.s8 %[a1], %q[x3], %q[wv]\n\t"                                \
        "vmladava.s8 %[a2], %q[x4], %q[wv]\n\t"                                \
        "vmladava.s8 %[a3], %q[x5], %q[wv]\n\t"                                \
        "strd %[a0], %[a1], [%[acc]], #8\n\t"                                  \
        "strd %[a2], %[a3], [%[acc]], #8\n\t"                                  \
        "le lr, 1b\n"                                                          \
        : [a0] "=&Te"(a0), [a1] "=&Te"(a1), [a2] "=&Te"(a2), [a3] "=&Te"(a3),  \
          [wv] "=&w"(wv), [acc] "+r"(acc), [w] "+r"(w), [bias] "+r"(bias)      \
        : [n] "r"(count), [stride] "r"(w_stride), [x0] "w"(x0), [x1] "w"(x1), [x2] "w"(x2), \
          [x3] "w"(x3), [x4] "w"(x4), [x5] "w"(x5)                             \
        : "lr", "memory")
    // The first filter row starts from the corrected bias instead of acc.
    if (bias != nullptr) {
      ETNS_CONV_SLIDE3_C16_LOOP("ldr %[a0], [%[bias]], #4\n\t"
                                "mov %[a1], %[a0]\n\t"
                                "mov %[a2], %[a0]\n\t"
                                "mov %[a3], %[a0]\n\t");
    } else {
      ETNS_CONV_SLIDE3_C16_LOOP("ldrd %[a0], %[a1], [%[acc]]\n\t"
                                "ldrd %[a2], %[a3], [%[acc], #8]\n\t");
    }
#undef ETNS_CONV_SLIDE3_C16_LOOP
    return;
  }
  if constexpr (kC16) filter_c = 16;
  for (int32_t i = 0; i < count; ++i, acc += kPixels, w += w_stride) {
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    int8x16_t wv = load<kTail>(w, live);
    a0 = vmladavaq_s8(a0, x0, wv);
    a1 = vmladavaq_s8(a1, x1, wv);
    a2 = vmladavaq_s8(a2, x2, wv);
    a3 = vmladavaq_s8(a3, x3, wv);
    wv = load<kTail>(w + filter_c, live);
    a0 = vmladavaq_s8(a0, x1, wv);
    a1 = vmladavaq_s8(a1, x2, wv);
    a2 = vmladavaq_s8(a2, x3, wv);
    a3 = vmladavaq_s8(a3, x4, wv);
    wv = load<kTail>(w + 2 * filter_c, live);
    a0 = vmladavaq_s8(a0, x2, wv);
    a1 = vmladavaq_s8(a1, x3, wv);
    a2 = vmladavaq_s8(a2, x4, wv);
    a3 = vmladavaq_s8(a3, x5, wv);
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
  }
}

// Any stride and dilation, one tap at a time: x[q] is pixel q's tap.
template <bool kTail>
inline __attribute__((always_inline)) void tap_channels(int32_t* acc, int32_t count,
                                                        const int8_t* w, size_t w_stride,
                                                        const int8x16_t* x, mve_pred16_t live) {
  const int8x16_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3];
  for (int32_t i = 0; i < count; ++i, acc += kPixels, w += w_stride) {
    const int8x16_t wv = load<kTail>(w, live);
    acc[0] = vmladavaq_s8(acc[0], x0, wv);
    acc[1] = vmladavaq_s8(acc[1], x1, wv);
    acc[2] = vmladavaq_s8(acc[2], x2, wv);
    acc[3] = vmladavaq_s8(acc[3], x3, wv);
  }
}

// One run of `bytes` adjacent input bytes per pixel (a tap's channels, or a
// whole filter row in Row mode) for four pixels pixel_step apart, 16 lanes
// at a time, the tail predicated.
inline __attribute__((always_inline)) void mac_run(int32_t* acc, int32_t count, const int8_t* w,
                                                   size_t w_stride, const int8_t* start,
                                                   ptrdiff_t pixel_step, int32_t bytes,
                                                   int8x16_t* x) {
  int32_t c = 0;
  for (; c + 16 <= bytes; c += 16) {
#pragma GCC unroll 4
    for (int q = 0; q < kPixels; ++q) x[q] = vld1q_s8(start + q * pixel_step + c);
    tap_channels<false>(acc, count, w + c, w_stride, x, 0);
  }
  if (c < bytes) {
    const mve_pred16_t live = vctp8q(static_cast<uint32_t>(bytes - c));
#pragma GCC unroll 4
    for (int q = 0; q < kPixels; ++q) x[q] = vldrbq_z_s8(start + q * pixel_step + c, live);
    tap_channels<true>(acc, count, w + c, w_stride, x, live);
  }
}

// One filter row (its strip at r) for the channel block whose weights start at
// w (this row's first tap), accumulated into acc.
// With Slide3C16, a non-null bias (the block's corrected bias) starts the
// accumulators instead of acc's contents.
void mac_row(Mac mac, const Conv2dParams& p, const int8_t* r, int32_t column, const int8_t* w,
             size_t w_stride, int32_t* acc, int32_t count, const int32_t* bias) {
  const int32_t filter_c = p.filter_c;
  int8x16_t x[kPixels + 2];
  if (mac == Mac::Slide3C16) {
#pragma GCC unroll 6
    for (int j = 0; j < kPixels + 2; ++j) x[j] = vld1q_s8(r + 16 * j);
    slide3_channels<true, false>(acc, count, w, w_stride, 16, x, 0, bias);
    return;
  }
  if (mac == Mac::Slide3) {
    int32_t c = 0;
    for (; c + 16 <= filter_c; c += 16) {
#pragma GCC unroll 6
      for (int j = 0; j < kPixels + 2; ++j) x[j] = vld1q_s8(r + j * column + c);
      slide3_channels<false, false>(acc, count, w + c, w_stride, filter_c, x, 0);
    }
    if (c < filter_c) {
      const mve_pred16_t live = vctp8q(static_cast<uint32_t>(filter_c - c));
#pragma GCC unroll 6
      for (int j = 0; j < kPixels + 2; ++j) x[j] = vldrbq_z_s8(r + j * column + c, live);
      slide3_channels<false, true>(acc, count, w + c, w_stride, filter_c, x, live);
    }
    return;
  }
  const ptrdiff_t pixel_step = static_cast<ptrdiff_t>(p.stride_w) * column;
  if (mac == Mac::Row) {
    mac_run(acc, count, w, w_stride, r, pixel_step, p.filter_w * filter_c, x);
    return;
  }
  for (int32_t kx = 0; kx < p.filter_w; ++kx, w += filter_c) {
    const int8_t* tap = r + static_cast<ptrdiff_t>(kx) * p.dilation_w * column;
    mac_run(acc, count, w, w_stride, tap, pixel_step, filter_c, x);
  }
}

// RQ of four accumulators with one channel's (M, S), plus the output offset
// and the activation clamp (kernels/common/requantize_mve.h).
inline __attribute__((always_inline)) int32x4_t requantize4(int32x4_t v, int32_t multiplier,
                                                            int32_t shift, int32_t output_offset,
                                                            int32_t lo, int32_t hi) {
  const kernels::mve::LaneRequant q(Requant{multiplier, shift});
  return kernels::mve::offset_clamp_lanes(kernels::mve::requantize_lanes(v, q), output_offset, lo,
                                          hi);
}

// transposed holds [channel][pixel] for four pixels; VLD4 deinterleaves 16
// channels into one vector per pixel, stored contiguously (NHWC) for the
// live pixels.
inline __attribute__((always_inline)) void store_pixels(const int8_t* transposed,
                                                        int32_t output_c, int32_t live_pixels,
                                                        int8_t* out_pixel) {
  for (int32_t c = 0; c < output_c; c += 16) {
    const int8x16x4_t t = vld4q_s8(transposed + static_cast<size_t>(c) * kPixels);
    const mve_pred16_t live = vctp8q(static_cast<uint32_t>(output_c - c));
    int8_t* o = out_pixel + c;
    vstrbq_p_s8(o, t.val[0], live);
    if (live_pixels > 1) vstrbq_p_s8(o + output_c, t.val[1], live);
    if (live_pixels > 2) vstrbq_p_s8(o + 2 * output_c, t.val[2], live);
    if (live_pixels > 3) vstrbq_p_s8(o + 3 * output_c, t.val[3], live);
  }
}

// run_windows's products: per output channel, the four pixels' dot
// products over the interleaved slices (the last slice's weights loaded
// predicated to the window's end), requantised into transposed's
// [channel][pixel] bytes.
inline __attribute__((always_inline)) void dot_windows(const Conv2dParams& p,
                                                       const int8_t* windows,
                                                       const int8_t* weight,
                                                       const int32_t* corrected_bias, int32_t n,
                                                       int32_t slices, mve_pred16_t last,
                                                       int8_t* transposed) {
  const int8_t* w = weight;
  for (int32_t oc = 0; oc < p.output_c; ++oc, w += n) {
    int32_t a0 = corrected_bias[oc], a1 = a0, a2 = a0, a3 = a0;
    const int8_t* x = windows;
    const int8_t* wk = w;
    for (int32_t k = 1; k < slices; ++k, x += kPixels * 16, wk += 16) {
      const int8x16_t wv = vld1q_s8(wk);
      a0 = vmladavaq_s8(a0, vld1q_s8(x), wv);
      a1 = vmladavaq_s8(a1, vld1q_s8(x + 16), wv);
      a2 = vmladavaq_s8(a2, vld1q_s8(x + 32), wv);
      a3 = vmladavaq_s8(a3, vld1q_s8(x + 48), wv);
    }
    const int8x16_t wv = vldrbq_z_s8(wk, last);
    a0 = vmladavaq_s8(a0, vld1q_s8(x), wv);
    a1 = vmladavaq_s8(a1, vld1q_s8(x + 16), wv);
    a2 = vmladavaq_s8(a2, vld1q_s8(x + 32), wv);
    a3 = vmladavaq_s8(a3, vld1q_s8(x + 48), wv);
    int32x4_t sums = vdupq_n_s32(a0);
    sums = vsetq_lane_s32(a1, sums, 1);
    sums = vsetq_lane_s32(a2, sums, 2);
    sums = vsetq_lane_s32(a3, sums, 3);
    const int32x4_t v = requantize4(sums, p.multipliers[oc], p.shifts[oc], p.output_offset,
                                    p.activation_min, p.activation_max);
    vstrbq_s32(transposed + static_cast<size_t>(oc) * kPixels, v);
  }
}

// The window path. Per pass: four output pixels, the next four of the whole
// output in memory order (a row's end does not waste lanes), each window
// gathered, padding filled with the input zero point (pixels past the end
// are computed on padding and never stored); the windows interleaved as
// [16-byte slice][pixel], so one pointer with fixed offsets walks all four;
// then per output channel four dot products over the slices with the
// accumulators in registers. Lanes past the window are zero in the last
// slice, so that slice's weights need only a predicated load.
void run_windows(const Conv2dParams& p, const Layout& l, const int8_t* input,
                 const int8_t* weight, const int32_t* corrected_bias, int8_t* out,
                 uint8_t* base) {
  int8_t* const gathered = reinterpret_cast<int8_t*>(base + l.windows);
  int8_t* const windows = gathered + l.window_bytes;
  int8_t* const transposed = reinterpret_cast<int8_t*>(base + l.transposed);
  const int32_t channels = p.input_c;  // one group
  const int32_t row_bytes = p.filter_w * channels;
  const int32_t n = p.filter_h * row_bytes;
  const int32_t slices = (n + 15) / 16;
  const mve_pred16_t last = vctp8q(static_cast<uint32_t>(n - 16 * (slices - 1)));
  const int8_t zero_point = static_cast<int8_t>(-p.input_offset);
  const int8x16_t padding = vdupq_n_s8(zero_point);
  const bool short_rows = row_bytes <= 16;
  const mve_pred16_t row_live = vctp8q(static_cast<uint32_t>(row_bytes));
  const size_t image_bytes = static_cast<size_t>(p.input_h) * p.input_w * channels;
  const int32_t total = p.batches * p.output_h * p.output_w;
  // The next pixel to gather.
  int32_t batch = 0, oy = 0, ox = 0;
  for (int32_t first = 0; first < total; first += kPixels) {
    const int32_t live_pixels = total - first < kPixels ? total - first : kPixels;
    for (int32_t q = 0; q < kPixels; ++q) {
      int8_t* dst = gathered + static_cast<ptrdiff_t>(q) * n;
      if (q >= live_pixels) {
        fill_s8(dst, zero_point, n);
        continue;
      }
      const int8_t* image = input + static_cast<size_t>(batch) * image_bytes;
      const int32_t iy0 = oy * p.stride_h - p.pad_h;
      const int32_t ix0 = ox * p.stride_w - p.pad_w;
      if (++ox == p.output_w) {
        ox = 0;
        if (++oy == p.output_h) {
          oy = 0;
          ++batch;
        }
      }
      const Columns kx = columns_in_image(ix0, p.filter_w, p.input_w);
      const int32_t before = kx.begin * channels, inside = (kx.end - kx.begin) * channels;
      const int32_t after = row_bytes - before - inside;
      if (short_rows && inside == row_bytes) {
        // The common case: a row of at most 16 bytes, wholly inside the
        // image's width: one predicated load and store per filter row.
        ptrdiff_t at = (static_cast<ptrdiff_t>(iy0) * p.input_w + ix0) * channels;
        const ptrdiff_t step = static_cast<ptrdiff_t>(p.dilation_h) * p.input_w * channels;
        for (int32_t ky = 0, iy = iy0; ky < p.filter_h;
             ++ky, iy += p.dilation_h, dst += row_bytes, at += step) {
          const int8x16_t v = static_cast<uint32_t>(iy) < static_cast<uint32_t>(p.input_h)
                                  ? vldrbq_z_s8(image + at, row_live)
                                  : padding;
          vstrbq_p_s8(dst, v, row_live);
        }
        continue;
      }
      for (int32_t ky = 0; ky < p.filter_h; ++ky, dst += row_bytes) {
        const int32_t iy = iy0 + ky * p.dilation_h;
        if (iy < 0 || iy >= p.input_h) {
          fill_s8(dst, zero_point, row_bytes);
          continue;
        }
        fill_s8(dst, zero_point, before);
        copy_s8(dst + before,
                image + (static_cast<ptrdiff_t>(iy) * p.input_w + ix0 + kx.begin) * channels,
                inside);
        fill_s8(dst + before + inside, zero_point, after);
      }
    }
    for (int32_t k = 0; k < slices; ++k) {
      const mve_pred16_t live = vctp8q(static_cast<uint32_t>(n - 16 * k));
#pragma GCC unroll 4
      for (int32_t q = 0; q < kPixels; ++q) {
        vst1q_s8(windows + (k * kPixels + q) * 16, vldrbq_z_s8(gathered + q * n + 16 * k, live));
      }
    }
    dot_windows(p, windows, weight, corrected_bias, n, slices, last, transposed);
    store_pixels(transposed, p.output_c, live_pixels,
                 out + static_cast<size_t>(first) * p.output_c);
  }
}

// Four adjacent output pixels of one row per pass, every output channel.
// No SLP vectorisation: GCC 12 otherwise packs the four accumulator stores
// into a vector through the stack.
__attribute__((optimize("no-tree-slp-vectorize"))) void run_quads(
    const Conv2dParams& p, const Layout& l, const int8_t* input, const int8_t* weight,
    const int32_t* corrected_bias, int8_t* out, uint8_t* base) {
  int8_t* transposed = reinterpret_cast<int8_t*>(base + l.transposed);
  const int8_t** rows = reinterpret_cast<const int8_t**>(base + l.rows);
  int8_t* strips = reinterpret_cast<int8_t*>(base + l.strips);
  const int32_t groups = p.input_c / p.filter_c;
  const int32_t per_group = p.output_c / groups;
  const size_t filter_bytes =
      static_cast<size_t>(p.filter_h) * static_cast<size_t>(p.filter_w) * p.filter_c;
  const int8_t zero_point = static_cast<int8_t>(-p.input_offset);
  const int32_t column = p.input_c;
  const Mac mac = choose_mac(p);
  // Locals, not p's fields: the int8 stores below may alias anything, so the
  // compiler would otherwise reload them after every store.
  const int32_t* const multipliers = p.multipliers;
  const int32_t* const shifts = p.shifts;
  const int32_t output_offset = p.output_offset, lo = p.activation_min, hi = p.activation_max;
  const int32_t filter_h = p.filter_h;
  const size_t row_bytes = static_cast<size_t>(p.filter_w) * p.filter_c;
  int32_t* acc = reinterpret_cast<int32_t*>(base + l.acc);

  for (int32_t n = 0; n < p.batches; ++n) {
    for (int32_t oy = 0; oy < p.output_h; ++oy) {
      int8_t* out_row = out + (static_cast<size_t>(n) * p.output_h + oy) *
                                  static_cast<size_t>(p.output_w) * p.output_c;
      for (int32_t ox0 = 0; ox0 < p.output_w; ox0 += kPixels) {
        const int32_t live_pixels = p.output_w - ox0 < kPixels ? p.output_w - ox0 : kPixels;
        const int32_t ix0 = ox0 * p.stride_w - p.pad_w;
        // Taps of pixels past the row's end land in copied strips; their
        // results are computed and never stored.
        const bool columns_inside =
            live_pixels == kPixels && ix0 >= 0 && ix0 <= p.input_w - l.span;
        for (int32_t g = 0; g < groups; ++g) {
          const int32_t first_channel = g * p.filter_c;
          for (int32_t ky = 0; ky < p.filter_h; ++ky) {
            const int32_t iy = oy * p.stride_h - p.pad_h + ky * p.dilation_h;
            const bool row_inside = iy >= 0 && iy < p.input_h;
            const int8_t* image_row =
                row_inside ? input + (static_cast<size_t>(n) * p.input_h + iy) *
                                         static_cast<size_t>(p.input_w) * p.input_c +
                                 first_channel
                           : nullptr;
            if (row_inside && columns_inside) {
              rows[ky] = image_row + static_cast<ptrdiff_t>(ix0) * column;
              continue;
            }
            // Padding reads the input zero point: with the offset folded into
            // the bias, that is what contributes 0 (docs/numerics.md#conv2d).
            int8_t* strip = strips + static_cast<size_t>(ky) * l.strip_bytes;
            // A row outside the image is all padding.
            const Columns in = row_inside ? columns_in_image(ix0, l.span, p.input_w)
                                          : Columns{0, 0};
            if (p.filter_c == column) {
              // One group: the strip is the image row's run, padded at both ends.
              fill_s8(strip, zero_point, in.begin * column);
              copy_s8(strip + static_cast<size_t>(in.begin) * column,
                      image_row + static_cast<ptrdiff_t>(ix0 + in.begin) * column,
                      (in.end - in.begin) * column);
              fill_s8(strip + static_cast<size_t>(in.end) * column, zero_point,
                      (l.span - in.end) * column);
            } else {
              for (int32_t j = 0; j < l.span; ++j) {
                int8_t* dst = strip + static_cast<size_t>(j) * column;
                if (j >= in.begin && j < in.end) {
                  copy_s8(dst, image_row + static_cast<ptrdiff_t>(ix0 + j) * column, p.filter_c);
                } else {
                  fill_s8(dst, zero_point, p.filter_c);
                }
              }
            }
            rows[ky] = strip;
          }
          const int32_t group_end = (g + 1) * per_group;
          for (int32_t first = g * per_group; first < group_end; first += kBlock) {
            const int32_t count = group_end - first < kBlock ? group_end - first : kBlock;
            const bool bias_in_row = mac == Mac::Slide3C16;
            if (!bias_in_row) {
              for (int32_t i = 0; i < count; ++i) {
                vst1q_s32(acc + i * kPixels, vdupq_n_s32(corrected_bias[first + i]));
              }
            }
            const int8_t* w = weight + static_cast<size_t>(first) * filter_bytes;
            for (int32_t ky = 0; ky < filter_h; ++ky, w += row_bytes) {
              mac_row(mac, p, rows[ky], column, w, filter_bytes, acc, count,
                      bias_in_row && ky == 0 ? corrected_bias + first : nullptr);
            }
            for (int32_t i = 0; i < count; ++i) {
              const int32x4_t v = requantize4(vld1q_s32(acc + i * kPixels), multipliers[first + i],
                                              shifts[first + i], output_offset, lo, hi);
              vstrbq_s32(transposed + static_cast<size_t>(first + i) * kPixels, v);
            }
          }
        }
        store_pixels(transposed, p.output_c, live_pixels,
                     out_row + static_cast<size_t>(ox0) * p.output_c);
      }
    }
  }
}

// One output pixel at a time, one channel at a time: for windows too wide for
// the strips. Out-of-image taps read a vector of the input zero point.
void run_pixels(const Conv2dParams& p, const Layout& l, const int8_t* input,
                const int8_t* weight, const int32_t* corrected_bias, int8_t* out,
                uint8_t* base) {
  int8_t* zero_points = reinterpret_cast<int8_t*>(base + l.zero_points);
  fill_s8(zero_points, static_cast<int8_t>(-p.input_offset), p.filter_c);
  const int32_t per_group = p.output_c / (p.input_c / p.filter_c);
  const size_t filter_bytes =
      static_cast<size_t>(p.filter_h) * static_cast<size_t>(p.filter_w) * p.filter_c;
  for (int32_t n = 0; n < p.batches; ++n) {
    for (int32_t oy = 0; oy < p.output_h; ++oy) {
      for (int32_t ox = 0; ox < p.output_w; ++ox) {
        for (int32_t oc = 0; oc < p.output_c; ++oc) {
          const int32_t first_channel = (oc / per_group) * p.filter_c;
          int32_t acc = corrected_bias[oc];
          const int8_t* w = weight + static_cast<size_t>(oc) * filter_bytes;
          for (int32_t ky = 0; ky < p.filter_h; ++ky) {
            const int32_t iy = oy * p.stride_h - p.pad_h + ky * p.dilation_h;
            for (int32_t kx = 0; kx < p.filter_w; ++kx, w += p.filter_c) {
              const int32_t ix = ox * p.stride_w - p.pad_w + kx * p.dilation_w;
              const bool inside = iy >= 0 && iy < p.input_h && ix >= 0 && ix < p.input_w;
              const int8_t* x =
                  inside ? input +
                               ((static_cast<size_t>(n) * p.input_h + iy) * p.input_w + ix) *
                                   p.input_c +
                               first_channel
                         : zero_points;
              acc = dot_s8(acc, x, w, p.filter_c);
            }
          }
          const int32_t value = static_cast<int32_t>(
              static_cast<uint32_t>(requantize(acc, Requant{p.multipliers[oc], p.shifts[oc]})) +
              static_cast<uint32_t>(p.output_offset));
          out[((static_cast<size_t>(n) * p.output_h + oy) * p.output_w + ox) * p.output_c + oc] =
              static_cast<int8_t>(clamp_s32(value, p.activation_min, p.activation_max));
        }
      }
    }
  }
}

#endif  // ETNS_HAVE_MVE

}  // namespace

size_t conv2d_s8_mve_scratch_bytes(const Conv2dParams& p) { return layout(p).total; }

#if ETNS_HAVE_MVE

void conv2d_s8_mve(const Conv2dParams& p, const int8_t* input, const int8_t* weight,
                   const int32_t* bias, int8_t* out, uint8_t* scratch) {
  const Layout l = layout(p);
  uint8_t* base = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(scratch) + 15) &
                                             ~uintptr_t{15});
  // Raw int8 times weight, the input offset folded in per channel:
  // sum((x + io) * w) = sum(x * w) + io * sum(w), all mod 2^32 like the
  // reference. Computed per call, so the weights need not be constant.
  int32_t* corrected_bias = reinterpret_cast<int32_t*>(base + l.bias);
  const int32_t filter_bytes = p.filter_h * p.filter_w * p.filter_c;
  for (int32_t oc = 0; oc < p.output_c; ++oc) {
    const int32_t sum = sum_s8(weight + static_cast<size_t>(oc) * filter_bytes, filter_bytes);
    const uint32_t b = bias != nullptr ? static_cast<uint32_t>(bias[oc]) : 0u;
    corrected_bias[oc] = static_cast<int32_t>(
        b + static_cast<uint32_t>(p.input_offset) * static_cast<uint32_t>(sum));
  }
  if (l.window) {
    run_windows(p, l, input, weight, corrected_bias, out, base);
  } else if (l.quads) {
    run_quads(p, l, input, weight, corrected_bias, out, base);
  } else {
    run_pixels(p, l, input, weight, corrected_bias, out, base);
  }
}

#endif  // ETNS_HAVE_MVE

}  // namespace etns::cortex_m
