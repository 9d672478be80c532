// Helium (MVE) variant of cortex_m::softmax.out, bit-exact with
// softmax_s8_ref (docs/numerics.md#softmax explains why).
#include "kernels/cortex_m/softmax/softmax.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

namespace etns::cortex_m {

// Three tail-predicated loops (WLSTP/LETP) per row: in the last pass the lanes
// past the row are neither loaded, gathered, added nor stored. Written out
// because GCC 12 spends four instructions per step on each VCTP predicate
// (a round trip through a general register).
void softmax_s8_mve(const SoftmaxParams& p, const int8_t* input, int8_t* out) {
  const int32_t n = p.row_size;
  const int32_t* table = p.exp_table;
  const int32x4_t lo = vdupq_n_s32(INT8_MIN), hi = vdupq_n_s32(INT8_MAX);
  const int32_t minus_128 = INT8_MIN;
  for (int32_t row = 0; row < p.rows; ++row, input += n, out += n) {
    // The row's largest code, 16 lanes a step.
    int32_t max = INT8_MIN;
    const int8_t* x = input;
    int8x16_t bytes;
    asm volatile(
        "wlstp.8 lr, %[n], 2f\n"
        "1:\n\t"
        "vldrb.8 %q[bytes], [%[x]], #16\n\t"
        "vmaxv.s8 %[max], %q[bytes]\n\t"
        "letp lr, 1b\n"
        "2:\n"
        : [max] "+r"(max), [x] "+r"(x), [bytes] "=&w"(bytes)
        : [n] "r"(n)
        : "lr", "memory");
    const int32x4_t row_max = vdupq_n_s32(static_cast<int8_t>(max));

    // sum of RDIV(e, 12), e = exp_table[max - x], four lanes a step. Every
    // entry is in [0, 2^31) (EXP's result), so RDIV is one VRSHR: its ties go
    // up, which is away from zero here. VADDVA wraps like the reference's sum.
    int32_t sum = 0;
    x = input;
    int32x4_t d, e;
    asm volatile(
        "wlstp.32 lr, %[n], 2f\n"
        "1:\n\t"
        "vldrb.s32 %q[d], [%[x]], #4\n\t"
        "vsub.i32 %q[d], %q[row_max], %q[d]\n\t"
        "vldrw.u32 %q[e], [%[table], %q[d], uxtw #2]\n\t"
        "vrshr.s32 %q[e], %q[e], #12\n\t"
        "vaddva.s32 %[sum], %q[e]\n\t"
        "letp lr, 1b\n"
        "2:\n"
        : [sum] "+Te"(sum), [x] "+r"(x), [d] "=&w"(d), [e] "=&w"(e)
        : [n] "r"(n), [table] "r"(table), [row_max] "w"(row_max)
        : "lr", "memory");
    const SoftmaxRowScale s = softmax_row_scale(static_cast<uint32_t>(sum));

    if (s.bits_over_unit >= 32) {
      // Every RDIV by 2^32 or more is 0: the whole row is -128.
      for (int32_t j = 0; j < n; j += 16) {
        vstrbq_p_s8(out + j, vdupq_n_s8(INT8_MIN), vctp8q(static_cast<uint32_t>(n - j)));
      }
      continue;
    }
    // out = clamp(RDIV(DHM(scale, e), bits) - 128). DHM is VQRDMULH (e >= 0,
    // never its saturating case). RDIV by a non-zero shift: VRSHL rounds ties
    // up, so negative values first move down by one (saturating; INT32_MIN is
    // never a tie), as in requantize.h.
    const int32_t neg_bits = -s.bits_over_unit;  // in [-31, -3]
    x = input;
    int8_t* y = out;
    asm volatile(
        "wlstp.32 lr, %[n], 2f\n"
        "1:\n\t"
        "vldrb.s32 %q[d], [%[x]], #4\n\t"
        "vsub.i32 %q[d], %q[row_max], %q[d]\n\t"
        "vldrw.u32 %q[e], [%[table], %q[d], uxtw #2]\n\t"
        "vqrdmulh.s32 %q[e], %q[e], %[scale]\n\t"
        "vshr.s32 %q[d], %q[e], #31\n\t"
        "vqadd.s32 %q[e], %q[e], %q[d]\n\t"
        "vrshl.s32 %q[e], %[neg_bits]\n\t"
        "vadd.i32 %q[e], %q[e], %[minus_128]\n\t"
        "vmax.s32 %q[e], %q[e], %q[lo]\n\t"
        "vmin.s32 %q[e], %q[e], %q[hi]\n\t"
        "vstrb.32 %q[e], [%[y]], #4\n\t"
        "letp lr, 1b\n"
        "2:\n"
        : [x] "+r"(x), [y] "+r"(y), [d] "=&w"(d), [e] "=&w"(e)
        : [n] "r"(n), [table] "r"(table), [row_max] "w"(row_max), [scale] "r"(s.scale),
          [neg_bits] "r"(neg_bits), [minus_128] "r"(minus_128), [lo] "w"(lo), [hi] "w"(hi)
        : "lr", "memory");
  }
}

}  // namespace etns::cortex_m

#endif  // ETNS_HAVE_MVE
