// batch_matmul as an attention layer's Q.K^T runs it: 4 heads (batches) of
// [49, 32] x [49, 32]^T (a 7x7 token grid, head size 32); every variant
// (kernel_bench.h). 307,328 MACs.
#include "kernels/cortex_m/batch_matmul/batch_matmul.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::cortex_m {
namespace {

ETNS_KERNEL_BENCH(quantized_batch_matmul, attention_4x49x49x32) {
  BatchMatmulParams p;
  p.batches = 4;
  p.rows = 49;
  p.cols = 49;
  p.depth = 32;
  p.lhs_offset = 3;
  p.rhs_offset = -7;
  p.out_offset = -5;
  p.out.multiplier = 1518500250;
  p.out.shift = -9;
  const size_t lhs_n = 4 * 49 * 32;
  const size_t rhs_n = 4 * 49 * 32;
  int8_t* lhs = ETNS_TEST_ARRAY(int8_t, lhs_n);
  int8_t* rhs = ETNS_TEST_ARRAY(int8_t, rhs_n);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, 4 * 49 * 49);
  int32_t* scratch = ETNS_TEST_ARRAY(int32_t, batch_matmul_scratch_bytes(p) / sizeof(int32_t));
  kernels::testing::Rng rng(lhs_n);
  rng.fill_s8(lhs, lhs_n);
  rng.fill_s8(rhs, rhs_n);
  bench.macs(kernels::testing::work_of(p.batches, p.rows, p.cols, p.depth));
  for (const auto& v : kernels::kBatchMatmulVariants) {
    bench.measure(v.isa, [&] { v.fn(p, lhs, rhs, out, scratch); });
  }
}

}  // namespace
}  // namespace etns::cortex_m
