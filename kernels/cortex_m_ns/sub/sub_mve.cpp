#include "kernels/cortex_m_ns/sub/sub.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

namespace etns::cortex_m_ns {
namespace {

// One requantisation RQ(v, M, S) in four int32 lanes, exactly as
// kernels::requantize (docs/numerics.md#sub):
//   DHM is VQRDMULH (M >= 0, so its one saturating case cannot happen);
//   RDIV(x, R) for R > 0 is VRSHL by -R (round half up) of x - [x < 0].
// The -1 is folded into the multiply as VQRDMLAH's accumulator, and it is taken
// from the sign of v, not of x = DHM(v, M): they differ only when v < 0 and
// x = 0, where RDIV gives 0 from x = 0 and from x = -1 alike. x >= -2^31 + 1
// (M < 2^31), so x - 1 never saturates.
struct Stage {
  int32_t multiplier;
  int32_t minus_right;  // -max(-S, 0): VRSHL's shift operand
};

template <bool kRounds>
inline int32x4_t requantize_lanes(int32x4_t v, const Stage& s) {
  if constexpr (kRounds) {
    const int32x4_t x = vqrdmlahq_n_s32(vshrq_n_s32(v, 31), v, s.multiplier);
    return vrshlq_n_s32(x, s.minus_right);
  } else {
    return vqrdmulhq_n_s32(v, s.multiplier);
  }
}

Stage stage_of(kernels::Requant q) { return {q.multiplier, q.shift < 0 ? q.shift : 0}; }

// (q - zero_point) * 2^(20 + L) in one VMLAS: q * scale + offset, both modulo
// 2^32 as the reference's wrapping left shift (scale is 0 once 20 + L >= 32).
struct Input {
  uint32_t scale;
  int32_t offset;
};

Input input_of(int32_t zero_point, kernels::Requant q) {
  const int32_t left = kSubLeftShift + (q.shift > 0 ? q.shift : 0);
  const uint32_t scale = left < 32 ? uint32_t{1} << left : 0;
  return {scale, static_cast<int32_t>(0u - static_cast<uint32_t>(zero_point) * scale)};
}

template <bool kSelfRounds, bool kOtherRounds, bool kOutRounds>
void sub_lanes(const SubParams& p, const int8_t* self, const int8_t* other, int8_t* out,
               size_t n) {
  const Input self_in = input_of(p.self_zero_point, p.self);
  const Input other_in = input_of(p.other_zero_point, p.other);
  const int32x4_t self_scale = vdupq_n_s32(static_cast<int32_t>(self_in.scale));
  const int32x4_t other_scale = vdupq_n_s32(static_cast<int32_t>(other_in.scale));
  const Stage self_stage = stage_of(p.self);
  const Stage other_stage = stage_of(p.other);
  const Stage out_stage = stage_of(p.out);
  const int32_t out_left = p.out.shift > 0 ? p.out.shift : 0;
  // In a vector register: the loop needs every general-purpose one.
  const int32x4_t out_zero_point = vdupq_n_s32(p.out_zero_point);
  const int32x4_t lo = vdupq_n_s32(p.act_min);
  const int32x4_t hi = vdupq_n_s32(p.act_max);

  const auto step = [&](int32x4_t a, int32x4_t b) {
    a = requantize_lanes<kSelfRounds>(vmlasq_n_s32(a, self_scale, self_in.offset), self_stage);
    b = requantize_lanes<kOtherRounds>(vmlasq_n_s32(b, other_scale, other_in.offset), other_stage);
    int32x4_t d = vqsubq_s32(a, b);  // the reference's saturate_s32(a' - b')
    if constexpr (!kOutRounds) d = vshlq_r_s32(d, out_left);
    // A saturating add then the clamp is the reference's exact add then clamp:
    // the bounds lie inside int8.
    d = vqaddq_s32(requantize_lanes<kOutRounds>(d, out_stage), out_zero_point);
    return vminq_s32(vmaxq_s32(d, lo), hi);
  };

  for (size_t blocks = n / 4; blocks > 0; --blocks) {
    vstrbq_s32(out, step(vldrbq_s32(self), vldrbq_s32(other)));
    self += 4;
    other += 4;
    out += 4;
  }
  const uint32_t tail = static_cast<uint32_t>(n % 4);
  if (tail != 0) {
    const mve_pred16_t live = vctp32q(tail);
    vstrbq_p_s32(out, step(vldrbq_z_s32(self, live), vldrbq_z_s32(other, live)), live);
  }
}

using LanesFn = void (*)(const SubParams&, const int8_t*, const int8_t*, int8_t*, size_t);

// Indexed by [self rounds][other rounds][out rounds]: a stage with R = 0 needs
// neither the sign fix nor the rounding shift.
constexpr LanesFn kLanes[2][2][2] = {
    {{&sub_lanes<false, false, false>, &sub_lanes<false, false, true>},
     {&sub_lanes<false, true, false>, &sub_lanes<false, true, true>}},
    {{&sub_lanes<true, false, false>, &sub_lanes<true, false, true>},
     {&sub_lanes<true, true, false>, &sub_lanes<true, true, true>}},
};

}  // namespace

void sub_s8_mve(const SubParams& p, const int8_t* self, const int8_t* other, int8_t* out,
                size_t n) {
  kLanes[p.self.shift < 0][p.other.shift < 0][p.out.shift < 0](p, self, other, out, n);
}

}  // namespace etns::cortex_m_ns

#endif  // ETNS_HAVE_MVE
