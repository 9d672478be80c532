#include "kernels/cortex_m/quantize/quantize.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
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
    runtime::kernel_entry(kQuantizeContract, &quantize_prepare, &quantize_run);

constexpr runtime::Arg kInput = kQuantizeContract.arg("input");
constexpr runtime::Arg kOut = kQuantizeContract.out();

// tier1's model input quantization (float32 bits 0x3cfaf28f), zero point 1.
constexpr double kInputScale = 0.030633239075541496;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

float float_from_bits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

// Runs the kernel over `x` (1-D) into int8 with the full int8 range.
std::vector<int8_t> quantize_s8(const std::vector<float>& x, double scale, int64_t zero_point) {
  const int32_t n = static_cast<int32_t>(x.size());
  KernelCall call;
  call.tensor(ScalarType::Float, {n})
      .double_value(scale)
      .int_value(zero_point)
      .int_value(-128)
      .int_value(127)
      .int_value(1)
      .tensor(ScalarType::Char, {n});
  EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<float>(kInput, x);
  EXPECT_EQ(call.run(), Error::Ok);
  return call.read<int8_t>(kOut);
}

// --- Reference against goldens and hand-worked cases ---

// operators.md §2.1: float products that land exactly on k + 0.5. The scalar
// path rounds them half to even (upstream's Helium path would give -38, -38,
// -34, -16, 2, 40).
TEST(QuantizeS8, TiesRoundHalfToEvenAfterTheFloatMultiply) {
  const uint32_t bits[] = {0xbf9ae1b4, 0xbf96f5ea, 0xbf8b328b, 0xbf016512, 0x3c7af28f, 0x3f9ae1b4};
  const std::vector<int8_t> want = {-39, -37, -35, -15, 1, 41};
  std::vector<float> x;
  const float inv_scale = 1.0f / static_cast<float>(kInputScale);
  uint32_t inv_bits;
  std::memcpy(&inv_bits, &inv_scale, sizeof(inv_bits));
  EXPECT_EQ(inv_bits, 0x420293beu);
  for (uint32_t b : bits) {
    x.push_back(float_from_bits(b));
    const float product = inv_scale * x.back();
    EXPECT_EQ(product - std::floor(product), 0.5f) << "not a tie: x bits " << std::hex << b;
  }
  EXPECT_EQ(quantize_s8(x, kInputScale, 1), want);
}

// Upstream's Helium path wraps here (-128, -128, 127); we saturate everywhere.
TEST(QuantizeS8, SaturatesBeyondTheRange) {
  const std::vector<float> x = {1004.0f, 2000.0f, -1500.0f, 3.0e38f, -3.0e38f, kInf, -kInf};
  const std::vector<int8_t> want = {127, 127, -128, 127, -128, 127, -128};
  EXPECT_EQ(quantize_s8(x, kInputScale, 1), want);
}

TEST(QuantizeS8, NanAndZerosGiveTheZeroPoint) {
  const std::vector<float> x = {kNaN, -kNaN, 0.0f, -0.0f, 1e-30f, -1e-30f};
  EXPECT_EQ(quantize_s8(x, kInputScale, 1), std::vector<int8_t>(6, 1));
  EXPECT_EQ(quantize_s8({kNaN}, kInputScale, -128), std::vector<int8_t>{-128});
}

TEST(QuantizeS8, HandWorkedValues) {
  // 1 / 0.5 = 2 exactly: x * 2 + zp, ties to even at 0.25 * 2 = 0.5 and 0.75 * 2 = 1.5.
  const std::vector<float> x = {0.0f, 0.25f, 0.75f, -0.25f, -0.75f, 1.0f, 63.0f, 64.0f, -64.5f};
  const std::vector<int8_t> want = {-3, -3, -1, -3, -5, -1, 123, 125, -128};
  EXPECT_EQ(quantize_s8(x, 0.5, -3), want);
  // 32.644279 * 1 = 32.64 -> 33, + zp 1.
  EXPECT_EQ(quantize_s8({1.0f, -1.0f}, kInputScale, 1), (std::vector<int8_t>{34, -32}));
}

TEST(QuantizeS8, ClampsToANarrowQuantRange) {
  const QuantizeParams p{2.0f, 0, -10, 10, ScalarType::Char};
  const float x[] = {-100.0f, -5.2f, 0.0f, 2.5f, 5.0f, 100.0f, kNaN};
  int8_t out[7];
  quantize_f32_s8_ref(p, x, out, 7);
  const int8_t want[] = {-10, -10, 0, 5, 10, 10, 0};
  for (int i = 0; i < 7; ++i) EXPECT_EQ(out[i], want[i]) << "x = " << x[i];
}

TEST(QuantizeS16, FullInt16RangeSaturates) {
  const std::vector<float> x = {1.0f, 1000.0f, 1004.0f, -1004.0f, kNaN, -kInf};
  KernelCall call;
  call.tensor(ScalarType::Float, {6})
      .double_value(kInputScale)
      .int_value(5)
      .int_value(-32768)
      .int_value(32767)
      .int_value(2)
      .tensor(ScalarType::Short, {6});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<float>(kInput, x);
  ASSERT_EQ(call.run(), Error::Ok);
  // 32.644 -> 33; 32644.28 -> 32644; 32774.9 and -32774.9 leave int16.
  EXPECT_EQ(call.read<int16_t>(kOut), (std::vector<int16_t>{38, 32649, 32767, -32768, 5, -32768}));
}

