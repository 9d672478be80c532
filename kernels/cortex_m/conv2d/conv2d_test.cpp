#include "kernels/cortex_m/conv2d/conv2d.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <utility>
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

const runtime::KernelEntry kEntry = runtime::kernel_entry(kConv2dContract, &conv2d_prepare,
                                                           &conv2d_run);

const std::vector<uint8_t> kNhwc = {0, 2, 3, 1};

constexpr runtime::Arg kInput = kConv2dContract.arg("input");
constexpr runtime::Arg kWeight = kConv2dContract.arg("weight");
constexpr runtime::Arg kBias = kConv2dContract.arg("bias");
constexpr runtime::Arg kMultipliers = kConv2dContract.arg("requantize_multipliers");
constexpr runtime::Arg kShifts = kConv2dContract.arg("requantize_shifts");
constexpr runtime::Arg kOut = kConv2dContract.out();

// One call's arguments; sizes are PyTorch's ([N, C, H, W], weight [Cout, KH, KW, Cin]).
struct ConvArgs : kernels::testing::ConvCallArgs {
  ConvArgs() {
    input_sizes = {1, 4, 5, 5};
    weight_sizes = {2, 3, 3, 4};
    multipliers = {1 << 30, 1 << 30};
    shifts = {1, 1};
    out_sizes = {1, 2, 5, 5};
    bias_dim = 0;
  }
};

void add_arguments(KernelCall& call, const ConvArgs& a) {
  kernels::testing::add_conv_arguments(call, kConv2dContract, a);
}

// --- Reference against goldens and hand-worked cases ---

// 3x3 image 1..9, 3x3 ones, padding 1, bias 10, RQ factor exactly 1 (2^30, 1).
TEST(Conv2dS8, HandWorkedSinglePlane) {
  ConvArgs a;
  a.input_sizes = {1, 1, 3, 3};
  a.input_dim_order = {};  // C = 1: contiguous is NHWC in memory too
  a.weight_sizes = {1, 3, 3, 1};
  a.input_offset = 0;
  a.output_offset = -5;
  a.multipliers = {1 << 30};
  a.shifts = {1};
  a.out_sizes = {1, 1, 3, 3};
  a.out_dim_order = {};
  KernelCall call;
  add_arguments(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kInput, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  call.fill<int8_t>(kWeight, std::vector<int8_t>(9, 1));
  call.fill<int32_t>(kBias, {10});
  ASSERT_EQ(call.run(), Error::Ok);
  // Neighbourhood sums 12 21 16 / 27 45 33 / 24 39 28, plus 10 - 5.
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{17, 26, 21, 32, 50, 38, 29, 44, 33}));
}

// Input equal to its zero point contributes nothing, inside or outside the image.
TEST(Conv2dS8, PaddingActsAsTheInputZeroPoint) {
  ConvArgs a;
  a.input_offset = 3;
  a.output_offset = 4;
  a.has_bias = false;
  KernelCall call;
  add_arguments(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  std::fill_n(call.data<int8_t>(kInput), 100, int8_t{-3});
  std::fill_n(call.data<int8_t>(kWeight), 72, int8_t{-128});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), std::vector<int8_t>(50, 4));
}

// 5x5 image y * 5 + x, 3x3 ones, RQ factor 0.5 (2^30, 0), rounding half up.
TEST(Conv2dS8, HandWorkedStrideAndDilation) {
  ConvArgs a;
  a.input_sizes = {1, 1, 5, 5};
  a.input_dim_order = {};
  a.weight_sizes = {1, 3, 3, 1};
  a.has_bias = false;
  a.padding = {0, 0};
  a.input_offset = 0;
  a.output_offset = 0;
  a.multipliers = {1 << 30};
  a.shifts = {0};
  a.out_dim_order = {};
  std::vector<int8_t> image(25);
  std::iota(image.begin(), image.end(), int8_t{0});

  a.stride = {2, 2};
  a.out_sizes = {1, 1, 2, 2};
  KernelCall strided;
  add_arguments(strided, a);
  ASSERT_EQ(strided.prepare(kEntry), Error::Ok) << strided.log();
  strided.fill<int8_t>(kInput, image);
  strided.fill<int8_t>(kWeight, std::vector<int8_t>(9, 1));
  ASSERT_EQ(strided.run(), Error::Ok);
  // Window sums 9 * centre: 54, 72, 144, 162.
  EXPECT_EQ(strided.read<int8_t>(kOut), (std::vector<int8_t>{27, 36, 72, 81}));

  a.stride = {1, 1};
  a.dilation = {2, 2};
  a.out_sizes = {1, 1, 1, 1};
  KernelCall dilated;
  add_arguments(dilated, a);
  ASSERT_EQ(dilated.prepare(kEntry), Error::Ok) << dilated.log();
  dilated.fill<int8_t>(kInput, image);
  dilated.fill<int8_t>(kWeight, std::vector<int8_t>(9, 1));
  ASSERT_EQ(dilated.run(), Error::Ok);
  // Taps 0 2 4 10 12 14 20 22 24 sum to 108; half is 54.
  EXPECT_EQ(dilated.read<int8_t>(kOut), std::vector<int8_t>{54});
}

