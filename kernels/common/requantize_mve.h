#pragma once

// The Helium forms of requantize.h's RQ(v, M, S), four int32 lanes at a time,
// bit-exact with kernels::requantize (docs/numerics.md#requantize). Every
// Helium kernel requantises through these; they are always inlined, so a
// kernel's loop keeps its constants in registers.
//
// RQ = RDIV(DHM(v * 2^L, M), R) with L = max(S, 0), R = max(-S, 0):
//   VSHL by L (wraps modulo 2^32, as the reference's uint32 shift),
//   VQRDMULH by M (DHM, ties up, the one overflow saturated),
//   VRSHL by -R rounds ties up; the reference rounds them away from zero, so a
//   negative value first steps down by one when R > 0 (saturating: INT32_MIN
//   is never a tie).
#include "kernels/common/isa.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

#include <cstdint>

#include "kernels/common/requantize.h"

namespace etns::kernels::mve {

#define ETNS_MVE_INLINE inline __attribute__((always_inline))

// One (M, S) for every lane, split once: S's left and (negated) right parts.
struct LaneRequant {
  int32_t multiplier = 0;
  int32_t left = 0;       // max(S, 0)
  int32_t neg_right = 0;  // min(S, 0): VRSHL's shift; its sign bit says "a right shift"

  LaneRequant() = default;
  explicit LaneRequant(Requant q)
      : multiplier(q.multiplier), left(q.shift > 0 ? q.shift : 0),
        neg_right(q.shift < 0 ? q.shift : 0) {}
  // Already split (a kernel that keeps the parts in its own registers).
  LaneRequant(int32_t multiplier_, int32_t left_, int32_t neg_right_)
      : multiplier(multiplier_), left(left_), neg_right(neg_right_) {}
};

// What a kernel knows of S when it picks its loop: the general form costs
// two instructions more than one that knows S's sign.
enum class Shift {
  Any,    // any S
  Left,   // S >= 0: DHM(v * 2^S, M), nothing to round
  Right,  // S < 0 (the exporters' factors below 1): the step down is folded
          // into the multiply (VQRDMLAH adds DHM(v, M) to v's sign, -1 or 0).
          // It differs from the general form only where DHM(v, M) is 0 with v
          // negative, and RDIV(-1, R >= 1) is 0 as well.
  None,   // S = 0: DHM alone
};

// RQ(v, M, S), one (M, S) for every lane, S as the caller knows it.
template <Shift kShift = Shift::Any>
ETNS_MVE_INLINE int32x4_t requantize_lanes(int32x4_t v, const LaneRequant& q) {
  if constexpr (kShift == Shift::None) {
    return vqrdmulhq_n_s32(v, q.multiplier);
  } else if constexpr (kShift == Shift::Left) {
    return vqrdmulhq_n_s32(vshlq_r_s32(v, q.left), q.multiplier);
  } else if constexpr (kShift == Shift::Right) {
    return vrshlq_n_s32(vqrdmlahq_n_s32(vshrq_n_s32(v, 31), v, q.multiplier), q.neg_right);
  } else {
    v = vqrdmulhq_n_s32(vshlq_r_s32(v, q.left), q.multiplier);
    // neg_right's sign bit is set exactly when there is a right shift.
    const int32x4_t step_down = vshrq_n_s32(vandq_s32(v, vdupq_n_s32(q.neg_right)), 31);
    return vrshlq_n_s32(vqaddq_s32(v, step_down), q.neg_right);
  }
}

// RQ with an (M, S) per lane (per-channel tables), the shift given split:
// left = max(S, 0), neg_right = min(S, 0) per lane.
ETNS_MVE_INLINE int32x4_t requantize_lanes(int32x4_t v, int32x4_t multiplier, int32x4_t left,
                                           int32x4_t neg_right) {
  v = vshlq_s32(v, left);
  v = vqrdmulhq_s32(v, multiplier);
  const int32x4_t step_down = vshrq_n_s32(vandq_s32(v, neg_right), 31);
  return vrshlq_s32(vqaddq_s32(v, step_down), neg_right);
}

// The same with the shifts S per lane as they come.
ETNS_MVE_INLINE int32x4_t requantize_lanes(int32x4_t v, int32x4_t multiplier, int32x4_t shift) {
  return requantize_lanes(v, multiplier, vmaxq_s32(shift, vdupq_n_s32(0)),
                          vminq_s32(shift, vdupq_n_s32(0)));
}

// out = clamp(v + offset, lo, hi), the offset added modulo 2^32 as the
// reference's uint32 add.
ETNS_MVE_INLINE int32x4_t offset_clamp_lanes(int32x4_t v, int32_t offset, int32_t lo, int32_t hi) {
  v = vaddq_n_s32(v, offset);
  return vminq_s32(vmaxq_s32(v, vdupq_n_s32(lo)), vdupq_n_s32(hi));
}

// The same with a saturating offset (kernels whose reference adds in int64
// and clamps, so that no sum wraps).
ETNS_MVE_INLINE int32x4_t saturating_offset_clamp_lanes(int32x4_t v, int32_t offset, int32_t lo,
                                                        int32_t hi) {
  v = vqaddq_n_s32(v, offset);
  return vminq_s32(vmaxq_s32(v, vdupq_n_s32(lo)), vdupq_n_s32(hi));
}

#undef ETNS_MVE_INLINE

}  // namespace etns::kernels::mve

#endif  // ETNS_HAVE_MVE
