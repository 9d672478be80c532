// Helium (MVE) variant of cortex_m::quantized_transpose_conv2d.out, bit-exact
// with transpose_conv2d_s8_ref (docs/numerics.md#transpose_conv2d explains why).
#include "kernels/cortex_m/transpose_conv2d/transpose_conv2d.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>
#endif

#include "kernels/common/requantize_mve.h"

#include "kernels/common/requantize.h"

namespace etns::cortex_m {
namespace {

using kernels::clamp_s32;
using kernels::Requant;
using kernels::requantize;

size_t round16(size_t n) { return (n + 15) & ~size_t{15}; }

// Scratch, carved at 16-byte offsets from a 16-byte aligned base:
//   tap_sums  int32[filter_h][filter_w][output_c]: input_offset * sum_ic(w), per call
//   row_sums  int32[filter_w][output_c]: tap_sums summed over one output row's filter rows
//   col_sums  const int32_t*[filter_w]: the row_sums rows of the current pixel's reaching columns
//   rows      int32[filter_h][2]: (ky, iy) of the filter rows reaching the current output row
//   cols      int32[filter_w][2]: (kx, ix) of the filter columns reaching the current pixel
//   inputs    const int8_t*[filter_h * filter_w]: the current pixel's reaching taps' input pixels
//   weights   uint32[filter_h * filter_w]: their offsets in one output channel's weights
struct Layout {
  size_t tap_sums = 0, row_sums = 0, col_sums = 0, rows = 0, cols = 0, inputs = 0, weights = 0,
         total = 0;
};

Layout layout(const TransposeConv2dParams& p) {
  Layout l;
  const size_t channels = static_cast<size_t>(p.output_c);
  const size_t taps = static_cast<size_t>(p.filter_h) * static_cast<size_t>(p.filter_w);
  size_t at = 0;
  l.tap_sums = at;
  at += round16(taps * channels * sizeof(int32_t));
  l.row_sums = at;
  at += round16(static_cast<size_t>(p.filter_w) * channels * sizeof(int32_t));
  l.col_sums = at;
  at += round16(static_cast<size_t>(p.filter_w) * kernels::kDevicePointerBytes);
  l.rows = at;
  at += round16(static_cast<size_t>(p.filter_h) * 2 * sizeof(int32_t));
  l.cols = at;
  at += round16(static_cast<size_t>(p.filter_w) * 2 * sizeof(int32_t));
  l.inputs = at;
  at += round16(taps * kernels::kDevicePointerBytes);
  l.weights = at;
  at += round16(taps * sizeof(uint32_t));
  l.total = at + 15;  // room to align the base
  return l;
}

// The filter indices k (and input indices i) with i * stride + k = t, 0 <= i <
// in_size, 0 <= k < kernel, written as pairs; returns how many. t in [0,
// 2^31) (prepare checks out + padding), so unsigned 32-bit division serves.
#if ETNS_HAVE_MVE
// Output channels sharing each loaded input vector.
constexpr int32_t kChannels = 4;

int32_t reaching_taps(uint32_t t, int32_t stride, int32_t in_size, int32_t kernel,
                      int32_t* pairs) {
  const uint32_t s = static_cast<uint32_t>(stride);
  int32_t count = 0;
  // k = t mod stride, then every stride-th, while i = (t - k) / stride falls
  // by one per step down to 0.
  int32_t i = static_cast<int32_t>(t / s);
  for (uint32_t k = t % s; k < static_cast<uint32_t>(kernel) && i >= 0; k += s, --i) {
    if (i >= in_size) continue;
    pairs[2 * count] = static_cast<int32_t>(k);
    pairs[2 * count + 1] = static_cast<int32_t>(i);
    ++count;
  }
  return count;
}

// acc += the dot product of a and b over n bytes, 16 per step, tail predicated.
inline __attribute__((always_inline)) int32_t dot_s8(int32_t acc, const int8_t* a,
                                                     const int8_t* b, int32_t n) {
  for (; n >= 16; n -= 16, a += 16, b += 16) acc = vmladavaq_s8(acc, vld1q_s8(a), vld1q_s8(b));
  if (n > 0) {
    const mve_pred16_t live = vctp8q(static_cast<uint32_t>(n));
    acc = vmladavaq_s8(acc, vldrbq_z_s8(a, live), vldrbq_z_s8(b, live));
  }
  return acc;
}

// RQ per lane with that lane's channel's (M, S), plus the output offset and
// the activation clamp (kernels/common/requantize_mve.h).
inline __attribute__((always_inline)) int32x4_t requantize_lanes(
    int32x4_t v, int32x4_t multiplier, int32x4_t shift, int32_t output_offset, int32_t lo,
    int32_t hi) {
  return kernels::mve::offset_clamp_lanes(kernels::mve::requantize_lanes(v, multiplier, shift),
                                          output_offset, lo, hi);
}

// What one output pixel reads: its reaching taps' input pixels and weight
// offsets (within one output channel's weights), and the folded offsets of
// its reaching filter columns (row_sums rows, Cout values each).
struct PixelTaps {
  const int8_t* const* inputs;
  const uint32_t* offsets;
  int32_t taps;
  const int32_t* const* sums;
  int32_t sum_count;
};

// Four output channels of one pixel, start to finish: the accumulators start
// from bias plus the folded offsets and stay in registers across all reaching
// taps; per tap each 16-byte input vector is loaded once and multiplied with
// the four channels' weights (VMLADAVA); then RQ, offset, clamp and a
// narrowing store. w is channel oc's weights, the others follow every
// w_stride bytes; kC16 when the input has exactly 16 channels (one vector per
// tap, no inner loop).
struct GroupOut {
  int32_t output_offset, lo, hi;
};
template <bool kC16>
inline __attribute__((always_inline)) void group4(const PixelTaps& px, const int32_t* bias,
                                                  int32_t oc, const int8_t* w, size_t w_stride,
                                                  int32_t n, const int32_t* multipliers,
                                                  const int32_t* shifts, const GroupOut& g,
                                                  int8_t* out) {
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  if (bias != nullptr) {
    a0 = bias[oc];
    a1 = bias[oc + 1];
    a2 = bias[oc + 2];
    a3 = bias[oc + 3];
  }
  // Wrapping adds, through uint32 (the folded offsets wrap like the reference).
  for (int32_t k = 0; k < px.sum_count; ++k) {
    const int32_t* sums = px.sums[k] + oc;
    a0 = static_cast<int32_t>(static_cast<uint32_t>(a0) + static_cast<uint32_t>(sums[0]));
    a1 = static_cast<int32_t>(static_cast<uint32_t>(a1) + static_cast<uint32_t>(sums[1]));
    a2 = static_cast<int32_t>(static_cast<uint32_t>(a2) + static_cast<uint32_t>(sums[2]));
    a3 = static_cast<int32_t>(static_cast<uint32_t>(a3) + static_cast<uint32_t>(sums[3]));
  }
  for (int32_t t = 0; t < px.taps; ++t) {
    const int8_t* x = px.inputs[t];
    const int8_t* w0 = w + px.offsets[t];
    const int8_t* w1 = w0 + w_stride;
    const int8_t* w2 = w1 + w_stride;
    const int8_t* w3 = w2 + w_stride;
    if constexpr (kC16) {
      static_cast<void>(n);
      const int8x16_t xv = vld1q_s8(x);
      a0 = vmladavaq_s8(a0, xv, vld1q_s8(w0));
      a1 = vmladavaq_s8(a1, xv, vld1q_s8(w1));
      a2 = vmladavaq_s8(a2, xv, vld1q_s8(w2));
      a3 = vmladavaq_s8(a3, xv, vld1q_s8(w3));
    } else {
      int32_t c = 0;
      for (; c + 16 <= n; c += 16) {
        const int8x16_t xv = vld1q_s8(x + c);
        a0 = vmladavaq_s8(a0, xv, vld1q_s8(w0 + c));
        a1 = vmladavaq_s8(a1, xv, vld1q_s8(w1 + c));
        a2 = vmladavaq_s8(a2, xv, vld1q_s8(w2 + c));
        a3 = vmladavaq_s8(a3, xv, vld1q_s8(w3 + c));
      }
      if (c < n) {
        const mve_pred16_t live = vctp8q(static_cast<uint32_t>(n - c));
        const int8x16_t xv = vldrbq_z_s8(x + c, live);
        a0 = vmladavaq_s8(a0, xv, vldrbq_z_s8(w0 + c, live));
        a1 = vmladavaq_s8(a1, xv, vldrbq_z_s8(w1 + c, live));
        a2 = vmladavaq_s8(a2, xv, vldrbq_z_s8(w2 + c, live));
        a3 = vmladavaq_s8(a3, xv, vldrbq_z_s8(w3 + c, live));
      }
    }
  }
  int32x4_t v = vdupq_n_s32(a0);
  v = vsetq_lane_s32(a1, v, 1);
  v = vsetq_lane_s32(a2, v, 2);
  v = vsetq_lane_s32(a3, v, 3);
  v = requantize_lanes(v, vld1q_s32(multipliers + oc), vld1q_s32(shifts + oc), g.output_offset,
                       g.lo, g.hi);
  vstrbq_s32(out + oc, v);
}

// One output channel of one pixel (the last Cout mod 4), the scalar RQ.
void channel1(const PixelTaps& px, const int32_t* bias, int32_t oc, const int8_t* w, int32_t n,
              const int32_t* multipliers, const int32_t* shifts, const GroupOut& g,
              int8_t* out) {
  uint32_t acc = bias != nullptr ? static_cast<uint32_t>(bias[oc]) : 0u;
  for (int32_t k = 0; k < px.sum_count; ++k) acc += static_cast<uint32_t>(px.sums[k][oc]);
  int32_t sum = static_cast<int32_t>(acc);
  for (int32_t t = 0; t < px.taps; ++t) sum = dot_s8(sum, px.inputs[t], w + px.offsets[t], n);
  const uint32_t value =
      static_cast<uint32_t>(requantize(sum, Requant{multipliers[oc], shifts[oc]})) +
      static_cast<uint32_t>(g.output_offset);
  out[oc] = static_cast<int8_t>(clamp_s32(static_cast<int32_t>(value), g.lo, g.hi));
}

// Every output channel of one pixel, 4 at a time, then the remainder.
template <bool kC16>
void pixel(const PixelTaps& px, const int32_t* bias, const int8_t* weight, size_t channel_bytes,
           int32_t cin, int32_t cout, const int32_t* multipliers, const int32_t* shifts,
           const GroupOut& g, int8_t* out) {
  int32_t oc = 0;
  for (; oc + kChannels <= cout; oc += kChannels) {
    group4<kC16>(px, bias, oc, weight + static_cast<size_t>(oc) * channel_bytes, channel_bytes,
                 cin, multipliers, shifts, g, out);
  }
  for (; oc < cout; ++oc) {
    channel1(px, bias, oc, weight + static_cast<size_t>(oc) * channel_bytes, cin, multipliers,
             shifts, g, out);
  }
}

// dst[c] = a[c] + b[c] for c < n (int32, wrapping), 4 per step, tail predicated.
void add_s32(int32_t* dst, const int32_t* a, const int32_t* b, int32_t n) {
  for (int32_t c = 0; c < n; c += 4) {
    const mve_pred16_t live = vctp32q(static_cast<uint32_t>(n - c));
    vstrwq_p_s32(dst + c, vaddq_s32(vldrwq_z_s32(a + c, live), vldrwq_z_s32(b + c, live)),
                 live);
  }
}

#endif  // ETNS_HAVE_MVE

}  // namespace

size_t transpose_conv2d_s8_mve_scratch_bytes(const TransposeConv2dParams& p) {
  return layout(p).total;
}

#if ETNS_HAVE_MVE

void transpose_conv2d_s8_mve(const TransposeConv2dParams& p, const int8_t* input,
                             const int8_t* weight, const int32_t* bias, int8_t* out,
                             uint8_t* scratch) {
  const Layout l = layout(p);
  uint8_t* base = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(scratch) + 15) &
                                             ~uintptr_t{15});
  int32_t* tap_sums = reinterpret_cast<int32_t*>(base + l.tap_sums);
  int32_t* row_sums = reinterpret_cast<int32_t*>(base + l.row_sums);
  const int32_t** col_sums = reinterpret_cast<const int32_t**>(base + l.col_sums);
  int32_t* rows = reinterpret_cast<int32_t*>(base + l.rows);
  int32_t* cols = reinterpret_cast<int32_t*>(base + l.cols);
  const int8_t** inputs = reinterpret_cast<const int8_t**>(base + l.inputs);
  uint32_t* offsets = reinterpret_cast<uint32_t*>(base + l.weights);
  // Locals, not p's fields: the int8 stores below may alias anything.
  const int32_t cin = p.input_c, cout = p.output_c;
  const int32_t filter_h = p.filter_h, filter_w = p.filter_w;
  const uint32_t tap_bytes = static_cast<uint32_t>(cin);
  const size_t channel_bytes = static_cast<size_t>(filter_h) * filter_w * tap_bytes;
  const size_t pixel_bytes = static_cast<size_t>(cin);
  const size_t row_bytes = static_cast<size_t>(p.input_w) * pixel_bytes;

  // Raw int8 times weight, the input offset folded in per tap and channel:
  // sum((x + io) * w) = sum(x * w) + io * sum(w), all mod 2^32 like the
  // reference. Per tap because which taps reach a pixel varies. Computed per
  // call, so the weights need not be constant.
  const uint32_t input_offset = static_cast<uint32_t>(p.input_offset);
  for (int32_t oc = 0; oc < cout; ++oc) {
    for (int32_t tap = 0; tap < filter_h * filter_w; ++tap) {
      const int8_t* w = weight + static_cast<size_t>(oc) * channel_bytes +
                        static_cast<size_t>(tap) * tap_bytes;
      int32_t total = 0;
      int32_t n = cin;
      for (; n >= 16; n -= 16, w += 16) total = vaddvaq_s8(total, vld1q_s8(w));
      if (n > 0) total = vaddvaq_s8(total, vldrbq_z_s8(w, vctp8q(static_cast<uint32_t>(n))));
      tap_sums[static_cast<size_t>(tap) * cout + oc] =
          static_cast<int32_t>(input_offset * static_cast<uint32_t>(total));
    }
  }

  const GroupOut g{p.output_offset, p.activation_min, p.activation_max};
  const int32_t* multipliers = p.multipliers;
  const int32_t* shifts = p.shifts;
  for (int32_t n = 0; n < p.batches; ++n) {
    const int8_t* image = input + static_cast<size_t>(n) * p.input_h * row_bytes;
    int8_t* out_pixel = out + static_cast<size_t>(n) * p.output_h * p.output_w * cout;
    for (int32_t oy = 0; oy < p.output_h; ++oy) {
      const int32_t row_count =
          reaching_taps(static_cast<uint32_t>(oy) + static_cast<uint32_t>(p.pad_h), p.stride_h,
                        p.input_h, filter_h, rows);
      // row_sums[kx] = the folded offsets of this row's reaching filter rows.
      for (int32_t kx = 0; kx < filter_w; ++kx) {
        int32_t* sums = row_sums + static_cast<size_t>(kx) * cout;
        for (int32_t c = 0; c < cout; c += 4) {
          vstrwq_p_s32(sums + c, vdupq_n_s32(0), vctp32q(static_cast<uint32_t>(cout - c)));
        }
        for (int32_t r = 0; r < row_count; ++r) {
          add_s32(sums, sums,
                  tap_sums + (static_cast<size_t>(rows[2 * r]) * filter_w + kx) * cout, cout);
        }
      }
      for (int32_t ox = 0; ox < p.output_w; ++ox, out_pixel += cout) {
        const int32_t col_count =
            reaching_taps(static_cast<uint32_t>(ox) + static_cast<uint32_t>(p.pad_w), p.stride_w,
                          p.input_w, filter_w, cols);
        // The reaching taps' input pixels and weight offsets, and the
        // reaching columns' folded offsets.
        int32_t taps = 0;
        for (int32_t r = 0; r < row_count; ++r) {
          const int8_t* in_row = image + static_cast<size_t>(rows[2 * r + 1]) * row_bytes;
          const uint32_t w_row = static_cast<uint32_t>(rows[2 * r]) * filter_w;
          for (int32_t k = 0; k < col_count; ++k, ++taps) {
            inputs[taps] = in_row + static_cast<size_t>(cols[2 * k + 1]) * pixel_bytes;
            offsets[taps] = (w_row + static_cast<uint32_t>(cols[2 * k])) * tap_bytes;
          }
        }
        for (int32_t k = 0; k < col_count; ++k) {
          col_sums[k] = row_sums + static_cast<size_t>(cols[2 * k]) * cout;
        }
        const PixelTaps px{inputs, offsets, taps, col_sums, col_count};
        if (cin == 16) {
          pixel<true>(px, bias, weight, channel_bytes, cin, cout, multipliers, shifts, g,
                      out_pixel);
        } else {
          pixel<false>(px, bias, weight, channel_bytes, cin, cout, multipliers, shifts, g,
                       out_pixel);
        }
      }
    }
  }
}

#endif  // ETNS_HAVE_MVE

}  // namespace etns::cortex_m