// Batches, groups, asymmetric stride/padding/dilation, bias, per-channel RQ and a
// narrow activation range, against the §2.3.3 formula written out here.
TEST(Conv2dS8, GroupedConvolutionMatchesTheFormula) {
  etns::testing::Rng rng(2024);
  const int32_t batches = 2, in_c = 4, in_h = 5, in_w = 4, out_c = 6, k_h = 3, k_w = 2;
  const int32_t filter_c = 2;  // two groups
  ConvArgs a;
  a.input_sizes = {batches, in_c, in_h, in_w};
  a.weight_sizes = {out_c, k_h, k_w, filter_c};
  a.stride = {2, 1};
  a.padding = {1, 0};
  a.dilation = {1, 2};
  a.input_offset = 7;
  a.output_offset = -20;
  a.activation_min = -100;
  a.activation_max = 90;
  a.multipliers.clear();
  a.shifts.clear();
  for (int32_t oc = 0; oc < out_c; ++oc) {
    a.multipliers.push_back(static_cast<int32_t>(rng.uniform(1 << 30, INT32_MAX)));
    a.shifts.push_back(static_cast<int32_t>(rng.uniform(-10, 0)));
  }
  const int32_t out_h = 3, out_w = 2;  // (5 + 2 - 2 - 1) / 2 + 1 and (4 - 2 - 1) / 1 + 1
  a.out_sizes = {batches, out_c, out_h, out_w};
  KernelCall call;
  add_arguments(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  const std::vector<int8_t> input =
      etns::testing::random_s8(rng, static_cast<size_t>(batches * in_h * in_w * in_c));
  const std::vector<int8_t> weight =
      etns::testing::random_s8(rng, static_cast<size_t>(out_c * k_h * k_w * filter_c));
  std::vector<int32_t> bias;
  for (int32_t oc = 0; oc < out_c; ++oc)
    bias.push_back(static_cast<int32_t>(rng.uniform(-5000, 5000)));
  call.fill<int8_t>(kInput, input);
  call.fill<int8_t>(kWeight, weight);
  call.fill<int32_t>(kBias, bias);
  ASSERT_EQ(call.run(), Error::Ok);
  const std::vector<int8_t> got = call.read<int8_t>(kOut);

  int clamped = 0;
  for (int32_t n = 0; n < batches; ++n) {
    for (int32_t oy = 0; oy < out_h; ++oy) {
      for (int32_t ox = 0; ox < out_w; ++ox) {
        for (int32_t oc = 0; oc < out_c; ++oc) {
          const int32_t group = oc / (out_c / 2);
          int32_t acc = bias[oc];
          for (int32_t ky = 0; ky < k_h; ++ky) {
            for (int32_t kx = 0; kx < k_w; ++kx) {
              const int32_t iy = oy * 2 - 1 + ky, ix = ox - 0 + kx * 2;
              if (iy < 0 || iy >= in_h || ix < 0 || ix >= in_w) continue;
              for (int32_t ic = 0; ic < filter_c; ++ic) {
                const int8_t x =
                    input[((n * in_h + iy) * in_w + ix) * in_c + group * filter_c + ic];
                const int8_t w = weight[((oc * k_h + ky) * k_w + kx) * filter_c + ic];
                acc += (x + 7) * w;
              }
            }
          }
          const int32_t y = kernels::requantize(acc, {a.multipliers[oc], a.shifts[oc]}) - 20;
          clamped += (y < -100 || y > 90) ? 1 : 0;
          const int8_t want = static_cast<int8_t>(kernels::clamp_s32(y, -100, 90));
          ASSERT_EQ(got[((n * out_h + oy) * out_w + ox) * out_c + oc], want)
              << "n " << n << " oy " << oy << " ox " << ox << " oc " << oc;
        }
      }
    }
  }
  EXPECT_GT(clamped, 0) << "the activation range was never exercised";
}

// TF "SAME" with stride 2 on an even input: out = ceil(4 / 2) = 2, total
// padding (2 - 1) * 2 + 3 - 4 = 1, none before, the extra row and column after
// (the exporter passes padding 0 and out's sizes carry the rest).
TEST(Conv2dS8, HandWorkedUnevenSamePadding) {
  ConvArgs a;
  a.input_sizes = {1, 1, 4, 4};
  a.input_dim_order = {};
  a.weight_sizes = {1, 3, 3, 1};
  a.has_bias = false;
  a.stride = {2, 2};
  a.padding = {0, 0};
  a.input_offset = 0;
  a.output_offset = 0;
  a.multipliers = {1 << 30};
  a.shifts = {1};  // factor exactly 1
  a.out_sizes = {1, 1, 2, 2};
  a.out_dim_order = {};
  KernelCall call;
  add_arguments(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  std::vector<int8_t> image(16);
  std::iota(image.begin(), image.end(), int8_t{1});  // 1..16, row-major
  call.fill<int8_t>(kInput, image);
  call.fill<int8_t>(kWeight, std::vector<int8_t>(9, 1));
  ASSERT_EQ(call.run(), Error::Ok);
  // Windows at rows/cols {0..2} and {2..4}, index 4 being padding:
  // 1+2+3+5+6+7+9+10+11 = 54, 3+4+7+8+11+12 = 45, 9+10+11+13+14+15 = 72, 11+12+15+16 = 54.
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{54, 45, 72, 54}));
}

