// etns_ops::lookup_table on an 8x8x64 activation (4,096 codes, an imported
// LEAKY_RELU's shape in a small convolutional model), every variant
// (kernels/testing/kernel_bench.h: counted on the M55 by `etns bench`, timed
// on the host).
#include "kernels/etns_ops/lookup_table/lookup_table.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::etns_ops {
namespace {

ETNS_KERNEL_BENCH(lookup_table, nhwc_8x8x64) {
  constexpr size_t kCount = 8 * 8 * 64;
  int8_t* in = ETNS_TEST_ARRAY(int8_t, kCount);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, kCount);
  kernels::testing::Rng rng(kCount);
  rng.fill_s8(in, kCount);
  LookupTableParams p;
  rng.fill_s8(p.table.values, kLookupTableEntries);
  bench.elements(kCount);
  for (const auto& v : kernels::kLookupTableVariants) {
    bench.measure(v.isa, [&] { v.fn(p, in, out, kCount); });
  }
}

}  // namespace
}  // namespace etns::etns_ops
