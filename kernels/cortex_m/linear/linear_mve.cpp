// Helium (MVE) variant of cortex_m::quantized_linear.out, bit-exact with
// linear_s8_ref (docs/numerics.md#linear explains why).
#include "kernels/cortex_m/linear/linear.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

#include "kernels/common/requantize_mve.h"

namespace etns::cortex_m {
namespace {

// Output features per pass: each input vector loaded feeds four dot products.
constexpr int32_t kRows = 4;

// Sum of n int8 values, 16 per step, the tail predicated.
int32_t sum_s8(const int8_t* x, int32_t n) {
  int32_t sum = 0;
  for (; n >= 16; n -= 16, x += 16) sum = vaddvaq_s8(sum, vld1q_s8(x));
  if (n > 0) sum = vaddvaq_s8(sum, vldrbq_z_s8(x, vctp8q(static_cast<uint32_t>(n))));
  return sum;
}

using kernels::mve::Shift;

// What the four-row passes read from memory once a pass: the passes need
// nearly every register for pointers and sums, and a scalar load overlaps the
// vector work.
struct PassConsts {
  const int8_t* x;  // the input row
  int32_t rewind;   // n - the bytes one row's column loop steps over: the last
                    // row's pointer after its loop, plus this, is the next
                    // pass's first row
  int32_t multiplier;
};

// The four-row passes (passes4_long, passes4_short) as asm text. Operands:
// a0..a3 the four sums (VMLADAVA's accumulators, even registers "Te"), w0..w3
// the four rows, ks the kernel sums (ks_end past the last pass's), y the
// outputs (VSTRB.32's base, a low register "l"), v and t vector temporaries,
// term/shift/offset/lo/hi the per-call constants in vectors.
//
// A pass: the four kernel sums into a0..a3 and the pointers to rows 1..3
// (the six START steps, the last setting Z for the last pass), the four dot
// products (the caller's COLUMNS), the sums gathered into v by two VMOVs,
// plus the input term when the call has one (kTerm: filter_offset != 0),
// requantised into t (RQ: S's sign known, three or four instructions fewer
// than the general form), offset, clamped and stored as four bytes (FINISH).
// The core issues in order and each FINISH step waits for the one before it,
// so the loop is rotated: the next pass's START steps, all scalar, go into
// those gaps (S1..S6).
#define ETNS_LINEAR_KS01 "ldrd %[a0], %[a1], [%[ks]], #8\n\t"
#define ETNS_LINEAR_KS23 "ldrd %[a2], %[a3], [%[ks]], #8\n\t"
#define ETNS_LINEAR_ROW1 "add %[w1], %[w0], %[n]\n\t"
#define ETNS_LINEAR_ROW2 "add %[w2], %[w1], %[n]\n\t"
#define ETNS_LINEAR_ROW3 "add %[w3], %[w2], %[n]\n\t"
#define ETNS_LINEAR_LAST "cmp %[ks], %[ks_end]\n\t"
#define ETNS_LINEAR_GATHER                                                                         \
  "vmov %q[v][2], %q[v][0], %[a0], %[a2]\n\t"                                                      \
  "vmov %q[v][3], %q[v][1], %[a1], %[a3]\n\t"
#define ETNS_LINEAR_TERM "vadd.i32 %q[v], %q[v], %q[term]\n\t"
// RQ of v into t, the multiplier in register M. For S < 0 (Shift::Right):
// RDIV(DHM(v, M) + (v < 0 ? -1 : 0), -S), shift = S per lane.
#define ETNS_LINEAR_RQ_RIGHT(M, S1, S2, S3)                                                        \
  "vshr.s32 %q[t], %q[v], #31\n\t" S1                                                              \
  "vqrdmlah.s32 %q[t], %q[v], %[" M "]\n\t" S2                                                     \
  "vrshl.s32 %q[t], %q[t], %q[shift]\n\t" S3
// For S >= 0 (Shift::Left): DHM(v * 2^S, M), shift = S per lane.
#define ETNS_LINEAR_RQ_LEFT(M, S1, S2, S3)                                                         \
  "vshl.s32 %q[v], %q[v], %q[shift]\n\t" S1                                                        \
  "vqrdmulh.s32 %q[t], %q[v], %[" M "]\n\t" S2 S3
// RQ, the output offset, the clamp, four bytes out, with the scalar steps
// S1..S6 in the gaps (M is read by the second RQ step).
#define ETNS_LINEAR_FINISH(RQ, M, S1, S2, S3, S4, S5, S6)                                          \
  RQ(M, S1, S2, S3)                                                                                \
  "vadd.i32 %q[t], %q[t], %q[offset]\n\t" S4                                                       \
  "vmax.s32 %q[t], %q[t], %q[lo]\n\t" S5                                                           \
  "vmin.s32 %q[t], %q[t], %q[hi]\n\t" S6                                                           \
  "vstrb.32 %q[t], [%[y]], #4\n\t"
// One pass after START: COLUMNS, GATHER (and TERM), out of the loop after
// the last pass, else PREPARE (the next pass's row 0, and M when it is not
// kept in a register: MULT) and FINISH with the next pass's START in the
// gaps.
#define ETNS_LINEAR_PASS(RQ, TERM, MULT, PREPARE, COLUMNS, M)                                      \
  COLUMNS ETNS_LINEAR_GATHER TERM                                                                  \
  "beq 3f\n\t" MULT PREPARE                                                                        \
  ETNS_LINEAR_FINISH(RQ, M, ETNS_LINEAR_ROW1, ETNS_LINEAR_KS01, ETNS_LINEAR_ROW2,                  \
                     ETNS_LINEAR_KS23, ETNS_LINEAR_ROW3, ETNS_LINEAR_LAST)
// Pass 0's START, then two passes per trip round the loop (a taken branch
// costs 3 cycles), then the last pass's FINISH.
#define ETNS_LINEAR_PASSES_TEXT(RQ, TERM, MULT, PREPARE, COLUMNS, M)                               \
  ETNS_LINEAR_KS01 ETNS_LINEAR_KS23 ETNS_LINEAR_ROW1 ETNS_LINEAR_ROW2 ETNS_LINEAR_ROW3             \
  ETNS_LINEAR_LAST                                                                                 \
  "0:\n\t" ETNS_LINEAR_PASS(RQ, TERM, MULT, PREPARE, COLUMNS, M)                                   \
  ETNS_LINEAR_PASS(RQ, TERM, MULT, PREPARE, COLUMNS, M)                                            \
  "b 0b\n"                                                                                         \
  "3:\n\t" MULT ETNS_LINEAR_FINISH(RQ, M, "", "", "", "", "", "")
// One asm statement of the passes, the variant picked at compile time.
#define ETNS_LINEAR_PASSES(MULT, PREPARE, COLUMNS, M, ...)                                         \
  do {                                                                                             \
    if constexpr (kShift == Shift::Right && kTerm) {                                               \
      asm volatile(ETNS_LINEAR_PASSES_TEXT(ETNS_LINEAR_RQ_RIGHT, ETNS_LINEAR_TERM, MULT, PREPARE,  \
                                           COLUMNS, M) __VA_ARGS__);                               \
    } else if constexpr (kShift == Shift::Right) {                                                 \
      asm volatile(ETNS_LINEAR_PASSES_TEXT(ETNS_LINEAR_RQ_RIGHT, "", MULT, PREPARE, COLUMNS, M)    \
                       __VA_ARGS__);                                                               \
    } else if constexpr (kTerm) {                                                                  \
      asm volatile(ETNS_LINEAR_PASSES_TEXT(ETNS_LINEAR_RQ_LEFT, ETNS_LINEAR_TERM, MULT, PREPARE,   \
                                           COLUMNS, M) __VA_ARGS__);                               \
    } else {                                                                                       \
      asm volatile(ETNS_LINEAR_PASSES_TEXT(ETNS_LINEAR_RQ_LEFT, "", MULT, PREPARE, COLUMNS, M)     \
                       __VA_ARGS__);                                                               \
    }                                                                                              \
  } while (false)

// The four-row passes: one per four outputs y[4i .. 4i + 4) from kernel sums
// ks[4i ..], input x and the weight rows from w (n bytes each), until ks
// reaches ks_end (at least one pass). One asm block because the compiler,
// short of registers around the column loop, spilled and reloaded most of a
// pass's set-up: about 40 instructions a pass, where a 128-byte row's column
// loop takes 72.
//
// Rows longer than 16 bytes: a tail-predicated loop (WLSTP/LETP) over the
// columns loads 16 input bytes once and 16 bytes of each of the four rows
// with post-increment, VMLADAVA accumulating each row's 16 int8 products in
// int32 (wrapping like the reference; lanes past n are neither loaded nor
// added), the loads alternating with the VMLADAVAs so that the load and
// multiply pipes overlap.
template <Shift kShift, bool kTerm>
void passes4_long(const PassConsts& c, int32_t n, const int8_t* w, const int32_t* ks, int8_t* y,
                  const int32_t* ks_end, int32x4_t term, int32x4_t shift, int32x4_t offset,
                  int32x4_t lo, int32x4_t hi) {
  int32_t a0, a1, a2, a3;
  const int8_t *x, *w1, *w2, *w3;
  int32x4_t v, t;
  ETNS_LINEAR_PASSES(
      // a0 and a1 are free once gathered: the multiplier, and the next pass's
      // row 0 from this pass's row 3.
      "ldr %[a1], %[mult]\n\t",
      "ldr %[a0], %[rewind]\n\t"
      "add %[w0], %[w3], %[a0]\n\t",
      "ldr %[x], %[xp]\n\t"
      "wlstp.8 lr, %[n], 2f\n"
      "1:\n\t"
      "vldrb.8 %q[v], [%[x]], #16\n\t"
      "vldrb.8 %q[t], [%[w0]], #16\n\t"
      "vmladava.s8 %[a0], %q[t], %q[v]\n\t"
      "vldrb.8 %q[t], [%[w1]], #16\n\t"
      "vmladava.s8 %[a1], %q[t], %q[v]\n\t"
      "vldrb.8 %q[t], [%[w2]], #16\n\t"
      "vmladava.s8 %[a2], %q[t], %q[v]\n\t"
      "vldrb.8 %q[t], [%[w3]], #16\n\t"
      "vmladava.s8 %[a3], %q[t], %q[v]\n\t"
      "letp lr, 1b\n"
      "2:\n\t",
      "a1",
      : [a0] "=&Te"(a0), [a1] "=&Te"(a1), [a2] "=&Te"(a2), [a3] "=&Te"(a3), [v] "=&w"(v),
        [t] "=&w"(t), [x] "=&r"(x), [w1] "=&r"(w1), [w2] "=&r"(w2), [w3] "=&r"(w3),
        [w0] "+&r"(w), [ks] "+&r"(ks), [y] "+&l"(y)
      : [n] "r"(n), [ks_end] "r"(ks_end), [xp] "m"(c.x), [rewind] "m"(c.rewind),
        [mult] "m"(c.multiplier), [term] "w"(term), [shift] "w"(shift), [offset] "w"(offset),
        [lo] "w"(lo), [hi] "w"(hi)
      : "lr", "memory", "cc");
}

// Rows of 16 bytes or fewer: the input, its lanes past n zero, stays in
// register x; each row is one load predicated on n lanes (p: nothing past the
// weights is read) and one VMLADAVA, predicated too where it shares the VPT
// block (the same sum, as x is zero there).
template <Shift kShift, bool kTerm>
void passes4_short(int8x16_t x, mve_pred16_t p, int32_t multiplier, int32_t n, const int8_t* w,
                   const int32_t* ks, int8_t* y, const int32_t* ks_end, int32x4_t term,
                   int32x4_t shift, int32x4_t offset, int32x4_t lo, int32x4_t hi) {
  int32_t a0, a1, a2, a3;
  const int8_t *w1, *w2, *w3;
  int32x4_t v, t;
  ETNS_LINEAR_PASSES(
      "", "add %[w0], %[w3], %[n]\n\t",
      "vpsttt\n\t"
      "vldrbt.8 %q[t], [%[w0]]\n\t"
      "vldrbt.8 %q[v], [%[w1]]\n\t"
      "vmladavat.s8 %[a0], %q[t], %q[x]\n\t"
      "vpsttt\n\t"
      "vldrbt.8 %q[t], [%[w2]]\n\t"
      "vmladavat.s8 %[a1], %q[v], %q[x]\n\t"
      "vldrbt.8 %q[v], [%[w3]]\n\t"
      "vmladava.s8 %[a2], %q[t], %q[x]\n\t"
      "vmladava.s8 %[a3], %q[v], %q[x]\n\t",
      "mult",
      : [a0] "=&Te"(a0), [a1] "=&Te"(a1), [a2] "=&Te"(a2), [a3] "=&Te"(a3), [v] "=&w"(v),
        [t] "=&w"(t), [w1] "=&r"(w1), [w2] "=&r"(w2), [w3] "=&r"(w3), [w0] "+&r"(w),
        [ks] "+&r"(ks), [y] "+&l"(y)
      : [n] "r"(n), [ks_end] "r"(ks_end), [mult] "r"(multiplier), [x] "w"(x), [p] "Up"(p),
        [term] "w"(term), [shift] "w"(shift), [offset] "w"(offset), [lo] "w"(lo), [hi] "w"(hi)
      : "memory", "cc");
}

#undef ETNS_LINEAR_KS01
#undef ETNS_LINEAR_KS23
#undef ETNS_LINEAR_ROW1
#undef ETNS_LINEAR_ROW2
#undef ETNS_LINEAR_ROW3
#undef ETNS_LINEAR_LAST
#undef ETNS_LINEAR_GATHER
#undef ETNS_LINEAR_TERM
#undef ETNS_LINEAR_RQ_RIGHT
#undef ETNS_LINEAR_RQ_LEFT
#undef ETNS_LINEAR_FINISH
#undef ETNS_LINEAR_PASS
#undef ETNS_LINEAR_PASSES
#undef ETNS_LINEAR_PASSES_TEXT

// ks plus the dot product of x with one row: the rows past the last four.
int32_t dot1(const int8_t* x, const int8_t* w, int32_t n, int32_t ks) {
  int32_t a0 = ks;
  int8x16_t xv, wv;
  asm volatile(
      "wlstp.8 lr, %[n], 2f\n"
      "1:\n\t"
      "vldrb.8 %q[xv], [%[x]], #16\n\t"
      "vldrb.8 %q[wv], [%[w]], #16\n\t"
      "vmladava.s8 %[a0], %q[wv], %q[xv]\n\t"
      "letp lr, 1b\n"
      "2:\n"
      : [a0] "+Te"(a0), [xv] "=&w"(xv), [wv] "=&w"(wv), [x] "+r"(x), [w] "+r"(w)
      : [n] "r"(n)
      : "lr", "memory");
  return a0;
}

// One batch row: y[r] for every output feature r, S's sign and whether there
// is an input term (filter_offset * sum(x), the same for every row) known.
template <Shift kShift, bool kTerm>
void linear_row(const LinearParams& p, const int8_t* x, const int8_t* weight,
                const int32_t* kernel_sum, int32_t input_term, int8_t* y) {
  const int32_t in = p.in_features;
  const int32_t rows = p.out_features;
  const kernels::mve::LaneRequant q(p.out);
  const int32x4_t shift = vdupq_n_s32(kShift == Shift::Right ? q.neg_right : q.left);
  // Without an input term the passes never read theirs: shift stands in, so
  // that no register (and no stack slot) holds a vector of zeros.
  const int32x4_t term = kTerm ? vdupq_n_s32(input_term) : shift;
  const int32x4_t offset = vdupq_n_s32(p.output_offset);
  const int32x4_t lo = vdupq_n_s32(p.activation_min);
  const int32x4_t hi = vdupq_n_s32(p.activation_max);
  const int32_t r = rows & ~(kRows - 1);  // rows >= 0
  if (r > 0) {
    if (in <= 16) {
      const mve_pred16_t live = vctp8q(static_cast<uint32_t>(in));
      passes4_short<kShift, kTerm>(vldrbq_z_s8(x, live), live, q.multiplier, in, weight,
                                   kernel_sum, y, kernel_sum + r, term, shift, offset, lo, hi);
    } else {
      PassConsts c;
      c.x = x;
      c.rewind = in - ((in + 15) & ~15);
      c.multiplier = q.multiplier;
      passes4_long<kShift, kTerm>(c, in, weight, kernel_sum, y, kernel_sum + r, term, shift,
                                  offset, lo, hi);
    }
  }
  if (r < rows) {
    // The last one to three rows, one at a time, requantised together.
    const size_t stride = static_cast<size_t>(in);
    int32_t acc[kRows] = {};
    for (int32_t k = 0; r + k < rows; ++k) {
      acc[k] = dot1(x, weight + static_cast<size_t>(r + k) * stride, in, kernel_sum[r + k]);
    }
    int32x4_t v = vld1q_s32(acc);
    if constexpr (kTerm) v = vaddq_s32(v, term);
    v = vaddq_s32(kernels::mve::requantize_lanes<kShift>(v, q), offset);
    vstrbq_p_s32(y + r, vminq_s32(vmaxq_s32(v, lo), hi),
                 vctp32q(static_cast<uint32_t>(rows - r)));
  }
}

}  // namespace

void linear_s8_mve(const LinearParams& p, const int8_t* input, const int8_t* weight,
                   const int32_t* bias, const int32_t* kernel_sum, int8_t* out,
                   uint8_t* scratch) {
  const int32_t in = p.in_features;
  const int32_t rows = p.out_features;
  const size_t stride = static_cast<size_t>(in);
  // Without kernel_sum, derive it once per call (the exporter's fold), so the
  // loops below are the same either way.
  if (kernel_sum == nullptr) {
    int32_t* derived = reinterpret_cast<int32_t*>(
        (reinterpret_cast<uintptr_t>(scratch) + 15) & ~uintptr_t{15});
    const uint32_t filter_offset_total =
        static_cast<uint32_t>(p.filter_offset) * static_cast<uint32_t>(in);
    for (int32_t r = 0; r < rows; ++r) {
      const uint32_t filter_sum =
          static_cast<uint32_t>(sum_s8(weight + static_cast<size_t>(r) * stride, in)) +
          filter_offset_total;
      const uint32_t b = bias != nullptr ? static_cast<uint32_t>(bias[r]) : 0u;
      derived[r] =
          static_cast<int32_t>(b + static_cast<uint32_t>(p.input_offset) * filter_sum);
    }
    kernel_sum = derived;
  }

  for (int32_t b = 0; b < p.batches; ++b) {
    const int8_t* x = input + static_cast<size_t>(b) * stride;
    int8_t* y = out + static_cast<size_t>(b) * static_cast<size_t>(rows);
    // filter_offset * sum(x), the same for every row of this batch.
    const uint32_t input_term =
        p.filter_offset != 0
            ? static_cast<uint32_t>(p.filter_offset) * static_cast<uint32_t>(sum_s8(x, in))
            : 0u;
    // S < 0 is the exporters' case (factors below 1), filter_offset = 0
    // (symmetric weights) theirs too.
    const int32_t term = static_cast<int32_t>(input_term);
    if (p.out.shift < 0) {
      if (term != 0) {
        linear_row<Shift::Right, true>(p, x, weight, kernel_sum, term, y);
      } else {
        linear_row<Shift::Right, false>(p, x, weight, kernel_sum, term, y);
      }
    } else if (term != 0) {
      linear_row<Shift::Left, true>(p, x, weight, kernel_sum, term, y);
    } else {
      linear_row<Shift::Left, false>(p, x, weight, kernel_sum, term, y);
    }
  }
}

}  // namespace etns::cortex_m

#endif  // ETNS_HAVE_MVE
