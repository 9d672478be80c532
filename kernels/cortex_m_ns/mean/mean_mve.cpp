#include "kernels/cortex_m_ns/mean/mean.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

#include "kernels/common/requantize_mve.h"

namespace etns::cortex_m_ns {
namespace {

// int16 lanes hold the sum of this many int8 rows exactly: 256 * -128 = -32768
// and 256 * 127 = 32512.
constexpr size_t kRowsPerInt16Sum = 256;

// One run's sum added to %[acc], %[p] post-incremented: 16 bytes per
// add-across-vector instruction, 32 vectors per pass of a low-overhead loop,
// then a tail-predicated loop for the rest (its last pass adds only the
// remaining lanes, and still steps %[p] by 16).
#define ETNS_MEAN_RUN_SUM_ASM \
  "   wls       lr, %[blocks], 2f\n" \
  "1: vldrb.8   q0, [%[p]], #16\n" \
  "   vldrb.8   q1, [%[p]], #16\n" \
  /* Software-pipelined: each add uses a vector loaded two steps earlier. */ \
  "   .rept 7\n" \
  "   vaddva.s8 %[acc], q0\n" \
  "   vldrb.8   q2, [%[p]], #16\n" \
  "   vaddva.s8 %[acc], q1\n" \
  "   vldrb.8   q3, [%[p]], #16\n" \
  "   vaddva.s8 %[acc], q2\n" \
  "   vldrb.8   q0, [%[p]], #16\n" \
  "   vaddva.s8 %[acc], q3\n" \
  "   vldrb.8   q1, [%[p]], #16\n" \
  "   .endr\n" \
  "   vaddva.s8 %[acc], q0\n" \
  "   vldrb.8   q2, [%[p]], #16\n" \
  "   vaddva.s8 %[acc], q1\n" \
  "   vldrb.8   q3, [%[p]], #16\n" \
  "   vaddva.s8 %[acc], q2\n" \
  "   vaddva.s8 %[acc], q3\n" \
  "   le        lr, 1b\n" \
  "2: wlstp.8   lr, %[rest], 4f\n" \
  "3: vldrb.8   q0, [%[p]], #16\n" \
  "   vaddva.s8 %[acc], q0\n" \
  "   letp      lr, 3b\n" \
  "4:\n"

constexpr size_t kBytesPerPass = 512;

// Adds the sum of each of `runs` runs of `length` signed bytes, the k-th at
// base + k * stride, to sums[k]. Assembly because GCC 12 forms neither loop
// from vaddvaq_s8, and the loop over runs keeps the cost per output to a few
// instructions (fewer still when the runs follow each other in 16-byte steps,
// as in tier1mean's channels).
void add_run_sums(const int8_t* base, size_t length, size_t stride, size_t runs, int32_t* sums) {
  if (runs == 0) return;
  const size_t blocks = length / kBytesPerPass;
  const size_t rest = length % kBytesPerPass;
  const int8_t* p = base;
  int32_t acc;
  if (stride == length && length % 16 == 0) {
    asm volatile(
        "0: ldr       %[acc], [%[sums]]\n" ETNS_MEAN_RUN_SUM_ASM
        "   str       %[acc], [%[sums]], #4\n"
        "   subs      %[runs], #1\n"
        "   bne       0b\n"
        : [p] "+r"(p), [acc] "=&Te"(acc), [sums] "+r"(sums), [runs] "+r"(runs)
        : [blocks] "r"(blocks), [rest] "r"(rest)
        : "q0", "q1", "q2", "q3", "lr", "memory", "cc");
    return;
  }
  asm volatile(
      "0: mov       %[p], %[base]\n"
      "   ldr       %[acc], [%[sums]]\n" ETNS_MEAN_RUN_SUM_ASM
      "   str       %[acc], [%[sums]], #4\n"
      "   add       %[base], %[stride]\n"
      "   subs      %[runs], #1\n"
      "   bne       0b\n"
      : [p] "+r"(p), [acc] "=&Te"(acc), [base] "+r"(base), [sums] "+r"(sums), [runs] "+r"(runs)
      : [blocks] "r"(blocks), [rest] "r"(rest), [stride] "r"(stride)
      : "q0", "q1", "q2", "q3", "lr", "memory", "cc");
}

#undef ETNS_MEAN_RUN_SUM_ASM

// clamp(RQ(acc) + out_zero_point, -128, 127) on 4 lanes
// (kernels/common/requantize_mve.h). The zero point is added saturating: an
// int32 overflow would clamp to the same int8 end.
class Requantizer {
 public:
  explicit Requantizer(const MeanParams& p) : q_(p.out), zero_point_(p.out_zero_point) {}

  __attribute__((always_inline)) int32x4_t operator()(int32x4_t acc) const {
    using kernels::mve::Shift;
    const int32x4_t v = q_.neg_right < 0 ? kernels::mve::requantize_lanes<Shift::Right>(acc, q_)
                                         : kernels::mve::requantize_lanes<Shift::Left>(acc, q_);
    return kernels::mve::saturating_offset_clamp_lanes(v, zero_point_, -128, 127);
  }

