// transpose as a model's layout change runs it: an NCHW [1, 64, 25, 5] block
// to NHWC (perm [0, 2, 3, 1]), every variant (kernel_bench.h).
#include "kernels/cortex_m/transpose/transpose.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::cortex_m {
namespace {

constexpr size_t kC = 64;
constexpr size_t kH = 25;
constexpr size_t kW = 5;
constexpr size_t kCount = kC * kH * kW;

// The plan prepare makes for this perm: out (h, w, c) reads input at
// h * W + w (merged into one dim of H * W) plus c * H * W.
ETNS_KERNEL_BENCH(transpose, nchw_to_nhwc_64x25x5) {
  TransposeParams p;
  p.plan.rank = 2;
  p.plan.sizes[0] = kH * kW;
  p.plan.self_strides[0] = 1;
  p.plan.sizes[1] = kC;
  p.plan.self_strides[1] = kH * kW;
  int8_t* input = ETNS_TEST_ARRAY(int8_t, kCount);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, kCount);
  kernels::testing::Rng rng(kCount);
  rng.fill_s8(input, kCount);
  bench.elements(kCount);
  for (const auto& v : kernels::kTransposeVariants) {
    bench.measure(v.isa, [&] { v.fn(p, input, out); });
  }
}

}  // namespace
}  // namespace etns::cortex_m
