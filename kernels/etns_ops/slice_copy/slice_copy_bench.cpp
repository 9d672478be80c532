// slice_copy at the shapes the importer gives it: a channel window of a
// channels_last activation (SPLIT of a [1, 25, 5, 64] conv output into two
// halves along C: 32-byte runs, one per pixel) and a row window (SLICE of
// rows 2..23 of a [1, 25, 5, 64] tensor: one merged run); every variant
// (kernel_bench.h).
#include "kernels/etns_ops/slice_copy/slice_copy.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::etns_ops {
namespace {

constexpr size_t kSelfBytes = 25 * 5 * 64;

void bench_slice(kernels::testing::Bench& bench, const SliceCopyParams& p) {
  size_t out_count = 1;
  for (size_t k = 0; k < kSliceCopyMaxRank; ++k) out_count *= static_cast<size_t>(p.count[k]);
  uint8_t* self = ETNS_TEST_ARRAY(uint8_t, kSelfBytes);
  uint8_t* out = ETNS_TEST_ARRAY(uint8_t, out_count);
  kernels::testing::Rng rng(kSelfBytes);
  rng.fill_s8(reinterpret_cast<int8_t*>(self), kSelfBytes);
  bench.elements(out_count);  // the elements it writes
  for (const auto& v : kernels::kSliceCopyVariants) {
    bench.measure(v.isa, [&] { v.fn(p, self, out); });
  }
}

ETNS_KERNEL_BENCH(slice_copy, channel_half_25x5x64) {
  SliceCopyParams p;
  p.count[3] = 25 * 5;
  p.stride[3] = 64;
  p.count[4] = 32;
  p.stride[4] = 1;
  p.offset = 32;
  bench_slice(bench, p);
}

ETNS_KERNEL_BENCH(slice_copy, rows_22_of_25x5x64) {
  SliceCopyParams p;
  p.count[4] = 22 * 5 * 64;
  p.stride[4] = 1;
  p.offset = 2 * 5 * 64;
  bench_slice(bench, p);
}

}  // namespace
}  // namespace etns::etns_ops
