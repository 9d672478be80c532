// quantized_relu on the Tier-1 shape with tier1_ns c0i6's parameters, and as a
// clamp, every variant
// (kernels/testing/kernel_bench.h: counted on the M55 by `etns bench`, timed on the host).
#include "kernels/cortex_m_ns/relu/relu.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/unary_bench.h"

namespace etns::cortex_m_ns {
namespace {

ETNS_KERNEL_BENCH(quantized_relu, tier1) {
  ReluParams p;
  p.in_zero_point = 4;
  p.out_zero_point = -128;
  p.out = {1109119514, 2};
  relu_fill_table(p);
  bench.elements(kernels::testing::kUnaryBenchCount);
  kernels::testing::bench_unary_tier1(bench, kernels::kReluVariants, p);
}

// The identity path (the same quantisation in and out): relu6, hardtanh and
// clamp exported with unchanged scales are this plain clamp.
ETNS_KERNEL_BENCH(quantized_relu, tier1_clamp) {
  ReluParams p;
  p.identity = true;
  p.act_min = -20;
  p.act_max = 100;
  relu_fill_table(p);
  bench.elements(kernels::testing::kUnaryBenchCount);
  kernels::testing::bench_unary_tier1(bench, kernels::kReluVariants, p);
}

}  // namespace
}  // namespace etns::cortex_m_ns
