// Helium variant "mve_rows" of cortex_m::quantized_conv2d.out (conv2d.h) for
// the first layers of image models: 3 filter rows whose each row is one short
// run of 8 to 16 bytes (filter_w * input_c: 3x3 over RGB is 9), one group, no
// dilation, bit-exact with conv2d_s8_ref (docs/numerics.md#conv2d). Any other
// shape goes to conv2d_s8_mve_3x3 (and its fallbacks).
//
// The general variants see such a layer as a matrix product with a 27-byte
// window per pixel, which they gather into scratch and round up to 32 bytes;
// the gathering and the per-block overheads cost several times the MACs.
// Here a pixel's window is not gathered: each filter row is one unaligned
// 16-byte load from a zero-point-padded copy of its input row, and each
// (output channel, filter row) weight run is stored once per call as 16
// bytes, zeros past the run, so the lanes past it contribute nothing. Per
// pixel and 8 output channels: 3 input loads, 24 weight loads and 24
// VMLADAVA into 8 accumulators in general registers, each load between two
// VMLADAVA.
#include "kernels/cortex_m/conv2d/conv2d.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>
#endif

#include "kernels/common/requantize_mve.h"

namespace etns::cortex_m {
namespace {

constexpr int32_t kChannels = 8;    // output channels per pass: the VMLADAVA accumulators
constexpr int32_t kRun = 16;        // bytes per stored weight run (one vector)
constexpr int32_t kChunkPixels = 16;  // pixels whose sums are kept before requantising
constexpr size_t kMaxScratchBytes = 4096;

size_t round16(size_t n) { return (n + 15) & ~size_t{15}; }

// Scratch, carved at 16-byte offsets from a 16-byte aligned base:
//   runs    int8[passes][3][8][16]: weight runs, zeros past filter_w * input_c
//           and for channels past output_c
//   tables  int32[4][passes * 8]: bias + input_offset * sum(w) (per call),
//           multiplier, max(shift, 0), min(shift, 0)
//   sums    int32[16][8]: a chunk of pixels' sums for one pass
//   ring    three slots of one padded input row each (input row iy in slot
//           iy mod 3): columns outside the image hold the input zero point,
//           and 16 bytes more take the last pixel's full-vector load.
struct Layout {
  int32_t passes = 0;
  int32_t padded_w = 0;  // input columns a slot holds
  size_t slot = 0;
  size_t runs = 0, tables = 0, sums = 0, ring = 0, total = 0;
};

Layout layout(const Conv2dParams& p) {
  Layout l;
  l.passes = (p.output_c + kChannels - 1) / kChannels;
  l.padded_w = (p.output_w - 1) * p.stride_w + p.filter_w;
  l.slot = round16(static_cast<size_t>(l.padded_w) * static_cast<size_t>(p.input_c) + kRun);
  l.runs = 0;
  l.tables = static_cast<size_t>(l.passes) * 3 * kChannels * kRun;
  l.sums = l.tables + 4 * sizeof(int32_t) * static_cast<size_t>(l.passes) * kChannels;
  l.ring = l.sums + sizeof(int32_t) * kChunkPixels * kChannels;
  l.total = l.ring + 3 * l.slot + 15;  // room to align the base
  return l;
}

}  // namespace

bool conv2d_rows_handles(const Conv2dParams& p) {
  if (p.filter_h != 3 || p.filter_c != p.input_c || p.dilation_h != 1 || p.dilation_w != 1) {
    return false;
  }
  const int32_t run = p.filter_w * p.input_c;
  if (p.filter_w < 1 || p.input_c < 1 || run < 8 || run > kRun) return false;
  if (p.stride_h < 1 || p.stride_h > 4 || p.stride_w < 1 || p.stride_w > 4) return false;
  if (p.pad_h < 0 || p.pad_h > 2 || p.pad_w < 0 || p.pad_w > 4) return false;
  if (p.output_c < 1 || p.output_c > 64 || p.output_h < 1 || p.output_w < 1) return false;
  // Widths bounded first so that the layout's arithmetic cannot overflow.
  if (p.output_w > 4096) return false;
  return layout(p).total <= kMaxScratchBytes;
}

size_t conv2d_s8_mve_rows_scratch_bytes(const Conv2dParams& p) {
  const size_t fallback = conv2d_s8_mve_3x3_scratch_bytes(p);
  if (!conv2d_rows_handles(p)) return fallback;
  const size_t own = layout(p).total;
  return own > fallback ? own : fallback;
}

#if ETNS_HAVE_MVE
namespace {

// The weight runs and per-channel tables, per call (the weights need not be
// constants). Sums wrap mod 2^32 like the reference's int32 accumulator:
// sum((x + io) * w) = sum(x * w) + io * sum(w), so raw int8 input feeds
// VMLADAVA. Returns whether every shift is negative and every multiplier
// non-negative (the requantisation's short form).
bool fill_runs(const Conv2dParams& p, const Layout& l, const int8_t* weight, const int32_t* bias,
               int8_t* runs, int32_t* tables) {
  const int32_t run = p.filter_w * p.input_c;
  const size_t n = static_cast<size_t>(l.passes) * kChannels;
  int32_t* corrected = tables;
  int32_t* multipliers = tables + n;
  int32_t* lefts = tables + 2 * n;
  int32_t* neg_rights = tables + 3 * n;
  const mve_pred16_t live = vctp8q(static_cast<uint32_t>(run));
  bool right = true;
  for (size_t oc = 0; oc < n; ++oc) {
    const int32_t pass = static_cast<int32_t>(oc) / kChannels;
    const int32_t lane = static_cast<int32_t>(oc) % kChannels;
    const bool real = oc < static_cast<size_t>(p.output_c);
    int32_t sum = 0;
    for (int32_t ky = 0; ky < 3; ++ky) {
      int8_t* dst = runs + ((pass * 3 + ky) * kChannels + lane) * kRun;
      const int8x16_t w =
          real ? vldrbq_z_s8(weight + (oc * 3 + static_cast<size_t>(ky)) * run, live)
               : vdupq_n_s8(0);
      vst1q_s8(dst, w);
      sum = vaddvaq_s8(sum, w);
    }
    if (!real) {
      corrected[oc] = multipliers[oc] = lefts[oc] = neg_rights[oc] = 0;
      continue;
    }
    const uint32_t b = bias != nullptr ? static_cast<uint32_t>(bias[oc]) : 0u;
    corrected[oc] =
        static_cast<int32_t>(b + static_cast<uint32_t>(p.input_offset) * static_cast<uint32_t>(sum));
    const int32_t shift = p.shifts[oc];
    multipliers[oc] = p.multipliers[oc];
    lefts[oc] = shift > 0 ? shift : 0;
    neg_rights[oc] = shift < 0 ? shift : 0;
    right = right && shift < 0 && p.multipliers[oc] >= 0;
  }
  return right;
}

// Copies input row iy (or, outside the image, nothing) into a slot: column j
// holds input column j - pad_w, the zero point where that is outside.
void fill_slot(const Conv2dParams& p, const Layout& l, const int8_t* image, int32_t iy,
               int8_t* slot) {
  const int8x16_t zero_point = vdupq_n_s8(static_cast<int8_t>(-p.input_offset));
  for (size_t i = 0; i < l.slot; i += 16) vst1q_s8(slot + i, zero_point);
  if (iy < 0 || iy >= p.input_h) return;
  const int32_t first = p.pad_w < l.padded_w ? p.pad_w : l.padded_w;
  const int32_t last = p.pad_w + p.input_w < l.padded_w ? p.pad_w + p.input_w : l.padded_w;
  if (first >= last) return;
  const int8_t* src = image + (static_cast<ptrdiff_t>(iy) * p.input_w + (first - p.pad_w)) * p.input_c;
  int8_t* dst = slot + static_cast<ptrdiff_t>(first) * p.input_c;
  for (int32_t n = (last - first) * p.input_c; n > 0; n -= 16, src += 16, dst += 16) {
    const mve_pred16_t live = vctp8q(static_cast<uint32_t>(n));
    vstrbq_p_s8(dst, vldrbq_z_s8(src, live), live);
  }
}

// One accumulator's three filter rows are 8 runs apart; the 24 VMLADAVA go
// row by row, channel by channel, and the weight runs alternate between two
// registers, each loaded one VMLADAVA ahead.
#define ETNS_ROWS_W(q) "vldrb.8 " q ", [%[w]], #16\n\t"
#define ETNS_ROWS_MAC(op, acc, x, q) op " %[" acc "], " x ", " q "\n\t"
#define ETNS_ROWS_ROW(op, x)                                                          \
  ETNS_ROWS_MAC(op, "a0", x, "q3") ETNS_ROWS_W("q3") ETNS_ROWS_MAC(op, "a1", x, "q4")  \
  ETNS_ROWS_W("q4") ETNS_ROWS_MAC(op, "a2", x, "q3") ETNS_ROWS_W("q3")                \
  ETNS_ROWS_MAC(op, "a3", x, "q4") ETNS_ROWS_W("q4") ETNS_ROWS_MAC(op, "a4", x, "q3")  \
  ETNS_ROWS_W("q3") ETNS_ROWS_MAC(op, "a5", x, "q4") ETNS_ROWS_W("q4")                \
  ETNS_ROWS_MAC(op, "a6", x, "q3") ETNS_ROWS_W("q3") ETNS_ROWS_MAC(op, "a7", x, "q4")

// `pixels` >= 1 pixels of one pass: x0..x2 the first pixel's first byte in
// the three filter rows' slots, `step` bytes to the next pixel; runs the
// pass's 24 weight runs; each pixel's 8 sums to sums[pixel][8]. VMLADAVA
// accumulates into even registers only: the eight sums take r0, r2, ...,
// r12 and lr, the pointers the odd ones. Its own function: the asm takes
// every register but sp and pc.
__attribute__((noinline)) void mac_pixels(const int8_t* x0, const int8_t* x1, const int8_t* x2,
                                          const int8_t* runs, int32_t* sums, int32_t pixels,
                                          int32_t step) {
  const int32_t* const end = sums + static_cast<ptrdiff_t>(pixels) * kChannels;
  int32_t a0, a1, a2, a3, a4, a5, a6, a7;
  asm volatile(
      "1:\n\t"
      "vldrb.8 q0, [%[x0]]\n\t"
      "vldrb.8 q3, [%[w]], #16\n\t"
      "vldrb.8 q1, [%[x1]]\n\t"
      "vldrb.8 q4, [%[w]], #16\n\t"
      "vldrb.8 q2, [%[x2]]\n\t"
      ETNS_ROWS_ROW("vmladav.s8", "q0") ETNS_ROWS_W("q4")
      ETNS_ROWS_ROW("vmladava.s8", "q1") ETNS_ROWS_W("q4")
      // The last row: no run past the pass's 24th.
      ETNS_ROWS_MAC("vmladava.s8", "a0", "q2", "q3") ETNS_ROWS_W("q3")
      ETNS_ROWS_MAC("vmladava.s8", "a1", "q2", "q4") ETNS_ROWS_W("q4")
      ETNS_ROWS_MAC("vmladava.s8", "a2", "q2", "q3") ETNS_ROWS_W("q3")
      ETNS_ROWS_MAC("vmladava.s8", "a3", "q2", "q4") ETNS_ROWS_W("q4")
      ETNS_ROWS_MAC("vmladava.s8", "a4", "q2", "q3") ETNS_ROWS_W("q3")
      ETNS_ROWS_MAC("vmladava.s8", "a5", "q2", "q4") ETNS_ROWS_W("q4")
      ETNS_ROWS_MAC("vmladava.s8", "a6", "q2", "q3")
      ETNS_ROWS_MAC("vmladava.s8", "a7", "q2", "q4")
      "strd %[a0], %[a1], [%[sums]], #8\n\t"
      "strd %[a2], %[a3], [%[sums]], #8\n\t"
      "strd %[a4], %[a5], [%[sums]], #8\n\t"
      "strd %[a6], %[a7], [%[sums]], #8\n\t"
      "sub %[w], %[w], #(24*16)\n\t"
      "ldr %[a0], %[step_m]\n\t"
      "add %[x0], %[x0], %[a0]\n\t"
      "add %[x1], %[x1], %[a0]\n\t"
      "add %[x2], %[x2], %[a0]\n\t"
      "ldr %[a0], %[end_m]\n\t"
      "cmp %[sums], %[a0]\n\t"
      "bne 1b\n"
      : [a0] "=&Te"(a0), [a1] "=&Te"(a1), [a2] "=&Te"(a2), [a3] "=&Te"(a3), [a4] "=&Te"(a4),
        [a5] "=&Te"(a5), [a6] "=&Te"(a6), [a7] "=&Te"(a7), [x0] "+r"(x0), [x1] "+r"(x1),
        [x2] "+r"(x2), [w] "+r"(runs), [sums] "+r"(sums)
      : [step_m] "m"(step), [end_m] "m"(end)
      : "q0", "q1", "q2", "q3", "q4", "cc", "memory");
}
#undef ETNS_ROWS_ROW
#undef ETNS_ROWS_MAC
#undef ETNS_ROWS_W

// What requantising shares, per call.
struct Output {
  int32_t offset;
  int32x4_t lo, hi;
};

// The sums of `pixels` pixels for 4 channels of a pass (quad q) to out,
// pixels out_step bytes apart; `channels` (1 to 4) of them are real.
template <bool kRight>
void requantize_quad(const int32_t* tables, size_t n, const int32_t* sums, int32_t pixels,
                     int8_t* out, ptrdiff_t out_step, const Output& o, int32_t channels) {
  const mve_pred16_t live = vctp32q(static_cast<uint32_t>(channels));
  const int32x4_t bias = vld1q_s32(tables);
  const int32x4_t multiplier = vld1q_s32(tables + n);
  const int32x4_t left = vld1q_s32(tables + 2 * n);
  const int32x4_t neg_right = vld1q_s32(tables + 3 * n);
  for (int32_t px = 0; px < pixels; ++px, sums += kChannels, out += out_step) {
    int32x4_t v = vaddq_s32(vld1q_s32(sums), bias);
    if constexpr (kRight) {
      v = vqrdmulhq_s32(v, multiplier);
      v = vrshlq_s32(vqaddq_s32(v, vshrq_n_s32(v, 31)), neg_right);
    } else {
      v = kernels::mve::requantize_lanes(v, multiplier, left, neg_right);
    }
    v = vminq_s32(vmaxq_s32(vaddq_n_s32(v, o.offset), o.lo), o.hi);
    vstrbq_p_s32(out, v, live);
  }
}

template <bool kRight>
void run(const Conv2dParams& p, const Layout& l, const int8_t* input, const int8_t* runs,
         const int32_t* tables, int32_t* sums, int8_t* ring, int8_t* out) {
  const size_t n = static_cast<size_t>(l.passes) * kChannels;
  const size_t image_bytes = static_cast<size_t>(p.input_h) * p.input_w * p.input_c;
  const ptrdiff_t out_row = static_cast<ptrdiff_t>(p.output_w) * p.output_c;
  const int32_t step = p.stride_w * p.input_c;
  Output o;
  o.offset = p.output_offset;
  o.lo = vdupq_n_s32(p.activation_min);
  o.hi = vdupq_n_s32(p.activation_max);
  for (int32_t b = 0; b < p.batches; ++b) {
    const int8_t* image = input + static_cast<size_t>(b) * image_bytes;
    // Which input row each slot holds: row iy lives in slot iy mod 3.
    int32_t held[3] = {INT32_MIN, INT32_MIN, INT32_MIN};
    for (int32_t oy = 0; oy < p.output_h; ++oy) {
      const int8_t* rows[3];
      for (int32_t ky = 0; ky < 3; ++ky) {
        const int32_t iy = oy * p.stride_h - p.pad_h + ky;
        const int32_t s = ((iy % 3) + 3) % 3;
        int8_t* slot = ring + static_cast<size_t>(s) * l.slot;
        if (held[s] != iy) {
          fill_slot(p, l, image, iy, slot);
          held[s] = iy;
        }
        rows[ky] = slot;
      }
      int8_t* out_line = out + (static_cast<ptrdiff_t>(b) * p.output_h + oy) * out_row;
      for (int32_t first = 0; first < p.output_w; first += kChunkPixels) {
        const int32_t count =
            p.output_w - first < kChunkPixels ? p.output_w - first : kChunkPixels;
        const ptrdiff_t at = static_cast<ptrdiff_t>(first) * step;
        for (int32_t pass = 0; pass < l.passes; ++pass) {
          mac_pixels(rows[0] + at, rows[1] + at, rows[2] + at,
                     runs + static_cast<ptrdiff_t>(pass) * 3 * kChannels * kRun, sums, count,
                     step);
          for (int32_t q = 0; q < 2; ++q) {
            const int32_t c = pass * kChannels + 4 * q;
            if (c >= p.output_c) break;
            const int32_t channels = p.output_c - c < 4 ? p.output_c - c : 4;
            requantize_quad<kRight>(tables + c, n, sums + 4 * q, count,
                                    out_line + static_cast<ptrdiff_t>(first) * p.output_c + c,
                                    p.output_c, o, channels);
          }
        }
      }
    }
  }
}

}  // namespace

void conv2d_s8_mve_rows(const Conv2dParams& p, const int8_t* input, const int8_t* weight,
                        const int32_t* bias, int8_t* out, uint8_t* scratch) {
  if (!conv2d_rows_handles(p)) {
    conv2d_s8_mve_3x3(p, input, weight, bias, out, scratch);
    return;
  }
  const Layout l = layout(p);
  uint8_t* base = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(scratch) + 15) &
                                             ~uintptr_t{15});
  int8_t* runs = reinterpret_cast<int8_t*>(base + l.runs);
  int32_t* tables = reinterpret_cast<int32_t*>(base + l.tables);
  int32_t* sums = reinterpret_cast<int32_t*>(base + l.sums);
  int8_t* ring = reinterpret_cast<int8_t*>(base + l.ring);
  if (fill_runs(p, l, weight, bias, runs, tables)) {
    run<true>(p, l, input, runs, tables, sums, ring, out);
  } else {
    run<false>(p, l, input, runs, tables, sums, ring, out);
  }
}

#endif  // ETNS_HAVE_MVE

}  // namespace etns::cortex_m
