#include "kernels/cortex_m/minimum/minimum.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "tests/support/broadcast_reference.h"
#include "tests/support/kernel_call.h"
#include "tests/support/rng.h"
#include "tests/support/shared_data.h"

namespace etns::cortex_m {
namespace {

using etns::testing::format_sizes;
using etns::testing::KernelCall;
using runtime::Error;
using runtime::ScalarType;

const runtime::KernelEntry kEntry =
    runtime::kernel_entry(kMinimumContract, &minimum_prepare, &minimum_run);
constexpr runtime::Arg kSelf = kMinimumContract.arg("self");
constexpr runtime::Arg kOther = kMinimumContract.arg("other");
constexpr runtime::Arg kOut = kMinimumContract.out();

const std::vector<int32_t> kImage = {1, 16, 32, 32};

const std::vector<uint8_t> kNhwc = {0, 2, 3, 1};

// --- Reference against goldens and hand-worked cases ---

TEST(MinimumS8, IdenticalShapes) {
  KernelCall call;
  call.tensor(ScalarType::Char, {2, 3})
      .tensor(ScalarType::Char, {2, 3})
      .tensor(ScalarType::Char, {2, 3});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kSelf, {-128, 127, 0, 5, -5, 127});
  call.fill<int8_t>(kOther, {127, -128, 0, -5, 5, 127});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{-128, -128, 0, -5, -5, 127}));
}

TEST(MinimumS8, BroadcastsAOneElementOperandEitherSide) {
  for (bool scalar_is_self : {false, true}) {
    KernelCall call;
    if (scalar_is_self) {
      call.tensor(ScalarType::Char, {}).tensor(ScalarType::Char, {1, 4, 1, 1});
    } else {
      call.tensor(ScalarType::Char, {1, 4, 1, 1}).tensor(ScalarType::Char, {1});
    }
    call.tensor(ScalarType::Char, {1, 4, 1, 1});
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    call.fill<int8_t>(scalar_is_self ? kSelf : kOther, {50});
    call.fill<int8_t>(scalar_is_self ? kOther : kSelf, {-128, 49, 50, 127});
    ASSERT_EQ(call.run(), Error::Ok);
    EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{-128, 49, 50, 50}))
        << "scalar_is_self = " << scalar_is_self;
  }
}

TEST(MinimumS8, ReferenceIsTheElementwiseMin) {
  etns::testing::Rng rng(7);
  const std::vector<int8_t> a = etns::testing::random_s8(rng, 1000);
  const std::vector<int8_t> b = etns::testing::random_s8(rng, 1000);
  std::vector<int8_t> out(1000);
  MinimumParams p;
  p.dims[3] = out.size();
  p.self_strides[3] = 1;
  p.other_strides[3] = 1;
  minimum_s8_ref(p, a.data(), b.data(), out.data());
  for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], std::min(a[i], b[i])) << i;
}

// [2, 1] vs [1, 3], worked by hand: out[i][j] = min(self[i], other[j]).
TEST(MinimumS8, BroadcastsBothOperandsByHand) {
  KernelCall call;
  call.tensor(ScalarType::Char, {2, 1})
      .tensor(ScalarType::Char, {1, 3})
      .tensor(ScalarType::Char, {2, 3});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kSelf, {0, -100});
  call.fill<int8_t>(kOther, {-5, 5, -128});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{-5, 0, -128, -100, -100, -128}));
}

// min over the broadcast shape by logical index (tests/support/broadcast_reference.h).
std::vector<int8_t> broadcast_min(const std::vector<int32_t>& a_sizes, const std::vector<int8_t>& a,
                                  const std::vector<int32_t>& b_sizes, const std::vector<int8_t>& b,
                                  const std::vector<int32_t>& out_sizes) {
  return etns::testing::broadcast_apply(a_sizes, a, b_sizes, b, out_sizes,
                                        [](int8_t x, int8_t y) { return std::min(x, y); });
}

