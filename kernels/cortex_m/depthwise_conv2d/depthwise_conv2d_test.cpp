#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
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
    kDepthwiseConv2dContract, &depthwise_conv2d_prepare, &depthwise_conv2d_run);

const std::vector<uint8_t> kNhwc = {0, 2, 3, 1};

constexpr runtime::Arg kInput = kDepthwiseConv2dContract.arg("input");
constexpr runtime::Arg kWeight = kDepthwiseConv2dContract.arg("weight");
constexpr runtime::Arg kBias = kDepthwiseConv2dContract.arg("bias");
constexpr runtime::Arg kMultipliers = kDepthwiseConv2dContract.arg("requantize_multipliers");
constexpr runtime::Arg kShifts = kDepthwiseConv2dContract.arg("requantize_shifts");
constexpr runtime::Arg kOut = kDepthwiseConv2dContract.out();

// One call's arguments; sizes are PyTorch's ([N, C, H, W], weight [1, KH, KW, Cout]).
struct DwArgs : kernels::testing::ConvCallArgs {
  DwArgs() {
    input_sizes = {1, 2, 5, 5};
    weight_sizes = {1, 3, 3, 4};
    depth_multiplier = 2;
    multipliers = {1 << 30, 1 << 30, 1 << 30, 1 << 30};
    shifts = {1, 1, 1, 1};
    out_sizes = {1, 4, 5, 5};
    bias_dim = 3;
  }
};

void add_arguments(KernelCall& call, const DwArgs& a) {
  kernels::testing::add_conv_arguments(call, kDepthwiseConv2dContract, a);
}

// A single-channel [1, 1, h, w] call with a 3x3 filter, no offsets and RQ
// factor 2^30 * 2^shift / 2^31.
DwArgs single_plane(int32_t h, int32_t w, int32_t out_h, int32_t out_w, int32_t shift) {
  DwArgs a;
  a.input_sizes = {1, 1, h, w};
  a.input_dim_order = {};  // C = 1: contiguous is NHWC in memory too
  a.weight_sizes = {1, 3, 3, 1};
  a.depth_multiplier = 1;
  a.has_bias = false;
  a.input_offset = 0;
  a.output_offset = 0;
  a.multipliers = {1 << 30};
  a.shifts = {shift};
  a.out_sizes = {1, 1, out_h, out_w};
  a.out_dim_order = {};
  return a;
}

// --- The kernel against hand-worked cases and an independent formula ---

// 3x3 image 1..9, 3x3 ones, padding 1, bias 10, RQ factor exactly 1 (2^30, 1).
TEST(DepthwiseConv2dS8, HandWorkedSinglePlane) {
  DwArgs a = single_plane(3, 3, 3, 3, 1);
  a.has_bias = true;
  a.output_offset = -5;
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

// Each channel convolves with its own weights only: 2x2 image, 2x2 filter, no padding.
TEST(DepthwiseConv2dS8, HandWorkedChannelsStaySeparate) {
  DwArgs a;
  a.input_sizes = {1, 2, 2, 2};
  a.weight_sizes = {1, 2, 2, 2};
  a.depth_multiplier = 1;
  a.has_bias = false;
  a.padding = {0, 0};
  a.input_offset = 0;
  a.output_offset = 0;
  a.multipliers = {1 << 30, 1 << 30};
  a.shifts = {1, 1};
  a.out_sizes = {1, 2, 1, 1};
  KernelCall call;
  add_arguments(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  // NHWC: pixel (y, x) holds channel 0 then channel 1.
  call.fill<int8_t>(kInput, {1, 10, 2, 20, 3, 30, 4, 40});
  // IHWO: tap (ky, kx) holds channel 0's weight then channel 1's.
  call.fill<int8_t>(kWeight, {1, 1, 1, -1, 1, 0, 1, 2});
  ASSERT_EQ(call.run(), Error::Ok);
  // Channel 0: 1 + 2 + 3 + 4; channel 1: 10 - 20 + 0 + 80.
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{10, 70}));
}

