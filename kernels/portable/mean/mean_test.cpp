#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/portable/mean/mean.h"
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
    runtime::kernel_entry(kMeanContract, &mean_prepare, &mean_run);
constexpr runtime::Arg kSelf = kMeanContract.arg("self");
constexpr runtime::Arg kOut = kMeanContract.out();
const std::vector<int32_t> kTier1Sizes{1, 16, 32, 32};
const std::vector<uint8_t> kChannelsLast{0, 2, 3, 1};
constexpr uint64_t kSeed = 0x3ea4;

std::vector<uint32_t> all_bits(const std::vector<float>& values) {
  std::vector<uint32_t> out;
  for (float v : values) out.push_back(bits(v));
  return out;
}

size_t numel(const std::vector<int32_t>& sizes) {
  size_t n = 1;
  for (int32_t s : sizes) n *= static_cast<size_t>(s);
  return n;
}

// mean(self, dims, keepdim) on contiguous float32 data; the caller gives out's shape.
std::vector<float> run_mean(const std::vector<int32_t>& sizes, const std::vector<float>& in,
                            const std::vector<int64_t>& dims, bool keepdim,
                            const std::vector<int32_t>& out_sizes) {
  KernelCall call;
  call.tensor(ScalarType::Float, sizes)
      .int_list(dims)
      .bool_value(keepdim)
      .null()
      .tensor(ScalarType::Float, out_sizes);
  EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<float>(kSelf, in);
  EXPECT_EQ(call.run(), Error::Ok);
  return call.read<float>(kOut);
}

// The §4.4 definition, the slow obvious way: walking the input in memory order
// meets each output's elements in row-major order of the reduced dims.
std::vector<float> mean_reference(const std::vector<int32_t>& sizes, const std::vector<float>& in,
                                  const std::vector<bool>& reduced) {
  size_t out_numel = 1;
  size_t count = 1;
  for (size_t d = 0; d < sizes.size(); ++d) {
    (reduced[d] ? count : out_numel) *= static_cast<size_t>(sizes[d]);
  }
  std::vector<float> acc(out_numel);
  std::vector<bool> started(out_numel, false);
  for (size_t i = 0; i < in.size(); ++i) {
    size_t rest = i;
    size_t o = 0;
    size_t scale = 1;
    for (size_t d = sizes.size(); d-- > 0;) {
      const size_t coord = rest % static_cast<size_t>(sizes[d]);
      rest /= static_cast<size_t>(sizes[d]);
      if (!reduced[d]) {
        o += coord * scale;
        scale *= static_cast<size_t>(sizes[d]);
      }
    }
    acc[o] = started[o] ? acc[o] + in[i] : in[i];
    started[o] = true;
  }
  for (float& v : acc) v = v / static_cast<float>(count);
  return acc;
}

// tier1mean_arm c0i2: mean(c0i1, [2, 3], keepdim) over the contiguous input, bit for bit.
TEST(Mean, MatchesTier1MeanGoldens) {
  ETNS_REQUIRE_SHARED(shared);
  for (const char* input : {"A", "B", "C"}) {
    SCOPED_TRACE(input);
    const std::string prefix = shared + "/golden/tier1mean_arm." + input;
    const std::vector<uint8_t> self = testing::read_file(prefix + ".c0i1.bin");
    const std::vector<uint8_t> want = testing::read_file(prefix + ".c0i2.bin");

    KernelCall call;
    call.tensor(ScalarType::Float, kTier1Sizes)
        .int_list({2, 3})
        .bool_value(true)
        .null()
        .tensor(ScalarType::Float, {1, 16, 1, 1});
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    ASSERT_EQ(self.size(), call.tensor_at(kSelf).nbytes);
    ASSERT_EQ(want.size(), call.tensor_at(kOut).nbytes);
    std::memcpy(call.data<uint8_t>(kSelf), self.data(), self.size());
    ASSERT_EQ(call.run(), Error::Ok);
    EXPECT_EQ(std::memcmp(call.data<uint8_t>(kOut), want.data(), want.size()), 0);
  }
}

