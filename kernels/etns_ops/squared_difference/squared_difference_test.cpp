#include "kernels/etns_ops/squared_difference/squared_difference.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tests/support/kernel_call.h"

namespace etns::etns_ops {
namespace {

using runtime::Error;
using runtime::ScalarType;
using testing::KernelCall;

const runtime::KernelEntry kEntry =
    runtime::kernel_entry(kSquaredDifferenceContract, &squared_difference_prepare, &squared_difference_run);

constexpr runtime::Arg kSelf = kSquaredDifferenceContract.arg("self");
constexpr runtime::Arg kOther = kSquaredDifferenceContract.arg("other");
constexpr runtime::Arg kOut = kSquaredDifferenceContract.out();

// Inputs on scale 1 (each factor 1 / 2 = 2^30 * 2^0 / 2^31) and out on
// scale 4: (2 * 1)^2 / (2^14 * 4) = 2^-14 = 2^30 * 2^-13 / 2^31.
struct Args {
  std::vector<int32_t> self, other, out;
  std::vector<uint8_t> self_order = {};  // empty: contiguous
  int64_t self_zero_point = 0, other_zero_point = 0, out_zero_point = 0;
  int64_t self_shift = 0, other_shift = 0, out_shift = -13;
  int64_t out_multiplier = int64_t{1} << 30;
};

void build(KernelCall& call, const Args& a) {
  const int64_t half = int64_t{1} << 30;
  call.tensor(ScalarType::Char, a.self, a.self_order);
  call.int_value(a.self_zero_point).int_value(half).int_value(a.self_shift);
  call.tensor(ScalarType::Char, a.other);
  call.int_value(a.other_zero_point).int_value(half).int_value(a.other_shift);
  call.int_value(a.out_zero_point).int_value(a.out_multiplier).int_value(a.out_shift);
  call.tensor(ScalarType::Char, a.out);
}

std::vector<int8_t> run(const Args& a, const std::vector<int8_t>& x, const std::vector<int8_t>& y) {
  KernelCall call;
  build(call, a);
  EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kSelf, x);
  call.fill<int8_t>(kOther, y);
  EXPECT_EQ(call.run(), Error::Ok);
  return call.read<int8_t>(kOut);
}

// (x - y)^2 / 4 on these grids: 16^2 / 4 = 64; 1/4 rounds to 0, 4/4 = 1,
// 9/4 to 2; 255^2 / 4 saturates at 127; equal codes give out's zero point.
TEST(SquaredDifference, HandWorkedSameShapes) {
  Args a{{2, 3}, {2, 3}, {2, 3}};
  EXPECT_EQ(run(a, {10, 1, 2, 3, 127, 5}, {-6, 0, 0, 0, -128, 5}), (std::vector<int8_t>{64, 0, 1, 2, 127, 0}));
  a.out_zero_point = -128;
  a.self_zero_point = 5;
  // x - 5 against y: 11^2 / 4 = 30.25 -> 30 - 128; (0 - 5)^2 / 4 = 6.25 -> 6 - 128;
  // then 0 against 0.
  EXPECT_EQ(run(a, {21, 5, 5, 5, 5, 5}, {5, 5, 0, 0, 0, 0}), (std::vector<int8_t>{-98, -122, -128, -128, -128, -128}));
}

// A row, a column and a scalar broadcast onto [2, 3].
TEST(SquaredDifference, HandWorkedBroadcasts) {
  const std::vector<int8_t> x{0, 2, 4, 6, 8, 10};
  EXPECT_EQ(run({{2, 3}, {3}, {2, 3}}, x, {0, 2, 4}), (std::vector<int8_t>{0, 0, 0, 9, 9, 9}));
  EXPECT_EQ(run({{2, 3}, {2, 1}, {2, 3}}, x, {0, 10}), (std::vector<int8_t>{0, 1, 4, 4, 1, 0}));
  EXPECT_EQ(run({{1}, {2, 3}, {2, 3}}, {4}, x), (std::vector<int8_t>{4, 1, 0, 1, 4, 9}));
  // Both operands broadcast: [2, 1] against [1, 3].
  EXPECT_EQ(run({{2, 1}, {1, 3}, {2, 3}}, {0, 10}, {0, 2, 4}), (std::vector<int8_t>{0, 1, 4, 25, 16, 9}));
}

// Equal sizes in a channels_last order: one flat walk of the shared bytes.
TEST(SquaredDifference, ChannelsLastSameShapes) {
  KernelCall call;
  const std::vector<uint8_t> nhwc{0, 2, 3, 1};
  call.tensor(ScalarType::Char, {1, 2, 1, 2}, nhwc);
  call.int_value(0).int_value(int64_t{1} << 30).int_value(0);
  call.tensor(ScalarType::Char, {1, 2, 1, 2}, nhwc);
  call.int_value(0).int_value(int64_t{1} << 30).int_value(0);
  call.int_value(0).int_value(int64_t{1} << 30).int_value(-13);
  call.tensor(ScalarType::Char, {1, 2, 1, 2}, nhwc);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kSelf, {2, 4, 6, 8});
  call.fill<int8_t>(kOther, {0, 0, 0, 0});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{1, 4, 9, 16}));
}

struct Rejection {
  const char* what;
  Args args;
  Error code;
  const char* message;
};

TEST(SquaredDifferencePrepare, RejectsEveryBadArgumentWithOneLine) {
  Args positive_shift{{2}, {2}, {2}};
  positive_shift.self_shift = 1;
  Args zero_point{{2}, {2}, {2}};
  zero_point.other_zero_point = 128;
  Args out_shift{{2}, {2}, {2}};
  out_shift.out_shift = 31;
  Args channels_last{{1, 3, 2, 2}, {2}, {1, 3, 2, 2}, {0, 2, 3, 1}};
  const Rejection kRejections[] = {
      {"no broadcast", {{2, 3}, {2}, {2, 3}}, Error::InvalidArgument, "other [2] does not broadcast onto out [2, 3]"},
      {"higher rank", {{1, 2, 3}, {3}, {2, 3}}, Error::InvalidArgument,
       "self [1, 2, 3] does not broadcast onto out [2, 3]"},
      {"out too big", {{1, 3}, {3}, {2, 3}}, Error::InvalidArgument,
       "out [2, 3] is not the broadcast of self [1, 3] and other [3] (dim 0)"},
      {"five alternating dims", {{2, 1, 2, 1, 2}, {1, 2, 1, 2, 1}, {2, 2, 2, 2, 2}}, Error::NotSupported,
       "self [2, 1, 2, 1, 2] and other [1, 2, 1, 2, 1] broadcast onto out [2, 2, 2, 2, 2] over 5 alternating dims "
       "(4 are walked)"},
      {"channels_last broadcast", channels_last, Error::InvalidArgument, "self must be contiguous (row-major in memory)"},
      {"input shift", positive_shift, Error::InvalidArgument, "self_shift = 1, expected [-31, 0]"},
      {"zero point", zero_point, Error::InvalidArgument, "other_zero_point = 128, expected [-128, 127]"},
      {"out shift", out_shift, Error::InvalidArgument, "out_shift = 31"},
  };
  for (const Rejection& r : kRejections) {
    KernelCall call;
    build(call, r.args);
    EXPECT_EQ(call.prepare(kEntry), r.code) << r.what << ": " << call.log();
    EXPECT_TRUE(testing::logged(call, r.message)) << r.what << ": " << call.log();
  }
}

}  // namespace
}  // namespace etns::etns_ops