TEST(MinimumS8, BroadcastsSizeOneDims) {
  struct Case {
    std::vector<int32_t> self;
    std::vector<int32_t> other;
    std::vector<int32_t> out;
  };
  const Case cases[] = {
      {{1, 1, 32, 32}, {1, 16, 32, 32}, {1, 16, 32, 32}},  // one plane repeated
      {{1, 16, 32, 32}, {1, 1, 32, 32}, {1, 16, 32, 32}},
      {{2, 1, 3, 1}, {1, 4, 1, 5}, {2, 4, 3, 5}},          // both operands broadcast
      {{1, 4, 1, 5}, {2, 1, 3, 1}, {2, 4, 3, 5}},
      {{2, 16, 1, 1}, {1, 16, 1, 32}, {2, 16, 1, 32}},     // a scalar per channel, W = 1
      {{32, 32}, {1, 16, 32, 32}, {1, 16, 32, 32}},        // ranks differ
      {{33}, {3, 5, 1}, {3, 5, 33}},
      {{3, 1, 17}, {3, 4, 17}, {3, 4, 17}},                // W broadcast, C kept
      {{3, 4, 1}, {3, 4, 17}, {3, 4, 17}},                 // C broadcast
      {{1, 4, 1}, {3, 1, 17}, {3, 4, 17}},
      {{1, 2, 3, 4, 5}, {1, 1, 3, 1, 5}, {1, 2, 3, 4, 5}},  // rank 5 with a leading 1
      {{2, 0, 3}, {2, 1, 3}, {2, 0, 3}},                    // empty
      // ExecuTorch's own cortex_m minimum tests (test_minimum.py, "broadcast" and
      // "broadcast_rank4"), which upstream passes.
      {{2, 1, 2}, {1, 2, 1}, {2, 2, 2}},
      {{1, 2, 3, 1}, {4, 1, 1, 3}, {4, 2, 3, 3}},
  };
  etns::testing::Rng rng(11);
  for (const Case& c : cases) {
    KernelCall call;
    call.tensor(ScalarType::Char, c.self)
        .tensor(ScalarType::Char, c.other)
        .tensor(ScalarType::Char, c.out);
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    const std::vector<int8_t> a = etns::testing::random_s8(rng, call.tensor_at(kSelf).numel);
    const std::vector<int8_t> b = etns::testing::random_s8(rng, call.tensor_at(kOther).numel);
    call.fill<int8_t>(kSelf, a);
    call.fill<int8_t>(kOther, b);
    ASSERT_EQ(call.run(), Error::Ok);
    EXPECT_EQ(call.read<int8_t>(kOut), broadcast_min(c.self, a, c.other, b, c.out))
        << format_sizes(c.self) << " vs " << format_sizes(c.other);
  }
}

// The reference walks a per-channel scalar ([1,16,1,1] vs [1,16,32,32]) as
// the broadcast defines it, with the merged dims prepare would build. prepare
// refuses that shape because upstream walks it wrongly
// (RejectsTheShapesUpstreamWalksWrongly).
TEST(MinimumS8, ReferenceBroadcastsAScalarPerChannel) {
  etns::testing::Rng rng(13);
  const std::vector<int8_t> channel = etns::testing::random_s8(rng, 16);
  const std::vector<int8_t> image = etns::testing::random_s8(rng, 16 * 1024);
  MinimumParams p;
  p.dims[2] = 16;
  p.dims[3] = 1024;
  p.self_strides[2] = 1;
  p.other_strides[2] = 1024;
  p.other_strides[3] = 1;
  std::vector<int8_t> out(16 * 1024);
  minimum_s8_ref(p, channel.data(), image.data(), out.data());
  EXPECT_EQ(out, broadcast_min({1, 16, 1, 1}, channel, {1, 16, 32, 32}, image, {1, 16, 32, 32}));
}

// Scalars: 0-dim and one-element tensors of any rank, on either side.
TEST(MinimumS8, ScalarsAndZeroDimTensors) {
  struct Case {
    std::vector<int32_t> self;
    std::vector<int32_t> other;
    std::vector<int32_t> out;
  };
  const Case cases[] = {
      {{}, {}, {}},           {{1}, {}, {1}},         {{}, {1, 1, 1, 1}, {1, 1, 1, 1}},
      {{1, 1}, {5}, {1, 5}},  {{7, 3}, {1, 1, 1}, {1, 7, 3}},
  };
  etns::testing::Rng rng(12);
  for (const Case& c : cases) {
    KernelCall call;
    call.tensor(ScalarType::Char, c.self)
        .tensor(ScalarType::Char, c.other)
        .tensor(ScalarType::Char, c.out);
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    const std::vector<int8_t> a = etns::testing::random_s8(rng, call.tensor_at(kSelf).numel);
    const std::vector<int8_t> b = etns::testing::random_s8(rng, call.tensor_at(kOther).numel);
    call.fill<int8_t>(kSelf, a);
    call.fill<int8_t>(kOther, b);
    ASSERT_EQ(call.run(), Error::Ok);
    EXPECT_EQ(call.read<int8_t>(kOut), broadcast_min(c.self, a, c.other, b, c.out))
        << format_sizes(c.self) << " vs " << format_sizes(c.other);
  }
}

