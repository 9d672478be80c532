// maximum as tier1_arm c0i2 runs minimum (max(x, 50) over 1x16x32x32: one row
// against a scalar) and two same-shape tensors, every variant (kernel_bench.h).
#include "kernels/cortex_m/maximum/maximum.h"
#include "kernels/testing/broadcast_checks.h"

namespace etns::cortex_m {
namespace {

using kernels::testing::bench_broadcast_row;
using kernels::testing::kBroadcastBenchCount;

ETNS_KERNEL_BENCH(maximum, tier1) {
  bench.elements(kBroadcastBenchCount);
  bench_broadcast_row(bench, kernels::kMaximumVariants, 0);
}
ETNS_KERNEL_BENCH(maximum, tier1_same_shape) {
  bench.elements(kBroadcastBenchCount);
  bench_broadcast_row(bench, kernels::kMaximumVariants, 1);
}

}  // namespace
}  // namespace etns::cortex_m
