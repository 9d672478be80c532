#include "kernels/cortex_m/avg_pool2d/avg_pool2d.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/support/kernel_call.h"
#include "tests/support/pool_reference.h"
#include "tests/support/rng.h"

namespace etns::cortex_m {
namespace {

using etns::testing::KernelCall;
using etns::testing::PoolCase;
using runtime::Error;
using runtime::ScalarType;

const runtime::KernelEntry kEntry = runtime::kernel_entry(kAvgPool2dContract, &avg_pool2d_prepare,
                                                           &avg_pool2d_run);
const std::vector<uint8_t> kNhwc = {0, 2, 3, 1};

constexpr runtime::Arg kInput = kAvgPool2dContract.arg("input");
constexpr runtime::Arg kOut = kAvgPool2dContract.out();

// The mean rounded half away from zero, computed in double (exact here):
// the definition CMSIS-NN's (sum +- n/2) / n implements.
int8_t rounded_mean(const std::vector<int8_t>& taps) {
  int32_t sum = 0;
  for (int8_t t : taps) sum += t;
  return static_cast<int8_t>(
      std::round(static_cast<double>(sum) / static_cast<double>(taps.size())));
}

// zero_point, multiplier and shift: passed, not read by the kernel.
struct Unread {
  int64_t zero_point = -3;
  int64_t multiplier = 1 << 30;
  int64_t shift = -1;
};

// Sets up the call (NHWC tensors).
void add_arguments(KernelCall& call, const PoolCase& s, const Unread& u = {}) {
  call.tensor(ScalarType::Char, {s.n, s.c, s.h, s.w}, kNhwc)
      .int_list({s.kh, s.kw})
      .int_list({s.sh, s.sw})
      .int_list({s.ph, s.pw})
      .int_value(u.zero_point)
      .int_value(u.multiplier)
      .int_value(u.shift)
      .tensor(ScalarType::Char, {s.n, s.c, s.oh, s.ow}, kNhwc);
}

std::vector<int8_t> run(const PoolCase& s, const std::vector<int8_t>& input,
                        const Unread& u = {}) {
  KernelCall call;
  add_arguments(call, s, u);
  EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kInput, input);
  EXPECT_EQ(call.run(), Error::Ok);
  return call.read<int8_t>(kOut);
}

// 2x2 window over one channel: means 2.5, -2.5, -0.25 and -0.5 round half
// away from zero to 3, -3, 0 and -1.
TEST(AvgPool2dS8, RoundsHalfAwayFromZeroByHand) {
  const PoolCase s{1, 2, 2, 1, 1, 1, 2, 2, 1, 1, 0, 0};
  EXPECT_EQ(run(s, {1, 2, 3, 4}), std::vector<int8_t>{3});
  EXPECT_EQ(run(s, {-1, -2, -3, -4}), std::vector<int8_t>{-3});
  EXPECT_EQ(run(s, {-1, 0, 0, 0}), std::vector<int8_t>{0});
  EXPECT_EQ(run(s, {-2, 0, 0, 0}), std::vector<int8_t>{-1});
  EXPECT_EQ(run(s, {127, 127, 127, 127}), std::vector<int8_t>{127});
  EXPECT_EQ(run(s, {-128, -128, -128, -128}), std::vector<int8_t>{-128});
  EXPECT_EQ(run(s, {-128, -128, -128, -127}), std::vector<int8_t>{-128});  // -127.75
}

// 3x3 input 1..9, kernel 2, stride 2, out 2x2 (TF "SAME": the extra column and
// row on the far side): windows {1,2,4,5}, {3,6}, {7,8}, {9}, padding not counted.
TEST(AvgPool2dS8, UnevenFarSidePaddingByHand) {
  const PoolCase s{1, 3, 3, 1, 2, 2, 2, 2, 2, 2, 0, 0};
  EXPECT_EQ(run(s, {1, 2, 3, 4, 5, 6, 7, 8, 9}), (std::vector<int8_t>{3, 5, 8, 9}));
}

// Kernel 3, stride 1, padding 1 on 2x2 with two channels (NHWC memory): every
// window holds all four pixels; channel 0 is 1..4 (mean 2.5), channel 1 -1..-4.
TEST(AvgPool2dS8, PaddingNotCountedTwoChannelsByHand) {
  const PoolCase s{1, 2, 2, 2, 2, 2, 3, 3, 1, 1, 1, 1};
  EXPECT_EQ(run(s, {1, -1, 2, -2, 3, -3, 4, -4}),
            (std::vector<int8_t>{3, -3, 3, -3, 3, -3, 3, -3}));
}

TEST(AvgPool2dS8, MatchesTheDefinitionOnEdgeShapes) {
  std::vector<PoolCase> cases(std::begin(etns::testing::kPoolEdgeCases),
                              std::end(etns::testing::kPoolEdgeCases));
  cases.push_back(PoolCase{1, 25, 5, 64, 1, 1, 25, 5, 1, 1, 0, 0});  // DS-CNN global pool
  etns::testing::Rng rng(31);
  for (const PoolCase& s : cases) {
    const std::vector<int8_t> input = etns::testing::random_s8(
        rng, static_cast<size_t>(s.n) * static_cast<size_t>(s.h * s.w * s.c));
    EXPECT_EQ(run(s, input), etns::testing::pool_reference(s, input, rounded_mean))
        << "n " << s.n << " h " << s.h << " w " << s.w << " c " << s.c << " kernel " << s.kh << "x"
        << s.kw << " stride " << s.sh << " padding " << s.ph;
  }
}

// --- prepare rejects what the kernel does not accept ---

void expect_rejected(KernelCall& call, Error code, const std::string& message) {
  EXPECT_EQ(call.prepare(kEntry), code);
  EXPECT_NE(call.log().find("c0i0 cortex_m::quantized_avg_pool2d.out: " + message),
            std::string::npos)
      << "log: " << call.log();
}

TEST(AvgPool2dPrepare, RejectsBadShapesAndLists) {
  const PoolCase ok{1, 4, 4, 3, 2, 2, 2, 2, 2, 2, 0, 0};
  {
    KernelCall call;
    call.tensor(ScalarType::Char, {1, 3, 4, 4})  // contiguous, C = 3
        .int_list({2, 2})
        .int_list({2, 2})
        .int_list({0, 0})
        .int_value(0)
        .int_value(0)
        .int_value(0)
        .tensor(ScalarType::Char, {1, 3, 2, 2}, kNhwc);
    expect_rejected(call, Error::InvalidArgument,
                    "input must be channels_last (dim order [0, 2, 3, 1])");
  }
  {
    KernelCall call;
    PoolCase s = ok;
    s.oh = 3;
    s.ph = 0;
    s.sh = 2;
    s.kh = 1;  // out row 2 starts at input row 4: no tap
    add_arguments(call, s);
    expect_rejected(call, Error::InvalidArgument, "height: a window holds no input tap");
  }
  {
    KernelCall call;
    PoolCase s = ok;
    s.pw = 2;  // padding 2 with kernel 2: the first window is all padding
    add_arguments(call, s);
    expect_rejected(call, Error::InvalidArgument, "width: a window holds no input tap");
  }
  {
    KernelCall call;
    PoolCase s = ok;
    s.sw = 0;
    add_arguments(call, s);
    expect_rejected(call, Error::InvalidArgument, "stride[1] = 0, expected [1, 2147483647]");
  }
  {
    KernelCall call;
    call.tensor(ScalarType::Char, {1, 3, 4, 4}, kNhwc)
        .int_list({2, 2, 1})
        .int_list({2, 2})
        .int_list({0, 0})
        .int_value(0)
        .int_value(0)
        .int_value(0)
        .tensor(ScalarType::Char, {1, 3, 2, 2}, kNhwc);
    expect_rejected(call, Error::InvalidArgument, "kernel_size has 3 values, expected 2");
  }
  {
    KernelCall call;
    call.tensor(ScalarType::Char, {1, 3, 4, 4}, kNhwc)
        .int_list({2, 2})
        .int_list({2, 2})
        .int_list({0, 0})
        .int_value(0)
        .int_value(0)
        .int_value(0)
        .tensor(ScalarType::Char, {1, 4, 2, 2}, kNhwc);
    expect_rejected(call, Error::InvalidArgument,
                    "out [1, 4, 2, 2], expected the batch and channels of input [1, 3, 4, 4]");
  }
  {
    KernelCall call;
    call.tensor(ScalarType::Float, {1, 3, 4, 4}, kNhwc)
        .int_list({2, 2})
        .int_list({2, 2})
        .int_list({0, 0})
        .int_value(0)
        .int_value(0)
        .int_value(0)
        .tensor(ScalarType::Char, {1, 3, 2, 2}, kNhwc);
    expect_rejected(call, Error::InvalidArgument, "input dtype float32, expected int8");
  }
  {
    KernelCall call;
    call.tensor(ScalarType::Char, {1, 3, 4, 4}, kNhwc)
        .int_list({2, 2})
        .int_list({2, 2})
        .int_list({0, 0})
        .double_value(0.5)
        .int_value(0)
        .int_value(0)
        .tensor(ScalarType::Char, {1, 3, 2, 2}, kNhwc);
      EXPECT_EQ(call.prepare(kEntry), Error::InvalidProgram);
    const std::string message = "argument " +
                                std::to_string(kAvgPool2dContract.arg("zero_point").index) +
                                " (zero_point) is Double, expected Int";
    EXPECT_NE(call.log().find(message), std::string::npos) << call.log();
  }
}

TEST(AvgPool2dPrepare, RejectsWrongRanksLayoutsAndEmptyTensors) {
  {
    KernelCall call;
    call.tensor(ScalarType::Char, {3, 4, 4})
        .int_list({2, 2})
        .int_list({2, 2})
        .int_list({0, 0})
        .int_value(0)
        .int_value(0)
        .int_value(0)
        .tensor(ScalarType::Char, {1, 3, 2, 2}, kNhwc);
    expect_rejected(call, Error::InvalidArgument, "input has rank 3, expected 4 ([N, C, H, W])");
  }
  {
    KernelCall call;
    call.tensor(ScalarType::Char, {1, 3, 4, 4}, kNhwc)
        .int_list({2, 2})
        .int_list({2, 2})
        .int_list({0, 0})
        .int_value(0)
        .int_value(0)
        .int_value(0)
        .tensor(ScalarType::Char, {1, 3, 2, 2});
    expect_rejected(call, Error::InvalidArgument,
                    "out must be channels_last (dim order [0, 2, 3, 1])");
  }
  {
    KernelCall call;
    add_arguments(call, PoolCase{1, 0, 4, 3, 1, 2, 2, 2, 2, 2, 0, 0});
    expect_rejected(call, Error::InvalidArgument,
                    "input [1, 3, 0, 4] is empty but out [1, 3, 1, 2] is not (its windows would "
                    "hold no input tap)");
  }
}

// An empty out (no batches, channels, rows or columns) is nothing to compute.
TEST(AvgPool2dPrepare, AcceptsAnEmptyOut) {
  for (const PoolCase& s : {PoolCase{0, 4, 4, 3, 2, 2, 2, 2, 2, 2, 0, 0},
                            PoolCase{1, 4, 4, 0, 2, 2, 2, 2, 2, 2, 0, 0},
                            PoolCase{1, 4, 4, 3, 0, 2, 2, 2, 2, 2, 0, 0},
                            PoolCase{1, 0, 0, 3, 2, 0, 2, 2, 2, 2, 1, 1}}) {
    KernelCall call;
    add_arguments(call, s);
    EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    EXPECT_EQ(call.run(), Error::Ok);
  }
}

TEST(AvgPool2dPrepare, RejectsBadListsAndIndicesBeyondInt32) {
  const PoolCase ok{1, 4, 4, 3, 2, 2, 2, 2, 2, 2, 0, 0};
  {
    KernelCall call;
    PoolCase s = ok;
    s.kh = 0;
    add_arguments(call, s);
    expect_rejected(call, Error::InvalidArgument, "kernel_size[0] = 0, expected [1, 2147483647]");
  }
  {
    KernelCall call;
    PoolCase s = ok;
    s.ph = -1;
    add_arguments(call, s);
    expect_rejected(call, Error::InvalidArgument, "padding[0] = -1, expected [0, 2147483647]");
  }
  {
    // Both windows hold the one input row (the second starts at 2^30 - 2^30
    // = 0), but the kernel's index (out - 1) * stride + kernel = 2^31 + 1
    // leaves int32.
    KernelCall call;
    add_arguments(call,
                  PoolCase{1, 1, 1, 1, 2, 1, (1 << 30) + 1, 1, 1 << 30, 1, 1 << 30, 0});
    expect_rejected(call, Error::InvalidArgument,
                    "height: out 2 with stride 1073741824 leaves int32");
  }
}

// arm_avgpool_s8 sums a window in int32: |sum| + n/2 stays below 2^31 up to
// 2^23 taps, and no further.
TEST(AvgPool2dPrepare, RefusesWindowsWhoseSumCouldOverflowInt32) {
  KernelCall call;
  add_arguments(call, PoolCase{1, 4097, 2048, 1, 1, 1, 4097, 2048, 1, 1, 0, 0});
  expect_rejected(call, Error::NotSupported,
                  "kernel_size [4097, 2048] pools up to 8390656 taps, expected at most 2^23");
  KernelCall largest;
  add_arguments(largest, PoolCase{1, 4096, 2048, 1, 1, 1, 4096, 2048, 1, 1, 0, 0});
  EXPECT_EQ(largest.prepare(kEntry), Error::Ok) << largest.log();
}

// Upstream's kernel reads none of zero_point, multiplier and shift, so any
// Int values are accepted, the exporter's multiplier 0 and shift -31 among
// them, and the result does not change.
TEST(AvgPool2dPrepare, AcceptsAnyZeroPointMultiplierAndShift) {
  const PoolCase s{1, 2, 2, 1, 1, 1, 2, 2, 1, 1, 0, 0};
  for (const Unread& u : {Unread{0, 0, 0}, Unread{0, 0, -31}, Unread{127, INT32_MAX, 30},
                          Unread{-128, 0, 31}, Unread{1000, -1, -100}}) {
    EXPECT_EQ(run(s, {1, 2, 3, 4}, u), std::vector<int8_t>{3})
        << u.zero_point << " " << u.multiplier << " " << u.shift;
  }
}

}  // namespace
}  // namespace etns::cortex_m
