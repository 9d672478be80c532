// max_pool2d on 1x32x16x16 with kernel 2, stride 2 (out 1x32x8x8), every
// variant (kernel_bench.h).
#include "kernels/cortex_m/max_pool2d/max_pool2d.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::cortex_m {
namespace {

ETNS_KERNEL_BENCH(quantized_max_pool2d, k2s2_32x16x16) {
  MaxPool2dParams p;
  kernels::Pool2dShape& s = p.shape;
  s.batches = 1;
  s.input_h = 16;
  s.input_w = 16;
  s.channels = 32;
  s.kernel_h = 2;
  s.kernel_w = 2;
  s.stride_h = 2;
  s.stride_w = 2;
  s.output_h = 8;
  s.output_w = 8;
  const size_t count = 16 * 16 * 32;
  int8_t* input = ETNS_TEST_ARRAY(int8_t, count);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, 8 * 8 * 32);
  kernels::testing::Rng rng(count);
  rng.fill_s8(input, count);
  bench.elements(count);  // the elements the pool reads
  for (const auto& v : kernels::kMaxPool2dVariants) {
    bench.measure(v.isa, [&] { v.fn(p, input, out); });
  }
}

}  // namespace
}  // namespace etns::cortex_m
