#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "kernels/portable/sub/sub.h"
#include "tests/support/kernel_call.h"
#include "tests/support/rng.h"
#include "tests/support/shared_data.h"

namespace etns::portable {
namespace {

using runtime::Error;
using runtime::ScalarType;
using testing::KernelCall;
using testing::bits;
using testing::logged;

const runtime::KernelEntry kEntry =
    runtime::kernel_entry(kSubContract, &sub_prepare, &sub_run);
constexpr runtime::Arg kSelf = kSubContract.arg("self");
constexpr runtime::Arg kOther = kSubContract.arg("other");
constexpr runtime::Arg kOut = kSubContract.out();
const std::vector<int32_t> kTier1Sizes{1, 16, 32, 32};
const std::vector<uint8_t> kChannelsLast{0, 2, 3, 1};
constexpr uint64_t kSeed = 0x5eed5b;

// a - alpha * b with the product rounded on its own, as the kernel must.
float sub_rounded(float a, float b, float alpha) {
  const volatile float product = alpha * b;
  return a - product;
}

std::vector<float> random_floats(testing::Rng& rng, size_t n) {
  std::vector<float> v(n);
  for (float& x : v) x = static_cast<float>(rng.unit() * 8.0 - 4.0);
  return v;
}

size_t numel(const std::vector<int32_t>& sizes) {
  size_t n = 1;
  for (int32_t s : sizes) n *= static_cast<size_t>(s);
  return n;
}

// Contiguous numpy broadcasting by logical index, the slow obvious way.
std::vector<float> broadcast_reference(const std::vector<float>& a, std::vector<int32_t> a_sizes,
                                       const std::vector<float>& b, std::vector<int32_t> b_sizes,
                                       const std::vector<int32_t>& out_sizes, float alpha) {
  const size_t rank = out_sizes.size();
  a_sizes.insert(a_sizes.begin(), rank - a_sizes.size(), 1);
  b_sizes.insert(b_sizes.begin(), rank - b_sizes.size(), 1);
  std::vector<float> out(numel(out_sizes));
  std::vector<size_t> index(rank, 0);
  for (size_t o = 0; o < out.size(); ++o) {
    size_t rest = o;
    for (size_t d = rank; d-- > 0;) {
      index[d] = rest % static_cast<size_t>(out_sizes[d]);
      rest /= static_cast<size_t>(out_sizes[d]);
    }
    size_t ai = 0;
    size_t bi = 0;
    for (size_t d = 0; d < rank; ++d) {
      ai = ai * static_cast<size_t>(a_sizes[d]) + (a_sizes[d] == 1 ? 0 : index[d]);
      bi = bi * static_cast<size_t>(b_sizes[d]) + (b_sizes[d] == 1 ? 0 : index[d]);
    }
    out[o] = sub_rounded(a[ai], b[bi], alpha);
  }
  return out;
}

// tier1_arm c0i8: sub(c0i7, c0i4, alpha = Int 1) on the NHWC trunk, bit for bit.
TEST(Sub, MatchesTier1Goldens) {
  ETNS_REQUIRE_SHARED(shared);
  for (const char* input : {"A", "B", "C"}) {
    SCOPED_TRACE(input);
    const std::string prefix = shared + "/golden/tier1_arm." + input;
    const std::vector<uint8_t> self = testing::read_file(prefix + ".c0i7.bin");
    const std::vector<uint8_t> other = testing::read_file(prefix + ".c0i4.bin");
    const std::vector<uint8_t> want = testing::read_file(prefix + ".c0i8.bin");

    KernelCall call;
    call.tensor(ScalarType::Float, kTier1Sizes, kChannelsLast)
        .tensor(ScalarType::Float, kTier1Sizes, kChannelsLast)
        .int_value(1)
        .tensor(ScalarType::Float, kTier1Sizes, kChannelsLast);
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    ASSERT_EQ(self.size(), call.tensor_at(kSelf).nbytes);
    ASSERT_EQ(other.size(), call.tensor_at(kOther).nbytes);
    ASSERT_EQ(want.size(), call.tensor_at(kOut).nbytes);
    std::memcpy(call.data<uint8_t>(kSelf), self.data(), self.size());
    std::memcpy(call.data<uint8_t>(kOther), other.data(), other.size());
    ASSERT_EQ(call.run(), Error::Ok);
    EXPECT_EQ(std::memcmp(call.data<uint8_t>(kOut), want.data(), want.size()), 0);
  }
}

TEST(Sub, ProductIsRoundedBeforeTheSubtraction) {
  // 3 * fl(1/3) = 1 + 2^-25 rounds to 1, so a - fl(3b) = 0; a fused
  // multiply-subtract would give -2^-25.
  KernelCall call;
  call.tensor(ScalarType::Float, {1})
      .tensor(ScalarType::Float, {1})
      .int_value(3)
      .tensor(ScalarType::Float, {1});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  const float third = 1.0f / 3.0f;
  call.fill<float>(kSelf, {1.0f});
  call.fill<float>(kOther, {third});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(bits(call.read<float>(kOut)[0]), bits(0.0f));
  EXPECT_NE(std::fma(-3.0f, third, 1.0f), 0.0f);  // the case does tell the two apart
}

TEST(Sub, SpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  KernelCall call;
  call.tensor(ScalarType::Float, {5})
      .tensor(ScalarType::Float, {5})
      .int_value(1)
      .tensor(ScalarType::Float, {5});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok);
  call.fill<float>(kSelf, {-0.0f, 0.0f, inf, nan, 1.0f});
  call.fill<float>(kOther, {0.0f, 0.0f, inf, 1.0f, -inf});
  ASSERT_EQ(call.run(), Error::Ok);
  const std::vector<float> got = call.read<float>(kOut);
  EXPECT_EQ(bits(got[0]), bits(-0.0f));  // -0 - (1 * +0) = -0
  EXPECT_EQ(bits(got[1]), bits(0.0f));
  // inf - inf and a NaN operand: the canonical quiet NaN, whatever the FPU
  // would make of it (x86's default NaN is negative, Arm's positive).
  EXPECT_EQ(bits(got[2]), 0x7FC00000u);
  EXPECT_EQ(bits(got[3]), 0x7FC00000u);
  EXPECT_EQ(got[4], inf);
}

TEST(Sub, DoubleAlphaIsRoundedToFloat) {
  testing::Rng rng(kSeed);
  const std::vector<float> a = random_floats(rng, 37);
  const std::vector<float> b = random_floats(rng, 37);
  KernelCall call;
  call.tensor(ScalarType::Float, {37})
      .tensor(ScalarType::Float, {37})
      .double_value(0.3)
      .tensor(ScalarType::Float, {37});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<float>(kSelf, a);
  call.fill<float>(kOther, b);
  ASSERT_EQ(call.run(), Error::Ok);
  const std::vector<float> got = call.read<float>(kOut);
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(bits(got[i]), bits(sub_rounded(a[i], b[i], static_cast<float>(0.3)))) << i;
  }
}

