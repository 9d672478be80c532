// arg_reduce at shapes an importer gives it: ARG_MAX over the 1000 classes of
// a [1, 1000] score row (contiguous), and over the 12 channels' rows of a
// [12, 64] tensor reduced on dim 0 (strided); every variant (kernel_bench.h).
#include "kernels/etns_ops/arg_reduce/arg_reduce.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::etns_ops {
namespace {

ETNS_KERNEL_BENCH(arg_reduce, argmax_1x1000) {
  ArgReduceParams p;
  p.outer = 1;
  p.axis_size = 1000;
  p.inner = 1;
  int8_t* self = ETNS_TEST_ARRAY(int8_t, 1000);
  int32_t* out = ETNS_TEST_ARRAY(int32_t, 1);
  kernels::testing::Rng rng(1000);
  rng.fill_s8(self, 1000);
  bench.elements(kernels::testing::work_of(p.outer, p.axis_size, p.inner));  // the elements it reads
  for (const auto& v : kernels::kArgReduceVariants) {
    bench.measure(v.isa, [&] { v.fn(p, self, out); });
  }
}

ETNS_KERNEL_BENCH(arg_reduce, argmax_12x64_dim0) {
  ArgReduceParams p;
  p.outer = 1;
  p.axis_size = 12;
  p.inner = 64;
  int8_t* self = ETNS_TEST_ARRAY(int8_t, 12 * 64);
  int32_t* out = ETNS_TEST_ARRAY(int32_t, 64);
  kernels::testing::Rng rng(12 * 64);
  rng.fill_s8(self, 12 * 64);
  bench.elements(kernels::testing::work_of(p.outer, p.axis_size, p.inner));  // the elements it reads
  for (const auto& v : kernels::kArgReduceVariants) {
    bench.measure(v.isa, [&] { v.fn(p, self, out); });
  }
}

}  // namespace
}  // namespace etns::etns_ops
