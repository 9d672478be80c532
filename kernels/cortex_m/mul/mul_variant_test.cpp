// Every compiled variant of quantized_mul against the reference, on the host
// and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include <cmath>
#include <cstring>

#include "kernels/cortex_m/mul/mul.h"
#include "kernels/testing/binary_variant_checks.h"
#include "kernels/testing/kernel_args.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"
#include "runtime/core/arena.h"

namespace etns::cortex_m {
namespace {

using kernels::Requant;
using kernels::testing::all_code_pairs;
using kernels::testing::CodePairs;
using kernels::testing::kTileLengths;
using kernels::testing::quantized_multiplier;
using kernels::testing::Rng;
using kernels::testing::set_int;
using kernels::testing::set_s8_tensor;
using kernels::testing::Shape4d;
using kernels::testing::TestMemoryScope;

constexpr uint64_t kSeed = 0x6d756c76;  // "mulv"
constexpr size_t kPairs = kernels::testing::kCodePairs;

// tier1_arm c0i3 (operators.md §2.5).
MulParams tier1_params() {
  MulParams p;
  p.a_zero_point = -39;
  p.b_zero_point = -128;
  p.out_zero_point = -113;
  p.out = {1084628855, -6};
  return p;
}

// Anything prepare accepts. Half the sets scale the product into the output
// range (factor s_a * s_b / s_out, power-of-two factors giving exact ties);
// the others favour the edges: multipliers 0, 1, 2^30, INT32_MAX, shifts -31,
// -1, 0, 1, 30 (with their wrapping left shifts), zero points at the ends.
MulParams random_params(Rng& rng) {
  const int32_t zero_points[] = {-128, 127, 0, rng.uniform32(-128, 127), rng.uniform32(-128, 127)};
  MulParams p;
  p.a_zero_point = rng.pick(zero_points);
  p.b_zero_point = rng.pick(zero_points);
  p.out_zero_point = rng.pick(zero_points);
  if (rng.coin()) {
    const double factor = (rng.uniform(0, 3) == 0 ? 1.0 : 1.0 + rng.unit()) *
                          std::ldexp(1.0, static_cast<int>(rng.uniform(-16, 0)));
    p.out = quantized_multiplier(factor);
  } else {
    const int32_t multipliers[] = {0,         1, int32_t{1} << 30, INT32_MAX,
                                   rng.uniform32(0, INT32_MAX), rng.uniform32(1 << 30, INT32_MAX)};
    const int32_t shifts[] = {-31, -1, 0, 1, 30, rng.uniform32(-31, 30), rng.uniform32(-16, 0)};
    p.out = {rng.pick(multipliers), rng.pick(shifts)};
  }
  return p;
}

using Layout = kernels::testing::BufferLayout;

void check_case(const MulParams& p, const int8_t* a, const int8_t* b, size_t n, const char* what,
                Layout layout = Layout::Aligned) {
  ETNS_CHECK_BINARY_VARIANTS(
      kernels::kMulVariants, p, a, b, n, layout,
      "%s, n %zu, zp %d %d -> %d, (%d, %d), b channels %zu", what, n,
      static_cast<int>(p.a_zero_point), static_cast<int>(p.b_zero_point),
      static_cast<int>(p.out_zero_point), static_cast<int>(p.out.multiplier),
      static_cast<int>(p.out.shift), p.b_channels);
}

ETNS_KERNEL_TEST(MulVariants, AllPairsTier1AndTableCrc) {
  const CodePairs pairs = all_code_pairs();
  const MulParams p = tier1_params();
  check_case(p, pairs.self, pairs.other, kPairs, "tier1_arm c0i3, all pairs");
  ETNS_RETURN_IF_FAILED();
  kernels::testing::check_table_crc(kernels::kMulVariants, p, pairs, 0x653e1013u);
}

ETNS_KERNEL_TEST(MulVariants, AllPairsRandomParams) {
  const CodePairs pairs = all_code_pairs();
  Rng rng(kSeed);
  for (int i = 0; i < 24; ++i) {
    check_case(random_params(rng), pairs.self, pairs.other, kPairs, "all pairs");
    ETNS_RETURN_IF_FAILED();
  }
}

// Every shift prepare accepts, each with the edge multipliers, on all pairs
// of a few rows: the shift picks the rounding path (S < 0) or the wrapping
// left shift and wrapping zero-point add (S >= 0).
ETNS_KERNEL_TEST(MulVariants, EveryShiftEdgeMultipliers) {
  const size_t n = 4 * 256;
  int8_t* a = ETNS_TEST_ARRAY(int8_t, n);
  int8_t* b = ETNS_TEST_ARRAY(int8_t, n);
  const int8_t rows[] = {-128, -1, 1, 127};
  for (size_t i = 0; i < n; ++i) {
    a[i] = rows[i / 256];
    b[i] = static_cast<int8_t>(static_cast<int>(i % 256) - 128);
  }
  const int32_t multipliers[] = {0, 1, int32_t{1} << 30, 1084628855, INT32_MAX};
  Rng rng(kSeed + 1);
  for (int32_t shift = -31; shift <= 30; ++shift) {
    for (int32_t multiplier : multipliers) {
      MulParams p;
      p.a_zero_point = rng.coin() ? -128 : 127;
      p.b_zero_point = rng.uniform32(-128, 127);
      p.out_zero_point = rng.coin() ? -128 : 127;
      p.out = {multiplier, shift};
      check_case(p, a, b, n, "edge multiplier");
      ETNS_RETURN_IF_FAILED();
    }
  }
}

ETNS_KERNEL_TEST(MulVariants, ManyParamsRandomPairs) {
  const size_t n = 1024;
  int8_t* a = ETNS_TEST_ARRAY(int8_t, n);
  int8_t* b = ETNS_TEST_ARRAY(int8_t, n);
  Rng rng(kSeed + 2);
  for (int i = 0; i < 400; ++i) {
    rng.fill_s8(a, n);
    rng.fill_s8(b, n);
    check_case(random_params(rng), a, b, n, "random pairs");
    ETNS_RETURN_IF_FAILED();
  }
}

ETNS_KERNEL_TEST(MulVariants, LengthsAroundTheTile) {
  Rng rng(kSeed + 3);
  for (size_t n : kTileLengths) {
    TestMemoryScope scope;
    int8_t* a = ETNS_TEST_ARRAY(int8_t, n + 1);
    int8_t* b = ETNS_TEST_ARRAY(int8_t, n + 1);
    rng.fill_s8(a, n + 1);
    rng.fill_s8(b, n + 1);
    check_case(random_params(rng), a, b, n, "random input");
    ETNS_RETURN_IF_FAILED();
    check_case(random_params(rng), a + 1, b + 1, n, "misaligned", Layout::Misaligned);
    ETNS_RETURN_IF_FAILED();
    check_case(random_params(rng), a, b + 1, n, "in place", Layout::InPlace);
    ETNS_RETURN_IF_FAILED();
  }
}

// The channel broadcast inside the kernel: b holds C values repeated for
// every pixel of a, with small C around the lane tile.
ETNS_KERNEL_TEST(MulVariants, ChannelBroadcastSmallBlocks) {
  Rng rng(kSeed + 4);
  for (size_t channels : {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17}) {
    TestMemoryScope scope;
    const size_t n = channels * 11;
    int8_t* a = ETNS_TEST_ARRAY(int8_t, n);
    int8_t* b = ETNS_TEST_ARRAY(int8_t, channels);
    rng.fill_s8(a, n);
    rng.fill_s8(b, channels);
    MulParams p = random_params(rng);
    p.b_channels = channels;
    check_case(p, a, b, n, "channel broadcast");
    ETNS_RETURN_IF_FAILED();
    p = tier1_params();
    p.b_channels = channels;
    check_case(p, a, b, n, "tier1 channel broadcast");
    ETNS_RETURN_IF_FAILED();
  }
}

ETNS_KERNEL_TEST(MulVariants, Tier1Size) {
  const size_t n = 16384;  // 1x16x32x32
  int8_t* a = ETNS_TEST_ARRAY(int8_t, n);
  int8_t* b = ETNS_TEST_ARRAY(int8_t, n);
  Rng rng(kSeed + 5);
  rng.fill_s8(a, n);
  rng.fill_s8(b, n);
  check_case(tier1_params(), a, b, n, "tier1 shape");
}

// The front door: mul_prepare and mul_run (the build's fastest variant) on a
// channel broadcast with either operand small, against the reference on the
// expanded operands.
// p.a_zero_point is self's, p.b_zero_point other's.
void check_broadcast(const MulParams& p, size_t channels, size_t pixels, bool self_small,
                     Rng& rng) {
  TestMemoryScope scope;
  const size_t n = channels * pixels;
  int8_t* small = ETNS_TEST_ARRAY(int8_t, channels);
  int8_t* big = ETNS_TEST_ARRAY(int8_t, n);
  int8_t* got = ETNS_TEST_ARRAY(int8_t, n);
  int8_t* want = ETNS_TEST_ARRAY(int8_t, n);
  int8_t* expanded = ETNS_TEST_ARRAY(int8_t, n);
  rng.fill_s8(small, channels);
  rng.fill_s8(big, n);
  for (size_t i = 0; i < n; ++i) expanded[i] = small[i % channels];
  mul_s8_ref(p, self_small ? expanded : big, self_small ? big : expanded, want, n);

  const int32_t c = static_cast<int32_t>(channels);
  Shape4d small_shape{{1, c, 1, 1}, {0, 1, 2, 3}};
  Shape4d big_shape{{1, c, 1, static_cast<int32_t>(pixels)}, {0, 2, 3, 1}};
  Shape4d out_shape = big_shape;
  constexpr const runtime::OperatorContract& k = kMulContract;
  runtime::EValue values[k.count];
  set_s8_tensor(values[k.arg("self").index], self_small ? small_shape : big_shape,
                self_small ? small : big);
  set_int(values[k.arg("self_zero_point").index], p.a_zero_point);
  set_s8_tensor(values[k.arg("other").index], self_small ? big_shape : small_shape,
                self_small ? big : small);
  set_int(values[k.arg("other_zero_point").index], p.b_zero_point);
  set_int(values[k.arg("output_zero_point").index], p.out_zero_point);
  set_int(values[k.arg("output_multiplier").index], p.out.multiplier);
  set_int(values[k.arg("output_shift").index], p.out.shift);
  set_s8_tensor(values[k.out().index], out_shape, got);
  runtime::EValue* args[k.count + 1];
  for (size_t i = 0; i < k.count; ++i) args[i] = &values[i];
  args[k.count] = &values[k.out().index];  // the program's return slot

  uint8_t* method_memory = ETNS_TEST_ARRAY(uint8_t, 256);
  runtime::Arena method("method", runtime::Span<uint8_t>(method_memory, 256));
  runtime::PrepareContext prepare("c0i0", k.name, k,
                                  runtime::Span<runtime::EValue* const>(args, k.count + 1), method);
  ETNS_CHECK(prepare.check_arguments() == runtime::Error::Ok, "contract check failed, C %zu",
             channels);
  ETNS_CHECK(mul_prepare(prepare) == runtime::Error::Ok, "prepare failed, C %zu", channels);
  const runtime::RunContext run{runtime::Span<runtime::EValue* const>(args, k.count + 1),
                                prepare.state(), {}};
  ETNS_CHECK(mul_run(run) == runtime::Error::Ok, "run failed, C %zu", channels);
  for (size_t i = 0; i < n; ++i) {
    ETNS_CHECK(got[i] == want[i], "%s small, C %zu, byte %zu: got %d, want %d",
               self_small ? "self" : "other", channels, i, got[i], want[i]);
  }
}

ETNS_KERNEL_TEST(MulVariants, FrontDoorChannelBroadcast) {
  Rng rng(kSeed + 6);
  for (size_t channels : {1, 2, 3, 4, 5, 7, 8, 16, 17}) {
    for (bool self_small : {true, false}) {
      check_broadcast(random_params(rng), channels, 9, self_small, rng);
      ETNS_RETURN_IF_FAILED();
      check_broadcast(tier1_params(), channels, 5, self_small, rng);
      ETNS_RETURN_IF_FAILED();
    }
  }
}

}  // namespace
}  // namespace etns::cortex_m
