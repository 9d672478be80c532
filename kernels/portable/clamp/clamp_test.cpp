#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "kernels/portable/clamp/clamp.h"
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
    runtime::kernel_entry(kClampContract, &clamp_prepare, &clamp_run);
constexpr runtime::Arg kSelf = kClampContract.arg("self");
constexpr runtime::Arg kOut = kClampContract.out();
const std::vector<int32_t> kTier1Sizes{1, 16, 32, 32};
const std::vector<uint8_t> kChannelsLast{0, 2, 3, 1};

std::vector<int8_t> every_s8() {
  std::vector<int8_t> v;
  for (int i = -128; i <= 127; ++i) v.push_back(static_cast<int8_t>(i));
  return v;
}

// Clamps every int8 value; `bounds` appends the min and max arguments.
template <typename Bounds>
std::vector<int8_t> clamp_every_s8(Bounds bounds) {
  KernelCall call;
  call.tensor(ScalarType::Char, {256});
  bounds(call);
  call.tensor(ScalarType::Char, {256});
  EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kSelf, every_s8());
  EXPECT_EQ(call.run(), Error::Ok);
  return call.read<int8_t>(kOut);
}

// tier1_arm c0i10: the int8 relu clamp(c0i9, min = Int 1, max = None), bit for bit.
TEST(Clamp, MatchesTier1Goldens) {
  ETNS_REQUIRE_SHARED(shared);
  for (const char* input : {"A", "B", "C"}) {
    SCOPED_TRACE(input);
    const std::string prefix = shared + "/golden/tier1_arm." + input;
    const std::vector<uint8_t> self = testing::read_file(prefix + ".c0i9.bin");
    const std::vector<uint8_t> want = testing::read_file(prefix + ".c0i10.bin");

    KernelCall call;
    call.tensor(ScalarType::Char, kTier1Sizes, kChannelsLast)
        .int_value(1)
        .null()
        .tensor(ScalarType::Char, kTier1Sizes, kChannelsLast);
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    ASSERT_EQ(self.size(), call.tensor_at(kSelf).nbytes);
    ASSERT_EQ(want.size(), call.tensor_at(kOut).nbytes);
    std::memcpy(call.data<uint8_t>(kSelf), self.data(), self.size());
    ASSERT_EQ(call.run(), Error::Ok);
    EXPECT_EQ(std::memcmp(call.data<uint8_t>(kOut), want.data(), want.size()), 0);
  }
}

TEST(Clamp, Int8SaturatingBoundsAreIdentity) {
  EXPECT_EQ(clamp_every_s8([](KernelCall& c) { c.int_value(-128).int_value(127); }), every_s8());
  EXPECT_EQ(clamp_every_s8([](KernelCall& c) { c.int_value(-128).null(); }), every_s8());
  EXPECT_EQ(clamp_every_s8([](KernelCall& c) { c.null().int_value(127); }), every_s8());
}

TEST(Clamp, Int8Bounds) {
  const std::vector<int8_t> relu = clamp_every_s8([](KernelCall& c) { c.int_value(1).null(); });
  const std::vector<int8_t> upper = clamp_every_s8([](KernelCall& c) { c.null().int_value(-3); });
  const std::vector<int8_t> both =
      clamp_every_s8([](KernelCall& c) { c.int_value(-5).int_value(9); });
  for (int i = 0; i < 256; ++i) {
    const int v = i - 128;
    EXPECT_EQ(relu[i], v < 1 ? 1 : v);
    EXPECT_EQ(upper[i], v > -3 ? -3 : v);
    EXPECT_EQ(both[i], v < -5 ? -5 : (v > 9 ? 9 : v));
  }
}

TEST(Clamp, MinAboveMaxGivesMax) {
  const std::vector<int8_t> got =
      clamp_every_s8([](KernelCall& c) { c.int_value(5).int_value(2); });
  EXPECT_EQ(got, std::vector<int8_t>(256, 2));
}

TEST(Clamp, BoolBoundIsIntegral) {
  // True is 1 and, like an Int, does not promote the int8 tensor.
  const std::vector<int8_t> got = clamp_every_s8([](KernelCall& c) { c.bool_value(true).null(); });
  EXPECT_EQ(got[0], 1);
  EXPECT_EQ(got[255], 127);
}

TEST(Clamp, FloatNanAndSignedZero) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  KernelCall call;
  call.tensor(ScalarType::Float, {6})
      .double_value(0.0)
      .double_value(2.5)
      .tensor(ScalarType::Float, {6});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<float>(kSelf, {nan, -0.0f, 0.0f, -1.0f, 1.25f, 3.0f});
  ASSERT_EQ(call.run(), Error::Ok);
  const std::vector<float> got = call.read<float>(kOut);
  EXPECT_TRUE(std::isnan(got[0]));
  EXPECT_EQ(bits(got[1]), bits(-0.0f));  // equal to the bound: the input is kept
  EXPECT_EQ(bits(got[2]), bits(0.0f));
  EXPECT_EQ(bits(got[3]), bits(0.0f));
  EXPECT_EQ(got[4], 1.25f);
  EXPECT_EQ(got[5], 2.5f);
}

