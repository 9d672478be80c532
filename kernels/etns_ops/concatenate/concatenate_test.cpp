#include "kernels/etns_ops/concatenate/concatenate.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "tests/support/kernel_call.h"

namespace etns::etns_ops {
namespace {

using runtime::Error;
using runtime::ScalarType;
using testing::KernelCall;

const runtime::KernelEntry kEntry =
    runtime::kernel_entry(kConcatenateContract, &concatenate_prepare, &concatenate_run);

struct Input {
  Input(std::vector<int32_t> s, std::vector<uint8_t> o = {}, ScalarType t = ScalarType::Char)
      : sizes(std::move(s)), order(std::move(o)), dtype(t) {}
  std::vector<int32_t> sizes;
  std::vector<uint8_t> order;  // empty: contiguous
  ScalarType dtype;
};

// x0 ... x{n-1} given, the rest None (or `gap` None at that position).
void build(KernelCall& call, const std::vector<Input>& inputs, int64_t axis, const Input& out, int gap = -1) {
  size_t next = 0;
  for (size_t i = 0; i < kConcatenateMaxInputs; ++i) {
    if (static_cast<int>(i) == gap || next >= inputs.size()) {
      call.null();
      continue;
    }
    call.tensor(inputs[next].dtype, inputs[next].sizes, inputs[next].order);
    ++next;
  }
  call.int_value(axis);
  call.tensor(out.dtype, out.sizes, out.order);
}

// Element k of a tensor's memory at logical index `index` under `order`.
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

// The definition written out over logical indices: out's index along the
// axis picks the input and its index.
template <typename T>
void check(const std::vector<Input>& inputs, int64_t axis, const Input& out) {
  KernelCall call;
  build(call, inputs, axis, out);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  std::vector<std::vector<T>> values;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const size_t n = call.tensor_at(i).numel;
    std::vector<T> v(n);
    for (size_t k = 0; k < n; ++k) v[k] = static_cast<T>(i * 1000 + k * 7 + 1);
    call.fill<T>(i, v);
    values.push_back(v);
  }
  ASSERT_EQ(call.run(), Error::Ok);
  const std::vector<T> got = call.read<T>(kConcatenateContract.out());
  const std::vector<int64_t> out_strides = strides_of(out.sizes, out.order);
  size_t numel = 1;
  for (int32_t s : out.sizes) numel *= static_cast<size_t>(s);
  std::vector<T> want(numel);
  std::vector<int64_t> index(out.sizes.size());
  for (size_t flat = 0; flat < numel; ++flat) {
    size_t rest = flat;
    for (size_t d = out.sizes.size(); d-- > 0;) {
      index[d] = static_cast<int64_t>(rest % static_cast<size_t>(out.sizes[d]));
      rest /= static_cast<size_t>(out.sizes[d]);
    }
    std::vector<int64_t> in_index = index;
    size_t which = 0;
    while (in_index[static_cast<size_t>(axis)] >= inputs[which].sizes[static_cast<size_t>(axis)]) {
      in_index[static_cast<size_t>(axis)] -= inputs[which].sizes[static_cast<size_t>(axis)];
      ++which;
    }
    const std::vector<int64_t> in_strides = strides_of(inputs[which].sizes, inputs[which].order);
    int64_t from = 0, to = 0;
    for (size_t d = 0; d < index.size(); ++d) {
      from += in_index[d] * in_strides[d];
      to += index[d] * out_strides[d];
    }
    want[static_cast<size_t>(to)] = values[which][static_cast<size_t>(from)];
  }
  EXPECT_EQ(got, want);
}

TEST(Concatenate, HandWorkedRows) {
  KernelCall call;
  build(call, {{{2, 1}}, {{2, 2}}}, 1, {{2, 3}});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(0, {1, 2});
  call.fill<int8_t>(1, {-3, -4, -5, -6});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kConcatenateContract.out()), (std::vector<int8_t>{1, -3, -4, 2, -5, -6}));
}

