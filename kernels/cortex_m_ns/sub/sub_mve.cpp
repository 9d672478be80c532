#include "kernels/cortex_m_ns/sub/sub.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

#include "kernels/common/requantize_mve.h"

namespace etns::cortex_m_ns {
namespace {

// The requantisation stages (kernels/common/requantize_mve.h): the inputs'
// left shifts are folded into their scaling (Input below), so their stages
// are Shift::Right or Shift::None; the output's is Shift::Right or
// Shift::Left.
using kernels::mve::LaneRequant;
using kernels::mve::requantize_lanes;
using kernels::mve::Shift;
// A stage's multiplier and VRSHL operand; the inputs' left shifts are
// folded into their scaling, the output's is applied in requantize_lanes.
struct Stage {
  int32_t multiplier;
  int32_t neg_right;  // min(S, 0)
};

Stage stage_of(kernels::Requant q) { return {q.multiplier, q.shift < 0 ? q.shift : 0}; }

constexpr Shift input_stage(bool rounds) { return rounds ? Shift::Right : Shift::None; }

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

// Eight bytes are loaded as int16 lanes; read as int32 lanes, lane i holds
// element 2i in its low half and 2i + 1 in its high half. Scaling by 2^k with
// k >= 16 pushes the high half (and the low half's sign-extension error, a
// multiple of 2^16) out of the word, so VMLAS on the raw lanes gives the even
// elements' (q - zero_point) * 2^k exactly; the odd ones need a shift first.
static_assert(kSubLeftShift >= 16, "the even lanes' VMLAS needs a scale of at least 2^16");

// The full-range main loop as `step` computes it, in assembly: GCC 12 spills
// and copies registers here (37 instructions per eight elements instead of
// 30). One requantisation stage: dst = RQ(src) as requantize_lanes does it.
#define ETNS_SUB_STAGE(flag, dst, src, multiplier, shift)       \
  ".if %c[" flag "]\n"                                           \
  "  vshr.s32 " dst ", " src ", #31\n"                           \
  "  vqrdmlah.s32 " dst ", " src ", %[" multiplier "]\n"         \
  "  vrshl.s32 " dst ", %[" shift "]\n"                          \
  ".else\n"                                                      \
  "  vqrdmulh.s32 " dst ", " src ", %[" multiplier "]\n"         \
  ".endif\n"
// Even (q0, q1) or odd (q2, q3) halves to the requantised difference in q5.
#define ETNS_SUB_HALF(a, b)                                       \
  ETNS_SUB_STAGE("self_rounds", "q4", a, "self_m", "self_r")      \
  ETNS_SUB_STAGE("other_rounds", "q5", b, "other_m", "other_r")   \
  "  vqsub.s32 q4, q4, q5\n"                                     \
  ".if %c[out_rounds] == 0\n"                                    \
  "  vshl.s32 q4, %[out_r]\n"                                    \
  ".endif\n"                                                     \
  ETNS_SUB_STAGE("out_rounds", "q5", "q4", "out_m", "out_r")

template <bool kSelfRounds, bool kOtherRounds, bool kOutRounds>
inline void sub_blocks_asm(const int8_t*& self, const int8_t*& other, int8_t*& out, size_t blocks,
                           int32x4_t self_scale, int32x4_t other_scale, int32_t self_offset,
                           int32_t other_offset, const Stage& self_stage, const Stage& other_stage,
                           const Stage& out_stage, int32_t out_shift, int16_t out_zero_point) {
  __asm__ volatile(
      "  wls lr, %[blocks], 2f\n"
      "1:\n"
      "  vldrb.s16 q0, [%[self]], #8\n"
      "  vldrb.s16 q1, [%[other]], #8\n"
      "  vshr.s32 q2, q0, #16\n"
      "  vshr.s32 q3, q1, #16\n"
      "  vmlas.s32 q0, %q[self_scale], %[self_offset]\n"
      "  vmlas.s32 q1, %q[other_scale], %[other_offset]\n"
      "  vmlas.s32 q2, %q[self_scale], %[self_offset]\n"
      "  vmlas.s32 q3, %q[other_scale], %[other_offset]\n"
      ETNS_SUB_HALF("q0", "q1")
      "  vqmovnb.s32 q0, q5\n"
      ETNS_SUB_HALF("q2", "q3")
      "  vqmovnt.s32 q0, q5\n"
      "  vqadd.s16 q0, q0, %[zero_point]\n"
      "  vqmovnb.s16 q1, q0\n"
      "  vstrb.16 q1, [%[out]], #8\n"
      "  le lr, 1b\n"
      "2:\n"
      : [self] "+r"(self), [other] "+r"(other), [out] "+r"(out)
      : [blocks] "r"(blocks), [self_scale] "w"(self_scale), [other_scale] "w"(other_scale),
        [self_offset] "r"(self_offset), [other_offset] "r"(other_offset),
        [self_m] "r"(self_stage.multiplier), [other_m] "r"(other_stage.multiplier),
        [out_m] "r"(out_stage.multiplier), [self_r] "r"(self_stage.neg_right),
        [other_r] "r"(other_stage.neg_right), [out_r] "r"(out_shift),
        [zero_point] "r"(static_cast<int32_t>(out_zero_point)),
        [self_rounds] "i"(kSelfRounds ? 1 : 0), [other_rounds] "i"(kOtherRounds ? 1 : 0),
        [out_rounds] "i"(kOutRounds ? 1 : 0)
      : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "lr", "memory");
}

#undef ETNS_SUB_HALF
#undef ETNS_SUB_STAGE

// Each step does the even and the odd elements of eight in int32 lanes;
// VQMOVNB/VQMOVNT narrow them back into element order. The output zero point
// is added after a saturating narrow to int16, saturating: the reference adds
// exactly and clamps to int8 bounds, and a saturated value stays beyond them.
// With the full int8 range, the final saturating narrow is the clamp.
template <bool kSelfRounds, bool kOtherRounds, bool kOutRounds, bool kFullRange>
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
  const int16_t out_zero_point = static_cast<int16_t>(p.out_zero_point);
  const int16x8_t lo = vdupq_n_s16(static_cast<int16_t>(p.act_min));
  const int16x8_t hi = vdupq_n_s16(static_cast<int16_t>(p.act_max));

