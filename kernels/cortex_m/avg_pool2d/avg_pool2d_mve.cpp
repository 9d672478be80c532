#include "kernels/cortex_m/avg_pool2d/avg_pool2d.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

namespace etns::cortex_m {
namespace {

// Up to 256 int8 taps sum exactly in an int16 lane (256 * -128 = -32768).
constexpr int32_t kTapsPerInt16Sum = 256;
// The reciprocal below is exact for a numerator under 2^24, which holds for
// up to 2^16 taps (|sum| + n/2 <= 128.5 * n).
constexpr int32_t kMaxReciprocalTaps = 1 << 16;

// Division by n >= 2 as a multiply (Granlund and Montgomery): with
// L = ceil(log2 n) and m = ceil(2^(31+L) / n), m*n - 2^(31+L) < n <= 2^L, so
// floor(v * m / 2^(31+L)) = floor(v / n) for 0 <= v < 2^24. m < 2^32, and the
// product's high word shifted right by L - 1 is that quotient.
struct Reciprocal {
  uint32_t multiplier;
  int32_t minus_shift;  // -(L - 1), for VSHL's right shift
};

Reciprocal reciprocal_of(int32_t n) {
  int32_t log2_ceil = 0;
  while ((int64_t{1} << log2_ceil) < n) ++log2_ceil;
  const uint64_t numerator = uint64_t{1} << (31 + log2_ceil);
  const uint64_t d = static_cast<uint64_t>(n);
  return {static_cast<uint32_t>((numerator + d - 1) / d), 1 - log2_ceil};
}

// upstream's (sum > 0 ? sum + n/2 : sum - n/2) / n, for n >= 2: the quotient
// of |sum| + n/2 with sum's sign (sum = 0 gives (0 + n/2) / n = 0 either way).
int32x4_t divide(int32x4_t sum, int32_t half, Reciprocal r) {
  const uint32x4_t magnitude = vreinterpretq_u32_s32(vaddq_n_s32(vabsq_s32(sum), half));
  const uint32x4_t quotient =
      vshlq_r_u32(vmulhq_u32(magnitude, vdupq_n_u32(r.multiplier)), r.minus_shift);
  const int32x4_t q = vreinterpretq_s32_u32(quotient);
  return vpselq_s32(q, vnegq_s32(q), vcmpgtq_n_s32(sum, 0));
}

// One out pixel's 16 (or, last, fewer) channels from `first`, the window's
// top-left tap: taps summed in two int16x8 halves, at most 256 at a time
// (checked per row run, not per tap), widened into four int32x4 sums (even
// and odd lanes of each half), divided, narrowed back in lane order and
// stored predicated. kFull: all 16 lanes live, the loads unpredicated.
template <bool kFull>
void pool_block(const int8_t* first, size_t row_step, size_t tap_step, int32_t rows, int32_t cols,
                int32_t taps, Reciprocal r, uint32_t live, int8_t* out) {
  const mve_pred16_t low_live = vctp16q(live);
  const mve_pred16_t high_live = vctp16q(live > 8 ? live - 8 : 0);
  int32x4_t sum_low_even = vdupq_n_s32(0);
  int32x4_t sum_low_odd = vdupq_n_s32(0);
  int32x4_t sum_high_even = vdupq_n_s32(0);
  int32x4_t sum_high_odd = vdupq_n_s32(0);
  int16x8_t low = vdupq_n_s16(0);
  int16x8_t high = vdupq_n_s16(0);
  const auto flush = [&] {
    sum_low_even = vaddq_s32(sum_low_even, vmovlbq_s16(low));
    sum_low_odd = vaddq_s32(sum_low_odd, vmovltq_s16(low));
    sum_high_even = vaddq_s32(sum_high_even, vmovlbq_s16(high));
    sum_high_odd = vaddq_s32(sum_high_odd, vmovltq_s16(high));
    low = vdupq_n_s16(0);
    high = vdupq_n_s16(0);
  };
  int32_t pending = 0;  // taps in the int16 sums
  for (int32_t y = 0; y < rows; ++y) {
    const int8_t* tap = first + static_cast<size_t>(y) * row_step;
    for (int32_t done = 0; done < cols;) {
      if (pending == kTapsPerInt16Sum) {
        flush();
        pending = 0;
      }
      const int32_t room = kTapsPerInt16Sum - pending;
      const int32_t count = cols - done < room ? cols - done : room;
      for (int32_t x = 0; x < count; ++x, tap += tap_step) {
        if constexpr (kFull) {
          low = vaddq_s16(low, vldrbq_s16(tap));
          high = vaddq_s16(high, vldrbq_s16(tap + 8));
        } else {
          low = vaddq_s16(low, vldrbq_z_s16(tap, low_live));
          high = vaddq_s16(high, vldrbq_z_s16(tap + 8, high_live));
        }
      }
      done += count;
      pending += count;
    }
  }
  flush();
  if (taps > 1) {
    const int32_t half = taps / 2;
    sum_low_even = divide(sum_low_even, half, r);
    sum_low_odd = divide(sum_low_odd, half, r);
    sum_high_even = divide(sum_high_even, half, r);
    sum_high_odd = divide(sum_high_odd, half, r);
  }
  // Every mean lies in [-128, 127]: the narrowing stores need no clamp.
  low = vmovntq_s32(vmovnbq_s32(low, sum_low_even), sum_low_odd);
  high = vmovntq_s32(vmovnbq_s32(high, sum_high_even), sum_high_odd);
  vstrbq_p_s16(out, low, low_live);
  vstrbq_p_s16(out + 8, high, high_live);
}

}  // namespace

void avg_pool2d_s8_mve(const AvgPool2dParams& p, const int8_t* input, int8_t* out) {
  if (static_cast<int64_t>(p.kernel_h) * p.kernel_w > kMaxReciprocalTaps) {
    avg_pool2d_s8_ref(p, input, out);
    return;
  }
  const size_t c = static_cast<size_t>(p.channels);
  const size_t row = static_cast<size_t>(p.input_w) * c;
  int32_t last_taps = 0;
  Reciprocal r{0, 0};
  kernels::for_each_pool_window(
      p, input, out, [&](const kernels::PoolWindow& w, const int8_t* first, int8_t* pixel) {
        const int32_t taps = w.taps();
        if (taps != last_taps && taps > 1) r = reciprocal_of(taps);
        last_taps = taps;
        for (size_t ch = 0; ch < c; ch += 16) {
          const uint32_t live = static_cast<uint32_t>(c - ch < 16 ? c - ch : 16);
          const auto block = live == 16 ? &pool_block<true> : &pool_block<false>;
          block(first + ch, row, c, w.y1 - w.y0, w.x1 - w.x0, taps, r, live, pixel + ch);
        }
      });
}

}  // namespace etns::cortex_m

#endif  // ETNS_HAVE_MVE
