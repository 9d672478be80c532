#include "kernels/common/clamp_s8.h"

#include <algorithm>
#include <cstdint>

// Host SIMD (Highway): compiled once per target by foreach_target.h, the
// target chosen at run time (HWY_DYNAMIC_DISPATCH).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/common/clamp_s8_hwy.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace etns::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// A max and a min per vector. Stores are aligned (a store
// across two cache lines costs about two): the first and last vectors are
// unaligned and overlap the aligned ones, which is exact as clamping twice
// is clamping once (also for lo > hi: every code becomes hi), and holds in
// place too (in == out).
void ClampS8(const int8_t* in, int8_t* out, size_t n, int8_t lo, int8_t hi) {
  const hn::ScalableTag<int8_t> d;
  const size_t lanes = hn::Lanes(d);
  const auto low = hn::Set(d, lo);
  const auto high = hn::Set(d, hi);
  const auto clamp = [&](const int8_t* from) HWY_ATTR { return hn::Min(hn::Max(hn::LoadU(d, from), low), high); };
  if (n < 2 * lanes) {
    size_t i = 0;
    for (; i + lanes <= n; i += lanes) hn::StoreU(clamp(in + i), d, out + i);
    // The tail one element at a time: Highway's masked stores may write
    // whole vectors on targets without them, past n.
    for (; i < n; ++i) out[i] = std::min(std::max(in[i], lo), hi);
    return;
  }
  hn::StoreU(clamp(in), d, out);
  // The first aligned output vector after out[0]; at most `lanes` in.
  size_t i = lanes - reinterpret_cast<uintptr_t>(out) % lanes;
  // Four vectors a step: the loop overhead is most of one vector's work.
  for (; i + 4 * lanes <= n; i += 4 * lanes) {
    const auto a = clamp(in + i);
    const auto b = clamp(in + i + lanes);
    const auto c = clamp(in + i + 2 * lanes);
    const auto e = clamp(in + i + 3 * lanes);
    hn::Store(a, d, out + i);
    hn::Store(b, d, out + i + lanes);
    hn::Store(c, d, out + i + 2 * lanes);
    hn::Store(e, d, out + i + 3 * lanes);
  }
  for (; i + lanes <= n; i += lanes) hn::Store(clamp(in + i), d, out + i);
  if (i < n) hn::StoreU(clamp(in + n - lanes), d, out + n - lanes);
}

}  // namespace etns::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace etns::kernels {

HWY_EXPORT(ClampS8);

void clamp_s8_hwy(const int8_t* in, int8_t* out, size_t n, int8_t lo, int8_t hi) {
  HWY_DYNAMIC_DISPATCH(ClampS8)(in, out, n, lo, hi);
}

}  // namespace etns::kernels
#endif  // HWY_ONCE
