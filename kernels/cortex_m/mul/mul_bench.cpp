// quantized_mul on the Tier-1 shape with tier1_arm c0i3's parameters (the
// hardswish decomposition's product), every variant (kernel_bench.h).
#include "kernels/cortex_m/mul/mul.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::cortex_m {
namespace {

ETNS_KERNEL_BENCH(quantized_mul, tier1) {
  constexpr size_t kCount = 16384;
  MulParams p;
  p.a_zero_point = -39;
  p.b_zero_point = -128;
  p.out_zero_point = -113;
  p.out = {1084628855, -6};
  int8_t* a = ETNS_TEST_ARRAY(int8_t, kCount);
  int8_t* b = ETNS_TEST_ARRAY(int8_t, kCount);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, kCount);
  kernels::testing::Rng rng(kCount);
  rng.fill_s8(a, kCount);
  rng.fill_s8(b, kCount);
  bench.elements(kCount);
  for (const auto& v : kernels::kMulVariants) {
    bench.measure(v.isa, [&] { v.fn(p, a, b, out, kCount); });
  }
}

}  // namespace
}  // namespace etns::cortex_m
