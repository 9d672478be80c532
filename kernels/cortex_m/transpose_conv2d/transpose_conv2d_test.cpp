#include "kernels/cortex_m/transpose_conv2d/transpose_conv2d.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/common/requantize.h"
#include "kernels/testing/conv_family_call.h"
#include "tests/support/kernel_call.h"
#include "tests/support/rng.h"

namespace etns::cortex_m {
namespace {

using etns::testing::KernelCall;
using runtime::Error;
using runtime::ScalarType;

const runtime::KernelEntry kEntry = runtime::kernel_entry(
    kTransposeConv2dContract, &transpose_conv2d_prepare, &transpose_conv2d_run);

const std::vector<uint8_t> kNhwc = {0, 2, 3, 1};

constexpr runtime::Arg kInput = kTransposeConv2dContract.arg("input");
constexpr runtime::Arg kWeight = kTransposeConv2dContract.arg("weight");
constexpr runtime::Arg kBias = kTransposeConv2dContract.arg("bias");
constexpr runtime::Arg kMultipliers = kTransposeConv2dContract.arg("requantize_multipliers");
constexpr runtime::Arg kShifts = kTransposeConv2dContract.arg("requantize_shifts");
constexpr runtime::Arg kOut = kTransposeConv2dContract.out();

// One call's arguments; sizes are PyTorch's ([N, C, H, W]), weight OHWI
// [Cout, KH, KW, Cin]. Defaults: 2 -> 3 channels, 3x3 input, 3x3 kernel,
// stride 2, padding 1, output_padding 1: out (3 - 1) * 2 - 2 + 3 + 1 = 6.
struct TcArgs : kernels::testing::ConvCallArgs {
  TcArgs() {
    input_sizes = {1, 2, 3, 3};
    weight_sizes = {3, 3, 3, 2};
    stride = {2, 2};
    output_padding = {1, 1};
    multipliers = {1 << 30, 1 << 30, 1 << 30};
    shifts = {1, 1, 1};
    out_sizes = {1, 3, 6, 6};
    bias_dim = 0;
  }
};

void add_arguments(KernelCall& call, const TcArgs& a) {
  kernels::testing::add_conv_arguments(call, kTransposeConv2dContract, a);
}

// A single-channel [1, 1, h, w] call with a k x k filter, no offsets and RQ
// factor exactly 1 (2^30, shift 1).
TcArgs single_plane(int32_t h, int32_t w, int32_t k, int32_t stride, int32_t pad,
                    int32_t output_padding) {
  TcArgs a;
  a.input_sizes = {1, 1, h, w};
  a.input_dim_order = {};  // C = 1: contiguous is NHWC in memory too
  a.weight_sizes = {1, k, k, 1};
  a.has_bias = false;
  a.stride = {stride, stride};
  a.padding = {pad, pad};
  a.output_padding = {output_padding, output_padding};
  a.input_offset = 0;
  a.output_offset = 0;
  a.multipliers = {1 << 30};
  a.shifts = {1};
  a.out_sizes = {1, 1, (h - 1) * stride - 2 * pad + k + output_padding,
                 (w - 1) * stride - 2 * pad + k + output_padding};
  a.out_dim_order = {};
  return a;
}

// --- The kernel against hand-worked cases and an independent formula ---

// Stride 2 = kernel 2, no padding: each input pixel stamps v * w as its own
// 2x2 block. Input [[1, 2], [3, 4]], weight [[1, 2], [3, 4]].
TEST(TransposeConv2dS8, HandWorkedStampsWithStrideEqualToKernel) {
  TcArgs a = single_plane(2, 2, 2, 2, 0, 0);
  KernelCall call;
  add_arguments(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kInput, {1, 2, 3, 4});
  call.fill<int8_t>(kWeight, {1, 2, 3, 4});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{1, 2, 2, 4,    //
                                                          3, 4, 6, 8,    //
                                                          3, 6, 4, 8,    //
                                                          9, 12, 12, 16}));
}