// Depth multiplier 2: output channel oc reads input channel oc / 2; input_offset applied.
TEST(DepthwiseConv2dS8, HandWorkedDepthMultiplierTwo) {
  DwArgs a;
  a.input_sizes = {1, 2, 1, 1};
  a.weight_sizes = {1, 1, 1, 4};
  a.has_bias = false;
  a.padding = {0, 0};
  a.input_offset = 1;
  a.output_offset = 0;
  a.out_sizes = {1, 4, 1, 1};
  KernelCall call;
  add_arguments(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kInput, {3, -5});
  call.fill<int8_t>(kWeight, {2, -1, 4, 3});
  ASSERT_EQ(call.run(), Error::Ok);
  // (3 + 1) * 2, (3 + 1) * -1, (-5 + 1) * 4, (-5 + 1) * 3.
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{8, -4, -16, -12}));
}

// Input equal to its zero point contributes nothing, inside or outside the image.
TEST(DepthwiseConv2dS8, PaddingActsAsTheInputZeroPoint) {
  DwArgs a;
  a.input_offset = 3;
  a.output_offset = 4;
  a.has_bias = false;
  KernelCall call;
  add_arguments(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  std::fill_n(call.data<int8_t>(kInput), 50, int8_t{-3});
  std::fill_n(call.data<int8_t>(kWeight), 36, int8_t{-128});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), std::vector<int8_t>(100, 4));
}

// 5x5 image y * 5 + x, 3x3 ones, RQ factor 0.5 (2^30, 0), rounding half up.
TEST(DepthwiseConv2dS8, HandWorkedStrideAndDilation) {
  std::vector<int8_t> image(25);
  std::iota(image.begin(), image.end(), int8_t{0});

  DwArgs a = single_plane(5, 5, 2, 2, 0);
  a.padding = {0, 0};
  a.stride = {2, 2};
  KernelCall strided;
  add_arguments(strided, a);
  ASSERT_EQ(strided.prepare(kEntry), Error::Ok) << strided.log();
  strided.fill<int8_t>(kInput, image);
  strided.fill<int8_t>(kWeight, std::vector<int8_t>(9, 1));
  ASSERT_EQ(strided.run(), Error::Ok);
  // Window sums 9 * centre: 54, 72, 144, 162.
  EXPECT_EQ(strided.read<int8_t>(kOut), (std::vector<int8_t>{27, 36, 72, 81}));

  a = single_plane(5, 5, 1, 1, 0);
  a.padding = {0, 0};
  a.dilation = {2, 2};
  KernelCall dilated;
  add_arguments(dilated, a);
  ASSERT_EQ(dilated.prepare(kEntry), Error::Ok) << dilated.log();
  dilated.fill<int8_t>(kInput, image);
  dilated.fill<int8_t>(kWeight, std::vector<int8_t>(9, 1));
  ASSERT_EQ(dilated.run(), Error::Ok);
  // Taps 0 2 4 10 12 14 20 22 24 sum to 108; half is 54.
  EXPECT_EQ(dilated.read<int8_t>(kOut), std::vector<int8_t>{54});
}

