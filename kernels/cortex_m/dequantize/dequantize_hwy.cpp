#include "kernels/cortex_m/dequantize/dequantize.h"

// Host SIMD (Highway): compiled once per target by foreach_target.h, the
// target chosen at run time (HWY_DYNAMIC_DISPATCH).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cortex_m/dequantize/dequantize_hwy.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace etns::cortex_m::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// One float32 lane per element, as the reference: the difference is exact
// in int32 and in float32, then one float multiply (x86 keeps denormals and
// NaN payloads, so no scale needs the reference as on Helium). The tail
// (fewer than a vector) runs the reference: no load or store past n.
template <typename In>
void Dequantize(const DequantizeParams& p, const In* in, float* out, size_t n,
                void (*reference)(const DequantizeParams&, const In*, float*, size_t)) {
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> d32;
  const hn::Rebind<In, decltype(d32)> din;
  const size_t lanes = hn::Lanes(df);
  const auto scale = hn::Set(df, p.scale);
  const auto zero_point = hn::Set(d32, p.zero_point);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto q = hn::Sub(hn::PromoteTo(d32, hn::LoadU(din, in + i)), zero_point);
    hn::StoreU(hn::Mul(hn::ConvertTo(df, q), scale), df, out + i);
  }
  if (i < n) reference(p, in + i, out + i, n - i);
}

void DequantizeS8(const DequantizeParams& p, const int8_t* in, float* out, size_t n) {
  Dequantize(p, in, out, n, &dequantize_s8_f32_ref);
}

void DequantizeS16(const DequantizeParams& p, const int16_t* in, float* out, size_t n) {
  Dequantize(p, in, out, n, &dequantize_s16_f32_ref);
}

}  // namespace etns::cortex_m::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace etns::cortex_m {

HWY_EXPORT(DequantizeS8);
HWY_EXPORT(DequantizeS16);

void dequantize_s8_f32_hwy(const DequantizeParams& p, const int8_t* in, float* out, size_t n) {
  HWY_DYNAMIC_DISPATCH(DequantizeS8)(p, in, out, n);
}

void dequantize_s16_f32_hwy(const DequantizeParams& p, const int16_t* in, float* out, size_t n) {
  HWY_DYNAMIC_DISPATCH(DequantizeS16)(p, in, out, n);
}

}  // namespace etns::cortex_m
#endif  // HWY_ONCE
