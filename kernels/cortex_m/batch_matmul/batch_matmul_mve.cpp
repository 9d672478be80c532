#include "kernels/cortex_m/batch_matmul/batch_matmul.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

#include "kernels/common/requantize_mve.h"

namespace etns::cortex_m {
namespace {

// Wrapping int32 arithmetic without signed overflow in C++.
inline int32_t wrap_add(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
inline int32_t wrap_mul(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
}

// Sum of n int8 values, 16 lanes a pass; the last pass loads zeros past n.
inline int32_t row_sum(const int8_t* row, int32_t n) {
  int32_t sum = 0;
  for (int32_t k = 0; k < n; k += 16) {
    const mve_pred16_t live = vctp8q(static_cast<uint32_t>(n - k));
    sum = vaddvaq_s8(sum, vldrbq_z_s8(row + k, live));
  }
  return sum;
}

// Four dot products of one lhs row with four rhs rows, n bytes each, added
// to acc0..acc3: a tail-predicated low-overhead loop (wlstp/letp), 16 lanes a
// pass; the last pass's inactive lanes load as zero and add nothing. GCC 12
// builds the predicate for intrinsics through core registers every pass
// (about twice the instructions), hence the assembly. VMLADAVA needs even
// accumulator registers ("Te").
inline void dot4(const int8_t* x, const int8_t* r0, const int8_t* r1, const int8_t* r2,
                 const int8_t* r3, int32_t n, int32_t& acc0, int32_t& acc1, int32_t& acc2,
                 int32_t& acc3) {
  asm volatile(
      "   wlstp.8     lr, %[n], 2f\n"
      "1: vldrb.8     q0, [%[x]], #16\n"
      "   vldrb.8     q1, [%[r0]], #16\n"
      "   vmladava.s8 %[a0], q1, q0\n"
      "   vldrb.8     q2, [%[r1]], #16\n"
      "   vmladava.s8 %[a1], q2, q0\n"
      "   vldrb.8     q3, [%[r2]], #16\n"
      "   vmladava.s8 %[a2], q3, q0\n"
      "   vldrb.8     q1, [%[r3]], #16\n"
      "   vmladava.s8 %[a3], q1, q0\n"
      "   letp        lr, 1b\n"
      "2:\n"
      : [x] "+r"(x), [r0] "+r"(r0), [r1] "+r"(r1), [r2] "+r"(r2), [r3] "+r"(r3),
        [a0] "+Te"(acc0), [a1] "+Te"(acc1), [a2] "+Te"(acc2), [a3] "+Te"(acc3)
      : [n] "r"(n)
      : "q0", "q1", "q2", "q3", "lr", "memory");
}

// RQ of four accumulators, then the zero point and the int8 clamp
// (kernels/common/requantize_mve.h). The values are the loop's constants,
// kept in registers (the dot loop's memory clobber would reload a struct in
// memory).
struct Requant4 {
  kernels::mve::LaneRequant rq;
  int32_t out_offset;
};

inline int32x4_t requantize4(int32x4_t v, const Requant4& q) {
  return kernels::mve::offset_clamp_lanes(kernels::mve::requantize_lanes(v, q.rq), q.out_offset,
                                          -128, 127);
}

}  // namespace

// The reference's sum split as CMSIS-NN's Helium path splits it:
//   sum (l + lo)(r + ro) = sum l*r + ro * sum l + (lo * sum r + K * lo * ro)
// All in wrapping int32, so the total is the reference's modulo 2^32. The last
// bracket depends on the column only and goes to scratch once per batch.
void batch_matmul_s8_mve(const BatchMatmulParams& p, const int8_t* lhs, const int8_t* rhs,
                         int8_t* out, int32_t* scratch) {
  const int32_t depth = p.depth;
  const int32_t rows = p.rows;
  const int32_t cols = p.cols;
  const int32_t lhs_offset = p.lhs_offset;
  const int32_t rhs_offset = p.rhs_offset;
  const Requant4 q{kernels::mve::LaneRequant(p.out), p.out_offset};
  const int32_t both_offsets = wrap_mul(wrap_mul(depth, lhs_offset), rhs_offset);
  // scratch: cols column terms, then one lhs row's dot products (cols rounded up to 4).
  int32_t* row_sums = scratch + cols;
  for (int32_t b = 0; b < p.batches; ++b) {
    for (int32_t n = 0; n < cols; ++n) {
      const int32_t sum = row_sum(rhs + n * depth, depth);
      scratch[n] = wrap_add(wrap_mul(lhs_offset, sum), both_offsets);
    }
    for (int32_t m = 0; m < rows; ++m) {
      const int8_t* lhs_row = lhs + m * depth;
      const int32_t row_term = wrap_mul(rhs_offset, row_sum(lhs_row, depth));
      // The dot products first, into a row of int32 sums; then the offset
      // terms and RQ over that row in its own loop, whose constants stay in
      // registers (the dot loop needs nearly all of them).
      for (int32_t n = 0; n < cols; n += 4) {
        const int32_t live_cols = cols - n < 4 ? cols - n : 4;
        // Columns past the last re-read the last one into the row's padding.
        const int8_t* r0 = rhs + n * depth;
        const int8_t* r1 = live_cols > 1 ? r0 + depth : r0;
        const int8_t* r2 = live_cols > 2 ? r0 + 2 * depth : r0;
        const int8_t* r3 = live_cols > 3 ? r0 + 3 * depth : r0;
        int32_t acc0 = 0;
        int32_t acc1 = 0;
        int32_t acc2 = 0;
        int32_t acc3 = 0;
        dot4(lhs_row, r0, r1, r2, r3, depth, acc0, acc1, acc2, acc3);
        row_sums[n] = acc0;
        row_sums[n + 1] = acc1;
        row_sums[n + 2] = acc2;
        row_sums[n + 3] = acc3;
      }
      for (int32_t n = 0; n < cols; n += 4) {
        const mve_pred16_t live = vctp32q(static_cast<uint32_t>(cols - n));
        int32x4_t acc =
            vaddq_s32(vldrwq_z_s32(row_sums + n, live), vldrwq_z_s32(scratch + n, live));
        acc = vaddq_n_s32(acc, row_term);
        vstrbq_p_s32(out + n, requantize4(acc, q), live);
      }
      out += cols;
    }
    lhs += rows * depth;
    rhs += cols * depth;
  }
}

}  // namespace etns::cortex_m

#endif  // ETNS_HAVE_MVE
