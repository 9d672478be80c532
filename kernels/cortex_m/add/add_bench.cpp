// quantized_add on 1x64x25x5 + the same shape (DS-CNN's residual add) and
// on ResNet-8's three residual adds, every variant (kernel_bench.h).
#include "kernels/cortex_m/add/add.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::cortex_m {
namespace {

// One residual add of `count` int8 elements with DS-CNN's requantisation.
void bench_add(kernels::testing::Bench& bench, size_t count) {
  AddParams p;
  p.a_zero_point = -12;
  p.b_zero_point = 5;
  p.out_zero_point = -7;
  p.a = {1518500250, -1};
  p.b = {1276901417, -1};
  p.out = {1660280573, -19};
  int8_t* a = ETNS_TEST_ARRAY(int8_t, count);
  int8_t* b = ETNS_TEST_ARRAY(int8_t, count);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, count);
  kernels::testing::Rng rng(count);
  rng.fill_s8(a, count);
  rng.fill_s8(b, count);
  bench.elements(count);
  for (const auto& v : kernels::kAddVariants) {
    bench.measure(v.isa, [&] { v.fn(p, a, b, out, count); });
  }
}

ETNS_KERNEL_BENCH(quantized_add, ds_cnn_64x25x5) { bench_add(bench, 64 * 25 * 5); }

// ResNet-8's three residual adds (ic).
ETNS_KERNEL_BENCH(quantized_add, ic_32x32x16) { bench_add(bench, 32 * 32 * 16); }
ETNS_KERNEL_BENCH(quantized_add, ic_16x16x32) { bench_add(bench, 16 * 16 * 32); }
ETNS_KERNEL_BENCH(quantized_add, ic_8x8x64) { bench_add(bench, 8 * 8 * 64); }

}  // namespace
}  // namespace etns::cortex_m
