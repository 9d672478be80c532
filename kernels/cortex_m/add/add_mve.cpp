#include "kernels/cortex_m/add/add.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

#include "kernels/common/channel_broadcast.h"
#include "kernels/common/requantize_mve.h"

namespace etns::cortex_m {
namespace {

using kernels::mve::LaneRequant;
using kernels::mve::requantize_lanes;
using kernels::mve::Shift;

// Any shifts: the left shifts too (they wrap, as the reference).
void add_lanes_general(const AddParams& p, const int8_t* a, const int8_t* b, int8_t* out,
                       size_t n) {
  const LaneRequant rq_a(p.a);
  const LaneRequant rq_b(p.b);
  const LaneRequant rq_out(p.out);
  const int32x4_t a_offset = vdupq_n_s32(-p.a_zero_point);
  const int32x4_t b_offset = vdupq_n_s32(-p.b_zero_point);
  const int32x4_t lowest = vdupq_n_s32(p.activation_min);
  const int32x4_t highest = vdupq_n_s32(p.activation_max);
  // Four elements: VLDRB widens int8 to int32 lanes, VSTRB narrows back.
  const auto quarter = [&](const int8_t* qa, const int8_t* qb, int8_t* qout, uint32_t live) {
    const mve_pred16_t pred = vctp32q(live);
    const int32x4_t x = requantize_lanes(
        vshlq_n_s32(vaddq_s32(vldrbq_z_s32(qa, pred), a_offset), kAddLeftShift), rq_a);
    const int32x4_t y = requantize_lanes(
        vshlq_n_s32(vaddq_s32(vldrbq_z_s32(qb, pred), b_offset), kAddLeftShift), rq_b);
    int32x4_t sum = vaddq_n_s32(requantize_lanes(vaddq_s32(x, y), rq_out), p.out_zero_point);
    sum = vminq_s32(vmaxq_s32(sum, lowest), highest);
    vstrbq_p_s32(qout, sum, pred);
  };
  for (size_t done = 0; done < n; done += 16) {
    const size_t left = n - done;
    for (uint32_t k = 0; k < 4; ++k) {
      const size_t first = 4 * k;
      if (left <= first) break;
      const uint32_t live = static_cast<uint32_t>(left - first > 4 ? 4 : left - first);
      quarter(a + done + first, b + done + first, out + done + first, live);
    }
  }
}

// The exporters' case: no left shifts (factors below 1) and a rounding output
// shift. The M55 overlaps neighbouring Helium instructions only when they use
// different pipes, and the integer ALU had most of the work, so part of it
// moves to the multiply pipe (constants in core registers where the
// instruction takes a scalar):
//   - (q - zero_point) * 2^20 is one VMLAS: q * 2^20 - zero_point * 2^20;
//   - RDIV(t, R) for R >= 1 is VQRDMULH(t, 2^(31 - R)): (2 t 2^(31-R) + 2^31)
//     >> 32 = (t + 2^(R-1)) >> R, VRSHL's rounding, never saturating;
//   - so b' goes onto a' with VQRDMLAH, which is also the sum: |a'|, |b'| <=
//     255 * 2^20, so it neither saturates nor wraps, as the reference's add.
// A negative value steps down by one before a rounding shift as in
// requantize_lanes<Shift::Right> (its sign, -1 or 0, is VQRDMLAH's
// accumulator). kRoundA/kRoundB: that input's shift is below 0.
template <bool kRoundA, bool kRoundB>
struct RoundingAdd {
  int32_t a_offset;  // -a_zero_point * 2^20
  int32_t b_offset;
  int32_t a_multiplier;
  int32_t b_multiplier;
  int32_t a_rounding;  // 2^(31 - R): VQRDMULH by it is RDIV by 2^R
  int32_t b_rounding;
  LaneRequant rq_out;
  int32_t out_zero_point;
  int32x4_t headroom;  // 2^20 in every lane: VMLAS takes two vectors
  int32x4_t lowest;
  int32x4_t highest;

  static int32_t rounding_of(kernels::Requant q) {
    return q.shift < 0 ? int32_t{1} << (31 + q.shift) : 0;
  }