// Uneven padding against an independent computation: the input copied into an
// explicitly padded image (zero point around it, the far side wider), then a
// plain valid convolution over it with no bounds tests.
TEST(Conv2dS8, UnevenPaddingMatchesAnExplicitlyPaddedImage) {
  etns::testing::Rng rng(77);
  struct Shape {
    int32_t in_h, in_w, k_h, k_w, stride_h, stride_w, dil_h, dil_w, pad_h, pad_w, out_h, out_w;
  };
  // Each out is TF SAME's ceil(in / stride) or larger, so the far side gets extra padding.
  const Shape shapes[] = {
      {6, 6, 3, 3, 2, 2, 1, 1, 0, 0, 3, 3},  // SAME, stride 2, even input: after = 1
      {5, 5, 2, 2, 1, 1, 1, 1, 0, 0, 5, 5},  // SAME, even kernel: after = 1
      {7, 8, 4, 3, 3, 2, 1, 1, 1, 0, 3, 4},  // SAME: before 1 / after 2 rows, 0 / 1 columns
      {5, 6, 3, 3, 1, 2, 2, 1, 1, 1, 6, 4},  // dilated, out past the far edge
      {3, 3, 5, 5, 1, 1, 1, 1, 0, 0, 3, 3},  // kernel wider than the image
  };
  for (const Shape& sh : shapes) {
    const int32_t in_c = 3, out_c = 4;
    ConvArgs a;
    a.input_sizes = {1, in_c, sh.in_h, sh.in_w};
    a.weight_sizes = {out_c, sh.k_h, sh.k_w, in_c};
    a.stride = {sh.stride_h, sh.stride_w};
    a.padding = {sh.pad_h, sh.pad_w};
    a.dilation = {sh.dil_h, sh.dil_w};
    a.input_offset = 9;
    a.output_offset = 5;
    a.multipliers = {1 << 30, 1 << 30, 1 << 30, 1 << 30};
    a.shifts = {-3, -3, -3, -3};
    a.out_sizes = {1, out_c, sh.out_h, sh.out_w};
    KernelCall call;
    add_arguments(call, a);
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    const std::vector<int8_t> input =
        etns::testing::random_s8(rng, static_cast<size_t>(sh.in_h * sh.in_w * in_c));
    const std::vector<int8_t> weight =
        etns::testing::random_s8(rng, static_cast<size_t>(out_c * sh.k_h * sh.k_w * in_c));
    const std::vector<int32_t> bias = {100, -200, 0, 7};
    call.fill<int8_t>(kInput, input);
    call.fill<int8_t>(kWeight, weight);
    call.fill<int32_t>(kBias, bias);
    ASSERT_EQ(call.run(), Error::Ok);
    const std::vector<int8_t> got = call.read<int8_t>(kOut);

    // Padded image big enough for every tap out's sizes reach.
    const int32_t ph = sh.pad_h + (sh.out_h - 1) * sh.stride_h + (sh.k_h - 1) * sh.dil_h + 1;
    const int32_t pw = sh.pad_w + (sh.out_w - 1) * sh.stride_w + (sh.k_w - 1) * sh.dil_w + 1;
    const int32_t rows = std::max(ph, sh.pad_h + sh.in_h), cols = std::max(pw, sh.pad_w + sh.in_w);
    std::vector<int32_t> padded(static_cast<size_t>(rows * cols * in_c), -9);  // zero point
    for (int32_t y = 0; y < sh.in_h; ++y)
      for (int32_t x = 0; x < sh.in_w; ++x)
        for (int32_t c = 0; c < in_c; ++c)
          padded[((y + sh.pad_h) * cols + x + sh.pad_w) * in_c + c] =
              input[(y * sh.in_w + x) * in_c + c];
    for (int32_t oy = 0; oy < sh.out_h; ++oy) {
      for (int32_t ox = 0; ox < sh.out_w; ++ox) {
        for (int32_t oc = 0; oc < out_c; ++oc) {
          int32_t acc = bias[oc];
          for (int32_t ky = 0; ky < sh.k_h; ++ky)
            for (int32_t kx = 0; kx < sh.k_w; ++kx)
              for (int32_t c = 0; c < in_c; ++c) {
                const int32_t y = oy * sh.stride_h + ky * sh.dil_h;
                const int32_t x = ox * sh.stride_w + kx * sh.dil_w;
                acc += (padded[(y * cols + x) * in_c + c] + 9) *
                       weight[((oc * sh.k_h + ky) * sh.k_w + kx) * in_c + c];
              }
          const int32_t scaled = kernels::requantize(acc, {1 << 30, -3});
          const int8_t want = static_cast<int8_t>(std::clamp(scaled + 5, -128, 127));
          ASSERT_EQ(got[(oy * sh.out_w + ox) * out_c + oc], want)
              << "in " << sh.in_h << "x" << sh.in_w << " out " << sh.out_h << "x" << sh.out_w
              << " at oy " << oy << " ox " << ox << " oc " << oc;
        }
      }
    }
  }
}

