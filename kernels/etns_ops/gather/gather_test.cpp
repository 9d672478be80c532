#include "kernels/etns_ops/gather/gather.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/log.h"

#include "tests/support/kernel_call.h"

namespace etns::etns_ops {
namespace {

using runtime::Error;
using runtime::ScalarType;
using testing::KernelCall;

const runtime::KernelEntry kEntry = runtime::kernel_entry(kGatherContract, &gather_prepare, &gather_run);

constexpr runtime::Arg kSelf = kGatherContract.arg("self");
constexpr runtime::Arg kIndices = kGatherContract.arg("indices");
constexpr runtime::Arg kOut = kGatherContract.out();

struct Args {
  std::vector<int32_t> self;  // logical sizes
  std::vector<int32_t> index_sizes;
  std::vector<int32_t> indices;
  int64_t axis = 0;
  int64_t batch_dims = 0;
  std::vector<uint8_t> order = {};  // self's and out's dim order, empty: default
  std::vector<int32_t> out = {};    // empty: by the rule
  bool constant = true;
};

std::vector<int32_t> out_sizes(const Args& a) {
  if (!a.out.empty()) return a.out;
  const auto rank = static_cast<int64_t>(a.self.size());
  if (a.axis < 0 || a.axis >= rank || a.batch_dims < 0 || a.batch_dims > static_cast<int64_t>(a.index_sizes.size())) {
    return a.self;  // no rule: prepare refuses the axis or batch_dims first
  }
  std::vector<int32_t> s(a.self.begin(), a.self.begin() + a.axis);
  s.insert(s.end(), a.index_sizes.begin() + a.batch_dims, a.index_sizes.end());
  s.insert(s.end(), a.self.begin() + a.axis + 1, a.self.end());
  return s;
}

void build(KernelCall& call, const Args& a, ScalarType dtype = ScalarType::Char) {
  call.tensor(dtype, a.self, a.order);
  call.tensor(ScalarType::Int, a.index_sizes);
  call.int_value(a.axis);
  call.int_value(a.batch_dims);
  call.tensor(dtype, out_sizes(a), a.order);
  call.tensor_at(kIndices).is_constant = a.constant;
  call.fill<int32_t>(kIndices, a.indices);
}

// Strides of a tensor of logical `sizes` laid out in `order` (outermost first).
std::vector<size_t> strides(const std::vector<int32_t>& sizes, const std::vector<uint8_t>& order) {
  std::vector<size_t> s(sizes.size());
  size_t step = 1;
  for (size_t p = sizes.size(); p-- > 0;) {
    const size_t d = order.empty() ? p : order[p];
    s[d] = step;
    step *= static_cast<size_t>(sizes[d]);
  }
  return s;
}

// The definition on logical indices, each tensor through its own strides.
template <typename T>
std::vector<T> expected(const Args& a, const std::vector<T>& self) {
  const std::vector<int32_t> os = out_sizes(a);
  const std::vector<size_t> ss = strides(a.self, a.order), st = strides(os, a.order);
  const size_t index_rank = a.index_sizes.size();
  size_t n = 1;
  for (const int32_t d : os) n *= static_cast<size_t>(d);
  std::vector<T> out(n);
  std::vector<int32_t> at(os.size(), 0);
  for (size_t e = 0; e < n; ++e) {
    // The index into indices: the batch dims, then out's dims from axis on.
    size_t ii = 0;
    for (size_t d = 0; d < index_rank; ++d) {
      const int32_t v = d < static_cast<size_t>(a.batch_dims)
                            ? at[d]
                            : at[static_cast<size_t>(a.axis) + d - static_cast<size_t>(a.batch_dims)];
      ii = ii * static_cast<size_t>(a.index_sizes[d]) + static_cast<size_t>(v);
    }
    size_t from = 0, to = 0;
    for (size_t d = 0; d < a.self.size(); ++d) {
      int32_t v = 0;
      if (d < static_cast<size_t>(a.axis)) {
        v = at[d];
      } else if (d == static_cast<size_t>(a.axis)) {
        v = a.indices[ii];
      } else {
        v = at[d + index_rank - static_cast<size_t>(a.batch_dims) - 1];
      }
      from += static_cast<size_t>(v) * ss[d];
    }
    for (size_t d = 0; d < os.size(); ++d) to += static_cast<size_t>(at[d]) * st[d];
    out[to] = self[from];
    for (size_t d = os.size(); d-- > 0;) {
      if (++at[d] < os[d]) break;
      at[d] = 0;
    }
  }
  return out;
}

void check(const Args& a) {
  KernelCall call;
  build(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  const size_t count = call.tensor_at(kSelf).numel;
  std::vector<int8_t> self(count);
  for (size_t i = 0; i < count; ++i) self[i] = static_cast<int8_t>(i * 37 + 5);
  call.fill<int8_t>(kSelf, self);
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), expected(a, self));
}

TEST(Gather, HandWorkedRowsAndColumns) {
  {
    KernelCall call;
    build(call, Args{{3, 2}, {4}, {2, 0, 2, 1}, 0});
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    call.fill<int8_t>(kSelf, {1, 2, 3, 4, -128, 127});
    ASSERT_EQ(call.run(), Error::Ok);
    EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{-128, 127, 1, 2, -128, 127, 3, 4}));
  }
  {
    KernelCall call;
    build(call, Args{{2, 3}, {2}, {2, 0}, 1});
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    call.fill<int8_t>(kSelf, {1, 2, 3, 4, 5, 6});
    ASSERT_EQ(call.run(), Error::Ok);
    EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{3, 1, 6, 4}));
  }
}

