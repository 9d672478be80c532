#include "kernels/cortex_m/transpose/transpose.h"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "tests/support/kernel_call.h"
#include "tests/support/rng.h"

namespace etns::cortex_m {
namespace {

using etns::testing::KernelCall;
using etns::testing::logged;
using runtime::Error;
using runtime::ScalarType;

const runtime::KernelEntry kEntry =
    runtime::kernel_entry(kTransposeContract, &transpose_prepare, &transpose_run);
constexpr runtime::Arg kInput = kTransposeContract.arg("input");
constexpr runtime::Arg kOut = kTransposeContract.out();

// input.permute(perm).contiguous() by logical index: the definition the
// kernel's merged strided walk must reproduce.
std::vector<int8_t> permuted(const std::vector<int32_t>& sizes, const std::vector<int8_t>& in,
                             const std::vector<int64_t>& perm) {
  const size_t rank = sizes.size();
  std::vector<size_t> in_strides(rank, 1);
  for (size_t k = rank - 1; k-- > 0;) in_strides[k] = in_strides[k + 1] * sizes[k + 1];
  std::vector<size_t> src(rank);
  std::vector<int32_t> out_sizes(rank);
  for (size_t d = 0; d < rank; ++d) {
    src[d] = static_cast<size_t>(perm[d] < 0 ? perm[d] + static_cast<int64_t>(rank) : perm[d]);
    out_sizes[d] = sizes[src[d]];
  }
  std::vector<int8_t> out(in.size());
  for (size_t i = 0; i < out.size(); ++i) {
    size_t rest = i;
    size_t from = 0;
    for (size_t d = rank; d-- > 0;) {
      from += (rest % static_cast<size_t>(out_sizes[d])) * in_strides[src[d]];
      rest /= static_cast<size_t>(out_sizes[d]);
    }
    out[i] = in[from];
  }
  return out;
}

std::vector<int32_t> permuted_sizes(const std::vector<int32_t>& sizes,
                                    const std::vector<int64_t>& perm) {
  std::vector<int32_t> out(sizes.size());
  const int64_t rank = static_cast<int64_t>(sizes.size());
  for (size_t d = 0; d < sizes.size(); ++d) {
    out[d] = sizes[static_cast<size_t>(perm[d] < 0 ? perm[d] + rank : perm[d])];
  }
  return out;
}

// Runs the kernel on 0, 1, 2, ... and returns out.
std::vector<int8_t> run_on_iota(const std::vector<int32_t>& sizes,
                                const std::vector<int64_t>& perm) {
  KernelCall call;
  call.tensor(ScalarType::Char, sizes)
      .int_list(perm)
      .tensor(ScalarType::Char, permuted_sizes(sizes, perm));
  EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  std::vector<int8_t> in(call.tensor_at(kInput).numel);
  std::iota(in.begin(), in.end(), int8_t{0});
  call.fill<int8_t>(kInput, in);
  EXPECT_EQ(call.run(), Error::Ok);
  return call.read<int8_t>(kOut);
}

// --- Hand-worked cases ---

TEST(TransposeS8, Rank2SwapsRowsAndColumns) {
  // [[0, 1, 2], [3, 4, 5]] -> [[0, 3], [1, 4], [2, 5]]
  EXPECT_EQ(run_on_iota({2, 3}, {1, 0}), (std::vector<int8_t>{0, 3, 1, 4, 2, 5}));
}

TEST(TransposeS8, NegativePermEntriesCountFromTheEnd) {
  EXPECT_EQ(run_on_iota({2, 3}, {-1, -2}), (std::vector<int8_t>{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(run_on_iota({2, 3}, {-1, 0}), (std::vector<int8_t>{0, 3, 1, 4, 2, 5}));
}

TEST(TransposeS8, Rank3ByHand) {
  // input [2, 2, 3]: element (i, j, k) = 6i + 3j + k. perm [2, 0, 1]: out
  // (k, i, j) = 6i + 3j + k, out sizes [3, 2, 2].
  EXPECT_EQ(run_on_iota({2, 2, 3}, {2, 0, 1}),
            (std::vector<int8_t>{0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11}));
  // perm [0, 2, 1]: each [2, 3] plane transposed.
  EXPECT_EQ(run_on_iota({2, 2, 3}, {0, 2, 1}),
            (std::vector<int8_t>{0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11}));
}

TEST(TransposeS8, Rank4NchwToNhwcByHand) {
  // input [1, 3, 2, 2] (C = 3, H = W = 2), element (c, h, w) = 4c + 2h + w.
  // perm [0, 2, 3, 1]: out (h, w, c), channels innermost.
  EXPECT_EQ(run_on_iota({1, 3, 2, 2}, {0, 2, 3, 1}),
            (std::vector<int8_t>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  // and back: [1, 2, 2, 3] by [0, 3, 1, 2] is [1, 3, 2, 2].
  EXPECT_EQ(run_on_iota({1, 2, 2, 3}, {0, 3, 1, 2}),
            (std::vector<int8_t>{0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11}));
}

TEST(TransposeS8, Rank1AndIdentityCopy) {
  EXPECT_EQ(run_on_iota({5}, {0}), (std::vector<int8_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(run_on_iota({2, 3}, {0, 1}), (std::vector<int8_t>{0, 1, 2, 3, 4, 5}));
}

// Every permutation of ranks 2 to 4 (2 + 6 + 24), with sizes around the
// 16-byte tile, size-1 dims and negative spellings, against the index definition.
TEST(TransposeS8, EveryPermutationOfRanks2To4) {
  etns::testing::Rng rng(11);
  const std::vector<std::vector<int32_t>> shapes = {
      {17, 3}, {1, 16}, {5, 4, 3}, {1, 7, 1}, {16, 17, 2},
      {2, 3, 4, 5}, {1, 5, 1, 33}, {3, 1, 16, 2}};
  for (const auto& sizes : shapes) {
    std::vector<int64_t> perm(sizes.size());
    std::iota(perm.begin(), perm.end(), 0);
    do {
      for (bool negative : {false, true}) {
        std::vector<int64_t> p = perm;
        if (negative) {
          for (int64_t& e : p) e -= static_cast<int64_t>(p.size());
        }
        KernelCall call;
        call.tensor(ScalarType::Char, sizes)
            .int_list(p)
            .tensor(ScalarType::Char, permuted_sizes(sizes, p));
        ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
        const std::vector<int8_t> in = etns::testing::random_s8(rng, call.tensor_at(kInput).numel);
        call.fill<int8_t>(kInput, in);
        ASSERT_EQ(call.run(), Error::Ok);
        ASSERT_EQ(call.read<int8_t>(kOut), permuted(sizes, in, p))
            << "sizes rank " << sizes.size() << ", perm " << p[0] << " " << p[1];
      }
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
}

TEST(TransposeS8, EmptyTensorWritesNothing) {
  KernelCall call;
  call.tensor(ScalarType::Char, {2, 0, 3}).int_list({2, 1, 0}).tensor(ScalarType::Char, {3, 0, 2});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  EXPECT_EQ(call.run(), Error::Ok);
}

// A channels_last tensor with C = 1 stores its elements in logical order.
TEST(TransposeS8, AcceptsChannelsLastWhenItIsLogicalOrder) {
  KernelCall call;
  call.tensor(ScalarType::Char, {1, 1, 2, 3}, {0, 2, 3, 1})
      .int_list({0, 1, 3, 2})
      .tensor(ScalarType::Char, {1, 1, 3, 2});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kInput, {0, 1, 2, 3, 4, 5});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{0, 3, 1, 4, 2, 5}));
}

// --- prepare rejects ---

struct Bad {
  std::vector<int32_t> in;
  std::vector<int64_t> perm;
  std::vector<int32_t> out;
  const char* message;
  Error error = Error::InvalidArgument;
  ScalarType dtype = ScalarType::Char;
  std::vector<uint8_t> in_order = {};
};

TEST(TransposeS8, RejectsBadArguments) {
  const Bad cases[] = {
      {{2, 3}, {1, 0}, {3, 2}, "input dtype float32, expected int8", Error::InvalidArgument,
       ScalarType::Float},
      {{1, 1, 1, 1, 2}, {0, 1, 2, 3, 4}, {1, 1, 1, 1, 2}, "rank 5, expected 1 to 4"},
      {{}, {}, {}, "rank 0, expected 1 to 4"},
      {{2, 3}, {1, 0, 2}, {3, 2}, "perm has 3 entries, expected 2"},
      {{2, 3}, {2, 0}, {3, 2}, "perm[0] = 2, expected [-2, 1]"},
      {{2, 3}, {1, -3}, {3, 2}, "perm[1] = -3, expected [-2, 1]"},
      {{2, 3, 4}, {0, 2, 0}, {2, 4, 2}, "perm[2] = 0 names dim 0 a second time"},
      {{2, 3, 4}, {1, -2, 0}, {3, 3, 2}, "perm[1] = -2 names dim 1 a second time"},
      {{2, 3}, {1, 0}, {2, 3}, "out [2, 3] differs from [3, 2]"},
      {{2, 3}, {1, 0}, {3, 2, 1}, "out [3, 2, 1] differs from [3, 2]"},
      {{1, 3, 2, 2}, {0, 2, 3, 1}, {1, 2, 2, 3},
       "input must be contiguous (row-major in memory)", Error::InvalidArgument,
       ScalarType::Char, {0, 2, 3, 1}},
  };
  for (const Bad& c : cases) {
    KernelCall call;
    call.tensor(c.dtype, c.in, c.in_order).int_list(c.perm).tensor(ScalarType::Char, c.out);
    EXPECT_EQ(call.prepare(kEntry), c.error) << c.message;
    EXPECT_TRUE(logged(call, c.message));
  }
}

TEST(TransposeS8, RejectsAWrongKindOfPerm) {
  KernelCall call;
  call.tensor(ScalarType::Char, {2, 3}).int_value(1).tensor(ScalarType::Char, {3, 2});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidProgram);
  EXPECT_TRUE(logged(call, "argument 1 (perm) is Int, expected IntList"));
}

// out must be row-major too: upstream writes it as one contiguous block.
TEST(TransposeS8, RejectsAnOutNotRowMajor) {
  KernelCall call;
  call.tensor(ScalarType::Char, {1, 2, 3, 4})
      .int_list({0, 2, 3, 1})
      .tensor(ScalarType::Char, {1, 3, 4, 2}, {0, 2, 3, 1});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "out must be contiguous (row-major in memory)"));
}

}  // namespace
}  // namespace etns::cortex_m