  explicit RoundingAdd(const AddParams& p)
      : a_offset(-p.a_zero_point * (int32_t{1} << kAddLeftShift)),
        b_offset(-p.b_zero_point * (int32_t{1} << kAddLeftShift)),
        a_multiplier(p.a.multiplier),
        b_multiplier(p.b.multiplier),
        a_rounding(rounding_of(p.a)),
        b_rounding(rounding_of(p.b)),
        rq_out(p.out),
        out_zero_point(p.out_zero_point),
        headroom(vdupq_n_s32(int32_t{1} << kAddLeftShift)),
        lowest(vdupq_n_s32(p.activation_min)),
        highest(vdupq_n_s32(p.activation_max)) {}

  // Four a codes and four b codes (int32 lanes) to a' + b'.
  int32x4_t sum(int32x4_t qa, int32x4_t qb) const {
    const int32x4_t x = vmlasq_n_s32(qa, headroom, a_offset);
    const int32x4_t y = vmlasq_n_s32(qb, headroom, b_offset);
    int32x4_t s;
    if constexpr (kRoundA) {
      s = vqrdmulhq_n_s32(vqrdmlahq_n_s32(vshrq_n_s32(x, 31), x, a_multiplier), a_rounding);
    } else {
      s = vqrdmulhq_n_s32(x, a_multiplier);
    }
    if constexpr (kRoundB) {
      s = vqrdmlahq_n_s32(s, vqrdmlahq_n_s32(vshrq_n_s32(y, 31), y, b_multiplier), b_rounding);
    } else {
      s = vqrdmlahq_n_s32(s, y, b_multiplier);
    }
    return s;
  }

