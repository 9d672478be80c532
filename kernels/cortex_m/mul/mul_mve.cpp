#include "kernels/cortex_m/mul/mul.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

#include "kernels/common/channel_broadcast.h"
#include "kernels/common/requantize_mve.h"

namespace etns::cortex_m {
namespace {

// Eight elements a step in 16-bit lanes: q - zero_point fits int16, VMULLB and
// VMULLT give the even and odd lanes' exact int32 products, and VQMOVNB/VQMOVNT
// put the narrowed halves back in element order.
//
// Requantisation as kernels::requantize (kernels/common/requantize_mve.h,
// Shift::Right when S < 0, else Shift::Left).
//
// The output zero point: with R > 0, |RQ| <= 2^30, so the reference's wrapping
// int32 add never wraps and a saturating add in int16 after a saturating
// narrow gives the same clamped byte. With R = 0 the int32 add can wrap, as
// upstream's does, so it is done in int32 before narrowing.
template <bool kRounds>
void mul_lanes(const MulParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n) {
  const int16_t a_zero_point = static_cast<int16_t>(p.a_zero_point);
  const int16_t b_zero_point = static_cast<int16_t>(p.b_zero_point);
  const kernels::mve::LaneRequant rq(p.out);
  const int32x4_t out_zero_point32 = vdupq_n_s32(p.out_zero_point);
  const int16_t out_zero_point16 = static_cast<int16_t>(p.out_zero_point);

  using kernels::mve::Shift;
  const auto requantize = [&](int32x4_t product) {
    if constexpr (kRounds) {
      return kernels::mve::requantize_lanes<Shift::Right>(product, rq);
    } else {
      return vaddq_s32(kernels::mve::requantize_lanes<Shift::Left>(product, rq), out_zero_point32);
    }
  };
  const auto step = [&](int16x8_t qa, int16x8_t qb) {
    qa = vsubq_n_s16(qa, a_zero_point);
    qb = vsubq_n_s16(qb, b_zero_point);
    const int32x4_t even = requantize(vmullbq_int_s16(qa, qb));
    const int32x4_t odd = requantize(vmulltq_int_s16(qa, qb));
    // The halves a narrow leaves are don't-cares (overwritten next, or not
    // stored), so the dead inputs serve as destinations: no register copies.
    int16x8_t y = vqmovntq_s32(vqmovnbq_s32(qa, even), odd);
    if constexpr (kRounds) y = vqaddq_n_s16(y, out_zero_point16);
    return vreinterpretq_s16_s8(vqmovnbq_s16(vreinterpretq_s8_s16(qb), y));
  };

  for (size_t blocks = n / 8; blocks > 0; --blocks) {
    vstrbq_s16(out, step(vldrbq_s16(a), vldrbq_s16(b)));
    a += 8;
    b += 8;
    out += 8;
  }
  const uint32_t tail = static_cast<uint32_t>(n % 8);
  if (tail != 0) {
    const mve_pred16_t live = vctp16q(tail);
    vstrbq_p_s16(out, step(vldrbq_z_s16(a, live), vldrbq_z_s16(b, live)), live);
  }
}

}  // namespace

void mul_s8_mve(const MulParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n) {
  const auto lanes = p.out.shift < 0 ? &mul_lanes<true> : &mul_lanes<false>;
  kernels::walk_channel_broadcast(
      p.b_channels, a, b, out, n,
      [&p, lanes](const int8_t* x, const int8_t* y, int8_t* z, size_t count) {
        lanes(p, x, y, z, count);
      });
}

}  // namespace etns::cortex_m

#endif  // ETNS_HAVE_MVE