TEST(Concatenate, EveryAxisAndInputCount) {
  check<int8_t>({{{5}}}, 0, {{5}});
  check<int8_t>({{{2, 3, 4}}, {{1, 3, 4}}, {{3, 3, 4}}}, 0, {{6, 3, 4}});
  check<int8_t>({{{2, 1, 4}}, {{2, 5, 4}}}, 1, {{2, 6, 4}});
  check<int8_t>({{{2, 3, 1}}, {{2, 3, 2}}, {{2, 3, 3}}, {{2, 3, 1}}}, 2, {{2, 3, 7}});
  std::vector<Input> ten(10, Input{{1, 2, 1, 3}});
  check<int8_t>(ten, 2, {{1, 2, 10, 3}});
}

TEST(Concatenate, Int32Elements) {
  check<int32_t>({{{2, 2}, {}, ScalarType::Int}, {{2, 3}, {}, ScalarType::Int}}, 1, {{2, 5}, {}, ScalarType::Int});
}

// channels_last tensors (convolution outputs) joined along C, H and N.
TEST(Concatenate, ChannelsLastAlongEveryDim) {
  const std::vector<uint8_t> cl{0, 2, 3, 1};
  check<int8_t>({{{1, 3, 2, 2}, cl}, {{1, 5, 2, 2}, cl}}, 1, {{1, 8, 2, 2}, cl});
  check<int8_t>({{{1, 3, 2, 2}, cl}, {{1, 3, 1, 2}, cl}}, 2, {{1, 3, 3, 2}, cl});
  check<int8_t>({{{1, 3, 2, 2}, cl}, {{2, 3, 2, 2}, cl}}, 0, {{3, 3, 2, 2}, cl});
}

struct Rejection {
  const char* what;
  std::vector<Input> inputs;
  int64_t axis;
  Input out;
  int gap;
  Error code;
  const char* message;
};

TEST(ConcatenatePrepare, RejectsEveryBadArgumentWithOneLine) {
  const std::vector<uint8_t> cl{0, 2, 3, 1};
  const Rejection kRejections[] = {
      {"gap", {{{2, 1}}, {{2, 2}}}, 1, {{2, 3}}, 1, Error::InvalidArgument,
       "x2 is given after x1 is None; the inputs come first"},
      {"axis", {{{2, 1}}, {{2, 2}}}, 2, {{2, 3}}, -1, Error::InvalidArgument, "axis"},
      {"dtype", {{{2, 1}}, {{2, 2}, {}, ScalarType::Int}}, 1, {{2, 3}}, -1, Error::InvalidArgument,
       "x1 dtype int32, expected int8"},
      {"rank", {{{2, 1}}, {{4}}}, 1, {{2, 3}}, -1, Error::InvalidArgument, "x1 [4] has rank 1, out [2, 3] has 2"},
      {"off axis", {{{2, 1}}, {{3, 2}}}, 1, {{2, 3}}, -1, Error::InvalidArgument,
       "x1 [3, 2] differs from out [2, 3] off axis 1"},
      {"sum", {{{2, 1}}, {{2, 1}}}, 1, {{2, 3}}, -1, Error::InvalidArgument,
       "the inputs have 2 along axis 1, out [2, 3] has 3"},
      {"dim order", {{{1, 2, 2, 2}, cl}, {{1, 2, 2, 2}}}, 1, {{1, 4, 2, 2}, cl}, -1, Error::InvalidArgument, "x1"},
  };
  for (const Rejection& r : kRejections) {
    KernelCall call;
    build(call, r.inputs, r.axis, r.out, r.gap);
    EXPECT_EQ(call.prepare(kEntry), r.code) << r.what << ": " << call.log();
    EXPECT_TRUE(testing::logged(call, r.message)) << r.what;
  }
}

}  // namespace
}  // namespace etns::etns_ops