// TF "SAME" with stride 2 on an even input: out = ceil(4 / 2) = 2, no padding
// before, the extra row and column after (padding 0; out's sizes carry it).
TEST(DepthwiseConv2dS8, HandWorkedUnevenSamePadding) {
  DwArgs a = single_plane(4, 4, 2, 2, 1);  // factor exactly 1
  a.stride = {2, 2};
  a.padding = {0, 0};
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

// Many shapes against an independent computation: the input copied into an
// explicitly padded image (zero point around it, the far side as wide as out
// reaches), then a plain valid depthwise convolution with no bounds tests.
// Covers channel counts around the 16-lane passes, depth multipliers 1-3,
// stride, dilation, uneven padding, null bias, batch 2 and a narrow
// activation range.
TEST(DepthwiseConv2dS8, ShapesMatchAnExplicitlyPaddedImage) {
  etns::testing::Rng rng(91);
  struct Shape {
    int32_t batches, in_c, mult, in_h, in_w, k_h, k_w, stride_h, stride_w, dil_h, dil_w, pad_h,
        pad_w, out_h, out_w;
    bool bias;
  };
  const Shape shapes[] = {
      {1, 1, 1, 5, 5, 3, 3, 1, 1, 1, 1, 1, 1, 5, 5, true},
      {1, 3, 1, 6, 7, 3, 3, 1, 1, 1, 1, 1, 1, 6, 7, false},
      {1, 16, 1, 4, 5, 3, 3, 1, 1, 1, 1, 1, 1, 4, 5, true},
      {1, 17, 1, 5, 4, 3, 3, 2, 2, 1, 1, 1, 1, 3, 2, true},
      {1, 33, 1, 4, 6, 3, 3, 1, 1, 2, 2, 2, 2, 4, 6, false},
      {1, 3, 2, 5, 5, 3, 3, 1, 1, 1, 1, 1, 1, 5, 5, true},
      {1, 17, 2, 4, 4, 3, 2, 1, 2, 1, 1, 1, 0, 4, 2, true},
      {1, 5, 3, 6, 5, 3, 3, 2, 1, 1, 2, 0, 1, 3, 4, true},
      {1, 11, 3, 3, 3, 1, 1, 1, 1, 1, 1, 0, 0, 3, 3, false},
      {2, 17, 1, 6, 6, 3, 3, 2, 2, 1, 1, 0, 0, 3, 3, true},   // SAME, even input: after = 1
      {2, 4, 2, 5, 5, 2, 2, 1, 1, 1, 1, 0, 0, 5, 5, true},    // SAME, even kernel: after = 1
      {1, 8, 1, 7, 8, 4, 3, 3, 2, 1, 1, 1, 0, 3, 4, true},    // SAME: before 1 / after 2 rows
      {1, 16, 1, 3, 3, 5, 5, 1, 1, 1, 1, 0, 0, 3, 3, true},   // kernel wider than the image
      {1, 20, 1, 2, 3, 3, 3, 1, 1, 1, 1, 3, 3, 6, 7, true},   // windows of padding only
      {1, 64, 1, 25, 5, 3, 3, 1, 1, 1, 1, 1, 1, 25, 5, true}, // DS-CNN's shape
  };
  for (const Shape& sh : shapes) {
    const int32_t out_c = sh.in_c * sh.mult;
    DwArgs a;
    a.input_sizes = {sh.batches, sh.in_c, sh.in_h, sh.in_w};
    a.input_dim_order = kNhwc;
    a.weight_sizes = {1, sh.k_h, sh.k_w, out_c};
    a.has_bias = sh.bias;
    a.stride = {sh.stride_h, sh.stride_w};
    a.padding = {sh.pad_h, sh.pad_w};
    a.dilation = {sh.dil_h, sh.dil_w};
    a.depth_multiplier = sh.mult;
    a.input_offset = 9;
    a.output_offset = 5;
    a.activation_min = -100;
    a.activation_max = 90;
    a.multipliers.clear();
    a.shifts.clear();
    for (int32_t oc = 0; oc < out_c; ++oc) {
      a.multipliers.push_back(static_cast<int32_t>(rng.uniform(1 << 30, INT32_MAX)));
      a.shifts.push_back(static_cast<int32_t>(rng.uniform(-8, 0)));
    }
    a.out_sizes = {sh.batches, out_c, sh.out_h, sh.out_w};
    KernelCall call;
    add_arguments(call, a);
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    const std::vector<int8_t> input = etns::testing::random_s8(
        rng, static_cast<size_t>(sh.batches * sh.in_h * sh.in_w * sh.in_c));
    const std::vector<int8_t> weight =
        etns::testing::random_s8(rng, static_cast<size_t>(sh.k_h * sh.k_w * out_c));
    std::vector<int32_t> bias(static_cast<size_t>(out_c), 0);
    for (int32_t& b : bias) b = static_cast<int32_t>(rng.uniform(-3000, 3000));
    call.fill<int8_t>(kInput, input);
    call.fill<int8_t>(kWeight, weight);
    if (sh.bias) call.fill<int32_t>(kBias, bias);
    ASSERT_EQ(call.run(), Error::Ok);
    const std::vector<int8_t> got = call.read<int8_t>(kOut);

    const int32_t ph = sh.pad_h + (sh.out_h - 1) * sh.stride_h + (sh.k_h - 1) * sh.dil_h + 1;
    const int32_t pw = sh.pad_w + (sh.out_w - 1) * sh.stride_w + (sh.k_w - 1) * sh.dil_w + 1;
    const int32_t rows = std::max(ph, sh.pad_h + sh.in_h), cols = std::max(pw, sh.pad_w + sh.in_w);
    int clamped = 0;
    for (int32_t n = 0; n < sh.batches; ++n) {
      std::vector<int32_t> padded(static_cast<size_t>(rows * cols * sh.in_c), -9);  // zero point
      for (int32_t y = 0; y < sh.in_h; ++y)
        for (int32_t x = 0; x < sh.in_w; ++x)
          for (int32_t c = 0; c < sh.in_c; ++c)
            padded[((y + sh.pad_h) * cols + x + sh.pad_w) * sh.in_c + c] =
                input[((n * sh.in_h + y) * sh.in_w + x) * sh.in_c + c];
      for (int32_t oy = 0; oy < sh.out_h; ++oy) {
        for (int32_t ox = 0; ox < sh.out_w; ++ox) {
          for (int32_t oc = 0; oc < out_c; ++oc) {
            int32_t acc = sh.bias ? bias[oc] : 0;
            for (int32_t ky = 0; ky < sh.k_h; ++ky)
              for (int32_t kx = 0; kx < sh.k_w; ++kx) {
                const int32_t y = oy * sh.stride_h + ky * sh.dil_h;
                const int32_t x = ox * sh.stride_w + kx * sh.dil_w;
                acc += (padded[(y * cols + x) * sh.in_c + oc / sh.mult] + 9) *
                       weight[(ky * sh.k_w + kx) * out_c + oc];
              }
            const int32_t y = kernels::requantize(acc, {a.multipliers[oc], a.shifts[oc]}) + 5;
            clamped += (y < -100 || y > 90) ? 1 : 0;
            const int8_t want = static_cast<int8_t>(std::clamp(y, -100, 90));
            ASSERT_EQ(got[((n * sh.out_h + oy) * sh.out_w + ox) * out_c + oc], want)
                << "C " << sh.in_c << " x" << sh.mult << " in " << sh.in_h << "x" << sh.in_w
                << " out " << sh.out_h << "x" << sh.out_w << " at n " << n << " oy " << oy
                << " ox " << ox << " oc " << oc;
          }
        }
      }
    }
    if (sh.in_c * sh.out_h * sh.out_w >= 64) {
      EXPECT_GT(clamped, 0) << "the activation range was never exercised, C " << sh.in_c;
    }
  }
}

// --- Requantisation extremes and per-channel vector shapes ---

constexpr int32_t kExtremeCount = kernels::testing::kConvExtremeCount;

// The extreme channels as a [1, 8, 1, 1] -> [1, 8, 1, 1] depthwise
// convolution (1x1 kernel, depth_multiplier 1) with the per-channel vectors
// in `sizes` (empty: [8]).
std::vector<int8_t> run_extremes(const std::vector<int32_t>& sizes) {
  DwArgs a;
  a.input_sizes = {1, kExtremeCount, 1, 1};
  a.weight_sizes = {1, 1, 1, kExtremeCount};
  a.depth_multiplier = 1;
  a.padding = {0, 0};
  return kernels::testing::run_conv_extremes(kEntry, kDepthwiseConv2dContract, a, sizes);
}

std::vector<int8_t> extremes_wanted() { return kernels::testing::conv_extremes_wanted(); }

TEST(DepthwiseConv2dS8, RequantizesMultiplierZeroAndShiftMinus31) {
  EXPECT_EQ(run_extremes({}), extremes_wanted());
}

// Exporters write per-channel tensors as [C], [1, C] or [C, 1, 1, 1]: any
// shape holding one int32 per output channel is accepted for bias,
// multipliers and shifts, and computes the same.
TEST(DepthwiseConv2dPrepare, TakesPerChannelVectorsInAnyShape) {
  const std::vector<int8_t> want = extremes_wanted();
  for (const std::vector<int32_t>& sizes :
       {std::vector<int32_t>{kExtremeCount}, {1, kExtremeCount}, {kExtremeCount, 1},
        {kExtremeCount, 1, 1, 1}, {1, 1, 1, kExtremeCount}}) {
    EXPECT_EQ(run_extremes(sizes), want) << "rank " << sizes.size();
  }
}

// --- prepare rejects what the kernel does not accept ---

void expect_rejected(const DwArgs& a, Error code, const std::string& message) {
  kernels::testing::expect_conv_rejected(kEntry, kDepthwiseConv2dContract, a, code, message);
}

TEST(DepthwiseConv2dPrepare, AcceptsTheDefaultsANullBiasAndBatches) {
  for (bool has_bias : {true, false}) {
    DwArgs a;
    a.has_bias = has_bias;
    KernelCall call;
    add_arguments(call, a);
    EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  }
  DwArgs a;
  a.input_sizes = {3, 2, 5, 5};
  a.out_sizes = {3, 4, 5, 5};
  KernelCall call;
  add_arguments(call, a);
  EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
}

TEST(DepthwiseConv2dPrepare, RejectsWrongDtypes) {
  kernels::testing::expect_conv_rejects_wrong_dtypes<DwArgs>(kEntry, kDepthwiseConv2dContract);
}

TEST(DepthwiseConv2dPrepare, RejectsWrongKindOfArgument) {
  KernelCall call;
  call.tensor(ScalarType::Char, {1, 1, 3, 3})
      .tensor(ScalarType::Char, {1, 3, 3, 1})
      .null()
      .int_list({1, 1})
      .int_list({1, 1})
      .int_list({1, 1})
      .int_list({1})  // depth_multiplier must be an int
      .int_value(0)
      .int_value(0)
      .tensor(ScalarType::Int, {1})
      .tensor(ScalarType::Int, {1})
      .int_value(-128)
      .int_value(127)
      .tensor(ScalarType::Char, {1, 1, 3, 3});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidProgram);
  const std::string message =
      "argument " + std::to_string(kDepthwiseConv2dContract.arg("depth_multiplier").index) +
      " (depth_multiplier) is IntList, expected Int";
  EXPECT_NE(call.log().find(message), std::string::npos) << call.log();
}