  // a' + b' to the output codes (int32 lanes).
  int32x4_t output(int32x4_t s) const {
    s = vaddq_n_s32(requantize_lanes<Shift::Right>(s, rq_out), out_zero_point);
    return vminq_s32(vmaxq_s32(s, lowest), highest);
  }
};

// The common cases (a's input shift below 0; b's below 0 too, or not, as in
// ResNet's residual adds) over `quarters` >= 2 whole steps of four: one step's output and the next step's sum interleaved, so
// that neighbouring instructions use different pipes and do not wait on each
// other: 18 cycles a step by LLVM's Cortex-M55 model, where GCC 12, which does
// not model the pipes, orders the same intrinsics into 21. The arithmetic is
// RoundingAdd's, instruction for instruction. Advances a, b and out.
template <bool kRoundB>
void add_steps_interleaved(const RoundingAdd<true, kRoundB>& add, const int8_t*& a,
                           const int8_t*& b, int8_t*& out, size_t quarters) {
  // Locals, so that they stay in registers across the asm's memory clobber.
  const int32x4_t headroom = add.headroom, lowest = add.lowest, highest = add.highest;
  const int32_t a_offset = add.a_offset, b_offset = add.b_offset;
  const int32_t a_multiplier = add.a_multiplier, b_multiplier = add.b_multiplier;
  const int32_t a_rounding = add.a_rounding, b_rounding = add.b_rounding;
  const int32_t out_multiplier = add.rq_out.multiplier, out_neg_right = add.rq_out.neg_right;
  const int32_t out_zero_point = add.out_zero_point;
  const int8_t* qa = a + 4;
  const int8_t* qb = b + 4;
  int8_t* qout = out;
  int32x4_t s = add.sum(vldrbq_s32(a), vldrbq_s32(b));
  for (size_t step = 1; step < quarters; ++step) {
    int32x4_t o, x, y;
    // Pointers in r0-r7: the widening load and narrowing store take no other.
    // B_SUM leaves a' + b' in s (s holds a' then).
#define ETNS_ADD_STEP(B_PART, B_SUM, B_ROUNDING)                                                        \
  __asm__ volatile(                                                                         \
      "vldrb.s32    %q[x], [%[a]], #4\n"                                                    \
      "vmlas.s32    %q[x], %q[headroom], %[a_offset]\n" /* x = (a - zp) * 2^20 */           \
      "vshr.s32     %q[o], %q[s], #31\n"                                                    \
      "vldrb.s32    %q[y], [%[b]], #4\n"                                                    \
      "vqrdmlah.s32 %q[o], %q[s], %[out_multiplier]\n" /* o = -[s < 0] + DHM(s) */          \
      "vshr.s32     %q[s], %q[x], #31\n"                                                    \
      "vmlas.s32    %q[y], %q[headroom], %[b_offset]\n" /* y = (b - zp) * 2^20 */           \
      "vrshl.s32    %q[o], %[out_neg_right]\n"                                              \
      "vqrdmlah.s32 %q[s], %q[x], %[a_multiplier]\n" /* s = -[x < 0] + DHM(x) */            \
      B_PART                                                                                \
      "vadd.i32     %q[o], %q[o], %[out_zero_point]\n"                                      \
      "vqrdmulh.s32 %q[s], %q[s], %[a_rounding]\n" /* s = a' */                              \
      "vmax.s32     %q[o], %q[o], %q[lowest]\n"                                             \
      B_SUM                                                                                 \
      "vmin.s32     %q[o], %q[o], %q[highest]\n"                                            \
      "vstrb.32     %q[o], [%[out]], #4\n"                                                  \
      : [s] "+w"(s), [o] "=&w"(o), [x] "=&w"(x), [y] "=&w"(y), [a] "+l"(qa), [b] "+l"(qb),    \
        [out] "+l"(qout)                                                                    \
      : [headroom] "w"(headroom), [lowest] "w"(lowest), [highest] "w"(highest),              \
        [a_offset] "r"(a_offset), [b_offset] "r"(b_offset), [a_multiplier] "r"(a_multiplier), \
        [b_multiplier] "r"(b_multiplier), [a_rounding] "r"(a_rounding),                      \
        [b_rounding] "r"(B_ROUNDING), [out_multiplier] "r"(out_multiplier),                  \
        [out_neg_right] "r"(out_neg_right), [out_zero_point] "r"(out_zero_point)             \
      : "memory")
    if constexpr (kRoundB) {
      ETNS_ADD_STEP("vshr.s32     %q[x], %q[y], #31\n"
                    "vqrdmlah.s32 %q[x], %q[y], %[b_multiplier]\n",  // x = -[y < 0] + DHM(y)
                    "vqrdmlah.s32 %q[s], %q[x], %[b_rounding]\n",    // s = a' + b'
                    b_rounding);
    } else {
      // b' = DHM(y); b_rounding is unused: a_rounding's register stands in.
      ETNS_ADD_STEP("", "vqrdmlah.s32 %q[s], %q[y], %[b_multiplier]\n", a_rounding);
    }
#undef ETNS_ADD_STEP
  }
  vstrbq_s32(qout, add.output(s));
  a += 4 * quarters;
  b += 4 * quarters;
  out += 4 * quarters;
}

template <bool kRoundA, bool kRoundB>
void add_lanes_rounding(const AddParams& p, const int8_t* a, const int8_t* b, int8_t* out,
                        size_t n) {
  const RoundingAdd<kRoundA, kRoundB> add(p);
  size_t quarters = n / 4;
  if constexpr (kRoundA) {
    if (quarters >= 2) {
      add_steps_interleaved(add, a, b, out, quarters);
      quarters = 0;
    }
  }
  for (; quarters > 0; --quarters) {
    vstrbq_s32(out, add.output(add.sum(vldrbq_s32(a), vldrbq_s32(b))));
    a += 4;
    b += 4;
    out += 4;
  }
  if (n % 4 != 0) {
    const mve_pred16_t live = vctp32q(static_cast<uint32_t>(n % 4));
    vstrbq_p_s32(out, add.output(add.sum(vldrbq_z_s32(a, live), vldrbq_z_s32(b, live))), live);
  }
}

using LanesFn = void (*)(const AddParams&, const int8_t*, const int8_t*, int8_t*, size_t);

LanesFn choose_lanes(const AddParams& p) {
  if (p.a.shift > 0 || p.b.shift > 0 || p.out.shift >= 0) return &add_lanes_general;
  if (p.a.shift < 0) {
    return p.b.shift < 0 ? &add_lanes_rounding<true, true> : &add_lanes_rounding<true, false>;
  }
  return p.b.shift < 0 ? &add_lanes_rounding<false, true> : &add_lanes_rounding<false, false>;
}

}  // namespace

void add_s8_mve(const AddParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n) {
  const LanesFn lanes = choose_lanes(p);
  kernels::walk_channel_broadcast(
      p.b_channels, a, b, out, n,
      [&p, lanes](const int8_t* x, const int8_t* y, int8_t* z, size_t count) {
        lanes(p, x, y, z, count);
      });
}

}  // namespace etns::cortex_m

#endif  // ETNS_HAVE_MVE
