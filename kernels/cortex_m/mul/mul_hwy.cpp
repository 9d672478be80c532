#include "kernels/cortex_m/mul/mul.h"

// Host SIMD (Highway): compiled once per target by foreach_target.h, the
// target chosen at run time (HWY_DYNAMIC_DISPATCH).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cortex_m/mul/mul_hwy.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/common/broadcast_walk_hwy.h"
#include "kernels/common/channel_broadcast.h"
#include "kernels/common/requantize_hwy.h"

HWY_BEFORE_NAMESPACE();
namespace etns::cortex_m::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using kernels::HWY_NAMESPACE::LaneRequant;
using kernels::HWY_NAMESPACE::WidenedLanesS8;
using kernels::HWY_NAMESPACE::WrappingAdd;

// a[i] * b[i] for i < n, b as long as a (p.b_channels is the caller's): one
// int32 lane per element; the tail (fewer than a vector) runs the reference,
// so no load or store goes past n.
void MulLanes(const MulParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n) {
  const hn::ScalableTag<int32_t> d;
  const LaneRequant<decltype(d)> out_rq(d, p.out);
  const auto a_zero_point = hn::Set(d, p.a_zero_point);
  const auto b_zero_point = hn::Set(d, p.b_zero_point);
  const auto out_zero_point = hn::Set(d, p.out_zero_point);
  const auto low = hn::Set(d, int32_t{INT8_MIN});
  const auto high = hn::Set(d, int32_t{INT8_MAX});
  WidenedLanesS8(p, &mul_s8_ref, a, b, out, n, [&](auto d32, auto a_q, auto b_q) HWY_ATTR {
    // At most 255 * 255 in magnitude: no overflow.
    const auto product = hn::Mul(hn::Sub(a_q, a_zero_point), hn::Sub(b_q, b_zero_point));
    // The offset wraps as upstream's int32 add (and the reference) do.
    const auto sum = WrappingAdd(d32, out_rq(d32, product), out_zero_point);
    return hn::Min(hn::Max(sum, low), high);
  });
}

void MulS8(const MulParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n) {
  kernels::walk_channel_broadcast(
      p.b_channels, a, b, out, n,
      [&p](const int8_t* x, const int8_t* y, int8_t* z, size_t count) {
        MulLanes(p, x, y, z, count);
      });
}

}  // namespace etns::cortex_m::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace etns::cortex_m {

HWY_EXPORT(MulS8);

void mul_s8_hwy(const MulParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n) {
  HWY_DYNAMIC_DISPATCH(MulS8)(p, a, b, out, n);
}

}  // namespace etns::cortex_m
#endif  // HWY_ONCE
