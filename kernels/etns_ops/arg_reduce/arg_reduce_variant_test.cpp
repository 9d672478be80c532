// Every compiled variant of etns_ops::arg_reduce against the reference, on
// the host and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include "kernels/etns_ops/arg_reduce/arg_reduce.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::etns_ops {
namespace {

using kernels::testing::Rng;

constexpr uint64_t kSeed = 0x61726772;  // "argr"

// lo..hi bounds the values: a narrow range makes ties common, so the first
// index of equal extremes is exercised.
void run_case(Rng& rng, const ArgReduceParams& p, int32_t lo, int32_t hi, const char* what) {
  const size_t count = static_cast<size_t>(p.outer) * static_cast<size_t>(p.axis_size) * static_cast<size_t>(p.inner);
  int8_t* self = ETNS_TEST_ARRAY(int8_t, count);
  for (size_t k = 0; k < count; ++k) self[k] = static_cast<int8_t>(rng.uniform(lo, hi));
  const size_t out_bytes = static_cast<size_t>(p.outer) * static_cast<size_t>(p.inner) * sizeof(int32_t);
  ETNS_CHECK_VARIANTS(
      kernels::kArgReduceVariants, out_bytes,
      [&](ArgReduceFn fn, void* out) { fn(p, self, static_cast<int32_t*>(out)); },
      "%s, o %d, a %d, i %d, is_min %d, values [%d, %d]", what, static_cast<int>(p.outer),
      static_cast<int>(p.axis_size), static_cast<int>(p.inner), static_cast<int>(p.is_min), static_cast<int>(lo),
      static_cast<int>(hi));
}

ETNS_KERNEL_TEST(ArgReduceVariants, RandomShapes) {
  Rng rng(kSeed);
  for (int trial = 0; trial < 200; ++trial) {
    kernels::testing::TestMemoryScope scope;
    ArgReduceParams p;
    p.outer = static_cast<int32_t>(rng.uniform(1, 4));
    p.axis_size = static_cast<int32_t>(rng.uniform(1, 70));
    p.inner = trial % 2 == 0 ? 1 : static_cast<int32_t>(rng.uniform(1, 9));
    p.is_min = static_cast<int32_t>(trial % 4 < 2 ? 0 : 1);
    const bool narrow = trial % 3 == 0;
    run_case(rng, p, narrow ? -2 : -128, narrow ? 1 : 127, "random");
    ETNS_RETURN_IF_FAILED();
  }
}

// Every row length of the tile lengths (tail predication on each
// remainder), with the extremes -128 and 127 and all-equal rows.
ETNS_KERNEL_TEST(ArgReduceVariants, EveryRowLength) {
  Rng rng(kSeed + 1);
  for (const size_t n : kernels::testing::kTileLengths) {
    if (n == 0) continue;  // the reduced dim holds at least one value
    for (int32_t is_min = 0; is_min < 2; ++is_min) {
      kernels::testing::TestMemoryScope scope;
      ArgReduceParams p;
      p.outer = 3;
      p.axis_size = static_cast<int32_t>(n);
      p.inner = 1;
      p.is_min = is_min;
      run_case(rng, p, -128, 127, "row length, full range");
      run_case(rng, p, 127, 127, "row length, all 127");
      run_case(rng, p, -128, -128, "row length, all -128");
      run_case(rng, p, -1, 0, "row length, two values");
      ETNS_RETURN_IF_FAILED();
    }
  }
}

}  // namespace
}  // namespace etns::etns_ops
