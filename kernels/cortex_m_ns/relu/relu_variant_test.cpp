// Every compiled variant of quantized_relu against the reference, on the host
// and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include "kernels/cortex_m_ns/relu/relu.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/unary_checks.h"

namespace etns::cortex_m_ns {
namespace {

using kernels::kReluVariants;
using kernels::testing::Rng;

constexpr uint64_t kSeed = 0x72656c75;  // "relu"

// Any parameters prepare accepts, on either path, edges often; the table
// filled as prepare does.
ReluParams random_params(Rng& rng) {
  ReluParams p;
  p.in_zero_point = rng.uniform32(-128, 127);
  p.out_zero_point = rng.uniform32(-128, 127);
  const int32_t multipliers[] = {0, 1, 1 << 30, INT32_MAX, rng.uniform32(0, INT32_MAX)};
  const int32_t shifts[] = {-31, -1, 0, 1, 30, rng.uniform32(-31, 30)};
  p.out = {rng.pick(multipliers), rng.pick(shifts)};
  p.act_min = rng.uniform32(-128, 127);
  p.act_max = rng.coin() ? 127 : rng.uniform32(p.act_min, 127);
  if (rng.coin()) {
    p.identity = true;
    p.out = kIdentityRequant;
    p.out_zero_point = p.in_zero_point;
  }
  relu_fill_table(p);
  return p;
}

// tier1_ns c0i6 (operators.md §3.4).
ReluParams tier1_params() {
  ReluParams p;
  p.in_zero_point = 4;
  p.out_zero_point = -128;
  p.out = {1109119514, 2};
  relu_fill_table(p);
  return p;
}

// relu6 on shared qparams: the identity (plain clamp) path.
ReluParams identity_clamp_params() {
  ReluParams p;
  p.in_zero_point = p.out_zero_point = -5;
  p.out = kIdentityRequant;
  p.identity = true;
  p.act_min = -5;
  p.act_max = 90;
  relu_fill_table(p);
  return p;
}

ETNS_KERNEL_TEST(ReluVariants, AllCodesTier1AndIdentityClamp) {
  kernels::testing::check_unary_all_codes(kReluVariants, tier1_params(), "tier1_ns c0i6");
  ETNS_RETURN_IF_FAILED();
  kernels::testing::check_unary_all_codes(kReluVariants, identity_clamp_params(), "clamp");
}

ETNS_KERNEL_TEST(ReluVariants, RandomParametersAndLengths) {
  kernels::testing::check_unary_random(kReluVariants, random_params, kSeed, 200);
}

// The identity path aligns its stores and overlaps its first and last vectors.
ETNS_KERNEL_TEST(ReluVariants, OutputOffsetsAndInPlace) {
  kernels::testing::check_unary_layouts(kReluVariants, identity_clamp_params(), kSeed + 3);
  ETNS_RETURN_IF_FAILED();
  kernels::testing::check_unary_layouts(kReluVariants, tier1_params(), kSeed + 4);
}

ETNS_KERNEL_TEST(ReluVariants, Tier1Size) {
  kernels::testing::check_unary_tier1_size(kReluVariants, tier1_params(), kSeed + 1);
  ETNS_RETURN_IF_FAILED();
  kernels::testing::check_unary_tier1_size(kReluVariants, identity_clamp_params(), kSeed + 2);
}

}  // namespace
}  // namespace etns::cortex_m_ns
