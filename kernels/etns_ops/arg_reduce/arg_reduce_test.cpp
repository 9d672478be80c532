#include "kernels/etns_ops/arg_reduce/arg_reduce.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "runtime/core/log.h"

#include "tests/support/kernel_call.h"

namespace etns::etns_ops {
namespace {

using runtime::Error;
using runtime::ScalarType;
using testing::KernelCall;

const runtime::KernelEntry kEntry = runtime::kernel_entry(kArgReduceContract, &arg_reduce_prepare, &arg_reduce_run);

constexpr runtime::Arg kSelf = kArgReduceContract.arg("self");
constexpr runtime::Arg kOut = kArgReduceContract.out();

void build(KernelCall& call, const std::vector<int32_t>& self, int64_t dim, bool is_min,
           const std::vector<int32_t>& out) {
  call.tensor(ScalarType::Char, self);
  call.int_value(dim);
  call.bool_value(is_min);
  call.tensor(ScalarType::Int, out);
}

std::vector<int32_t> run(const std::vector<int32_t>& sizes, int64_t dim, bool is_min, const std::vector<int32_t>& out,
                         const std::vector<int8_t>& values) {
  KernelCall call;
  build(call, sizes, dim, is_min, out);
  EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kSelf, values);
  EXPECT_EQ(call.run(), Error::Ok);
  return call.read<int32_t>(kOut);
}

TEST(ArgReduce, HandWorkedRowsAndColumns) {
  // [[3, -7, 9], [9, 9, -128]]
  const std::vector<int8_t> v = {3, -7, 9, 9, 9, -128};
  EXPECT_EQ(run({2, 3}, 1, false, {2}, v), (std::vector<int32_t>{2, 0}));
  EXPECT_EQ(run({2, 3}, -1, true, {2}, v), (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(run({2, 3}, 0, false, {3}, v), (std::vector<int32_t>{1, 1, 0}));
  EXPECT_EQ(run({2, 3}, -2, true, {3}, v), (std::vector<int32_t>{0, 0, 1}));
}

// Upstream moves only on a strictly better value: of equal extremes the
// first index wins, for both directions and every position of the tie.
TEST(ArgReduce, TiesKeepTheFirstIndex) {
  EXPECT_EQ(run({5}, 0, false, {}, {4, 4, 4, 4, 4}), (std::vector<int32_t>{0}));
  EXPECT_EQ(run({5}, 0, true, {}, {4, 4, 4, 4, 4}), (std::vector<int32_t>{0}));
  EXPECT_EQ(run({5}, 0, false, {}, {1, 127, 5, 127, 127}), (std::vector<int32_t>{1}));
  EXPECT_EQ(run({5}, 0, true, {}, {1, -128, 5, -128, 0}), (std::vector<int32_t>{1}));
  EXPECT_EQ(run({1}, 0, false, {}, {-3}), (std::vector<int32_t>{0}));
}

TEST(ArgReduce, RankFourMiddleDim) {
  // [1, 2, 3, 2]: dim 2 has three values for each of the 2 * 2 (n, h, c) outputs.
  std::vector<int8_t> v(12);
  for (int k = 0; k < 12; ++k) v[static_cast<size_t>(k)] = static_cast<int8_t>((k * 5) % 7 - 3);
  // v = -3, 2, 0, -2, 3, 1, -1, -3, 2, 0, -2, 3
  EXPECT_EQ(run({1, 2, 3, 2}, 2, false, {1, 2, 2}, v), (std::vector<int32_t>{2, 0, 1, 2}));
  EXPECT_EQ(run({1, 2, 3, 2}, 2, true, {1, 2, 2}, v), (std::vector<int32_t>{0, 1, 2, 0}));
}

struct Rejection {
  const char* what;
  std::vector<int32_t> self;
  int64_t dim;
  std::vector<int32_t> out;
  Error code;
  const char* message;
};

TEST(ArgReducePrepare, RejectsEveryBadArgumentWithOneLine) {
  const Rejection kRejections[] = {
      {"dim past", {3, 2}, 2, {3}, Error::InvalidArgument, "dim = 2, expected [-2, 2) for self [3, 2]"},
      {"dim below", {3, 2}, -3, {3}, Error::InvalidArgument, "dim = -3, expected [-2, 2) for self [3, 2]"},
      {"empty dim", {3, 0}, 1, {3}, Error::InvalidArgument, "self [3, 0]: dim 1 is empty, no index to return"},
      {"out sizes", {3, 2}, 1, {2}, Error::InvalidArgument, "out [2], expected [3] (self [3, 2] without dim 1)"},
      {"out rank", {3, 2}, 0, {1, 2}, Error::InvalidArgument,
       "out [1, 2], expected [2] (self [3, 2] without dim 0)"},
  };
  for (const Rejection& r : kRejections) {
    KernelCall call;
    build(call, r.self, r.dim, false, r.out);
    EXPECT_EQ(call.prepare(kEntry), r.code) << r.what << ": " << call.log();
    EXPECT_TRUE(testing::logged(call, r.message)) << r.what << ": " << call.log();
  }
}

}  // namespace
}  // namespace etns::etns_ops
