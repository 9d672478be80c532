// quantized_leaky_relu on the Tier-1 shape with tier1_ns c0i4's parameters, every variant
// (kernels/testing/kernel_bench.h: counted on the M55 by `etns bench`, timed on the host).
#include "kernels/cortex_m_ns/leaky_relu/leaky_relu.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/unary_bench.h"

namespace etns::cortex_m_ns {
namespace {

ETNS_KERNEL_BENCH(quantized_leaky_relu, tier1) {
  LeakyReluParams p;
  p.in_zero_point = 0;
  p.out_zero_point = -100;
  p.alpha = {1861133219, -2};
  p.identity = {1861133219, 1};
  leaky_relu_fill_table(p);
  bench.elements(kernels::testing::kUnaryBenchCount);
  kernels::testing::bench_unary_tier1(bench, kernels::kLeakyReluVariants, p);
}

}  // namespace
}  // namespace etns::cortex_m_ns