// --- Requantisation extremes and per-channel vector shapes ---

constexpr int32_t kExtremeCount = kernels::testing::kConvExtremeCount;

// The extreme channels as a [1, 1, 1, 1] -> [1, 8, 1, 1] convolution with the
// per-channel vectors in `sizes` (empty: [8]).
std::vector<int8_t> run_extremes(const std::vector<int32_t>& sizes) {
  ConvArgs a;
  a.input_sizes = {1, 1, 1, 1};
  a.weight_sizes = {kExtremeCount, 1, 1, 1};
  a.padding = {0, 0};
  return kernels::testing::run_conv_extremes(kEntry, kConv2dContract, a, sizes);
}

std::vector<int8_t> extremes_wanted() { return kernels::testing::conv_extremes_wanted(); }

TEST(Conv2dS8, RequantizesMultiplierZeroAndShiftMinus31) {
  EXPECT_EQ(run_extremes({}), extremes_wanted());
}

// ExecuTorch and TFLite-derived exporters write per-channel tensors as [C],
// [1, C] or [C, 1, 1, 1]: any shape holding one int32 per output channel is
// accepted for bias, multipliers and shifts, and computes the same.
TEST(Conv2dPrepare, TakesPerChannelVectorsInAnyShape) {
  const std::vector<int8_t> want = extremes_wanted();
  for (const std::vector<int32_t>& sizes :
       {std::vector<int32_t>{kExtremeCount}, {1, kExtremeCount}, {kExtremeCount, 1},
        {kExtremeCount, 1, 1, 1}, {1, 1, 1, kExtremeCount}}) {
    EXPECT_EQ(run_extremes(sizes), want) << "rank " << sizes.size();
  }
}

// --- prepare rejects what the kernel does not accept ---

void expect_rejected(const ConvArgs& a, Error code, const std::string& message) {
  kernels::testing::expect_conv_rejected(kEntry, kConv2dContract, a, code, message);
}

TEST(Conv2dPrepare, AcceptsTheDefaultsAndANullBias) {
  for (bool has_bias : {true, false}) {
    ConvArgs a;
    a.has_bias = has_bias;
    KernelCall call;
    add_arguments(call, a);
    EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  }
}

