#include "kernels/cortex_m/max_pool2d/max_pool2d.h"

#include <gtest/gtest.h>

#include <algorithm>
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

const runtime::KernelEntry kEntry = runtime::kernel_entry(kMaxPool2dContract, &max_pool2d_prepare,
                                                           &max_pool2d_run);
const std::vector<uint8_t> kNhwc = {0, 2, 3, 1};

constexpr runtime::Arg kInput = kMaxPool2dContract.arg("input");
constexpr runtime::Arg kOut = kMaxPool2dContract.out();

// The arguments a call may vary; the rest as the exporter passes them.
struct Extras {
  std::vector<int64_t> dilation = {1, 1};
  bool ceil_mode = false;
  int64_t input_zero_point = -7;
  int64_t output_zero_point = -7;
  int64_t activation_min = -128;
  int64_t activation_max = 127;
};

void add_arguments(KernelCall& call, const PoolCase& s, const Extras& e = {}) {
  call.tensor(ScalarType::Char, {s.n, s.c, s.h, s.w}, kNhwc)
      .int_list({s.kh, s.kw})
      .int_list({s.sh, s.sw})
      .int_list({s.ph, s.pw})
      .int_list(e.dilation)
      .bool_value(e.ceil_mode)
      .int_value(e.input_zero_point)
      .int_value(e.output_zero_point)
      .int_value(e.activation_min)
      .int_value(e.activation_max)
      .tensor(ScalarType::Char, {s.n, s.c, s.oh, s.ow}, kNhwc);
}

std::vector<int8_t> run(const PoolCase& s, const std::vector<int8_t>& input, const Extras& e = {}) {
  KernelCall call;
  add_arguments(call, s, e);
  EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kInput, input);
  EXPECT_EQ(call.run(), Error::Ok);
  return call.read<int8_t>(kOut);
}

int8_t largest(const std::vector<int8_t>& taps) {
  return *std::max_element(taps.begin(), taps.end());
}

// 4x4, kernel 2, stride 2: the max of each 2x2 block.
TEST(MaxPool2dS8, TwoByTwoBlocksByHand) {
  const PoolCase s{1, 4, 4, 1, 2, 2, 2, 2, 2, 2, 0, 0};
  const std::vector<int8_t> input = {1,    2,    -3,  -4,  //
                                     5,    6,    -7,  -8,  //
                                     -128, -128, 127, 0,   //
                                     -128, -127, 0,   0};
  EXPECT_EQ(run(s, input), (std::vector<int8_t>{6, -3, -127, 127}));
}

// 3x3 input, kernel 2, stride 2, out 2x2 (uneven far side): {1,2,4,5}, {3,6},
// {7,8}, {9}; then with the activation range [-1, 6] clamping the result.
TEST(MaxPool2dS8, UnevenFarSidePaddingAndClampByHand) {
  const PoolCase s{1, 3, 3, 1, 2, 2, 2, 2, 2, 2, 0, 0};
  const std::vector<int8_t> input = {-9, -2, 3, -4, -5, 6, 7, 8, 9};
  EXPECT_EQ(run(s, input), (std::vector<int8_t>{-2, 6, 8, 9}));
  Extras clamp;
  clamp.activation_min = -1;
  clamp.activation_max = 6;
  EXPECT_EQ(run(s, input, clamp), (std::vector<int8_t>{-1, 6, 6, 6}));
}

// Kernel 3, stride 1, padding 1 (padding is not a tap: all-negative input
// stays negative), two channels in NHWC memory.
TEST(MaxPool2dS8, PaddingIsNotATapByHand) {
  const PoolCase s{1, 2, 2, 2, 2, 2, 3, 3, 1, 1, 1, 1};
  EXPECT_EQ(run(s, {-5, 1, -6, 2, -7, 3, -8, 4}),
            (std::vector<int8_t>{-5, 4, -5, 4, -5, 4, -5, 4}));
}

TEST(MaxPool2dS8, MatchesTheDefinitionOnEdgeShapes) {
  std::vector<PoolCase> cases(std::begin(etns::testing::kPoolEdgeCases),
                              std::end(etns::testing::kPoolEdgeCases));
  cases.push_back(PoolCase{1, 32, 16, 16, 16, 8, 2, 2, 2, 2, 0, 0});  // the bench shape
  etns::testing::Rng rng(41);
  for (const PoolCase& s : cases) {
    const std::vector<int8_t> input = etns::testing::random_s8(
        rng, static_cast<size_t>(s.n) * static_cast<size_t>(s.h * s.w * s.c));
    EXPECT_EQ(run(s, input), etns::testing::pool_reference(s, input, largest))
        << "n " << s.n << " h " << s.h << " w " << s.w << " c " << s.c << " kernel " << s.kh << "x"
        << s.kw << " stride " << s.sh << " padding " << s.ph;
  }
}

// --- prepare rejects what the kernel does not accept ---

