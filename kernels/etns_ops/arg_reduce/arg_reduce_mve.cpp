#include "kernels/etns_ops/arg_reduce/arg_reduce.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

namespace etns::etns_ops {
namespace {

// The first position of the largest (or smallest) of n >= 1 contiguous
// values: the extreme itself is order-free, so a vector reduction finds it;
// the first index holding it is then the reference's answer.
int32_t first_extreme(const int8_t* row, int32_t n, bool is_min) {
  int8_t best = row[0];
  for (int32_t k = 0; k < n; k += 16) {
    const mve_pred16_t live = vctp8q(static_cast<uint32_t>(n - k));
    const int8x16_t v = vld1q_z_s8(row + k, live);
    best = is_min ? vminvq_p_s8(best, v, live) : vmaxvq_p_s8(best, v, live);
  }
  const int8x16_t target = vdupq_n_s8(best);
  for (int32_t k = 0;; k += 16) {
    const mve_pred16_t live = vctp8q(static_cast<uint32_t>(n - k));
    const int8x16_t v = vld1q_z_s8(row + k, live);
    const auto hit = static_cast<uint32_t>(vcmpeqq_m_s8(v, target, live));
    // One predicate bit per byte lane: the lowest set bit is the first hit.
    // The extreme is in the row, so some chunk hits.
    if (hit != 0) return k + static_cast<int32_t>(__builtin_ctz(hit));
  }
}

}  // namespace

void arg_reduce_mve(const ArgReduceParams& p, const int8_t* self, int32_t* out) {
  if (p.inner != 1) {
    arg_reduce_ref(p, self, out);
    return;
  }
  const bool is_min = p.is_min != 0;
  const size_t axis = static_cast<size_t>(p.axis_size);
  for (size_t o = 0; o < static_cast<size_t>(p.outer); ++o) {
    out[o] = first_extreme(self + o * axis, p.axis_size, is_min);
  }
}

}  // namespace etns::etns_ops
#endif  // ETNS_HAVE_MVE
