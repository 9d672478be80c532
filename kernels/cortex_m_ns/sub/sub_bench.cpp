// quantized_sub on the Tier-1 shape with tier1_ns c0i5's parameters, every
// variant (kernels/testing/kernel_bench.h).
#include "kernels/cortex_m_ns/sub/sub.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::cortex_m_ns {
namespace {

ETNS_KERNEL_BENCH(quantized_sub, tier1) {
  constexpr size_t kCount = 16384;
  SubParams p;
  p.self_zero_point = -100;
  p.self = {2044058342, -1};
  p.other_zero_point = -113;
  p.other = {1073741824, 0};
  p.out_zero_point = 4;
  p.out = {1266874265, -19};
  int8_t* self = ETNS_TEST_ARRAY(int8_t, kCount);
  int8_t* other = ETNS_TEST_ARRAY(int8_t, kCount);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, kCount);
  kernels::testing::Rng rng(kCount);
  rng.fill_s8(self, kCount);
  rng.fill_s8(other, kCount);
  bench.elements(kCount);
  for (const auto& v : kernels::kSubVariants) {
    bench.measure(v.isa, [&] { v.fn(p, self, other, out, kCount); });
  }
}

}  // namespace
}  // namespace etns::cortex_m_ns