TEST(Conv2dPrepare, RejectsWrongDtypes) {
  kernels::testing::expect_conv_rejects_wrong_dtypes<ConvArgs>(kEntry, kConv2dContract);
}

TEST(Conv2dPrepare, RejectsWrongKindOfArgument) {
  KernelCall call;
  call.tensor(ScalarType::Char, {1, 1, 3, 3})
      .tensor(ScalarType::Char, {1, 3, 3, 1})
      .null()
      .int_value(1)  // stride must be an int[]
      .int_list({1, 1})
      .int_list({1, 1})
      .int_value(0)
      .int_value(0)
      .tensor(ScalarType::Int, {1})
      .tensor(ScalarType::Int, {1})
      .int_value(-128)
      .int_value(127)
      .tensor(ScalarType::Char, {1, 1, 3, 3});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidProgram);
  const std::string message = "argument " +
                              std::to_string(kConv2dContract.arg("stride").index) +
                              " (stride) is Int, expected IntList";
  EXPECT_NE(call.log().find(message), std::string::npos) << call.log();
}

TEST(Conv2dPrepare, RejectsWrongRanksAndLayouts) {
  ConvArgs a;
  a.input_sizes = {4, 5, 5};
  a.input_dim_order = {};
  expect_rejected(a, Error::InvalidArgument, "input has rank 3, expected 4");
  a = ConvArgs{};
  a.input_dim_order = {};
  expect_rejected(a, Error::InvalidArgument, "input must be channels_last");
  a = ConvArgs{};
  a.out_dim_order = {};
  expect_rejected(a, Error::InvalidArgument, "out must be channels_last");
  a = ConvArgs{};
  a.weight_dim_order = {0, 2, 3, 1};
  expect_rejected(a, Error::InvalidArgument, "weight must be contiguous (row-major in memory)");
  a = ConvArgs{};
  a.weight_sizes = {2, 3, 12};
  expect_rejected(a, Error::InvalidArgument, "weight has rank 3, expected 4");
  // A per-channel vector may have any shape, but its values must be in order.
  a = ConvArgs{};
  a.weight_sizes = {4, 3, 3, 4};
  a.out_sizes = {1, 4, 5, 5};
  a.multipliers = {1 << 30, 1 << 30, 1 << 30, 1 << 30};
  a.shifts = {1, 1, 1, 1};
  a.requant_sizes = {2, 2};
  a.requant_dim_order = {1, 0};
  expect_rejected(a, Error::InvalidArgument,
                  "requantize_multipliers must be contiguous (row-major in memory)");
}

TEST(Conv2dPrepare, RejectsAWeightWithAnEmptyDimension) {
  ConvArgs a;
  a.weight_sizes = {2, 0, 3, 4};
  expect_rejected(a, Error::InvalidArgument, "weight [2, 0, 3, 4] has an empty dimension");
  a = ConvArgs{};
  a.weight_sizes = {2, 3, 3, 0};  // no input channels: no group size
  expect_rejected(a, Error::InvalidArgument, "weight [2, 3, 3, 0] has an empty dimension");
}

TEST(Conv2dPrepare, RejectsBadStridePaddingAndDilation) {
  ConvArgs a;
  a.stride = {1};
  expect_rejected(a, Error::InvalidArgument, "stride has 1 values, expected 2");
  a = ConvArgs{};
  a.stride = {0, 1};
  expect_rejected(a, Error::InvalidArgument, "stride[0] = 0, expected [1, 2147483647]");
  a = ConvArgs{};
  a.padding = {1, -1};
  expect_rejected(a, Error::InvalidArgument, "padding[1] = -1, expected [0, 2147483647]");
  a = ConvArgs{};
  a.dilation = {1, 0};
  expect_rejected(a, Error::InvalidArgument, "dilation[1] = 0, expected [1, 2147483647]");
  a = ConvArgs{};
  a.dilation = {1, 1, 1};
  expect_rejected(a, Error::InvalidArgument, "dilation has 3 values, expected 2");
}

TEST(Conv2dPrepare, RejectsOutOfRangeOffsetsAndActivationRange) {
  kernels::testing::expect_conv_rejects_bad_offsets<ConvArgs>(kEntry, kConv2dContract);
  ConvArgs a;
  a.activation_min = -129;
  expect_rejected(a, Error::InvalidArgument, "activation_min = -129, expected [-128, 127]");
}