// Stride 2, kernel 3 (ones), padding 1, output_padding 1: the uncropped image
// is 5x5 (rows 0-2 from input row 0, rows 2-4 from row 1), out is its rows and
// columns 1-4 (4x4). Row 2 and column 2 overlap; the output_padding row and
// column (uncropped index 4) still receive input row/column 1.
TEST(TransposeConv2dS8, HandWorkedOverlapPaddingAndOutputPadding) {
  TcArgs a = single_plane(2, 2, 3, 2, 1, 1);
  a.has_bias = true;
  a.output_offset = -5;
  KernelCall call;
  add_arguments(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kInput, {1, 2, 3, 4});
  call.fill<int8_t>(kWeight, std::vector<int8_t>(9, 1));
  call.fill<int32_t>(kBias, {10});
  ASSERT_EQ(call.run(), Error::Ok);
  // Rows receive input rows {0}, {0, 1}, {1}, {1}; columns likewise:
  //   1 3 2 2 / 4 10 6 6 / 3 7 4 4 / 3 7 4 4, plus 10 - 5.
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{6, 8, 7, 7,     //
                                                          9, 15, 11, 11,  //
                                                          8, 12, 9, 9,    //
                                                          8, 12, 9, 9}));
}

// output_padding beyond padding: stride 2, kernel 2, padding 0,
// output_padding 1: the last row and column lie past every tap and get only
// the bias (and the offsets). input_offset 1 is applied to the input.
TEST(TransposeConv2dS8, HandWorkedOutputPaddingPastEveryTapIsBiasOnly) {
  TcArgs a = single_plane(2, 2, 2, 2, 0, 1);
  a.has_bias = true;
  a.input_offset = 1;
  a.output_offset = 3;
  KernelCall call;
  add_arguments(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kInput, {0, 1, 2, 3});  // + input_offset: 1 2 3 4
  call.fill<int8_t>(kWeight, {1, 2, 3, 4});
  call.fill<int32_t>(kBias, {4});
  ASSERT_EQ(call.run(), Error::Ok);
  // The first hand-worked case's 4x4 stamps plus 7, then a row and column of 7.
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{8, 9, 9, 11, 7,     //
                                                          10, 11, 13, 15, 7,  //
                                                          10, 13, 11, 15, 7,  //
                                                          16, 19, 19, 23, 7,  //
                                                          7, 7, 7, 7, 7}));
}

// Stride 3 > kernel 2: gaps between the stamps get the bias only.
TEST(TransposeConv2dS8, HandWorkedStrideAboveKernelLeavesGaps) {
  TcArgs a = single_plane(1, 2, 2, 3, 0, 0);
  a.input_sizes = {1, 1, 1, 2};
  a.out_sizes = {1, 1, 2, 5};
  KernelCall call;
  add_arguments(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kInput, {2, -3});
  call.fill<int8_t>(kWeight, {1, 2, 3, 4});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{2, 4, 0, -3, -6,  //
                                                          6, 8, 0, -9, -12}));
}

// Output channels read every input channel with their own weights (OHWI).
TEST(TransposeConv2dS8, HandWorkedChannels) {
  TcArgs a;
  a.input_sizes = {1, 2, 1, 1};
  a.weight_sizes = {3, 1, 1, 2};
  a.has_bias = false;
  a.stride = {1, 1};
  a.padding = {0, 0};
  a.output_padding = {0, 0};
  a.input_offset = 0;
  a.output_offset = 0;
  a.out_sizes = {1, 3, 1, 1};
  KernelCall call;
  add_arguments(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kInput, {3, -5});
  call.fill<int8_t>(kWeight, {1, 1, 2, -1, 0, 4});
  ASSERT_EQ(call.run(), Error::Ok);
  // 3 - 5, 6 + 5, 0 - 20; factor 2^30 * 2 / 2^31 = 1.
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{-2, 11, -20}));
}

