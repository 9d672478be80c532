#include <gtest/gtest.h>

#include <vector>

#include "kernels/portable/clone/clone.h"
#include "tests/support/kernel_call.h"

namespace etns::portable {
namespace {

using runtime::Error;
using runtime::ScalarType;
using testing::KernelCall;
using testing::logged;

const runtime::KernelEntry kEntry =
    runtime::kernel_entry(kCloneContract, &clone_prepare, &clone_run);
constexpr runtime::Arg kSelf = kCloneContract.arg("self");
constexpr runtime::Arg kOut = kCloneContract.out();
const std::vector<uint8_t> kChannelsLast{0, 2, 3, 1};

TEST(Clone, CopiesEveryByteInAnyLayout) {
  for (const bool with_format : {false, true}) {
    KernelCall call;
    call.tensor(ScalarType::Char, {1, 3, 2, 2}, kChannelsLast);
    if (with_format) {
      call.int_value(0);
    } else {
      call.null();
    }
    call.tensor(ScalarType::Char, {1, 3, 2, 2}, kChannelsLast);
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    const std::vector<int8_t> in{-128, 127, 0, 1, -1, 5, 6, 7, 8, 9, 10, 11};
    call.fill<int8_t>(kSelf, in);
    ASSERT_EQ(call.run(), Error::Ok);
    EXPECT_EQ(call.read<int8_t>(kOut), in);
  }
}

// A hostile program may plan self and out overlapping: the copy is then a
// move (self's bytes as they were), never undefined behaviour.
TEST(Clone, OverlappingSelfAndOutMoveTheBytes) {
  KernelCall call;
  call.tensor(ScalarType::Char, {12}).null().tensor(ScalarType::Char, {12});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  std::vector<int8_t> storage(16);
  for (size_t i = 0; i < storage.size(); ++i) storage[i] = static_cast<int8_t>(i);
  call.tensor_at(kSelf).data = storage.data();
  call.tensor_at(kOut).data = storage.data() + 4;
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(std::vector<int8_t>(storage.begin() + 4, storage.end()),
            (std::vector<int8_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
}

TEST(Clone, RefusesAnotherShapeDtypeLayoutOrFormat) {
  {
    KernelCall call;
    call.tensor(ScalarType::Char, {2, 3}).null().tensor(ScalarType::Char, {3, 2});
    EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
    EXPECT_TRUE(logged(call, "differ in shape")) << call.log();
  }
  {
    KernelCall call;
    call.tensor(ScalarType::Char, {2, 3}).null().tensor(ScalarType::Int, {2, 3});
    EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
    EXPECT_TRUE(logged(call, "out dtype")) << call.log();
  }
  {
    KernelCall call;
    call.tensor(ScalarType::Char, {1, 3, 2, 2}).null().tensor(ScalarType::Char, {1, 3, 2, 2}, kChannelsLast);
    EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
    EXPECT_TRUE(logged(call, "self has dim order [0, 1, 2, 3] and out [0, 2, 3, 1]")) << call.log();
  }
  {
    // Equal dim orders that are neither the default nor channels_last.
    KernelCall call;
    call.tensor(ScalarType::Char, {2, 3}, {1, 0}).null().tensor(ScalarType::Char, {2, 3}, {1, 0});
    EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
    EXPECT_TRUE(logged(call, "expected both the default or both channels_last")) << call.log();
  }
  {
    // Upstream takes only contiguous: preserve (1) is refused.
    KernelCall call;
    call.tensor(ScalarType::Char, {2, 3}).int_value(1).tensor(ScalarType::Char, {2, 3});
    EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
    EXPECT_TRUE(logged(call, "memory_format = 1, expected None or 0 (contiguous)")) << call.log();
  }
  {
    KernelCall call;
    call.tensor(ScalarType::Char, {2, 3}).int_value(2).tensor(ScalarType::Char, {2, 3});
    EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
    EXPECT_TRUE(logged(call, "memory_format = 2")) << call.log();
  }
}

}  // namespace
}  // namespace etns::portable
