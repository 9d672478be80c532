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

// acc[k] += the dot product of x and weight row k (rows `stride` bytes apart)
// over n columns, for four rows and for one. A tail-predicated loop
// (WLSTP/LETP): each pass loads 16 input bytes once and 16 bytes of each row
// with post-increment, VMLADAVA accumulating the 16 int8 products of each row
// in int32 (wrapping like the reference); in the last pass the lanes past n
// are neither loaded nor added. Written out because GCC 12 spends a pointer
// subtraction per load on this loop. VMLADAVA's accumulator must be an even
// register ("Te").
inline __attribute__((always_inline)) void dot4(const int8_t* x, const int8_t* w, size_t stride,
                                                int32_t n, int32_t* acc) {
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  const int8_t* w0 = w;
  const int8_t* w1 = w + stride;
  const int8_t* w2 = w + 2 * stride;
  const int8_t* w3 = w + 3 * stride;
  int8x16_t xv, wv;
  asm volatile(
      "wlstp.8 lr, %[n], 2f\n"
      "1:\n\t"
      "vldrb.8 %q[xv], [%[x]], #16\n\t"
      "vldrb.8 %q[wv], [%[w0]], #16\n\t"
      "vmladava.s8 %[a0], %q[wv], %q[xv]\n\t"
      "vldrb.8 %q[wv], [%[w1]], #16\n\t"
      "vmladava.s8 %[a1], %q[wv], %q[xv]\n\t"
      "vldrb.8 %q[wv], [%[w2]], #16\n\t"
      "vmladava.s8 %[a2], %q[wv], %q[xv]\n\t"
      "vldrb.8 %q[wv], [%[w3]], #16\n\t"
      "vmladava.s8 %[a3], %q[wv], %q[xv]\n\t"
      "letp lr, 1b\n"
      "2:\n"
      : [a0] "+Te"(a0), [a1] "+Te"(a1), [a2] "+Te"(a2), [a3] "+Te"(a3), [xv] "=&w"(xv),
        [wv] "=&w"(wv), [x] "+r"(x), [w0] "+r"(w0), [w1] "+r"(w1), [w2] "+r"(w2), [w3] "+r"(w3)
      : [n] "r"(n)
      : "lr", "memory");
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

inline __attribute__((always_inline)) void dot1(const int8_t* x, const int8_t* w, int32_t n,
                                                int32_t* acc) {
  int32_t a0 = *acc;
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
  *acc = a0;
}

// RQ of four accumulators, the output offset and the clamp
// (kernels/common/requantize_mve.h).
struct Requantizer {
  kernels::mve::LaneRequant q;
  int32_t output_offset, lo, hi;

  explicit Requantizer(const LinearParams& p)
      : q(p.out), output_offset(p.output_offset), lo(p.activation_min), hi(p.activation_max) {}

  int32x4_t operator()(int32x4_t v) const {
    return kernels::mve::offset_clamp_lanes(kernels::mve::requantize_lanes(v, q), output_offset,
                                            lo, hi);
  }
};

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

  const Requantizer requantize(p);
  for (int32_t b = 0; b < p.batches; ++b) {
    const int8_t* x = input + static_cast<size_t>(b) * stride;
    int8_t* y = out + static_cast<size_t>(b) * static_cast<size_t>(rows);
    // filter_offset * sum(x), the same for every row of this batch.
    const uint32_t input_term =
        p.filter_offset != 0
            ? static_cast<uint32_t>(p.filter_offset) * static_cast<uint32_t>(sum_s8(x, in))
            : 0u;
    const int32x4_t start_term = vdupq_n_s32(static_cast<int32_t>(input_term));
    int32_t r = 0;
    int32_t acc[kRows];
    for (; r + kRows <= rows; r += kRows) {
      vst1q_s32(acc, vaddq_s32(vld1q_s32(kernel_sum + r), start_term));
      dot4(x, weight + static_cast<size_t>(r) * stride, stride, in, acc);
      vstrbq_s32(y + r, requantize(vld1q_s32(acc)));
    }
    if (r < rows) {
      const int32_t left = rows - r;
      const mve_pred16_t live = vctp32q(static_cast<uint32_t>(left));
      vst1q_s32(acc, vaddq_s32(vldrwq_z_s32(kernel_sum + r, live), start_term));
      for (int32_t k = 0; k < left; ++k) {
        dot1(x, weight + static_cast<size_t>(r + k) * stride, in, acc + k);
      }
      vstrbq_p_s32(y + r, requantize(vld1q_s32(acc)), live);
    }
  }
}

}  // namespace etns::cortex_m

#endif  // ETNS_HAVE_MVE