// Many shapes against an independent computation: CMSIS-NN's formulation,
// every input pixel scattered through every tap into an int32 image with the
// bias preloaded, then the [padding, padding + out) window requantised.
// Covers stride 1-3 (also above the kernel), kernels 1-4, padding 0-2,
// output_padding, channel counts 1/16/17/33 in and out, null bias, batch 2
// and a narrow activation range.
TEST(TransposeConv2dS8, ShapesMatchAScatteredImage) {
  etns::testing::Rng rng(93);
  struct Shape {
    int32_t batches, in_c, out_c, in_h, in_w, k_h, k_w, stride_h, stride_w, pad_h, pad_w, op_h,
        op_w;
    bool bias;
  };
  const Shape shapes[] = {
      {1, 1, 1, 3, 3, 3, 3, 1, 1, 0, 0, 0, 0, true},
      {1, 16, 16, 8, 8, 4, 4, 2, 2, 1, 1, 0, 0, true},  // the bench shape
      {1, 17, 17, 3, 4, 3, 3, 2, 2, 1, 1, 1, 1, false},
      {2, 3, 5, 4, 3, 2, 2, 3, 3, 0, 0, 2, 1, true},  // stride > kernel
      {1, 5, 16, 3, 3, 4, 3, 3, 2, 1, 0, 1, 1, true},
      {1, 16, 1, 5, 5, 3, 3, 1, 1, 1, 1, 0, 0, true},
      {1, 33, 4, 2, 3, 2, 3, 2, 1, 0, 2, 1, 0, false},
      {2, 17, 3, 3, 3, 3, 3, 3, 3, 2, 1, 2, 0, true},
      {1, 2, 3, 1, 1, 4, 4, 2, 2, 1, 1, 1, 1, true},
      {1, 1, 17, 4, 2, 1, 1, 2, 3, 0, 0, 1, 2, true},
  };
  for (const Shape& sh : shapes) {
    const int32_t out_h = (sh.in_h - 1) * sh.stride_h - 2 * sh.pad_h + sh.k_h + sh.op_h;
    const int32_t out_w = (sh.in_w - 1) * sh.stride_w - 2 * sh.pad_w + sh.k_w + sh.op_w;
    TcArgs a;
    a.input_sizes = {sh.batches, sh.in_c, sh.in_h, sh.in_w};
    a.weight_sizes = {sh.out_c, sh.k_h, sh.k_w, sh.in_c};
    a.has_bias = sh.bias;
    a.stride = {sh.stride_h, sh.stride_w};
    a.padding = {sh.pad_h, sh.pad_w};
    a.output_padding = {sh.op_h, sh.op_w};
    a.input_offset = 9;
    a.output_offset = 5;
    a.activation_min = -100;
    a.activation_max = 90;
    a.multipliers.clear();
    a.shifts.clear();
    for (int32_t oc = 0; oc < sh.out_c; ++oc) {
      a.multipliers.push_back(static_cast<int32_t>(rng.uniform(1 << 30, INT32_MAX)));
      a.shifts.push_back(static_cast<int32_t>(rng.uniform(-9, -2)));
    }
    a.out_sizes = {sh.batches, sh.out_c, out_h, out_w};
    KernelCall call;
    add_arguments(call, a);
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    const std::vector<int8_t> input = etns::testing::random_s8(
        rng, static_cast<size_t>(sh.batches * sh.in_h * sh.in_w * sh.in_c));
    const std::vector<int8_t> weight =
        etns::testing::random_s8(rng, static_cast<size_t>(sh.out_c * sh.k_h * sh.k_w * sh.in_c));
    std::vector<int32_t> bias(static_cast<size_t>(sh.out_c), 0);
    for (int32_t& b : bias) b = static_cast<int32_t>(rng.uniform(-3000, 3000));
    call.fill<int8_t>(kInput, input);
    call.fill<int8_t>(kWeight, weight);
    if (sh.bias) call.fill<int32_t>(kBias, bias);
    ASSERT_EQ(call.run(), Error::Ok);
    const std::vector<int8_t> got = call.read<int8_t>(kOut);

    // The uncropped image reaches (in - 1) * stride + kernel; out's window
    // may reach past it by output_padding.
    const int32_t rows = std::max((sh.in_h - 1) * sh.stride_h + sh.k_h, sh.pad_h + out_h);
    const int32_t cols = std::max((sh.in_w - 1) * sh.stride_w + sh.k_w, sh.pad_w + out_w);
    int clamped = 0;
    for (int32_t n = 0; n < sh.batches; ++n) {
      std::vector<int32_t> image(static_cast<size_t>(rows * cols * sh.out_c));
      for (int32_t i = 0; i < rows * cols; ++i)
        for (int32_t oc = 0; oc < sh.out_c; ++oc)
          image[static_cast<size_t>(i * sh.out_c + oc)] = sh.bias ? bias[oc] : 0;
      for (int32_t iy = 0; iy < sh.in_h; ++iy)
        for (int32_t ix = 0; ix < sh.in_w; ++ix)
          for (int32_t ky = 0; ky < sh.k_h; ++ky)
            for (int32_t kx = 0; kx < sh.k_w; ++kx)
              for (int32_t oc = 0; oc < sh.out_c; ++oc) {
                int32_t sum = 0;
                for (int32_t ic = 0; ic < sh.in_c; ++ic)
                  sum += (input[((n * sh.in_h + iy) * sh.in_w + ix) * sh.in_c + ic] + 9) *
                         weight[((oc * sh.k_h + ky) * sh.k_w + kx) * sh.in_c + ic];
                const int32_t y = iy * sh.stride_h + ky, x = ix * sh.stride_w + kx;
                image[static_cast<size_t>((y * cols + x) * sh.out_c + oc)] += sum;
              }
      for (int32_t oy = 0; oy < out_h; ++oy) {
        for (int32_t ox = 0; ox < out_w; ++ox) {
          for (int32_t oc = 0; oc < sh.out_c; ++oc) {
            const int32_t acc =
                image[static_cast<size_t>(((oy + sh.pad_h) * cols + ox + sh.pad_w) * sh.out_c +
                                          oc)];
            const int32_t y = kernels::requantize(acc, {a.multipliers[oc], a.shifts[oc]}) + 5;
            clamped += (y < -100 || y > 90) ? 1 : 0;
            const int8_t want = static_cast<int8_t>(std::clamp(y, -100, 90));
            ASSERT_EQ(got[((n * out_h + oy) * out_w + ox) * sh.out_c + oc], want)
                << "Cin " << sh.in_c << " Cout " << sh.out_c << " in " << sh.in_h << "x"
                << sh.in_w << " k " << sh.k_h << "x" << sh.k_w << " s " << sh.stride_h << ","
                << sh.stride_w << " at n " << n << " oy " << oy << " ox " << ox << " oc " << oc;
          }
        }
      }
    }
    if (sh.in_c * sh.out_c * out_h * out_w >= 256) {
      EXPECT_GT(clamped, 0) << "the activation range was never exercised, Cin " << sh.in_c;
    }
  }
}

