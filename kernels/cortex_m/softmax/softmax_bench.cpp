// softmax over a 12-class head (1x12) and four rows of 256 (4x256), with the
// exporter's parameters for input scale 1/16 (beta 1), every variant
// (kernel_bench.h).
#include "kernels/cortex_m/softmax/softmax.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::cortex_m {
namespace {

void bench_softmax(kernels::testing::Bench& bench, int32_t rows, int32_t row_size) {
  SoftmaxParams* p = ETNS_TEST_ARRAY(SoftmaxParams, 1);
  // 2^-4 * 2^26 = 2^22: multiplier 2^30, shift 23; diff_min = -floor(31 * 2^3).
  softmax_init_params(*p, rows, row_size, int32_t{1} << 30, 23, -248);
  const size_t bytes = static_cast<size_t>(rows) * static_cast<size_t>(row_size);
  int8_t* input = ETNS_TEST_ARRAY(int8_t, bytes);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, bytes);
  kernels::testing::Rng rng(bytes);
  rng.fill_s8(input, bytes);
  bench.elements(bytes);
  for (const auto& v : kernels::kSoftmaxVariants) {
    bench.measure(v.isa, [&] { v.fn(*p, input, out); });
  }
}

ETNS_KERNEL_BENCH(softmax, 1x12) { bench_softmax(bench, 1, 12); }

ETNS_KERNEL_BENCH(softmax, 4x256) { bench_softmax(bench, 4, 256); }

// The MLPerf Tiny heads: ic's 10 classes and vww's 2 (kws's 12 is above).
ETNS_KERNEL_BENCH(softmax, ic_1x10) { bench_softmax(bench, 1, 10); }
ETNS_KERNEL_BENCH(softmax, vww_1x2) { bench_softmax(bench, 1, 2); }

}  // namespace
}  // namespace etns::cortex_m