// Same sizes in memory orders that differ only in size-1 dims store the
// elements alike: a channels_last tensor with C = 1 is laid out as a contiguous one.
TEST(MinimumS8, AcceptsEquivalentMemoryOrders) {
  KernelCall call;
  call.tensor(ScalarType::Char, {1, 1, 2, 3}, kNhwc)
      .tensor(ScalarType::Char, {1, 1, 2, 3})
      .tensor(ScalarType::Char, {1, 1, 2, 3}, kNhwc);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kSelf, {1, 2, 3, 4, 5, 6});
  call.fill<int8_t>(kOther, {6, 5, 4, 3, 2, 1});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{1, 2, 3, 3, 2, 1}));
}

// tier1_arm c0i2: min(conv1 output, 0-dim constant 50), channels_last.
TEST(MinimumS8, MatchesUpstreamGoldens) {
  ETNS_REQUIRE_SHARED(shared);
  for (const char* id : {"A", "B", "C"}) {
    const std::string prefix = shared + "/golden/tier1_arm." + id + ".";
    const std::vector<uint8_t> input = etns::testing::read_file(prefix + "c0i1.bin");
    const std::vector<uint8_t> want = etns::testing::read_file(prefix + "c0i2.bin");
    KernelCall call;
    call.tensor(ScalarType::Char, kImage, kNhwc)
        .tensor(ScalarType::Char, {})
        .tensor(ScalarType::Char, kImage, kNhwc);
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    ASSERT_EQ(input.size(), call.tensor_at(kSelf).nbytes);
    ASSERT_EQ(want.size(), call.tensor_at(kOut).nbytes);
    std::memcpy(call.data<int8_t>(kSelf), input.data(), input.size());
    call.fill<int8_t>(kOther, {50});
    ASSERT_EQ(call.run(), Error::Ok);
    EXPECT_EQ(std::memcmp(call.data<int8_t>(kOut), want.data(), want.size()), 0) << id;
  }
}

// --- prepare rejects what the kernel does not accept ---

struct Shapes {
  std::vector<int32_t> self = {1, 4, 2, 2};
  std::vector<int32_t> other = {};
  std::vector<int32_t> out = {1, 4, 2, 2};
  std::vector<uint8_t> self_dim_order = {};
  std::vector<uint8_t> other_dim_order = {};
  std::vector<uint8_t> out_dim_order = {};
  ScalarType self_dtype = ScalarType::Char;
  ScalarType other_dtype = ScalarType::Char;
  ScalarType out_dtype = ScalarType::Char;
};

void expect_rejected(const Shapes& s, Error code, const std::string& message) {
  KernelCall call;
  call.tensor(s.self_dtype, s.self, s.self_dim_order)
      .tensor(s.other_dtype, s.other, s.other_dim_order)
      .tensor(s.out_dtype, s.out, s.out_dim_order);
  EXPECT_EQ(call.prepare(kEntry), code);
  EXPECT_NE(call.log().find("c0i0 cortex_m::minimum.out: " + message), std::string::npos)
      << "log: " << call.log();
}

TEST(MinimumPrepare, RejectsWrongDtypes) {
  Shapes s;
  s.self_dtype = ScalarType::Float;
  expect_rejected(s, Error::InvalidArgument, "self dtype float32, expected int8");
  s = Shapes{};
  s.other_dtype = ScalarType::Byte;
  expect_rejected(s, Error::InvalidArgument, "other dtype uint8, expected int8");
  s = Shapes{};
  s.out_dtype = ScalarType::Int;
  expect_rejected(s, Error::InvalidArgument, "out dtype int32, expected int8");
}

TEST(MinimumPrepare, RejectsWrongKindOfArgument) {
  KernelCall call;
  call.tensor(ScalarType::Char, {4}).int_value(50).tensor(ScalarType::Char, {4});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidProgram);
  EXPECT_NE(call.log().find("argument 1 (other) is Int, expected Tensor"), std::string::npos)
      << call.log();
}

TEST(MinimumPrepare, RejectsShapesThatDoNotBroadcast) {
  Shapes s;
  s.other = {1, 3, 1, 1};
  expect_rejected(s, Error::InvalidArgument,
                  "self [1, 4, 2, 2] and other [1, 3, 1, 1] do not broadcast");
}

