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
// shift. Four elements a step under one tail predicate, the constants in
// scalar operands (VADD, VQRDMULH and VRSHL take them from core registers),
// so that no vector spills. kRoundA/kRoundB: that input's shift is below 0.
template <bool kRoundA, bool kRoundB>
void add_lanes_rounding(const AddParams& p, const int8_t* a, const int8_t* b, int8_t* out,
                        size_t n) {
  const int32_t a_offset = -p.a_zero_point;
  const int32_t b_offset = -p.b_zero_point;
  const LaneRequant rq_a(p.a);
  const LaneRequant rq_b(p.b);
  const LaneRequant rq_out(p.out);
  const int32_t out_zero_point = p.out_zero_point;
  const int32x4_t lowest = vdupq_n_s32(p.activation_min);
  const int32x4_t highest = vdupq_n_s32(p.activation_max);
  for (uint32_t left = static_cast<uint32_t>(n); left > 0; left = left > 4 ? left - 4 : 0) {
    const mve_pred16_t live = vctp32q(left);
    int32x4_t x = vshlq_n_s32(vaddq_n_s32(vldrbq_z_s32(a, live), a_offset), kAddLeftShift);
    int32x4_t y = vshlq_n_s32(vaddq_n_s32(vldrbq_z_s32(b, live), b_offset), kAddLeftShift);
    x = requantize_lanes<(kRoundA ? Shift::Right : Shift::None)>(x, rq_a);
    y = requantize_lanes<(kRoundB ? Shift::Right : Shift::None)>(y, rq_b);
    int32x4_t sum = requantize_lanes<Shift::Right>(vaddq_s32(x, y), rq_out);
    sum = vminq_s32(vmaxq_s32(vaddq_n_s32(sum, out_zero_point), lowest), highest);
    vstrbq_p_s32(out, sum, live);
    a += 4;
    b += 4;
    out += 4;
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