struct BroadcastCase {
  std::vector<int32_t> a;
  std::vector<int32_t> b;
  std::vector<int32_t> out;
};

TEST(Sub, BroadcastsContiguousTensors) {
  const BroadcastCase cases[] = {
      {{2, 3}, {3}, {2, 3}},
      {{2, 1}, {1, 3}, {2, 3}},
      {{3}, {2, 3}, {2, 3}},
      {{2, 3, 4}, {3, 1}, {2, 3, 4}},
      {{1, 16, 5, 7}, {1, 16, 1, 1}, {1, 16, 5, 7}},
      {{4, 1, 5, 1, 3}, {1, 6, 1, 2, 1}, {4, 6, 5, 2, 3}},
      {{2, 1, 2, 1, 2, 1}, {1, 2, 1, 2, 1, 2}, {2, 2, 2, 2, 2, 2}},
      {{3, 1, 1, 4, 5}, {3, 1, 1, 1, 1}, {3, 1, 1, 4, 5}},
      {{1, 1}, {1}, {1, 1}},
      {{5, 1}, {5, 1}, {5, 1}},
  };
  testing::Rng rng(kSeed);
  for (const BroadcastCase& c : cases) {
    SCOPED_TRACE(::testing::PrintToString(c.a) + " - " + ::testing::PrintToString(c.b));
    const std::vector<float> a = random_floats(rng, numel(c.a));
    const std::vector<float> b = random_floats(rng, numel(c.b));
    KernelCall call;
    call.tensor(ScalarType::Float, c.a)
        .tensor(ScalarType::Float, c.b)
        .double_value(1.5)
        .tensor(ScalarType::Float, c.out);
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    call.fill<float>(kSelf, a);
    call.fill<float>(kOther, b);
    ASSERT_EQ(call.run(), Error::Ok);
    EXPECT_EQ(call.read<float>(kOut), broadcast_reference(a, c.a, b, c.b, c.out, 1.5f));
  }
}

