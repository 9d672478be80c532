// minimum as tier1_arm c0i2 runs it (min(x, 50) over 1x16x32x32: one row
// against a scalar) and two same-shape tensors, every variant (kernel_bench.h).
#include "kernels/cortex_m/minimum/minimum.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/variants.h"

namespace etns::cortex_m {
namespace {

constexpr size_t kCount = 16384;

void bench_minimum(kernels::testing::Bench& bench, size_t other_stride) {
  MinimumParams p;
  p.dims[3] = kCount;
  p.self_strides[3] = 1;
  p.other_strides[3] = other_stride;
  int8_t* self = ETNS_TEST_ARRAY(int8_t, kCount);
  int8_t* other = ETNS_TEST_ARRAY(int8_t, kCount);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, kCount);
  kernels::testing::Rng rng(kCount);
  rng.fill_s8(self, kCount);
  rng.fill_s8(other, kCount);
  other[0] = 50;
  for (const auto& v : kernels::kMinimumVariants) {
    bench.measure(v.isa, [&] { v.fn(p, self, other, out); });
  }
}

ETNS_KERNEL_BENCH(minimum, tier1) { bench_minimum(bench, 0); }
ETNS_KERNEL_BENCH(minimum, tier1_same_shape) { bench_minimum(bench, 1); }

}  // namespace
}  // namespace etns::cortex_m
