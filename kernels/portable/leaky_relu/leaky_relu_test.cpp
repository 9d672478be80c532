#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "kernels/portable/leaky_relu/leaky_relu.h"
#include "tests/support/kernel_call.h"
#include "tests/support/shared_data.h"

namespace etns::portable {
namespace {

using runtime::Error;
using runtime::ScalarType;
using testing::KernelCall;
using testing::bits;
using testing::logged;

const runtime::KernelEntry kEntry =
    runtime::kernel_entry(kLeakyReluContract, &leaky_relu_prepare, &leaky_relu_run);
constexpr runtime::Arg kSelf = kLeakyReluContract.arg("self");
constexpr runtime::Arg kOut = kLeakyReluContract.out();
const std::vector<int32_t> kTier1Sizes{1, 16, 32, 32};
const std::vector<uint8_t> kChannelsLast{0, 2, 3, 1};

std::vector<float> run_leaky(const std::vector<float>& in, double slope) {
  KernelCall call;
  const int32_t n = static_cast<int32_t>(in.size());
  call.tensor(ScalarType::Float, {n}).double_value(slope).tensor(ScalarType::Float, {n});
  EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<float>(kSelf, in);
  EXPECT_EQ(call.run(), Error::Ok);
  return call.read<float>(kOut);
}

// tier1_arm c0i7: leaky_relu(c0i6, 0.125) on the NHWC trunk, bit for bit.
TEST(LeakyRelu, MatchesTier1Goldens) {
  ETNS_REQUIRE_SHARED(shared);
  for (const char* input : {"A", "B", "C"}) {
    SCOPED_TRACE(input);
    const std::string prefix = shared + "/golden/tier1_arm." + input;
    const std::vector<uint8_t> self = testing::read_file(prefix + ".c0i6.bin");
    const std::vector<uint8_t> want = testing::read_file(prefix + ".c0i7.bin");

    KernelCall call;
    call.tensor(ScalarType::Float, kTier1Sizes, kChannelsLast)
        .double_value(0.125)
        .tensor(ScalarType::Float, kTier1Sizes, kChannelsLast);
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    ASSERT_EQ(self.size(), call.tensor_at(kSelf).nbytes);
    ASSERT_EQ(want.size(), call.tensor_at(kOut).nbytes);
    std::memcpy(call.data<uint8_t>(kSelf), self.data(), self.size());
    ASSERT_EQ(call.run(), Error::Ok);
    EXPECT_EQ(std::memcmp(call.data<uint8_t>(kOut), want.data(), want.size()), 0);
  }
}

TEST(LeakyRelu, SignedZeroNanAndInfinities) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> got = run_leaky({-0.0f, 0.0f, nan, -inf, inf, -2.0f, 3.5f}, 0.125);
  EXPECT_EQ(bits(got[0]), bits(-0.0f));  // -0.0 >= 0 holds: copied, not multiplied
  EXPECT_EQ(bits(got[1]), bits(0.0f));
  EXPECT_TRUE(std::isnan(got[2]));
  EXPECT_EQ(got[3], -inf);
  EXPECT_EQ(got[4], inf);
  EXPECT_EQ(got[5], -0.25f);
  EXPECT_EQ(got[6], 3.5f);
}

TEST(LeakyRelu, SlopeIsRoundedToFloatBeforeTheMultiply) {
  // 0.1 is not a float: the kernel multiplies by (float)0.1, once, in float32.
  const std::vector<float> in{-1.0f, -3.0f, -7.3f, -1e-3f, -123456.7f};
  const std::vector<float> got = run_leaky(in, 0.1);
  const float slope = static_cast<float>(0.1);
  for (size_t i = 0; i < in.size(); ++i) {
    const volatile float want = in[i] * slope;
    EXPECT_EQ(bits(got[i]), bits(want)) << in[i];
  }
}

TEST(LeakyRelu, IntSlope) {
  KernelCall call;
  call.tensor(ScalarType::Float, {3}).int_value(-2).tensor(ScalarType::Float, {3});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<float>(kSelf, {-1.5f, 0.0f, 4.0f});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<float>(kOut), (std::vector<float>{3.0f, 0.0f, 4.0f}));
}

TEST(LeakyRelu, InPlace) {
  KernelCall call;
  call.tensor(ScalarType::Float, {4}).double_value(0.5).tensor(ScalarType::Float, {4});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok);
  call.fill<float>(kSelf, {-4.0f, -1.0f, 1.0f, 2.0f});
  call.tensor_at(kOut).data = call.tensor_at(kSelf).data;  // out aliases self
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<float>(kSelf), (std::vector<float>{-2.0f, -0.5f, 1.0f, 2.0f}));
}

TEST(LeakyRelu, RejectsIntegerSelf) {
  KernelCall call;
  call.tensor(ScalarType::Char, {4}).double_value(0.125).tensor(ScalarType::Char, {4});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call,
                     "c0i0 aten::leaky_relu.out: self dtype int8, expected float16, float32, "
                     "float64 or bfloat16"));
}

TEST(LeakyRelu, RejectsOutDtypeDifferentFromSelf) {
  KernelCall call;
  call.tensor(ScalarType::Float, {4}).double_value(0.125).tensor(ScalarType::Double, {4});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "out dtype float64, expected float32"));
}

TEST(LeakyRelu, OtherFloatTypesAreNotImplemented) {
  KernelCall call;
  call.tensor(ScalarType::Double, {4}).double_value(0.125).tensor(ScalarType::Double, {4});
  EXPECT_EQ(call.prepare(kEntry), Error::NotSupported);
  EXPECT_TRUE(logged(call, "self dtype float64, only float32 is implemented"));
}

TEST(LeakyRelu, RejectsMismatchedDimOrders) {
  KernelCall call;
  call.tensor(ScalarType::Float, kTier1Sizes, kChannelsLast)
      .double_value(0.125)
      .tensor(ScalarType::Float, kTier1Sizes);
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "self and out have different dim orders"));
}

TEST(LeakyRelu, RejectsMismatchedSizes) {
  KernelCall call;
  call.tensor(ScalarType::Float, {2, 3}).double_value(0.125).tensor(ScalarType::Float, {3, 2});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "self [2, 3] and out [3, 2] differ in shape"));
}

TEST(LeakyRelu, RejectsSlopeBeyondFloatRange) {
  KernelCall call;
  call.tensor(ScalarType::Float, {4}).double_value(1e39).tensor(ScalarType::Float, {4});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "negative_slope = 1e+39, outside float32 range"));
}

TEST(LeakyRelu, RejectsNonScalarSlope) {
  KernelCall call;
  call.tensor(ScalarType::Float, {4}).null().tensor(ScalarType::Float, {4});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidProgram);
  EXPECT_TRUE(logged(call, "(negative_slope) is Null, expected Scalar (Int, Double or Bool)"));
}

}  // namespace
}  // namespace etns::portable
