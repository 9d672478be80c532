#include <gtest/gtest.h>

#include <vector>

#include "kernels/portable/to_dim_order_copy/to_dim_order_copy.h"
#include "tests/support/kernel_call.h"
#include "tests/support/rng.h"

namespace etns::portable {
namespace {

using runtime::Error;
using runtime::ScalarType;
using testing::KernelCall;
using testing::logged;
using testing::Rng;

const runtime::KernelEntry kEntry =
    runtime::kernel_entry(kToDimOrderCopyContract, &to_dim_order_copy_prepare,
                          &to_dim_order_copy_run);
constexpr runtime::Arg kSelf = kToDimOrderCopyContract.arg("self");
constexpr runtime::Arg kOut = kToDimOrderCopyContract.out();
const std::vector<uint8_t> kChannelsLast{0, 2, 3, 1};
const std::vector<uint8_t> kContiguous{0, 1, 2, 3};

// Element (n, c, h, w) of an [N, C, H, W] tensor in either memory order.
size_t at(const std::vector<int32_t>& s, bool channels_last, int n, int c, int h, int w) {
  return channels_last ? static_cast<size_t>(((n * s[2] + h) * s[3] + w) * s[1] + c)
                       : static_cast<size_t>(((n * s[1] + c) * s[2] + h) * s[3] + w);
}

TEST(ToDimOrderCopy, ConvertsBetweenContiguousAndChannelsLastBothWays) {
  Rng rng(7);
  for (const std::vector<int32_t>& sizes : {std::vector<int32_t>{1, 3, 2, 2}, {2, 17, 3, 5}, {1, 1, 4, 4}, {1, 16, 1, 1}}) {
    for (const bool to_channels_last : {true, false}) {
      SCOPED_TRACE(::testing::Message() << sizes[0] << "x" << sizes[1] << "x" << sizes[2] << "x" << sizes[3] << (to_channels_last ? " to NHWC" : " to NCHW"));
      KernelCall call;
      call.tensor(ScalarType::Char, sizes, to_channels_last ? kContiguous : kChannelsLast).bool_value(false);
      call.int_list(to_channels_last ? std::vector<int64_t>{0, 2, 3, 1} : std::vector<int64_t>{0, 1, 2, 3});
      call.tensor(ScalarType::Char, sizes, to_channels_last ? kChannelsLast : kContiguous);
      ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
      const std::vector<int8_t> self = testing::random_s8(rng, call.tensor_at(kSelf).numel);
      call.fill<int8_t>(kSelf, self);
      ASSERT_EQ(call.run(), Error::Ok);
      const std::vector<int8_t> out = call.read<int8_t>(kOut);
      for (int n = 0; n < sizes[0]; ++n) {
        for (int c = 0; c < sizes[1]; ++c) {
          for (int h = 0; h < sizes[2]; ++h) {
            for (int w = 0; w < sizes[3]; ++w) {
              ASSERT_EQ(out[at(sizes, to_channels_last, n, c, h, w)], self[at(sizes, !to_channels_last, n, c, h, w)])
                  << n << "," << c << "," << h << "," << w;
            }
          }
        }
      }
    }
  }
}

// None keeps self's dim order, channels_last included (a copy).
TEST(ToDimOrderCopy, NoneKeepsSelfsDimOrder) {
  KernelCall call;
  call.tensor(ScalarType::Char, {1, 3, 2, 2}, kChannelsLast).bool_value(false).null().tensor(ScalarType::Char, {1, 3, 2, 2}, kChannelsLast);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  const std::vector<int8_t> in{-128, 127, 0, 1, -1, 5, 6, 7, 8, 9, 10, 11};
  call.fill<int8_t>(kSelf, in);
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), in);
}