TEST(Mean, SequentialFloatSumRoundsAwayFromTheInput) {
  // §4.4: 1024 copies of the input scale do not average back to it.
  const float x = static_cast<float>(0.030633239075541496);
  const std::vector<float> got =
      run_mean({1, 1, 32, 32}, std::vector<float>(1024, x), {2, 3}, true, {1, 1, 1, 1});
  EXPECT_EQ(bits(got[0]), bits(static_cast<float>(0.030633531510829926)));
  EXPECT_NE(bits(got[0]), bits(x));
}

TEST(Mean, VisitsReducedDimsInRowMajorOrderWhateverTheListOrder) {
  // Row-major: ((1e8 + 1) - 1e8) + 1 = 1, mean 0.25. Column-major would give 0.5.
  const std::vector<float> in{1e8f, 1.0f, -1e8f, 1.0f};
  const std::vector<int64_t> orders[] = {{1, 2}, {2, 1}, {-1, -2}, {-2, 2}};
  for (const std::vector<int64_t>& dims : orders) {
    SCOPED_TRACE(::testing::PrintToString(dims));
    EXPECT_EQ(run_mean({1, 2, 2}, in, dims, false, {1}), std::vector<float>{0.25f});
  }
}

TEST(Mean, NegativeDimsEqualTheirPositiveForms) {
  testing::Rng rng(kSeed);
  std::vector<float> in(2 * 3 * 4 * 5);
  for (float& v : in) v = static_cast<float>(rng.unit() * 2.0 - 1.0);
  const std::vector<float> positive = run_mean({2, 3, 4, 5}, in, {2, 3}, false, {2, 3});
  EXPECT_EQ(all_bits(run_mean({2, 3, 4, 5}, in, {-2, -1}, false, {2, 3})), all_bits(positive));
  EXPECT_EQ(all_bits(run_mean({2, 3, 4, 5}, in, {-1, 2}, true, {2, 3, 1, 1})), all_bits(positive));
  EXPECT_EQ(all_bits(positive),
            all_bits(mean_reference({2, 3, 4, 5}, in, {false, false, true, true})));
}

struct ReduceCase {
  std::vector<int32_t> sizes;
  std::vector<int64_t> dims;
  std::vector<bool> reduced;
  std::vector<int32_t> out_sizes;  // keepdim = false
};

TEST(Mean, MatchesReferenceForStridedReductions) {
  const ReduceCase cases[] = {
      {{2, 3, 4}, {0, 2}, {true, false, true}, {3}},
      {{2, 3, 4}, {1}, {false, true, false}, {2, 4}},
      {{2, 3, 4}, {0}, {true, false, false}, {3, 4}},
      {{3, 4, 5, 6}, {3, 1}, {false, true, false, true}, {3, 5}},
      {{3, 1, 5, 1, 7}, {1, 2, 3}, {false, true, true, true, false}, {3, 7}},
      {{2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2},
       {0, 2, 4, 6, 8, 10, 12, 14},
       {true, false, true, false, true, false, true, false, true, false, true, false, true, false,
        true, false},
       {2, 2, 2, 2, 2, 2, 2, 2}},
      {{7, 9}, {0, 1}, {true, true}, {}},
  };
  testing::Rng rng(kSeed);
  for (const ReduceCase& c : cases) {
    SCOPED_TRACE(::testing::PrintToString(c.sizes) + " dims " + ::testing::PrintToString(c.dims));
    std::vector<float> in(numel(c.sizes));
    for (float& v : in) v = static_cast<float>(rng.unit() * 200.0 - 100.0);
    EXPECT_EQ(all_bits(run_mean(c.sizes, in, c.dims, false, c.out_sizes)),
              all_bits(mean_reference(c.sizes, in, c.reduced)));
  }
}