 private:
  kernels::mve::LaneRequant q_;
  int32_t zero_point_;
};

// -count * in_zero_point: added once to the raw byte sum gives the
// reference's sum of (q - zp) (prepare bounds count so that both fit int32).
int32_t zero_point_correction(const MeanParams& p, const MeanGeometry& g) {
  return -static_cast<int32_t>(g.count()) * p.in_zero_point;
}

// Outputs summed before they are requantised together.
constexpr size_t kOutputsPerBatch = 64;

// inner == 1: output (o, m) sums the reduce_outer runs of `reduce` contiguous
// bytes at in[o, r, m, :]; consecutive m are consecutive outputs, so up to 64
// are summed into a small array and then requantised 4 lanes at a time.
__attribute__((noinline)) void mean_contiguous(const MeanParams& p, const MeanGeometry& g, const int8_t* in, int8_t* out) {
  const Requantizer requantize(p);
  const int32x4_t correction = vdupq_n_s32(zero_point_correction(p, g));
  const size_t block = g.middle * g.reduce;
  int32_t sums[kOutputsPerBatch];
  for (size_t o = 0; o < g.outer; ++o) {
    for (size_t m = 0; m < g.middle; m += kOutputsPerBatch) {
      const size_t n = g.middle - m < kOutputsPerBatch ? g.middle - m : kOutputsPerBatch;
      for (size_t k = 0; k < n; k += 4) vst1q_s32(sums + k, correction);
      const int8_t* first = in + o * g.reduce_outer * block + m * g.reduce;
      for (size_t r = 0; r < g.reduce_outer; ++r) {
        add_run_sums(first + r * block, g.reduce, g.reduce, n, sums);
      }
      for (size_t k = 0; k < n; k += 4) {
        const mve_pred16_t live = vctp32q(static_cast<uint32_t>(n - k));
        vstrbq_p_s32(out + k, requantize(vldrwq_z_s32(sums + k, live)), live);
      }
      out += n;
    }
  }
}

// inner > 1: 8 columns at a time, each row loaded widened to int16 lanes and
// added; the int16 sums move to int32 (even and odd lanes apart) every 256
// rows and at the end, and are narrowed back into column order to store.
__attribute__((noinline)) void mean_columns(const MeanParams& p, const MeanGeometry& g, const int8_t* in, int8_t* out) {
  const Requantizer requantize(p);
  const int32x4_t correction = vdupq_n_s32(zero_point_correction(p, g));
  const size_t row = g.reduce * g.inner;
  const size_t block = g.middle * row;
  for (size_t o = 0; o < g.outer; ++o) {
    for (size_t m = 0; m < g.middle; ++m) {
      const int8_t* base = in + o * g.reduce_outer * block + m * row;
      for (size_t c = 0; c < g.inner; c += 8) {
        const uint32_t lanes = static_cast<uint32_t>(g.inner - c < 8 ? g.inner - c : 8);
        const mve_pred16_t live = vctp16q(lanes);
        int32x4_t even = correction;
        int32x4_t odd = correction;
        int16x8_t partial = vdupq_n_s16(0);
        size_t rows_in_partial = 0;
        for (size_t r = 0; r < g.reduce_outer; ++r) {
          const int8_t* src = base + r * block + c;
          size_t left = g.reduce;
          while (left > 0) {
            size_t chunk = kRowsPerInt16Sum - rows_in_partial;
            if (chunk > left) chunk = left;
            for (size_t s = 0; s < chunk; ++s, src += g.inner) {
              partial = vaddq_s16(partial, vldrbq_z_s16(src, live));
            }
            left -= chunk;
            rows_in_partial += chunk;
            if (rows_in_partial == kRowsPerInt16Sum) {
              even = vaddq_s32(even, vmovlbq_s16(partial));
              odd = vaddq_s32(odd, vmovltq_s16(partial));
              partial = vdupq_n_s16(0);
              rows_in_partial = 0;
            }
          }
        }
        even = requantize(vaddq_s32(even, vmovlbq_s16(partial)));
        odd = requantize(vaddq_s32(odd, vmovltq_s16(partial)));
        const int16x8_t bytes = vmovntq_s32(vmovnbq_s32(vdupq_n_s16(0), even), odd);
        vstrbq_p_s16(out + c, bytes, live);
      }
      out += g.inner;
    }
  }
}

}  // namespace

void mean_s8_mve(const MeanParams& p, const MeanGeometry& g, const int8_t* in, int8_t* out) {
  if (g.inner == 1) {
    mean_contiguous(p, g, in, out);
  } else {
    mean_columns(p, g, in, out);
  }
}

}  // namespace etns::cortex_m_ns

#endif  // ETNS_HAVE_MVE