TEST(Conv2dPrepare, RejectsOutOfRangeRequantizationNamingTheChannel) {
  ConvArgs a;
  a.multipliers = {1 << 30, -5};
  expect_rejected(a, Error::InvalidArgument,
                  "requantize_multipliers[1] = -5, expected [0, 2147483647]");
  a = ConvArgs{};
  a.shifts = {31, 0};
  expect_rejected(a, Error::InvalidArgument, "requantize_shifts[0] = 31, expected [-31, 30]");
  a.shifts = {0, -32};
  expect_rejected(a, Error::InvalidArgument, "requantize_shifts[1] = -32, expected [-31, 30]");
  a = ConvArgs{};
  a.constant_requant = false;
  expect_rejected(a, Error::NotSupported, "requantize_multipliers is not a constant tensor");
  a = ConvArgs{};
  a.constant_shifts = false;
  expect_rejected(a, Error::NotSupported, "requantize_shifts is not a constant tensor");
}

TEST(Conv2dPrepare, RejectsPerChannelTensorsOfTheWrongLength) {
  ConvArgs a;
  a.multipliers = {1 << 30};
  expect_rejected(a, Error::InvalidArgument,
                  "requantize_multipliers [1] has 1 values, expected 2 (one per output channel)");
  a = ConvArgs{};
  a.shifts = {0, 0, 0};
  expect_rejected(a, Error::InvalidArgument, "requantize_shifts [3] has 3 values, expected 2");
  a = ConvArgs{};
  a.bias_sizes = {3};
  expect_rejected(a, Error::InvalidArgument, "bias [3] has 3 values, expected 2");
  a = ConvArgs{};
  a.bias_sizes = {2, 2};
  expect_rejected(a, Error::InvalidArgument,
                  "bias [2, 2] has 4 values, expected 2 (one per output channel)");
}

TEST(Conv2dPrepare, RejectsInconsistentShapes) {
  ConvArgs a;
  a.out_sizes = {1, 3, 5, 5};
  expect_rejected(a, Error::InvalidArgument,
                  "out has batch 1 and 3 channels, expected batch 1 and 2 channels");
  a = ConvArgs{};
  a.out_sizes = {2, 2, 5, 5};
  expect_rejected(a, Error::InvalidArgument, "out has batch 2 and 2 channels");
  a = ConvArgs{};
  a.weight_sizes = {2, 3, 3, 3};
  expect_rejected(a, Error::InvalidArgument,
                  "input has 4 channels, expected a positive multiple of weight's 3");
  a = ConvArgs{};
  a.input_sizes = {1, 6, 5, 5};
  a.weight_sizes = {2, 3, 3, 2};  // three groups cannot share two output channels
  expect_rejected(a, Error::InvalidArgument,
                  "weight has 2 output channels, expected a multiple of the 3 groups");
}

// out's sizes are trusted (operators.md §2.3.1), so only an empty out or one
// whose indices leave int32 is refused.
TEST(Conv2dPrepare, RejectsAnEmptyOutAndIndicesBeyondInt32) {
  ConvArgs a;
  a.out_sizes = {1, 2, 0, 5};
  expect_rejected(a, Error::InvalidArgument, "out height = 0, expected >= 1");
  a = ConvArgs{};
  a.out_sizes = {1, 2, 5, 0};
  expect_rejected(a, Error::InvalidArgument, "out width = 0, expected >= 1");
  a = ConvArgs{};
  a.stride = {1, 1 << 29};
  expect_rejected(a, Error::InvalidArgument,
                  "out width 5 with kernel 3, stride 536870912 and dilation 1 reaches input "
                  "index 3758096386, beyond int32");
  a = ConvArgs{};
  a.dilation = {1 << 30, 1};
  expect_rejected(a, Error::InvalidArgument, "out height 5 with kernel 3");
}

// Any out extent >= 1 is accepted: shorter, longer (taps past the far edge are
// padding), and a kernel wider than the padded input.
TEST(Conv2dPrepare, AcceptsAnyOutExtent) {
  for (const std::vector<int32_t>& out : std::vector<std::vector<int32_t>>{
           {1, 2, 4, 5}, {1, 2, 5, 3}, {1, 2, 7, 9}, {1, 2, 1, 1}}) {
    ConvArgs a;
    a.out_sizes = out;
    KernelCall call;
    add_arguments(call, a);
    EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  }
  ConvArgs a;
  a.input_sizes = {1, 4, 1, 5};
  a.padding = {0, 1};
  a.out_sizes = {1, 2, 1, 5};
  KernelCall call;
  add_arguments(call, a);
  EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
}

}  // namespace
}  // namespace etns::cortex_m
