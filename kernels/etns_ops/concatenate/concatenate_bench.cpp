// concatenate at the shapes the importer gives it: two [1, 25, 5, 32]
// channels_last activations joined along C (125 rows of two 32-byte runs),
// and four [1, 6, 5, 64] along H (one 1,920-byte run each); every variant
// (kernel_bench.h).
#include "kernels/etns_ops/concatenate/concatenate.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::etns_ops {
namespace {

void bench_join(kernels::testing::Bench& bench, const ConcatenateParams& p) {
  const uint8_t* inputs[kConcatenateMaxInputs] = {};
  size_t total = 0;
  kernels::testing::Rng rng(static_cast<uint64_t>(p.outer));
  for (int32_t i = 0; i < p.count; ++i) {
    const size_t n = static_cast<size_t>(p.outer) * static_cast<size_t>(p.row_bytes[i]);
    uint8_t* x = ETNS_TEST_ARRAY(uint8_t, n);
    rng.fill_s8(reinterpret_cast<int8_t*>(x), n);
    inputs[i] = x;
    total += n;
  }
  uint8_t* out = ETNS_TEST_ARRAY(uint8_t, total);
  bench.elements(total);  // the elements it writes
  for (const auto& v : kernels::kConcatenateVariants) {
    bench.measure(v.isa, [&] { v.fn(p, inputs, out); });
  }
}

ETNS_KERNEL_BENCH(concatenate, channels_2x32_25x5) {
  ConcatenateParams p;
  p.outer = 25 * 5;
  p.count = 2;
  p.row_bytes[0] = p.row_bytes[1] = 32;
  bench_join(bench, p);
}

ETNS_KERNEL_BENCH(concatenate, rows_4x6_5x64) {
  ConcatenateParams p;
  p.outer = 1;
  p.count = 4;
  for (int32_t i = 0; i < 4; ++i) p.row_bytes[i] = 6 * 5 * 64;
  bench_join(bench, p);
}

}  // namespace
}  // namespace etns::etns_ops
