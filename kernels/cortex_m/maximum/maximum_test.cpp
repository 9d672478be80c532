#include "kernels/cortex_m/maximum/maximum.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/support/broadcast_reference.h"
#include "tests/support/kernel_call.h"
#include "tests/support/rng.h"

// maximum shares its prepare with minimum (kernels/common/broadcast_walk.h),
// whose tests cover every accepted and refused shape; these check the max
// itself, the shapes around the tile and that refusals name arm_maximum_s8.
namespace etns::cortex_m {
namespace {

using etns::testing::format_sizes;
using etns::testing::KernelCall;
using runtime::Error;
using runtime::ScalarType;

const runtime::KernelEntry kEntry =
    runtime::kernel_entry(kMaximumContract, &maximum_prepare, &maximum_run);
constexpr runtime::Arg kSelf = kMaximumContract.arg("self");
constexpr runtime::Arg kOther = kMaximumContract.arg("other");
constexpr runtime::Arg kOut = kMaximumContract.out();

TEST(MaximumS8, IdenticalShapesByHand) {
  KernelCall call;
  call.tensor(ScalarType::Char, {2, 3})
      .tensor(ScalarType::Char, {2, 3})
      .tensor(ScalarType::Char, {2, 3});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kSelf, {-128, 127, 0, 5, -5, -128});
  call.fill<int8_t>(kOther, {127, -128, 0, -5, 5, -128});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{127, 127, 0, 5, 5, -128}));
}

TEST(MaximumS8, AScalarOnEitherSideByHand) {
  for (bool scalar_is_self : {false, true}) {
    KernelCall call;
    if (scalar_is_self) {
      call.tensor(ScalarType::Char, {}).tensor(ScalarType::Char, {1, 4, 1, 1});
    } else {
      call.tensor(ScalarType::Char, {1, 4, 1, 1}).tensor(ScalarType::Char, {1});
    }
    call.tensor(ScalarType::Char, {1, 4, 1, 1});
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    call.fill<int8_t>(scalar_is_self ? kSelf : kOther, {-3});
    call.fill<int8_t>(scalar_is_self ? kOther : kSelf, {-128, -4, -3, 127});
    ASSERT_EQ(call.run(), Error::Ok);
    EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{-3, -3, -3, 127}))
        << "scalar_is_self = " << scalar_is_self;
  }
}

// [2, 1] vs [1, 3]: out[i][j] = max(self[i], other[j]).
TEST(MaximumS8, BroadcastsBothOperandsByHand) {
  KernelCall call;
  call.tensor(ScalarType::Char, {2, 1})
      .tensor(ScalarType::Char, {1, 3})
      .tensor(ScalarType::Char, {2, 3});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kSelf, {0, -100});
  call.fill<int8_t>(kOther, {-5, 5, 127});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{0, 5, 127, -5, 5, 127}));
}

// Channel counts around the 16-lane tile, batch 2, and broadcasts of each dim.
TEST(MaximumS8, MatchesTheBroadcastDefinition) {
  struct Case {
    std::vector<int32_t> self;
    std::vector<int32_t> other;
    std::vector<int32_t> out;
  };
  const Case cases[] = {
      {{2, 3, 5, 1}, {2, 3, 5, 1}, {2, 3, 5, 1}},
      {{2, 3, 5, 16}, {2, 3, 5, 16}, {2, 3, 5, 16}},
      {{2, 3, 5, 17}, {}, {2, 3, 5, 17}},
      {{1, 2, 2, 33}, {1, 1, 1, 33}, {1, 2, 2, 33}},
      {{2, 1, 3, 1}, {1, 4, 1, 5}, {2, 4, 3, 5}},
      {{3, 1, 17}, {3, 4, 17}, {3, 4, 17}},
      {{1, 2, 3, 4, 5}, {1, 1, 3, 1, 5}, {1, 2, 3, 4, 5}},
      {{2, 0, 3}, {2, 1, 3}, {2, 0, 3}},
  };
  etns::testing::Rng rng(21);
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
    EXPECT_EQ(call.read<int8_t>(kOut),
              etns::testing::broadcast_apply(c.self, a, c.other, b, c.out,
                                             [](int8_t x, int8_t y) { return std::max(x, y); }))
        << format_sizes(c.self) << " vs " << format_sizes(c.other);
  }
}

void expect_rejected(const std::vector<int32_t>& self, const std::vector<int32_t>& other,
                     const std::vector<int32_t>& out, Error code, const std::string& message,
                     ScalarType dtype = ScalarType::Char) {
  KernelCall call;
  call.tensor(dtype, self).tensor(ScalarType::Char, other).tensor(ScalarType::Char, out);
  EXPECT_EQ(call.prepare(kEntry), code);
  EXPECT_NE(call.log().find("c0i0 cortex_m::maximum.out: " + message), std::string::npos)
      << "log: " << call.log();
}

TEST(MaximumPrepare, RefusesAsMinimumDoesNamingItsKernel) {
  expect_rejected({4}, {4}, {4}, Error::InvalidArgument, "self dtype float32, expected int8",
                  ScalarType::Float);
  expect_rejected({1, 4, 2, 2}, {1, 3, 1, 1}, {1, 4, 2, 2}, Error::InvalidArgument,
                  "self [1, 4, 2, 2] and other [1, 3, 1, 1] do not broadcast");
  expect_rejected({1, 4, 2, 2}, {}, {1, 4, 4, 1}, Error::InvalidArgument,
                  "out [1, 4, 4, 1] differs from [1, 4, 2, 2]");
  expect_rejected({1, 16, 1, 1}, {1, 16, 32, 32}, {1, 16, 32, 32}, Error::NotSupported,
                  "self [1, 16, 1, 1] and other [1, 16, 32, 32]: upstream's arm_maximum_s8 "
                  "reads every second element");
  expect_rejected({2, 1, 4, 2, 2}, {}, {2, 1, 4, 2, 2}, Error::NotSupported,
                  "out [2, 1, 4, 2, 2]: upstream's arm_maximum_s8 walks only the last 4 dims");
}

TEST(MaximumPrepare, RefusesBroadcastingChannelsLast) {
  KernelCall call;
  call.tensor(ScalarType::Char, {1, 4, 2, 2}, {0, 2, 3, 1})
      .tensor(ScalarType::Char, {1, 4, 1, 1})
      .tensor(ScalarType::Char, {1, 4, 2, 2}, {0, 2, 3, 1});
  EXPECT_EQ(call.prepare(kEntry), Error::NotSupported);
  EXPECT_NE(call.log().find("self [1, 4, 2, 2] is not stored in logical order"), std::string::npos)
      << call.log();
}

}  // namespace
}  // namespace etns::cortex_m
