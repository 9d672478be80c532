#include "kernels/common/clamp_s8.h"
#include "kernels/cortex_m_ns/relu/relu.h"

// Host SIMD (Highway): both paths are shared kernels, each dispatched to the
// CPU's best target at run time.
namespace etns::cortex_m_ns {

void relu_s8_hwy(const ReluParams& p, const int8_t* in, int8_t* out, size_t n) {
  if (p.identity) {
    // The same quantisation in and out: a plain clamp, cheaper than any table
    // lookup. prepare bounds act_min <= act_max inside int8.
    kernels::clamp_s8_hwy(in, out, n, static_cast<int8_t>(p.act_min), static_cast<int8_t>(p.act_max));
    return;
  }
  kernels::lookup_s8_hwy(p.table, in, out, n);
}

}  // namespace etns::cortex_m_ns
