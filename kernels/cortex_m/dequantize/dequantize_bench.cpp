// dequantize_per_tensor (int8 -> float32) on the Tier-1 shape with tier1_arm
// c0i4's parameters (scale 0.024257738143205643, zero point -113), every variant.
#include "kernels/cortex_m/dequantize/dequantize.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::cortex_m {
namespace {

ETNS_KERNEL_BENCH(dequantize_per_tensor, tier1) {
  constexpr size_t kCount = 16384;
  DequantizeParams p;
  p.scale = 0.024257738143205643f;
  p.zero_point = -113;
  int8_t* in = ETNS_TEST_ARRAY(int8_t, kCount);
  float* out = ETNS_TEST_ARRAY(float, kCount);
  kernels::testing::Rng rng(kCount);
  rng.fill_s8(in, kCount);
  bench.elements(kCount);
  for (const auto& v : kernels::kDequantizeS8Variants) {
    bench.measure(v.isa, [&] { v.fn(p, in, out, kCount); });
  }
}

}  // namespace
}  // namespace etns::cortex_m
