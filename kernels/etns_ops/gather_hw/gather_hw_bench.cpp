// gather_hw at the shape the importer gives it: RESIZE_NEAREST_NEIGHBOR
// doubling a [1, 12, 12, 32] activation to [1, 24, 24, 32] (every source row
// twice); every variant (kernel_bench.h).
#include "kernels/etns_ops/gather_hw/gather_hw.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::etns_ops {
namespace {

ETNS_KERNEL_BENCH(gather_hw, upsample2x_12x12x32) {
  GatherHwParams p;
  p.batches = 1;
  p.channels = 32;
  p.in_h = p.in_w = 12;
  p.out_h = p.out_w = 24;
  const size_t self_bytes = 12 * 12 * 32;
  int8_t* self = ETNS_TEST_ARRAY(int8_t, self_bytes);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, 24 * 24 * 32);
  int32_t* rows = ETNS_TEST_ARRAY(int32_t, 24);
  int32_t* cols = ETNS_TEST_ARRAY(int32_t, 24);
  for (int32_t i = 0; i < 24; ++i) rows[i] = cols[i] = i / 2;
  kernels::testing::Rng rng(self_bytes);
  rng.fill_s8(self, self_bytes);
  bench.elements(kernels::testing::work_of(p.batches, p.out_h, p.out_w, p.channels));  // written
  for (const auto& v : kernels::kGatherHwVariants) {
    bench.measure(v.isa, [&] { v.fn(p, rows, cols, self, out); });
  }
}

}  // namespace
}  // namespace etns::etns_ops
