// avg_pool2d as the MLPerf Tiny models' global pools run it (DS-CNN's
// 1x64x25x5 -> 1x64x1x1: 125 taps per channel; MobileNet's 3x3x256; ResNet-8's
// 8x8x64), every variant (kernel_bench.h).
#include "kernels/cortex_m/avg_pool2d/avg_pool2d.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::cortex_m {
namespace {

// A global pool: height x width x channels -> 1x1 x channels.
void bench_global(kernels::testing::Bench& bench, int32_t height, int32_t width, int32_t channels) {
  AvgPool2dParams p;
  p.batches = 1;
  p.input_h = height;
  p.input_w = width;
  p.channels = channels;
  p.kernel_h = height;
  p.kernel_w = width;
  p.output_h = 1;
  p.output_w = 1;
  const size_t count = static_cast<size_t>(height) * static_cast<size_t>(width) * static_cast<size_t>(channels);
  int8_t* input = ETNS_TEST_ARRAY(int8_t, count);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, static_cast<size_t>(channels));
  kernels::testing::Rng rng(count);
  rng.fill_s8(input, count);
  bench.elements(count);  // the elements the pool reads
  for (const auto& v : kernels::kAvgPool2dVariants) {
    bench.measure(v.isa, [&] { v.fn(p, input, out); });
  }
}

ETNS_KERNEL_BENCH(quantized_avg_pool2d, ds_cnn_global) { bench_global(bench, 25, 5, 64); }
// MobileNet's (vww) and ResNet-8's (ic) global pools.
ETNS_KERNEL_BENCH(quantized_avg_pool2d, vww_global_3x3x256) { bench_global(bench, 3, 3, 256); }
ETNS_KERNEL_BENCH(quantized_avg_pool2d, ic_global_8x8x64) { bench_global(bench, 8, 8, 64); }

}  // namespace
}  // namespace etns::cortex_m