  const auto difference = [&](int32x4_t a, int32x4_t b) {
    a = requantize_lanes<input_stage(kSelfRounds)>(
        a, LaneRequant(self_stage.multiplier, 0, self_stage.neg_right));
    b = requantize_lanes<input_stage(kOtherRounds)>(
        b, LaneRequant(other_stage.multiplier, 0, other_stage.neg_right));
    const int32x4_t d = vqsubq_s32(a, b);  // the reference's saturate_s32(a' - b')
    return requantize_lanes<(kOutRounds ? Shift::Right : Shift::Left)>(
        d, LaneRequant(out_stage.multiplier, out_left, out_stage.neg_right));
  };
  const auto step = [&](int16x8_t qa, int16x8_t qb) {
    const int32x4_t a_words = vreinterpretq_s32_s16(qa);
    const int32x4_t b_words = vreinterpretq_s32_s16(qb);
    // The odd halves first: VMLAS overwrites the words it scales.
    const int32x4_t a_odd = vmlasq_n_s32(vshrq_n_s32(a_words, 16), self_scale, self_in.offset);
    const int32x4_t b_odd = vmlasq_n_s32(vshrq_n_s32(b_words, 16), other_scale, other_in.offset);
    const int32x4_t a_even = vmlasq_n_s32(a_words, self_scale, self_in.offset);
    const int32x4_t b_even = vmlasq_n_s32(b_words, other_scale, other_in.offset);
    // The halves a narrow leaves are don't-cares (overwritten next, or not
    // stored), so spent inputs serve as destinations: no register copies.
    int16x8_t y = vqmovnbq_s32(vreinterpretq_s16_s32(a_even), difference(a_even, b_even));
    y = vqmovntq_s32(y, difference(a_odd, b_odd));
    y = vqaddq_n_s16(y, out_zero_point);
    if constexpr (!kFullRange) y = vminq_s16(vmaxq_s16(y, lo), hi);
    return vreinterpretq_s16_s8(vqmovnbq_s16(vreinterpretq_s8_s32(a_odd), y));
  };

  if constexpr (kFullRange) {
    sub_blocks_asm<kSelfRounds, kOtherRounds, kOutRounds>(
        self, other, out, n / 8, self_scale, other_scale, self_in.offset, other_in.offset,
        self_stage, other_stage, out_stage, kOutRounds ? out_stage.neg_right : out_left,
        out_zero_point);
  } else {
    for (size_t blocks = n / 8; blocks > 0; --blocks) {
      vstrbq_s16(out, step(vldrbq_s16(self), vldrbq_s16(other)));
      self += 8;
      other += 8;
      out += 8;
    }
  }
  const uint32_t tail = static_cast<uint32_t>(n % 8);
  if (tail != 0) {
    const mve_pred16_t live = vctp16q(tail);
    vstrbq_p_s16(out, step(vldrbq_z_s16(self, live), vldrbq_z_s16(other, live)), live);
  }
}

using LanesFn = void (*)(const SubParams&, const int8_t*, const int8_t*, int8_t*, size_t);

// Indexed by [self rounds][other rounds][out rounds][full int8 range]: a stage
// with R = 0 needs neither the sign fix nor the rounding shift, and the full
// range needs no clamp.
template <bool kSelfRounds, bool kOtherRounds>
constexpr LanesFn kOutVariants[2][2] = {
    {&sub_lanes<kSelfRounds, kOtherRounds, false, false>,
     &sub_lanes<kSelfRounds, kOtherRounds, false, true>},
    {&sub_lanes<kSelfRounds, kOtherRounds, true, false>,
     &sub_lanes<kSelfRounds, kOtherRounds, true, true>},
};

LanesFn choose_lanes(const SubParams& p) {
  const bool out_rounds = p.out.shift < 0;
  const bool full_range = p.act_min == -128 && p.act_max == 127;
  if (p.self.shift < 0) {
    return p.other.shift < 0 ? kOutVariants<true, true>[out_rounds][full_range]
                             : kOutVariants<true, false>[out_rounds][full_range];
  }
  return p.other.shift < 0 ? kOutVariants<false, true>[out_rounds][full_range]
                           : kOutVariants<false, false>[out_rounds][full_range];
}

}  // namespace

void sub_s8_mve(const SubParams& p, const int8_t* self, const int8_t* other, int8_t* out,
                size_t n) {
  choose_lanes(p)(p, self, other, out, n);
}

}  // namespace etns::cortex_m_ns

#endif  // ETNS_HAVE_MVE
