#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "kernels/portable/permute_copy/permute_copy.h"
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
    runtime::kernel_entry(kPermuteCopyContract, &permute_copy_prepare, &permute_copy_run);
constexpr runtime::Arg kSelf = kPermuteCopyContract.arg("self");
constexpr runtime::Arg kOut = kPermuteCopyContract.out();

// Memory offset of logical coordinate `at` in a tensor of `sizes` laid out in `order`.
size_t offset_of(const std::vector<int32_t>& sizes, const std::vector<uint8_t>& order, const std::vector<size_t>& at) {
  size_t offset = 0;
  for (uint8_t dim : order) offset = offset * static_cast<size_t>(sizes[dim]) + at[dim];
  return offset;
}

std::vector<uint8_t> contiguous_order(size_t rank) {
  std::vector<uint8_t> order(rank);
  std::iota(order.begin(), order.end(), uint8_t{0});
  return order;
}

// out[c] = self[c permuted back], by walking every logical coordinate of out.
template <typename T>
std::vector<T> permute_by_coordinates(const std::vector<T>& self, const std::vector<int32_t>& self_sizes,
                                      const std::vector<uint8_t>& self_order, const std::vector<size_t>& dims,
                                      const std::vector<int32_t>& out_sizes, const std::vector<uint8_t>& out_order) {
  std::vector<T> out(self.size());
  std::vector<size_t> at(out_sizes.size(), 0), source(out_sizes.size(), 0);
  for (size_t n = 0; n < out.size(); ++n) {
    for (size_t d = 0; d < dims.size(); ++d) source[dims[d]] = at[d];
    out[offset_of(out_sizes, out_order, at)] = self[offset_of(self_sizes, self_order, source)];
    for (size_t d = at.size(); d-- > 0;) {
      if (++at[d] < static_cast<size_t>(out_sizes[d])) break;
      at[d] = 0;
    }
  }
  return out;
}

template <typename T>
void check_random_permutations(ScalarType dtype, uint64_t seed) {
  Rng rng(seed);
  for (int round = 0; round < 60; ++round) {
    const size_t rank = static_cast<size_t>(rng.uniform(1, 5));
    std::vector<int32_t> self_sizes(rank);
    for (int32_t& s : self_sizes) s = static_cast<int32_t>(rng.uniform(1, 5));
    std::vector<size_t> dims(rank);
    std::iota(dims.begin(), dims.end(), size_t{0});
    for (size_t i = rank; i > 1; --i) std::swap(dims[i - 1], dims[static_cast<size_t>(rng.uniform(0, static_cast<int64_t>(i) - 1))]);
    std::vector<int32_t> out_sizes(rank);
    for (size_t d = 0; d < rank; ++d) out_sizes[d] = self_sizes[dims[d]];
    // Both tensors channels_last (sometimes, when 4-D), else both contiguous:
    // upstream refuses a mix.
    const std::vector<uint8_t> channels_last{0, 2, 3, 1};
    const std::vector<uint8_t> self_order = rank == 4 && rng.uniform(0, 1) ? channels_last : contiguous_order(rank);
    const std::vector<uint8_t>& out_order = self_order;
    std::vector<int64_t> dims_arg(dims.begin(), dims.end());
    if (rng.uniform(0, 1)) dims_arg[0] -= static_cast<int64_t>(rank);  // a negative spelling
    SCOPED_TRACE(::testing::Message() << "round " << round << ", rank " << rank);

    KernelCall call;
    call.tensor(dtype, self_sizes, self_order).int_list(dims_arg).tensor(dtype, out_sizes, out_order);
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    std::vector<T> self(call.tensor_at(kSelf).numel);
    for (T& v : self) v = static_cast<T>(rng.uniform(-100000, 100000));
    call.fill<T>(kSelf, self);
    ASSERT_EQ(call.run(), Error::Ok);
    EXPECT_EQ(call.read<T>(kOut), permute_by_coordinates(self, self_sizes, self_order, dims, out_sizes, out_order));
  }
}

