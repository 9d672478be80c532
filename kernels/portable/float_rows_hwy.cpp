#include <cmath>

#include "kernels/portable/float_rows.h"

// Host SIMD (Highway): compiled once per target by foreach_target.h, the
// target chosen at run time (HWY_DYNAMIC_DISPATCH). Each lane does the
// reference's IEEE operations in its order, compares as selects, then writes
// any NaN as 0x7FC00000; the last partial vector goes through the same code
// on one-lane vectors.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/portable/float_rows_hwy.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace etns::portable::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class D>
HWY_INLINE hn::Vec<D> CanonicalNan(D d, hn::Vec<D> r) {
  const hn::RebindToUnsigned<D> du;
  return hn::IfThenElse(hn::IsNaN(r), hn::BitCast(d, hn::Set(du, 0x7FC00000u)), r);
}

// Applies `lanes(d, i)` (the result vector for elements [i, i + Lanes(d)))
// over n elements, storing each.
template <class F>
HWY_INLINE void ForEachVector(float* out, size_t n, F lanes) {
  const hn::ScalableTag<float> d;
  const hn::CappedTag<float, 1> d1;
  size_t i = 0;
  for (; i + hn::Lanes(d) <= n; i += hn::Lanes(d)) hn::StoreU(lanes(d, i), d, out + i);
  for (; i < n; ++i) hn::StoreU(lanes(d1, i), d1, out + i);
}

void LeakyReluRow(const float* in, float* out, size_t n, float slope) {
  ForEachVector(out, n, [&](auto d, size_t i) HWY_ATTR {
    const auto x = hn::LoadU(d, in + i);
    const auto r = hn::IfThenElse(hn::Ge(x, hn::Zero(d)), x, hn::Mul(x, hn::Set(d, slope)));
    return CanonicalNan(d, r);
  });
}

void ClampRow(const float* in, float* out, size_t n, float lo, float hi) {
  if (std::isnan(lo) || std::isnan(hi)) {
    clamp_row_ref(in, out, n, lo, hi);
    return;
  }
  ForEachVector(out, n, [&](auto d, size_t i) HWY_ATTR {
    const auto x = hn::LoadU(d, in + i);
    const auto low = hn::Set(d, lo);
    const auto high = hn::Set(d, hi);
    // x < lo ? lo : x, then hi < v ? hi : v; a NaN x fails both compares and
    // stays NaN.
    const auto v = hn::IfThenElse(hn::Lt(x, low), low, x);
    return CanonicalNan(d, hn::IfThenElse(hn::Lt(high, v), high, v));
  });
}

void SubRow(const float* a, size_t a_step, const float* b, size_t b_step, float* out, size_t n, float alpha) {
  if (a_step > 1 || b_step > 1) {
    sub_row_ref(a, a_step, b, b_step, out, n, alpha);
    return;
  }
  ForEachVector(out, n, [&](auto d, size_t i) HWY_ATTR {
    const auto x = a_step == 1 ? hn::LoadU(d, a + i) : hn::Set(d, a[0]);
    const auto y = b_step == 1 ? hn::LoadU(d, b + i) : hn::Set(d, b[0]);
    return CanonicalNan(d, hn::Sub(x, hn::Mul(hn::Set(d, alpha), y)));
  });
}

}  // namespace etns::portable::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace etns::portable {

HWY_EXPORT(LeakyReluRow);
HWY_EXPORT(ClampRow);
HWY_EXPORT(SubRow);

void leaky_relu_row_hwy(const float* in, float* out, size_t n, float slope) {
  HWY_DYNAMIC_DISPATCH(LeakyReluRow)(in, out, n, slope);
}

void clamp_row_hwy(const float* in, float* out, size_t n, float lo, float hi) {
  HWY_DYNAMIC_DISPATCH(ClampRow)(in, out, n, lo, hi);
}


void sub_row_hwy(const float* a, size_t a_step, const float* b, size_t b_step, float* out, size_t n, float alpha) {
  HWY_DYNAMIC_DISPATCH(SubRow)(a, a_step, b, b_step, out, n, alpha);
}

}  // namespace etns::portable
#endif  // HWY_ONCE