TEST(DepthwiseConv2dPrepare, RejectsWrongRanksAndLayouts) {
  DwArgs a;
  a.input_sizes = {2, 5, 5};
  a.input_dim_order = {};
  expect_rejected(a, Error::InvalidArgument, "input has rank 3, expected 4");
  a = DwArgs{};
  a.weight_sizes = {3, 3, 4};
  expect_rejected(a, Error::InvalidArgument, "weight has rank 3, expected 4");
  a = DwArgs{};
  a.input_dim_order = {};
  expect_rejected(a, Error::InvalidArgument, "input must be channels_last");
  a = DwArgs{};
  a.out_dim_order = {};
  expect_rejected(a, Error::InvalidArgument, "out must be channels_last");
  a = DwArgs{};
  a.weight_dim_order = {0, 2, 3, 1};
  expect_rejected(a, Error::InvalidArgument, "weight must be contiguous (row-major in memory)");
  // A per-channel vector may have any shape, but its values must be in order.
  a = DwArgs{};
  a.requant_sizes = {2, 2};
  a.requant_dim_order = {1, 0};
  expect_rejected(a, Error::InvalidArgument,
                  "requantize_multipliers must be contiguous (row-major in memory)");
}

TEST(DepthwiseConv2dPrepare, RejectsAWeightShapeThatIsNotIhwoForTheChannels) {
  DwArgs a;
  a.weight_sizes = {4, 3, 3, 1};  // conv2d's OHWI
  expect_rejected(a, Error::InvalidArgument,
                  "weight [4, 3, 3, 1] has 4 in dim 0, expected 1 ([1, KH, KW, Cout])");
  a = DwArgs{};
  a.weight_sizes = {1, 3, 3, 6};
  expect_rejected(a, Error::InvalidArgument,
                  "weight has 6 output channels, expected 4 (input's 2 channels times "
                  "depth_multiplier 2)");
  a = DwArgs{};
  a.depth_multiplier = 3;
  expect_rejected(a, Error::InvalidArgument,
                  "weight has 4 output channels, expected 6 (input's 2 channels times "
                  "depth_multiplier 3)");
  a = DwArgs{};
  a.depth_multiplier = 0;
  expect_rejected(a, Error::InvalidArgument, "depth_multiplier = 0, expected [1, 2147483647]");
  a = DwArgs{};
  a.weight_sizes = {1, 0, 3, 4};
  expect_rejected(a, Error::InvalidArgument, "weight [1, 0, 3, 4] has an empty dimension");
  a = DwArgs{};
  a.weight_sizes = {1, 3, 0, 4};
  expect_rejected(a, Error::InvalidArgument, "weight [1, 3, 0, 4] has an empty dimension");
}

