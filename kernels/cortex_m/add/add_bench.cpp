// quantized_add on 1x64x25x5 + the same shape (DS-CNN's residual add), every
// variant (kernel_bench.h).
#include "kernels/cortex_m/add/add.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::cortex_m {
namespace {

ETNS_KERNEL_BENCH(quantized_add, ds_cnn_64x25x5) {
  constexpr size_t kCount = 64 * 25 * 5;
  AddParams p;
  p.a_zero_point = -12;
  p.b_zero_point = 5;
  p.out_zero_point = -7;
  p.a = {1518500250, -1};
  p.b = {1276901417, -1};
  p.out = {1660280573, -19};
  int8_t* a = ETNS_TEST_ARRAY(int8_t, kCount);
  int8_t* b = ETNS_TEST_ARRAY(int8_t, kCount);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, kCount);
  kernels::testing::Rng rng(kCount);
  rng.fill_s8(a, kCount);
  rng.fill_s8(b, kCount);
  for (const auto& v : kernels::kAddVariants) {
    bench.measure(v.isa, [&] { v.fn(p, a, b, out, kCount); });
  }
}

}  // namespace
}  // namespace etns::cortex_m
