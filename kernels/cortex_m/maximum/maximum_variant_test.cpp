// Every compiled variant of maximum against the reference, on the host and on
// the Cortex-M55 (kernels/testing/broadcast_checks.h).
#include "kernels/cortex_m/maximum/maximum.h"
#include "kernels/testing/broadcast_checks.h"
#include "kernels/testing/kernel_test.h"

namespace etns::cortex_m {
namespace {

using namespace kernels::testing;

constexpr uint64_t kSeed = 0x6d6178696d756dull;  // "maximum"

ETNS_KERNEL_TEST(MaximumVariants, AllCodePairs) {
  check_broadcast_all_code_pairs(kernels::kMaximumVariants);
}

// tier1_arm c0i2's shape: x against a 0-dim constant, 16,384 bytes.
ETNS_KERNEL_TEST(MaximumVariants, Tier1Shape) {
  const size_t n = 16384;
  int8_t* x = ETNS_TEST_ARRAY(int8_t, n);
  Rng rng(kSeed);
  rng.fill_s8(x, n);
  const int8_t fifty = 50;
  check_broadcast_case(kernels::kMaximumVariants, flat_walk(n, 1, 0), x, &fifty, "x vs 50");
}

ETNS_KERNEL_TEST(MaximumVariants, LengthsAroundTheTile) {
  check_broadcast_lengths(kernels::kMaximumVariants, kSeed + 1);
}

ETNS_KERNEL_TEST(MaximumVariants, RandomBroadcasts) {
  check_broadcast_random(kernels::kMaximumVariants, kSeed + 2);
}

ETNS_KERNEL_TEST(MaximumVariants, MergedAndUnusualStrides) {
  check_broadcast_merged_and_unusual(kernels::kMaximumVariants, kSeed + 3);
}

}  // namespace
}  // namespace etns::cortex_m
