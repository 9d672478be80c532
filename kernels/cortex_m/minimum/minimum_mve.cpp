#include "kernels/cortex_m/minimum/minimum.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

namespace etns::cortex_m {
namespace {

// The rows are tail-predicated low-overhead loops (wlstp/letp): 16 lanes per
// pass, the last pass only the remaining lanes, no separate tail code. GCC 12
// does not form these loops from intrinsics, hence the assembly.

// out[0, n) = min(a[0, n), b[0, n)).
void min_row(const int8_t* a, const int8_t* b, int8_t* out, size_t n) {
  asm volatile(
      "   wlstp.8 lr, %[n], 2f\n"
      "1: vldrb.8 q0, [%[a]], #16\n"
      "   vldrb.8 q1, [%[b]], #16\n"
      "   vmin.s8 q0, q0, q1\n"
      "   vstrb.8 q0, [%[out]], #16\n"
      "   letp    lr, 1b\n"
      "2:\n"
      : [a] "+r"(a), [b] "+r"(b), [out] "+r"(out)
      : [n] "r"(n)
      : "q0", "q1", "lr", "memory");
}

// out[0, n) = min(scalar, b[0, n)).
void min_scalar_row(int8_t scalar, const int8_t* b, int8_t* out, size_t n) {
  const int8x16_t repeated = vdupq_n_s8(scalar);
  asm volatile(
      "   wlstp.8 lr, %[n], 2f\n"
      "1: vldrb.8 q0, [%[b]], #16\n"
      "   vmin.s8 q0, q0, %q[s]\n"
      "   vstrb.8 q0, [%[out]], #16\n"
      "   letp    lr, 1b\n"
      "2:\n"
      : [b] "+r"(b), [out] "+r"(out)
      : [n] "r"(n), [s] "w"(repeated)
      : "q0", "lr", "memory");
}

}  // namespace

void minimum_s8_mve(const MinimumParams& p, const int8_t* self, const int8_t* other, int8_t* out) {
  const size_t n = p.dims[3];
  const size_t self_step = p.self_strides[3];
  const size_t other_step = p.other_strides[3];
  // prepare gives every innermost row unit or zero strides, not both zero
  // unless the row has one element; anything else takes the reference.
  if (self_step > 1 || other_step > 1 || (self_step == 0 && other_step == 0 && n > 1)) {
    minimum_s8_ref(p, self, other, out);
    return;
  }
  for (size_t i = 0; i < p.dims[0]; ++i) {
    for (size_t j = 0; j < p.dims[1]; ++j) {
      for (size_t k = 0; k < p.dims[2]; ++k) {
        const int8_t* a =
            self + i * p.self_strides[0] + j * p.self_strides[1] + k * p.self_strides[2];
        const int8_t* b =
            other + i * p.other_strides[0] + j * p.other_strides[1] + k * p.other_strides[2];
        if (self_step == 0) {
          min_scalar_row(*a, b, out, n);
        } else if (other_step == 0) {
          min_scalar_row(*b, a, out, n);
        } else {
          min_row(a, b, out, n);
        }
        out += n;
      }
    }
  }
}

}  // namespace etns::cortex_m

#endif  // ETNS_HAVE_MVE
