// channel_lookup at the shape the importer gives it: a per-channel PRELU on
// a [1, 16, 16, 32] activation (32 tables); every variant (kernel_bench.h).
#include "kernels/etns_ops/channel_lookup/channel_lookup.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::etns_ops {
namespace {

ETNS_KERNEL_BENCH(channel_lookup, prelu_16x16x32) {
  const ChannelLookupParams p{16 * 16, 32};
  const size_t n = 16 * 16 * 32;
  int8_t* in = ETNS_TEST_ARRAY(int8_t, n);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, n);
  int8_t* tables = ETNS_TEST_ARRAY(int8_t, 32 * kChannelLookupEntries);
  kernels::testing::Rng rng(n);
  rng.fill_s8(in, n);
  rng.fill_s8(tables, 32 * kChannelLookupEntries);
  bench.elements(n);
  for (const auto& v : kernels::kChannelLookupVariants) {
    bench.measure(v.isa, [&] { v.fn(p, tables, in, out); });
  }
}

}  // namespace
}  // namespace etns::etns_ops
