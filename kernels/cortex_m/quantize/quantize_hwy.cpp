#include "kernels/cortex_m/quantize/quantize.h"

// Host SIMD (Highway): compiled once per target by foreach_target.h, the
// target chosen at run time (HWY_DYNAMIC_DISPATCH).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cortex_m/quantize/quantize_hwy.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace etns::cortex_m::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
// AVX-512, int8, 64 elements a step: NaN products become +0 by one fixup
// (instead of a class test and a masked xor), the clamped value is rounded by
// the conversion itself (vcvtps2dq, in the current rounding mode like Quantize's
// rounder below; the clamp rules out its overflow), and four vectors of int32
// are narrowed together: two saturating packs of pairs, one of the pairs, and a
// dword permute restoring the order the packs interleave per 128-bit lane (a
// third of the shuffles of narrowing each vector alone). The packs' saturation
// never acts: every code is in [quant_min, quant_max]. Returns how many
// elements it wrote.
size_t QuantizeBlocksS8(const QuantizeParams& p, const float* in, int8_t* out, size_t n) {
  const __m512 inv_scale = _mm512_set1_ps(p.inv_scale);
  const __m512 low = _mm512_set1_ps(static_cast<float>(p.quant_min - p.zero_point));
  const __m512 high = _mm512_set1_ps(static_cast<float>(p.quant_max - p.zero_point));
  const __m512i zero_point = _mm512_set1_epi32(p.zero_point);
  // vfixupimmps' response per input class, 4 bits each from class 0: quiet and
  // signalling NaN give +0 (8), every other class the input itself (1).
  const __m512i nan_to_zero = _mm512_set1_epi32(0x11111188);
  const __m512i lane_order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  const auto code = [&](const float* from) HWY_ATTR {
    const __m512 product = _mm512_mul_ps(_mm512_loadu_ps(from), inv_scale);
    const __m512 finite = _mm512_fixupimm_ps(product, product, nan_to_zero, 0);
    const __m512 clamped = _mm512_min_ps(_mm512_max_ps(finite, low), high);
    return _mm512_add_epi32(_mm512_cvtps_epi32(clamped), zero_point);
  };
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512i pairs_ab = _mm512_packs_epi32(code(in + i), code(in + i + 16));
    const __m512i pairs_cd = _mm512_packs_epi32(code(in + i + 32), code(in + i + 48));
    const __m512i bytes = _mm512_packs_epi16(pairs_ab, pairs_cd);
    _mm512_storeu_si512(out + i, _mm512_permutexvar_epi32(lane_order, bytes));
  }
  return i;
}
#endif

// One float32 lane per element, as the reference: one float multiply (x86
// keeps denormals, so no case needs the reference as on Helium); NaN taken
// to 0 first, giving zero_point; clamped while still a float to
// [quant_min - zp, quant_max - zp] (exact: small integers), where
// clamp(zp + round(r)) = round(clamp(r)) + zp holds and +-Inf lands on a
// bound. The clamped value v is within 2^22 of 0, so v + 1.5 * 2^23 lies in
// [2^23, 2^24), where a float's spacing is 1: the addition rounds v to an
// integer in the current rounding mode (nearest even, as the reference's
// nearbyint), and that integer is the sum's bits minus the constant's bits.
// Two operations instead of a rounding and a conversion with Highway's
// overflow fix-up, which the clamp makes unnecessary. The tail (fewer than a
// vector) runs the reference: no load or store past n.
template <typename Out>
void Quantize(const QuantizeParams& p, const float* in, Out* out, size_t n,
              void (*reference)(const QuantizeParams&, const float*, Out*, size_t)) {
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> d32;
  const hn::Rebind<Out, decltype(d32)> dout;
  const size_t lanes = hn::Lanes(df);
  constexpr float kRounder = 12582912.0f;  // 1.5 * 2^23
  const auto inv_scale = hn::Set(df, p.inv_scale);
  const auto low = hn::Set(df, static_cast<float>(p.quant_min - p.zero_point));
  const auto high = hn::Set(df, static_cast<float>(p.quant_max - p.zero_point));
  const auto rounder = hn::Set(df, kRounder);
  // The rounder's bits less the zero point: subtracted from the sum's bits.
  const auto offset = hn::Sub(hn::BitCast(d32, rounder), hn::Set(d32, p.zero_point));
  size_t i = 0;
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  if constexpr (sizeof(Out) == 1) i = QuantizeBlocksS8(p, in, reinterpret_cast<int8_t*>(out), n);
#endif
  for (; i + lanes <= n; i += lanes) {
    const auto product = hn::Mul(hn::LoadU(df, in + i), inv_scale);
    const auto clamped = hn::Min(hn::Max(hn::IfThenZeroElse(hn::IsNaN(product), product), low), high);
    const auto q = hn::Sub(hn::BitCast(d32, hn::Add(clamped, rounder)), offset);
    hn::StoreU(hn::DemoteTo(dout, q), dout, out + i);
  }
  if (i < n) reference(p, in + i, out + i, n - i);
}

void QuantizeS8(const QuantizeParams& p, const float* in, int8_t* out, size_t n) {
  Quantize(p, in, out, n, &quantize_f32_s8_ref);
}

void QuantizeS16(const QuantizeParams& p, const float* in, int16_t* out, size_t n) {
  Quantize(p, in, out, n, &quantize_f32_s16_ref);
}

}  // namespace etns::cortex_m::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace etns::cortex_m {

HWY_EXPORT(QuantizeS8);
HWY_EXPORT(QuantizeS16);

void quantize_f32_s8_hwy(const QuantizeParams& p, const float* in, int8_t* out, size_t n) {
  HWY_DYNAMIC_DISPATCH(QuantizeS8)(p, in, out, n);
}

void quantize_f32_s16_hwy(const QuantizeParams& p, const float* in, int16_t* out, size_t n) {
  HWY_DYNAMIC_DISPATCH(QuantizeS16)(p, in, out, n);
}

}  // namespace etns::cortex_m
#endif  // HWY_ONCE
