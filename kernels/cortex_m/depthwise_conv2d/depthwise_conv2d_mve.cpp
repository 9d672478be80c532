// Helium (MVE) variant of cortex_m::quantized_depthwise_conv2d.out, bit-exact
// with depthwise_conv2d_s8_ref (docs/numerics.md#depthwise_conv2d explains why).
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

#if ETNS_HAVE_MVE
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

}  // namespace

size_t depthwise_conv2d_s8_mve_scratch_bytes(const DepthwiseConv2dParams& p) {
  return blocks_bytes(p) + 15;  // + room to align the base
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

#endif  // ETNS_HAVE_MVE

}  // namespace etns::cortex_m
