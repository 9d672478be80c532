#include "kernels/etns_ops/quantized_reduce/quantized_reduce.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

namespace etns::etns_ops {
namespace {

// int16 lanes hold the sum of this many int8 rows exactly: 256 * -128 = -32768
// and 256 * 127 = 32512.
constexpr size_t kRowsPerInt16Sum = 256;
constexpr size_t kLanes = 16;

// Where the rows of one output group start: row (r, s) of the group at
// (o, m) is base + r * r_stride + s * g.inner.
struct Rows {
  const int8_t* base;
  size_t r_stride;
};

// The sums (or maxima) of up to 16 adjacent columns, `lanes` of them, into acc.
void reduce_columns(const ReduceGeometry& g, const Rows& rows, size_t lanes, bool max, int32_t* acc) {
  if (max) {
    const mve_pred16_t active = vctp8q(static_cast<uint32_t>(lanes));
    int8x16_t best = vdupq_n_s8(-128);
    for (size_t r = 0; r < g.reduce_outer; ++r) {
      const int8_t* row = rows.base + r * rows.r_stride;
      for (size_t s = 0; s < g.reduce; ++s, row += g.inner) best = vmaxq_s8(best, vldrbq_z_s8(row, active));
    }
    int8_t lanes_out[kLanes];
    vst1q_s8(lanes_out, best);
    for (size_t k = 0; k < lanes; ++k) acc[k] = lanes_out[k];
    return;
  }
  const mve_pred16_t low = vctp16q(static_cast<uint32_t>(lanes));
  const mve_pred16_t high = vctp16q(static_cast<uint32_t>(lanes > 8 ? lanes - 8 : 0));
  const bool full = lanes == kLanes;
  const size_t stride = g.inner;  // a local, so the loop does not reload it after each load
  for (size_t k = 0; k < lanes; ++k) acc[k] = 0;
  int16x8_t sum_low = vdupq_n_s16(0);
  int16x8_t sum_high = vdupq_n_s16(0);
  size_t rows_in_sum = 0;
  // Adds the int16 partial sums into acc and restarts them.
  auto flush = [&] {
    int16_t partial[kLanes];
    vst1q_s16(partial, sum_low);
    vst1q_s16(partial + 8, sum_high);
    for (size_t k = 0; k < lanes; ++k) acc[k] += partial[k];
    sum_low = vdupq_n_s16(0);
    sum_high = vdupq_n_s16(0);
    rows_in_sum = 0;
  };
  for (size_t r = 0; r < g.reduce_outer; ++r) {
    const int8_t* row = rows.base + r * rows.r_stride;
    size_t s = 0;
    while (s < g.reduce) {
      const size_t room = kRowsPerInt16Sum - rows_in_sum;
      const size_t block = g.reduce - s < room ? g.reduce - s : room;
      size_t b = 0;
      if (full) {
        // 16 columns: plain loads, two rows per pass.
        for (; b + 2 <= block; b += 2, row += 2 * stride) {
          const int16x8_t a_low = vldrbq_s16(row), a_high = vldrbq_s16(row + 8);
          const int16x8_t b_low = vldrbq_s16(row + stride), b_high = vldrbq_s16(row + stride + 8);
          sum_low = vaddq_s16(sum_low, a_low);
          sum_high = vaddq_s16(sum_high, a_high);
          sum_low = vaddq_s16(sum_low, b_low);
          sum_high = vaddq_s16(sum_high, b_high);
        }
      }
      for (; b < block; ++b, row += stride) {
        sum_low = vaddq_s16(sum_low, vldrbq_z_s16(row, low));
        sum_high = vaddq_s16(sum_high, vldrbq_z_s16(row + 8, high));
      }
      s += block;
      rows_in_sum += block;
      if (rows_in_sum == kRowsPerInt16Sum) flush();
    }
  }
  flush();
}

// The sum (or maximum) of one output's elements when they are contiguous runs
// (inner == 1): 16 bytes per add-across-vector, the tail predicated.
int32_t reduce_runs(const ReduceGeometry& g, const Rows& rows, bool max) {
  int32_t sum = 0;
  int8_t best = -128;
  for (size_t r = 0; r < g.reduce_outer; ++r) {
    const int8_t* run = rows.base + r * rows.r_stride;
    for (size_t k = 0; k < g.reduce; k += kLanes) {
      const mve_pred16_t active = vctp8q(static_cast<uint32_t>(g.reduce - k));
      const int8x16_t v = vldrbq_z_s8(run + k, active);
      if (max) {
        best = vmaxvq_p_s8(best, v, active);
      } else {
        sum = vaddvaq_s8(sum, v);  // inactive lanes were loaded as 0
      }
    }
  }
  return max ? best : sum;
}

}  // namespace

// The reference's numerics (quantized_reduce_ref.cpp): the same exact sums or
// maxima, formed 16 lanes at a time, finished by finish_reduction.
void quantized_reduce_s8_mve(const QuantizedReduceParams& p, const ReduceGeometry& g, const int8_t* in,
                             int8_t* out) {
  const bool max = p.reduction == Reduction::Max;
  const size_t r_stride = g.middle * g.reduce * g.inner;
  for (size_t o = 0; o < g.outer; ++o) {
    for (size_t m = 0; m < g.middle; ++m) {
      const int8_t* base = in + ((o * g.reduce_outer) * g.middle + m) * g.reduce * g.inner;
      int8_t* dst = out + (o * g.middle + m) * g.inner;
      if (g.inner == 1) {
        *dst = finish_reduction(p, reduce_runs(g, Rows{base, r_stride}, max));
        continue;
      }
      for (size_t i = 0; i < g.inner; i += kLanes) {
        const size_t lanes = g.inner - i < kLanes ? g.inner - i : kLanes;
        int32_t acc[kLanes];
        reduce_columns(g, Rows{base + i, r_stride}, lanes, max, acc);
        for (size_t k = 0; k < lanes; ++k) dst[i + k] = finish_reduction(p, acc[k]);
      }
    }
  }
}

}  // namespace etns::etns_ops

#endif  // ETNS_HAVE_MVE
