// quantized_mean as tier1mean_ns c0i1 runs it ([1,16,32,32] -> [1,16,1,1]: 16
// contiguous runs of 1024 bytes) and the channels_last form of the same mean
// (1024 rows of 16 channels, a column sum), every variant (kernel_bench.h).
#include "kernels/cortex_m_ns/mean/mean.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::cortex_m_ns {
namespace {

void bench_mean(kernels::testing::Bench& bench, const MeanGeometry& g) {
  constexpr size_t kCount = 16384;
  MeanParams p;
  p.in_zero_point = 1;
  p.out_zero_point = 4;
  p.out = {1494462729, -4};
  int8_t* in = ETNS_TEST_ARRAY(int8_t, kCount);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, 16);
  kernels::testing::Rng rng(kCount);
  rng.fill_s8(in, kCount);
  bench.elements(kernels::testing::work_of(g.count(), g.outputs()));  // the elements it reads
  for (const auto& v : kernels::kMeanVariants) bench.measure(v.isa, [&] { v.fn(p, g, in, out); });
}

ETNS_KERNEL_BENCH(quantized_mean, tier1mean) {
  MeanGeometry g;  // as prepare views it: 16 outputs, each a run of 1024 bytes
  g.middle = 16;
  g.reduce = 1024;
  bench_mean(bench, g);
}

ETNS_KERNEL_BENCH(quantized_mean, tier1_channels_last) {
  MeanGeometry g;
  g.reduce = 1024;
  g.inner = 16;
  bench_mean(bench, g);
}

}  // namespace
}  // namespace etns::cortex_m_ns