// --- Requantisation extremes and per-channel vector shapes ---

constexpr int32_t kExtremeCount = kernels::testing::kConvExtremeCount;

// The extreme channels as a [1, 1, 1, 1] -> [1, 8, 1, 1] transposed
// convolution (1x1 kernel, stride 1) with the per-channel vectors in `sizes`
// (empty: [8]).
std::vector<int8_t> run_extremes(const std::vector<int32_t>& sizes) {
  TcArgs a = single_plane(1, 1, 1, 1, 0, 0);
  a.weight_sizes = {kExtremeCount, 1, 1, 1};
  return kernels::testing::run_conv_extremes(kEntry, kTransposeConv2dContract, a, sizes);
}

std::vector<int8_t> extremes_wanted() { return kernels::testing::conv_extremes_wanted(); }

TEST(TransposeConv2dS8, RequantizesMultiplierZeroAndShiftMinus31) {
  EXPECT_EQ(run_extremes({}), extremes_wanted());
}

// Exporters write per-channel tensors as [C], [1, C] or [C, 1, 1, 1]: any
// shape holding one int32 per output channel is accepted for bias,
// multipliers and shifts, and computes the same.
TEST(TransposeConv2dPrepare, TakesPerChannelVectorsInAnyShape) {
  const std::vector<int8_t> want = extremes_wanted();
  for (const std::vector<int32_t>& sizes :
       {std::vector<int32_t>{kExtremeCount}, {1, kExtremeCount}, {kExtremeCount, 1},
        {kExtremeCount, 1, 1, 1}, {1, 1, 1, kExtremeCount}}) {
    EXPECT_EQ(run_extremes(sizes), want) << "rank " << sizes.size();
  }
}