TEST(DepthwiseConv2dPrepare, RejectsBadStridePaddingAndDilation) {
  DwArgs a;
  a.stride = {1};
  expect_rejected(a, Error::InvalidArgument, "stride has 1 values, expected 2");
  a = DwArgs{};
  a.stride = {0, 1};
  expect_rejected(a, Error::InvalidArgument, "stride[0] = 0, expected [1, 2147483647]");
  a = DwArgs{};
  a.stride = {1, -2};
  expect_rejected(a, Error::InvalidArgument, "stride[1] = -2, expected [1, 2147483647]");
  a = DwArgs{};
  a.padding = {1, -1};
  expect_rejected(a, Error::InvalidArgument, "padding[1] = -1, expected [0, 2147483647]");
  a = DwArgs{};
  a.dilation = {0, 1};
  expect_rejected(a, Error::InvalidArgument, "dilation[0] = 0, expected [1, 2147483647]");
  a = DwArgs{};
  a.dilation = {1, 1, 1};
  expect_rejected(a, Error::InvalidArgument, "dilation has 3 values, expected 2");
}

TEST(DepthwiseConv2dPrepare, RejectsOutOfRangeOffsetsAndActivationRange) {
  kernels::testing::expect_conv_rejects_bad_offsets<DwArgs>(kEntry, kDepthwiseConv2dContract);
  DwArgs a;
  a.activation_max = 128;
  expect_rejected(a, Error::InvalidArgument, "activation_max = 128, expected [-128, 127]");
}

