// Helium (MVE) variant of cortex_m::quantized_depthwise_conv2d.out, bit-exact
// with depthwise_conv2d_s8_ref (docs/numerics.md#depthwise_conv2d explains why).
#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

namespace etns::cortex_m {
namespace {

// Channels per pass: 16 int8 lanes, widened into four int32x4 accumulators.
constexpr int32_t kLanes = 16;

size_t round16(size_t n) { return (n + 15) & ~size_t{15}; }

// Scratch, from a 16-byte aligned base: four int32[round16(output_c)] arrays
// in output-channel order, so a pass's 16 channels load without predication
// when the multiplier is 1.
//   bias        bias + input_offset * sum of the channel's taps, per call
//   multiplier  the requantisation multiplier
//   left        max(shift, 0)
//   neg_right   min(shift, 0)
struct Arrays {
  int32_t* bias;
  int32_t* multiplier;
  int32_t* left;
  int32_t* neg_right;
};

size_t array_bytes(const DepthwiseConv2dParams& p) {
  return round16(static_cast<size_t>(p.output_c)) * sizeof(int32_t);
}

Arrays carve(const DepthwiseConv2dParams& p, uint8_t* scratch) {
  uint8_t* base = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(scratch) + 15) &
                                             ~uintptr_t{15});
  const size_t bytes = array_bytes(p);
  return {reinterpret_cast<int32_t*>(base), reinterpret_cast<int32_t*>(base + bytes),
          reinterpret_cast<int32_t*>(base + 2 * bytes),
          reinterpret_cast<int32_t*>(base + 3 * bytes)};
}

// Fills the arrays, four channels per step. Raw int8 input times weight, the
// input offset folded in per channel: sum((x + io) * w) = sum(x * w) + io *
// sum(w), all mod 2^32 like the reference's int32 accumulator. Computed per
// call, so the weights need not be constant.
void fill_arrays(const DepthwiseConv2dParams& p, const int8_t* weight, const int32_t* bias,
                 const Arrays& a) {
  const int32_t taps = p.filter_h * p.filter_w;
  for (int32_t oc = 0; oc < p.output_c; oc += 4) {
    const mve_pred16_t live = vctp32q(static_cast<uint32_t>(p.output_c - oc));
    int32x4_t sum = vdupq_n_s32(0);
    const int8_t* w = weight + oc;
    for (int32_t t = 0; t < taps; ++t, w += p.output_c) sum = vaddq_s32(sum, vldrbq_z_s32(w, live));
    const int32x4_t b = bias != nullptr ? vldrwq_z_s32(bias + oc, live) : vdupq_n_s32(0);
    vst1q_s32(a.bias + oc, vmlaq_n_s32(b, sum, p.input_offset));  // wraps, as the reference
    const int32x4_t shift = vldrwq_z_s32(p.shifts + oc, live);
    vst1q_s32(a.multiplier + oc, vldrwq_z_s32(p.multipliers + oc, live));
    vst1q_s32(a.left + oc, vmaxq_s32(shift, vdupq_n_s32(0)));
    vst1q_s32(a.neg_right + oc, vminq_s32(shift, vdupq_n_s32(0)));
  }
}

