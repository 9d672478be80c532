// Every compiled variant of quantized_sub against the reference, on the host
// and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "kernels/cortex_m_ns/sub/sub.h"
#include "kernels/testing/binary_variant_checks.h"
#include "kernels/testing/kernel_args.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"
#include "runtime/core/arena.h"

namespace etns::cortex_m_ns {
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

constexpr uint64_t kSeed = 0x73756276;  // "subv"
constexpr size_t kPairs = kernels::testing::kCodePairs;

// tier1_ns c0i5 (operators.md §3.3).
SubParams tier1_params() {
  SubParams p;
  p.self_zero_point = -100;
  p.self = {2044058342, -1};
  p.other_zero_point = -113;
  p.other = {1073741824, 0};
  p.out_zero_point = 4;
  p.out = {1266874265, -19};
  return p;
}

// Parameters as the exporter makes them (operators.md §3.3) from random
// scales: outputs that mostly land inside the range, where every rounding
// shows, with ties wherever a scale is a power of two.
SubParams recipe_params(Rng& rng) {
  const auto scale = [&rng] {
    const double s = std::ldexp(1.0 + rng.unit(), static_cast<int>(rng.uniform(-9, 2)));
    return rng.uniform(0, 3) == 0 ? std::ldexp(1.0, static_cast<int>(rng.uniform(-9, 2))) : s;
  };
  const double self_scale = scale();
  const double other_scale = scale();
  const double out_scale = scale() * (rng.coin() ? 1.0 : 4.0);
  const double twice_max = 2.0 * (self_scale > other_scale ? self_scale : other_scale);
  SubParams p;
  p.self_zero_point = rng.uniform32(-128, 127);
  p.other_zero_point = rng.uniform32(-128, 127);
  p.out_zero_point = rng.uniform32(-128, 127);
  p.self = quantized_multiplier(self_scale / twice_max);
  p.other = quantized_multiplier(other_scale / twice_max);
  p.out = quantized_multiplier(twice_max / (out_scale * std::ldexp(1.0, kSubLeftShift)));
  p.act_min = rng.coin() ? -128 : rng.uniform32(-128, 0);
  p.act_max = rng.coin() ? 127 : rng.uniform32(p.act_min, 127);
  return p;
}

// Anything prepare accepts, edges favoured: multipliers 0, 1, 2^30, INT32_MAX,
// shifts -31, -1, 0, 1, 30, zero points and activation bounds at the ends.
Requant edge_requant(Rng& rng) {
  const int32_t multipliers[] = {0,         1, int32_t{1} << 30, INT32_MAX,
                                 rng.uniform32(0, INT32_MAX), rng.uniform32(1 << 30, INT32_MAX)};
  const int32_t shifts[] = {-31, -1, 0, 1, 30, rng.uniform32(-31, 30), rng.uniform32(-24, 0)};
  return {rng.pick(multipliers), rng.pick(shifts)};
}

SubParams edge_params(Rng& rng) {
  const int32_t zero_points[] = {-128, 127, 0, rng.uniform32(-128, 127)};
  SubParams p;
  p.self_zero_point = rng.pick(zero_points);
  p.other_zero_point = rng.pick(zero_points);
  p.out_zero_point = rng.pick(zero_points);
  p.self = edge_requant(rng);
  p.other = edge_requant(rng);
  p.out = edge_requant(rng);
  const int32_t bounds[] = {-128, 127, rng.uniform32(-128, 127)};
  p.act_min = rng.pick(bounds);
  p.act_max = rng.pick(bounds);
  if (p.act_min > p.act_max) {
    const int32_t low = p.act_max;
    p.act_max = p.act_min;
    p.act_min = low;
  }
  return p;
}

SubParams random_params(Rng& rng) { return rng.coin() ? recipe_params(rng) : edge_params(rng); }

using Layout = kernels::testing::BufferLayout;

void check_case(const SubParams& p, const int8_t* self, const int8_t* other, size_t n,
                const char* what, Layout layout = Layout::Aligned) {
  ETNS_CHECK_BINARY_VARIANTS(
      kernels::kSubVariants, p, self, other, n, layout,
      "%s, n %zu, zp %d %d -> %d, self (%d, %d), other (%d, %d), out (%d, %d), act [%d, %d]",
      what, n, static_cast<int>(p.self_zero_point), static_cast<int>(p.other_zero_point),
      static_cast<int>(p.out_zero_point), static_cast<int>(p.self.multiplier),
      static_cast<int>(p.self.shift), static_cast<int>(p.other.multiplier),
      static_cast<int>(p.other.shift), static_cast<int>(p.out.multiplier),
      static_cast<int>(p.out.shift), static_cast<int>(p.act_min), static_cast<int>(p.act_max));
}

ETNS_KERNEL_TEST(SubVariants, AllPairsTier1AndTableCrc) {
  const CodePairs pairs = all_code_pairs();
  const SubParams p = tier1_params();
  check_case(p, pairs.self, pairs.other, kPairs, "tier1_ns c0i5, all pairs");
  ETNS_RETURN_IF_FAILED();
  kernels::testing::check_table_crc(kernels::kSubVariants, p, pairs, 0x8759853cu);
}

ETNS_KERNEL_TEST(SubVariants, AllPairsRandomParams) {
  const CodePairs pairs = all_code_pairs();
  Rng rng(kSeed);
  for (int i = 0; i < 24; ++i) {
    check_case(random_params(rng), pairs.self, pairs.other, kPairs, "all pairs");
    ETNS_RETURN_IF_FAILED();
  }
}

// Input factors near 8 take a' and b' to about +-2^31, so a' - b' saturates
// (the reference's saturate_s32) for the pairs far apart; the output stages
// then show whether the difference wrapped instead.
ETNS_KERNEL_TEST(SubVariants, AllPairsSaturatingDifference) {
  const CodePairs pairs = all_code_pairs();
  const Requant outs[] = {{1 << 30, -24}, {INT32_MAX, -31}, {1 << 30, 0}, {1 << 30, -1}};
  for (const Requant& out : outs) {
    for (int32_t zero_point : {-128, 127}) {
      SubParams p;
      p.self_zero_point = zero_point;
      p.other_zero_point = -zero_point - 1;
      p.self = {INT32_MAX, 3};
      p.other = {INT32_MAX - 12345, 3};
      p.out = out;
      check_case(p, pairs.self, pairs.other, kPairs, "saturating difference");
      ETNS_RETURN_IF_FAILED();
    }
  }
}

// Output multipliers of few significant bits, where the output stage's
// remainders of a' * M + c and b' * M (AVX3_DL compares them by rank) are
// often equal: in these sets 512, 448, 342 and 256 of self's 512 remainders
// equal one of other's.
ETNS_KERNEL_TEST(SubVariants, AllPairsEqualRemainders) {
  const CodePairs pairs = all_code_pairs();
  struct Case {
    int32_t zero_points[3];
    Requant self, other, out;
  };
  const Case cases[] = {
      {{119, -46, 52}, {536870913, -18}, {671088640, -20}, {1 << 30, -1}},
      {{-63, 50, -74}, {INT32_MAX, -15}, {671088640, -18}, {671088640, -4}},
      {{-39, 6, 69}, {1431655765, -12}, {1 << 30, -18}, {1 << 30, -6}},
      {{127, -70, 80}, {1610612736, -17}, {1 << 30, -19}, {671088640, -5}},
  };
  for (const Case& c : cases) {
    SubParams p;
    p.self_zero_point = c.zero_points[0];
    p.other_zero_point = c.zero_points[1];
    p.out_zero_point = c.zero_points[2];
    p.self = c.self;
    p.other = c.other;
    p.out = c.out;
    check_case(p, pairs.self, pairs.other, kPairs, "equal remainders");
    ETNS_RETURN_IF_FAILED();
  }
}

#if defined(__SIZEOF_INT128__)  // the search below needs 128-bit products: host only
// AVX3_DL runs the output stage in int8 lanes where its integer parts fit a
// byte (sub_hwy.cpp, FillNarrowPath): self's X+ and X- (the two roundings'
// constants) spanning at most 254 codes, other's Y at most 255. The spans of
// parameter sets with an output scale near an input's, found by search, at
// each bound and one past it; all pairs for each.
struct IntegerPartSpans {
  int64_t self = 0;
  int64_t other = 0;
};

int64_t floor_shifted(__int128 value, int k) {
  const __int128 unit = __int128{1} << k;
  __int128 quotient = value / unit;
  if (value % unit < 0) quotient -= 1;
  return static_cast<int64_t>(quotient);
}

// floor((a' * M + c) / 2^k) over self's codes, both c (c+ and c+ - 2^31),
// and floor(b' * M / 2^k) over other's, k = 31 - output shift.
IntegerPartSpans integer_part_spans(const SubParams& p) {
  const int k = 31 - p.out.shift;
  const __int128 plus = static_cast<__int128>(p.out_zero_point) * (__int128{1} << k) +
                        (__int128{1} << (k - 1)) + (__int128{1} << 30);
  int64_t self_min = INT64_MAX, self_max = INT64_MIN, other_min = INT64_MAX, other_max = INT64_MIN;
  for (int q = -128; q < 128; ++q) {
    const int32_t a = kernels::requantize((q - p.self_zero_point) * (1 << kSubLeftShift), p.self);
    const int32_t b = kernels::requantize((q - p.other_zero_point) * (1 << kSubLeftShift), p.other);
    for (const __int128 c : {plus, plus - (__int128{1} << 31)}) {
      const int64_t x = floor_shifted(static_cast<__int128>(a) * p.out.multiplier + c, k);
      self_min = std::min(self_min, x);
      self_max = std::max(self_max, x);
    }
    const int64_t y = floor_shifted(static_cast<__int128>(b) * p.out.multiplier, k);
    other_min = std::min(other_min, y);
    other_max = std::max(other_max, y);
  }
  return {self_max - self_min, other_max - other_min};
}

ETNS_KERNEL_TEST(SubVariants, AllPairsAtTheNarrowBounds) {
  const CodePairs pairs = all_code_pairs();
  Rng rng(kSeed + 6);
  // self 254, self 255, other 255, other 256: two parameter sets each.
  int found[4] = {};
  for (int tries = 0; tries < 100000 && std::min({found[0], found[1], found[2], found[3]}) < 2; ++tries) {
    SubParams p = recipe_params(rng);
    // The output scale within 3% of self's or other's, in the recipe's terms.
    const bool near_self = rng.coin();
    const double input = std::ldexp(static_cast<double>(near_self ? p.self.multiplier : p.other.multiplier),
                                    (near_self ? p.self.shift : p.other.shift) - 31);
    const double out = input * (0.97 + 0.06 * rng.unit());
    p.out = quantized_multiplier(1.0 / (out * std::ldexp(1.0, kSubLeftShift)));
    if (p.out.shift >= 0 || p.out.multiplier == 0) continue;
    const IntegerPartSpans spans = integer_part_spans(p);
    const int bucket = spans.self == 254    ? 0
                       : spans.self == 255  ? 1
                       : spans.other == 255 ? 2
                       : spans.other == 256 ? 3
                                            : -1;
    if (bucket < 0 || found[bucket] == 2) continue;
    ++found[bucket];
    check_case(p, pairs.self, pairs.other, kPairs, "narrow bounds");
    ETNS_RETURN_IF_FAILED();
  }
  ETNS_CHECK(std::min({found[0], found[1], found[2], found[3]}) == 2,
             "parameter sets found: self spans 254 and 255: %d, %d; other spans 255 and 256: %d, %d", found[0],
             found[1], found[2], found[3]);
  ETNS_RETURN_IF_FAILED();
  // Outputs of about 0.99 (a - b) codes from opposite ends, with the output
  // zero point at one end and the bounds at the other: the int8 lanes then
  // carry an offset of about 125 codes, which takes the zero point that picks
  // the rounding's sign outside a byte.
  for (const int32_t end : {-128, 127}) {
    SubParams p;
    p.self_zero_point = end;
    p.other_zero_point = -1 - end;
    p.out_zero_point = end;
    p.self = {1 << 30, 0};
    p.other = {1 << 30, 0};
    p.out = quantized_multiplier(1.98 / std::ldexp(1.0, kSubLeftShift));
    p.act_min = end < 0 ? 0 : -128;
    p.act_max = end < 0 ? 127 : -1;
    check_case(p, pairs.self, pairs.other, kPairs, "zero point far outside the bounds");
    ETNS_RETURN_IF_FAILED();
  }
}
#endif

// Random pairs under many parameter sets, each stage's rounding path (S < 0,
// S = 0, S > 0 with its wrapping left shift) in every combination.
ETNS_KERNEL_TEST(SubVariants, ManyParamsRandomPairs) {
  const size_t n = 1024;
  int8_t* self = ETNS_TEST_ARRAY(int8_t, n);
  int8_t* other = ETNS_TEST_ARRAY(int8_t, n);
  Rng rng(kSeed + 1);
  for (int i = 0; i < 600; ++i) {
    rng.fill_s8(self, n);
    rng.fill_s8(other, n);
    check_case(random_params(rng), self, other, n, "random pairs");
    ETNS_RETURN_IF_FAILED();
  }
}

// Runs of equal 64-byte blocks (a variant may reuse a block's looked-up
// values for the next equal one), switching patterns at different blocks in
// each operand, with a partial block at the end.
ETNS_KERNEL_TEST(SubVariants, RepeatedBlocks) {
  constexpr size_t kBlock = 64;
  constexpr int kSelfOrder[] = {0, 0, 1, 0, 1, 1, 1, 0, 2, 2, 0, 0};
  constexpr int kOtherOrder[] = {0, 1, 1, 1, 0, 0, 2, 2, 2, 1, 1, 0};
  constexpr size_t kBlocks = sizeof(kSelfOrder) / sizeof(kSelfOrder[0]);
  const size_t n = kBlocks * kBlock + 17;
  Rng rng(kSeed + 5);
  int8_t* patterns = ETNS_TEST_ARRAY(int8_t, 3 * kBlock);
  int8_t* self = ETNS_TEST_ARRAY(int8_t, n);
  int8_t* other = ETNS_TEST_ARRAY(int8_t, n);
  for (int round = 0; round < 20; ++round) {
    rng.fill_s8(patterns, 3 * kBlock);
    for (size_t b = 0; b < kBlocks; ++b) {
      std::memcpy(self + b * kBlock, patterns + kSelfOrder[b] * kBlock, kBlock);
      std::memcpy(other + b * kBlock, patterns + kOtherOrder[b] * kBlock, kBlock);
    }
    rng.fill_s8(self + kBlocks * kBlock, 17);
    rng.fill_s8(other + kBlocks * kBlock, 17);
    const SubParams p = round % 2 == 0 ? tier1_params() : random_params(rng);
    check_case(p, self, other, n, "repeated blocks");
    ETNS_RETURN_IF_FAILED();
    check_case(p, self, other, n, "repeated blocks, in place", Layout::InPlace);
    ETNS_RETURN_IF_FAILED();
  }
}

ETNS_KERNEL_TEST(SubVariants, LengthsAroundTheTile) {
  Rng rng(kSeed + 2);
  for (size_t n : kTileLengths) {
    TestMemoryScope scope;
    int8_t* self = ETNS_TEST_ARRAY(int8_t, n + 1);
    int8_t* other = ETNS_TEST_ARRAY(int8_t, n + 1);
    rng.fill_s8(self, n + 1);
    rng.fill_s8(other, n + 1);
    check_case(random_params(rng), self, other, n, "random input");
    ETNS_RETURN_IF_FAILED();
    check_case(random_params(rng), self + 1, other + 1, n, "misaligned", Layout::Misaligned);
    ETNS_RETURN_IF_FAILED();
    check_case(random_params(rng), self, other + 1, n, "in place", Layout::InPlace);
    ETNS_RETURN_IF_FAILED();
  }
}

ETNS_KERNEL_TEST(SubVariants, Tier1Size) {
  const size_t n = 16384;  // 1x16x32x32
  int8_t* self = ETNS_TEST_ARRAY(int8_t, n);
  int8_t* other = ETNS_TEST_ARRAY(int8_t, n);
  Rng rng(kSeed + 3);
  rng.fill_s8(self, n);
  rng.fill_s8(other, n);
  check_case(tier1_params(), self, other, n, "tier1 shape");
}

// A variant may remember work per parameter set across calls (the host
// variant makes a table of every output once the elements computed with a
// set reach 65,536, for a few sets): each set called until it must have its
// table, more sets than are kept, a set coming back after it was dropped, and
// two sets that differ only in their activation bounds, each call on fresh
// data against the reference.
ETNS_KERNEL_TEST(SubVariants, RepeatedCallsWithFewParameterSets) {
  const size_t n = 16384;
  int8_t* self = ETNS_TEST_ARRAY(int8_t, n);
  int8_t* other = ETNS_TEST_ARRAY(int8_t, n);
  Rng rng(kSeed + 7);
  SubParams sets[6];
  sets[0] = tier1_params();
  for (int k = 1; k < 5; ++k) sets[k] = recipe_params(rng);
  sets[5] = sets[0];
  sets[5].act_min = -20;
  sets[5].act_max = 30;
  const int order[] = {0, 1, 2, 3, 4, 0, 5};
  for (const int k : order) {
    for (int call = 0; call < 5; ++call) {
      rng.fill_s8(self, n);
      rng.fill_s8(other, n);
      check_case(sets[k], self, other, n, "repeated calls");
      ETNS_RETURN_IF_FAILED();
    }
  }
}

// The front door on a channel broadcast: sub_prepare and sub_run (which walks
// blocks of C and runs the build's fastest variant on each) against the
// reference on the expanded operands, with small C around the lane tile.
void check_broadcast(const SubParams& p, size_t channels, size_t pixels, bool self_small,
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
  sub_s8_ref(p, self_small ? expanded : big, self_small ? big : expanded, want, n);

  const int32_t c = static_cast<int32_t>(channels);
  Shape4d small_shape{{1, c, 1, 1}, {0, 1, 2, 3}};
  Shape4d big_shape{{1, c, 1, static_cast<int32_t>(pixels)}, {0, 2, 3, 1}};
  Shape4d out_shape = big_shape;
  constexpr const runtime::OperatorContract& k = kSubContract;
  runtime::EValue values[k.count];
  set_s8_tensor(values[k.arg("self").index], self_small ? small_shape : big_shape,
                self_small ? small : big);
  set_int(values[k.arg("self_zero_point").index], p.self_zero_point);
  set_int(values[k.arg("self_multiplier").index], p.self.multiplier);
  set_int(values[k.arg("self_shift").index], p.self.shift);
  set_s8_tensor(values[k.arg("other").index], self_small ? big_shape : small_shape,
                self_small ? big : small);
  set_int(values[k.arg("other_zero_point").index], p.other_zero_point);
  set_int(values[k.arg("other_multiplier").index], p.other.multiplier);
  set_int(values[k.arg("other_shift").index], p.other.shift);
  set_int(values[k.arg("output_zero_point").index], p.out_zero_point);
  set_int(values[k.arg("output_multiplier").index], p.out.multiplier);
  set_int(values[k.arg("output_shift").index], p.out.shift);
  set_int(values[k.arg("activation_min").index], p.act_min);
  set_int(values[k.arg("activation_max").index], p.act_max);
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
  ETNS_CHECK(sub_prepare(prepare) == runtime::Error::Ok, "prepare failed, C %zu", channels);
  // run repeats the small operand in scratch, a chunk of whole pixels.
  ETNS_CHECK(prepare.scratch_bytes() >= channels && prepare.scratch_bytes() % channels == 0,
             "scratch of %zu bytes for C %zu", prepare.scratch_bytes(), channels);
  uint8_t* scratch = ETNS_TEST_ARRAY(uint8_t, prepare.scratch_bytes());
  const runtime::RunContext run{runtime::Span<runtime::EValue* const>(args, k.count + 1),
                                prepare.state(),
                                runtime::Span<uint8_t>(scratch, prepare.scratch_bytes())};
  ETNS_CHECK(sub_run(run) == runtime::Error::Ok, "run failed, C %zu", channels);
  for (size_t i = 0; i < n; ++i) {
    ETNS_CHECK(got[i] == want[i], "%s small, C %zu, byte %zu: got %d, want %d",
               self_small ? "self" : "other", channels, i, got[i], want[i]);
  }
}

ETNS_KERNEL_TEST(SubVariants, FrontDoorChannelBroadcast) {
  Rng rng(kSeed + 4);
  for (size_t channels : {1, 2, 3, 4, 5, 7, 8, 16, 17}) {
    for (bool self_small : {true, false}) {
      check_broadcast(random_params(rng), channels, 9, self_small, rng);
      ETNS_RETURN_IF_FAILED();
      check_broadcast(tier1_params(), channels, 5, self_small, rng);
      ETNS_RETURN_IF_FAILED();
      // More pixels than one chunk holds: a full chunk, then a partial one.
      check_broadcast(random_params(rng), channels, 512 / channels + 3, self_small, rng);
      ETNS_RETURN_IF_FAILED();
    }
  }
}

}  // namespace
}  // namespace etns::cortex_m_ns
