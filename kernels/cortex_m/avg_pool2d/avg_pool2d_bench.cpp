// avg_pool2d as DS-CNN's global pool runs it (1x64x25x5 -> 1x64x1x1, kernel
// 25x5: 125 taps per channel), every variant (kernel_bench.h).
#include "kernels/cortex_m/avg_pool2d/avg_pool2d.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::cortex_m {
namespace {

ETNS_KERNEL_BENCH(quantized_avg_pool2d, ds_cnn_global) {
  AvgPool2dParams p;
  p.batches = 1;
  p.input_h = 25;
  p.input_w = 5;
  p.channels = 64;
  p.kernel_h = 25;
  p.kernel_w = 5;
  p.output_h = 1;
  p.output_w = 1;
  const size_t count = 25 * 5 * 64;
  int8_t* input = ETNS_TEST_ARRAY(int8_t, count);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, 64);
  kernels::testing::Rng rng(count);
  rng.fill_s8(input, count);
  for (const auto& v : kernels::kAvgPool2dVariants) {
    bench.measure(v.isa, [&] { v.fn(p, input, out); });
  }
}

}  // namespace
}  // namespace etns::cortex_m
