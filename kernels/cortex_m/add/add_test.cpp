#include "kernels/cortex_m/add/add.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/kernel_call.h"
#include "tests/support/rng.h"

namespace etns::cortex_m {
namespace {

using etns::testing::KernelCall;
using runtime::Error;
using runtime::ScalarType;

const runtime::KernelEntry kEntry = runtime::kernel_entry(kAddContract, &add_prepare, &add_run);
constexpr runtime::Arg kSelf = kAddContract.arg("self");
constexpr runtime::Arg kOther = kAddContract.arg("other");
constexpr runtime::Arg kOut = kAddContract.out();
const std::vector<uint8_t> kNhwc = {0, 2, 3, 1};

// Inputs scaled by 1/2 (M = 2^30, S = 0: a' = (a - zp) * 2^19 exactly) and the
// output by 2^-19 (S = -18) or 2^-20 (S = -19): out = (a - zp_a) + (b - zp_b)
// + zp_out exactly, or that sum halved and rounded half away from zero.
struct Args {
  int64_t self_zero_point = 2;
  int64_t self_multiplier = 1 << 30;
  int64_t self_shift = 0;
  int64_t other_zero_point = -1;
  int64_t other_multiplier = 1 << 30;
  int64_t other_shift = 0;
  int64_t out_zero_point = 3;
  int64_t out_multiplier = 1 << 30;
  int64_t out_shift = -18;
  int64_t activation_min = -128;
  int64_t activation_max = 127;
};

void add_arguments(KernelCall& call, const Args& a, const std::vector<int32_t>& self_sizes,
                   const std::vector<int32_t>& other_sizes, const std::vector<int32_t>& out_sizes,
                   const std::vector<uint8_t>& full_dim_order = {}) {
  const bool self_full = self_sizes == out_sizes;
  const bool other_full = other_sizes == out_sizes;
  call.tensor(ScalarType::Char, self_sizes, self_full ? full_dim_order : std::vector<uint8_t>{})
      .int_value(a.self_zero_point)
      .int_value(a.self_multiplier)
      .int_value(a.self_shift)
      .tensor(ScalarType::Char, other_sizes, other_full ? full_dim_order : std::vector<uint8_t>{})
      .int_value(a.other_zero_point)
      .int_value(a.other_multiplier)
      .int_value(a.other_shift)
      .int_value(a.out_zero_point)
      .int_value(a.out_multiplier)
      .int_value(a.out_shift)
      .int_value(a.activation_min)
      .int_value(a.activation_max)
      .tensor(ScalarType::Char, out_sizes, full_dim_order);
}

std::vector<int8_t> add(const Args& a, const std::vector<int8_t>& self,
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

// out = (a - 2) + (b + 1) + 3, clamped to int8.
TEST(AddS8, ExactSumByHand) {
  EXPECT_EQ(add(Args{}, {10, 2, -128, 127, -100}, {-5, -1, -128, 127, -100}),
            (std::vector<int8_t>{7, 3, -128, 127, -128}));
  // 8 + (-4) + 3 = 7; 0 + 0 + 3; -130 - 127 + 3 -> -128; 125 + 128 + 3 -> 127; -102 - 99 + 3 ->
  // -128.
}

TEST(AddS8, ActivationRangeByHand) {
  Args a;
  a.activation_min = -10;
  a.activation_max = 10;
  EXPECT_EQ(add(a, {10, 2, -128, 127, 5}, {-5, -1, -128, 127, -3}),
            (std::vector<int8_t>{7, 3, -10, 10, 4}));
}

// The halved sum, rounded half away from zero at each requantisation.
TEST(AddS8, RoundsHalfAwayFromZeroByHand) {
  Args a;
  a.self_zero_point = 0;
  a.other_zero_point = 0;
  a.out_zero_point = 0;
  a.out_shift = -19;
  EXPECT_EQ(add(a, {1, -1, 3, -3, 0, 127}, {0, 0, 0, 0, 0, 127}),
            (std::vector<int8_t>{1, -1, 2, -2, 0, 127}));
}

// A channel broadcast on either side: out[p, c] = full[p, c] + vector[c],
// the full operand's quantization staying with it.
TEST(AddS8, ChannelBroadcastEitherSideByHand) {
  for (bool vector_is_self : {false, true}) {
    Args a;
    a.self_zero_point = vector_is_self ? 0 : 2;
    a.other_zero_point = vector_is_self ? 2 : 0;
    a.out_zero_point = 0;
    const std::vector<int32_t> full = {1, 3, 2, 1};
    const std::vector<int32_t> vector = {1, 3, 1, 1};
    KernelCall call;
    add_arguments(call, a, vector_is_self ? vector : full, vector_is_self ? full : vector, full,
                  kNhwc);
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    const runtime::Arg full_arg = vector_is_self ? kOther : kSelf;
    call.fill<int8_t>(full_arg, {12, 22, 32, 42, 52, 62});  // NHWC: two pixels of 3 channels
    call.fill<int8_t>(vector_is_self ? kSelf : kOther, {1, -1, 100});
    ASSERT_EQ(call.run(), Error::Ok);
    EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{11, 19, 127, 41, 49, 127}))
        << "vector_is_self = " << vector_is_self;
  }
}

// TFLite flushes an effective scale below 2^-32 to multiplier 0 (shift 0),
// and real models hold shifts down to -31: both are accepted and computed.
// With the default other and output quantization, out = (b + 1) + 3 once
// self's term vanishes; a vanishing output factor leaves the zero point.
TEST(AddS8, TakesMultiplierZeroAndShiftMinus31) {
  const std::vector<int8_t> self = {127, -128, 50, -50, 0, 1};
  const std::vector<int8_t> other = {10, -10, 100, -100, 0, 123};
  const std::vector<int8_t> other_only = {14, -6, 104, -96, 4, 127};
  Args a;
  a.self_multiplier = 0;
  EXPECT_EQ(add(a, self, other), other_only);
  a = Args{};
  a.self_multiplier = INT32_MAX;
  a.self_shift = -31;  // |(a - zp) * 2^20| < 2^28: rounds to 0 at 2^31
  EXPECT_EQ(add(a, self, other), other_only);
  a = Args{};
  a.out_multiplier = 0;
  EXPECT_EQ(add(a, self, other), std::vector<int8_t>(6, 3));
  a = Args{};
  a.out_shift = -31;
  EXPECT_EQ(add(a, self, other), std::vector<int8_t>(6, 3));
  a.out_multiplier = 0;
  a.self_multiplier = 0;
  a.other_shift = -31;
  EXPECT_EQ(add(a, self, other), std::vector<int8_t>(6, 3));
}

// Batches and channel counts around the tile, identical shapes: the exact-sum
// parameters turn the kernel into integer addition.
TEST(AddS8, IdenticalShapesAreElementwise) {
  etns::testing::Rng rng(51);
  for (int32_t c : {1, 16, 17, 33}) {
    const std::vector<int32_t> sizes = {2, c, 3, 5};
    KernelCall call;
    Args a;
    add_arguments(call, a, sizes, sizes, sizes, kNhwc);
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    const size_t n = call.tensor_at(kSelf).numel;
    const std::vector<int8_t> x = etns::testing::random_s8(rng, n);
    const std::vector<int8_t> y = etns::testing::random_s8(rng, n);
    call.fill<int8_t>(kSelf, x);
    call.fill<int8_t>(kOther, y);
    ASSERT_EQ(call.run(), Error::Ok);
    const std::vector<int8_t> got = call.read<int8_t>(kOut);
    for (size_t i = 0; i < n; ++i) {
      int v = (x[i] - 2) + (y[i] + 1) + 3;
      v = v < -128 ? -128 : (v > 127 ? 127 : v);
      ASSERT_EQ(got[i], v) << "c " << c << " i " << i;
    }
  }
}

// --- prepare rejects what the kernel does not accept ---

void expect_rejected(KernelCall& call, Error code, const std::string& message) {
  EXPECT_EQ(call.prepare(kEntry), code);
  EXPECT_NE(call.log().find("c0i0 cortex_m::quantized_add.out: " + message), std::string::npos)
      << "log: " << call.log();
}

TEST(AddPrepare, RejectsBadQuantization) {
  const std::vector<int32_t> s = {4};
  struct Case {
    Args args;
    const char* message;
  };
  std::vector<Case> cases(6);
  cases[0].args.self_zero_point = 128;
  cases[0].message = "self_zero_point = 128, expected [-128, 127]";
  cases[1].args.other_multiplier = -1;
  cases[1].message = "other_multiplier = -1, expected [0, 2147483647]";
  cases[2].args.out_shift = 31;
  cases[2].message = "output_shift = 31, expected [-31, 30]";
  cases[3].args.activation_min = -129;
  cases[3].message = "activation_min = -129, expected [-128, 127]";
  cases[4].args.activation_min = 5;
  cases[4].args.activation_max = 4;
  cases[4].message = "activation_max = 4, expected [5, 127]";
  cases[5].args.self_shift = -32;
  cases[5].message = "self_shift = -32, expected [-31, 30]";
  for (const Case& c : cases) {
    KernelCall call;
    add_arguments(call, c.args, s, s, s);
    expect_rejected(call, Error::InvalidArgument, c.message);
  }
}

TEST(AddPrepare, RejectsShapesUpstreamDoesNotPair) {
  KernelCall mismatch;
  add_arguments(mismatch, Args{}, {1, 4, 2, 2}, {1, 4, 2, 1}, {1, 4, 2, 2});
  expect_rejected(mismatch, Error::InvalidArgument,
                  "self [1, 4, 2, 2] and other [1, 4, 2, 1] differ in shape and are not a "
                  "channel broadcast");
  KernelCall contiguous;
  add_arguments(contiguous, Args{}, {1, 4, 2, 2}, {1, 4, 1, 1}, {1, 4, 2, 2});
  expect_rejected(contiguous, Error::NotSupported,
                  "channel broadcast needs self and out in NHWC memory order");
  KernelCall out_shape;
  add_arguments(out_shape, Args{}, {4}, {4}, {2, 2});
  expect_rejected(out_shape, Error::InvalidArgument, "out [2, 2] and self [4] differ in shape");
  KernelCall dtype;
  dtype.tensor(ScalarType::Char, {4})
      .int_value(0)
      .int_value(1 << 30)
      .int_value(0)
      .tensor(ScalarType::Float, {4})
      .int_value(0)
      .int_value(1 << 30)
      .int_value(0)
      .int_value(0)
      .int_value(1 << 30)
      .int_value(0)
      .int_value(-128)
      .int_value(127)
      .tensor(ScalarType::Char, {4});
  expect_rejected(dtype, Error::InvalidArgument, "other dtype float32, expected int8");
}

}  // namespace
}  // namespace etns::cortex_m
