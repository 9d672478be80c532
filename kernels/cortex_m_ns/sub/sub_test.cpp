#include "kernels/cortex_m_ns/sub/sub.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <vector>

#include "kernels/cortex_m_ns/test_helpers.h"
#include "runtime/core/crc32.h"
#include "tests/support/kernel_call.h"
#include "tests/support/rng.h"

namespace etns::cortex_m_ns {

std::ostream& operator<<(std::ostream& os, const SubParams& p) {
  return os << "SubParams{self zp " << p.self_zero_point << " (" << p.self.multiplier << ", "
            << p.self.shift << "), other zp " << p.other_zero_point << " (" << p.other.multiplier
            << ", " << p.other.shift << "), out zp " << p.out_zero_point << " ("
            << p.out.multiplier << ", " << p.out.shift << "), act [" << p.act_min << ", "
            << p.act_max << "]}";
}

namespace {

using runtime::Error;
using runtime::ScalarType;
using testing::KernelCall;
using testing::Rng;
using namespace test;

const runtime::KernelEntry kEntry = runtime::kernel_entry(kSubContract, &sub_prepare, &sub_run);
constexpr runtime::Arg kSelf = kSubContract.arg("self");
constexpr runtime::Arg kOther = kSubContract.arg("other");
constexpr runtime::Arg kOut = kSubContract.out();

// tier1_ns c0i5's float qparams, recovered from the program (operators.md §7).
const Qparams kSelfQ{0.02308945731, -100};              // leaky_relu output
const Qparams kOtherQ{0.024257738143205643, -113};      // hardswish output
const Qparams kOutQ{0.04111938925, 4};

// With the exporter's recipe every factor is within a power of two of the
// operands' scales, so the 2^20 headroom keeps the three roundings inside 1 LSB.
constexpr int kRandomBoundLsb = 1;
// If the output scale is far finer than the inputs' (max(s) / s_out = 2^k),
// one unit of the 2^20-scaled intermediates is 2^(k-19) output LSBs, so the
// kernel cannot resolve differences the float result can. Measured at k = 22
// with nearly equal input scales (the only way such a fine output is not all
// saturated); at k >= 24 the output factor's left shift wraps in int32.
constexpr int kFineOutputRatioLog2 = 22;
constexpr int kFineOutputBoundLsb = 6;

// The 14 arguments; the defaults are tier1_ns c0i5.
struct SubArgs {
  std::vector<int32_t> self_sizes{1, 16, 32, 32};
  std::vector<int32_t> other_sizes{1, 16, 32, 32};
  std::vector<int32_t> out_sizes{1, 16, 32, 32};
  std::vector<uint8_t> self_order{0, 2, 3, 1};
  std::vector<uint8_t> other_order{0, 2, 3, 1};
  std::vector<uint8_t> out_order{0, 2, 3, 1};
  ScalarType self_dtype = ScalarType::Char;
  ScalarType other_dtype = ScalarType::Char;
  ScalarType out_dtype = ScalarType::Char;
  int64_t self_zero_point = -100;
  int64_t self_multiplier = 2044058342;
  int64_t self_shift = -1;
  int64_t other_zero_point = -113;
  int64_t other_multiplier = 1073741824;
  int64_t other_shift = 0;
  int64_t out_zero_point = 4;
  int64_t out_multiplier = 1266874265;
  int64_t out_shift = -19;
  int64_t act_min = -128;
  int64_t act_max = 127;
  const char* as_double = nullptr;  // the argument of this name is passed as a Double
};

SubArgs args_for(const SubParams& p) {
  SubArgs a;
  a.self_zero_point = p.self_zero_point;
  a.self_multiplier = p.self.multiplier;
  a.self_shift = p.self.shift;
  a.other_zero_point = p.other_zero_point;
  a.other_multiplier = p.other.multiplier;
  a.other_shift = p.other.shift;
  a.out_zero_point = p.out_zero_point;
  a.out_multiplier = p.out.multiplier;
  a.out_shift = p.out.shift;
  a.act_min = p.act_min;
  a.act_max = p.act_max;
  return a;
}

void build(KernelCall& call, const SubArgs& a) {
  call.tensor(a.self_dtype, a.self_sizes, a.self_order);
  int_arg(call, a.self_zero_point, a.as_double, "self_zero_point");
  int_arg(call, a.self_multiplier, a.as_double, "self_multiplier");
  int_arg(call, a.self_shift, a.as_double, "self_shift");
  call.tensor(a.other_dtype, a.other_sizes, a.other_order);
  int_arg(call, a.other_zero_point, a.as_double, "other_zero_point");
  int_arg(call, a.other_multiplier, a.as_double, "other_multiplier");
  int_arg(call, a.other_shift, a.as_double, "other_shift");
  int_arg(call, a.out_zero_point, a.as_double, "output_zero_point");
  int_arg(call, a.out_multiplier, a.as_double, "output_multiplier");
  int_arg(call, a.out_shift, a.as_double, "output_shift");
  int_arg(call, a.act_min, a.as_double, "activation_min");
  int_arg(call, a.act_max, a.as_double, "activation_max");
  call.tensor(a.out_dtype, a.out_sizes, a.out_order);
}

// Every (self, other) code pair through the operator: row = self + 128,
// column = other + 128. Empty when prepare fails.
std::vector<int8_t> run_table(SubArgs a) {
  a.self_sizes = a.other_sizes = a.out_sizes = {256, 256};
  a.self_order = a.other_order = a.out_order = {};
  KernelCall call;
  build(call, a);
  if (call.prepare(kEntry) != Error::Ok) {
    ADD_FAILURE() << call.log();
    return {};
  }
  std::vector<int8_t> self(65536);
  std::vector<int8_t> other(65536);
  for (int i = 0; i < 65536; ++i) {
    self[i] = static_cast<int8_t>(i / 256 - 128);
    other[i] = static_cast<int8_t>(i % 256 - 128);
  }
  call.fill<int8_t>(kSelf, self);
  call.fill<int8_t>(kOther, other);
  EXPECT_EQ(call.run(), Error::Ok);
  return call.read<int8_t>(kOut);
}

// The real-valued difference of the dequantised codes, on the output grid.
LsbError table_error_vs_float(const std::vector<int8_t>& table, Qparams self_q, Qparams other_q,
                              Qparams out_q, int32_t act_min = -128, int32_t act_max = 127) {
  LsbError error;
  for (int a = -128; a <= 127; ++a) {
    for (int b = -128; b <= 127; ++b) {
      const double y = dequantize(a, self_q) - dequantize(b, other_q);
      error.add(table[(a + 128) * 256 + (b + 128)], to_grid(y, out_q, act_min, act_max), a, b);
    }
  }
  return error;
}

struct SubCase {
  Qparams self_q;
  Qparams other_q;
  Qparams out_q;
  SubParams params;
};

// The exporter's recipe (operators.md §3.3) on observed scales:
// m2 = 2 max(s_self, s_other), inputs QM(s / m2), output QM(m2 / (s_out 2^20)).
bool make_sub_params(SubCase& c) {
  const double m2 = 2.0 * std::max(c.self_q.scale, c.other_q.scale);
  c.params.self_zero_point = c.self_q.zero_point;
  c.params.other_zero_point = c.other_q.zero_point;
  c.params.out_zero_point = c.out_q.zero_point;
  c.params.self = quantize_multiplier(c.self_q.scale / m2);
  c.params.other = quantize_multiplier(c.other_q.scale / m2);
  c.params.out = quantize_multiplier(m2 / (c.out_q.scale * 1048576.0));
  return shift_in_range(c.params.self) && shift_in_range(c.params.other) &&
         shift_in_range(c.params.out);
}

// Random observed inputs; the output observer sees a random part of the
// difference's possible range, as calibration data would show it.
SubCase random_sub_case(Rng& rng) {
  for (;;) {
    SubCase c;
    c.self_q = random_input_qparams(rng);
    c.other_q = random_input_qparams(rng);
    const double lo = dequantize(-128, c.self_q) - dequantize(127, c.other_q);
    const double hi = dequantize(127, c.self_q) - dequantize(-128, c.other_q);
    c.out_q = observe(lo * (0.2 + 0.8 * rng.unit()), hi * (0.2 + 0.8 * rng.unit()));
    if (make_sub_params(c)) return c;
  }
}

// Any parameters prepare accepts, including extreme shifts and zero points.
SubParams random_valid_params(Rng& rng) {
  SubParams p;
  p.self_zero_point = static_cast<int32_t>(rng.uniform(-128, 127));
  p.other_zero_point = static_cast<int32_t>(rng.uniform(-128, 127));
  p.out_zero_point = static_cast<int32_t>(rng.uniform(-128, 127));
  for (kernels::Requant* q : {&p.self, &p.other, &p.out}) {
    q->multiplier = static_cast<int32_t>(rng.uniform(0, INT32_MAX));
    q->shift = static_cast<int32_t>(rng.uniform(-31, 30));
  }
  p.act_min = static_cast<int32_t>(rng.uniform(-128, 127));
  p.act_max = static_cast<int32_t>(rng.uniform(p.act_min, 127));
  return p;
}

// A compiled variant gives the reference's bytes for every length around the
// lane tile. Adding a variant is one TEST line below.
void expect_same_as_reference(SubFn variant) {
  SCOPED_TRACE(::testing::Message() << "seed " << kSeed);
  Rng rng(kSeed);
  for (size_t n : {1, 3, 4, 5, 15, 16, 17, 1000}) {
    const SubParams p = random_valid_params(rng);
    const std::vector<int8_t> self = testing::random_s8(rng, n);
    const std::vector<int8_t> other = testing::random_s8(rng, n);
    std::vector<int8_t> want(n);
    std::vector<int8_t> got(n);
    sub_s8_ref(p, self.data(), other.data(), want.data(), n);
    variant(p, self.data(), other.data(), got.data(), n);
    ASSERT_EQ(want, got) << "n=" << n << " " << p;
  }
}

TEST(SubS8, ChooserMatchesReference) { expect_same_as_reference(sub_s8); }

TEST(SubS8, SpecVectorsTier1) {
  const int8_t pairs[][3] = {{-128, -128, -3}, {-100, -113, 4}, {0, 0, -7},    {127, -128, 127},
                             {-128, 127, -128}, {50, -20, 33},  {-50, 20, -46}, {127, 127, -10}};
  KernelCall call;
  SubArgs a;
  a.self_sizes = a.other_sizes = a.out_sizes = {8};
  a.self_order = a.other_order = a.out_order = {};
  build(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  std::vector<int8_t> self;
  std::vector<int8_t> other;
  for (const auto& pair : pairs) {
    self.push_back(pair[0]);
    other.push_back(pair[1]);
  }
  call.fill<int8_t>(kSelf, self);
  call.fill<int8_t>(kOther, other);
  ASSERT_EQ(call.run(), Error::Ok);
  const std::vector<int8_t> out = call.read<int8_t>(kOut);
  for (size_t i = 0; i < out.size(); ++i) {
    EXPECT_EQ(out[i], pairs[i][2]) << "self " << int{pairs[i][0]} << ", other " << int{pairs[i][1]};
  }
}

TEST(SubS8, FullTableCrcTier1) {
  const std::vector<int8_t> table = run_table(SubArgs{});
  ASSERT_EQ(table.size(), 65536u);
  EXPECT_EQ(runtime::crc32(table.data(), table.size()), 0x8759853cu);
}

// The real program's channels_last [1, 16, 32, 32] call gives the table's bytes.
TEST(SubS8, Tier1ShapeMatchesTable) {
  const std::vector<int8_t> table = run_table(SubArgs{});
  ASSERT_EQ(table.size(), 65536u);
  KernelCall call;
  build(call, SubArgs{});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  Rng rng(kSeed);
  const std::vector<int8_t> self = testing::random_s8(rng, 16384);
  const std::vector<int8_t> other = testing::random_s8(rng, 16384);
  call.fill<int8_t>(kSelf, self);
  call.fill<int8_t>(kOther, other);
  ASSERT_EQ(call.run(), Error::Ok);
  const std::vector<int8_t> out = call.read<int8_t>(kOut);
  for (size_t i = 0; i < out.size(); ++i) {
    ASSERT_EQ(out[i], table[(self[i] + 128) * 256 + (other[i] + 128)]) << "element " << i;
  }
}

// operators.md §7: exact against the float difference for every code pair.
TEST(SubS8, ExactVsFloatWithTier1Params) {
  const std::vector<int8_t> table = run_table(SubArgs{});
  ASSERT_EQ(table.size(), 65536u);
  const LsbError error = table_error_vs_float(table, kSelfQ, kOtherQ, kOutQ);
  EXPECT_EQ(error.max, 0) << error;
}

TEST(SubS8, RecipeReproducesTier1Multipliers) {
  SubCase c{kSelfQ, kOtherQ, kOutQ, {}};
  ASSERT_TRUE(make_sub_params(c));
  EXPECT_EQ(c.params.self.multiplier, 2044058342);
  EXPECT_EQ(c.params.self.shift, -1);
  EXPECT_EQ(c.params.other.multiplier, 1073741824);
  EXPECT_EQ(c.params.other.shift, 0);
  EXPECT_EQ(c.params.out.shift, -19);
  // kOutQ's scale is printed to 10 digits only; its multiplier lands within a few units.
  EXPECT_NEAR(c.params.out.multiplier, 1266874265, 64);
}

TEST(SubS8, WithinBoundVsFloatWithRandomRecipeParams) {
  SCOPED_TRACE(::testing::Message() << "seed " << kSeed);
  Rng rng(kSeed);
  int worst = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const SubCase c = random_sub_case(rng);
    const std::vector<int8_t> table = run_table(args_for(c.params));
    ASSERT_EQ(table.size(), 65536u);
    const LsbError error = table_error_vs_float(table, c.self_q, c.other_q, c.out_q);
    ASSERT_LE(error.max, kRandomBoundLsb) << "trial " << trial << " " << c.params << " " << error;
    worst = std::max(worst, error.max);
  }
  RecordProperty("max_lsb", worst);
}

TEST(SubS8, FineOutputScaleExceedsOneLsb) {
  SubCase c;
  c.self_q = {0.05, 3};
  c.other_q = {0.05 * (1 + 1e-5), 3};
  c.out_q = {0.05 / (1 << kFineOutputRatioLog2), 0};
  ASSERT_TRUE(make_sub_params(c));
  const std::vector<int8_t> table = run_table(args_for(c.params));
  ASSERT_EQ(table.size(), 65536u);
  const LsbError error = table_error_vs_float(table, c.self_q, c.other_q, c.out_q);
  EXPECT_LE(error.max, kFineOutputBoundLsb) << error;
  EXPECT_GT(error.max, 1) << "the bound is no longer needed";
}

// Channels_last pixels, or a contiguous tensor whose H = W = 1: either way
// each block of 8 bytes is one pixel's channels.
TEST(SubS8, ChannelBroadcastEitherSide) {
  Rng rng(kSeed);
  const SubParams p = random_sub_case(rng).params;
  const struct {
    std::vector<int32_t> sizes;
    std::vector<uint8_t> order;
  } layouts[] = {{{2, 8, 3, 5}, {0, 2, 3, 1}}, {{30, 8, 1, 1}, {0, 1, 2, 3}}};
  for (const auto& layout : layouts) {
    for (bool self_small : {false, true}) {
      SCOPED_TRACE(::testing::Message() << (self_small ? "self" : "other") << " is the vector, "
                                        << "big dim_order " << int{layout.order[1]});
      SubArgs a = args_for(p);
      const std::vector<int32_t> small{1, 8, 1, 1};
      a.self_sizes = self_small ? small : layout.sizes;
      a.other_sizes = self_small ? layout.sizes : small;
      a.out_sizes = layout.sizes;
      a.self_order = a.other_order = a.out_order = layout.order;
      KernelCall call;
      build(call, a);
      ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
      const std::vector<int8_t> self = testing::random_s8(rng, self_small ? 8 : 240);
      const std::vector<int8_t> other = testing::random_s8(rng, self_small ? 240 : 8);
      call.fill<int8_t>(kSelf, self);
      call.fill<int8_t>(kOther, other);
      ASSERT_EQ(call.run(), Error::Ok);
      // The channel vector repeats every 8 bytes of the big operand.
      std::vector<int8_t> self_full(240);
      std::vector<int8_t> other_full(240);
      for (size_t i = 0; i < 240; ++i) {
        self_full[i] = self[self_small ? i % 8 : i];
        other_full[i] = other[self_small ? i : i % 8];
      }
      std::vector<int8_t> want(240);
      sub_s8_ref(p, self_full.data(), other_full.data(), want.data(), 240);
      EXPECT_EQ(call.read<int8_t>(kOut), want);
    }
  }
}

// Hand-worked: self_shift -31 sends self to 0; other at (2^30, 2) becomes
// (b - zp) 2^21; the output pair (2^30, -21) halves it, ties away from zero.
TEST(SubS8, ExtremeShifts) {
  SubParams p;
  p.self = {INT32_MAX, -31};
  p.other = {int32_t{1} << 30, 2};
  p.out = {int32_t{1} << 30, -21};
  p.self_zero_point = 127;
  p.other_zero_point = -128;
  p.out_zero_point = 10;
  const std::vector<int8_t> self{-128, 127, 0, -128, 127};
  const std::vector<int8_t> other{-125, -125, -127, 127, -128};
  std::vector<int8_t> out(5);
  sub_s8_ref(p, self.data(), other.data(), out.data(), 5);
  // other - zp = 3 -> -1.5 -> -2, whatever self is; 1 -> -0.5 -> -1; 255 -> -127.5 -> -128; 0.
  EXPECT_EQ(out, (std::vector<int8_t>{8, 8, 9, -118, 10}));
}

TEST(SubS8, ZeroMultipliersGiveTheZeroPoint) {
  SubParams p;
  p.self = {0, 0};
  p.other = {0, 0};
  p.out = {0, 0};
  p.out_zero_point = -7;
  p.act_min = -5;  // and the activation clamp still applies
  Rng rng(kSeed);
  const std::vector<int8_t> in = testing::random_s8(rng, 64);
  std::vector<int8_t> out(64);
  sub_s8_ref(p, in.data(), in.data(), out.data(), 64);
  EXPECT_EQ(out, std::vector<int8_t>(64, -5));
}

TEST(SubPrepare, AcceptsTier1) { expect_accepts<SubArgs>(kEntry, build); }

// The call through prepare and run on flat data; empty when prepare fails.
std::vector<int8_t> run_sub(const SubArgs& a, const std::vector<int8_t>& self,
                            const std::vector<int8_t>& other) {
  KernelCall call;
  build(call, a);
  if (call.prepare(kEntry) != Error::Ok) {
    ADD_FAILURE() << call.log();
    return {};
  }
  call.fill<int8_t>(kSelf, self);
  call.fill<int8_t>(kOther, other);
  EXPECT_EQ(call.run(), Error::Ok);
  return call.read<int8_t>(kOut);
}

// TFLite flushes a factor below 2^-32 to (0, 0), and real models hold shifts
// down to -31: prepare takes them for every pair. SubS8.ExtremeShifts through
// the front door, then multiplier 0 on each pair.
TEST(SubPrepare, TakesMultiplierZeroAndShiftMinus31) {
  SubArgs a;
  a.self_sizes = a.other_sizes = a.out_sizes = {5};
  a.self_order = a.other_order = a.out_order = {};
  a.self_multiplier = INT32_MAX;
  a.self_shift = -31;
  a.other_multiplier = int64_t{1} << 30;
  a.other_shift = 2;
  a.out_multiplier = int64_t{1} << 30;
  a.out_shift = -21;
  a.self_zero_point = 127;
  a.other_zero_point = -128;
  a.out_zero_point = 10;
  const std::vector<int8_t> self{-128, 127, 0, -128, 127};
  const std::vector<int8_t> other{-125, -125, -127, 127, -128};
  EXPECT_EQ(run_sub(a, self, other), (std::vector<int8_t>{8, 8, 9, -118, 10}));

  a.other_multiplier = 0;  // other contributes 0: self's 0 - 0
  EXPECT_EQ(run_sub(a, self, other), std::vector<int8_t>(5, 10));
  a = SubArgs{};
  a.self_sizes = a.other_sizes = a.out_sizes = {5};
  a.self_order = a.other_order = a.out_order = {};
  a.out_multiplier = 0;
  a.out_shift = -31;
  EXPECT_EQ(run_sub(a, self, other), std::vector<int8_t>(5, 4));
  a.out_multiplier = 0;
  a.out_shift = 0;
  EXPECT_EQ(run_sub(a, self, other), std::vector<int8_t>(5, 4));
}

// ns-cmsis-nn checks only the sizes and walks the flat buffers: tensors whose
// dim orders differ only where a dim has size 1 hold the same bytes, so equal
// shapes in such orders, and a channel broadcast whose big operand and out
// differ so, give the contiguous call's bytes.
TEST(SubPrepare, TakesSize1DimsInAnyDimOrder) {
  Rng rng(kSeed);
  const std::vector<int8_t> self = testing::random_s8(rng, 32);
  const std::vector<int8_t> other = testing::random_s8(rng, 32);
  SubArgs plain;
  plain.self_sizes = plain.other_sizes = plain.out_sizes = {2, 16, 1, 1};
  plain.self_order = plain.other_order = plain.out_order = {0, 1, 2, 3};
  const std::vector<int8_t> want = run_sub(plain, self, other);
  ASSERT_EQ(want.size(), 32u);
  SubArgs a = plain;
  a.other_order = {0, 2, 3, 1};
  a.out_order = {0, 3, 2, 1};
  EXPECT_EQ(run_sub(a, self, other), want);

  // A channel broadcast: other is [1, 16, 1, 1], self and out [2, 16, 1, 1];
  // it gives the equal-shape call on other repeated per pixel.
  const std::vector<int8_t> channels(other.begin(), other.begin() + 16);
  std::vector<int8_t> repeated(channels);
  repeated.insert(repeated.end(), channels.begin(), channels.end());
  const std::vector<int8_t> want_broadcast = run_sub(plain, self, repeated);
  plain.other_sizes = {1, 16, 1, 1};
  EXPECT_EQ(run_sub(plain, self, channels), want_broadcast);
  a = plain;
  a.self_order = {0, 2, 3, 1};
  a.other_order = {0, 3, 1, 2};
  a.out_order = {0, 1, 3, 2};
  EXPECT_EQ(run_sub(a, self, channels), want_broadcast);
}

using Rejection = test::Rejection<SubArgs>;

const Rejection kRejections[] = {
    {"float self", [](SubArgs& a) { a.self_dtype = ScalarType::Float; }, Error::InvalidArgument,
     "self dtype float32, expected int8"},
    {"int16 out", [](SubArgs& a) { a.out_dtype = ScalarType::Short; }, Error::InvalidArgument,
     "out dtype int16, expected int8"},
    {"Double shift", [](SubArgs& a) { a.as_double = "self_shift"; }, Error::InvalidProgram,
     "(self_shift) is Double, expected Int"},
    {"output shift 31", [](SubArgs& a) { a.out_shift = 31; }, Error::InvalidArgument,
     "output_shift = 31, expected [-31, 30]"},
    {"output shift 40", [](SubArgs& a) { a.out_shift = 40; }, Error::InvalidArgument,
     "output_shift = 40, expected [-31, 30]"},
    {"output shift -32", [](SubArgs& a) { a.out_shift = -32; }, Error::InvalidArgument,
     "output_shift = -32, expected [-31, 30]"},
    {"self shift 31", [](SubArgs& a) { a.self_shift = 31; }, Error::InvalidArgument,
     "self_shift = 31, expected [-31, 30]"},
    {"other shift 40", [](SubArgs& a) { a.other_shift = 40; }, Error::InvalidArgument,
     "other_shift = 40, expected [-31, 30]"},
    {"negative multiplier", [](SubArgs& a) { a.out_multiplier = -1; }, Error::InvalidArgument,
     "output_multiplier = -1, expected [0, 2147483647]"},
    {"multiplier 2^31", [](SubArgs& a) { a.other_multiplier = int64_t{1} << 31; },
     Error::InvalidArgument, "other_multiplier = 2147483648, expected [0, 2147483647]"},
    {"zero point 200", [](SubArgs& a) { a.self_zero_point = 200; }, Error::InvalidArgument,
     "self_zero_point = 200, expected [-128, 127]"},
    {"output zero point -129", [](SubArgs& a) { a.out_zero_point = -129; },
     Error::InvalidArgument, "output_zero_point = -129, expected [-128, 127]"},
    {"act_min 128", [](SubArgs& a) { a.act_min = 128; }, Error::InvalidArgument,
     "activation_min = 128, expected [-128, 127]"},
    {"act_min > act_max",
     [](SubArgs& a) {
       a.act_min = 10;
       a.act_max = -10;
     },
     Error::InvalidArgument, "activation_min = 10 > activation_max = -10, expected min <= max"},
    {"mismatched sizes", [](SubArgs& a) { a.other_sizes = {1, 16, 32, 31}; },
     Error::InvalidArgument, "self [1, 16, 32, 32] and other [1, 16, 32, 31] differ in shape"},
    {"out size", [](SubArgs& a) { a.out_sizes = {1, 16, 32, 31}; }, Error::InvalidArgument,
     "self [1, 16, 32, 32] and out [1, 16, 32, 31] differ in shape"},
    {"dim orders", [](SubArgs& a) { a.other_order = {0, 1, 2, 3}; }, Error::InvalidArgument,
     "self and other have different dim orders"},
    {"broadcast into contiguous",
     [](SubArgs& a) {
       a.other_sizes = {1, 16, 1, 1};
       a.self_order = a.other_order = a.out_order = {0, 1, 2, 3};
     },
     Error::InvalidArgument, "channel broadcast needs self in channels_last order"},
    {"broadcast with C outermost",
     [](SubArgs& a) {
       a.self_sizes = a.out_sizes = {4, 16, 1, 1};
       a.other_sizes = {1, 16, 1, 1};
       a.self_order = a.other_order = a.out_order = {1, 0, 2, 3};
     },
     Error::InvalidArgument, "channel broadcast needs self in channels_last order"},
    {"broadcast out shape",
     [](SubArgs& a) {
       a.self_sizes = {1, 16, 1, 1};
       a.out_sizes = {1, 16, 1, 1};
     },
     Error::InvalidArgument, "other [1, 16, 32, 32] and out [1, 16, 1, 1] differ in shape"},
    {"broadcast over different C", [](SubArgs& a) { a.other_sizes = {1, 8, 1, 1}; },
     Error::InvalidArgument, "expected equal shapes or a channel broadcast"},
};

TEST(SubPrepare, RejectsBadArguments) { expect_rejections<SubArgs>(kEntry, build, kRejections); }

}  // namespace
}  // namespace etns::cortex_m_ns