void expect_rejected(const Extras& e, Error code, const std::string& message) {
  KernelCall call;
  add_arguments(call, PoolCase{1, 4, 4, 3, 2, 2, 2, 2, 2, 2, 0, 0}, e);
  EXPECT_EQ(call.prepare(kEntry), code);
  EXPECT_NE(call.log().find("c0i0 cortex_m::quantized_max_pool2d.out: " + message),
            std::string::npos)
      << "log: " << call.log();
}

TEST(MaxPool2dPrepare, RefusesWhatUpstreamRefuses) {
  Extras e;
  e.dilation = {2, 1};
  expect_rejected(e, Error::NotSupported,
                  "dilation [2, 1]: upstream's quantized_max_pool2d supports only [1, 1]");
  e = Extras{};
  e.ceil_mode = true;
  expect_rejected(e, Error::NotSupported, "ceil_mode = true: upstream's quantized_max_pool2d");
  e = Extras{};
  e.output_zero_point = 3;
  expect_rejected(e, Error::NotSupported, "input_zero_point -7 and output_zero_point 3 differ");
}

TEST(MaxPool2dPrepare, RejectsBadArguments) {
  Extras e;
  e.dilation = {0, 1};
  expect_rejected(e, Error::InvalidArgument, "dilation[0] = 0, expected [1, 2147483647]");
  e = Extras{};
  e.input_zero_point = 128;
  expect_rejected(e, Error::InvalidArgument, "input_zero_point = 128, expected [-128, 127]");
  e = Extras{};
  e.activation_min = -129;
  expect_rejected(e, Error::InvalidArgument, "activation_min = -129, expected [-128, 127]");
  e = Extras{};
  e.activation_min = 10;
  e.activation_max = 9;
  expect_rejected(e, Error::InvalidArgument, "activation_max = 9, expected [10, 127]");
  KernelCall call;
  PoolCase s{1, 4, 4, 3, 2, 2, 2, 2, 2, 2, 0, 0};
  s.ph = 2;  // padding 2 with kernel 2: the first row of windows is all padding
  add_arguments(call, s);
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_NE(call.log().find("height: a window holds no input tap"), std::string::npos)
      << call.log();
}

// An empty out (no batches, channels, rows or columns) is nothing to compute.
TEST(MaxPool2dPrepare, AcceptsAnEmptyOut) {
  for (const PoolCase& s : {PoolCase{0, 4, 4, 3, 2, 2, 2, 2, 2, 2, 0, 0},
                            PoolCase{1, 4, 4, 0, 2, 2, 2, 2, 2, 2, 0, 0},
                            PoolCase{1, 4, 4, 3, 2, 0, 2, 2, 2, 2, 0, 0}}) {
    KernelCall call;
    add_arguments(call, s);
    EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    EXPECT_EQ(call.run(), Error::Ok);
  }
}

TEST(MaxPool2dPrepare, RejectsWhatTheContractAndThePoolingShapeRefuse) {
  {
    KernelCall call;
    call.tensor(ScalarType::Char, {1, 3, 4, 4})  // contiguous, C = 3
        .int_list({2, 2})
        .int_list({2, 2})
        .int_list({0, 0})
        .int_list({1, 1})
        .bool_value(false)
        .int_value(0)
        .int_value(0)
        .int_value(-128)
        .int_value(127)
        .tensor(ScalarType::Char, {1, 3, 2, 2}, kNhwc);
    EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
    EXPECT_TRUE(
        etns::testing::logged(call, "input must be channels_last (dim order [0, 2, 3, 1])"));
  }
  {
    KernelCall call;
    call.tensor(ScalarType::Char, {1, 3, 4, 4}, kNhwc)
        .int_list({2, 2})
        .int_list({2, 2})
        .int_list({0, 0})
        .int_list({1, 1})
        .int_value(0)  // ceil_mode must be a Bool
        .int_value(0)
        .int_value(0)
        .int_value(-128)
        .int_value(127)
        .tensor(ScalarType::Char, {1, 3, 2, 2}, kNhwc);
    EXPECT_EQ(call.prepare(kEntry), Error::InvalidProgram);
    const std::string message = "argument " +
                                std::to_string(kMaxPool2dContract.arg("ceil_mode").index) +
                                " (ceil_mode) is Int, expected Bool";
    EXPECT_TRUE(etns::testing::logged(call, message.c_str()));
  }
  {
    KernelCall call;
    add_arguments(call, PoolCase{1, 4, 0, 3, 2, 1, 2, 2, 2, 2, 0, 0});
    EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
    EXPECT_TRUE(etns::testing::logged(
        call, "input [1, 3, 4, 0] is empty but out [1, 3, 2, 1] is not (its windows would hold "
              "no input tap)"));
  }
  {
    KernelCall call;
    PoolCase s{1, 4, 4, 3, 2, 2, 2, 2, 2, 2, 0, 0};
    s.sh = 0;
    add_arguments(call, s);
    EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
    EXPECT_TRUE(etns::testing::logged(call, "stride[0] = 0, expected [1, 2147483647]"));
  }
}

}  // namespace
}  // namespace etns::cortex_m