TEST(Mean, SignOfAZeroSumFollowsTheUpstreamPath) {
  // The general path seeds with x0 = -0.0 and keeps it; the single-innermost-dim
  // fast path seeds with +0.0, and +0.0 + -0.0 = +0.0.
  const std::vector<float> zeros(2 * 3 * 4, -0.0f);
  EXPECT_EQ(all_bits(run_mean({2, 3, 4}, zeros, {2}, false, {2, 3})),
            std::vector<uint32_t>(6, bits(0.0f)));
  EXPECT_EQ(all_bits(run_mean({2, 3, 4}, zeros, {-1}, true, {2, 3, 1})),
            std::vector<uint32_t>(6, bits(0.0f)));
  EXPECT_EQ(all_bits(run_mean({2, 3, 4}, zeros, {1, 2}, false, {2})),
            std::vector<uint32_t>(2, bits(-0.0f)));
  EXPECT_EQ(all_bits(run_mean({2, 3, 4}, zeros, {1}, false, {2, 4})),
            std::vector<uint32_t>(8, bits(-0.0f)));
  EXPECT_EQ(all_bits(run_mean({2, 3, 4}, zeros, {}, false, {})),
            std::vector<uint32_t>(1, bits(-0.0f)));
}

TEST(Mean, NullOrEmptyDimsReduceEverything) {
  const std::vector<float> in{1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f};
  KernelCall call;
  call.tensor(ScalarType::Float, {2, 3})
      .null()
      .bool_value(true)
      .null()
      .tensor(ScalarType::Float, {1, 1});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<float>(kSelf, in);
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<float>(kOut), std::vector<float>{3.5f});

  EXPECT_EQ(run_mean({2, 3}, in, {}, false, {}), std::vector<float>{3.5f});
}

TEST(Mean, ExplicitFloat32Dtype) {
  KernelCall call;
  call.tensor(ScalarType::Float, {2, 2})
      .int_list({1})
      .bool_value(false)
      .int_value(6)
      .tensor(ScalarType::Float, {2});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<float>(kSelf, {1.0f, 2.0f, -3.0f, -5.0f});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<float>(kOut), (std::vector<float>{1.5f, -4.0f}));
}

TEST(Mean, ZeroDimTensor) {
  KernelCall call;
  call.tensor(ScalarType::Float, {})
      .int_list({-1})
      .bool_value(true)
      .null()
      .tensor(ScalarType::Float, {});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<float>(kSelf, {-2.5f});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<float>(kOut), std::vector<float>{-2.5f});
}

TEST(Mean, EmptyReductionIsNan) {
  KernelCall call;
  call.tensor(ScalarType::Float, {2, 0})
      .int_list({1})
      .bool_value(false)
      .null()
      .tensor(ScalarType::Float, {2});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  ASSERT_EQ(call.run(), Error::Ok);
  // 0 / 0 as the canonical quiet NaN on every target (x86 would make it
  // 0xFFC00000, Arm 0x7FC00000).
  for (float v : call.read<float>(kOut)) {
    uint32_t b = 0;
    std::memcpy(&b, &v, sizeof(b));
    EXPECT_EQ(b, 0x7FC00000u);
  }
}

TEST(Mean, RejectsDuplicateDims) {
  KernelCall call;
  call.tensor(ScalarType::Float, kTier1Sizes)
      .int_list({3, -1})
      .bool_value(true)
      .null()
      .tensor(ScalarType::Float, {1, 16, 32, 1});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "c0i0 aten::mean.out: dim[1] = -1 repeats dim 3"));
}

TEST(Mean, RejectsDimsOutOfRange) {
  KernelCall call;
  call.tensor(ScalarType::Float, kTier1Sizes)
      .int_list({2, 4})
      .bool_value(true)
      .null()
      .tensor(ScalarType::Float, {1, 16, 1, 1});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "dim[1] = 4, expected [-4, 3]"));

  KernelCall negative;
  negative.tensor(ScalarType::Float, kTier1Sizes)
      .int_list({-5})
      .bool_value(true)
      .null()
      .tensor(ScalarType::Float, {1, 16, 1, 1});
  EXPECT_EQ(negative.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(negative, "dim[0] = -5, expected [-4, 3]"));
}

TEST(Mean, RejectsChannelsLastInput) {
  KernelCall call;
  call.tensor(ScalarType::Float, kTier1Sizes, kChannelsLast)
      .int_list({2, 3})
      .bool_value(true)
      .null()
      .tensor(ScalarType::Float, {1, 16, 1, 1}, kChannelsLast);
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "self must be contiguous (row-major in memory)"));
}

