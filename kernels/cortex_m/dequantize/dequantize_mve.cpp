#include "kernels/cortex_m/dequantize/dequantize.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

#include <cmath>
#include <cstring>

namespace etns::cortex_m {
namespace {

// Helium's float instructions flush denormal inputs and results to zero and
// make default NaNs whatever FPSCR says, where the scalar reference does not.
// (float)(q - zp) is an integer, zero or at least 1 in magnitude, so with a
// normal (or zero, or infinite) scale no operand or product is denormal and
// the products agree bit for bit. A denormal scale (its products may be
// denormal or normal: 255 * 1e-40 is normal) and a NaN scale (whose payload
// the scalar multiply propagates) take the reference.
bool vector_matches_reference(float scale) {
  const int kind = std::fpclassify(scale);
  return kind != FP_SUBNORMAL && kind != FP_NAN;
}

// The fused form q * scale + offset with offset = -zp * scale equals the
// reference's RNE((q - zp) * scale) (one rounding of the same exact value)
// when offset is exactly -zp * scale as a float. A positive normal scale
// keeps every operand and the exact offset normal (|zp| >= 1) or zero, and
// never makes q == zp give -0.0 (the reference's +0 * scale is +0).
bool fused_offset(float scale, int32_t zero_point, float& offset) {
  if (!(std::isnormal(scale) && scale > 0.0f)) return false;
  // Exact in double: a 24-bit significand times an 8-bit integer.
  const double exact = -static_cast<double>(zero_point) * static_cast<double>(scale);
  offset = static_cast<float>(exact);
  return std::isfinite(offset) && static_cast<double>(offset) == exact;
}

uint32_t bits_of(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

}  // namespace

// VCVTB.F32.F16 / VCVTT.F32.F16 Qd, Qm (float16 lanes 2i / 2i + 1 of Qm to
// float32 lane i of Qd), as raw encodings: binutils 2.40 encodes them with
// each register number doubled (q1 as q2), so neither the intrinsics nor
// the mnemonics work with Debian's toolchain.
#define ETNS_VCVTB_F32_F16(qd, qm) ".inst.w 0xfe3f0e01 | (" #qd " << 13) | (" #qm " << 1)\n"
#define ETNS_VCVTT_F32_F16(qd, qm) ".inst.w 0xfe3f1e01 | (" #qd " << 13) | (" #qm " << 1)\n"

// 16 codes a step in inline assembly (the widening conversions above).
// |q - zp| <= 255 for int8 codes and zero points (prepare checks zp), so the
// difference is exact in int16 and in float16 (integers up to 2048); VCVTB and
// VCVTT widen the even and odd float16 lanes exactly, and VST2 interleaves the
// two float32 vectors back into memory order.
void dequantize_s8_f32_mve(const DequantizeParams& p, const int8_t* in, float* out, size_t n) {
  if (!vector_matches_reference(p.scale)) {
    dequantize_s8_f32_ref(p, in, out, n);
    return;
  }
  const size_t blocks = n / 16;
  const uint32_t scale = bits_of(p.scale);
  float offset_value;
  if (blocks > 0 && fused_offset(p.scale, p.zero_point, offset_value)) {
    // q itself (|q| <= 128) converts exactly; VFMAS computes q * scale + offset
    // with one rounding.
    const uint32_t offset = bits_of(offset_value);
    __asm__ volatile(
        "vdup.32 q7, %[scale]\n"
        "dls lr, %[blocks]\n"
        "1:\n"
        "vldrb.s16 q0, [%[in]], #8\n"
        "vldrb.s16 q1, [%[in]], #8\n"
        "vcvt.f16.s16 q0, q0\n"
        "vcvt.f16.s16 q1, q1\n"
        ETNS_VCVTB_F32_F16(2, 0)
        ETNS_VCVTT_F32_F16(3, 0)
        "vfmas.f32 q2, q7, %[offset]\n"
        "vfmas.f32 q3, q7, %[offset]\n"
        "vst20.32 {q2, q3}, [%[out]]\n"
        "vst21.32 {q2, q3}, [%[out]]!\n"
        ETNS_VCVTB_F32_F16(4, 1)
        ETNS_VCVTT_F32_F16(5, 1)
        "vfmas.f32 q4, q7, %[offset]\n"
        "vfmas.f32 q5, q7, %[offset]\n"
        "vst20.32 {q4, q5}, [%[out]]\n"
        "vst21.32 {q4, q5}, [%[out]]!\n"
        "le lr, 1b\n"
        : [in] "+r"(in), [out] "+r"(out)
        : [blocks] "r"(blocks), [scale] "r"(scale), [offset] "r"(offset)
        : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "d14", "d15",
          "lr", "memory");
  } else if (blocks > 0) {
    __asm__ volatile(
        "dls lr, %[blocks]\n"
        "1:\n"
        "vldrb.s16 q0, [%[in]], #8\n"
        "vldrb.s16 q1, [%[in]], #8\n"
        "vsub.i16 q0, q0, %[zero_point]\n"
        "vsub.i16 q1, q1, %[zero_point]\n"
        "vcvt.f16.s16 q0, q0\n"
        "vcvt.f16.s16 q1, q1\n"
        ETNS_VCVTB_F32_F16(2, 0)
        ETNS_VCVTT_F32_F16(3, 0)
        "vmul.f32 q2, q2, %[scale]\n"
        "vmul.f32 q3, q3, %[scale]\n"
        "vst20.32 {q2, q3}, [%[out]]\n"
        "vst21.32 {q2, q3}, [%[out]]!\n"
        ETNS_VCVTB_F32_F16(4, 1)
        ETNS_VCVTT_F32_F16(5, 1)
        "vmul.f32 q4, q4, %[scale]\n"
        "vmul.f32 q5, q5, %[scale]\n"
        "vst20.32 {q4, q5}, [%[out]]\n"
        "vst21.32 {q4, q5}, [%[out]]!\n"
        "le lr, 1b\n"
        : [in] "+r"(in), [out] "+r"(out)
        : [blocks] "r"(blocks), [scale] "r"(scale), [zero_point] "r"(p.zero_point)
        : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "lr",
          "memory");
  }
  // The tail: four lanes a step, predicated (VST2 cannot be).
  const size_t tail = n % 16;
  for (size_t i = 0; i < tail; i += 4) {
    const mve_pred16_t live = vctp32q(static_cast<uint32_t>(tail - i));
    const int32x4_t diff = vsubq_n_s32(vldrbq_z_s32(in + i, live), p.zero_point);
    vstrwq_p_f32(out + i, vmulq_n_f32(vcvtq_f32_s32(diff), p.scale), live);
  }
}

void dequantize_s16_f32_mve(const DequantizeParams& p, const int16_t* in, float* out, size_t n) {
  if (!vector_matches_reference(p.scale)) {
    dequantize_s16_f32_ref(p, in, out, n);
    return;
  }
  // |q - zp| reaches 65535: 32-bit lanes, exact in float32.
  const float scale = p.scale;
  for (size_t blocks = n / 4; blocks > 0; --blocks) {
    const int32x4_t diff = vsubq_n_s32(vldrhq_s32(in), p.zero_point);
    vst1q_f32(out, vmulq_n_f32(vcvtq_f32_s32(diff), scale));
    in += 4;
    out += 4;
  }
  const uint32_t tail = static_cast<uint32_t>(n % 4);
  if (tail != 0) {
    const mve_pred16_t live = vctp32q(tail);
    const int32x4_t diff = vsubq_n_s32(vldrhq_z_s32(in, live), p.zero_point);
    vstrwq_p_f32(out, vmulq_n_f32(vcvtq_f32_s32(diff), scale), live);
  }
}

#undef ETNS_VCVTB_F32_F16
#undef ETNS_VCVTT_F32_F16

}  // namespace etns::cortex_m

#endif  // ETNS_HAVE_MVE