TEST(Gather, BatchDimsPickTheirOwnRowOfIndices) {
  // self [2, 3], indices [2, 2], batch_dims 1: out[b, j] = self[b, indices[b, j]].
  KernelCall call;
  build(call, Args{{2, 3}, {2, 2}, {2, 2, 0, 1}, 1, 1});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kSelf, {10, 11, 12, 20, 21, 22});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{12, 12, 20, 21}));
}

TEST(Gather, EveryAxisRankAndBatchDims) {
  check(Args{{5}, {3}, {4, 4, 0}, 0});
  check(Args{{4, 3, 2}, {2, 2}, {3, 0, 1, 1}, 0});
  check(Args{{4, 3, 2}, {3}, {2, 1, 0}, 1});
  check(Args{{4, 3, 2}, {5}, {1, 0, 1, 1, 0}, 2});
  check(Args{{2, 3, 4, 5}, {2, 3}, {0, 1, 2, 2, 1, 0}, 1, 1});
  check(Args{{2, 3, 4, 5}, {2, 3, 2}, {4, 0, 1, 1, 2, 3, 0, 0, 3, 2, 1, 4}, 3, 2});
  check(Args{{2, 3, 4, 5}, {2, 1}, {3, 1}, 2, 1});
  check(Args{{2, 3, 4, 40}, {7}, {3, 2, 1, 0, 0, 3, 1}, 2});
}

TEST(Gather, ChannelsLastIsReadWhereItLies) {
  const std::vector<uint8_t> cl{0, 2, 3, 1};
  // Logical [N, C, H, W]: gathered channels, rows, columns; batch_dims 1.
  check(Args{{2, 6, 3, 4}, {4}, {5, 0, 0, 2}, 1, 0, cl});
  check(Args{{2, 6, 3, 4}, {2}, {2, 0}, 2, 0, cl});
  check(Args{{2, 6, 3, 4}, {5}, {3, 3, 1, 0, 2}, 3, 0, cl});
  check(Args{{2, 6, 3, 4}, {2, 2}, {1, 0, 2, 2}, 2, 1, cl});
}

TEST(Gather, Float32ElementsMoveWhole) {
  KernelCall call;
  build(call, Args{{2, 2}, {3}, {1, 0, 1}, 1}, ScalarType::Float);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<float>(kSelf, {1.5F, -2.25F, 3.0F, 1e-30F});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<float>(kOut), (std::vector<float>{-2.25F, 1.5F, -2.25F, 1e-30F, 3.0F, 1e-30F}));
}

// Collects the lines run logs (KernelCall keeps prepare's only).
void collect(void* user, const char* line) { static_cast<std::string*>(user)->append(line).append("\n"); }

