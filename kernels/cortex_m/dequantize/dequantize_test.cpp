#include "kernels/cortex_m/dequantize/dequantize.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "kernels/testing/quantize_family_call.h"
#include "tests/support/kernel_call.h"
#include "tests/support/shared_data.h"

namespace etns::cortex_m {
namespace {

using etns::testing::KernelCall;
using runtime::Error;
using runtime::ScalarType;

const runtime::KernelEntry kEntry =
    runtime::kernel_entry(kDequantizeContract, &dequantize_prepare, &dequantize_run);

constexpr runtime::Arg kInput = kDequantizeContract.arg("input");
constexpr runtime::Arg kOut = kDequantizeContract.out();

// --- Reference against goldens and hand-worked cases ---

TEST(DequantizeS8, HandWorkedValues) {
  KernelCall call;
  call.tensor(ScalarType::Char, {6})
      .double_value(0.5)
      .int_value(-3)
      .int_value(-128)
      .int_value(127)
      .int_value(1)
      .tensor(ScalarType::Float, {6});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kInput, {-3, -2, -4, 127, -128, 0});
  ASSERT_EQ(call.run(), Error::Ok);
  const std::vector<float> got = call.read<float>(kOut);
  EXPECT_EQ(got, (std::vector<float>{0.0f, 0.5f, -0.5f, 65.0f, -62.5f, 1.5f}));
  EXPECT_FALSE(std::signbit(got[0])) << "q == zero_point gives +0.0";
}

TEST(DequantizeS8, ExtremeZeroPointsAndOneRoundedMultiply) {
  // (q - zp) spans [-255, 255]; the float32 product rounds once.
  const DequantizeParams p{0.1f, 127, ScalarType::Char};
  const int8_t in[] = {-128, 127, 0};
  float out[3];
  dequantize_s8_f32_ref(p, in, out, 3);
  EXPECT_EQ(out[0], -255.0f * 0.1f);
  EXPECT_EQ(out[1], 0.0f);
  EXPECT_EQ(out[2], -127.0f * 0.1f);
  const DequantizeParams q{0.1f, -128, ScalarType::Char};
  dequantize_s8_f32_ref(q, in, out, 3);
  EXPECT_EQ(out[0], 0.0f);
  EXPECT_EQ(out[1], 255.0f * 0.1f);
}

TEST(DequantizeS16, FullInt16Range) {
  KernelCall call;
  call.tensor(ScalarType::Short, {3})
      .double_value(0.25)
      .int_value(-32768)
      .int_value(-32768)
      .int_value(32767)
      .int_value(2)
      .tensor(ScalarType::Float, {3});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int16_t>(kInput, {-32768, 32767, 0});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<float>(kOut), (std::vector<float>{0.0f, 65535.0f * 0.25f, 8192.0f}));
}

using GoldenCase = kernels::testing::QuantizeGoldenCase;

// Every dequantize instruction of the arm goldens (operators.md §2.2 values).
TEST(DequantizeS8, MatchesUpstreamGoldens) {
  ETNS_REQUIRE_SHARED(shared);
  const std::vector<int32_t> image = {1, 16, 32, 32};
  const std::vector<uint8_t> nhwc = {0, 2, 3, 1};
  const std::vector<GoldenCase> cases = {
      {"tier1_arm", "c0i3", "c0i4", 0.024257738143205643, -113, image, nhwc},
      {"tier1_arm", "c0i5", "c0i6", 0.04002131149172783, 0, image, nhwc},
      {"tier1_arm", "c0i10", "c0i11", 0.04450160264968872, 1, image, nhwc},
      {"tier1mean_arm", "c0i0", "c0i1", 0.030633239075541496, 1, image, {}},
      {"tier1mean_arm", "c0i3", "c0i4", 0.0006877929554320872, 4, {1, 16, 1, 1}, {}},
  };
  kernels::testing::expect_quantize_goldens(kEntry, kDequantizeContract, shared, cases,
                                            ScalarType::Char, ScalarType::Float);
}

