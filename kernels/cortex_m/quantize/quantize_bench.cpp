// quantize_per_tensor (float32 -> int8) on the Tier-1 shape with the programs'
// input quantisation (scale 0.030633239075541496, zero point 1), every variant.
#include "kernels/cortex_m/quantize/quantize.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::cortex_m {
namespace {

ETNS_KERNEL_BENCH(quantize_per_tensor, tier1) {
  constexpr size_t kCount = 16384;
  QuantizeParams p;
  p.inv_scale = 1.0f / 0.030633239075541496f;
  p.zero_point = 1;
  float* in = ETNS_TEST_ARRAY(float, kCount);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, kCount);
  kernels::testing::Rng rng(kCount);
  for (size_t i = 0; i < kCount; ++i) in[i] = static_cast<float>((rng.unit() - 0.5) * 8.0);
  bench.elements(kCount);
  for (const auto& v : kernels::kQuantizeS8Variants) {
    bench.measure(v.isa, [&] { v.fn(p, in, out, kCount); });
  }
}

}  // namespace
}  // namespace etns::cortex_m
