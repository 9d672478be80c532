// Helium variant of cortex_m::quantized_depthwise_conv2d.out for the 3x3
// layers of the MLPerf Tiny models (depth multiplier 1, no dilation, stride 1
// or 2, channels a multiple of 4), bit-exact with depthwise_conv2d_s8_ref
// (docs/numerics.md#depthwise_conv2d). Any other shape goes to
// depthwise_conv2d_mult_s8_mve (depth multiplier > 1) or, through it,
// depthwise_conv2d_s8_mve.
#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>
#endif

#include <cstddef>

#include "kernels/common/requantize_mve.h"

namespace etns::cortex_m {
namespace {

// Channels per group: one int16x8 vector, multiplied into two int32x4
// accumulators by VMULLB (even channels) and VMULLT (odd channels).
constexpr int32_t kGroup = 8;
constexpr int32_t kTaps = 9;

// Scratch, from a 16-byte aligned base, per group of 8 channels g:
//   constants  [g][4][8] int32: bias + input_offset * sum of the channel's 9
//              weights, multiplier, max(shift, 0), min(shift, 0); each as
//              the 4 even channels then the 4 odd ones (the accumulators'
//              order).
//   weights    [g][9][8] int8, tap-major, so one pointer and immediate
//              offsets reach every tap.
//   rows       three slots of one input row each, padded: [g][padded_w][8]
//              int8, columns outside the image holding the input zero point.
// A padded tap then reads the zero point, which with the offset folded into
// the bias contributes (zp + input_offset) * w = 0, as in the reference; so
// border and interior pixels run the same 9 taps without bounds checks.
int32_t groups(const DepthwiseConv2dParams& p) { return (p.input_c + kGroup - 1) / kGroup; }

// Input columns a row slot holds: the padded columns the outputs read.
int32_t padded_w(const DepthwiseConv2dParams& p) { return (p.output_w - 1) * p.stride_w + 3; }

size_t constants_bytes(const DepthwiseConv2dParams& p) {
  return static_cast<size_t>(groups(p)) * 4 * kGroup * sizeof(int32_t);
}
size_t weights_bytes(const DepthwiseConv2dParams& p) {
  return static_cast<size_t>(groups(p)) * kTaps * kGroup;
}
size_t slot_bytes(const DepthwiseConv2dParams& p) {
  return static_cast<size_t>(groups(p)) * static_cast<size_t>(padded_w(p)) * kGroup;
}

#if ETNS_HAVE_MVE

// The accumulator order: lane j of the even half is channel 2 j, of the odd
// half channel 2 j + 1.
int32_t channel_of_lane(int32_t lane) { return lane < 4 ? 2 * lane : 2 * (lane - 4) + 1; }

// One group's constants and weights, lane by lane: the last group of a
// channel count 4 mod 8, whose missing channels get zeros. Sums wrap mod 2^32
// like the reference's int32 accumulator: sum((x + io) * w) = sum(x * w) +
// io * sum(w).
void fill_group_scalar(const DepthwiseConv2dParams& p, const int8_t* weight,
                       const int32_t* bias, int32_t g, int32_t* q, int8_t* w) {
  for (int32_t lane = 0; lane < kGroup; ++lane) {
    const int32_t c = g * kGroup + channel_of_lane(lane);
    const int32_t natural = g * kGroup + lane;
    for (int32_t t = 0; t < kTaps; ++t) {
      w[t * kGroup + lane] = natural < p.input_c ? weight[t * p.output_c + natural] : 0;
    }
    if (c >= p.input_c) {
      q[lane] = q[kGroup + lane] = q[2 * kGroup + lane] = q[3 * kGroup + lane] = 0;
      continue;
    }
    uint32_t sum = 0;
    for (int32_t t = 0; t < kTaps; ++t) sum += static_cast<uint32_t>(weight[t * p.output_c + c]);
    const uint32_t b = bias != nullptr ? static_cast<uint32_t>(bias[c]) : 0u;
    q[lane] = static_cast<int32_t>(b + static_cast<uint32_t>(p.input_offset) * sum);
    const int32_t shift = p.shifts[c];
    q[kGroup + lane] = p.multipliers[c];
    q[2 * kGroup + lane] = shift > 0 ? shift : 0;
    q[3 * kGroup + lane] = shift < 0 ? shift : 0;
  }
}

// Per call (about 60 instructions per group), so the weights need not be
// constants. A full group at a time: the 9 taps widened to int16 are summed
// there (|sum| <= 9 * 128) and VMULLB/VMULLT by the input offset give the
// even and odd channels' folds exactly; VLD2 splits the per-channel tensors
// into even and odd channels.
// Returns whether every channel's shift is negative and every multiplier
// non-negative (requantize_half's and pixel_pair_right's kRight).
bool fill_constants(const DepthwiseConv2dParams& p, const int8_t* weight, const int32_t* bias,
                    int32_t* constants, int8_t* weights) {
  const int32_t full = p.input_c / kGroup;
  const ptrdiff_t tap_step = p.output_c;
  const int16x8_t input_offset = vdupq_n_s16(static_cast<int16_t>(p.input_offset));
  const int32x4_t zero = vdupq_n_s32(0);
  int32x4_t largest_shift = vdupq_n_s32(-1);
  int32x4_t smallest_multiplier = vdupq_n_s32(0);
  for (int32_t g = 0; g < full; ++g) {
    int32_t* q = constants + g * 4 * kGroup;
    int8_t* w = weights + g * kTaps * kGroup;
    const int8_t* src = weight + g * kGroup;
    int16x8_t sum = vdupq_n_s16(0);
    for (int32_t t = 0; t < kTaps; ++t, src += tap_step, w += kGroup) {
      const int16x8_t taps = vldrbq_s16(src);
      vstrbq_s16(w, taps);
      sum = vaddq_s16(sum, taps);
    }
    int32x4_t even = vmullbq_int_s16(sum, input_offset);
    int32x4_t odd = vmulltq_int_s16(sum, input_offset);
    if (bias != nullptr) {
      const int32x4x2_t b = vld2q_s32(bias + g * kGroup);
      even = vaddq_s32(even, b.val[0]);
      odd = vaddq_s32(odd, b.val[1]);
    }
    vst1q_s32(q, even);
    vst1q_s32(q + 4, odd);
    const int32x4x2_t m = vld2q_s32(p.multipliers + g * kGroup);
    smallest_multiplier = vminq_s32(smallest_multiplier, vminq_s32(m.val[0], m.val[1]));
    vst1q_s32(q + kGroup, m.val[0]);
    vst1q_s32(q + kGroup + 4, m.val[1]);
    const int32x4x2_t shift = vld2q_s32(p.shifts + g * kGroup);
    vst1q_s32(q + 2 * kGroup, vmaxq_s32(shift.val[0], zero));
    vst1q_s32(q + 2 * kGroup + 4, vmaxq_s32(shift.val[1], zero));
    vst1q_s32(q + 3 * kGroup, vminq_s32(shift.val[0], zero));
    vst1q_s32(q + 3 * kGroup + 4, vminq_s32(shift.val[1], zero));
    largest_shift = vmaxq_s32(largest_shift, vmaxq_s32(shift.val[0], shift.val[1]));
  }
  bool right = vmaxvq_s32(INT32_MIN, largest_shift) < 0 &&
               vminvq_s32(INT32_MAX, smallest_multiplier) >= 0;
  if (full < groups(p)) {
    fill_group_scalar(p, weight, bias, full, constants + full * 4 * kGroup,
                      weights + full * kTaps * kGroup);
    for (int32_t c = full * kGroup; c < p.input_c; ++c) {
      right = right && p.shifts[c] < 0 && p.multipliers[c] >= 0;
    }
  }
  return right;
}

// Copies input row `row` (nullptr: a padding row) into a slot, padded with
// the zero point. The longer of the two loops innermost: group by group for
// a row wider than it is deep, else column by column (DS-CNN's rows are 7
// padded columns by 8 groups). The last group of a channel count 4 mod 8
// reads 4 bytes, its other lanes zero (their weights are zero too).
void fill_slot(const DepthwiseConv2dParams& p, const int8_t* row, int8_t* slot) {
  const int32_t width = padded_w(p);
  const int32_t count = groups(p);
  const int32_t full = p.input_c / kGroup;
  const ptrdiff_t group_row = static_cast<ptrdiff_t>(width) * kGroup;
  const ptrdiff_t channels = p.input_c;
  const uint16x8_t zero_points = vdupq_n_u16(static_cast<uint16_t>(-p.input_offset));
  uint8_t* base = reinterpret_cast<uint8_t*>(slot);
  if (row == nullptr) {
    // [g][width][8] is contiguous: the whole slot is padding.
    for (int32_t i = count * width; i > 0; --i, base += kGroup) vstrbq_u16(base, zero_points);
    return;
  }
  // Columns j hold input column j - pad_w: [0, first) and [last, width) are padding.
  const int32_t first = p.pad_w < width ? p.pad_w : width;
  const int32_t last = p.pad_w + p.input_w < width ? p.pad_w + p.input_w : width;
  const mve_pred16_t live = vctp16q(static_cast<uint32_t>(p.input_c - full * kGroup));
  if (width >= count) {
    for (int32_t g = 0; g < count; ++g) {
      uint8_t* dst = base + g * group_row;
      int32_t j = 0;
      for (; j < first; ++j, dst += kGroup) vstrbq_u16(dst, zero_points);
      const uint8_t* src = reinterpret_cast<const uint8_t*>(row) + g * kGroup;
      if (g < full) {
        for (; j < last; ++j, dst += kGroup, src += channels) vstrbq_u16(dst, vldrbq_u16(src));
      } else {
        for (; j < last; ++j, dst += kGroup, src += channels) {
          vstrbq_u16(dst, vldrbq_z_u16(src, live));
        }
      }
      for (; j < width; ++j, dst += kGroup) vstrbq_u16(dst, zero_points);
    }
    return;
  }
  const auto pad_column = [&](int32_t j) {
    uint8_t* dst = base + static_cast<ptrdiff_t>(j) * kGroup;
    for (int32_t g = count; g > 0; --g, dst += group_row) vstrbq_u16(dst, zero_points);
  };
  for (int32_t j = 0; j < first; ++j) pad_column(j);
  for (int32_t j = first; j < last; ++j) {
    const uint8_t* src = reinterpret_cast<const uint8_t*>(row) + (j - p.pad_w) * channels;
    uint8_t* dst = base + static_cast<ptrdiff_t>(j) * kGroup;
    for (int32_t g = full; g > 0; --g, src += kGroup, dst += group_row) {
      vstrbq_u16(dst, vldrbq_u16(src));
    }
    if (full < count) vstrbq_u16(dst, vldrbq_z_u16(src, live));
  }
  for (int32_t j = last; j < width; ++j) pad_column(j);
}

// The multiply-accumulate of one tap, software-pipelined: VMULLB/VMULLT
// (multiply pipe) write two temporaries in turn, and each product's VADD
// (integer pipe) comes one multiply later, so the two pipes overlap instead
// of each VADD waiting out its VMULL's latency. The products of two int8
// values are exact in VMULL's int32 lanes (|x * w| <= 2^14); even channels
// go to the *0 accumulators, odd ones to the *1.
#define ETNS_DW3_LOAD(reg, base, at) "vldrb.s16 %q[" reg "], [%[" base "], #" at "]\n\t"
#define ETNS_DW3_ADD(acc, tmp) "vadd.i32 %q[" acc "], %q[" acc "], %q[" tmp "]\n\t"
// A pair's last product still owed to b1 by the tap before.
#define ETNS_DW3_OWED ETNS_DW3_ADD("b1", "t1")

// One tap of two output pixels a and b: `load_a` (possibly nothing) puts a's
// input in xv, then b's is loaded from `xb_at`; `owed` is the previous tap's
// b1 product or nothing.
#define ETNS_DW3_TAP2(owed, load_a, x, xb_at, w_at)                                      \
  load_a ETNS_DW3_LOAD("wv", "w", w_at)                                                  \
  "vmullb.s16 %q[t0], %q[xv], %q[wv]\n\t" owed "vmullt.s16 %q[t1], %q[xv], %q[wv]\n\t"   \
  ETNS_DW3_ADD("a0", "t0") ETNS_DW3_LOAD("xv", x, xb_at)                                 \
  "vmullb.s16 %q[t0], %q[xv], %q[wv]\n\t" ETNS_DW3_ADD("a1", "t1")                       \
  "vmullt.s16 %q[t1], %q[xv], %q[wv]\n\t" ETNS_DW3_ADD("b0", "t0")

// One filter row of the pair, the row's weights at w0..w2. At stride 1 b's
// tap k is a's tap k + 1, so the input loaded for b serves a's next tap and
// four loads serve the row; at stride 2 each tap loads both.
#define ETNS_DW3_ROW2_S1(owed, x, w0, w1, w2)                                 \
  ETNS_DW3_TAP2(owed, ETNS_DW3_LOAD("xv", x, "0"), x, "8", w0)                 \
  ETNS_DW3_TAP2(ETNS_DW3_OWED, "", x, "16", w1)                                \
  ETNS_DW3_TAP2(ETNS_DW3_OWED, "", x, "24", w2)
#define ETNS_DW3_ROW2_S2(owed, x, w0, w1, w2)                                 \
  ETNS_DW3_TAP2(owed, ETNS_DW3_LOAD("xv", x, "0"), x, "16", w0)                \
  ETNS_DW3_TAP2(ETNS_DW3_OWED, ETNS_DW3_LOAD("xv", x, "8"), x, "24", w1)       \
  ETNS_DW3_TAP2(ETNS_DW3_OWED, ETNS_DW3_LOAD("xv", x, "16"), x, "32", w2)
// The 9 taps of a pair: x0..x2 are a's first columns in the three padded
// rows, w the group's tap-major weights.
#define ETNS_DW3_PAIR(ROW)                                                    \
  ROW("", "x0", "0", "8", "16") ROW(ETNS_DW3_OWED, "x1", "24", "32", "40")     \
  ROW(ETNS_DW3_OWED, "x2", "48", "56", "64") ETNS_DW3_OWED

// One tap of a single pixel, its odd product owed to the next tap.
#define ETNS_DW3_TAP1(owed, x, x_at, w_at)                                      \
  ETNS_DW3_LOAD("xv", x, x_at) ETNS_DW3_LOAD("wv", "w", w_at)                   \
  "vmullb.s16 %q[t0], %q[xv], %q[wv]\n\t" owed "vmullt.s16 %q[t1], %q[xv], %q[wv]\n\t" \
  ETNS_DW3_ADD("a0", "t0")
#define ETNS_DW3_ROW1(owed, x, w0, w1, w2)                                    \
  ETNS_DW3_TAP1(owed, x, "0", w0) ETNS_DW3_TAP1(ETNS_DW3_ADD("a1", "t1"), x, "8", w1) \
  ETNS_DW3_TAP1(ETNS_DW3_ADD("a1", "t1"), x, "16", w2)

// The 9 taps of one output pixel. Written out because GCC 12 hoists the
// loop-invariant weight loads out of the pixel loop and spills them to the
// stack; "l": widening loads take r0-r7 as the base.
inline __attribute__((always_inline)) void mac_taps(int32x4_t& a0, int32x4_t& a1,
                                                    const int8_t* x0, const int8_t* x1,
                                                    const int8_t* x2, const int8_t* w) {
  int16x8_t xv, wv;
  int32x4_t t0, t1;
  asm volatile(ETNS_DW3_ROW1("", "x0", "0", "8", "16")
                   ETNS_DW3_ROW1(ETNS_DW3_ADD("a1", "t1"), "x1", "24", "32", "40")
                       ETNS_DW3_ROW1(ETNS_DW3_ADD("a1", "t1"), "x2", "48", "56", "64")
                           ETNS_DW3_ADD("a1", "t1")
               : [a0] "+w"(a0), [a1] "+w"(a1), [xv] "=&w"(xv), [wv] "=&w"(wv),
                 [t0] "=&w"(t0), [t1] "=&w"(t1)
               : [x0] "l"(x0), [x1] "l"(x1), [x2] "l"(x2), [w] "l"(w)
               : "memory");
}

// The same for two adjacent output pixels, `kStride` apart: a0/a1 and b0/b1.
template <int32_t kStride>
inline __attribute__((always_inline)) void mac_taps2(int32x4_t& a0, int32x4_t& a1,
                                                     int32x4_t& b0, int32x4_t& b1,
                                                     const int8_t* x0, const int8_t* x1,
                                                     const int8_t* x2, const int8_t* w) {
  int16x8_t xv, wv;
  int32x4_t t0, t1;
#define ETNS_DW3_TAPS2(ROW)                                                          \
  asm volatile(ETNS_DW3_PAIR(ROW)                                                     \
               : [a0] "+w"(a0), [a1] "+w"(a1), [b0] "+w"(b0), [b1] "+w"(b1),          \
                 [xv] "=&w"(xv), [wv] "=&w"(wv), [t0] "=&w"(t0), [t1] "=&w"(t1)       \
               : [x0] "l"(x0), [x1] "l"(x1), [x2] "l"(x2), [w] "l"(w)                 \
               : "memory")
  if constexpr (kStride == 1) {
    ETNS_DW3_TAPS2(ETNS_DW3_ROW2_S1);
  } else {
    ETNS_DW3_TAPS2(ETNS_DW3_ROW2_S2);
  }
#undef ETNS_DW3_TAPS2
}

// RQ of the even (j = 0) or odd (j = 1) channels of a group plus the output
// offset, added mod 2^32 as the reference's (kernels/common/requantize_mve.h).
// kRight: every channel's shift is negative (the exporters' scales below 1;
// kRight also asks multipliers >= 0, which only pixel_pair_right needs),
// so the left shift is 0 and every lane rounds right: the general form's
// step down for negative values (v & neg_right) >> 31 is v >> 31, and the
// VSHL by 0 is left out. Same values, three instructions fewer.
template <bool kRight>
inline __attribute__((always_inline)) int32x4_t requantize_half(int32x4_t acc, const int32_t* q,
                                                                int32_t j,
                                                                int32_t output_offset) {
  const int32x4_t multiplier = vld1q_s32(q + kGroup + 4 * j);
  const int32x4_t neg_right = vld1q_s32(q + 3 * kGroup + 4 * j);
  int32x4_t v;
  if constexpr (kRight) {
    v = vqrdmulhq_s32(acc, multiplier);
    v = vrshlq_s32(vqaddq_s32(v, vshrq_n_s32(v, 31)), neg_right);
  } else {
    v = kernels::mve::requantize_lanes(acc, multiplier, vld1q_s32(q + 2 * kGroup + 4 * j),
                                       neg_right);
  }
  return vaddq_n_s32(v, output_offset);
}

// Both halves narrow with int16 saturation, which commutes with the int8
// activation clamp, so one clamp serves all 8 channels (even and odd channels
// into the even and odd int16 lanes); then the bytes are stored.
template <bool kTail>
inline __attribute__((always_inline)) void store_group(int8_t* out, int32x4_t even,
                                                       int32x4_t odd, int16x8_t lo,
                                                       int16x8_t hi, mve_pred16_t live) {
  // VQMOVNB keeps the odd lanes of its first operand, which VQMOVNT then
  // overwrites: any register serves, and `odd` costs no extra move.
  int16x8_t narrowed =
      vqmovntq_s32(vqmovnbq_s32(vreinterpretq_s16_s32(odd), even), odd);
  narrowed = vminq_s16(vmaxq_s16(narrowed, lo), hi);
  if constexpr (kTail) {
    vstrbq_p_s16(out, narrowed, live);
  } else {
    vstrbq_s16(out, narrowed);
  }
}

// What every pixel's requantisation shares, kept in registers across a row
// (pixel_pair_right reads lo and hi from memory, one after the other).
struct Output {
  int32_t offset;
  int16x8_t lo, hi;
  mve_pred16_t live;  // the channels of a last group of 4
};
static_assert(offsetof(Output, hi) == offsetof(Output, lo) + 16, "lo, hi adjacent");

// A full group of two pixels when every shift is negative and every
// multiplier non-negative: the 9 taps and the requantisation in one block, so
// that all eight vector registers serve it and the multiply and integer pipes
// alternate (about a quarter fewer estimated cycles than the pieces above).
// Two exact rewrites of requantize_half<true> move work off the integer pipe:
//  - the step down for negative values is taken from the accumulator's sign,
//    VQDMULH by 1 (multiply pipe), instead of the product's: they differ only
//    where the product DHM(acc, M) is 0 with acc negative (M >= 0), and there
//    RDIV(-1, R >= 1) is 0 as well;
//  - the output offset is added after the narrowing, saturating in int16
//    (8 lanes at once): |RQ| <= 2^30 when R >= 1, so the reference's int32
//    sum never wraps, and clamping to [lo, hi] (within int8) after int16
//    saturation gives what clamping the exact sum gives.
template <int32_t kStride>
inline __attribute__((always_inline)) void pixel_pair_right(const int32_t* q, const int8_t* w,
                                                            const int8_t* x0, const int8_t* x1,
                                                            const int8_t* x2, int8_t* out,
                                                            ptrdiff_t out_step, const Output& o) {
  int32x4_t a0, a1, b0, b1, t0, t1;
  int16x8_t xv, wv;
  int8_t* out_b = out + out_step;
  const int32_t one = 1;
#define ETNS_DW3_RQ                                                                  \
  "vldrw.u32 %q[t0], [%[q], #32]\n\t"     /* even channels' multipliers */          \
  "vldrw.u32 %q[wv], [%[q], #48]\n\t"     /* odd channels' */                       \
  "vqdmulh.s32 %q[xv], %q[a0], %[one]\n\t" /* -1 where a0 < 0, else 0 */             \
  "vqrdmulh.s32 %q[a0], %q[a0], %q[t0]\n\t"                                          \
  "vqdmulh.s32 %q[t1], %q[b0], %[one]\n\t"                                           \
  "vqrdmulh.s32 %q[b0], %q[b0], %q[t0]\n\t"                                          \
  "vqadd.s32 %q[a0], %q[a0], %q[xv]\n\t"                                             \
  "vldrw.u32 %q[xv], [%[q], #96]\n\t"     /* even channels' -R */                    \
  "vqdmulh.s32 %q[t0], %q[a1], %[one]\n\t"                                           \
  "vqadd.s32 %q[b0], %q[b0], %q[t1]\n\t"                                             \
  "vqrdmulh.s32 %q[a1], %q[a1], %q[wv]\n\t"                                          \
  "vrshl.s32 %q[a0], %q[a0], %q[xv]\n\t"                                             \
  "vqdmulh.s32 %q[t1], %q[b1], %[one]\n\t"                                           \
  "vrshl.s32 %q[b0], %q[b0], %q[xv]\n\t"                                             \
  "vqrdmulh.s32 %q[b1], %q[b1], %q[wv]\n\t"                                          \
  "vqadd.s32 %q[a1], %q[a1], %q[t0]\n\t"                                             \
  "vldrw.u32 %q[xv], [%[q], #112]\n\t"    /* odd channels' -R */                     \
  "vqadd.s32 %q[b1], %q[b1], %q[t1]\n\t"                                             \
  "vrshl.s32 %q[a1], %q[a1], %q[xv]\n\t"                                             \
  "vqmovnb.s32 %q[t0], %q[a0]\n\t"       /* even channels into even int16 lanes */  \
  "vrshl.s32 %q[b1], %q[b1], %q[xv]\n\t"                                             \
  "vqmovnb.s32 %q[wv], %q[b0]\n\t"                                                   \
  "vqmovnt.s32 %q[t0], %q[a1]\n\t"       /* odd ones into odd lanes */              \
  "vldrw.u32 %q[xv], [%[clamp]]\n\t"                                                 \
  "vqmovnt.s32 %q[wv], %q[b1]\n\t"                                                   \
  "vldrw.u32 %q[t1], [%[clamp], #16]\n\t"                                            \
  "vqadd.s16 %q[t0], %q[t0], %[offset]\n\t"                                          \
  "vqadd.s16 %q[wv], %q[wv], %[offset]\n\t"                                          \
  "vmax.s16 %q[t0], %q[t0], %q[xv]\n\t"                                              \
  "vmax.s16 %q[wv], %q[wv], %q[xv]\n\t"                                              \
  "vmin.s16 %q[t0], %q[t0], %q[t1]\n\t"                                              \
  "vmin.s16 %q[wv], %q[wv], %q[t1]\n\t"                                              \
  "vstrb.16 %q[t0], [%[out_a]]\n\t"                                                  \
  "vstrb.16 %q[wv], [%[out_b]]\n\t"
#define ETNS_DW3_BIAS                                                   \
  "vldrw.u32 %q[a0], [%[q]]\n\t" "vldrw.u32 %q[a1], [%[q], #16]\n\t" \
  "vldrw.u32 %q[b0], [%[q]]\n\t" "vldrw.u32 %q[b1], [%[q], #16]\n\t"
  // One block, its taps written for the stride (ROW).
#define ETNS_DW3_PAIR_RIGHT(ROW)                                                      \
  asm volatile(ETNS_DW3_BIAS ETNS_DW3_PAIR(ROW) ETNS_DW3_RQ                           \
               : [a0] "=&w"(a0), [a1] "=&w"(a1), [b0] "=&w"(b0), [b1] "=&w"(b1),      \
                 [xv] "=&w"(xv), [wv] "=&w"(wv), [t0] "=&w"(t0), [t1] "=&w"(t1)       \
               : [x0] "l"(x0), [x1] "l"(x1), [x2] "l"(x2), [w] "l"(w), [q] "r"(q),     \
                 [one] "r"(one), [offset] "r"(o.offset), [clamp] "r"(&o.lo),          \
                 [out_a] "l"(out), [out_b] "l"(out_b)                                 \
               : "memory")
  if constexpr (kStride == 1) {
    ETNS_DW3_PAIR_RIGHT(ETNS_DW3_ROW2_S1);
  } else {
    ETNS_DW3_PAIR_RIGHT(ETNS_DW3_ROW2_S2);
  }
#undef ETNS_DW3_PAIR_RIGHT
#undef ETNS_DW3_BIAS
#undef ETNS_DW3_RQ
}

// One pixel of a full group, the same way (a row's odd last pixel).
inline __attribute__((always_inline)) void pixel_one_right(const int32_t* q, const int8_t* w,
                                                           const int8_t* x0, const int8_t* x1,
                                                           const int8_t* x2, int8_t* out,
                                                           const Output& o) {
  int32x4_t a0, a1, t0, t1;
  int16x8_t xv, wv;
  const int32_t one = 1;
  asm volatile(
      "vldrw.u32 %q[a0], [%[q]]\n\t"
      "vldrw.u32 %q[a1], [%[q], #16]\n\t"
      ETNS_DW3_ROW1("", "x0", "0", "8", "16")
      ETNS_DW3_ROW1(ETNS_DW3_ADD("a1", "t1"), "x1", "24", "32", "40")
      ETNS_DW3_ROW1(ETNS_DW3_ADD("a1", "t1"), "x2", "48", "56", "64")
      ETNS_DW3_ADD("a1", "t1")
      "vldrw.u32 %q[t0], [%[q], #32]\n\t"
      "vqdmulh.s32 %q[xv], %q[a0], %[one]\n\t"
      "vldrw.u32 %q[wv], [%[q], #48]\n\t"
      "vqrdmulh.s32 %q[a0], %q[a0], %q[t0]\n\t"
      "vqdmulh.s32 %q[t1], %q[a1], %[one]\n\t"
      "vqrdmulh.s32 %q[a1], %q[a1], %q[wv]\n\t"
      "vldrw.u32 %q[t0], [%[q], #96]\n\t"
      "vqadd.s32 %q[a0], %q[a0], %q[xv]\n\t"
      "vldrw.u32 %q[wv], [%[q], #112]\n\t"
      "vqadd.s32 %q[a1], %q[a1], %q[t1]\n\t"
      "vrshl.s32 %q[a0], %q[a0], %q[t0]\n\t"
      "vrshl.s32 %q[a1], %q[a1], %q[wv]\n\t"
      "vqmovnb.s32 %q[t0], %q[a0]\n\t"
      "vldrw.u32 %q[xv], [%[clamp]]\n\t"
      "vqmovnt.s32 %q[t0], %q[a1]\n\t"
      "vldrw.u32 %q[t1], [%[clamp], #16]\n\t"
      "vqadd.s16 %q[t0], %q[t0], %[offset]\n\t"
      "vmax.s16 %q[t0], %q[t0], %q[xv]\n\t"
      "vmin.s16 %q[t0], %q[t0], %q[t1]\n\t"
      "vstrb.16 %q[t0], [%[out]]\n\t"
      : [a0] "=&w"(a0), [a1] "=&w"(a1), [xv] "=&w"(xv), [wv] "=&w"(wv), [t0] "=&w"(t0),
        [t1] "=&w"(t1)
      : [x0] "l"(x0), [x1] "l"(x1), [x2] "l"(x2), [w] "l"(w), [q] "r"(q), [one] "r"(one),
        [offset] "r"(o.offset), [clamp] "r"(&o.lo), [out] "l"(out)
      : "memory");
}
#undef ETNS_DW3_TAP1
#undef ETNS_DW3_ROW1
#undef ETNS_DW3_PAIR
#undef ETNS_DW3_ROW2_S2
#undef ETNS_DW3_ROW2_S1
#undef ETNS_DW3_TAP2
#undef ETNS_DW3_OWED
#undef ETNS_DW3_ADD
#undef ETNS_DW3_LOAD

// Two adjacent output pixels (a, then b one stride on), one group of 8
// channels: x0..x2 are a's first columns in the group's three padded rows.
// The weight loads and the per-channel constants serve both pixels.
template <bool kTail, int32_t kStride, bool kRight>
inline __attribute__((always_inline)) void pixel_pair(const int32_t* q, const int8_t* w,
                                                      const int8_t* x0, const int8_t* x1,
                                                      const int8_t* x2, int8_t* out,
                                                      ptrdiff_t out_step, const Output& o) {
  if constexpr (kRight && !kTail) {
    pixel_pair_right<kStride>(q, w, x0, x1, x2, out, out_step, o);
    return;
  }
  // Opaque to the compiler, so that it loads the per-channel constants where
  // they are used instead of hoisting them into stack spills.
  asm volatile("" : "+r"(q));
  int32x4_t a0 = vld1q_s32(q), a1 = vld1q_s32(q + 4);
  int32x4_t b0 = a0, b1 = a1;
  mac_taps2<kStride>(a0, a1, b0, b1, x0, x1, x2, w);
  a0 = requantize_half<kRight>(a0, q, 0, o.offset);
  b0 = requantize_half<kRight>(b0, q, 0, o.offset);
  a1 = requantize_half<kRight>(a1, q, 1, o.offset);
  b1 = requantize_half<kRight>(b1, q, 1, o.offset);
  store_group<kTail>(out, a0, a1, o.lo, o.hi, o.live);
  store_group<kTail>(out + out_step, b0, b1, o.lo, o.hi, o.live);
}

// One output pixel, one group of 8 channels (a row's odd last pixel).
template <bool kTail, bool kRight>
inline __attribute__((always_inline)) void pixel_one(const int32_t* q, const int8_t* w,
                                                     const int8_t* x0, const int8_t* x1,
                                                     const int8_t* x2, int8_t* out,
                                                     const Output& o) {
  if constexpr (kRight && !kTail) {
    pixel_one_right(q, w, x0, x1, x2, out, o);
    return;
  }
  asm volatile("" : "+r"(q));
  int32x4_t a0 = vld1q_s32(q), a1 = vld1q_s32(q + 4);
  mac_taps(a0, a1, x0, x1, x2, w);
  store_group<kTail>(out, requantize_half<kRight>(a0, q, 0, o.offset),
                     requantize_half<kRight>(a1, q, 1, o.offset), o.lo, o.hi, o.live);
}

// One output row, one group of 8 channels: x0..x2 are the group's part of
// the three padded input rows; pixels two at a time.
template <bool kTail, int32_t kStride, bool kRight>
void row_group(const DepthwiseConv2dParams& p, const int32_t* q, const int8_t* w,
               const int8_t* x0, const int8_t* x1, const int8_t* x2, int8_t* out,
               const Output& o) {
  constexpr int32_t kStep = kStride * kGroup;
  const ptrdiff_t out_step = p.output_c;
  int32_t ox = p.output_w;
  for (; ox >= 2; ox -= 2, x0 += 2 * kStep, x1 += 2 * kStep, x2 += 2 * kStep,
                  out += 2 * out_step) {
    pixel_pair<kTail, kStride, kRight>(q, w, x0, x1, x2, out, out_step, o);
  }
  if (ox > 0) pixel_one<kTail, kRight>(q, w, x0, x1, x2, out, o);
}

// One output row from the three padded input rows. A row wider than it is
// deep runs group by group along the row (the loop set-up once per group); a
// narrow deep one (DS-CNN's 5 pixels by 8 groups) pixel pair by pixel pair,
// groups innermost, so the per-pixel set-up is shared by every group.
template <int32_t kStride, bool kRight>
void output_row(const DepthwiseConv2dParams& p, const int32_t* constants, const int8_t* weights,
                const int8_t* const row[3], ptrdiff_t group_row, int8_t* out_line) {
  const int32_t full = p.input_c / kGroup;
  const bool tail = full * kGroup < p.input_c;
  const ptrdiff_t out_step = p.output_c;
  Output o;
  o.offset = p.output_offset;
  o.lo = vdupq_n_s16(static_cast<int16_t>(p.activation_min));
  o.hi = vdupq_n_s16(static_cast<int16_t>(p.activation_max));
  o.live = vctp16q(static_cast<uint32_t>(p.input_c - full * kGroup));
  if (p.output_w >= 2 * groups(p)) {
    const int8_t* x0 = row[0];
    const int8_t* x1 = row[1];
    const int8_t* x2 = row[2];
    for (int32_t g = 0; g < full; ++g, x0 += group_row, x1 += group_row, x2 += group_row) {
      row_group<false, kStride, kRight>(p, constants + g * 4 * kGroup,
                                        weights + g * kTaps * kGroup, x0, x1, x2,
                                        out_line + g * kGroup, o);
    }
    if (tail) {
      row_group<true, kStride, kRight>(p, constants + full * 4 * kGroup,
                                       weights + full * kTaps * kGroup, x0, x1, x2,
                                       out_line + full * kGroup, o);
    }
    return;
  }
  int32_t ox = 0;
  for (; ox + 2 <= p.output_w; ox += 2) {
    const ptrdiff_t column = static_cast<ptrdiff_t>(ox) * kStride * kGroup;
    const int8_t* x0 = row[0] + column;
    const int8_t* x1 = row[1] + column;
    const int8_t* x2 = row[2] + column;
    const int32_t* q = constants;
    const int8_t* w = weights;
    int8_t* out = out_line + static_cast<ptrdiff_t>(ox) * out_step;
    for (int32_t g = full; g > 0; --g, x0 += group_row, x1 += group_row, x2 += group_row,
                 q += 4 * kGroup, w += kTaps * kGroup, out += kGroup) {
      pixel_pair<false, kStride, kRight>(q, w, x0, x1, x2, out, out_step, o);
    }
    if (tail) pixel_pair<true, kStride, kRight>(q, w, x0, x1, x2, out, out_step, o);
  }
  if (ox < p.output_w) {
    const ptrdiff_t column = static_cast<ptrdiff_t>(ox) * kStride * kGroup;
    const int8_t* x0 = row[0] + column;
    const int8_t* x1 = row[1] + column;
    const int8_t* x2 = row[2] + column;
    const int32_t* q = constants;
    const int8_t* w = weights;
    int8_t* out = out_line + static_cast<ptrdiff_t>(ox) * out_step;
    for (int32_t g = full; g > 0; --g, x0 += group_row, x1 += group_row, x2 += group_row,
                 q += 4 * kGroup, w += kTaps * kGroup, out += kGroup) {
      pixel_one<false, kRight>(q, w, x0, x1, x2, out, o);
    }
    if (tail) pixel_one<true, kRight>(q, w, x0, x1, x2, out, o);
  }
}

int8_t* aligned_base(uint8_t* scratch) {
  return reinterpret_cast<int8_t*>((reinterpret_cast<uintptr_t>(scratch) + 15) & ~uintptr_t{15});
}

#endif  // ETNS_HAVE_MVE

}  // namespace

bool depthwise_conv2d_3x3_handles(const DepthwiseConv2dParams& p) {
  return p.filter_h == 3 && p.filter_w == 3 && p.depth_multiplier == 1 && p.dilation_h == 1 &&
         p.dilation_w == 1 && (p.stride_h == 1 || p.stride_h == 2) &&
         (p.stride_w == 1 || p.stride_w == 2) && p.input_c % 4 == 0 && p.pad_h <= 2 &&
         p.pad_w <= 2;
}

size_t depthwise_conv2d_3x3_s8_mve_scratch_bytes(const DepthwiseConv2dParams& p) {
  if (!depthwise_conv2d_3x3_handles(p)) return depthwise_conv2d_mult_s8_mve_scratch_bytes(p);
  return constants_bytes(p) + weights_bytes(p) + 3 * slot_bytes(p) + 15;  // + room to align
}

#if ETNS_HAVE_MVE

void depthwise_conv2d_3x3_s8_mve(const DepthwiseConv2dParams& p, const int8_t* input,
                                 const int8_t* weight, const int32_t* bias, int8_t* out,
                                 uint8_t* scratch) {
  if (!depthwise_conv2d_3x3_handles(p)) {
    depthwise_conv2d_mult_s8_mve(p, input, weight, bias, out, scratch);
    return;
  }
  int8_t* base = aligned_base(scratch);
  int32_t* constants = reinterpret_cast<int32_t*>(base);
  int8_t* weights = base + constants_bytes(p);
  int8_t* slots = weights + weights_bytes(p);
  const bool right = fill_constants(p, weight, bias, constants, weights);

  const ptrdiff_t group_row = static_cast<ptrdiff_t>(padded_w(p)) * kGroup;
  const size_t slot_size = slot_bytes(p);
  const size_t image_bytes = static_cast<size_t>(p.input_h) * p.input_w * p.input_c;
  const size_t out_row = static_cast<size_t>(p.output_w) * p.output_c;
  for (int32_t n = 0; n < p.batches; ++n) {
    const int8_t* image = input + static_cast<size_t>(n) * image_bytes;
    // Which input row each slot holds; row iy lives in slot iy mod 3, so the
    // rows an output row shares with the previous one are not copied again.
    int32_t held[3] = {INT32_MIN, INT32_MIN, INT32_MIN};
    for (int32_t oy = 0; oy < p.output_h; ++oy) {
      const int8_t* row[3];
      for (int32_t ky = 0; ky < 3; ++ky) {
        const int32_t iy = oy * p.stride_h - p.pad_h + ky;
        const int32_t slot = ((iy % 3) + 3) % 3;
        int8_t* s = slots + static_cast<size_t>(slot) * slot_size;
        if (held[slot] != iy) {
          const bool inside = iy >= 0 && iy < p.input_h;
          fill_slot(p, inside ? image + static_cast<size_t>(iy) * p.input_w * p.input_c : nullptr,
                    s);
          held[slot] = iy;
        }
        row[ky] = s;
      }
      int8_t* out_line = out + (static_cast<size_t>(n) * p.output_h + oy) * out_row;
      if (p.stride_w == 1) {
        if (right) {
          output_row<1, true>(p, constants, weights, row, group_row, out_line);
        } else {
          output_row<1, false>(p, constants, weights, row, group_row, out_line);
        }
      } else if (right) {
        output_row<2, true>(p, constants, weights, row, group_row, out_line);
      } else {
        output_row<2, false>(p, constants, weights, row, group_row, out_line);
      }
    }
  }
}

#endif  // ETNS_HAVE_MVE

}  // namespace etns::cortex_m
