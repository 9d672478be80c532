#include "kernels/cortex_m/mul/mul.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "runtime/core/crc32.h"
#include "tests/support/kernel_call.h"
#include "tests/support/rng.h"
#include "tests/support/shared_data.h"

namespace etns::cortex_m {
namespace {

using etns::testing::KernelCall;
using runtime::Error;
using runtime::ScalarType;

const runtime::KernelEntry kEntry = runtime::kernel_entry(kMulContract, &mul_prepare, &mul_run);
constexpr runtime::Arg kSelf = kMulContract.arg("self");
constexpr runtime::Arg kOther = kMulContract.arg("other");
constexpr runtime::Arg kOut = kMulContract.out();

const std::vector<int32_t> kImage = {1, 16, 32, 32};
const std::vector<uint8_t> kNhwc = {0, 2, 3, 1};

// tier1_arm c0i3 (operators.md §2.5).
struct Args {
  int64_t self_zero_point = -39;
  int64_t other_zero_point = -128;
  int64_t out_zero_point = -113;
  int64_t multiplier = 1084628855;
  int64_t shift = -6;
};

// Appends the whole argument list to `call`.
void add_arguments(KernelCall& call, const Args& a, const std::vector<int32_t>& self_sizes,
                   const std::vector<int32_t>& other_sizes, const std::vector<int32_t>& out_sizes,
                   const std::vector<uint8_t>& self_dim_order = {},
                   const std::vector<uint8_t>& other_dim_order = {},
                   const std::vector<uint8_t>& out_dim_order = {}) {
  call.tensor(ScalarType::Char, self_sizes, self_dim_order)
      .int_value(a.self_zero_point)
      .tensor(ScalarType::Char, other_sizes, other_dim_order)
      .int_value(a.other_zero_point)
      .int_value(a.out_zero_point)
      .int_value(a.multiplier)
      .int_value(a.shift)
      .tensor(ScalarType::Char, out_sizes, out_dim_order);
}

// self[i] * other[i] through the kernel, 1-D.
std::vector<int8_t> mul(const Args& a, const std::vector<int8_t>& self,
                        const std::vector<int8_t>& other) {
  const int32_t n = static_cast<int32_t>(self.size());
  KernelCall call;
  add_arguments(call, a, {n}, {n}, {n});
  EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kSelf, self);
  call.fill<int8_t>(kOther, other);
  EXPECT_EQ(call.run(), Error::Ok);
  return call.read<int8_t>(kOut);
}

// --- Reference against goldens and hand-worked cases ---

TEST(MulS8, SpecVectorsWithTier1Parameters) {
  const std::vector<int8_t> self = {-39, 0, 50, 127, -128, 10, 100};
  const std::vector<int8_t> other = {-128, 0, 50, 50, -128, -100, 50};
  EXPECT_EQ(mul(Args{}, self, other), (std::vector<int8_t>{-113, -74, 12, 120, -113, -102, 82}));
}

// Row = self + 128, column = other + 128, as operators.md §2.5 tabulates it.
TEST(MulS8, FullTableCrcWithTier1Parameters) {
  std::vector<int8_t> self(256 * 256), other(256 * 256);
  for (int row = 0; row < 256; ++row) {
    for (int column = 0; column < 256; ++column) {
      self[row * 256 + column] = static_cast<int8_t>(row - 128);
      other[row * 256 + column] = static_cast<int8_t>(column - 128);
    }
  }
  const std::vector<int8_t> table = mul(Args{}, self, other);
  EXPECT_EQ(etns::runtime::crc32(table.data(), table.size()), 0x653e1013u);
}

// ns-cmsis-nn's Helium kernel gives -128 here (16-bit wrap); upstream and we give 127.
TEST(MulS8, ProviderDifferenceProbeSaturatesLikeUpstream) {
  Args a;
  a.self_zero_point = -128;
  a.other_zero_point = -128;
  a.out_zero_point = 10;
  a.multiplier = int64_t{1} << 30;
  a.shift = 1;
  EXPECT_EQ(mul(a, {127}, {127}), std::vector<int8_t>{127});
}

TEST(MulS8, ShiftsAtTheEndsOfTheRange) {
  Args a;
  a.self_zero_point = -128;
  a.other_zero_point = -128;
  a.out_zero_point = -5;
  a.multiplier = int64_t{1} << 30;
  // 65025 * 0.5 = 32512.5 rounds up to 32513, then / 2^31 rounds to 0.
  a.shift = -31;
  EXPECT_EQ(mul(a, {127, -128}, {127, 127}), (std::vector<int8_t>{-5, -5}));
  // 65025 * 2^30 wraps to 2^30 and -65025 * 2^30 to -2^30, as in CMSIS-NN.
  a.self_zero_point = 127;
  a.shift = 30;
  EXPECT_EQ(mul(a, {-128}, {127}), std::vector<int8_t>{-128});
  a.self_zero_point = -128;
  EXPECT_EQ(mul(a, {127}, {127}), std::vector<int8_t>{127});
  // Multiplier 0 leaves only the output zero point.
  a.multiplier = 0;
  EXPECT_EQ(mul(a, {127, 0}, {127, -100}), (std::vector<int8_t>{-5, -5}));
}

// 2 * 2^30 wraps to INT32_MIN, requantizes to -2147483647, and adding -128 in
// 32 bits wraps to a large positive value: upstream's int32 add gives 127.
TEST(MulS8, OutputOffsetAddWrapsIn32BitsLikeUpstream) {
  Args a;
  a.self_zero_point = 0;
  a.other_zero_point = 0;
  a.out_zero_point = -128;
  a.multiplier = INT32_MAX;
  a.shift = 30;
  EXPECT_EQ(mul(a, {2}, {1}), std::vector<int8_t>{127});
}

// out[p, c] = f(full[p, c], per_channel[c]); the same as the identical-size
// kernel on the per-channel operand repeated per pixel.
TEST(MulS8, ChannelBroadcastOnEitherSide) {
  etns::testing::Rng rng(11);
  const int32_t channels = 5;
  const std::vector<int32_t> full_sizes = {1, channels, 3, 2};
  const std::vector<int32_t> small_sizes = {1, channels, 1, 1};
  const size_t n = 30;
  const std::vector<int8_t> full = etns::testing::random_s8(rng, n);
  const std::vector<int8_t> small = etns::testing::random_s8(rng, channels);
  std::vector<int8_t> small_repeated(n);
  for (size_t i = 0; i < n; ++i) small_repeated[i] = small[i % channels];
  Args a;
  a.self_zero_point = 17;
  a.other_zero_point = -90;
  a.out_zero_point = 3;
  a.multiplier = 1500000000;
  a.shift = -7;

  for (bool small_is_self : {false, true}) {
    KernelCall call;
    if (small_is_self) {
      add_arguments(call, a, small_sizes, full_sizes, full_sizes, {}, kNhwc, kNhwc);
    } else {
      add_arguments(call, a, full_sizes, small_sizes, full_sizes, kNhwc, {}, kNhwc);
    }
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    call.fill<int8_t>(small_is_self ? kSelf : kOther, small);
    call.fill<int8_t>(small_is_self ? kOther : kSelf, full);
    ASSERT_EQ(call.run(), Error::Ok);
    const std::vector<int8_t> want =
        small_is_self ? mul(a, small_repeated, full) : mul(a, full, small_repeated);
    EXPECT_EQ(call.read<int8_t>(kOut), want) << "small_is_self = " << small_is_self;
  }
}

// tier1_arm c0i3: conv1 output (self) times the minimum's output (other).
TEST(MulS8, MatchesUpstreamGoldens) {
  ETNS_REQUIRE_SHARED(shared);
  for (const char* id : {"A", "B", "C"}) {
    const std::string prefix = shared + "/golden/tier1_arm." + id + ".";
    const std::vector<uint8_t> self = etns::testing::read_file(prefix + "c0i1.bin");
    const std::vector<uint8_t> other = etns::testing::read_file(prefix + "c0i2.bin");
    const std::vector<uint8_t> want = etns::testing::read_file(prefix + "c0i3.bin");
    KernelCall call;
    add_arguments(call, Args{}, kImage, kImage, kImage, kNhwc, kNhwc, kNhwc);
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    ASSERT_EQ(self.size(), call.tensor_at(kSelf).nbytes);
    ASSERT_EQ(other.size(), call.tensor_at(kOther).nbytes);
    ASSERT_EQ(want.size(), call.tensor_at(kOut).nbytes);
    std::memcpy(call.data<int8_t>(kSelf), self.data(), self.size());
    std::memcpy(call.data<int8_t>(kOther), other.data(), other.size());
    ASSERT_EQ(call.run(), Error::Ok);
    EXPECT_EQ(std::memcmp(call.data<int8_t>(kOut), want.data(), want.size()), 0) << id;
  }
}

// --- prepare rejects what the kernel does not accept ---

void expect_rejected(KernelCall& call, Error code, const std::string& message) {
  EXPECT_EQ(call.prepare(kEntry), code);
  EXPECT_NE(call.log().find("c0i0 cortex_m::quantized_mul.out: " + message), std::string::npos)
      << "log: " << call.log();
}

void expect_rejected(const Args& a, Error code, const std::string& message) {
  KernelCall call;
  add_arguments(call, a, {8}, {8}, {8});
  expect_rejected(call, code, message);
}

TEST(MulPrepare, RejectsOutOfRangeShiftsMultipliersAndZeroPoints) {
  Args a;
  a.shift = 31;  // errata: rejected although upstream accepts it
  expect_rejected(a, Error::InvalidArgument, "output_shift = 31, expected [-31, 30]");
  a.shift = -32;
  expect_rejected(a, Error::InvalidArgument, "output_shift = -32, expected [-31, 30]");
  a = Args{};
  a.multiplier = -1;
  expect_rejected(a, Error::InvalidArgument, "output_multiplier = -1, expected [0, 2147483647]");
  a.multiplier = int64_t{1} << 31;
  expect_rejected(a, Error::InvalidArgument,
                  "output_multiplier = 2147483648, expected [0, 2147483647]");
  a = Args{};
  a.self_zero_point = 128;
  expect_rejected(a, Error::InvalidArgument, "self_zero_point = 128, expected [-128, 127]");
  a = Args{};
  a.other_zero_point = -129;
  expect_rejected(a, Error::InvalidArgument, "other_zero_point = -129, expected [-128, 127]");
  a = Args{};
  a.out_zero_point = 200;
  expect_rejected(a, Error::InvalidArgument, "output_zero_point = 200, expected [-128, 127]");
}

TEST(MulPrepare, AcceptsTheEndsOfEveryRange) {
  for (const Args& a : {Args{-128, 127, -128, 0, -31}, Args{127, -128, 127, INT32_MAX, 30}}) {
    KernelCall call;
    add_arguments(call, a, {8}, {8}, {8});
    EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  }
}

TEST(MulPrepare, RejectsWrongKindOfArgument) {
  KernelCall call;
  call.tensor(ScalarType::Char, {4})
      .int_value(0)
      .tensor(ScalarType::Char, {4})
      .int_value(0)
      .int_value(0)
      .int_value(1 << 30)
      .double_value(-6.0)  // output_shift must be an Int
      .tensor(ScalarType::Char, {4});
  expect_rejected(call, Error::InvalidProgram, "argument 6 (output_shift) is Double, expected Int");
}

TEST(MulPrepare, RejectsWrongDtypes) {
  for (const runtime::Arg wrong : {kSelf, kOther, kOut}) {
    KernelCall call;
    const std::vector<int32_t> sizes = {4};
    call.tensor(wrong.index == kSelf.index ? ScalarType::Short : ScalarType::Char, sizes)
        .int_value(0)
        .tensor(wrong.index == kOther.index ? ScalarType::Byte : ScalarType::Char, sizes)
        .int_value(0)
        .int_value(0)
        .int_value(1 << 30)
        .int_value(0)
        .tensor(wrong.index == kOut.index ? ScalarType::Float : ScalarType::Char, sizes);
    const char* message = wrong.index == kSelf.index    ? "self dtype int16, expected int8"
                          : wrong.index == kOther.index ? "other dtype uint8, expected int8"
                                                        : "out dtype float32, expected int8";
    expect_rejected(call, Error::InvalidArgument, message);
  }
}

TEST(MulPrepare, RejectsShapesThatAreNeitherIdenticalNorAChannelBroadcast) {
  KernelCall call;
  add_arguments(call, Args{}, {1, 4, 2, 2}, {1, 4, 2, 1}, {1, 4, 2, 2});
  expect_rejected(call, Error::InvalidArgument,
                  "self [1, 4, 2, 2] and other [1, 4, 2, 1] differ in shape and are not a "
                  "channel broadcast");
  KernelCall other_channels;
  add_arguments(other_channels, Args{}, {1, 4, 2, 2}, {1, 2, 1, 1}, {1, 4, 2, 2});
  expect_rejected(other_channels, Error::InvalidArgument,
                  "self [1, 4, 2, 2] and other [1, 2, 1, 1] differ in shape");
  KernelCall rank3;
  add_arguments(rank3, Args{}, {4, 2, 2}, {4, 1, 1}, {4, 2, 2});
  expect_rejected(rank3, Error::InvalidArgument,
                  "self [4, 2, 2] and other [4, 1, 1] differ in shape");
}

TEST(MulPrepare, RejectsAnOutOfAnotherShapeOrLayout) {
  KernelCall sizes;
  add_arguments(sizes, Args{}, {8}, {8}, {4, 2});
  expect_rejected(sizes, Error::InvalidArgument, "out [4, 2] and self [8] differ in shape");
  KernelCall orders;
  add_arguments(orders, Args{}, {1, 4, 2, 2}, {1, 4, 2, 2}, {1, 4, 2, 2}, kNhwc, {}, kNhwc);
  expect_rejected(orders, Error::InvalidArgument, "self and other have different dim orders");
  KernelCall broadcast_out;
  add_arguments(broadcast_out, Args{}, {1, 4, 1, 1}, {1, 4, 2, 2}, {1, 4, 2, 1}, {}, kNhwc, kNhwc);
  expect_rejected(broadcast_out, Error::InvalidArgument,
                  "out [1, 4, 2, 1] and other [1, 4, 2, 2] differ in shape");
}

TEST(MulPrepare, RejectsAChannelBroadcastOutsideNhwcMemory) {
  KernelCall call;
  add_arguments(call, Args{}, {1, 4, 2, 2}, {1, 4, 1, 1}, {1, 4, 2, 2});
  expect_rejected(call, Error::NotSupported,
                  "channel broadcast needs self and out in NHWC memory order");
  // Contiguous is NHWC in memory when H = W = 1 or C = 1.
  KernelCall single_channel;
  add_arguments(single_channel, Args{}, {1, 1, 2, 2}, {1, 1, 1, 1}, {1, 1, 2, 2});
  EXPECT_EQ(single_channel.prepare(kEntry), Error::Ok) << single_channel.log();
}

}  // namespace
}  // namespace etns::cortex_m
