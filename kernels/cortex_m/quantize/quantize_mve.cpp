#include "kernels/cortex_m/quantize/quantize.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

#include <cstring>

namespace etns::cortex_m {
namespace {

// Helium's float instructions flush denormal inputs and results to zero (and
// make default NaNs) whatever FPSCR says, where the scalar reference does not.
// For quantize that changes no result while inv_scale is normal and at most
// 2^125: a denormal x then has |inv_scale * x| < 0.5, which the reference
// rounds to an integer 0 too, and a denormal product always rounds to 0. A
// denormal inv_scale (scale > 2^126) or a larger one (scale < 2^-125) takes
// the reference.
bool vector_matches_reference(const QuantizeParams& p) {
  return p.inv_scale >= 0x1p-126f && p.inv_scale <= 0x1p125f;
}

// round_half_even(fl(inv * x)) for four floats, saturated to int32: VMUL
// rounds the product to nearest even, VCVTN rounds that float to an integer
// half to even (the reference's double rounding), saturates beyond int32
// (so +-Inf and huge products land on the right bound) and gives 0 for NaN
// (so NaN ends up as zero_point).
inline int32x4_t round_product(float32x4_t x, float inv) {
  return vcvtnq_s32_f32(vmulq_n_f32(x, inv));
}

// Four lanes, predicated: the tail of the 16- and 8-lane loops.
template <typename Store>
void quantize_tail(const QuantizeParams& p, const float* in, size_t n, Store&& store) {
  const int32x4_t lo = vdupq_n_s32(p.quant_min);
  const int32x4_t hi = vdupq_n_s32(p.quant_max);
  for (size_t i = 0; i < n; i += 4) {
    const mve_pred16_t live = vctp32q(static_cast<uint32_t>(n - i));
    int32x4_t q = vqaddq_n_s32(round_product(vldrwq_z_f32(in + i, live), p.inv_scale),
                               p.zero_point);
    store(i, vminq_s32(vmaxq_s32(q, lo), hi), live);
  }
}

}  // namespace

// 16 floats a step, all in Helium registers: GCC 12 keeps vld4's four vectors
// as one register group and copies vectors around them (29 instructions a
// step instead of 22). Per step:
//   q0..q3 = elements r, r + 4, r + 8, r + 12 for r = 0..3 (VLD4 de-interleaves)
//   each: VMUL by inv_scale (RNE product), VCVTN to int32 (round_product)
//   q0 = sat16 of elements 0, 2, .., 14 (VQMOVNB from q0's, VQMOVNT from q2's)
//   q1 = sat16 of elements 1, 3, .., 15 (from q1's and q3's)
//   + zero_point, saturating, in int16; then q2 = sat8 of q0 in the even bytes
//   and of q1 in the odd ones: elements 0..15 in memory order.
// The saturations commute with the final clamp because every bound fits the
// narrower type: sat16, + zero_point (|zp| <= 128), sat8, clamp to
// [quant_min, quant_max] gives clamp(r + zero_point).
#define ETNS_QUANTIZE_S8_STEP                  \
  "vld40.32 {q0, q1, q2, q3}, [%[in]]\n"       \
  "vld41.32 {q0, q1, q2, q3}, [%[in]]\n"       \
  "vld42.32 {q0, q1, q2, q3}, [%[in]]\n"       \
  "vld43.32 {q0, q1, q2, q3}, [%[in]]!\n"      \
  "vmul.f32 q4, q0, %[inv]\n"                  \
  "vmul.f32 q5, q2, %[inv]\n"                  \
  "vcvtn.s32.f32 q4, q4\n"                     \
  "vcvtn.s32.f32 q5, q5\n"                     \
  "vqmovnb.s32 q0, q4\n"                       \
  "vqmovnt.s32 q0, q5\n"                       \
  "vmul.f32 q4, q1, %[inv]\n"                  \
  "vmul.f32 q5, q3, %[inv]\n"                  \
  "vcvtn.s32.f32 q4, q4\n"                     \
  "vcvtn.s32.f32 q5, q5\n"                     \
  "vqmovnb.s32 q1, q4\n"                       \
  "vqmovnt.s32 q1, q5\n"                       \
  "vqadd.s16 q0, q0, %[zero_point]\n"          \
  "vqadd.s16 q1, q1, %[zero_point]\n"          \
  "vqmovnb.s16 q2, q0\n"                       \
  "vqmovnt.s16 q2, q1\n"

void quantize_f32_s8_mve(const QuantizeParams& p, const float* in, int8_t* out, size_t n) {
  if (!vector_matches_reference(p)) {
    quantize_f32_s8_ref(p, in, out, n);
    return;
  }
  const size_t blocks = n / 16;
  if (blocks > 0) {
    uint32_t inv;
    static_assert(sizeof(inv) == sizeof(p.inv_scale));
    std::memcpy(&inv, &p.inv_scale, sizeof(inv));
    if (p.quant_min == INT8_MIN && p.quant_max == INT8_MAX) {
      // The full int8 range: the last saturation is the clamp.
      __asm__ volatile(
          "dls lr, %[blocks]\n"
          "1:\n" ETNS_QUANTIZE_S8_STEP
          "vstrb.8 q2, [%[out]], #16\n"
          "le lr, 1b\n"
          : [in] "+r"(in), [out] "+r"(out)
          : [blocks] "r"(blocks), [inv] "r"(inv), [zero_point] "r"(p.zero_point)
          : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "lr",
            "memory");
    } else {
      __asm__ volatile(
          "vdup.8 q6, %[quant_min]\n"
          "vdup.8 q7, %[quant_max]\n"
          "dls lr, %[blocks]\n"
          "1:\n" ETNS_QUANTIZE_S8_STEP
          "vmax.s8 q2, q2, q6\n"
          "vmin.s8 q2, q2, q7\n"
          "vstrb.8 q2, [%[out]], #16\n"
          "le lr, 1b\n"
          : [in] "+r"(in), [out] "+r"(out)
          : [blocks] "r"(blocks), [inv] "r"(inv), [zero_point] "r"(p.zero_point),
            [quant_min] "r"(p.quant_min), [quant_max] "r"(p.quant_max)
          : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "d12",
            "d13", "d14", "d15", "lr", "memory");
    }
  }
  quantize_tail(p, in, n % 16, [out](size_t i, int32x4_t q, mve_pred16_t live) {
    vstrbq_p_s32(out + i, q, live);
  });
}

#undef ETNS_QUANTIZE_S8_STEP

void quantize_f32_s16_mve(const QuantizeParams& p, const float* in, int16_t* out, size_t n) {
  if (!vector_matches_reference(p)) {
    quantize_f32_s16_ref(p, in, out, n);
    return;
  }
  const float inv = p.inv_scale;
  const int16x8_t lo = vdupq_n_s16(static_cast<int16_t>(p.quant_min));
  const int16x8_t hi = vdupq_n_s16(static_cast<int16_t>(p.quant_max));
  for (size_t blocks = n / 8; blocks > 0; --blocks) {
    // x.val[0] holds the even elements, x.val[1] the odd ones.
    const float32x4x2_t x = vld2q_f32(in);
    // The zero point (up to +-32768) is added in 32 bits: adding it after a
    // narrowing to int16 could move a saturated value back into range.
    const int32x4_t even = vqaddq_n_s32(round_product(x.val[0], inv), p.zero_point);
    const int32x4_t odd = vqaddq_n_s32(round_product(x.val[1], inv), p.zero_point);
    // x.val[0] is dead: narrowing into its register needs no copy.
    const int16x8_t q = vqmovntq_s32(vqmovnbq_s32(vreinterpretq_s16_f32(x.val[0]), even), odd);
    vst1q_s16(out, vminq_s16(vmaxq_s16(q, lo), hi));
    in += 8;
    out += 8;
  }
  quantize_tail(p, in, n % 8, [out](size_t i, int32x4_t q, mve_pred16_t live) {
    vstrhq_p_s32(out + i, q, live);
  });
}

}  // namespace etns::cortex_m

#endif  // ETNS_HAVE_MVE
