#include "kernels/cortex_m/add/add.h"

// Host SIMD (Highway): compiled once per target by foreach_target.h, the
// target chosen at run time (HWY_DYNAMIC_DISPATCH).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cortex_m/add/add_hwy.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/common/channel_broadcast.h"
#include "kernels/common/requantize_hwy.h"

HWY_BEFORE_NAMESPACE();
namespace etns::cortex_m::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using kernels::HWY_NAMESPACE::LaneRequant;
using kernels::HWY_NAMESPACE::WrappingAdd;
using kernels::HWY_NAMESPACE::WrappingShiftLeft;

// a[i] + b[i] for i < n, b as long as a (p.b_channels is the caller's): one
// int32 lane per element; the tail (fewer than a vector) runs the reference,
// so no load or store goes past n.
void AddLanes(const AddParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n) {
  const hn::ScalableTag<int32_t> d;
  const hn::Rebind<int8_t, decltype(d)> d8;
  const size_t lanes = hn::Lanes(d);
  const LaneRequant<decltype(d)> a_rq(d, p.a);
  const LaneRequant<decltype(d)> b_rq(d, p.b);
  const LaneRequant<decltype(d)> out_rq(d, p.out);
  const auto a_zero_point = hn::Set(d, p.a_zero_point);
  const auto b_zero_point = hn::Set(d, p.b_zero_point);
  const auto out_zero_point = hn::Set(d, p.out_zero_point);
  const auto low = hn::Set(d, p.activation_min);
  const auto high = hn::Set(d, p.activation_max);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto a_q = hn::PromoteTo(d, hn::LoadU(d8, a + i));
    const auto b_q = hn::PromoteTo(d, hn::LoadU(d8, b + i));
    const auto a_scaled = a_rq(d, WrappingShiftLeft(d, hn::Sub(a_q, a_zero_point), kAddLeftShift));
    const auto b_scaled = b_rq(d, WrappingShiftLeft(d, hn::Sub(b_q, b_zero_point), kAddLeftShift));
    // Both sums wrap as upstream's VADD (and the reference) do.
    const auto sum = out_rq(d, WrappingAdd(d, a_scaled, b_scaled));
    const auto y = hn::Min(hn::Max(WrappingAdd(d, sum, out_zero_point), low), high);
    hn::StoreU(hn::DemoteTo(d8, y), d8, out + i);
  }
  if (i < n) {
    AddParams flat = p;
    flat.b_channels = 0;
    add_s8_ref(flat, a + i, b + i, out + i, n - i);
  }
}

void AddS8(const AddParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n) {
  kernels::walk_channel_broadcast(
      p.b_channels, a, b, out, n,
      [&p](const int8_t* x, const int8_t* y, int8_t* z, size_t count) {
        AddLanes(p, x, y, z, count);
      });
}

}  // namespace etns::cortex_m::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace etns::cortex_m {

HWY_EXPORT(AddS8);

void add_s8_hwy(const AddParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n) {
  HWY_DYNAMIC_DISPATCH(AddS8)(p, a, b, out, n);
}

}  // namespace etns::cortex_m
#endif  // HWY_ONCE