TEST(Sub, BroadcastNeedingSevenWalkDimsIsNotImplemented) {
  // Every dim alternates which operand broadcasts, so no two dims merge.
  KernelCall call;
  call.tensor(ScalarType::Float, {2, 1, 2, 1, 2, 1, 2})
      .tensor(ScalarType::Float, {1, 2, 1, 2, 1, 2, 1})
      .int_value(1)
      .tensor(ScalarType::Float, {2, 2, 2, 2, 2, 2, 2});
  EXPECT_EQ(call.prepare(kEntry), Error::NotSupported);
  EXPECT_TRUE(logged(call, "broadcast needs more than 6 dims after merging"));
}

TEST(Sub, EmptyTensorsWriteNothing) {
  KernelCall call;
  call.tensor(ScalarType::Float, {0, 3})
      .tensor(ScalarType::Float, {3})
      .int_value(1)
      .tensor(ScalarType::Float, {0, 3});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  EXPECT_EQ(call.run(), Error::Ok);
}

TEST(Sub, RejectsBoolAlpha) {
  KernelCall call;
  call.tensor(ScalarType::Float, {4})
      .tensor(ScalarType::Float, {4})
      .bool_value(true)
      .tensor(ScalarType::Float, {4});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "c0i0 aten::sub.out: alpha is Bool, expected Int or Double"));
}

TEST(Sub, IntegerTensorsAreNotImplemented) {
  KernelCall call;
  call.tensor(ScalarType::Char, {4})
      .tensor(ScalarType::Float, {4})
      .int_value(1)
      .tensor(ScalarType::Float, {4});
  EXPECT_EQ(call.prepare(kEntry), Error::NotSupported);
  EXPECT_TRUE(logged(call, "self dtype int8, only float32 is implemented"));
}

TEST(Sub, RejectsBoolTensors) {
  KernelCall call;
  call.tensor(ScalarType::Float, {4})
      .tensor(ScalarType::Bool, {4})
      .int_value(1)
      .tensor(ScalarType::Float, {4});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "other dtype bool"));
}

TEST(Sub, RejectsIntegerOut) {
  KernelCall call;
  call.tensor(ScalarType::Float, {4})
      .tensor(ScalarType::Float, {4})
      .int_value(1)
      .tensor(ScalarType::Char, {4});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "out dtype int8, expected float32"));
}

TEST(Sub, RejectsShapesThatDoNotBroadcast) {
  KernelCall call;
  call.tensor(ScalarType::Float, {2, 3})
      .tensor(ScalarType::Float, {2})
      .int_value(1)
      .tensor(ScalarType::Float, {2, 3});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "self [2, 3] and other [2] do not broadcast"));
}

TEST(Sub, RejectsWrongOutShape) {
  KernelCall call;
  call.tensor(ScalarType::Float, {2, 1})
      .tensor(ScalarType::Float, {3})
      .int_value(1)
      .tensor(ScalarType::Float, {2, 1});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "out shape [2, 1], expected [2, 3]"));
}

TEST(Sub, RejectsMismatchedDimOrders) {
  KernelCall call;
  call.tensor(ScalarType::Float, kTier1Sizes, kChannelsLast)
      .tensor(ScalarType::Float, kTier1Sizes)
      .int_value(1)
      .tensor(ScalarType::Float, kTier1Sizes, kChannelsLast);
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "self and other have different dim orders"));
}

TEST(Sub, ChannelsLastBroadcastIsNotImplemented) {
  KernelCall call;
  call.tensor(ScalarType::Float, kTier1Sizes, kChannelsLast)
      .tensor(ScalarType::Float, {1, 16, 1, 1}, kChannelsLast)
      .int_value(1)
      .tensor(ScalarType::Float, kTier1Sizes, kChannelsLast);
  EXPECT_EQ(call.prepare(kEntry), Error::NotSupported);
  EXPECT_TRUE(logged(call,
                     "broadcasting self [1, 16, 32, 32] with other [1, 16, 1, 1] is implemented "
                     "for contiguous tensors only"));
}

}  // namespace
}  // namespace etns::portable