TEST(ToDimOrderCopy, SameLayoutIsACopy) {
  KernelCall call;
  call.tensor(ScalarType::Float, {3, 2}).bool_value(false).null().tensor(ScalarType::Float, {3, 2});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<float>(kSelf, {1, 2, 3, 4, 5, 6});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<float>(kOut), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

// The registry binds the aten:: spelling to the same contract and kernel; the
// log names the operator as the program spells it.
TEST(ToDimOrderCopy, AnswersToTheAtenSpelling) {
  const runtime::KernelEntry alias{"aten::_to_dim_order_copy.out", &kToDimOrderCopyContract,
                                   &to_dim_order_copy_prepare, &to_dim_order_copy_run};
  KernelCall call;
  call.tensor(ScalarType::Char, {2, 3}).bool_value(false).null().tensor(ScalarType::Char, {2, 3});
  ASSERT_EQ(call.prepare(alias), Error::Ok) << call.log();
  call.fill<int8_t>(kSelf, {1, 2, 3, -4, -5, -6});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{1, 2, 3, -4, -5, -6}));
  KernelCall bad;
  bad.tensor(ScalarType::Char, {2, 3}).bool_value(true).null().tensor(ScalarType::Char, {2, 3});
  EXPECT_EQ(bad.prepare(alias), Error::InvalidArgument);
  EXPECT_TRUE(logged(bad, "aten::_to_dim_order_copy.out: non_blocking = true")) << bad.log();
}

TEST(ToDimOrderCopy, RefusesWhatUpstreamRefusesAndSaysWhatThisBuildLacks) {
  {
    KernelCall call;
    call.tensor(ScalarType::Char, {1, 2, 2, 2}).bool_value(true).null().tensor(ScalarType::Char, {1, 2, 2, 2});
    EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
    EXPECT_TRUE(logged(call, "non_blocking = true")) << call.log();
  }
  {
    KernelCall call;
    call.tensor(ScalarType::Char, {1, 2, 2, 2}).bool_value(false).null().tensor(ScalarType::Char, {1, 2, 2, 2}, kChannelsLast);
    EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
    EXPECT_TRUE(logged(call, "dim_order is None (keep self's [0, 1, 2, 3]) but out has dim order [0, 2, 3, 1]"))
        << call.log();
  }
  {
    // None keeps self's dim order: channels_last to contiguous needs dim_order.
    KernelCall call;
    call.tensor(ScalarType::Char, {1, 2, 2, 2}, kChannelsLast).bool_value(false).null().tensor(ScalarType::Char, {1, 2, 2, 2});
    EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
    EXPECT_TRUE(logged(call, "dim_order is None (keep self's [0, 2, 3, 1]) but out has dim order [0, 1, 2, 3]"))
        << call.log();
  }
  {
    // A dtype outside upstream's REALHBBF16 set, even unconverted.
    KernelCall call;
    call.tensor(ScalarType::QInt8, {2, 2}).bool_value(false).null().tensor(ScalarType::QInt8, {2, 2});
    EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
    EXPECT_TRUE(logged(call, "self dtype qint8")) << call.log();
  }
  {
    KernelCall call;
    call.tensor(ScalarType::Char, {1, 2, 2, 2}).bool_value(false).int_list({0, 1, 2, 3}).tensor(ScalarType::Char, {1, 2, 2, 2}, kChannelsLast);
    EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
    EXPECT_TRUE(logged(call, "dim_order[1] = 1, out's is 2")) << call.log();
  }
  {
    KernelCall call;
    call.tensor(ScalarType::Char, {1, 2, 2, 2}).bool_value(false).null().tensor(ScalarType::Char, {1, 2, 4, 1});
    EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
    EXPECT_TRUE(logged(call, "differ in shape")) << call.log();
  }
  {
    KernelCall call;
    call.tensor(ScalarType::Char, {2, 2}).bool_value(false).null().tensor(ScalarType::Float, {2, 2});
    EXPECT_EQ(call.prepare(kEntry), Error::NotSupported);
    EXPECT_TRUE(logged(call, "without a dtype conversion")) << call.log();
  }
}

}  // namespace
}  // namespace etns::portable