// Upstream wants self and out in the default dim order; an out whose size-1
// dims sit elsewhere ([1, 16, 1, 1] channels_last) holds the same bytes, so it
// is taken and gets the contiguous call's values.
TEST(Mean, TakesRowMajorOutInAnyDimOrder) {
  std::vector<float> in(16 * 32 * 32);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 97) * 0.25f - 7.0f;
  std::vector<float> want;
  for (const std::vector<uint8_t>& order : {std::vector<uint8_t>{}, kChannelsLast}) {
    KernelCall call;
    call.tensor(ScalarType::Float, kTier1Sizes)
        .int_list({2, 3})
        .bool_value(true)
        .null()
        .tensor(ScalarType::Float, {1, 16, 1, 1}, order);
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    call.fill<float>(kSelf, in);
    ASSERT_EQ(call.run(), Error::Ok);
    if (want.empty()) want = call.read<float>(kOut);
    EXPECT_EQ(call.read<float>(kOut), want);
  }
}

TEST(Mean, RejectsOutNotRowMajor) {
  KernelCall call;
  call.tensor(ScalarType::Float, {2, 3, 4})
      .int_list({2})
      .bool_value(false)
      .null()
      .tensor(ScalarType::Float, {2, 3}, {1, 0});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "out must be contiguous (row-major in memory)"));
}

TEST(Mean, RejectsWrongOutShape) {
  KernelCall call;
  call.tensor(ScalarType::Float, kTier1Sizes)
      .int_list({2, 3})
      .bool_value(true)
      .null()
      .tensor(ScalarType::Float, {1, 16});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "out shape [1, 16], expected [1, 16, 1, 1]"));
}

TEST(Mean, RejectsNonFloatingDtypeArgument) {
  KernelCall call;
  call.tensor(ScalarType::Float, {4})
      .int_list({0})
      .bool_value(false)
      .int_value(1)
      .tensor(ScalarType::Char, {});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "out dtype int8, expected float16, float32, float64 or bfloat16"));
  KernelCall float_out;
  float_out.tensor(ScalarType::Float, {4})
      .int_list({0})
      .bool_value(false)
      .int_value(1)
      .tensor(ScalarType::Float, {});
  EXPECT_EQ(float_out.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(float_out, "dtype int8, expected a floating type"));
}

TEST(Mean, RejectsDtypeDifferentFromOut) {
  KernelCall call;
  call.tensor(ScalarType::Float, {4})
      .int_list({0})
      .bool_value(false)
      .int_value(7)
      .tensor(ScalarType::Float, {});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "dtype float64 differs from out dtype float32"));
}

TEST(Mean, RejectsUnknownDtype) {
  KernelCall call;
  call.tensor(ScalarType::Float, {4})
      .int_list({0})
      .bool_value(false)
      .int_value(99)
      .tensor(ScalarType::Float, {});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "dtype = 99 names no ScalarType"));
}

TEST(Mean, RejectsIntegerSelfWithoutDtype) {
  KernelCall call;
  call.tensor(ScalarType::Char, {4})
      .int_list({0})
      .bool_value(false)
      .null()
      .tensor(ScalarType::Float, {});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "self dtype int8, expected a floating type"));
}

TEST(Mean, OtherFloatTypesAreNotImplemented) {
  KernelCall call;
  call.tensor(ScalarType::Double, {4})
      .int_list({0})
      .bool_value(false)
      .null()
      .tensor(ScalarType::Double, {});
  EXPECT_EQ(call.prepare(kEntry), Error::NotSupported);
  EXPECT_TRUE(logged(call, "only float32 is implemented"));
}

TEST(Mean, RejectsNonBoolKeepdim) {
  KernelCall call;
  call.tensor(ScalarType::Float, {4})
      .int_list({0})
      .int_value(1)
      .null()
      .tensor(ScalarType::Float, {});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidProgram);
  EXPECT_TRUE(logged(call, "(keepdim) is Int, expected Bool"));
}

}  // namespace
}  // namespace etns::portable
