// Every compiled variant of quantized_hardswish against the reference, on the
// host and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include "kernels/cortex_m_ns/hardswish/hardswish.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/unary_checks.h"

namespace etns::cortex_m_ns {
namespace {

using kernels::kHardswishVariants;
using kernels::testing::Rng;

constexpr uint64_t kSeed = 0x68737769;  // "hswi"

// Any parameters prepare accepts, edges often; the table filled as prepare does.
HardswishParams random_params(Rng& rng) {
  HardswishParams p;
  p.in_zero_point = rng.uniform32(-128, 127);
  p.out_zero_point = rng.uniform32(-128, 127);
  const int32_t multipliers[] = {0, 1, 1 << 30, INT32_MAX, rng.uniform32(0, INT32_MAX)};
  const int32_t shifts[] = {-31, -1, 0, 1, 30, rng.uniform32(-31, 30)};
  p.out = {rng.pick(multipliers), rng.pick(shifts)};
  const int32_t q6s[] = {1, 2, 134, 1 << 22, rng.uniform32(1, 1 << 22)};
  p.relu_q6 = rng.pick(q6s);
  p.relu_q3 = rng.coin() ? p.relu_q6 / 2 : rng.uniform32(0, p.relu_q6);
  p.prescale = rng.coin() ? 0 : rng.uniform32(0, 31);
  hardswish_fill_table(p);
  return p;
}

// tier1_ns c0i2 (operators.md §3.1).
HardswishParams tier1_params() {
  HardswishParams p;
  p.in_zero_point = 3;
  p.out_zero_point = -113;
  p.out = {1890869522, -6};
  p.relu_q3 = 67;
  p.relu_q6 = 134;
  hardswish_fill_table(p);
  return p;
}

ETNS_KERNEL_TEST(HardswishVariants, AllCodesTier1) {
  kernels::testing::check_unary_all_codes(kHardswishVariants, tier1_params(), "tier1_ns c0i2");
}

ETNS_KERNEL_TEST(HardswishVariants, RandomParametersAndLengths) {
  kernels::testing::check_unary_random(kHardswishVariants, random_params, kSeed, 200);
}

ETNS_KERNEL_TEST(HardswishVariants, Tier1Size) {
  kernels::testing::check_unary_tier1_size(kHardswishVariants, tier1_params(), kSeed + 1);
}

}  // namespace
}  // namespace etns::cortex_m_ns
