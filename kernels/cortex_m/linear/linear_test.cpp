#include "kernels/cortex_m/linear/linear.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/common/requantize.h"
#include "tests/support/kernel_call.h"
#include "tests/support/rng.h"

namespace etns::cortex_m {
namespace {

using etns::testing::KernelCall;
using runtime::Error;
using runtime::ScalarType;

const runtime::KernelEntry kEntry = runtime::kernel_entry(kLinearContract, &linear_prepare,
                                                           &linear_run);

constexpr runtime::Arg kInput = kLinearContract.arg("input");
constexpr runtime::Arg kWeights = kLinearContract.arg("weights");
constexpr runtime::Arg kBias = kLinearContract.arg("bias");
constexpr runtime::Arg kKernelSum = kLinearContract.arg("kernel_sum");
constexpr runtime::Arg kOut = kLinearContract.out();

// One call's arguments.
struct LinearArgs {
  std::vector<int32_t> input_sizes = {1, 3};
  std::vector<uint8_t> input_dim_order = {};
  ScalarType input_dtype = ScalarType::Char;
  std::vector<int32_t> weight_sizes = {2, 3};
  ScalarType weight_dtype = ScalarType::Char;
  bool has_bias = false;
  std::vector<int32_t> bias_sizes = {};  // empty: one per output feature
  bool has_kernel_sum = true;
  std::vector<int32_t> kernel_sum_sizes = {};
  ScalarType kernel_sum_dtype = ScalarType::Int;
  int64_t input_offset = 0;
  int64_t filter_offset = 0;
  int64_t output_offset = 0;
  std::vector<int64_t> multipliers = {1 << 30};
  std::vector<int64_t> shifts = {0};
  int64_t activation_max = 127;
  int64_t activation_min = -128;
  std::vector<int32_t> out_sizes = {1, 2};
  std::vector<uint8_t> out_dim_order = {};
  ScalarType out_dtype = ScalarType::Char;
};

void add_arguments(KernelCall& call, const LinearArgs& a) {
  const int32_t features = a.weight_sizes.empty() ? 1 : a.weight_sizes[0];
  call.tensor(a.input_dtype, a.input_sizes, a.input_dim_order)
      .tensor(a.weight_dtype, a.weight_sizes);
  if (a.has_bias) {
    call.tensor(ScalarType::Int,
                a.bias_sizes.empty() ? std::vector<int32_t>{features} : a.bias_sizes);
  } else {
    call.null();
  }
  if (a.has_kernel_sum) {
    call.tensor(a.kernel_sum_dtype,
                a.kernel_sum_sizes.empty() ? std::vector<int32_t>{features} : a.kernel_sum_sizes);
  } else {
    call.null();
  }
  call.int_value(a.input_offset)
      .int_value(a.filter_offset)
      .int_value(a.output_offset)
      .int_list(a.multipliers)
      .int_list(a.shifts)
      .int_value(a.activation_max)
      .int_value(a.activation_min)
      .tensor(a.out_dtype, a.out_sizes, a.out_dim_order);
}

struct Data {
  std::vector<int8_t> input, weights;
  std::vector<int32_t> bias, kernel_sum;  // used when the args have them
};

// The call through prepare and run (the build's fastest variant).
std::vector<int8_t> linear(const LinearArgs& a, const Data& d) {
  KernelCall call;
  add_arguments(call, a);
  EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kInput, d.input);
  call.fill<int8_t>(kWeights, d.weights);
  if (a.has_bias) call.fill<int32_t>(kBias, d.bias);
  if (a.has_kernel_sum) call.fill<int32_t>(kKernelSum, d.kernel_sum);
  EXPECT_EQ(call.run(), Error::Ok);
  return call.read<int8_t>(kOut);
}

// --- Hand-worked cases ---

// x = [1, -2, 3], w = [[1, 2, 3], [-1, 0, 4]]; factor 0.5 (M = 2^30, S = 0).
const Data kSmall = {{1, -2, 3}, {1, 2, 3, -1, 0, 4}, {100, -100}, {10, -5}};

TEST(LinearS8, KernelSumPlusDotProduct) {
  LinearArgs a;
  a.output_offset = -3;
  // acc = [10 + 6, -5 + 11] = [16, 6]; halved [8, 3]; plus -3.
  EXPECT_EQ(linear(a, kSmall), (std::vector<int8_t>{5, 0}));
}

// Without kernel_sum: bias + sum((x + 2)(w + 1)) = [100 + 26, -100 + 25]; 126 / 2 = 63,
// -75 / 2 = -37.5 rounds toward +inf (DHM) to -37.
TEST(LinearS8, BiasWithoutKernelSumIsTheFoldedSum) {
  LinearArgs a;
  a.has_bias = true;
  a.has_kernel_sum = false;
  a.input_offset = 2;
  a.filter_offset = 1;
  EXPECT_EQ(linear(a, kSmall), (std::vector<int8_t>{63, -37}));
}

// The exporter's fold, kernel_sum = input_offset * sum(w + filter_offset) + bias
// = [2 * 9 + 100, 2 * 6 - 100], gives the same; the Helium path then adds
// filter_offset * sum(x) and never reads bias.
TEST(LinearS8, KernelSumWinsOverBias) {
  LinearArgs a;
  a.input_offset = 2;
  a.filter_offset = 1;
  Data d = kSmall;
  d.kernel_sum = {118, -88};
  EXPECT_EQ(linear(a, d), (std::vector<int8_t>{63, -37}));
  a.has_bias = true;
  d.bias = {1000000, -1000000};
  EXPECT_EQ(linear(a, d), (std::vector<int8_t>{63, -37}));
}

// Neither: input_offset * sum(w + filter_offset) + sum(x * w) + filter_offset * sum(x)
// = [2 * 9 + 6 + 2, 2 * 6 + 11 + 2] = [26, 25] -> [13, 13 (12.5 up)].
TEST(LinearS8, NeitherBiasNorKernelSum) {
  LinearArgs a;
  a.has_kernel_sum = false;
  a.input_offset = 2;
  a.filter_offset = 1;
  EXPECT_EQ(linear(a, kSmall), (std::vector<int8_t>{13, 13}));
}

// activation_max comes before activation_min in the argument list.
TEST(LinearS8, ClampsToTheActivationRange) {
  LinearArgs a;
  a.activation_max = 4;
  a.activation_min = 1;
  EXPECT_EQ(linear(a, kSmall), (std::vector<int8_t>{4, 3}));
  Data d = kSmall;
  d.kernel_sum = {-1000, 1000};
  EXPECT_EQ(linear(a, d), (std::vector<int8_t>{1, 4}));
}

// The int32 accumulator wraps as upstream's does: INT32_MAX + 6 is negative.
TEST(LinearS8, AccumulatorWrapsLikeUpstream) {
  LinearArgs a;
  Data d = kSmall;
  d.kernel_sum = {INT32_MAX, INT32_MIN};
  // row 0: INT32_MAX + 6 wraps to -2^31 + 5; row 1: INT32_MIN + 11. Both halve far below -128.
  EXPECT_EQ(linear(a, d), (std::vector<int8_t>{-128, -128}));
  a.shifts = {-31};
  // Tiny factors: both round to 0, then the offset.
  a.output_offset = 7;
  EXPECT_EQ(linear(a, d), (std::vector<int8_t>{7, 7}));
}

// --- Shapes against an independent model ---

// bias + sum((x + io)(w + fo)), or kernel_sum + sum(x * w) + fo * sum(x), in
// int64 and then wrapped to int32; RQ, offset, clamp.
std::vector<int8_t> model(const LinearArgs& a, const Data& d, int32_t batches, int32_t in,
                          int32_t rows) {
  std::vector<int8_t> out;
  const kernels::Requant rq{static_cast<int32_t>(a.multipliers[0]),
                            static_cast<int32_t>(a.shifts[0])};
  for (int32_t b = 0; b < batches; ++b) {
    for (int32_t r = 0; r < rows; ++r) {
      int64_t acc = 0;
      for (int32_t i = 0; i < in; ++i) {
        const int64_t x = d.input[static_cast<size_t>(b * in + i)];
        const int64_t w = d.weights[static_cast<size_t>(r * in + i)];
        acc += a.has_kernel_sum ? x * w + a.filter_offset * x
                                : (x + a.input_offset) * (w + a.filter_offset);
      }
      if (a.has_kernel_sum) {
        acc += d.kernel_sum[static_cast<size_t>(r)];
      } else if (a.has_bias) {
        acc += d.bias[static_cast<size_t>(r)];
      }
      const int32_t wrapped = static_cast<int32_t>(static_cast<uint32_t>(acc));
      int64_t value = int64_t{kernels::requantize(wrapped, rq)} + a.output_offset;
      if (value < a.activation_min) value = a.activation_min;
      if (value > a.activation_max) value = a.activation_max;
      out.push_back(static_cast<int8_t>(value));
    }
  }
  return out;
}

TEST(LinearS8, ShapesAroundTheLaneTileMatchTheModel) {
  etns::testing::Rng rng(0x6c696e);
  for (int32_t in : {1, 15, 16, 17, 100}) {
    for (int32_t rows : {1, 3, 4, 5, 7, 12}) {
      for (int32_t batches : {1, 3}) {
        for (int which = 0; which < 3; ++which) {  // kernel_sum, bias, neither
          LinearArgs a;
          a.input_sizes = {batches, in};
          a.weight_sizes = {rows, in};
          a.out_sizes = {batches, rows};
          a.has_kernel_sum = which == 0;
          a.has_bias = which == 1;
          a.input_offset = rng.uniform(-127, 128);
          a.filter_offset = which == 2 ? 0 : rng.uniform(-127, 128);
          a.output_offset = rng.uniform(-128, 127);
          a.multipliers = {rng.uniform(1 << 30, INT32_MAX)};
          a.shifts = {rng.uniform(-12, -4)};
          Data d;
          d.input = etns::testing::random_s8(rng, static_cast<size_t>(batches * in));
          d.weights = etns::testing::random_s8(rng, static_cast<size_t>(rows * in));
          for (int32_t r = 0; r < rows; ++r) {
            d.bias.push_back(static_cast<int32_t>(rng.uniform(-100000, 100000)));
            d.kernel_sum.push_back(static_cast<int32_t>(rng.uniform(-100000, 100000)));
          }
          EXPECT_EQ(linear(a, d), model(a, d, batches, in, rows))
              << "in " << in << ", out " << rows << ", batches " << batches << ", case " << which;
        }
      }
    }
  }
}

// [..., in]: leading dims are batches, as upstream flattens them.
TEST(LinearS8, HigherRankInputFlattensLeadingDims) {
  etns::testing::Rng rng(5);
  LinearArgs a;
  a.input_sizes = {2, 3, 17};
  a.weight_sizes = {5, 17};
  a.out_sizes = {2, 3, 5};
  a.filter_offset = -3;
  a.shifts = {-6};
  Data d;
  d.input = etns::testing::random_s8(rng, 2 * 3 * 17);
  d.weights = etns::testing::random_s8(rng, 5 * 17);
  d.kernel_sum = {1, -2, 300, -4000, 50000};
  EXPECT_EQ(linear(a, d), model(a, d, 6, 17, 5));
  // A rank-1 input is one batch.
  a.input_sizes = {17};
  a.out_sizes = {5};
  d.input.resize(17);
  EXPECT_EQ(linear(a, d), model(a, d, 1, 17, 5));
}

// --- prepare rejects what the kernel does not accept ---

void expect_rejected(const LinearArgs& a, Error code, const std::string& message) {
  KernelCall call;
  add_arguments(call, a);
  EXPECT_EQ(call.prepare(kEntry), code);
  EXPECT_NE(call.log().find("c0i0 cortex_m::quantized_linear.out: " + message), std::string::npos)
      << "log: " << call.log();
}

TEST(LinearPrepare, RejectsWrongDtypes) {
  LinearArgs a;
  a.input_dtype = ScalarType::Short;
  expect_rejected(a, Error::InvalidArgument, "input dtype int16, expected int8");
  a = LinearArgs{};
  a.weight_dtype = ScalarType::Byte;
  expect_rejected(a, Error::InvalidArgument, "weights dtype uint8, expected int8");
  a = LinearArgs{};
  a.out_dtype = ScalarType::Float;
  expect_rejected(a, Error::InvalidArgument, "out dtype float32, expected int8");
  a = LinearArgs{};
  a.kernel_sum_dtype = ScalarType::Char;
  expect_rejected(a, Error::InvalidArgument, "kernel_sum dtype int8, expected int32");
}

TEST(LinearPrepare, RejectsShapesThatDoNotFit) {
  LinearArgs a;
  a.weight_sizes = {2, 3, 1};
  a.kernel_sum_sizes = {2};
  expect_rejected(a, Error::InvalidArgument, "weights has rank 3, expected 2");
  a = LinearArgs{};
  a.input_sizes = {1, 4};
  expect_rejected(a, Error::InvalidArgument,
                  "input [1, 4] has 4 features, weights [2, 3] expect 3 ([out, in])");
  a = LinearArgs{};
  a.out_sizes = {1, 3};
  expect_rejected(a, Error::InvalidArgument,
                  "out [1, 3] does not fit input [1, 3] and weights [2, 3]");
  a = LinearArgs{};
  a.out_sizes = {2, 2};
  expect_rejected(a, Error::InvalidArgument, "out [2, 2] does not fit input [1, 3]");
  a = LinearArgs{};
  a.out_sizes = {2};
  expect_rejected(a, Error::InvalidArgument, "out [2] does not fit input [1, 3]");
  a = LinearArgs{};
  a.input_sizes = {};
  expect_rejected(a, Error::InvalidArgument, "input has rank 0, expected at least 1");
  a = LinearArgs{};
  a.kernel_sum_sizes = {3};
  expect_rejected(a, Error::InvalidArgument,
                  "kernel_sum [3] has 3 values, expected 2 (one per output feature)");
  a = LinearArgs{};
  a.kernel_sum_sizes = {1, 3};
  expect_rejected(a, Error::InvalidArgument,
                  "kernel_sum [1, 3] has 3 values, expected 2 (one per output feature)");
  a = LinearArgs{};
  a.has_bias = true;
  a.bias_sizes = {2, 2};
  expect_rejected(a, Error::InvalidArgument,
                  "bias [2, 2] has 4 values, expected 2 (one per output feature)");
}

// ExecuTorch's exporter stores kernel_sum as [1, out]; a per-feature vector is
// accepted in any shape holding one value per output feature.
TEST(LinearPrepare, TakesPerFeatureVectorsInAnyShape) {
  for (const std::vector<int32_t>& sizes :
       {std::vector<int32_t>{2}, {1, 2}, {2, 1}, {1, 1, 2}, {2, 1, 1, 1}}) {
    LinearArgs a;
    a.kernel_sum_sizes = sizes;
    a.output_offset = -3;
    EXPECT_EQ(linear(a, kSmall), (std::vector<int8_t>{5, 0})) << sizes.size();
    a.has_bias = true;
    a.has_kernel_sum = false;
    a.bias_sizes = sizes;
    a.input_offset = 2;
    a.filter_offset = 1;
    a.output_offset = 0;
    EXPECT_EQ(linear(a, kSmall), (std::vector<int8_t>{63, -37})) << sizes.size();
  }
}

TEST(LinearPrepare, RejectsTensorsNotRowMajorInMemory) {
  LinearArgs a;
  a.input_sizes = {2, 3};
  a.input_dim_order = {1, 0};
  a.out_sizes = {2, 2};
  expect_rejected(a, Error::InvalidArgument, "input must be contiguous (row-major in memory)");
  a.input_dim_order = {};
  a.out_dim_order = {1, 0};
  expect_rejected(a, Error::InvalidArgument, "out must be contiguous (row-major in memory)");
  // A size-1 dim takes no room: [1, 3] in dim order [1, 0] is row-major in memory.
  LinearArgs ok;
  ok.input_dim_order = {1, 0};
  KernelCall call;
  add_arguments(call, ok);
  EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
}

TEST(LinearPrepare, RejectsOutOfRangeQuantisationArguments) {
  LinearArgs a;
  a.input_offset = 129;
  expect_rejected(a, Error::InvalidArgument, "input_offset = 129, expected [-127, 128]");
  a = LinearArgs{};
  a.filter_offset = -128;
  expect_rejected(a, Error::InvalidArgument, "filter_offset = -128, expected [-127, 128]");
  a = LinearArgs{};
  a.output_offset = 128;
  expect_rejected(a, Error::InvalidArgument, "output_offset = 128, expected [-128, 127]");
  a = LinearArgs{};
  a.multipliers = {-1};
  expect_rejected(a, Error::InvalidArgument,
                  "requantize_multipliers[0] = -1, expected [0, 2147483647]");
  a = LinearArgs{};
  a.shifts = {31};
  expect_rejected(a, Error::InvalidArgument, "requantize_shifts[0] = 31, expected [-31, 30]");
  a = LinearArgs{};
  a.multipliers = {};
  expect_rejected(a, Error::InvalidArgument,
                  "requantize_multipliers is empty, expected at least one value");
  a = LinearArgs{};
  a.activation_max = 128;
  expect_rejected(a, Error::InvalidArgument, "activation_max = 128, expected [-128, 127]");
  a = LinearArgs{};
  a.activation_min = 5;
  a.activation_max = 4;
  expect_rejected(a, Error::InvalidArgument, "activation_min = 5 is above activation_max = 4");
}

// Per-tensor: only the first multiplier and shift are read, as upstream.
TEST(LinearPrepare, ReadsOnlyTheFirstMultiplierAndShift) {
  LinearArgs a;
  a.multipliers = {1 << 30, -5};
  a.shifts = {0, 99};
  a.output_offset = -3;
  EXPECT_EQ(linear(a, kSmall), (std::vector<int8_t>{5, 0}));
}

TEST(LinearPrepare, RejectsWrongKindOfArgument) {
  KernelCall call;
  call.tensor(ScalarType::Char, {1, 3})
      .tensor(ScalarType::Char, {2, 3})
      .null()
      .null()
      .int_value(0)
      .int_value(0)
      .int_value(0)
      .int_value(1 << 30)  // requantize_multipliers must be an int[]
      .int_list({0})
      .int_value(127)
      .int_value(-128)
      .tensor(ScalarType::Char, {1, 2});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidProgram);
  EXPECT_NE(call.log().find("argument 7 (requantize_multipliers) is Int, expected IntList"),
            std::string::npos)
      << call.log();
}

}  // namespace
}  // namespace etns::cortex_m