TEST(Gather, ComputedIndicesAreCheckedOnEveryRun) {
  std::string lines;
  KernelCall call;
  build(call, Args{{2, 3}, {2, 2}, {0, 2, 1, 1}, 1, 1, {}, {}, false});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kSelf, {1, 2, 3, 4, 5, 6});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{1, 3, 5, 5}));
  call.fill<int8_t>(kOut, {9, 9, 9, 9});
  call.fill<int32_t>(kIndices, {0, 2, 3, 1});
  runtime::set_log_sink(&collect, &lines);
  const Error past = call.run();
  call.fill<int32_t>(kIndices, {-1, 0, 0, 0});
  const Error negative = call.run();
  runtime::set_log_sink(nullptr, nullptr);
  EXPECT_EQ(past, Error::InvalidArgument);
  EXPECT_EQ(negative, Error::InvalidArgument);
  EXPECT_EQ(lines,
            "etns_ops::gather.out: indices[2] = 3 is outside self's gathered dim, [0, 3)\n"
            "etns_ops::gather.out: indices[0] = -1 is outside self's gathered dim, [0, 3)\n");
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{9, 9, 9, 9}));  // nothing written
}

struct Rejection {
  const char* what;
  Args args;
  Error code;
  const char* message;
};

TEST(GatherPrepare, RejectsEveryBadArgumentWithOneLine) {
  const Rejection kRejections[] = {
      {"axis past", {{3, 2}, {1}, {0}, 2}, Error::InvalidArgument,
       "axis = 2, expected [batch_dims, rank(self)) = [0, 2)"},
      {"axis negative", {{3, 2}, {1}, {0}, -1}, Error::InvalidArgument,
       "axis = -1, expected [batch_dims, rank(self)) = [0, 2)"},
      {"axis below batch", {{3, 2}, {3, 1}, {0, 0, 0}, 0, 1}, Error::InvalidArgument,
       "axis = 0, expected [batch_dims, rank(self)) = [1, 2)"},
      {"batch past indices", {{3, 2}, {3}, {0, 0, 0}, 1, 2}, Error::InvalidArgument,
       "batch_dims = 2, expected [0, 1] (indices' rank) below self's rank 2"},
      {"batch sizes", {{3, 2}, {2, 1}, {0, 0}, 1, 1}, Error::InvalidArgument,
       "indices [2, 1] and self [3, 2] differ in batch dim 0"},
      {"out sizes", {{3, 2}, {2}, {0, 1}, 0, 0, {}, {3, 2}}, Error::InvalidArgument,
       "out [3, 2], expected [2, 2] (self [3, 2] gathered on dim 0 by indices [2])"},
      {"out rank", {{3, 2}, {2}, {0, 1}, 0, 0, {}, {4}}, Error::InvalidArgument,
       "out [4] has rank 1, expected 2 (self's + indices' - 1 - batch_dims)"},
      {"index past", {{3, 2}, {2}, {0, 3}, 0}, Error::InvalidArgument,
       "indices[1] = 3 is outside self [3, 2]'s dim 0, [0, 3)"},
      {"index negative", {{3, 2}, {2}, {-1, 0}, 1}, Error::InvalidArgument,
       "indices[0] = -1 is outside self [3, 2]'s dim 1, [0, 2)"},
  };
  for (const Rejection& r : kRejections) {
    KernelCall call;
    build(call, r.args);
    EXPECT_EQ(call.prepare(kEntry), r.code) << r.what << ": " << call.log();
    EXPECT_TRUE(testing::logged(call, r.message)) << r.what << ": " << call.log();
  }
}

TEST(GatherPrepare, RefusesDimOrdersItCannotWalk) {
  KernelCall call;
  call.tensor(ScalarType::Char, {1, 2, 3, 4}, {0, 2, 3, 1});
  call.tensor(ScalarType::Int, {2});
  call.int_value(1);
  call.int_value(0);
  call.tensor(ScalarType::Char, {1, 2, 3, 4});
  call.fill<int32_t>(kIndices, {0, 1});
  EXPECT_EQ(call.prepare(kEntry), Error::NotSupported);
  EXPECT_TRUE(testing::logged(call, "expected both in the default dim order, or one dim order")) << call.log();
}

}  // namespace
}  // namespace etns::etns_ops