// --- prepare rejects what the kernel does not accept ---

void expect_rejected(const TcArgs& a, Error code, const std::string& message) {
  kernels::testing::expect_conv_rejected(kEntry, kTransposeConv2dContract, a, code, message);
}

TEST(TransposeConv2dPrepare, AcceptsTheDefaultsANullBiasAndBatches) {
  for (bool has_bias : {true, false}) {
    TcArgs a;
    a.has_bias = has_bias;
    KernelCall call;
    add_arguments(call, a);
    EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  }
  TcArgs a;
  a.input_sizes = {3, 2, 3, 3};
  a.out_sizes = {3, 3, 6, 6};
  KernelCall call;
  add_arguments(call, a);
  EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
}

TEST(TransposeConv2dPrepare, RejectsWrongDtypes) {
  kernels::testing::expect_conv_rejects_wrong_dtypes<TcArgs>(kEntry, kTransposeConv2dContract);
}

TEST(TransposeConv2dPrepare, RejectsWrongKindOfArgument) {
  KernelCall call;
  call.tensor(ScalarType::Char, {1, 1, 3, 3})
      .tensor(ScalarType::Char, {1, 3, 3, 1})
      .null()
      .int_list({1, 1})
      .int_list({1, 1})
      .int_value(0)  // output_padding must be a list
      .int_list({1, 1})
      .int_value(0)
      .int_value(0)
      .tensor(ScalarType::Int, {1})
      .tensor(ScalarType::Int, {1})
      .int_value(-128)
      .int_value(127)
      .tensor(ScalarType::Char, {1, 1, 3, 3});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidProgram);
  const std::string message =
      "argument " + std::to_string(kTransposeConv2dContract.arg("output_padding").index) +
      " (output_padding) is Int, expected IntList";
  EXPECT_NE(call.log().find(message), std::string::npos) << call.log();
}

TEST(TransposeConv2dPrepare, RejectsWrongRanksAndLayouts) {
  TcArgs a;
  a.input_sizes = {2, 3, 3};
  a.input_dim_order = {};
  expect_rejected(a, Error::InvalidArgument, "input has rank 3, expected 4");
  a = TcArgs{};
  a.weight_sizes = {3, 3, 2};
  expect_rejected(a, Error::InvalidArgument, "weight has rank 3, expected 4");
  a = TcArgs{};
  a.out_sizes = {3, 6, 6};
  a.out_dim_order = {};
  expect_rejected(a, Error::InvalidArgument, "out has rank 3, expected 4");
  a = TcArgs{};
  a.input_dim_order = {};
  expect_rejected(a, Error::InvalidArgument, "input must be channels_last");
  a = TcArgs{};
  a.out_dim_order = {};
  expect_rejected(a, Error::InvalidArgument, "out must be channels_last");
  a = TcArgs{};
  a.weight_dim_order = {0, 2, 3, 1};
  expect_rejected(a, Error::InvalidArgument, "weight must be contiguous (row-major in memory)");
  // A per-channel vector may have any shape, but its values must be in order.
  a = TcArgs{};
  a.weight_sizes = {4, 3, 3, 2};
  a.out_sizes = {1, 4, 6, 6};
  a.multipliers = {1 << 30, 1 << 30, 1 << 30, 1 << 30};
  a.shifts = {1, 1, 1, 1};
  a.requant_sizes = {2, 2};
  a.requant_dim_order = {1, 0};
  expect_rejected(a, Error::InvalidArgument,
                  "requantize_multipliers must be contiguous (row-major in memory)");
}

