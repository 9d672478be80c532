// Helium (MVE) variant of cortex_m::quantized_depthwise_conv2d.out, bit-exact
// with depthwise_conv2d_s8_ref (docs/numerics.md#depthwise_conv2d explains why).
#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>
#endif

#include "kernels/common/requantize_mve.h"

namespace etns::cortex_m {
namespace {

// Channels per pass: 16 int8 lanes, widened into four int32x4 accumulators.
constexpr int32_t kLanes = 16;

// Scratch, from a 16-byte aligned base: one block of per-channel values per
// pass, in pass order (multiplier index m, then 16 input channels at a time),
// each block 4 x 16 int32 lanes so that a pass reads all it needs from one
// pointer with immediate offsets and without predication or gathers:
//   [0, 16)   bias + input_offset * sum of the channel's taps, per call
//   [16, 32)  the requantisation multiplier
//   [32, 48)  max(shift, 0)
//   [48, 64)  min(shift, 0)
// Lane l of block (m, b) is output channel (16 b + channel_of_lane(l)) * mult
// + m; lanes past the input channels hold zeros. Full blocks at multiplier 1
// are "paired": the fast path widens 8 channels to int16 and multiplies with
// VMULLB/VMULLT, whose four int32 results hold channels {0, 2, 4, 6},
// {1, 3, 5, 7}, {8, 10, 12, 14} and {9, 11, 13, 15}; other blocks are in
// channel order.
constexpr int32_t kBlockValues = 4 * kLanes;

int32_t blocks_per_multiplier(const DepthwiseConv2dParams& p) {
  return (p.input_c + kLanes - 1) / kLanes;
}

size_t blocks_bytes(const DepthwiseConv2dParams& p) {
  return static_cast<size_t>(p.depth_multiplier) *
         static_cast<size_t>(blocks_per_multiplier(p)) * kBlockValues * sizeof(int32_t);
}

#if ETNS_HAVE_MVE
// kAllPaired: every block paired, tails too (the multiplier path's blocks,
// whose 8-channel halves and tails use the paired lanes of their half).
template <bool kAllPaired>
bool is_paired(const DepthwiseConv2dParams& p, int32_t first_channel) {
  return p.depth_multiplier == 1 && (kAllPaired || first_channel + kLanes <= p.input_c);
}

// The block lane 4 j + k of a paired block holds channel 8 (j / 2) + 2 k + j % 2.
int32_t channel_of_lane(bool paired, int32_t lane) {
  if (!paired) return lane;
  const int32_t j = lane / 4, k = lane % 4;
  return 8 * (j / 2) + 2 * k + j % 2;
}

int32_t* aligned_base(uint8_t* scratch) {
  return reinterpret_cast<int32_t*>((reinterpret_cast<uintptr_t>(scratch) + 15) &
                                    ~uintptr_t{15});
}

// Fills the blocks. Raw int8 input times weight, the input offset folded in
// per channel: sum((x + io) * w) = sum(x * w) + io * sum(w), all mod 2^32 like
// the reference's int32 accumulator. Computed per call (about 2 instructions
// per weight byte), so the weights need not be constant.
template <bool kAllPaired>
void fill_blocks(const DepthwiseConv2dParams& p, const int8_t* weight, const int32_t* bias,
                 int32_t* blocks) {
  const int32_t taps = p.filter_h * p.filter_w;
  const int32_t count = p.depth_multiplier * blocks_per_multiplier(p);
  for (int32_t block = 0; block < count; ++block) {
    const int32_t m = block / blocks_per_multiplier(p);
    const int32_t first = (block % blocks_per_multiplier(p)) * kLanes;
    int32_t* q = blocks + static_cast<size_t>(block) * kBlockValues;
    const bool paired = is_paired<kAllPaired>(p, first);
    for (int32_t lane = 0; lane < kLanes; ++lane) {
      const int32_t ic = first + channel_of_lane(paired, lane);
      if (ic >= p.input_c) {
        q[lane] = q[kLanes + lane] = q[2 * kLanes + lane] = q[3 * kLanes + lane] = 0;
        continue;
      }
      const int32_t oc = ic * p.depth_multiplier + m;
      uint32_t sum = 0;
      const int8_t* w = weight + oc;
      for (int32_t t = 0; t < taps; ++t, w += p.output_c) sum += static_cast<uint32_t>(*w);
      const uint32_t b = bias != nullptr ? static_cast<uint32_t>(bias[oc]) : 0u;
      q[lane] = static_cast<int32_t>(b + static_cast<uint32_t>(p.input_offset) * sum);
      const int32_t shift = p.shifts[oc];
      q[kLanes + lane] = p.multipliers[oc];
      q[2 * kLanes + lane] = shift > 0 ? shift : 0;
      q[3 * kLanes + lane] = shift < 0 ? shift : 0;
    }
  }
}

// RQ of four channels, each lane with its channel's (M, S) split into left
// and negated right shifts, plus the output offset and the activation clamp
// (kernels/common/requantize_mve.h).
inline __attribute__((always_inline)) int32x4_t requantize_lanes(
    int32x4_t v, int32x4_t multiplier, int32x4_t left, int32x4_t neg_right,
    int32_t output_offset, int32_t lo, int32_t hi) {
  return kernels::mve::offset_clamp_lanes(
      kernels::mve::requantize_lanes(v, multiplier, left, neg_right), output_offset, lo, hi);
}

// Where one output pixel's taps lie: kernel rows [ky_lo, ky_hi) and columns
// [kx_lo, kx_hi) fall inside the image; `first` is the input at the first
// inside tap (channel 0); `all_inside` when no tap is padding.
struct Pixel {
  int32_t ky_lo, ky_hi, kx_lo, kx_hi;
  bool all_inside;
  const int8_t* first;
};

// The k in [0, kernel) with 0 <= start + k * dilation < size: [*lo, *hi).
// Unsigned 32-bit: -start and size - start - 1 lie in [0, 2^32) for any int32
// padding, and the hardware divides those (an int64 division is a libcall).
void inside_range(int32_t start, int32_t dilation, int32_t kernel, int32_t size, int32_t* lo,
                  int32_t* hi) {
  const uint32_t d = static_cast<uint32_t>(dilation);
  // First k with start + k * d >= 0: ceil(-start / d).
  uint32_t l = 0;
  if (start < 0) l = (0u - static_cast<uint32_t>(start) - 1u) / d + 1u;
  // First k with start + k * d >= size: ceil((size - start) / d).
  uint32_t h = 0;
  if (start < size) {
    h = (static_cast<uint32_t>(size) - static_cast<uint32_t>(start) - 1u) / d + 1u;
  }
  if (h > static_cast<uint32_t>(kernel)) h = static_cast<uint32_t>(kernel);
  if (l > h) l = h;
  *lo = static_cast<int32_t>(l);
  *hi = static_cast<int32_t>(h);
}

// Loads four int8 lanes widened to int32: contiguous (depth multiplier 1) or
// `offsets` apart (the next output channel of the same multiplier index);
// tails with zeroing predication, so nothing outside the tensors is read.
template <bool kGather, bool kTail>
inline __attribute__((always_inline)) int32x4_t load_s8x4(const int8_t* x, uint32x4_t offsets,
                                                         mve_pred16_t live) {
  if constexpr (kGather) {
    if constexpr (kTail) return vldrbq_gather_offset_z_s32(x, offsets, live);
    return vldrbq_gather_offset_s32(x, offsets);
  } else {
    static_cast<void>(offsets);
    if constexpr (kTail) return vldrbq_z_s32(x, live);
    return vldrbq_s32(x);
  }
}
template <bool kGather, bool kTail>
inline __attribute__((always_inline)) void store_s8x4(int8_t* dst, uint32x4_t offsets,
                                                     int32x4_t v, mve_pred16_t live) {
  if constexpr (kGather) {
    if constexpr (kTail) {
      vstrbq_scatter_offset_p_s32(dst, offsets, v, live);
    } else {
      vstrbq_scatter_offset_s32(dst, offsets, v);
    }
  } else {
    static_cast<void>(offsets);
    if constexpr (kTail) {
      vstrbq_p_s32(dst, v, live);
    } else {
      vstrbq_s32(dst, v);
    }
  }
}

// acc + a * b lane by lane, wrapping. MVE has no vector-by-vector VMLA, so a
// VMUL and a VADD (as CMSIS-NN's depthwise kernels do).
inline __attribute__((always_inline)) int32x4_t mac(int32x4_t acc, int32x4_t a, int32x4_t b) {
  return vaddq_s32(acc, vmulq_s32(a, b));
}
// acc + a * b for a scalar b: one VMLA.
inline __attribute__((always_inline)) int32x4_t mac_scalar(int32x4_t acc, int32x4_t a,
                                                          int32_t b) {
  return vmlaq_n_s32(acc, a, b);
}

// The inside taps of a pixel for 16 channels of a paired block: `rows` >= 1
// filter rows of `columns` >= 1 taps. Per tap, 8 channels at a time widened to
// int16 (VLDRB.S16), VMULLB/VMULLT multiply the even and odd lanes into int32
// (|x * w| <= 2^14, exact) and VADD accumulates: a0 += channels {0, 2, 4, 6},
// a1 += {1, 3, 5, 7}, a2 += {8, ..., 14}, a3 += {9, ..., 15}. x and w step by
// x_step / w_step per tap and by x_skip / w_skip more at the end of a row.
// Written out because GCC 12 keeps the sub-vector addresses in spilled
// registers instead of immediate offsets and spills around the row loop;
// "l": widening loads take r0-r7 as the base.
inline __attribute__((always_inline)) void mac_taps16(int32x4_t& a0, int32x4_t& a1,
                                                      int32x4_t& a2, int32x4_t& a3,
                                                      const int8_t* x, const int8_t* w,
                                                      int32_t rows, int32_t columns,
                                                      ptrdiff_t x_step, ptrdiff_t w_step,
                                                      ptrdiff_t x_skip, ptrdiff_t w_skip) {
  int16x8_t xv, wv;
  int32x4_t t;
  asm volatile(
      "2:\n\t"
      "dls lr, %[columns]\n"
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
      "add %[x], %[x], %[x_skip]\n\t"
      "add %[w], %[w], %[w_skip]\n\t"
      "subs %[rows], %[rows], #1\n\t"
      "bne 2b\n"
      : [a0] "+w"(a0), [a1] "+w"(a1), [a2] "+w"(a2), [a3] "+w"(a3), [xv] "=&w"(xv),
        [wv] "=&w"(wv), [t] "=&w"(t), [x] "+l"(x), [w] "+l"(w), [rows] "+r"(rows)
      : [columns] "r"(columns), [x_step] "r"(x_step), [w_step] "r"(w_step),
        [x_skip] "r"(x_skip), [w_skip] "r"(w_skip)
      : "lr", "cc", "memory");
}

// One pass: up to 16 input channels [ic, ic + 16) of one output pixel, for one
// multiplier index m, with its block q of per-channel values. Output channel
// c = ic * mult + m, so the pass's output channels and weights are `mult`
// apart (one gather offset vector serves them all) and its input channels
// contiguous. `channel` is the pass's first output channel, `remaining` the
// live input channels.
template <bool kGather, bool kTail>
inline __attribute__((always_inline)) void pass(const DepthwiseConv2dParams& p, const int32_t* q,
                                                const Pixel& px, const int8_t* weight,
                                                int32_t ic, int32_t channel, int32_t remaining,
                                                uint32x4_t offsets, int8_t* out_pixel) {
  // Output channels between sub-vectors; a constant without gathers (the
  // multiplier is 1 there), so the loads use immediate offsets.
  const int32_t step = kGather ? 4 * p.depth_multiplier : 4;
  // Full blocks at multiplier 1 are paired (see fill_blocks).
  constexpr bool kPaired = !kGather && !kTail;
  mve_pred16_t live[4] = {0, 0, 0, 0};
  if constexpr (kTail) {
    for (int j = 0; j < 4; ++j) {
      const int32_t left = remaining - 4 * j;
      live[j] = vctp32q(static_cast<uint32_t>(left > 0 ? left : 0));
    }
  }
  int32x4_t acc0 = vld1q_s32(q);
  int32x4_t acc1 = vld1q_s32(q + 4);
  int32x4_t acc2 = vld1q_s32(q + 8);
  int32x4_t acc3 = vld1q_s32(q + 12);

  const ptrdiff_t row_step = static_cast<ptrdiff_t>(p.dilation_h) * p.input_w * p.input_c;
  const ptrdiff_t column_step = static_cast<ptrdiff_t>(p.dilation_w) * p.input_c;
  const size_t weight_row = static_cast<size_t>(p.filter_w) * p.output_c;
  const bool any_inside = px.ky_lo < px.ky_hi && px.kx_lo < px.kx_hi;
  const int8_t* x_row = px.first + ic;
  const int8_t* w_row = any_inside ? weight + static_cast<size_t>(px.ky_lo) * weight_row +
                                         static_cast<size_t>(px.kx_lo) * p.output_c + channel
                                   : weight;
  if constexpr (kPaired) {
    if (any_inside) {
      const int32_t columns = px.kx_hi - px.kx_lo;
      const ptrdiff_t w_step = p.output_c;
      mac_taps16(acc0, acc1, acc2, acc3, x_row, w_row, px.ky_hi - px.ky_lo, columns,
                 column_step, w_step, row_step - columns * column_step,
                 static_cast<ptrdiff_t>(weight_row) - columns * w_step);
    }
  }
  for (int32_t ky = px.ky_lo; !kPaired && any_inside && ky < px.ky_hi;
       ++ky, x_row += row_step, w_row += weight_row) {
    const int8_t* x = x_row;
    const int8_t* w = w_row;
    for (int32_t kx = px.kx_lo; kx < px.kx_hi; ++kx, x += column_step, w += p.output_c) {
      acc0 = mac(acc0, load_s8x4<false, kTail>(x, offsets, live[0]),
                 load_s8x4<kGather, kTail>(w, offsets, live[0]));
      acc1 = mac(acc1, load_s8x4<false, kTail>(x + 4, offsets, live[1]),
                 load_s8x4<kGather, kTail>(w + step, offsets, live[1]));
      acc2 = mac(acc2, load_s8x4<false, kTail>(x + 8, offsets, live[2]),
                 load_s8x4<kGather, kTail>(w + 2 * step, offsets, live[2]));
      acc3 = mac(acc3, load_s8x4<false, kTail>(x + 12, offsets, live[3]),
                 load_s8x4<kGather, kTail>(w + 3 * step, offsets, live[3]));
    }
  }
  if (!px.all_inside) {
    // A padded tap reads the input zero point, which with the offset folded
    // into the bias is what contributes 0: acc += w * (-input_offset).
    const int32_t zero_point = -p.input_offset;
    const int16x8_t zero_points = vdupq_n_s16(static_cast<int16_t>(zero_point));
    const int8_t* w = weight + channel;
    for (int32_t ky = 0; ky < p.filter_h; ++ky) {
      const bool row_inside = ky >= px.ky_lo && ky < px.ky_hi;
      for (int32_t kx = 0; kx < p.filter_w; ++kx, w += p.output_c) {
        if (row_inside && kx >= px.kx_lo && kx < px.kx_hi) continue;
        if constexpr (kPaired) {
          const int16x8_t w_low = vldrbq_s16(w), w_high = vldrbq_s16(w + 8);
          acc0 = vaddq_s32(acc0, vmullbq_int_s16(w_low, zero_points));
          acc1 = vaddq_s32(acc1, vmulltq_int_s16(w_low, zero_points));
          acc2 = vaddq_s32(acc2, vmullbq_int_s16(w_high, zero_points));
          acc3 = vaddq_s32(acc3, vmulltq_int_s16(w_high, zero_points));
          continue;
        }
        acc0 = mac_scalar(acc0, load_s8x4<kGather, kTail>(w, offsets, live[0]), zero_point);
        acc1 = mac_scalar(acc1, load_s8x4<kGather, kTail>(w + step, offsets, live[1]),
                          zero_point);
        acc2 = mac_scalar(acc2, load_s8x4<kGather, kTail>(w + 2 * step, offsets, live[2]),
                          zero_point);
        acc3 = mac_scalar(acc3, load_s8x4<kGather, kTail>(w + 3 * step, offsets, live[3]),
                          zero_point);
      }
    }
  }

  const auto requantize_j = [&](int32x4_t acc, int32_t j) {
    return requantize_lanes(acc, vld1q_s32(q + kLanes + 4 * j), vld1q_s32(q + 2 * kLanes + 4 * j),
                            vld1q_s32(q + 3 * kLanes + 4 * j), p.output_offset,
                            p.activation_min, p.activation_max);
  };
  if constexpr (kPaired) {
    // Even and odd channels narrow into the even and odd int16 lanes: 8
    // channels in order, stored as bytes.
    int16x8_t low = vdupq_n_s16(0);
    low = vmovnbq_s32(low, requantize_j(acc0, 0));
    low = vmovntq_s32(low, requantize_j(acc1, 1));
    vstrbq_s16(out_pixel + channel, low);
    int16x8_t high = vdupq_n_s16(0);
    high = vmovnbq_s32(high, requantize_j(acc2, 2));
    high = vmovntq_s32(high, requantize_j(acc3, 3));
    vstrbq_s16(out_pixel + channel + 8, high);
  } else {
    store_s8x4<kGather, kTail>(out_pixel + channel, offsets, requantize_j(acc0, 0), live[0]);
    store_s8x4<kGather, kTail>(out_pixel + channel + step, offsets, requantize_j(acc1, 1),
                               live[1]);
    store_s8x4<kGather, kTail>(out_pixel + channel + 2 * step, offsets, requantize_j(acc2, 2),
                               live[2]);
    store_s8x4<kGather, kTail>(out_pixel + channel + 3 * step, offsets, requantize_j(acc3, 3),
                               live[3]);
  }
}

template <bool kGather>
void run(const DepthwiseConv2dParams& params, const int32_t* blocks, const int8_t* input,
         const int8_t* weight, int8_t* out) {
  // A local copy: the int8 stores may alias anything reachable through a
  // pointer, which would make the compiler reload every field after each.
  const DepthwiseConv2dParams p = params;
  const int32_t mult = p.depth_multiplier;
  // Lane k of a sub-vector is output channel k * mult further on.
  const uint32x4_t offsets = vmulq_n_u32(vidupq_n_u32(0, 1), static_cast<uint32_t>(mult));
  const int32_t full = p.input_c - p.input_c % kLanes;
  for (int32_t n = 0; n < p.batches; ++n) {
    const int8_t* image = input + static_cast<size_t>(n) * p.input_h * p.input_w * p.input_c;
    for (int32_t oy = 0; oy < p.output_h; ++oy) {
      const int32_t iy0 = oy * p.stride_h - p.pad_h;
      Pixel px;
      inside_range(iy0, p.dilation_h, p.filter_h, p.input_h, &px.ky_lo, &px.ky_hi);
      for (int32_t ox = 0; ox < p.output_w; ++ox) {
        const int32_t ix0 = ox * p.stride_w - p.pad_w;
        inside_range(ix0, p.dilation_w, p.filter_w, p.input_w, &px.kx_lo, &px.kx_hi);
        px.all_inside = px.ky_lo == 0 && px.ky_hi == p.filter_h && px.kx_lo == 0 &&
                        px.kx_hi == p.filter_w;
        // Only formed when a tap is inside (the loops read it only then).
        px.first = px.ky_lo < px.ky_hi && px.kx_lo < px.kx_hi
                       ? image + (static_cast<size_t>(iy0 + px.ky_lo * p.dilation_h) *
                                      p.input_w +
                                  static_cast<size_t>(ix0 + px.kx_lo * p.dilation_w)) *
                                     p.input_c
                       : image;
        int8_t* out_pixel =
            out + ((static_cast<size_t>(n) * p.output_h + oy) * p.output_w + ox) * p.output_c;
        const int32_t* q = blocks;
        for (int32_t m = 0; m < mult; ++m) {
          int32_t ic = 0;
          for (; ic < full; ic += kLanes, q += kBlockValues) {
            pass<kGather, false>(p, q, px, weight, ic, ic * mult + m, kLanes, offsets,
                                 out_pixel);
          }
          if (ic < p.input_c) {
            pass<kGather, true>(p, q, px, weight, ic, ic * mult + m, p.input_c - ic, offsets,
                                out_pixel);
            q += kBlockValues;
          }
        }
      }
    }
  }
}

#endif  // ETNS_HAVE_MVE

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

size_t depthwise_conv2d_s8_mve_scratch_bytes(const DepthwiseConv2dParams& p) {
  return blocks_bytes(p) + 15;  // + room to align the base
}

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

void depthwise_conv2d_s8_mve(const DepthwiseConv2dParams& p, const int8_t* input,
                             const int8_t* weight, const int32_t* bias, int8_t* out,
                             uint8_t* scratch) {
  int32_t* blocks = aligned_base(scratch);
  fill_blocks<false>(p, weight, bias, blocks);
  if (p.depth_multiplier == 1) {
    run<false>(p, blocks, input, weight, out);
  } else {
    run<true>(p, blocks, input, weight, out);
  }
}

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
