#include "kernels/cortex_m_ns/relu/relu.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

namespace etns::cortex_m_ns {

// A table lookup costs a 16-lane gather; the identity path needs only a max and
// a min per 16 bytes, so it is computed (arm_clamp_s8's arithmetic).
void relu_s8_mve(const ReluParams& p, const int8_t* in, int8_t* out, size_t n) {
  if (!p.identity) {
    kernels::lookup_s8_mve(p.table, in, out, n);
    return;
  }
  const int8x16_t lo = vdupq_n_s8(static_cast<int8_t>(p.act_min));
  const int8x16_t hi = vdupq_n_s8(static_cast<int8_t>(p.act_max));
  size_t blocks = n / 16;
  while (blocks-- > 0) {
    vst1q_s8(out, vminq_s8(vmaxq_s8(vld1q_s8(in), lo), hi));
    in += 16;
    out += 16;
  }
  const uint32_t tail = static_cast<uint32_t>(n % 16);
  if (tail != 0) {
    const mve_pred16_t live = vctp8q(tail);
    vstrbq_p_s8(out, vminq_s8(vmaxq_s8(vldrbq_z_s8(in, live), lo), hi), live);
  }
}

}  // namespace etns::cortex_m_ns

#endif  // ETNS_HAVE_MVE
