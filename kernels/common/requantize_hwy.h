// The requantisation of kernels/common/requantize.h on int32 lanes, for the
// host SIMD variants (Highway, host only). Included by each *_hwy.cpp after
// hwy/foreach_target.h, so it is compiled once per target: the guard below
// toggles with HWY_TARGET_TOGGLE instead of #pragma once.
#if defined(ETNS_KERNELS_COMMON_REQUANTIZE_HWY_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ETNS_KERNELS_COMMON_REQUANTIZE_HWY_H_
#undef ETNS_KERNELS_COMMON_REQUANTIZE_HWY_H_
#else
#define ETNS_KERNELS_COMMON_REQUANTIZE_HWY_H_
#endif

#include <cstdint>

#include "hwy/highway.h"
#include "kernels/common/requantize.h"

HWY_BEFORE_NAMESPACE();
namespace etns::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Sums and differences in int32 lanes wrap as the reference's uint32
// arithmetic does: computed on unsigned lanes, with no signed overflow.
template <class D>
HWY_INLINE hn::Vec<D> WrappingAdd(D d, hn::Vec<D> a, hn::Vec<D> b) {
  const hn::RebindToUnsigned<D> du;
  return hn::BitCast(d, hn::Add(hn::BitCast(du, a), hn::BitCast(du, b)));
}

template <class D>
HWY_INLINE hn::Vec<D> WrappingSub(D d, hn::Vec<D> a, hn::Vec<D> b) {
  const hn::RebindToUnsigned<D> du;
  return hn::BitCast(d, hn::Sub(hn::BitCast(du, a), hn::BitCast(du, b)));
}

// v * 2^bits modulo 2^32 (0 once bits >= 32), as requantize's left shift.
template <class D>
HWY_INLINE hn::Vec<D> WrappingShiftLeft(D d, hn::Vec<D> v, int bits) {
  if (bits >= 32) return hn::Zero(d);
  const hn::RebindToUnsigned<D> du;
  return hn::BitCast(d, hn::ShiftLeftSame(hn::BitCast(du, v), bits));
}

// doubling_high_multiply: floor((a * m + 2^30) / 2^31) in int64 lanes, the
// even and odd int32 lanes separately. m is in [0, 2^31) (validated at load),
// so the reference's one saturating case (both INT32_MIN) cannot occur.
template <class D>
HWY_INLINE hn::Vec<D> DoublingHighMultiply(D d, hn::Vec<D> a, hn::Vec<D> m) {
#if HWY_TARGET == HWY_SCALAR
  // One lane, no int64 lanes to split into (GCC before 12.3 falls back to
  // this target rather than EMU128): the reference itself.
  return hn::Set(d, doubling_high_multiply(hn::GetLane(a), hn::GetLane(m)));
#else
  const hn::Repartition<int64_t, D> d64;
  const hn::Repartition<uint64_t, D> du64;
  const auto half = hn::Set(d64, int64_t{1} << 30);
  const auto even = hn::ShiftRight<31>(hn::Add(hn::MulEven(a, m), half));
  const auto a_odd = hn::BitCast(d, hn::ShiftRight<32>(hn::BitCast(du64, a)));
  // m may differ per lane (per-channel factors): its odd lanes moved down too.
  const auto m_odd = hn::BitCast(d, hn::ShiftRight<32>(hn::BitCast(du64, m)));
  const auto odd = hn::ShiftRight<31>(hn::Add(hn::MulEven(a_odd, m_odd), half));
  // Each result fits in int32: keep the low halves, odd ones moved up.
  const auto low = hn::And(hn::BitCast(du64, even), hn::Set(du64, uint64_t{0xFFFFFFFFu}));
  const auto high = hn::ShiftLeft<32>(hn::BitCast(du64, odd));
  return hn::BitCast(d, hn::Or(low, high));
#endif
}

// rounding_divide_by_pow2 (ties away from zero) in int32 lanes, exponent in
// [0, 31]: the floor quotient plus one where the remainder is above half, or
// exactly half for x >= 0 (so a negative tie stays at the floor, away from 0).
template <class D>
HWY_INLINE hn::Vec<D> RoundingDivideByPow2(D d, hn::Vec<D> x, int exponent) {
  if (exponent == 0) return x;
  const int32_t mask_bits = static_cast<int32_t>((uint32_t{1} << exponent) - 1u);
  const auto remainder = hn::And(x, hn::Set(d, mask_bits));
  // (mask >> 1) + 1 for x < 0: BroadcastSignBit is -1 there.
  const auto threshold = hn::Sub(hn::Set(d, mask_bits >> 1), hn::BroadcastSignBit(x));
  const auto floor = hn::ShiftRightSame(x, exponent);
  return hn::Sub(floor, hn::VecFromMask(d, hn::Gt(remainder, threshold)));
}

// One requantisation stage with its factor broadcast: requantize(v, q) lane
// by lane.
template <class D>
struct LaneRequant {
  LaneRequant(D d, Requant q)
      : multiplier(hn::Set(d, q.multiplier)),
        left(q.shift > 0 ? q.shift : 0),
        right(q.shift < 0 ? -q.shift : 0) {}

  hn::Vec<D> operator()(D d, hn::Vec<D> v) const {
    const auto scaled = WrappingShiftLeft(d, v, left);
    return RoundingDivideByPow2(d, DoublingHighMultiply(d, scaled, multiplier), right);
  }

  hn::Vec<D> multiplier;
  int left;
  int right;
};

// requantize(v, {multiplier, shift}) with a factor per lane (per-channel
// requantisation): shifts in [-31, 30] and multipliers in [0, 2^31), as
// validated at load. The rounding divide is RoundingDivideByPow2's, with the
// exponent, mask and threshold per lane.
template <class D>
HWY_INLINE hn::Vec<D> RequantPerLane(D d, hn::Vec<D> v, hn::Vec<D> multiplier, hn::Vec<D> shift) {
  const hn::RebindToUnsigned<D> du;
  const auto zero = hn::Zero(d);
  const auto left = hn::BitCast(du, hn::Max(shift, zero));
  const auto right = hn::Max(hn::Sub(zero, shift), zero);
  const auto x = DoublingHighMultiply(d, hn::BitCast(d, hn::BitCast(du, v) << left), multiplier);
  const auto one = hn::Set(du, 1u);
  const auto mask = hn::Sub(one << hn::BitCast(du, right), one);
  const auto remainder = hn::And(x, hn::BitCast(d, mask));
  const auto threshold = hn::Sub(hn::BitCast(d, hn::ShiftRight<1>(mask)), hn::BroadcastSignBit(x));
  return hn::Sub(x >> right, hn::VecFromMask(d, hn::Gt(remainder, threshold)));
}

}  // namespace etns::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ETNS_KERNELS_COMMON_REQUANTIZE_HWY_H_
