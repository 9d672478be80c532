#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "kernels/portable/view_copy/view_copy.h"
#include "tests/support/kernel_call.h"

namespace etns::portable {
namespace {

using runtime::Error;
using runtime::ScalarType;
using testing::KernelCall;
using testing::logged;

const runtime::KernelEntry kEntry =
    runtime::kernel_entry(kViewCopyContract, &view_copy_prepare, &view_copy_run);
constexpr runtime::Arg kSelf = kViewCopyContract.arg("self");
constexpr runtime::Arg kOut = kViewCopyContract.out();
const std::vector<uint8_t> kChannelsLast{0, 2, 3, 1};

TEST(ViewCopy, FlattensAndKeepsEveryByte) {
  // A global pool's [1, 64, 1, 1] int8 output flattened for a linear layer.
  KernelCall call;
  call.tensor(ScalarType::Char, {1, 64, 1, 1}).int_list({1, -1}).tensor(ScalarType::Char, {1, 64});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  std::vector<int8_t> in(64);
  std::iota(in.begin(), in.end(), int8_t{-32});
  call.fill<int8_t>(kSelf, in);
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), in);
}

TEST(ViewCopy, MovesAnyDtype) {
  KernelCall call;
  call.tensor(ScalarType::Float, {2, 3}).int_list({3, 2}).tensor(ScalarType::Float, {3, 2});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<float>(kSelf, {1.5f, -2.0f, 3.25f, 0.0f, -0.0f, 7.0f});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<float>(kOut), (std::vector<float>{1.5f, -2.0f, 3.25f, 0.0f, -0.0f, 7.0f}));
}

// Upstream refuses a self or out outside the default dim order, even a
// channels_last [1, 64, 1, 1] global pool output whose bytes are row-major, and
// a size-1 dim moved in the order ([1, 0] on [1, 16]).
TEST(ViewCopy, RefusesAnyDimOrderButTheDefault) {
  struct Case {
    std::vector<int32_t> self_sizes;
    std::vector<uint8_t> self_order;
    std::vector<int64_t> size;
    std::vector<int32_t> out_sizes;
    std::vector<uint8_t> out_order;
    const char* message;
  };
  const Case cases[] = {
      {{1, 64, 1, 1}, kChannelsLast, {1, 64}, {1, 64}, {}, "self has dim order [0, 2, 3, 1], expected the default"},
      {{1, 1, 4, 4}, kChannelsLast, {16}, {16}, {}, "self has dim order [0, 2, 3, 1], expected the default"},
      {{1, 16}, {1, 0}, {16}, {16}, {}, "self has dim order [1, 0], expected the default"},
      {{16}, {}, {4, 4}, {4, 4}, {1, 0}, "out has dim order [1, 0], expected the default"},
      {{16}, {}, {1, 16, 1, 1}, {1, 16, 1, 1}, kChannelsLast, "out has dim order [0, 2, 3, 1], expected the default"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    KernelCall call;
    call.tensor(ScalarType::Char, c.self_sizes, c.self_order).int_list(c.size).tensor(ScalarType::Char, c.out_sizes, c.out_order);
    EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
    EXPECT_TRUE(logged(call, c.message)) << call.log();
  }
}

TEST(ViewCopy, RefusesWhatUpstreamRefuses) {
  struct Case {
    std::vector<int32_t> self_sizes;
    std::vector<uint8_t> self_order;
    std::vector<int64_t> size;
    std::vector<int32_t> out_sizes;
    ScalarType out_dtype;
    const char* message;
  };
  const Case cases[] = {
      {{2, 8}, {}, {4, 4}, {4, 4}, ScalarType::Float, "out dtype"},
      {{2, 8}, {}, {4, 5}, {4, 5}, ScalarType::Char, "self [2, 8] has 16 elements, size asks for 20"},
      {{2, 8}, {}, {-1, -1}, {4, 4}, ScalarType::Char, "size[1] = -1"},
      {{2, 8}, {}, {-1, 3}, {5, 3}, ScalarType::Char, "cannot make 16 elements"},
      {{2, 8}, {}, {4, 4}, {2, 8}, ScalarType::Char, "size[0] = 4, but out [2, 8]"},
      {{2, 8}, {}, {16}, {2, 8}, ScalarType::Char, "size has 1 entries, out has rank 2"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    KernelCall call;
    call.tensor(ScalarType::Char, c.self_sizes, c.self_order).int_list(c.size).tensor(c.out_dtype, c.out_sizes);
    EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
    EXPECT_TRUE(logged(call, c.message)) << call.log();
  }
}

}  // namespace
}  // namespace etns::portable
