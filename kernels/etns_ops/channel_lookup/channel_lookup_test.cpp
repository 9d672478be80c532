#include "kernels/etns_ops/channel_lookup/channel_lookup.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tests/support/kernel_call.h"

namespace etns::etns_ops {
namespace {

using runtime::Error;
using runtime::ScalarType;
using testing::KernelCall;

const runtime::KernelEntry kEntry =
    runtime::kernel_entry(kChannelLookupContract, &channel_lookup_prepare, &channel_lookup_run);

constexpr runtime::Arg kSelf = kChannelLookupContract.arg("self");
constexpr runtime::Arg kTables = kChannelLookupContract.arg("tables");
constexpr runtime::Arg kOut = kChannelLookupContract.out();

struct Args {
  std::vector<int32_t> sizes;
  std::vector<uint8_t> order;  // empty: contiguous
  int64_t dim;
  int32_t tables;  // table count
  std::vector<int32_t> out_sizes;  // empty: sizes
  bool constant = true;
};

// Table c maps code q to q * (c + 1) + c, wrapped to int8.
std::vector<int8_t> tables_of(int32_t count) {
  std::vector<int8_t> t;
  for (int32_t c = 0; c < count; ++c) {
    for (int32_t b = 0; b < 256; ++b) {
      const int32_t q = static_cast<int8_t>(static_cast<uint8_t>(b));
      t.push_back(static_cast<int8_t>(static_cast<uint8_t>(q * (c + 1) + c)));
    }
  }
  return t;
}

void build(KernelCall& call, const Args& a) {
  call.tensor(ScalarType::Char, a.sizes, a.order);
  call.tensor(ScalarType::Char, {a.tables, 256});
  call.int_value(a.dim);
  call.tensor(ScalarType::Char, a.out_sizes.empty() ? a.sizes : a.out_sizes, a.order);
  call.tensor_at(kTables).is_constant = a.constant;
  call.fill<int8_t>(kTables, tables_of(a.tables));
}

TEST(ChannelLookup, HandWorkedRowMajor) {
  Args a{{2, 3}, {}, 1, 3, {}};
  KernelCall call;
  build(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kSelf, {1, 1, 1, -128, 127, -2});
  ASSERT_EQ(call.run(), Error::Ok);
  // channel 0: q, channel 1: 2q + 1, channel 2: 3q + 2 (wrapped).
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{1, 3, 5, -128, -1, -4}));
}

// A channels_last 4-D tensor: logical [N, C, H, W], channels innermost.
TEST(ChannelLookup, ChannelsLastTensorUsesDimOne) {
  Args a{{2, 5, 3, 2}, {0, 2, 3, 1}, 1, 5, {}};
  KernelCall call;
  build(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  const size_t n = 2 * 5 * 3 * 2;
  std::vector<int8_t> x(n);
  for (size_t i = 0; i < n; ++i) x[i] = static_cast<int8_t>(static_cast<uint8_t>(i * 11 + 3));
  call.fill<int8_t>(kSelf, x);
  ASSERT_EQ(call.run(), Error::Ok);
  const std::vector<int8_t> t = tables_of(5);
  std::vector<int8_t> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = t[(i % 5) * 256 + static_cast<uint8_t>(x[i])];
  EXPECT_EQ(call.read<int8_t>(kOut), want);
}

struct Rejection {
  const char* what;
  Args args;
  Error code;
  const char* message;
};

TEST(ChannelLookupPrepare, RejectsEveryBadArgumentWithOneLine) {
  const Rejection kRejections[] = {
      {"dim past", {{2, 3}, {}, 2, 3, {}}, Error::InvalidArgument, "dim 2 is outside self [2, 3]'s dims"},
      {"dim not innermost", {{2, 3}, {}, 0, 2, {}}, Error::InvalidArgument,
       "self [2, 3] has dim 1 of size 3 after channel dim 0 in memory"},
      {"table count", {{2, 3}, {}, -1, 2, {}}, Error::InvalidArgument,
       "tables has 512 elements, expected 768 (256 per channel of dim 1)"},
      {"sizes", {{2, 3}, {}, 1, 3, {3, 3}}, Error::InvalidArgument, "differ"},
      {"not constant", {{2, 3}, {}, 1, 3, {}, false}, Error::NotSupported,
       "tables is not a constant tensor (read in place, checked once at load)"},
  };
  for (const Rejection& r : kRejections) {
    KernelCall call;
    build(call, r.args);
    EXPECT_EQ(call.prepare(kEntry), r.code) << r.what << ": " << call.log();
    EXPECT_TRUE(testing::logged(call, r.message)) << r.what << ": " << call.log();
  }
}

}  // namespace
}  // namespace etns::etns_ops
