#include "kernels/etns_ops/slice_copy/slice_copy.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tests/support/kernel_call.h"

namespace etns::etns_ops {
namespace {

using runtime::Error;
using runtime::ScalarType;
using testing::KernelCall;

const runtime::KernelEntry kEntry = runtime::kernel_entry(kSliceCopyContract, &slice_copy_prepare, &slice_copy_run);

constexpr runtime::Arg kSelf = kSliceCopyContract.arg("self");
constexpr runtime::Arg kOut = kSliceCopyContract.out();

struct Args {
  std::vector<int32_t> self_sizes;
  std::vector<uint8_t> self_order;  // empty: contiguous
  std::vector<int64_t> start;
  std::vector<int64_t> step;
  std::vector<int32_t> out_sizes;
  std::vector<uint8_t> out_order;
  ScalarType self_dtype = ScalarType::Char;
  ScalarType out_dtype = ScalarType::Char;
};

void build(KernelCall& call, const Args& a) {
  call.tensor(a.self_dtype, a.self_sizes, a.self_order);
  call.int_list(a.start);
  call.int_list(a.step);
  call.tensor(a.out_dtype, a.out_sizes, a.out_order);
}

// Element k of a tensor's memory holds logical index `index` under `order`:
// the independent walk the tests compare with.
std::vector<int64_t> strides_of(const std::vector<int32_t>& sizes, std::vector<uint8_t> order) {
  if (order.empty()) {
    for (size_t d = 0; d < sizes.size(); ++d) order.push_back(static_cast<uint8_t>(d));
  }
  std::vector<int64_t> strides(sizes.size());
  int64_t running = 1;
  for (size_t k = sizes.size(); k-- > 0;) {
    strides[order[k]] = running;
    running *= sizes[order[k]];
  }
  return strides;
}

// The definition written out: every out index, its self index per dim.
template <typename T>
std::vector<T> expected(const Args& a, const std::vector<T>& self) {
  const std::vector<int64_t> in_strides = strides_of(a.self_sizes, a.self_order);
  const std::vector<int64_t> out_strides = strides_of(a.out_sizes, a.out_order);
  int64_t numel = 1;
  for (int32_t s : a.out_sizes) numel *= s;
  std::vector<T> out(static_cast<size_t>(numel));
  std::vector<int64_t> index(a.out_sizes.size(), 0);
  for (int64_t flat = 0; flat < numel; ++flat) {
    int64_t rest = flat;
    for (size_t d = a.out_sizes.size(); d-- > 0;) {
      index[d] = rest % a.out_sizes[d];
      rest /= a.out_sizes[d];
    }
    int64_t from = 0;
    int64_t to = 0;
    for (size_t d = 0; d < index.size(); ++d) {
      from += (a.start[d] + index[d] * a.step[d]) * in_strides[d];
      to += index[d] * out_strides[d];
    }
    out[static_cast<size_t>(to)] = self[static_cast<size_t>(from)];
  }
  return out;
}

template <typename T>
void check(const Args& a) {
  KernelCall call;
  build(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  const size_t n = call.tensor_at(kSelf).numel;
  std::vector<T> self(n);
  for (size_t i = 0; i < n; ++i) self[i] = static_cast<T>(sizeof(T) == 1 ? i * 7 + 3 : i * 100003 + 11);
  call.fill<T>(kSelf, self);
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<T>(kOut), expected(a, self));
}

TEST(SliceCopy, HandWorked1D) {
  Args a{{6}, {}, {1}, {2}, {3}, {}};
  KernelCall call;
  build(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kSelf, {10, 11, 12, 13, 14, 15});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{11, 13, 15}));
}

TEST(SliceCopy, NegativeStepsWalkBackwards) {
  Args a{{5}, {}, {4}, {-1}, {5}, {}};
  KernelCall call;
  build(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kSelf, {-128, -1, 0, 1, 127});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{127, 1, 0, -1, -128}));
  check<int8_t>(Args{{3, 4, 5}, {}, {2, 3, 4}, {-1, -2, -3}, {3, 2, 2}, {}});
}

TEST(SliceCopy, WindowsOfEveryRank) {
  check<int8_t>(Args{{7}, {}, {2}, {1}, {4}, {}});
  check<int8_t>(Args{{4, 6}, {}, {1, 2}, {1, 1}, {2, 3}, {}});
  check<int8_t>(Args{{3, 4, 6}, {}, {0, 1, 0}, {1, 2, 3}, {3, 2, 2}, {}});
  check<int8_t>(Args{{2, 3, 4, 5}, {}, {1, 0, 1, 2}, {1, 1, 1, 1}, {1, 3, 3, 3}, {}});
  check<int8_t>(Args{{2, 3, 4, 5, 6}, {}, {1, 2, 0, 4, 5}, {-1, -1, 3, -2, -5}, {2, 3, 2, 3, 2}, {}});
  // Whole rows: the walk merges into one run.
  check<int8_t>(Args{{4, 3, 8}, {}, {1, 0, 0}, {1, 1, 1}, {2, 3, 8}, {}});
}

