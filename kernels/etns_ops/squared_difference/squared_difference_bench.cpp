// squared_difference at the shapes the importer gives it: two [1, 16, 16, 32]
// activations (one flat row), and the same activation against its [32]
// per-channel mean (a row broadcast); every variant (kernel_bench.h).
#include "kernels/etns_ops/squared_difference/squared_difference.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::etns_ops {
namespace {

// Inputs on one scale (factors 1/2), out on a finer one.
SquaredDifferenceParams bench_params() {
  SquaredDifferenceParams p;
  p.self_offset = 3;
  p.self_multiplier = int32_t{1} << 30;
  p.other_offset = -5;
  p.other_multiplier = int32_t{1} << 30;
  p.out_zero_point = -128;
  p.out_multiplier = 1374389535;
  p.out_shift = -12;
  return p;
}

void bench_walk(kernels::testing::Bench& bench, const SquaredDifferenceParams& p, size_t other_count) {
  const size_t n = 16 * 16 * 32;
  int8_t* self = ETNS_TEST_ARRAY(int8_t, n);
  int8_t* other = ETNS_TEST_ARRAY(int8_t, other_count);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, n);
  kernels::testing::Rng rng(n + other_count);
  rng.fill_s8(self, n);
  rng.fill_s8(other, other_count);
  bench.elements(n);
  for (const auto& v : kernels::kSquaredDifferenceVariants) {
    bench.measure(v.isa, [&] { v.fn(p, self, other, out); });
  }
}

ETNS_KERNEL_BENCH(squared_difference, same_16x16x32) {
  SquaredDifferenceParams p = bench_params();
  p.dims[3] = 16 * 16 * 32;
  p.self_strides[3] = 1;
  p.other_strides[3] = 1;
  bench_walk(bench, p, 16 * 16 * 32);
}

ETNS_KERNEL_BENCH(squared_difference, channels_16x16x32) {
  SquaredDifferenceParams p = bench_params();
  p.dims[2] = 16 * 16;
  p.dims[3] = 32;
  p.self_strides[2] = 32;
  p.self_strides[3] = 1;
  p.other_strides[3] = 1;
  bench_walk(bench, p, 32);
}

}  // namespace
}  // namespace etns::etns_ops
