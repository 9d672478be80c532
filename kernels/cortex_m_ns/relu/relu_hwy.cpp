#include "kernels/cortex_m_ns/relu/relu.h"

// Host SIMD (Highway): compiled once per target by foreach_target.h, the
// target chosen at run time (HWY_DYNAMIC_DISPATCH).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cortex_m_ns/relu/relu_hwy.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace etns::cortex_m_ns::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The identity path (same quantisation in and out) is a clamp: a max and a
// min per vector, cheaper than any table lookup.
void ClampS8(const int8_t* in, int8_t* out, size_t n, int8_t lo, int8_t hi) {
  const hn::ScalableTag<int8_t> d;
  const size_t lanes = hn::Lanes(d);
  const auto low = hn::Set(d, lo);
  const auto high = hn::Set(d, hi);
  size_t i = 0;
  // Four vectors a step: the loop overhead is most of one vector's work.
  for (; i + 4 * lanes <= n; i += 4 * lanes) {
    const auto a = hn::LoadU(d, in + i);
    const auto b = hn::LoadU(d, in + i + lanes);
    const auto c = hn::LoadU(d, in + i + 2 * lanes);
    const auto e = hn::LoadU(d, in + i + 3 * lanes);
    hn::StoreU(hn::Min(hn::Max(a, low), high), d, out + i);
    hn::StoreU(hn::Min(hn::Max(b, low), high), d, out + i + lanes);
    hn::StoreU(hn::Min(hn::Max(c, low), high), d, out + i + 2 * lanes);
    hn::StoreU(hn::Min(hn::Max(e, low), high), d, out + i + 3 * lanes);
  }
  for (; i + lanes <= n; i += lanes) hn::StoreU(hn::Min(hn::Max(hn::LoadU(d, in + i), low), high), d, out + i);
  // The tail one element at a time: Highway's masked stores may write whole
  // vectors on targets without them, past n.
  for (; i < n; ++i) out[i] = in[i] < lo ? lo : (in[i] > hi ? hi : in[i]);
}

}  // namespace etns::cortex_m_ns::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace etns::cortex_m_ns {

HWY_EXPORT(ClampS8);

void relu_s8_hwy(const ReluParams& p, const int8_t* in, int8_t* out, size_t n) {
  if (p.identity) {
    // prepare bounds act_min <= act_max inside int8.
    HWY_DYNAMIC_DISPATCH(ClampS8)(in, out, n, static_cast<int8_t>(p.act_min), static_cast<int8_t>(p.act_max));
    return;
  }
  kernels::lookup_s8_hwy(p.table, in, out, n);
}

}  // namespace etns::cortex_m_ns
#endif  // HWY_ONCE