TEST(SliceCopy, Int32Elements) {
  check<int32_t>(Args{{3, 5}, {}, {0, 4}, {2, -2}, {2, 3}, {}, ScalarType::Int, ScalarType::Int});
  check<int32_t>(Args{{2, 9}, {}, {1, 2}, {1, 1}, {1, 5}, {}, ScalarType::Int, ScalarType::Int});
}

// A channels_last self (a convolution's output) and either order for out.
TEST(SliceCopy, AnyDimOrderOnEitherSide) {
  const std::vector<uint8_t> cl{0, 2, 3, 1};
  check<int8_t>(Args{{1, 8, 3, 4}, cl, {0, 2, 0, 1}, {1, 1, 1, 1}, {1, 4, 3, 2}, {}});
  check<int8_t>(Args{{1, 8, 3, 4}, cl, {0, 2, 0, 1}, {1, 1, 1, 1}, {1, 4, 3, 2}, cl});
  check<int8_t>(Args{{2, 5, 3, 4}, {}, {1, 4, 2, 0}, {1, -2, -1, 1}, {1, 3, 3, 4}, cl});
}

TEST(SliceCopy, EmptyOutCopiesNothing) {
  Args a{{4, 5}, {}, {0, 0}, {1, 1}, {0, 5}, {}};
  KernelCall call;
  build(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  EXPECT_EQ(call.run(), Error::Ok);
}

struct Rejection {
  const char* what;
  Args args;
  Error code;
  const char* message;
};

TEST(SliceCopyPrepare, RejectsEveryBadArgumentWithOneLine) {
  const Rejection kRejections[] = {
      {"out dtype", {{4}, {}, {0}, {1}, {2}, {}, ScalarType::Char, ScalarType::Int}, Error::InvalidArgument,
       "out dtype int32, expected int8"},
      {"rank 6", {{1, 1, 1, 1, 1, 2}, {}, {0, 0, 0, 0, 0, 0}, {1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 2}, {}},
       Error::InvalidArgument, "self [1, 1, 1, 1, 1, 2] has rank 6, expected 1 to 5"},
      {"out rank", {{4, 2}, {}, {0, 0}, {1, 1}, {8}, {}}, Error::InvalidArgument, "out [8] has rank 1, expected self's 2"},
      {"start length", {{4, 2}, {}, {0}, {1, 1}, {2, 2}, {}}, Error::InvalidArgument,
       "start has 1 entries, expected 2 (one per dim of self)"},
      {"step length", {{4, 2}, {}, {0, 0}, {1, 1, 1}, {2, 2}, {}}, Error::InvalidArgument,
       "step has 3 entries, expected 2 (one per dim of self)"},
      {"step 0", {{4, 2}, {}, {0, 0}, {1, 0}, {2, 2}, {}}, Error::InvalidArgument, "step[1] = 0, expected nonzero"},
      {"start past", {{4, 2}, {}, {4, 0}, {1, 1}, {1, 2}, {}}, Error::InvalidArgument,
       "start[0] = 4 is outside self [4, 2]'s dim 0, [0, 4)"},
      {"start negative", {{4, 2}, {}, {0, -1}, {1, 1}, {1, 1}, {}}, Error::InvalidArgument,
       "start[1] = -1 is outside self [4, 2]'s dim 1, [0, 2)"},
      {"end past", {{4, 2}, {}, {1, 0}, {2, 1}, {3, 2}, {}}, Error::InvalidArgument,
       "start[0] = 1 with step[0] = 2 reads 3 elements of self [4, 2]'s dim 0 of size 4"},
      {"end before", {{4, 2}, {}, {1, 0}, {-1, 1}, {3, 2}, {}}, Error::InvalidArgument,
       "start[0] = 1 with step[0] = -1 reads 3 elements of self [4, 2]'s dim 0 of size 4"},
      {"huge step", {{4, 2}, {}, {0, 0}, {INT64_MAX, 1}, {2, 2}, {}}, Error::InvalidArgument,
       "start[0] = 0 with step[0] = 9223372036854775807 reads 2 elements of self [4, 2]'s dim 0 of size 4"},
      {"huge negative step", {{4, 2}, {}, {3, 0}, {INT64_MIN, 1}, {2, 2}, {}}, Error::InvalidArgument,
       "step[0] = -9223372036854775808 reads 2 elements"},
  };
  for (const Rejection& r : kRejections) {
    KernelCall call;
    build(call, r.args);
    EXPECT_EQ(call.prepare(kEntry), r.code) << r.what << ": " << call.log();
    EXPECT_TRUE(testing::logged(call, r.message)) << r.what;
  }
}

}  // namespace
}  // namespace etns::etns_ops