// RQ of four channels (requantize.h), plus the output offset and the
// activation clamp: VSHL wraps like the reference's uint32 shift; VQRDMULH is
// DHM (its one saturating case needs M = INT32_MIN, outside [0, 2^31)); VRSHL
// rounds ties toward +inf, so negative values first move down by one when the
// shift is non-zero, which makes the ties go away from zero (saturating:
// INT32_MIN is never a tie).
inline __attribute__((always_inline)) int32x4_t requantize_lanes(
    int32x4_t v, int32x4_t multiplier, int32x4_t left, int32x4_t neg_right,
    int32_t output_offset, int32_t lo, int32_t hi) {
  v = vshlq_s32(v, left);
  v = vqrdmulhq_s32(v, multiplier);
  // neg_right's sign bit is set exactly when the right shift is non-zero.
  const int32x4_t fixup = vshrq_n_s32(vandq_s32(v, neg_right), 31);
  v = vrshlq_s32(vqaddq_s32(v, fixup), neg_right);
  v = vaddq_n_s32(v, output_offset);  // wraps, as the reference's uint32 add
  return vminq_s32(vmaxq_s32(v, vdupq_n_s32(lo)), vdupq_n_s32(hi));
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
// int64 because start may be near -INT32_MAX (padding is any int32).
void inside_range(int32_t start, int32_t dilation, int32_t kernel, int32_t size, int32_t* lo,
                  int32_t* hi) {
  const int64_t s = start, d = dilation;
  int64_t l = s >= 0 ? 0 : (-s + d - 1) / d;
  int64_t h = s >= size ? 0 : (size - s + d - 1) / d;
  if (h > kernel) h = kernel;
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
inline __attribute__((always_inline)) int32x4_t load_s32x4(const int32_t* x, uint32x4_t offsets,
                                                          mve_pred16_t live) {
  if constexpr (kGather) {
    if constexpr (kTail) return vldrwq_gather_shifted_offset_z_s32(x, offsets, live);
    return vldrwq_gather_shifted_offset_s32(x, offsets);
  } else {
    static_cast<void>(offsets);
    static_cast<void>(live);  // the arrays are padded to 16 channels
    return vld1q_s32(x);
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

// The inside taps of one filter row for 16 channels, depth multiplier 1:
// acc_j += x[4j..4j+3] * w[4j..4j+3] widened, for `count` >= 1 taps, the next
// x_step and w_step bytes on ("l": widening loads take r0-r7 as the base).
// Written out because GCC 12 keeps the four
// sub-vector addresses in spilled registers instead of immediate offsets
// (11 more instructions per tap).
inline __attribute__((always_inline)) void mac_row16(int32x4_t& a0, int32x4_t& a1,
                                                     int32x4_t& a2, int32x4_t& a3,
                                                     const int8_t* x, const int8_t* w,
                                                     int32_t count, ptrdiff_t x_step,
                                                     ptrdiff_t w_step) {
  int32x4_t t0, t1;
  asm volatile(
      "dls lr, %[n]\n"
      "1:\n\t"
      "vldrb.s32 %q[t0], [%[x]]\n\t"
      "vldrb.s32 %q[t1], [%[w]]\n\t"
      "vmul.i32 %q[t0], %q[t0], %q[t1]\n\t"
      "vadd.i32 %q[a0], %q[a0], %q[t0]\n\t"
      "vldrb.s32 %q[t0], [%[x], #4]\n\t"
      "vldrb.s32 %q[t1], [%[w], #4]\n\t"
      "vmul.i32 %q[t0], %q[t0], %q[t1]\n\t"
      "vadd.i32 %q[a1], %q[a1], %q[t0]\n\t"
      "vldrb.s32 %q[t0], [%[x], #8]\n\t"
      "vldrb.s32 %q[t1], [%[w], #8]\n\t"
      "vmul.i32 %q[t0], %q[t0], %q[t1]\n\t"
      "vadd.i32 %q[a2], %q[a2], %q[t0]\n\t"
      "vldrb.s32 %q[t0], [%[x], #12]\n\t"
      "vldrb.s32 %q[t1], [%[w], #12]\n\t"
      "add %[x], %[x], %[x_step]\n\t"
      "add %[w], %[w], %[w_step]\n\t"
      "vmul.i32 %q[t0], %q[t0], %q[t1]\n\t"
      "vadd.i32 %q[a3], %q[a3], %q[t0]\n\t"
      "le lr, 1b\n"
      : [a0] "+w"(a0), [a1] "+w"(a1), [a2] "+w"(a2), [a3] "+w"(a3), [t0] "=&w"(t0),
        [t1] "=&w"(t1), [x] "+l"(x), [w] "+l"(w)
      : [n] "r"(count), [x_step] "r"(x_step), [w_step] "r"(w_step)
      : "lr", "memory");
}

// One pass: up to 16 input channels [ic, ic + 16) of one output pixel, for one
// multiplier index m. Output channel c = ic * mult + m, so the pass's output
// channels, weights and per-channel values are `mult` apart (one gather offset
// vector serves them all) and its input channels contiguous. `channel` is the
// pass's first output channel, `remaining` the live input channels.
template <bool kGather, bool kTail>
inline __attribute__((always_inline)) void pass(const DepthwiseConv2dParams& p, const Arrays& a,
                                                const Pixel& px, const int8_t* weight,
                                                int32_t ic, int32_t channel, int32_t remaining,
                                                uint32x4_t offsets, int8_t* out_pixel) {
  // Output channels between sub-vectors; a constant without gathers (the
  // multiplier is 1 there), so the loads use immediate offsets.
  const int32_t step = kGather ? 4 * p.depth_multiplier : 4;
  mve_pred16_t live[4] = {0, 0, 0, 0};
  if constexpr (kTail) {
    for (int j = 0; j < 4; ++j) {
      const int32_t left = remaining - 4 * j;
      live[j] = vctp32q(static_cast<uint32_t>(left > 0 ? left : 0));
    }
  }
  int32x4_t acc0 = load_s32x4<kGather, kTail>(a.bias + channel, offsets, live[0]);
  int32x4_t acc1 = load_s32x4<kGather, kTail>(a.bias + channel + step, offsets, live[1]);
  int32x4_t acc2 = load_s32x4<kGather, kTail>(a.bias + channel + 2 * step, offsets, live[2]);
  int32x4_t acc3 = load_s32x4<kGather, kTail>(a.bias + channel + 3 * step, offsets, live[3]);

  const ptrdiff_t row_step = static_cast<ptrdiff_t>(p.dilation_h) * p.input_w * p.input_c;
  const ptrdiff_t column_step = static_cast<ptrdiff_t>(p.dilation_w) * p.input_c;
  const size_t weight_row = static_cast<size_t>(p.filter_w) * p.output_c;
  const bool any_inside = px.ky_lo < px.ky_hi && px.kx_lo < px.kx_hi;
  const int8_t* x_row = px.first + ic;
  const int8_t* w_row = any_inside ? weight + static_cast<size_t>(px.ky_lo) * weight_row +
                                         static_cast<size_t>(px.kx_lo) * p.output_c + channel
                                   : weight;
  for (int32_t ky = px.ky_lo; any_inside && ky < px.ky_hi;
       ++ky, x_row += row_step, w_row += weight_row) {
    if constexpr (!kGather && !kTail) {
      mac_row16(acc0, acc1, acc2, acc3, x_row, w_row, px.kx_hi - px.kx_lo, column_step,
                static_cast<ptrdiff_t>(p.output_c));
      continue;
    }
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
    const int8_t* w = weight + channel;
    for (int32_t ky = 0; ky < p.filter_h; ++ky) {
      const bool row_inside = ky >= px.ky_lo && ky < px.ky_hi;
      for (int32_t kx = 0; kx < p.filter_w; ++kx, w += p.output_c) {
        if (row_inside && kx >= px.kx_lo && kx < px.kx_hi) continue;
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

  const auto finish = [&](int32x4_t acc, int32_t c, mve_pred16_t lanes) {
    const int32x4_t v = requantize_lanes(
        acc, load_s32x4<kGather, kTail>(a.multiplier + c, offsets, lanes),
        load_s32x4<kGather, kTail>(a.left + c, offsets, lanes),
        load_s32x4<kGather, kTail>(a.neg_right + c, offsets, lanes), p.output_offset,
        p.activation_min, p.activation_max);
    store_s8x4<kGather, kTail>(out_pixel + c, offsets, v, lanes);
  };
  finish(acc0, channel, live[0]);
  finish(acc1, channel + step, live[1]);
  finish(acc2, channel + 2 * step, live[2]);
  finish(acc3, channel + 3 * step, live[3]);
}

template <bool kGather>
void run(const DepthwiseConv2dParams& params, const Arrays arrays, const int8_t* input,
         const int8_t* weight, int8_t* out) {
  // Local copies: the int8 stores may alias anything reachable through a
  // pointer, which would make the compiler reload every field after each.
  const DepthwiseConv2dParams p = params;
  const Arrays a = arrays;
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
        for (int32_t m = 0; m < mult; ++m) {
          int32_t ic = 0;
          for (; ic < full; ic += kLanes) {
            pass<kGather, false>(p, a, px, weight, ic, ic * mult + m, kLanes, offsets,
                                 out_pixel);
          }
          if (ic < p.input_c) {
            pass<kGather, true>(p, a, px, weight, ic, ic * mult + m, p.input_c - ic, offsets,
                                out_pixel);
          }
        }
      }
    }
  }
}

}  // namespace

size_t depthwise_conv2d_s8_mve_scratch_bytes(const DepthwiseConv2dParams& p) {
  return 4 * array_bytes(p) + 15;  // + room to align the base
}

void depthwise_conv2d_s8_mve(const DepthwiseConv2dParams& p, const int8_t* input,
                             const int8_t* weight, const int32_t* bias, int8_t* out,
                             uint8_t* scratch) {
  const Arrays a = carve(p, scratch);
  fill_arrays(p, weight, bias, a);
  if (p.depth_multiplier == 1) {
    run<false>(p, a, input, weight, out);
  } else {
    run<true>(p, a, input, weight, out);
  }
}

}  // namespace etns::cortex_m

#endif  // ETNS_HAVE_MVE
