// The Helium requantisation forms (requantize_mve.h) against
// kernels::requantize, lane by lane, on the Cortex-M55 (kernel_tests_m55).
// The host build has no Helium: there this file registers no test.
#include "kernels/common/requantize_mve.h"

#if ETNS_HAVE_MVE
#include <cstdint>

#include "kernels/common/requantize.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::kernels::mve {
namespace {

using testing::Rng;

constexpr uint64_t kSeed = 0x72716d76;  // "rqmv"

// Values where the rounding and the wrapping are decided: the extremes, the
// ties of small shifts, and a random spread.
int32_t draw_value(Rng& rng) {
  static const int32_t kEdges[] = {INT32_MIN, INT32_MIN + 1, -(1 << 30), -3, -2, -1, 0, 1, 2, 3,
                                   1 << 30,   INT32_MAX - 1, INT32_MAX};
  switch (rng.uniform(0, 3)) {
    case 0: return rng.pick(kEdges);
    case 1: return rng.uniform32(-4096, 4096);
    default: return static_cast<int32_t>(rng.next());
  }
}

int32_t draw_multiplier(Rng& rng) {
  static const int32_t kEdges[] = {0, 1, 2, 1 << 29, 1 << 30, (1 << 30) + 1, INT32_MAX};
  return rng.uniform(0, 1) == 0 ? rng.pick(kEdges) : rng.uniform32(0, INT32_MAX);
}

// Four lanes of one form against the reference; `what` names the form.
void check_lanes(const char* what, int32x4_t got, const int32_t (&v)[4], const Requant (&q)[4]) {
  int32_t lanes[4];
  vst1q_s32(lanes, got);
  for (int i = 0; i < 4; ++i) {
    const int32_t want = requantize(v[i], q[i]);
    ETNS_CHECK(lanes[i] == want, "%s: RQ(%ld, %ld, %ld) = %ld, want %ld", what,
               static_cast<long>(v[i]), static_cast<long>(q[i].multiplier),
               static_cast<long>(q[i].shift), static_cast<long>(lanes[i]), static_cast<long>(want));
  }
}

ETNS_KERNEL_TEST(RequantizeMve, EveryFormMatchesTheReference) {
  Rng rng(kSeed);
  for (int32_t shift = -31; shift <= 30; ++shift) {
    for (int round = 0; round < 400; ++round) {
      int32_t v[4];
      for (int32_t& x : v) x = draw_value(rng);
      const int32_t multiplier = draw_multiplier(rng);
      const Requant one{multiplier, shift};
      const Requant same[4] = {one, one, one, one};
      const int32x4_t in = vld1q_s32(v);
      const LaneRequant q(one);
      check_lanes("Shift::Any", requantize_lanes(in, q), v, same);
      ETNS_RETURN_IF_FAILED();
      if (shift >= 0) {
        check_lanes("Shift::Left", requantize_lanes<Shift::Left>(in, q), v, same);
        ETNS_RETURN_IF_FAILED();
      }
      if (shift < 0) {
        check_lanes("Shift::Right", requantize_lanes<Shift::Right>(in, q), v, same);
        ETNS_RETURN_IF_FAILED();
      }
      if (shift == 0) {
        check_lanes("Shift::None", requantize_lanes<Shift::None>(in, q), v, same);
        ETNS_RETURN_IF_FAILED();
      }
      // Per lane: four channels with their own (M, S), the shift in range.
      Requant channels[4];
      int32_t multipliers[4], shifts[4];
      for (int i = 0; i < 4; ++i) {
        channels[i] = {draw_multiplier(rng), rng.uniform32(-31, 30)};
        if (i == 0) channels[i].shift = shift;
        multipliers[i] = channels[i].multiplier;
        shifts[i] = channels[i].shift;
      }
      check_lanes("per lane", requantize_lanes(in, vld1q_s32(multipliers), vld1q_s32(shifts)), v,
                  channels);
      ETNS_RETURN_IF_FAILED();
    }
  }
}

ETNS_KERNEL_TEST(RequantizeMve, OffsetsWrapOrSaturateThenClamp) {
  const int32_t v[4] = {INT32_MAX, -5, 100, INT32_MIN};
  int32_t lanes[4];
  // Wrapping: INT32_MAX + 1 wraps to INT32_MIN and clamps low, as the
  // reference's uint32 add; INT32_MIN - 1 wraps high.
  vst1q_s32(lanes, offset_clamp_lanes(vld1q_s32(v), 1, -128, 127));
  ETNS_CHECK(lanes[0] == -128 && lanes[1] == -4 && lanes[2] == 101 && lanes[3] == -128,
             "wrapping: %ld %ld %ld %ld", static_cast<long>(lanes[0]), static_cast<long>(lanes[1]),
             static_cast<long>(lanes[2]), static_cast<long>(lanes[3]));
  vst1q_s32(lanes, offset_clamp_lanes(vld1q_s32(v), -1, -128, 127));
  ETNS_CHECK(lanes[3] == 127, "wrapping below: %ld", static_cast<long>(lanes[3]));
  // Saturating: the ends stay at their side.
  vst1q_s32(lanes, saturating_offset_clamp_lanes(vld1q_s32(v), 1, -128, 127));
  ETNS_CHECK(lanes[0] == 127 && lanes[1] == -4 && lanes[2] == 101 && lanes[3] == -128,
             "saturating: %ld %ld %ld %ld", static_cast<long>(lanes[0]),
             static_cast<long>(lanes[1]), static_cast<long>(lanes[2]),
             static_cast<long>(lanes[3]));
}

}  // namespace
}  // namespace etns::kernels::mve

#endif  // ETNS_HAVE_MVE
