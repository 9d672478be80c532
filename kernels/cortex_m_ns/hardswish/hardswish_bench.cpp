// quantized_hardswish on the Tier-1 shape with tier1_ns c0i2's parameters, every variant
// (kernels/testing/kernel_bench.h: counted on the M55 by `etns bench`, timed on the host).
#include "kernels/cortex_m_ns/hardswish/hardswish.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/unary_bench.h"

namespace etns::cortex_m_ns {
namespace {

ETNS_KERNEL_BENCH(quantized_hardswish, tier1) {
  HardswishParams p;
  p.in_zero_point = 3;
  p.out_zero_point = -113;
  p.out = {1890869522, -6};
  p.relu_q3 = 67;
  p.relu_q6 = 134;
  hardswish_fill_table(p);
  bench.elements(kernels::testing::kUnaryBenchCount);
  kernels::testing::bench_unary_tier1(bench, kernels::kHardswishVariants, p);
}

}  // namespace
}  // namespace etns::cortex_m_ns
