// gather at a shape the importer gives it: GATHER of 24 of the 64 rows of a
// [64, 96] int8 table (an embedding or channel selection, 96-byte rows);
// every variant (kernel_bench.h).
#include "kernels/etns_ops/gather/gather.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::etns_ops {
namespace {

ETNS_KERNEL_BENCH(gather, rows_24_of_64x96) {
  GatherParams p;
  p.batches = 1;
  p.outer = 1;
  p.axis_size = 64;
  p.coords = 24;
  p.inner_bytes = 96;
  const size_t self_bytes = 64 * 96;
  uint8_t* self = ETNS_TEST_ARRAY(uint8_t, self_bytes);
  uint8_t* out = ETNS_TEST_ARRAY(uint8_t, 24 * 96);
  int32_t* indices = ETNS_TEST_ARRAY(int32_t, 24);
  for (int32_t i = 0; i < 24; ++i) indices[i] = (i * 37 + 11) % 64;
  kernels::testing::Rng rng(self_bytes);
  rng.fill_s8(reinterpret_cast<int8_t*>(self), self_bytes);
  bench.elements(kernels::testing::work_of(p.batches, p.outer, p.coords, p.inner_bytes));  // written
  for (const auto& v : kernels::kGatherVariants) {
    bench.measure(v.isa, [&] { v.fn(p, indices, self, out); });
  }
}

}  // namespace
}  // namespace etns::etns_ops
