#include "kernels/etns_ops/gather_hw/gather_hw.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tests/support/kernel_call.h"

namespace etns::etns_ops {
namespace {

using runtime::Error;
using runtime::ScalarType;
using testing::KernelCall;

const runtime::KernelEntry kEntry = runtime::kernel_entry(kGatherHwContract, &gather_hw_prepare, &gather_hw_run);

constexpr runtime::Arg kSelf = kGatherHwContract.arg("self");
constexpr runtime::Arg kRows = kGatherHwContract.arg("rows");
constexpr runtime::Arg kCols = kGatherHwContract.arg("cols");
constexpr runtime::Arg kOut = kGatherHwContract.out();

const std::vector<uint8_t> kChannelsLast{0, 2, 3, 1};

struct Args {
  std::vector<int32_t> self_nhwc;
  std::vector<int32_t> rows;
  std::vector<int32_t> cols;
  std::vector<int32_t> out_nhwc;  // empty: [N, rows, cols, C]
  bool constant = true;
};

std::vector<int32_t> nchw(const std::vector<int32_t>& s) { return {s[0], s[3], s[1], s[2]}; }

void build(KernelCall& call, const Args& a) {
  std::vector<int32_t> out = a.out_nhwc;
  if (out.empty()) {
    out = {a.self_nhwc[0], static_cast<int32_t>(a.rows.size()), static_cast<int32_t>(a.cols.size()), a.self_nhwc[3]};
  }
  call.tensor(ScalarType::Char, nchw(a.self_nhwc), kChannelsLast);
  call.tensor(ScalarType::Int, {static_cast<int32_t>(a.rows.size())});
  call.tensor(ScalarType::Int, {static_cast<int32_t>(a.cols.size())});
  call.tensor(ScalarType::Char, nchw(out), kChannelsLast);
  call.tensor_at(kRows).is_constant = a.constant;
  call.tensor_at(kCols).is_constant = a.constant;
  call.fill<int32_t>(kRows, a.rows);
  call.fill<int32_t>(kCols, a.cols);
}

// The definition written out on NHWC bytes.
std::vector<int8_t> expected(const Args& a, const std::vector<int8_t>& self) {
  const int32_t n = a.self_nhwc[0], w = a.self_nhwc[2], c = a.self_nhwc[3];
  const int32_t h = a.self_nhwc[1];
  std::vector<int8_t> out;
  for (int32_t b = 0; b < n; ++b) {
    for (const int32_t r : a.rows) {
      for (const int32_t q : a.cols) {
        for (int32_t k = 0; k < c; ++k) out.push_back(self[static_cast<size_t>(((b * h + r) * w + q) * c + k)]);
      }
    }
  }
  return out;
}

void check(const Args& a) {
  KernelCall call;
  build(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  const size_t count = call.tensor_at(kSelf).numel;
  std::vector<int8_t> self(count);
  for (size_t i = 0; i < count; ++i) self[i] = static_cast<int8_t>(i * 37 + 5);
  call.fill<int8_t>(kSelf, self);
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), expected(a, self));
}

TEST(GatherHw, HandWorkedUpsampleByTwo) {
  Args a{{1, 2, 2, 1}, {0, 0, 1, 1}, {0, 0, 1, 1}, {}};
  KernelCall call;
  build(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kSelf, {1, 2, 3, 4});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}));
}

TEST(GatherHw, PixelsKeepTheirChannelsInOrder) {
  Args a{{1, 1, 3, 2}, {0}, {2, 0}, {}};
  KernelCall call;
  build(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kSelf, {-128, -1, 0, 1, 126, 127});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{126, 127, -128, -1}));
}

TEST(GatherHw, UpDownAndRepeatedIndicesOverBatches) {
  check(Args{{2, 3, 4, 5}, {0, 0, 1, 1, 2, 2}, {0, 1, 1, 2, 3, 3, 3}, {}});
  check(Args{{3, 6, 5, 2}, {0, 2, 4}, {1, 3}, {}});
  check(Args{{1, 4, 4, 17}, {3, 2, 1, 0}, {0, 0, 0}, {}});
  check(Args{{2, 1, 1, 33}, {0, 0, 0}, {0, 0}, {}});
}

struct Rejection {
  const char* what;
  Args args;
  Error code;
  const char* message;
};

TEST(GatherHwPrepare, RejectsEveryBadArgumentWithOneLine) {
  const Rejection kRejections[] = {
      {"batch", {{1, 2, 2, 3}, {0}, {0}, {2, 1, 1, 3}}, Error::InvalidArgument,
       "out [2, 3, 1, 1] and self [1, 3, 2, 2] differ in batch or channels"},
      {"channels", {{1, 2, 2, 3}, {0}, {0}, {1, 1, 1, 4}}, Error::InvalidArgument,
       "out [1, 4, 1, 1] and self [1, 3, 2, 2] differ in batch or channels"},
      {"rows count", {{1, 2, 2, 3}, {0, 1}, {0}, {1, 3, 1, 3}}, Error::InvalidArgument,
       "rows has 2 entries, expected 3 (out's height)"},
      {"cols count", {{1, 2, 2, 3}, {0}, {0}, {1, 1, 2, 3}}, Error::InvalidArgument,
       "cols has 1 entries, expected 2 (out's width)"},
      {"row past", {{1, 2, 2, 3}, {0, 2}, {0}, {}}, Error::InvalidArgument,
       "rows[1] = 2 is outside self's height, [0, 2)"},
      {"col negative", {{1, 2, 5, 3}, {0}, {4, -1}, {}}, Error::InvalidArgument,
       "cols[1] = -1 is outside self's width, [0, 5)"},
      {"not constant", {{1, 2, 2, 3}, {0}, {0}, {}, false}, Error::NotSupported,
       "rows is not a constant tensor (its entries are checked once, at load)"},
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
