#include "kernels/etns_ops/resize_bilinear/resize_bilinear.h"

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
    runtime::kernel_entry(kResizeBilinearContract, &resize_bilinear_prepare, &resize_bilinear_run);

constexpr runtime::Arg kSelf = kResizeBilinearContract.arg("self");
constexpr runtime::Arg kRows = kResizeBilinearContract.arg("rows");
constexpr runtime::Arg kCols = kResizeBilinearContract.arg("cols");
constexpr runtime::Arg kOut = kResizeBilinearContract.out();

const std::vector<uint8_t> kChannelsLast{0, 2, 3, 1};

struct Args {
  std::vector<int32_t> self_nhwc;
  std::vector<int32_t> rows;  // triples (y0, y1, fy)
  std::vector<int32_t> cols;  // triples (x0, x1, fx)
  std::vector<int32_t> out_nhwc;  // empty: [N, rows / 3, cols / 3, C]
  bool constant = true;
};

std::vector<int32_t> nchw(const std::vector<int32_t>& s) { return {s[0], s[3], s[1], s[2]}; }

void build(KernelCall& call, const Args& a) {
  std::vector<int32_t> out = a.out_nhwc;
  if (out.empty()) {
    out = {a.self_nhwc[0], static_cast<int32_t>(a.rows.size() / 3), static_cast<int32_t>(a.cols.size() / 3),
           a.self_nhwc[3]};
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

std::vector<int8_t> run(const Args& a, const std::vector<int8_t>& self) {
  KernelCall call;
  build(call, a);
  EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kSelf, self);
  EXPECT_EQ(call.run(), Error::Ok);
  return call.read<int8_t>(kOut);
}

// TFLM's 2x2 to 3x3 (resize_bilinear_test.cc, TwoDimensionalResizeInt8):
// scale 683/1024, so rows and columns (0, 1, 0), (0, 1, 683), (1, 1, 342).
TEST(ResizeBilinear, HandWorkedTwoByTwoToThreeByThree) {
  const std::vector<int32_t> t = {0, 1, 0, 0, 1, 683, 1, 1, 342};
  EXPECT_EQ(run(Args{{1, 2, 2, 1}, t, t, {}}, {3, 6, 9, 12}), (std::vector<int8_t>{3, 5, 6, 7, 9, 10, 9, 11, 12}));
}

// s = +-2^19 and +-3 * 2^19 are ties: away from zero, 1, -1, 2, -2 (a
// floor after adding 2^19 would give 0 and -1 for the negative ones).
TEST(ResizeBilinear, TiesRoundAwayFromZero) {
  const Args a{{1, 1, 2, 4}, {0, 0, 0}, {0, 1, 512}, {}};
  EXPECT_EQ(run(a, {0, 0, 0, 0, 1, -1, 3, -3}), (std::vector<int8_t>{1, -1, 2, -2}));
  // Just below and above a tie: 1023/2048 and 1025/2048 of 1.
  EXPECT_EQ(run(Args{{1, 1, 2, 1}, {0, 0, 0}, {0, 1, 511, 0, 1, 513}, {}}, {0, 1}), (std::vector<int8_t>{0, 1}));
  EXPECT_EQ(run(Args{{1, 1, 2, 1}, {0, 0, 0}, {0, 1, 511, 0, 1, 513}, {}}, {0, -1}), (std::vector<int8_t>{0, -1}));
}

// A fraction outside [0, 1024] extrapolates; the result keeps its low byte,
// as TFLite's static_cast does: 127 * -1024 + -128 * 2048 over 1024 is -383,
// whose low byte is -127.
TEST(ResizeBilinear, ExtrapolationKeepsTheLowByte) {
  EXPECT_EQ(run(Args{{1, 1, 2, 1}, {0, 0, 0}, {0, 1, 2048}, {}}, {127, -128}), (std::vector<int8_t>{-127}));
  // 60 * 1.5 - 40 * 0.5 = 70, in range; 100 * 1.5 - 20 * 0.5 = 140 wraps to -116.
  EXPECT_EQ(run(Args{{1, 2, 1, 1}, {0, 1, -512}, {0, 0, 0}, {}}, {60, 40}), (std::vector<int8_t>{70}));
  EXPECT_EQ(run(Args{{1, 2, 1, 1}, {0, 1, -512}, {0, 0, 0}, {}}, {100, 20}), (std::vector<int8_t>{-116}));
}

// Batches and channels keep their places: each batch reads its own image.
TEST(ResizeBilinear, BatchesAndChannelsStayApart) {
  const Args a{{2, 1, 2, 2}, {0, 0, 0}, {0, 1, 256}, {}};
  // (3 * 768 + 7 * 256) / 1024 = 4; (-8 * 768 + 8 * 256) / 1024 = -4;
  // (100 * 768 + 0) / 1024 = 75; (-1 * 768 + 1 * 256) / 1024 = -0.5 -> -1.
  EXPECT_EQ(run(a, {3, -8, 7, 8, 100, -1, 0, 1}), (std::vector<int8_t>{4, -4, 75, -1}));
}

struct Rejection {
  const char* what;
  Args args;
  Error code;
  const char* message;
};

TEST(ResizeBilinearPrepare, RejectsEveryBadArgumentWithOneLine) {
  const std::vector<int32_t> one = {0, 0, 0};
  const Rejection kRejections[] = {
      {"batch", {{1, 2, 2, 3}, one, one, {2, 1, 1, 3}}, Error::InvalidArgument,
       "out [2, 3, 1, 1] and self [1, 3, 2, 2] differ in batch or channels"},
      {"channels", {{1, 2, 2, 3}, one, one, {1, 1, 1, 4}}, Error::InvalidArgument,
       "out [1, 4, 1, 1] and self [1, 3, 2, 2] differ in batch or channels"},
      {"rows count", {{1, 2, 2, 3}, {0, 1, 0, 0}, one, {1, 1, 1, 3}}, Error::InvalidArgument,
       "rows has 4 entries, expected 3 (3 * out's height)"},
      {"cols count", {{1, 2, 2, 3}, one, one, {1, 1, 2, 3}}, Error::InvalidArgument,
       "cols has 3 entries, expected 6 (3 * out's width)"},
      {"row past", {{1, 2, 2, 3}, {0, 2, 0}, one, {}}, Error::InvalidArgument,
       "rows[1] = 2 is outside self's height, [0, 2)"},
      {"col negative", {{1, 2, 5, 3}, one, {-1, 0, 0}, {}}, Error::InvalidArgument,
       "cols[0] = -1 is outside self's width, [0, 5)"},
      {"fraction high", {{1, 2, 2, 3}, one, {0, 1, 2049}, {}}, Error::InvalidArgument,
       "cols[2] = 2049 is a fraction outside [-1024, 2048]"},
      {"fraction low", {{1, 2, 2, 3}, {0, 1, -1025}, one, {}}, Error::InvalidArgument,
       "rows[2] = -1025 is a fraction outside [-1024, 2048]"},
      {"not constant", {{1, 2, 2, 3}, one, one, {}, false}, Error::NotSupported,
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
