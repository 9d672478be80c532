#include "kernels/etns_ops/concatenate/concatenate.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

namespace etns::etns_ops {
namespace {

// out[0, n) = in[0, n) as a tail-predicated low-overhead loop (wlstp/letp),
// 16 bytes a pass; GCC 12 does not form these loops from intrinsics.
void copy_run(const uint8_t* in, uint8_t* out, size_t n) {
  asm volatile(
      "   wlstp.8 lr, %[n], 2f\n"
      "1: vldrb.8 q0, [%[in]], #16\n"
      "   vstrb.8 q0, [%[out]], #16\n"
      "   letp    lr, 1b\n"
      "2:\n"
      : [in] "+r"(in), [out] "+r"(out)
      : [n] "r"(n)
      : "q0", "lr", "memory");
}

}  // namespace

// The same bytes as concatenate_ref: each input keeps a read pointer that
// advances one row per outer step.
void concatenate_mve(const ConcatenateParams& p, const uint8_t* const* inputs, uint8_t* out) {
  const uint8_t* at[kConcatenateMaxInputs];
  for (int32_t i = 0; i < p.count; ++i) at[i] = inputs[i];
  for (int32_t k = 0; k < p.outer; ++k) {
    for (int32_t i = 0; i < p.count; ++i) {
      const auto n = static_cast<size_t>(p.row_bytes[i]);
      copy_run(at[i], out, n);
      at[i] += n;
      out += n;
    }
  }
}

}  // namespace etns::etns_ops
#endif  // ETNS_HAVE_MVE