// Upstream walks logical sizes over the physical buffer: a channels_last
// operand with C > 1 pairs the wrong elements, so we refuse it.
TEST(MinimumPrepare, RejectsBroadcastingChannelsLast) {
  Shapes s;
  s.self_dim_order = {0, 2, 3, 1};
  s.other = {1, 4, 1, 1};
  s.out_dim_order = {0, 2, 3, 1};
  expect_rejected(s, Error::NotSupported,
                  "self [1, 4, 2, 2] is not stored in logical order; upstream broadcasts");
  // A channels_last operand whose C is 1 is in logical order, and is accepted.
  KernelCall call;
  call.tensor(ScalarType::Char, {1, 1, 2, 2}, kNhwc)
      .tensor(ScalarType::Char, {1, 1, 1, 2})
      .tensor(ScalarType::Char, {1, 1, 2, 2});
  EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
}

// arm_minimum_s8's row-scalar branch steps an operand with W = C = 1 by two
// per row when the other operand's W is larger: rows 1, 2, ... read the wrong
// elements (and past the end), so no program can rely on it.
TEST(MinimumPrepare, RejectsTheShapesUpstreamWalksWrongly) {
  Shapes s;
  s.self = {1, 16, 1, 1};
  s.other = {1, 16, 32, 32};
  s.out = {1, 16, 32, 32};
  expect_rejected(s, Error::NotSupported,
                  "self [1, 16, 1, 1] and other [1, 16, 32, 32]: upstream's arm_minimum_s8 "
                  "reads every second element");
  s.self = {1, 3, 2, 5};
  s.other = {3, 1, 1};
  s.out = {1, 3, 2, 5};
  expect_rejected(s, Error::NotSupported,
                  "self [1, 3, 2, 5] and other [3, 1, 1]: upstream's arm_minimum_s8 reads");
  s.self = {3, 4, 1};
  s.other = {1, 1};
  s.out = {3, 4, 1};
  // Not that branch: other has one element (the scalar path).
  KernelCall call;
  call.tensor(ScalarType::Char, s.self).tensor(ScalarType::Char, s.other).tensor(ScalarType::Char, s.out);
  EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  // Nor when the other operand's W is 1: that walk is right.
  KernelCall per_channel;
  per_channel.tensor(ScalarType::Char, {2, 3, 1, 1})
      .tensor(ScalarType::Char, {2, 3, 1, 4})
      .tensor(ScalarType::Char, {2, 3, 1, 4});
  EXPECT_EQ(per_channel.prepare(kEntry), Error::Ok) << per_channel.log();
}

// Upstream sizes the broadcast for at most 5 dims and walks only the last 4.
TEST(MinimumPrepare, RanksAboveFour) {
  Shapes s;
  s.self = {2, 1, 4, 2, 2};
  s.other = {};
  s.out = {2, 1, 4, 2, 2};
  expect_rejected(s, Error::NotSupported,
                  "out [2, 1, 4, 2, 2]: upstream's arm_minimum_s8 walks only the last 4 dims");
  s.self = {1, 1, 1, 4, 2, 2};
  s.out = {1, 1, 1, 4, 2, 2};
  expect_rejected(s, Error::InvalidArgument, "self has rank 6, expected at most 5");
}

TEST(MinimumPrepare, RejectsAnOutOfAnotherShapeOrLayout) {
  Shapes s;
  s.out = {1, 4, 4, 1};
  expect_rejected(s, Error::InvalidArgument,
                  "out [1, 4, 4, 1] differs from [1, 4, 2, 2], the broadcast shape of self "
                  "[1, 4, 2, 2] and other []");
  s = Shapes{};
  s.self = {};
  s.other = {1, 4, 2, 2};
  s.out = {1, 4, 2};
  expect_rejected(s, Error::InvalidArgument,
                  "out [1, 4, 2] differs from [1, 4, 2, 2], the broadcast shape");
  s = Shapes{};
  s.out_dim_order = {0, 2, 3, 1};
  expect_rejected(s, Error::InvalidArgument, "out and self have different dim orders");
  s = Shapes{};
  s.other = {1, 4, 2, 2};
  s.other_dim_order = {0, 2, 3, 1};
  expect_rejected(s, Error::InvalidArgument, "self and other have different dim orders");
}

}  // namespace
}  // namespace etns::cortex_m