// CMSIS-NN's transpose convolution writes out rows as it consumes input rows:
// with no input rows or columns it would leave out unwritten. No batches is
// an empty out, nothing to do.
TEST(TransposeConv2dPrepare, RejectsAnInputWithoutRowsOrColumns) {
  TcArgs a;
  a.input_sizes = {1, 2, 0, 3};
  expect_rejected(a, Error::InvalidArgument,
                  "input [1, 2, 0, 3] has no rows or columns (upstream's kernel would leave out "
                  "unwritten)");
  a = TcArgs{};
  a.input_sizes = {1, 2, 3, 0};
  expect_rejected(a, Error::InvalidArgument, "input [1, 2, 3, 0] has no rows or columns");
  a = TcArgs{};
  a.input_sizes = {0, 2, 3, 3};
  a.out_sizes = {0, 3, 6, 6};
  KernelCall call;
  add_arguments(call, a);
  EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  EXPECT_EQ(call.run(), Error::Ok);
}

TEST(TransposeConv2dPrepare, RejectsAWeightShapeThatDoesNotMatchTheChannels) {
  TcArgs a;
  a.weight_sizes = {3, 3, 3, 4};
  expect_rejected(a, Error::InvalidArgument,
                  "weight [3, 3, 3, 4] has 4 input channels, expected input's 2");
  a = TcArgs{};
  a.weight_sizes = {2, 3, 3, 3};  // PyTorch's [Cin, Cout, KH, KW] unpermuted
  expect_rejected(a, Error::InvalidArgument, "weight [2, 3, 3, 3] has 3 input channels");
  a = TcArgs{};
  a.out_sizes = {1, 4, 6, 6};
  expect_rejected(a, Error::InvalidArgument,
                  "out has batch 1 and 4 channels, expected batch 1 and 3 channels");
  a = TcArgs{};
  a.out_sizes = {2, 3, 6, 6};
  expect_rejected(a, Error::InvalidArgument, "out has batch 2 and 3 channels");
  a = TcArgs{};
  a.weight_sizes = {3, 0, 3, 2};
  expect_rejected(a, Error::InvalidArgument, "weight [3, 0, 3, 2] has an empty dimension");
}

TEST(TransposeConv2dPrepare, RejectsBadStridePaddingOutputPaddingAndDilation) {
  TcArgs a;
  a.stride = {2};
  expect_rejected(a, Error::InvalidArgument, "stride has 1 values, expected 2");
  a = TcArgs{};
  a.stride = {0, 2};
  expect_rejected(a, Error::InvalidArgument, "stride[0] = 0, expected [1, 2147483647]");
  a = TcArgs{};
  a.stride = {2, -2};
  expect_rejected(a, Error::InvalidArgument, "stride[1] = -2, expected [1, 2147483647]");
  a = TcArgs{};
  a.padding = {1, -1};
  expect_rejected(a, Error::InvalidArgument, "padding[1] = -1, expected [0, 2147483647]");
  a = TcArgs{};
  a.output_padding = {1, -1};
  expect_rejected(a, Error::InvalidArgument, "output_padding[1] = -1, expected [0, 2147483647]");
  a = TcArgs{};
  a.output_padding = {2, 1};
  expect_rejected(a, Error::InvalidArgument, "output_padding[0] = 2, expected [0, 1]");
  a = TcArgs{};
  a.output_padding = {1, 1, 1};
  expect_rejected(a, Error::InvalidArgument, "output_padding has 3 values, expected 2");
  a = TcArgs{};
  a.dilation = {0, 1};
  expect_rejected(a, Error::InvalidArgument, "dilation[0] = 0, expected [1, 2147483647]");
  a = TcArgs{};
  a.dilation = {1, 2};
  expect_rejected(a, Error::NotSupported, "dilation = [1, 2], expected [1, 1]");
}