TEST(Clamp, FloatNanBoundGivesNan) {
  KernelCall call;
  call.tensor(ScalarType::Float, {3})
      .null()
      .double_value(std::numeric_limits<double>::quiet_NaN())
      .tensor(ScalarType::Float, {3});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<float>(kSelf, {-1.0f, 0.0f, 1.0f});
  ASSERT_EQ(call.run(), Error::Ok);
  for (float v : call.read<float>(kOut)) EXPECT_TRUE(std::isnan(v));
}

TEST(Clamp, FloatWithIntBoundsAndInfiniteBound) {
  KernelCall call;
  call.tensor(ScalarType::Float, {4})
      .int_value(-1)
      .double_value(std::numeric_limits<double>::infinity())
      .tensor(ScalarType::Float, {4});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<float>(kSelf, {-7.0f, -0.5f, 1e30f, std::numeric_limits<float>::infinity()});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<float>(kOut),
            (std::vector<float>{-1.0f, -0.5f, 1e30f, std::numeric_limits<float>::infinity()}));
}

TEST(Clamp, DoubleBoundPromotesInt8ToFloatOut) {
  KernelCall call;
  call.tensor(ScalarType::Char, {4}).double_value(-1.5).null().tensor(ScalarType::Float, {4});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kSelf, {-128, -2, -1, 127});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<float>(kOut), (std::vector<float>{-1.5f, -1.5f, -1.0f, 127.0f}));
}

TEST(Clamp, RejectsMissingBothBounds) {
  KernelCall call;
  call.tensor(ScalarType::Char, {4}).null().null().tensor(ScalarType::Char, {4});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(
      logged(call, "c0i0 aten::clamp.out: min and max are both None, expected at least one"));
}

TEST(Clamp, RejectsBoundOutsideInt8) {
  KernelCall call;
  call.tensor(ScalarType::Char, {4}).int_value(200).null().tensor(ScalarType::Char, {4});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "min = 200, expected [-128, 127]"));

  KernelCall low;
  low.tensor(ScalarType::Char, {4}).null().int_value(-129).tensor(ScalarType::Char, {4});
  EXPECT_EQ(low.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(low, "max = -129, expected [-128, 127]"));
}

TEST(Clamp, RejectsDoubleBoundOnInt8Out) {
  KernelCall call;
  call.tensor(ScalarType::Char, {4}).double_value(1.0).null().tensor(ScalarType::Char, {4});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "a Double bound promotes int8 self to float32, but out dtype is int8"));
}

TEST(Clamp, RejectsOutDtypeDifferentFromSelf) {
  KernelCall call;
  call.tensor(ScalarType::Float, {4}).int_value(0).null().tensor(ScalarType::Char, {4});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "out dtype int8, expected float32 (self's dtype)"));
}

TEST(Clamp, RejectsFloatBoundBeyondFloatRange) {
  KernelCall call;
  call.tensor(ScalarType::Float, {4}).double_value(-1e39).null().tensor(ScalarType::Float, {4});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "min = -1e+39, outside float32 range"));
}

TEST(Clamp, OtherDtypesAreNotImplemented) {
  KernelCall call;
  call.tensor(ScalarType::Short, {4}).int_value(0).null().tensor(ScalarType::Short, {4});
  EXPECT_EQ(call.prepare(kEntry), Error::NotSupported);
  EXPECT_TRUE(logged(call, "self dtype int16, only int8 and float32 are implemented"));
}

TEST(Clamp, RejectsMismatchedDimOrders) {
  KernelCall call;
  call.tensor(ScalarType::Char, kTier1Sizes)
      .int_value(1)
      .null()
      .tensor(ScalarType::Char, kTier1Sizes, kChannelsLast);
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "self and out have different dim orders"));
}

TEST(Clamp, RejectsMismatchedSizes) {
  KernelCall call;
  call.tensor(ScalarType::Char, {4}).int_value(1).null().tensor(ScalarType::Char, {5});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "self [4] and out [5] differ in shape"));
}

TEST(Clamp, RejectsNonScalarBound) {
  KernelCall call;
  call.tensor(ScalarType::Char, {4}).int_list({1}).null().tensor(ScalarType::Char, {4});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidProgram);
  EXPECT_TRUE(logged(call, "(min) is IntList, expected Scalar or Null"));
}

}  // namespace
}  // namespace etns::portable
