// The multiplier path of the Helium depthwise variant (depth multiplier > 1,
// depthwise_conv2d_mult_s8_mve), bit-exact with depthwise_conv2d_s8_ref
// (docs/numerics.md#depthwise_conv2d).
#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>
#endif

#include "kernels/common/requantize_mve.h"
#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d_mve_blocks.h"

namespace etns::cortex_m {
// The shared blocks (depthwise_conv2d_mve_blocks.h).
using namespace depthwise_mve;

namespace {

// The multiplier path (depth multiplier > 1). Output channel oc = c * mult
// + m reads input channel c = oc / mult, so a copy of the input whose pixels
// hold output_c bytes, byte oc being input channel oc / mult, is an input of
// multiplier 1 for the same weights, bias and requantisation. The input rows
// are copied that way into filter_h row slots in scratch, each padded on both
// sides with the input zero point (a padded tap then adds (zero point +
// input_offset) * w = 0 once the offset is folded into the bias), rows
// outside the image all zero points, so every output pixel runs all taps with
// no edge cases. At dilation 1, padded row r lives in slot r mod filter_h and
// an output row copies only the rows the previous one did not hold; at larger
// dilations every output row copies its filter_h rows into slots 0, 1, ....
// Scratch, from a 16-byte aligned base:
//   blocks     as the general path's, for multiplier 1 over output_c channels,
//              every block paired
//   held       filter_h int32: the padded row each slot holds
//   table      filter_h int32: the byte offset of kernel row ky's slot
//   rows       filter_h slots of padded_width pixels, output_c bytes each,
//              from a 16-byte boundary

// A padded row's pixels: the columns from the first output pixel's first tap
// to the last one's last.
uint64_t padded_width(const DepthwiseConv2dParams& p) {
  return static_cast<uint64_t>(p.output_w - 1) * static_cast<uint64_t>(p.stride_w) +
         static_cast<uint64_t>(p.filter_w - 1) * static_cast<uint64_t>(p.dilation_w) + 1u;
}

// The multiplier path's parameters of multiplier 1: input channels output_c.
DepthwiseConv2dParams expanded_params(const DepthwiseConv2dParams& p) {
  DepthwiseConv2dParams e = p;
  e.input_c = p.output_c;
  e.depth_multiplier = 1;
  return e;
}

// Bytes from the base to the row slots: blocks, held and table, rounded up to 16.
uint64_t mult_rows_offset(const DepthwiseConv2dParams& p) {
  const uint64_t before = blocks_bytes(expanded_params(p)) + 8u * static_cast<uint64_t>(p.filter_h);
  return (before + 15u) & ~uint64_t{15};
}

#if ETNS_HAVE_MVE

// The multiplier path's blocks (fill_blocks<true> of the multiplier-1
// parameters e, the same values), 8 channels at a time where a half block is
// full and the filter has at most 256 taps: the taps widened to int16 and
// summed there (|sum| <= 256 * 128), VMULLB/VMULLT by the input offset give
// the even and odd channels' folds exactly, and VLD2 splits the per-channel
// tensors into even and odd channels. Returns whether every channel's shift
// is negative (requantize_half's kRight).
bool fill_mult_blocks(const DepthwiseConv2dParams& e, const int8_t* weight, const int32_t* bias,
                      int32_t* blocks) {
  const int32_t channels = e.input_c;
  const int32_t taps = e.filter_h * e.filter_w;
  const int32_t vector_halves = taps <= 256 ? channels / 8 : 0;
  if (vector_halves * 8 < channels) fill_blocks<true>(e, weight, bias, blocks);
  const int16x8_t input_offset = vdupq_n_s16(static_cast<int16_t>(e.input_offset));
  const int32x4_t zero = vdupq_n_s32(0);
  int32x4_t largest_shift = vdupq_n_s32(-1);
  for (int32_t h = 0; h < vector_halves; ++h) {
    const int32_t c = 8 * h;
    int32_t* q = blocks + static_cast<ptrdiff_t>(h / 2) * kBlockValues + (h % 2) * 8;
    const int8_t* w = weight + c;
    int16x8_t sum = vdupq_n_s16(0);
    for (int32_t t = 0; t < taps; ++t, w += channels) sum = vaddq_s16(sum, vldrbq_s16(w));
    int32x4_t even = vmullbq_int_s16(sum, input_offset);
    int32x4_t odd = vmulltq_int_s16(sum, input_offset);
    if (bias != nullptr) {
      const int32x4x2_t b = vld2q_s32(bias + c);
      even = vaddq_s32(even, b.val[0]);
      odd = vaddq_s32(odd, b.val[1]);
    }
    vst1q_s32(q, even);
    vst1q_s32(q + 4, odd);
    const int32x4x2_t m = vld2q_s32(e.multipliers + c);
    vst1q_s32(q + kLanes, m.val[0]);
    vst1q_s32(q + kLanes + 4, m.val[1]);
    const int32x4x2_t shift = vld2q_s32(e.shifts + c);
    vst1q_s32(q + 2 * kLanes, vmaxq_s32(shift.val[0], zero));
    vst1q_s32(q + 2 * kLanes + 4, vmaxq_s32(shift.val[1], zero));
    vst1q_s32(q + 3 * kLanes, vminq_s32(shift.val[0], zero));
    vst1q_s32(q + 3 * kLanes + 4, vminq_s32(shift.val[1], zero));
    largest_shift = vmaxq_s32(largest_shift, vmaxq_s32(shift.val[0], shift.val[1]));
  }
  bool right = vmaxvq_s32(INT32_MIN, largest_shift) < 0;
  for (int32_t c = vector_halves * 8; c < channels; ++c) right = right && e.shifts[c] < 0;
  return right;
}

// Bytes [0, count) of dst set to v: 16 a store, the last predicated.
void fill_s8(int8_t* dst, int32_t count, int8x16_t v) {
  int32_t k = 0;
  for (; k + 16 <= count; k += 16) vstrbq_s8(dst + k, v);
  if (k < count) vstrbq_p_s8(dst + k, v, vctp8q(static_cast<uint32_t>(count - k)));
}

// dst[k] = src[k / mult] for k in [0, count * mult): `count` input bytes of
// whole pixels, so the copy's pixel j byte oc is input pixel j channel oc /
// mult. Multipliers 2 and 4 widen bytes to 16 or 32 bits and multiply by
// 0x0101 or 0x01010101, which repeats each byte across its lane (16 bytes a
// store, the last predicated); others store each byte broadcast, 16 copies a
// store. (VST2/VST4 would interleave copies of one vector, but GCC 12 builds
// their register groups through the stack.)
void expand_s8(const int8_t* src, int32_t count, int32_t mult, int8_t* dst) {
  const uint8_t* s = reinterpret_cast<const uint8_t*>(src);
  uint8_t* d = reinterpret_cast<uint8_t*>(dst);
  int32_t k = 0;
  if (mult == 2) {
    for (; k + 8 <= count; k += 8) {
      vstrbq_u8(d + 2 * k, vreinterpretq_u8_u16(vmulq_n_u16(vldrbq_u16(s + k), 0x0101)));
    }
    if (k < count) {
      const uint32_t left = static_cast<uint32_t>(count - k);
      const uint16x8_t v = vmulq_n_u16(vldrbq_z_u16(s + k, vctp16q(left)), 0x0101);
      vstrbq_p_u8(d + 2 * k, vreinterpretq_u8_u16(v), vctp8q(2 * left));
    }
  } else if (mult == 4) {
    for (; k + 4 <= count; k += 4) {
      vstrbq_u8(d + 4 * k, vreinterpretq_u8_u32(vmulq_n_u32(vldrbq_u32(s + k), 0x01010101u)));
    }
    if (k < count) {
      const uint32_t left = static_cast<uint32_t>(count - k);
      const uint32x4_t v = vmulq_n_u32(vldrbq_z_u32(s + k, vctp32q(left)), 0x01010101u);
      vstrbq_p_u8(d + 4 * k, vreinterpretq_u8_u32(v), vctp8q(4 * left));
    }
  } else if (mult <= 16) {
    const mve_pred16_t live = vctp8q(static_cast<uint32_t>(mult));
    for (; k < count; ++k, d += mult) vstrbq_p_u8(d, vdupq_n_u8(s[k]), live);
  } else {
    for (; k < count; ++k, d += mult) {
      fill_s8(reinterpret_cast<int8_t*>(d), mult, vreinterpretq_s8_u8(vdupq_n_u8(s[k])));
    }
  }
}

// One padded row: input row `row` (nullptr: outside the image, all zero
// points) into `width` pixels of output_c bytes.
void fill_padded_row(const DepthwiseConv2dParams& p, const int8_t* row, int32_t width,
                     int8_t* dst) {
  const int8x16_t zero_points = vdupq_n_s8(static_cast<int8_t>(-p.input_offset));
  const int32_t channels = p.output_c;
  int32_t before = p.pad_w < width ? p.pad_w : width;
  int32_t inside = 0;
  if (row != nullptr) {
    inside = width - before < p.input_w ? width - before : p.input_w;
  } else {
    before = width;
  }
  fill_s8(dst, before * channels, zero_points);
  dst += static_cast<ptrdiff_t>(before) * channels;
  expand_s8(row, inside * p.input_c, p.depth_multiplier, dst);
  dst += static_cast<ptrdiff_t>(inside) * channels;
  fill_s8(dst, (width - before - inside) * channels, zero_points);
}

// The walk over one pixel's taps: `rows` kernel rows, the copy of row ky at
// x + table[ky] (x: the row slots plus the pixel's and channel's offset),
// `columns` taps a row, x_step and w_step bytes apart; the weights' rows
// follow one another.
struct Taps {
  const int32_t* table;
  int32_t rows, columns;
  ptrdiff_t x_step, w_step;
};

// The taps of 16 channels of one pixel, paired as in mac_taps16 (a0 channels
// {0, 2, 4, 6}, a1 {1, 3, 5, 7}, a2 {8, ..., 14}, a3 {9, ..., 15}); each
// kernel row's start read from the table.
inline __attribute__((always_inline)) void mac_rows16(int32x4_t& a0, int32x4_t& a1,
                                                      int32x4_t& a2, int32x4_t& a3,
                                                      const int8_t* x_base, const int8_t* w,
                                                      const Taps& taps) {
  const int32_t* table = taps.table;
  int32_t rows = taps.rows;
  const int8_t* x;
  int16x8_t xv, wv;
  int32x4_t t;
  asm volatile(
      "2:\n\t"
      "ldr %[x], [%[table]], #4\n\t"
      "dls lr, %[columns]\n\t"
      "add %[x], %[x], %[x_base]\n"
      "1:\n\t"
      "vldrb.s16 %q[xv], [%[x]]\n\t"
      "vldrb.s16 %q[wv], [%[w]]\n\t"
      "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"
      "vadd.i32 %q[a0], %q[a0], %q[t]\n\t"
      "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"
      "vadd.i32 %q[a1], %q[a1], %q[t]\n\t"
      "vldrb.s16 %q[xv], [%[x], #8]\n\t"
      "vldrb.s16 %q[wv], [%[w], #8]\n\t"
      "add %[x], %[x], %[x_step]\n\t"
      "add %[w], %[w], %[w_step]\n\t"
      "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"
      "vadd.i32 %q[a2], %q[a2], %q[t]\n\t"
      "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"
      "vadd.i32 %q[a3], %q[a3], %q[t]\n\t"
      "le lr, 1b\n\t"
      "subs %[rows], %[rows], #1\n\t"
      "bne 2b\n"
      : [a0] "+w"(a0), [a1] "+w"(a1), [a2] "+w"(a2), [a3] "+w"(a3), [xv] "=&w"(xv),
        [wv] "=&w"(wv), [t] "=&w"(t), [x] "=&l"(x), [w] "+l"(w), [table] "+r"(table),
        [rows] "+r"(rows)
      : [x_base] "r"(x_base), [columns] "r"(taps.columns), [x_step] "r"(taps.x_step),
        [w_step] "r"(taps.w_step)
      : "lr", "cc", "memory");
}

// The taps of 8 channels of two output pixels `pair` bytes apart in the copy,
// the weights loaded once for both: the first pixel's channels {0, 2, 4, 6}
// into a0 and {1, 3, 5, 7} into a1, the second's into b0 and b1. Seven Q
// registers: four accumulators, the input, the weights, the product. At
// dilation 1 only: the copy and the weights then step by the same output_c
// bytes a tap (one register fewer; GCC finds no allocation otherwise).
inline __attribute__((always_inline)) void mac_rows8x2(int32x4_t& a0, int32x4_t& a1,
                                                       int32x4_t& b0, int32x4_t& b1,
                                                       const int8_t* x_base, ptrdiff_t pair,
                                                       const int8_t* w, const Taps& taps) {
  const int32_t* table = taps.table;
  int32_t rows = taps.rows;
  const int8_t* x0;
  const int8_t* x1;
  int16x8_t xv, wv;
  int32x4_t t;
  asm volatile(
      "2:\n\t"
      "ldr %[x0], [%[table]], #4\n\t"
      "dls lr, %[columns]\n\t"
      "add %[x0], %[x0], %[x_base]\n\t"
      "add %[x1], %[x0], %[pair]\n"
      "1:\n\t"
      "vldrb.s16 %q[wv], [%[w]]\n\t"
      "vldrb.s16 %q[xv], [%[x0]]\n\t"
      "add %[w], %[w], %[step]\n\t"
      "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"
      "vadd.i32 %q[a0], %q[a0], %q[t]\n\t"
      "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"
      "vadd.i32 %q[a1], %q[a1], %q[t]\n\t"
      "vldrb.s16 %q[xv], [%[x1]]\n\t"
      "add %[x0], %[x0], %[step]\n\t"
      "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"
      "vadd.i32 %q[b0], %q[b0], %q[t]\n\t"
      "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"
      "vadd.i32 %q[b1], %q[b1], %q[t]\n\t"
      "add %[x1], %[x1], %[step]\n\t"
      "le lr, 1b\n\t"
      "subs %[rows], %[rows], #1\n\t"
      "bne 2b\n"
      : [a0] "+w"(a0), [a1] "+w"(a1), [b0] "+w"(b0), [b1] "+w"(b1), [xv] "=&w"(xv),
        [wv] "=&w"(wv), [t] "=&w"(t), [x0] "=&l"(x0), [x1] "=&l"(x1), [w] "+l"(w),
        [table] "+r"(table), [rows] "+r"(rows)
      : [x_base] "r"(x_base), [pair] "r"(pair), [columns] "r"(taps.columns),
        [step] "r"(taps.w_step)
      : "lr", "cc", "memory");
}

// The output offset and the activation range as int16 lanes, kept in
// registers across a row.
struct Output {
  int32_t offset;
  int16x8_t lo, hi;
};

// RQ of 4 paired lanes of a half block (q at their bias values, the block's
// four kinds of values kLanes apart) plus the output offset, added mod 2^32 as
// the reference's. kRight: every shift negative (the exporters' scales below
// 1): no left shift, and the general form's step down for negative values
// (v & neg_right) >> 31 is v >> 31; the same values, three instructions fewer
// (as depthwise_conv2d_mve_3x3.cpp's).
template <bool kRight>
inline __attribute__((always_inline)) int32x4_t requantize_quarter(int32x4_t acc,
                                                                   const int32_t* q,
                                                                   int32_t offset) {
  const int32x4_t multiplier = vld1q_s32(q + kLanes);
  const int32x4_t neg_right = vld1q_s32(q + 3 * kLanes);
  int32x4_t v;
  if constexpr (kRight) {
    v = vqrdmulhq_s32(acc, multiplier);
    v = vrshlq_s32(vqaddq_s32(v, vshrq_n_s32(v, 31)), neg_right);
  } else {
    v = kernels::mve::requantize_lanes(acc, multiplier, vld1q_s32(q + 2 * kLanes), neg_right);
  }
  return vaddq_n_s32(v, offset);
}

// A half block's 8 channels (even ones in `even`, odd ones in `odd`)
// requantised into 8 int16 lanes in channel order: the int16 saturation of
// the narrowing commutes with the int8 activation clamp, so one clamp serves
// all 8.
template <bool kRight>
inline __attribute__((always_inline)) int16x8_t requantize_half(const Output& o,
                                                                const int32_t* q, int32x4_t even,
                                                                int32x4_t odd) {
  const int32x4_t e = requantize_quarter<kRight>(even, q, o.offset);
  const int32x4_t d = requantize_quarter<kRight>(odd, q + 4, o.offset);
  // VQMOVNB keeps the odd lanes of its first operand, which VQMOVNT then
  // overwrites: any register serves.
  const int16x8_t narrowed = vqmovntq_s32(vqmovnbq_s32(vreinterpretq_s16_s32(d), e), d);
  return vminq_s16(vmaxq_s16(narrowed, o.lo), o.hi);
}

// The last `live` < 8 channels of a pixel (x_base as in Taps), from the
// paired half block at q: predicated loads (nothing past the weights is read)
// and store.
template <bool kRight>
void pixel_tail(const Output& o, const int32_t* q, const Taps& taps, const int8_t* x_base,
                const int8_t* w, int32_t live, int8_t* out) {
  const mve_pred16_t pred = vctp16q(static_cast<uint32_t>(live));
  int32x4_t even = vld1q_s32(q);
  int32x4_t odd = vld1q_s32(q + 4);
  for (int32_t ky = 0; ky < taps.rows; ++ky) {
    const int8_t* x = x_base + taps.table[ky];
    for (int32_t kx = 0; kx < taps.columns; ++kx, x += taps.x_step, w += taps.w_step) {
      const int16x8_t xv = vldrbq_z_s16(x, pred);
      const int16x8_t wv = vldrbq_z_s16(w, pred);
      even = vaddq_s32(even, vmullbq_int_s16(xv, wv));
      odd = vaddq_s32(odd, vmulltq_int_s16(xv, wv));
    }
  }
  vstrbq_p_s16(out, requantize_half<kRight>(o, q, even, odd), pred);
}

// One output row from the row slots: per 16 channels the paired 16-lane loop
// one pixel at a time, then 8 channels two pixels at a time (at dilation 1;
// else one at a time), then a tail of fewer than 8 channels.
template <bool kRight>
void mult_output_row(const DepthwiseConv2dParams& p, const int32_t* blocks, const Taps& taps,
                     const int8_t* slots, const int8_t* weight, int8_t* out_row) {
  const Output o{p.output_offset, vdupq_n_s16(static_cast<int16_t>(p.activation_min)),
                 vdupq_n_s16(static_cast<int16_t>(p.activation_max))};
  const int32_t channels = p.output_c;
  const int32_t full = channels - channels % kLanes;
  const ptrdiff_t pixel_step = static_cast<ptrdiff_t>(p.stride_w) * channels;
  if (full > 0) {
    const int8_t* x = slots;
    int8_t* out = out_row;
    for (int32_t ox = 0; ox < p.output_w; ++ox, x += pixel_step, out += channels) {
      const int32_t* q = blocks;
      for (int32_t c = 0; c < full; c += kLanes, q += kBlockValues) {
        int32x4_t a0 = vld1q_s32(q), a1 = vld1q_s32(q + 4);
        int32x4_t a2 = vld1q_s32(q + 8), a3 = vld1q_s32(q + 12);
        mac_rows16(a0, a1, a2, a3, x + c, weight + c, taps);
        vstrbq_s16(out + c, requantize_half<kRight>(o, q, a0, a1));
        vstrbq_s16(out + c + 8, requantize_half<kRight>(o, q + 8, a2, a3));
      }
    }
  }
  int32_t c = full;
  const int32_t* q = blocks + static_cast<ptrdiff_t>(full / kLanes) * kBlockValues;
  if (channels - c >= 8) {
    const int8_t* x = slots + c;
    int8_t* out = out_row + c;
    int32_t ox = 0;
    for (; p.dilation_w == 1 && ox + 1 < p.output_w;
         ox += 2, x += 2 * pixel_step, out += 2 * channels) {
      int32x4_t a0 = vld1q_s32(q), a1 = vld1q_s32(q + 4);
      int32x4_t b0 = a0, b1 = a1;
      mac_rows8x2(a0, a1, b0, b1, x, pixel_step, weight + c, taps);
      vstrbq_s16(out, requantize_half<kRight>(o, q, a0, a1));
      vstrbq_s16(out + channels, requantize_half<kRight>(o, q, b0, b1));
    }
    for (; ox < p.output_w; ++ox, x += pixel_step, out += channels) {
      pixel_tail<kRight>(o, q, taps, x, weight + c, 8, out);
    }
    c += 8;
    q += 8;
  }
  if (c < channels) {
    const int8_t* x = slots + c;
    int8_t* out = out_row + c;
    for (int32_t ox = 0; ox < p.output_w; ++ox, x += pixel_step, out += channels) {
      pixel_tail<kRight>(o, q, taps, x, weight + c, channels - c, out);
    }
  }
}

#endif  // ETNS_HAVE_MVE

}  // namespace

namespace {

// The multiplier path declines a shape whose scratch would pass this (as
// conv2d's specialised variants do); the general variant takes it.
constexpr uint64_t kMaxMultScratchBytes = 8192;

// The multiplier path's scratch (UINT64_MAX when it overflows).
uint64_t mult_scratch_bytes(const DepthwiseConv2dParams& p) {
  uint64_t rows = 0;
  if (__builtin_mul_overflow(padded_width(p), static_cast<uint64_t>(p.output_c), &rows) ||
      __builtin_mul_overflow(rows, static_cast<uint64_t>(p.filter_h), &rows)) {
    return UINT64_MAX;
  }
  const uint64_t total = rows + mult_rows_offset(p) + 15;  // + room to align the base
  return total < rows ? UINT64_MAX : total;
}

}  // namespace

bool depthwise_conv2d_mult_handles(const DepthwiseConv2dParams& p) {
  return p.depth_multiplier > 1 && mult_scratch_bytes(p) <= kMaxMultScratchBytes;
}

size_t depthwise_conv2d_mult_s8_mve_scratch_bytes(const DepthwiseConv2dParams& p) {
  if (!depthwise_conv2d_mult_handles(p)) return depthwise_conv2d_s8_mve_scratch_bytes(p);
  return static_cast<size_t>(mult_scratch_bytes(p));
}

#if ETNS_HAVE_MVE

namespace {

// The multiplier path proper (out of line, so that the other shapes' call
// through depthwise_conv2d_mult_s8_mve saves no registers).
__attribute__((noinline)) void run_mult(const DepthwiseConv2dParams& params,
                                        const int8_t* input, const int8_t* weight,
                                        const int32_t* bias, int8_t* out, uint8_t* scratch) {
  const DepthwiseConv2dParams p = params;  // a local copy, as in run
  const DepthwiseConv2dParams e = expanded_params(p);
  int32_t* blocks = aligned_base(scratch);
  const bool right = fill_mult_blocks(e, weight, bias, blocks);
  int32_t* held = blocks + blocks_bytes(e) / sizeof(int32_t);
  int32_t* table = held + p.filter_h;
  int8_t* slots = reinterpret_cast<int8_t*>(blocks) + mult_rows_offset(p);
  const int32_t width = static_cast<int32_t>(padded_width(p));
  const ptrdiff_t slot_bytes = static_cast<ptrdiff_t>(width) * p.output_c;
  const Taps taps{table, p.filter_h, p.filter_w,
                  static_cast<ptrdiff_t>(p.dilation_w) * p.output_c, p.output_c};
  // At dilation 1 the rows of consecutive output rows overlap and stay in
  // their slots; otherwise kernel row ky is copied into slot ky every time.
  const bool keep = p.dilation_h == 1;
  const size_t image_bytes = static_cast<size_t>(p.input_h) * p.input_w * p.input_c;
  const size_t input_row = static_cast<size_t>(p.input_w) * p.input_c;
  const size_t out_row = static_cast<size_t>(p.output_w) * p.output_c;
  for (int32_t n = 0; n < p.batches; ++n) {
    const int8_t* image = input + static_cast<size_t>(n) * image_bytes;
    for (int32_t ky = 0; ky < p.filter_h; ++ky) held[ky] = INT32_MIN;
    for (int32_t oy = 0; oy < p.output_h; ++oy) {
      const int32_t top = oy * p.stride_h - p.pad_h;
      for (int32_t ky = 0; ky < p.filter_h; ++ky) {
        const int32_t iy = top + ky * p.dilation_h;
        // iy + pad_h >= 0: the padded row's index.
        const int32_t slot = keep ? (iy + p.pad_h) % p.filter_h : ky;
        int8_t* dst = slots + slot * slot_bytes;
        if (!keep || held[slot] != iy) {
          const bool inside = iy >= 0 && iy < p.input_h;
          fill_padded_row(p, inside ? image + static_cast<size_t>(iy) * input_row : nullptr,
                          width, dst);
          held[slot] = iy;
        }
        table[ky] = static_cast<int32_t>(slot * slot_bytes);
      }
      int8_t* line = out + (static_cast<size_t>(n) * p.output_h + oy) * out_row;
      if (right) {
        mult_output_row<true>(p, blocks, taps, slots, weight, line);
      } else {
        mult_output_row<false>(p, blocks, taps, slots, weight, line);
      }
    }
  }
}

}  // namespace

void depthwise_conv2d_mult_s8_mve(const DepthwiseConv2dParams& p, const int8_t* input,
                                  const int8_t* weight, const int32_t* bias, int8_t* out,
                                  uint8_t* scratch) {
  if (depthwise_conv2d_mult_handles(p)) {
    run_mult(p, input, weight, bias, out, scratch);
  } else {
    depthwise_conv2d_s8_mve(p, input, weight, bias, out, scratch);
  }
}

#endif  // ETNS_HAVE_MVE

}  // namespace etns::cortex_m