TEST(DepthwiseConv2dPrepare, RejectsRequantizationOfTheWrongCountOrRange) {
  DwArgs a;
  a.multipliers = {1 << 30, 1 << 30, 1 << 30};
  expect_rejected(a, Error::InvalidArgument,
                  "requantize_multipliers [3] has 3 values, expected 4 (one per output channel)");
  a = DwArgs{};
  a.shifts = {0, 0, 0, 0, 0};
  expect_rejected(a, Error::InvalidArgument, "requantize_shifts [5] has 5 values, expected 4");
  a = DwArgs{};
  a.bias_sizes = {2};
  expect_rejected(a, Error::InvalidArgument, "bias [2] has 2 values, expected 4");
  a = DwArgs{};
  a.bias_sizes = {1, 2};
  expect_rejected(a, Error::InvalidArgument,
                  "bias [1, 2] has 2 values, expected 4 (one per output channel)");
  a = DwArgs{};
  a.multipliers = {1 << 30, 1 << 30, -5, 1 << 30};
  expect_rejected(a, Error::InvalidArgument,
                  "requantize_multipliers[2] = -5, expected [0, 2147483647]");
  a = DwArgs{};
  a.shifts = {0, 0, 0, 31};
  expect_rejected(a, Error::InvalidArgument, "requantize_shifts[3] = 31, expected [-31, 30]");
  a.shifts = {-32, 0, 0, 0};
  expect_rejected(a, Error::InvalidArgument, "requantize_shifts[0] = -32, expected [-31, 30]");
  a = DwArgs{};
  a.constant_requant = false;
  expect_rejected(a, Error::NotSupported, "requantize_multipliers is not a constant tensor");
  a = DwArgs{};
  a.constant_shifts = false;
  expect_rejected(a, Error::NotSupported, "requantize_shifts is not a constant tensor");
}

TEST(DepthwiseConv2dPrepare, RejectsOutInconsistentWithInputAndWeight) {
  DwArgs a;
  a.out_sizes = {1, 3, 5, 5};
  expect_rejected(a, Error::InvalidArgument,
                  "out has batch 1 and 3 channels, expected batch 1 and 4 channels");
  a = DwArgs{};
  a.out_sizes = {2, 4, 5, 5};
  expect_rejected(a, Error::InvalidArgument, "out has batch 2 and 4 channels");
  a = DwArgs{};
  a.out_sizes = {1, 4, 0, 5};
  expect_rejected(a, Error::InvalidArgument, "out height = 0, expected >= 1");
  a = DwArgs{};
  a.out_sizes = {1, 4, 5, 0};
  expect_rejected(a, Error::InvalidArgument, "out width = 0, expected >= 1");
  a = DwArgs{};
  a.stride = {1, 1 << 29};
  expect_rejected(a, Error::InvalidArgument,
                  "out width 5 with kernel 3, stride 536870912 and dilation 1 reaches input "
                  "index 3758096386, beyond int32");
  a = DwArgs{};
  a.dilation = {1 << 30, 1};
  expect_rejected(a, Error::InvalidArgument, "out height 5 with kernel 3");
}

}  // namespace
}  // namespace etns::cortex_m