TEST(TransposeConv2dPrepare, RejectsOutOfRangeOffsetsAndActivationRange) {
  kernels::testing::expect_conv_rejects_bad_offsets<TcArgs>(kEntry, kTransposeConv2dContract);
  TcArgs a;
  a.activation_min = -129;
  expect_rejected(a, Error::InvalidArgument, "activation_min = -129, expected [-128, 127]");
}

TEST(TransposeConv2dPrepare, RejectsRequantizationOfTheWrongCountOrRange) {
  TcArgs a;
  a.multipliers = {1 << 30, 1 << 30};
  expect_rejected(a, Error::InvalidArgument,
                  "requantize_multipliers [2] has 2 values, expected 3 (one per output channel)");
  a = TcArgs{};
  a.shifts = {0, 0, 0, 0};
  expect_rejected(a, Error::InvalidArgument, "requantize_shifts [4] has 4 values, expected 3");
  a = TcArgs{};
  a.bias_sizes = {2};
  expect_rejected(a, Error::InvalidArgument, "bias [2] has 2 values, expected 3");
  a = TcArgs{};
  a.bias_sizes = {3, 3};
  expect_rejected(a, Error::InvalidArgument,
                  "bias [3, 3] has 9 values, expected 3 (one per output channel)");
  a = TcArgs{};
  a.multipliers = {1 << 30, -5, 1 << 30};
  expect_rejected(a, Error::InvalidArgument,
                  "requantize_multipliers[1] = -5, expected [0, 2147483647]");
  a = TcArgs{};
  a.shifts = {0, 0, 31};
  expect_rejected(a, Error::InvalidArgument, "requantize_shifts[2] = 31, expected [-31, 30]");
  a = TcArgs{};
  a.shifts = {-32, 0, 0};
  expect_rejected(a, Error::InvalidArgument, "requantize_shifts[0] = -32, expected [-31, 30]");
  a = TcArgs{};
  a.constant_requant = false;
  expect_rejected(a, Error::NotSupported, "requantize_multipliers is not a constant tensor");
  a = TcArgs{};
  a.constant_shifts = false;
  expect_rejected(a, Error::NotSupported, "requantize_shifts is not a constant tensor");
}

TEST(TransposeConv2dPrepare, RejectsOutSizesOtherThanTheTransposedConvolutionFormula) {
  TcArgs a;
  a.out_sizes = {1, 3, 5, 6};  // output_padding 0's height
  expect_rejected(a, Error::InvalidArgument,
                  "out height = 5, expected 6 = (3 - 1) * stride 2 - 2 * padding 1 + kernel 3 "
                  "+ output_padding 1");
  a = TcArgs{};
  a.out_sizes = {1, 3, 6, 7};
  expect_rejected(a, Error::InvalidArgument, "out width = 7, expected 6");
  a = TcArgs{};
  a.padding = {4, 1};
  a.output_padding = {0, 1};
  a.out_sizes = {1, 3, 1, 6};
  expect_rejected(a, Error::InvalidArgument,
                  "out height would be -1 (input 3, kernel 3, stride 2, padding 4, "
                  "output_padding 0), expected >= 1");
}

}  // namespace
}  // namespace etns::cortex_m
