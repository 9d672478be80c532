#include "kernels/cortex_m/softmax/softmax.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tests/support/kernel_call.h"
#include "tests/support/rng.h"

namespace etns::cortex_m {
namespace {

using etns::testing::KernelCall;
using runtime::Error;
using runtime::ScalarType;

const runtime::KernelEntry kEntry =
    runtime::kernel_entry(kSoftmaxContract, &softmax_prepare, &softmax_run);

constexpr runtime::Arg kInput = kSoftmaxContract.arg("input");
constexpr runtime::Arg kOut = kSoftmaxContract.out();

// The exporter's (TFLite's) parameters for beta 1 and an input scale:
// multiplier and left shift of scale * 2^26 (5 integer bits), and diff_min =
// -floor(31 * 2^26 / 2^shift), the most negative difference whose scaled
// value still fits.
struct Quant {
  int64_t multiplier = 0;
  int64_t shift = 0;
  int64_t diff_min = 0;
};

Quant quant_for_scale(double scale) {
  const double real = std::min(scale * std::ldexp(1.0, 26), 2147483647.0);
  int exponent = 0;
  const double mantissa = std::frexp(real, &exponent);
  int64_t multiplier = std::llround(std::ldexp(mantissa, 31));
  if (multiplier == (int64_t{1} << 31)) {
    multiplier /= 2;
    ++exponent;
  }
  Quant q;
  q.multiplier = multiplier;
  q.shift = exponent;
  q.diff_min = -static_cast<int64_t>(std::floor(31.0 * std::ldexp(1.0, 26 - exponent)));
  return q;
}

struct SoftmaxArgs {
  std::vector<int32_t> sizes = {1, 10};
  std::vector<uint8_t> dim_order = {};
  ScalarType input_dtype = ScalarType::Char;
  int64_t dim = -1;
  int64_t input_zero_point = 0;
  int64_t output_zero_point = -128;
  Quant q = quant_for_scale(0.1);
  std::vector<int32_t> out_sizes = {};  // empty: input's
  std::vector<uint8_t> out_dim_order = {};
  ScalarType out_dtype = ScalarType::Char;
};

void add_arguments(KernelCall& call, const SoftmaxArgs& a) {
  call.tensor(a.input_dtype, a.sizes, a.dim_order)
      .int_value(a.dim)
      .int_value(a.input_zero_point)
      .int_value(a.output_zero_point)
      .int_value(a.q.multiplier)
      .int_value(a.q.shift)
      .int_value(a.q.diff_min)
      .tensor(a.out_dtype, a.out_sizes.empty() ? a.sizes : a.out_sizes, a.out_dim_order);
}

std::vector<int8_t> softmax(const SoftmaxArgs& a, const std::vector<int8_t>& input) {
  KernelCall call;
  add_arguments(call, a);
  EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kInput, input);
  EXPECT_EQ(call.run(), Error::Ok);
  return call.read<int8_t>(kOut);
}

std::vector<int8_t> one_row(const Quant& q, const std::vector<int8_t>& row) {
  SoftmaxArgs a;
  a.q = q;
  a.sizes = {1, static_cast<int32_t>(row.size())};
  return softmax(a, row);
}

// The real softmax of a row of codes with this input scale, on the output
// grid (q + 128) / 256.
std::vector<int> float_softmax(double scale, const std::vector<int8_t>& row) {
  const int max = *std::max_element(row.begin(), row.end());
  double sum = 0;
  for (int8_t x : row) sum += std::exp(scale * (x - max));
  std::vector<int> out;
  for (int8_t x : row) {
    const double p = std::exp(scale * (x - max)) / sum;
    out.push_back(std::clamp(static_cast<int>(std::lround(p * 256)) - 128, -128, 127));
  }
  return out;
}

// --- Hand-worked cases ---

// One element: e(0) = 2^31 - 1, sum 2^19, the reciprocal of 1 saturates to
// 2^31 - 1, and (2^31 - 2) / 2^23 = 256 clamps to 127, whatever the code.
TEST(SoftmaxS8, RowOfOneIsCertain) {
  for (int x : {-128, -1, 0, 77, 127}) {
    EXPECT_EQ(one_row(quant_for_scale(0.1), {static_cast<int8_t>(x)}), std::vector<int8_t>{127})
        << x;
  }
}

// Equal codes: 256 / n on the output grid, minus 128. n = 10: 25.6 -> 26;
// n = 16: 16; n = 17: 15.06 -> 15; n = 257: 0.996 -> 1.
TEST(SoftmaxS8, UniformRows) {
  const std::pair<size_t, int8_t> cases[] = {{10, -102}, {16, -112}, {17, -113}, {257, -127}};
  for (const auto& [n, want] : cases) {
    for (int x : {-128, 5, 127}) {
      EXPECT_EQ(one_row(quant_for_scale(0.1), std::vector<int8_t>(n, static_cast<int8_t>(x))),
                std::vector<int8_t>(n, want))
          << "n " << n << ", code " << x;
    }
  }
}

// Saturating inputs: 127 against -128 is a difference of -255, beyond
// diff_min = -248 at scale 0.1, so those elements are exactly -128 and the
// maximum takes all (127). At scale 0.01 (diff_min -1984) -255 counts:
// e^-2.55 gives 0.928 and 0.072, 109.5 and -109.5 on the grid.
TEST(SoftmaxS8, SaturatingInputs) {
  const Quant q = quant_for_scale(0.1);
  EXPECT_EQ(q.diff_min, -248);
  std::vector<int8_t> row(10, -128);
  row[3] = 127;
  std::vector<int8_t> want(10, -128);
  want[3] = 127;
  EXPECT_EQ(one_row(q, row), want);
  const std::vector<int8_t> got = one_row(quant_for_scale(0.01), {127, -128});
  EXPECT_NEAR(got[0], 109.5, 0.5);
  EXPECT_NEAR(got[1], -109.5, 0.5);
}

// Elements below diff_min are -128 exactly; the others share the row as if
// those were absent (up to the sum's rounding, here none: same output).
TEST(SoftmaxS8, DiffMinDropsElements) {
  Quant q = quant_for_scale(0.05);
  q.diff_min = -20;
  const std::vector<int8_t> got = one_row(q, {50, 40, 30, 29, 0});
  EXPECT_EQ(got[3], -128);
  EXPECT_EQ(got[4], -128);
  const std::vector<int8_t> kept = one_row(q, {50, 40, 30});
  EXPECT_EQ(std::vector<int8_t>(got.begin(), got.begin() + 3), kept);
}

// Within one LSB of the real softmax for the exporter's parameters.
TEST(SoftmaxS8, CloseToTheRealSoftmax) {
  etns::testing::Rng rng(0x736f66);
  int worst = 0;
  for (double scale : {0.01, 0.03125, 0.0625, 0.1, 0.17, 0.25, 0.5}) {
    for (size_t n : {1, 2, 3, 10, 12, 16, 17, 64, 257}) {
      for (int i = 0; i < 4; ++i) {
        const std::vector<int8_t> row = etns::testing::random_s8(rng, n);
        const std::vector<int8_t> got = one_row(quant_for_scale(scale), row);
        const std::vector<int> want = float_softmax(scale, row);
        for (size_t j = 0; j < n; ++j) worst = std::max(worst, std::abs(got[j] - want[j]));
      }
    }
  }
  EXPECT_LE(worst, 1);
}

// Rows are independent: several rows at once equal each row alone, for any
// rank, with dim given as -1 or as rank - 1.
TEST(SoftmaxS8, SeveralRowsAnyRank) {
  etns::testing::Rng rng(9);
  const std::vector<int8_t> input = etns::testing::random_s8(rng, 2 * 3 * 17);
  std::vector<int8_t> want;
  for (size_t r = 0; r < 6; ++r) {
    const std::vector<int8_t> row(input.begin() + static_cast<ptrdiff_t>(r * 17),
                                  input.begin() + static_cast<ptrdiff_t>((r + 1) * 17));
    const std::vector<int8_t> got = one_row(quant_for_scale(0.1), row);
    want.insert(want.end(), got.begin(), got.end());
  }
  for (int64_t dim : {-1, 2}) {
    SoftmaxArgs a;
    a.sizes = {2, 3, 17};
    a.dim = dim;
    EXPECT_EQ(softmax(a, input), want) << "dim " << dim;
  }
  SoftmaxArgs flat;
  flat.sizes = {17};
  EXPECT_EQ(softmax(flat, std::vector<int8_t>(input.begin(), input.begin() + 17)),
            std::vector<int8_t>(want.begin(), want.begin() + 17));
}

// --- prepare rejects what the kernel does not accept ---

void expect_rejected(const SoftmaxArgs& a, Error code, const std::string& message) {
  KernelCall call;
  add_arguments(call, a);
  EXPECT_EQ(call.prepare(kEntry), code);
  EXPECT_NE(call.log().find("c0i0 cortex_m::softmax.out: " + message), std::string::npos)
      << "log: " << call.log();
}

TEST(SoftmaxPrepare, RejectsWrongDtypes) {
  SoftmaxArgs a;
  a.input_dtype = ScalarType::Short;
  expect_rejected(a, Error::InvalidArgument, "input dtype int16, expected int8");
  a = SoftmaxArgs{};
  a.out_dtype = ScalarType::Float;
  expect_rejected(a, Error::InvalidArgument, "out dtype float32, expected int8");
}

TEST(SoftmaxPrepare, RejectsDimsOtherThanTheLast) {
  SoftmaxArgs a;
  a.dim = 0;
  expect_rejected(a, Error::NotSupported,
                  "dim = 0: only the last dimension (-1 or 1) is supported");
  a.dim = -2;
  expect_rejected(a, Error::NotSupported, "dim = -2: only the last dimension");
  a.dim = 2;
  expect_rejected(a, Error::InvalidArgument, "dim = 2, expected [-2, 1] for rank 2");
  a.dim = -3;
  expect_rejected(a, Error::InvalidArgument, "dim = -3, expected [-2, 1] for rank 2");
}

TEST(SoftmaxPrepare, RejectsWrongShapesAndLayouts) {
  SoftmaxArgs a;
  a.out_sizes = {1, 11};
  expect_rejected(a, Error::InvalidArgument, "out [1, 11] and input [1, 10] differ in shape");
  a = SoftmaxArgs{};
  a.sizes = {};
  expect_rejected(a, Error::InvalidArgument, "input has rank 0, expected at least 1");
  a = SoftmaxArgs{};
  a.sizes = {2, 0};
  expect_rejected(a, Error::InvalidArgument, "input [2, 0] is empty");
  a = SoftmaxArgs{};
  a.sizes = {2, 10};
  a.dim_order = {1, 0};
  a.out_dim_order = {1, 0};
  expect_rejected(a, Error::InvalidArgument, "input must be contiguous (row-major in memory)");
  a.dim_order = {};
  expect_rejected(a, Error::InvalidArgument, "out must be contiguous (row-major in memory)");
}

TEST(SoftmaxPrepare, RejectsOutOfRangeQuantisationArguments) {
  SoftmaxArgs a;
  a.output_zero_point = 0;
  expect_rejected(a, Error::InvalidArgument,
                  "output_zero_point = 0, expected -128 (CMSIS-NN's int8 softmax output)");
  a = SoftmaxArgs{};
  a.input_zero_point = 128;
  expect_rejected(a, Error::InvalidArgument, "input_zero_point = 128, expected [-128, 127]");
  a = SoftmaxArgs{};
  a.q.multiplier = -1;
  expect_rejected(a, Error::InvalidArgument, "input_multiplier = -1, expected [0, 2147483647]");
  a = SoftmaxArgs{};
  a.q.shift = 32;
  expect_rejected(a, Error::InvalidArgument, "input_shift = 32, expected [0, 31]");
  a.q.shift = -1;
  expect_rejected(a, Error::InvalidArgument, "input_shift = -1, expected [0, 31]");
  a = SoftmaxArgs{};
  a.q.diff_min = 1;
  expect_rejected(a, Error::InvalidArgument, "diff_min = 1, expected [-2147483648, 0]");
}

TEST(SoftmaxPrepare, AcceptsTheEndsOfEveryRange) {
  for (const Quant& q : {Quant{0, 0, INT32_MIN}, Quant{INT32_MAX, 31, 0}}) {
    SoftmaxArgs a;
    a.q = q;
    KernelCall call;
    add_arguments(call, a);
    EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    EXPECT_EQ(call.run(), Error::Ok);
  }
}

TEST(SoftmaxPrepare, RejectsWrongKindOfArgument) {
  KernelCall call;
  call.tensor(ScalarType::Char, {1, 10})
      .double_value(-1.0)  // dim must be an Int
      .int_value(0)
      .int_value(-128)
      .int_value(1 << 30)
      .int_value(20)
      .int_value(-100)
      .tensor(ScalarType::Char, {1, 10});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidProgram);
  EXPECT_NE(call.log().find("argument 1 (dim) is Double, expected Int"), std::string::npos)
      << call.log();
}

}  // namespace
}  // namespace etns::cortex_m
