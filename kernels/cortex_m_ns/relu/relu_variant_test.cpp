// Every compiled variant of quantized_relu against the reference, on the host
// and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include "kernels/cortex_m_ns/relu/relu.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"
#include "kernels/variants.h"

namespace etns::cortex_m_ns {
namespace {

using kernels::testing::kTileLengths;
using kernels::testing::Rng;

constexpr uint64_t kSeed = 0x72656c75;  // "relu"

// Any parameters prepare accepts, on either path; table filled as prepare does.
ReluParams random_params(Rng& rng) {
  ReluParams p;
  p.in_zero_point = rng.uniform32(-128, 127);
  p.out_zero_point = rng.uniform32(-128, 127);
  const int32_t multipliers[] = {0, 1, 1 << 30, INT32_MAX, rng.uniform32(0, INT32_MAX)};
  const int32_t shifts[] = {-31, -1, 0, 1, 30, rng.uniform32(-31, 30)};
  p.out = {rng.pick(multipliers), rng.pick(shifts)};
  p.act_min = rng.uniform32(-128, 127);
  p.act_max = rng.uniform32(p.act_min, 127);
  if (rng.coin()) {
    p.identity = true;
    p.out = kIdentityRequant;
    p.out_zero_point = p.in_zero_point;
  }
  relu_fill_table(p);
  return p;
}

void check_case(const ReluParams& p, const int8_t* in, size_t n, const char* what) {
  ETNS_CHECK_VARIANTS(
      kernels::kReluVariants, n,
      [&](ReluFn fn, void* out) { fn(p, in, static_cast<int8_t*>(out), n); },
      "%s, n %zu, zp %d -> %d, (%d, %d), act [%d, %d], %s", what, n,
      static_cast<int>(p.in_zero_point), static_cast<int>(p.out_zero_point),
      static_cast<int>(p.out.multiplier), static_cast<int>(p.out.shift),
      static_cast<int>(p.act_min), static_cast<int>(p.act_max),
      p.identity ? "identity" : "requantising");
}

// tier1_ns c0i6 (operators.md §3.4) and a plain relu6-style identity clamp.
ReluParams tier1_params() {
  ReluParams p;
  p.in_zero_point = 4;
  p.out_zero_point = -128;
  p.out = {1109119514, 2};
  relu_fill_table(p);
  return p;
}

ETNS_KERNEL_TEST(ReluVariants, AllCodesTier1AndIdentity) {
  int8_t codes[256];
  kernels::byte_table_inputs(codes);
  check_case(tier1_params(), codes, 256, "tier1_ns c0i6");
  ETNS_RETURN_IF_FAILED();
  ReluParams clamp;
  clamp.in_zero_point = clamp.out_zero_point = -5;
  clamp.out = kIdentityRequant;
  clamp.identity = true;
  clamp.act_min = -5;
  clamp.act_max = 90;
  relu_fill_table(clamp);
  check_case(clamp, codes, 256, "identity clamp");
}

ETNS_KERNEL_TEST(ReluVariants, AllCodesRandomParams) {
  Rng rng(kSeed);
  int8_t codes[256];
  kernels::byte_table_inputs(codes);
  for (int i = 0; i < 200; ++i) {
    check_case(random_params(rng), codes, 256, "all codes");
    ETNS_RETURN_IF_FAILED();
  }
}

ETNS_KERNEL_TEST(ReluVariants, LengthsAroundTheTile) {
  Rng rng(kSeed + 1);
  for (size_t n : kTileLengths) {
    kernels::testing::TestMemoryScope scope;
    int8_t* in = ETNS_TEST_ARRAY(int8_t, n + 1);
    rng.fill_s8(in, n);
    check_case(random_params(rng), in, n, "random input");
    ETNS_RETURN_IF_FAILED();
    // Misaligned buffers: one byte in.
    check_case(random_params(rng), in + 1, n, "misaligned input");
    ETNS_RETURN_IF_FAILED();
  }
}

ETNS_KERNEL_TEST(ReluVariants, Tier1Size) {
  const size_t n = 16384;  // 1x16x32x32
  int8_t* in = ETNS_TEST_ARRAY(int8_t, n);
  Rng rng(kSeed + 2);
  rng.fill_s8(in, n);
  check_case(tier1_params(), in, n, "tier1 shape");
}

}  // namespace
}  // namespace etns::cortex_m_ns