using GoldenCase = kernels::testing::QuantizeGoldenCase;

// Every quantize instruction of the arm goldens (operators.md §2.1 values).
TEST(QuantizeS8, MatchesUpstreamGoldens) {
  ETNS_REQUIRE_SHARED(shared);
  const std::vector<GoldenCase> cases = {
      {"tier1_arm", "input", "c0i0", kInputScale, 1, {1, 16, 32, 32}, {0, 2, 3, 1}},
      {"tier1_arm", "c0i8", "c0i9", 0.04450160264968872, 1, {1, 16, 32, 32}, {0, 2, 3, 1}},
      {"tier1mean_arm", "input", "c0i0", kInputScale, 1, {1, 16, 32, 32}, {}},
      {"tier1mean_arm", "c0i2", "c0i3", 0.0006877929554320872, 4, {1, 16, 1, 1}, {}},
  };
  kernels::testing::expect_quantize_goldens(kEntry, kQuantizeContract, shared, cases,
                                            ScalarType::Float, ScalarType::Char);
}

// --- prepare rejects what the kernel does not accept ---

struct Call : kernels::testing::QuantizeCallArgs {
  Call() {
    scale = kInputScale;
    zero_point = 1;
  }
};

// Prepares `c` and returns the error; the log is left in `log`.
Error prepare(const Call& c, std::string* log) {
  return kernels::testing::prepare_quantize_call(kEntry, c, log);
}

void expect_rejected(const Call& c, Error code, const std::string& message) {
  std::string log;
  EXPECT_EQ(prepare(c, &log), code);
  EXPECT_NE(log.find(message), std::string::npos) << "log: " << log;
  EXPECT_NE(log.find("c0i0 cortex_m::quantize_per_tensor.out: "), std::string::npos) << log;
}

TEST(QuantizePrepare, AcceptsTheTier1Arguments) {
  std::string log;
  EXPECT_EQ(prepare(Call{}, &log), Error::Ok);
  EXPECT_EQ(log, "");
}

TEST(QuantizePrepare, RejectsWrongDtypes) {
  Call c;
  c.input_dtype = ScalarType::Char;
  expect_rejected(c, Error::InvalidArgument, "input dtype int8, expected float32");
  c = Call{};
  c.dtype = 3;
  expect_rejected(c, Error::InvalidArgument, "dtype = 3, expected 1 (int8) or 2 (int16)");
  c = Call{};
  c.out_dtype = ScalarType::Short;
  expect_rejected(c, Error::InvalidArgument, "out dtype int16, expected int8");
  c = Call{};
  c.out_dtype = ScalarType::Float;
  expect_rejected(c, Error::InvalidArgument, "out dtype float32, expected int8 or int16");
  c = Call{};
  c.dtype = 2;
  expect_rejected(c, Error::InvalidArgument, "out dtype int8, expected int16");
}

TEST(QuantizePrepare, RejectsWrongKindOfArgument) {
  KernelCall call;
  call.tensor(ScalarType::Float, {4})
      .int_value(1)  // scale must be a Double
      .int_value(1)
      .int_value(-128)
      .int_value(127)
      .int_value(1)
      .tensor(ScalarType::Char, {4});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidProgram);
  EXPECT_NE(call.log().find("argument 1 (scale) is Int, expected Double"), std::string::npos)
      << call.log();
}

TEST(QuantizePrepare, RejectsQuantRangesOutsideTheType) {
  Call c;
  c.quant_min = -129;
  expect_rejected(c, Error::InvalidArgument, "quant_min = -129, expected [-128, 127]");
  c = Call{};
  c.quant_max = 128;
  expect_rejected(c, Error::InvalidArgument, "quant_max = 128, expected [-128, 127]");
  c = Call{};
  c.quant_min = 10;
  c.quant_max = 5;
  c.zero_point = 7;
  expect_rejected(c, Error::InvalidArgument, "quant_max = 5, expected [10, 127]");
  c = Call{};
  c.dtype = 2;
  c.out_dtype = ScalarType::Short;
  c.quant_max = 32768;
  expect_rejected(c, Error::InvalidArgument, "quant_max = 32768, expected [-128, 32767]");
}

TEST(QuantizePrepare, RejectsAZeroPointOutsideTheQuantRange) {
  Call c;
  c.zero_point = 128;
  expect_rejected(c, Error::InvalidArgument, "zero_point = 128, expected [-128, 127]");
  c.quant_min = 0;
  c.zero_point = -1;
  expect_rejected(c, Error::InvalidArgument, "zero_point = -1, expected [0, 127]");
}

TEST(QuantizePrepare, RejectsScalesWithoutAFiniteInverse) {
  for (double scale :
       {0.0, -0.5, 1e-50, 1e-40, 1e40, std::nan(""), std::numeric_limits<double>::infinity()}) {
    Call c;
    c.scale = scale;
    expect_rejected(c, Error::InvalidArgument, "expected finite and > 0");
  }
}

TEST(QuantizePrepare, RejectsShapeAndLayoutMismatches) {
  Call c;
  c.out_sizes = {1, 4, 4};
  expect_rejected(c, Error::InvalidArgument,
                  "input [1, 4, 2, 2] and out [1, 4, 4] differ in shape");
  c = Call{};
  c.out_dim_order = {0, 2, 3, 1};
  expect_rejected(c, Error::InvalidArgument, "input and out have different dim orders");
}

}  // namespace
}  // namespace etns::cortex_m
