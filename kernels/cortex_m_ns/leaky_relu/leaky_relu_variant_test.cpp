// Every compiled variant of quantized_leaky_relu against the reference, on the
// host and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include "kernels/cortex_m_ns/leaky_relu/leaky_relu.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/unary_checks.h"

namespace etns::cortex_m_ns {
namespace {

using kernels::kLeakyReluVariants;
using kernels::testing::Rng;

constexpr uint64_t kSeed = 0x6c65616b;  // "leak"

kernels::Requant random_requant(Rng& rng) {
  const int32_t multipliers[] = {0, 1, 1 << 30, INT32_MAX, rng.uniform32(0, INT32_MAX)};
  const int32_t shifts[] = {-31, -1, 0, 1, 30, rng.uniform32(-31, 30)};
  return {rng.pick(multipliers), rng.pick(shifts)};
}

// Any parameters prepare accepts, edges often; the table filled as prepare does.
LeakyReluParams random_params(Rng& rng) {
  LeakyReluParams p;
  p.in_zero_point = rng.uniform32(-128, 127);
  p.out_zero_point = rng.uniform32(-128, 127);
  p.alpha = random_requant(rng);
  p.identity = random_requant(rng);
  leaky_relu_fill_table(p);
  return p;
}

// tier1_ns c0i4 (operators.md §3.2).
LeakyReluParams tier1_params() {
  LeakyReluParams p;
  p.in_zero_point = 0;
  p.out_zero_point = -100;
  p.alpha = {1861133219, -2};
  p.identity = {1861133219, 1};
  leaky_relu_fill_table(p);
  return p;
}

ETNS_KERNEL_TEST(LeakyReluVariants, AllCodesTier1) {
  kernels::testing::check_unary_all_codes(kLeakyReluVariants, tier1_params(), "tier1_ns c0i4");
}

ETNS_KERNEL_TEST(LeakyReluVariants, RandomParametersAndLengths) {
  kernels::testing::check_unary_random(kLeakyReluVariants, random_params, kSeed, 200);
}

ETNS_KERNEL_TEST(LeakyReluVariants, Tier1Size) {
  kernels::testing::check_unary_tier1_size(kLeakyReluVariants, tier1_params(), kSeed + 1);
}

}  // namespace
}  // namespace etns::cortex_m_ns
