// The rows of kernels::broadcast_walk_rows as Highway lanes (host only), for
// an elementwise int8 operation given as a functor Op: Op()(v, w) on two
// vectors of one tag (hn::Min's, hn::Max's); and the int32 lane loop of the
// requantising binary operations (add, mul), their arithmetic passed in. Included by each *_hwy.cpp after
// hwy/foreach_target.h, so it is compiled once per target: the guard below
// toggles with HWY_TARGET_TOGGLE instead of #pragma once.
#if defined(ETNS_KERNELS_COMMON_BROADCAST_WALK_HWY_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ETNS_KERNELS_COMMON_BROADCAST_WALK_HWY_H_
#undef ETNS_KERNELS_COMMON_BROADCAST_WALK_HWY_H_
#else
#define ETNS_KERNELS_COMMON_BROADCAST_WALK_HWY_H_
#endif

#include <cstddef>
#include <cstdint>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace etns::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// A vector at a time, then the last elements on one-lane vectors, so both
// parts compute with the same operation.
template <class Op>
struct BinaryRowsS8 {
  static void row(const int8_t* a, const int8_t* b, int8_t* out, size_t n) {
    const hn::ScalableTag<int8_t> d;
    const hn::CappedTag<int8_t, 1> d1;
    const size_t lanes = hn::Lanes(d);
    size_t i = 0;
    for (; i + lanes <= n; i += lanes) hn::StoreU(Op()(hn::LoadU(d, a + i), hn::LoadU(d, b + i)), d, out + i);
    for (; i < n; ++i) hn::StoreU(Op()(hn::LoadU(d1, a + i), hn::LoadU(d1, b + i)), d1, out + i);
  }
  // `s` against every element of b (the operation is symmetric).
  static void scalar_row(int8_t s, const int8_t* b, int8_t* out, size_t n) {
    const hn::ScalableTag<int8_t> d;
    const hn::CappedTag<int8_t, 1> d1;
    const size_t lanes = hn::Lanes(d);
    size_t i = 0;
    for (; i + lanes <= n; i += lanes) hn::StoreU(Op()(hn::Set(d, s), hn::LoadU(d, b + i)), d, out + i);
    for (; i < n; ++i) hn::StoreU(Op()(hn::Set(d1, s), hn::LoadU(d1, b + i)), d1, out + i);
  }
};

struct MinOp {
  template <class V>
  HWY_INLINE V operator()(V a, V b) const {
    return hn::Min(a, b);
  }
};
struct MaxOp {
  template <class V>
  HWY_INLINE V operator()(V a, V b) const {
    return hn::Max(a, b);
  }
};

// The lane loop of add's and mul's variants, a[i] op b[i] for i < n with b
// as long as a: one int32 lane per element, `lane(d, a_q, b_q)` giving the
// clamped int32 results of a vector of widened elements (a lambda marked
// HWY_ATTR, inlined here), then demoted and stored. The tail (fewer than a
// vector) runs the reference on p with b_channels 0, so no load or store goes
// past n. kernels/common/channel_broadcast.h walks a channel broadcast over it.
template <class Params, class Lane>
HWY_INLINE void WidenedLanesS8(const Params& p,
                               void (*reference)(const Params&, const int8_t*, const int8_t*,
                                                 int8_t*, size_t),
                               const int8_t* a, const int8_t* b, int8_t* out, size_t n,
                               const Lane& lane) {
  const hn::ScalableTag<int32_t> d;
  const hn::Rebind<int8_t, decltype(d)> d8;
  const size_t lanes = hn::Lanes(d);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto a_q = hn::PromoteTo(d, hn::LoadU(d8, a + i));
    const auto b_q = hn::PromoteTo(d, hn::LoadU(d8, b + i));
    hn::StoreU(hn::DemoteTo(d8, lane(d, a_q, b_q)), d8, out + i);
  }
  if (i < n) {
    Params flat = p;
    flat.b_channels = 0;
    reference(flat, a + i, b + i, out + i, n - i);
  }
}

}  // namespace etns::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ETNS_KERNELS_COMMON_BROADCAST_WALK_HWY_H_
