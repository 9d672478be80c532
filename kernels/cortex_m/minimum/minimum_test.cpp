#include "kernels/cortex_m/minimum/minimum.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "tests/support/kernel_call.h"
#include "tests/support/rng.h"
#include "tests/support/shared_data.h"

namespace etns::cortex_m {
namespace {

using etns::testing::KernelCall;
using runtime::Error;
using runtime::ScalarType;

const runtime::KernelEntry kEntry{"cortex_m::minimum.out", 3, &minimum_prepare, &minimum_run};

const std::vector<int32_t> kImage = {1, 16, 32, 32};
const std::vector<uint8_t> kNhwc = {0, 2, 3, 1};

// --- Reference against goldens and hand-worked cases ---

TEST(MinimumS8, IdenticalShapes) {
  KernelCall call;
  call.tensor(ScalarType::Char, {2, 3})
      .tensor(ScalarType::Char, {2, 3})
      .tensor(ScalarType::Char, {2, 3});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(0, {-128, 127, 0, 5, -5, 127});
  call.fill<int8_t>(1, {127, -128, 0, -5, 5, 127});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(2), (std::vector<int8_t>{-128, -128, 0, -5, -5, 127}));
}

TEST(MinimumS8, BroadcastsAOneElementOperandEitherSide) {
  for (bool scalar_is_self : {false, true}) {
    KernelCall call;
    if (scalar_is_self) {
      call.tensor(ScalarType::Char, {}).tensor(ScalarType::Char, {1, 4, 1, 1});
    } else {
      call.tensor(ScalarType::Char, {1, 4, 1, 1}).tensor(ScalarType::Char, {1});
    }
    call.tensor(ScalarType::Char, {1, 4, 1, 1});
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    call.fill<int8_t>(scalar_is_self ? 0 : 1, {50});
    call.fill<int8_t>(scalar_is_self ? 1 : 0, {-128, 49, 50, 127});
    ASSERT_EQ(call.run(), Error::Ok);
    EXPECT_EQ(call.read<int8_t>(2), (std::vector<int8_t>{-128, 49, 50, 50}))
        << "scalar_is_self = " << scalar_is_self;
  }
}

TEST(MinimumS8, ReferenceIsTheElementwiseMin) {
  etns::testing::Rng rng(7);
  const std::vector<int8_t> a = etns::testing::random_s8(rng, 1000);
  const std::vector<int8_t> b = etns::testing::random_s8(rng, 1000);
  std::vector<int8_t> out(1000);
  minimum_s8_ref(MinimumParams{}, a.data(), b.data(), out.data(), out.size());
  for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], std::min(a[i], b[i])) << i;
}

// tier1_arm c0i2: min(conv1 output, 0-dim constant 50), channels_last.
TEST(MinimumS8, MatchesUpstreamGoldens) {
  ETNS_REQUIRE_SHARED(shared);
  for (const char* id : {"A", "B", "C"}) {
    const std::string prefix = shared + "/golden/tier1_arm." + id + ".";
    const std::vector<uint8_t> input = etns::testing::read_file(prefix + "c0i1.bin");
    const std::vector<uint8_t> want = etns::testing::read_file(prefix + "c0i2.bin");
    KernelCall call;
    call.tensor(ScalarType::Char, kImage, kNhwc)
        .tensor(ScalarType::Char, {})
        .tensor(ScalarType::Char, kImage, kNhwc);
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    ASSERT_EQ(input.size(), call.tensor_at(0).nbytes);
    ASSERT_EQ(want.size(), call.tensor_at(2).nbytes);
    std::memcpy(call.data<int8_t>(0), input.data(), input.size());
    call.fill<int8_t>(1, {50});
    ASSERT_EQ(call.run(), Error::Ok);
    EXPECT_EQ(std::memcmp(call.data<int8_t>(2), want.data(), want.size()), 0) << id;
  }
}

// --- prepare rejects what the kernel does not accept ---

struct Shapes {
  std::vector<int32_t> self = {1, 4, 2, 2};
  std::vector<int32_t> other = {};
  std::vector<int32_t> out = {1, 4, 2, 2};
  std::vector<uint8_t> self_dim_order = {};
  std::vector<uint8_t> other_dim_order = {};
  std::vector<uint8_t> out_dim_order = {};
  ScalarType self_dtype = ScalarType::Char;
  ScalarType other_dtype = ScalarType::Char;
  ScalarType out_dtype = ScalarType::Char;
};

void expect_rejected(const Shapes& s, Error code, const std::string& message) {
  KernelCall call;
  call.tensor(s.self_dtype, s.self, s.self_dim_order)
      .tensor(s.other_dtype, s.other, s.other_dim_order)
      .tensor(s.out_dtype, s.out, s.out_dim_order);
  EXPECT_EQ(call.prepare(kEntry), code);
  EXPECT_NE(call.log().find("c0i0 cortex_m::minimum.out: " + message), std::string::npos)
      << "log: " << call.log();
}

TEST(MinimumPrepare, RejectsWrongDtypes) {
  Shapes s;
  s.self_dtype = ScalarType::Float;
  expect_rejected(s, Error::InvalidArgument, "self dtype float32, expected int8");
  s = Shapes{};
  s.other_dtype = ScalarType::Byte;
  expect_rejected(s, Error::InvalidArgument, "other dtype uint8, expected int8");
  s = Shapes{};
  s.out_dtype = ScalarType::Int;
  expect_rejected(s, Error::InvalidArgument, "out dtype int32, expected int8");
}

TEST(MinimumPrepare, RejectsWrongKindOfArgument) {
  KernelCall call;
  call.tensor(ScalarType::Char, {4}).int_value(50).tensor(ScalarType::Char, {4});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidProgram);
  EXPECT_NE(call.log().find("argument 1 (other) is Int, expected Tensor"), std::string::npos)
      << call.log();
}

TEST(MinimumPrepare, RejectsGeneralBroadcasting) {
  Shapes s;
  s.other = {1, 4, 1, 1};
  expect_rejected(s, Error::NotSupported,
                  "self [1, 4, 2, 2] and other [1, 4, 1, 1]: broadcasting is supported only");
}

TEST(MinimumPrepare, RejectsAnOutOfAnotherShapeOrLayout) {
  Shapes s;
  s.out = {1, 4, 4, 1};
  expect_rejected(s, Error::InvalidArgument,
                  "out [1, 4, 4, 1] and self [1, 4, 2, 2] differ in shape");
  s = Shapes{};
  s.self = {};
  s.other = {1, 4, 2, 2};
  s.out = {1, 4, 2};
  expect_rejected(s, Error::InvalidArgument,
                  "out [1, 4, 2] and other [1, 4, 2, 2] differ in shape");
  s = Shapes{};
  s.out_dim_order = {0, 2, 3, 1};
  expect_rejected(s, Error::InvalidArgument, "out and self have different dim orders");
  s = Shapes{};
  s.other = {1, 4, 2, 2};
  s.other_dim_order = {0, 2, 3, 1};
  expect_rejected(s, Error::InvalidArgument, "self and other have different dim orders");
}

}  // namespace
}  // namespace etns::cortex_m
