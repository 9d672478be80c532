// Every compiled variant of minimum against the reference, on the host and on
// the Cortex-M55 (kernels/testing/broadcast_checks.h).
#include "kernels/cortex_m/minimum/minimum.h"
#include "kernels/testing/broadcast_checks.h"
#include "kernels/testing/kernel_test.h"

namespace etns::cortex_m {
namespace {

using namespace kernels::testing;

constexpr uint64_t kSeed = 0x6d696e696d756dull;  // "minimum"

ETNS_KERNEL_TEST(MinimumVariants, AllCodePairs) {
  check_broadcast_all_code_pairs(kernels::kMinimumVariants);
}

// tier1_arm c0i2's shape: x against a 0-dim constant, 16,384 bytes.
ETNS_KERNEL_TEST(MinimumVariants, Tier1Shape) {
  const size_t n = 16384;
  int8_t* x = ETNS_TEST_ARRAY(int8_t, n);
  Rng rng(kSeed);
  rng.fill_s8(x, n);
  const int8_t fifty = 50;
  check_broadcast_case(kernels::kMinimumVariants, flat_walk(n, 1, 0), x, &fifty, "x vs 50");
}

ETNS_KERNEL_TEST(MinimumVariants, LengthsAroundTheTile) {
  check_broadcast_lengths(kernels::kMinimumVariants, kSeed + 1);
}

ETNS_KERNEL_TEST(MinimumVariants, RandomBroadcasts) {
  check_broadcast_random(kernels::kMinimumVariants, kSeed + 2);
}

ETNS_KERNEL_TEST(MinimumVariants, MergedAndUnusualStrides) {
  check_broadcast_merged_and_unusual(kernels::kMinimumVariants, kSeed + 3);
}

}  // namespace
}  // namespace etns::cortex_m