TEST(PermuteCopy, MatchesACoordinateWalkForEveryRankLayoutAndDtype) {
  check_random_permutations<int8_t>(ScalarType::Char, 1);
  check_random_permutations<int32_t>(ScalarType::Int, 2);
  check_random_permutations<float>(ScalarType::Float, 3);
  check_random_permutations<int64_t>(ScalarType::Long, 4);
}

TEST(PermuteCopy, NchwToNhwcByHand) {
  // [1, 2, 2, 3] contiguous, dims (0, 2, 3, 1): channels become innermost.
  KernelCall call;
  call.tensor(ScalarType::Char, {1, 2, 2, 3}).int_list({0, 2, 3, 1}).tensor(ScalarType::Char, {1, 2, 3, 2});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kSelf, {0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{0, 10, 1, 11, 2, 12, 3, 13, 4, 14, 5, 15}));
}

TEST(PermuteCopy, RefusesWhatIsNotAPermutation) {
  struct Case {
    std::vector<int64_t> dims;
    std::vector<int32_t> out_sizes;
    ScalarType out_dtype;
    const char* message;
  };
  const Case cases[] = {
      {{0, 1}, {2, 3, 4}, ScalarType::Char, "dims has 2 entries"},
      {{0, 1, 3}, {2, 3, 4}, ScalarType::Char, "dims[2] = 3, expected [-3, 2]"},
      {{0, 1, -3}, {2, 3, 2}, ScalarType::Char, "dims[2] = -3 repeats a dim"},
      {{2, 1, 0}, {2, 3, 4}, ScalarType::Char, "is not self [2, 3, 4] permuted by dims"},
      {{2, 1, 0}, {4, 3, 2}, ScalarType::Float, "out dtype"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    KernelCall call;
    call.tensor(ScalarType::Char, {2, 3, 4}).int_list(c.dims).tensor(c.out_dtype, c.out_sizes);
    EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
    EXPECT_TRUE(logged(call, c.message)) << call.log();
  }
}

// Upstream's tensors_have_same_dim_order: both default or both channels_last.
// A mix is refused even where it moves no byte ([1, 1, 2, 2]), and so are two
// equal dim orders that are neither.
TEST(PermuteCopy, RefusesDimOrdersUpstreamRefuses) {
  struct Case {
    std::vector<int32_t> self_sizes;
    std::vector<uint8_t> self_order;
    std::vector<int64_t> dims;
    std::vector<int32_t> out_sizes;
    std::vector<uint8_t> out_order;
    const char* message;
  };
  const std::vector<uint8_t> cl{0, 2, 3, 1};
  const Case cases[] = {
      {{1, 3, 2, 2}, cl, {0, 2, 3, 1}, {1, 2, 2, 3}, {}, "self has dim order [0, 2, 3, 1] and out [0, 1, 2, 3]"},
      {{1, 2, 2, 3}, {}, {0, 3, 1, 2}, {1, 3, 2, 2}, cl, "self has dim order [0, 1, 2, 3] and out [0, 2, 3, 1]"},
      {{1, 1, 2, 2}, cl, {0, 2, 3, 1}, {1, 2, 2, 1}, {}, "self has dim order [0, 2, 3, 1] and out [0, 1, 2, 3]"},
      {{2, 3}, {1, 0}, {1, 0}, {3, 2}, {1, 0}, "expected both the default or both channels_last"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    KernelCall call;
    call.tensor(ScalarType::Char, c.self_sizes, c.self_order).int_list(c.dims).tensor(ScalarType::Char, c.out_sizes, c.out_order);
    EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
    EXPECT_TRUE(logged(call, c.message)) << call.log();
  }
  // Both channels_last: accepted, as upstream.
  KernelCall ok;
  ok.tensor(ScalarType::Char, {1, 3, 2, 2}, cl).int_list({0, 1, 3, 2}).tensor(ScalarType::Char, {1, 3, 2, 2}, cl);
  EXPECT_EQ(ok.prepare(kEntry), Error::Ok) << ok.log();
}

}  // namespace
}  // namespace etns::portable