// --- prepare rejects what the kernel does not accept ---

struct Call : kernels::testing::QuantizeCallArgs {
  Call() {
    input_dtype = ScalarType::Char;
    scale = 0.024257738143205643;
    zero_point = -113;
    out_dtype = ScalarType::Float;
  }
};

void expect_rejected(const Call& c, Error code, const std::string& message) {
  std::string log;
  EXPECT_EQ(kernels::testing::prepare_quantize_call(kEntry, c, &log), code);
  EXPECT_NE(log.find("c0i0 cortex_m::dequantize_per_tensor.out: " + message), std::string::npos)
      << "log: " << log;
}

TEST(DequantizePrepare, RejectsWrongDtypes) {
  Call c;
  c.input_dtype = ScalarType::Short;
  expect_rejected(c, Error::InvalidArgument, "input dtype int16, expected int8");
  c = Call{};
  c.dtype = 6;
  expect_rejected(c, Error::InvalidArgument, "dtype = 6, expected 1 (int8) or 2 (int16)");
  c = Call{};
  c.out_dtype = ScalarType::Char;
  expect_rejected(c, Error::InvalidArgument, "out dtype int8, expected float32");
  c = Call{};
  c.input_dtype = ScalarType::Float;
  expect_rejected(c, Error::InvalidArgument, "input dtype float32, expected int8 or int16");
}

TEST(DequantizePrepare, RejectsWrongKindOfArgument) {
  KernelCall call;
  call.tensor(ScalarType::Char, {4})
      .double_value(0.5)
      .double_value(0.0)  // zero_point must be an Int
      .int_value(-128)
      .int_value(127)
      .int_value(1)
      .tensor(ScalarType::Float, {4});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidProgram);
  EXPECT_NE(call.log().find("argument 2 (zero_point) is Double, expected Int"), std::string::npos)
      << call.log();
}

TEST(DequantizePrepare, RejectsQuantRangesAndZeroPoints) {
  Call c;
  c.quant_min = -200;
  expect_rejected(c, Error::InvalidArgument, "quant_min = -200, expected [-128, 127]");
  c = Call{};
  c.quant_max = 300;
  expect_rejected(c, Error::InvalidArgument, "quant_max = 300, expected [-128, 127]");
  c = Call{};
  c.zero_point = -129;
  expect_rejected(c, Error::InvalidArgument, "zero_point = -129, expected [-128, 127]");
  c = Call{};
  c.quant_min = -100;
  expect_rejected(c, Error::InvalidArgument, "zero_point = -113, expected [-100, 127]");
}

// The scales quantize refuses: none of them maps codes to meaningful floats
// (NaN, infinite, zero or negative ones turned whole outputs into NaN).
TEST(DequantizePrepare, RejectsTheScalesQuantizeRejects) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const std::pair<double, const char*> cases[] = {
      {0.0, "0"},     {-0.0, "-0"},   {-0.5, "-0.5"},       {1e-50, "1e-50"}, {1e-40, "1e-40"},
      {1e40, "1e+40"}, {std::nan(""), "nan"}, {kInf, "inf"}, {-kInf, "-inf"},
  };
  for (const auto& [scale, spelled] : cases) {
    Call c;
    c.scale = scale;
    expect_rejected(c, Error::InvalidArgument,
                    std::string("scale = ") + spelled + ", expected finite and > 0 with a finite float32 inverse");
  }
}

TEST(DequantizePrepare, RejectsShapeAndLayoutMismatches) {
  Call c;
  c.out_sizes = {1, 4, 2, 1};
  expect_rejected(c, Error::InvalidArgument,
                  "input [1, 4, 2, 2] and out [1, 4, 2, 1] differ in shape");
  c = Call{};
  c.out_dim_order = {0, 2, 3, 1};
  expect_rejected(c, Error::InvalidArgument, "input and out have different dim orders");
}

}  // namespace
}  // namespace etns::cortex_m
