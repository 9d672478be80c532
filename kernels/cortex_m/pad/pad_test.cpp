#include "kernels/cortex_m/pad/pad.h"

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

const runtime::KernelEntry kEntry = runtime::kernel_entry(kPadContract, &pad_prepare, &pad_run);
constexpr runtime::Arg kInput = kPadContract.arg("input");
constexpr runtime::Arg kOut = kPadContract.out();
const std::vector<uint8_t> kNhwc = {0, 2, 3, 1};

// Padding by physical index: in is a row-major [n, h, w, c] block, out the
// padded block; the definition the kernel must reproduce.
std::vector<int8_t> padded(const std::vector<int32_t>& dims, const std::vector<int8_t>& in,
                           const std::vector<int64_t>& pre, const std::vector<int64_t>& post,
                           int8_t value) {
  std::vector<size_t> out_dims(4);
  size_t count = 1;
  for (size_t k = 0; k < 4; ++k) {
    out_dims[k] = static_cast<size_t>(dims[k] + pre[k] + post[k]);
    count *= out_dims[k];
  }
  std::vector<int8_t> out(count, value);
  for (size_t i = 0; i < in.size(); ++i) {
    size_t rest = i;
    size_t index[4];
    for (size_t k = 4; k-- > 0;) {
      index[k] = rest % static_cast<size_t>(dims[k]) + static_cast<size_t>(pre[k]);
      rest /= static_cast<size_t>(dims[k]);
    }
    const size_t at = ((index[0] * out_dims[1] + index[1]) * out_dims[2] + index[2]) * out_dims[3] +
                      index[3];
    out[at] = in[i];
  }
  return out;
}

struct Case {
  std::vector<int32_t> in;   // logical sizes
  std::vector<uint8_t> order;
  std::vector<int64_t> pre;  // physical n, h, w, c
  std::vector<int64_t> post;
  std::vector<int32_t> out;  // logical sizes
};

std::vector<int8_t> run(const Case& c, const std::vector<int8_t>& in, int64_t value,
                        Error* error = nullptr) {
  KernelCall call;
  call.tensor(ScalarType::Char, c.in, c.order)
      .int_list(c.pre)
      .int_list(c.post)
      .int_value(value)
      .tensor(ScalarType::Char, c.out, c.order);
  const Error e = call.prepare(kEntry);
  if (error) *error = e;
  EXPECT_EQ(e, Error::Ok) << call.log();
  if (e != Error::Ok) return {};
  call.fill<int8_t>(kInput, in);
  EXPECT_EQ(call.run(), Error::Ok);
  return call.read<int8_t>(kOut);
}

// --- Hand-worked cases ---

TEST(PadS8, Rank2ContiguousByHand) {
  // [[1, 2], [3, 4]] with one row above and one column on the right, value 9.
  // Rank 2 is (w, c) physically: pre (0, 0, 1, 0), post (0, 0, 0, 1).
  EXPECT_EQ(run({{2, 2}, {}, {0, 0, 1, 0}, {0, 0, 0, 1}, {3, 3}}, {1, 2, 3, 4}, 9),
            (std::vector<int8_t>{9, 9, 9, 1, 2, 9, 3, 4, 9}));
}

TEST(PadS8, ChannelsLastPadsChannelsAndWidthByHand) {
  // Logical [1, 2, 1, 2] channels_last: physical (n, h, w, c) = (1, 1, 2, 2),
  // bytes (w0: c0 c1) (w1: c0 c1) = 1 2 3 4. One channel in front, one pixel after.
  EXPECT_EQ(run({{1, 2, 1, 2}, kNhwc, {0, 0, 0, 1}, {0, 0, 1, 0}, {1, 3, 1, 3}},
                {1, 2, 3, 4}, -128),
            (std::vector<int8_t>{-128, 1, 2, -128, 3, 4, -128, -128, -128}));
}

TEST(PadS8, Rank1AndRank3ByHand) {
  EXPECT_EQ(run({{3}, {}, {0, 0, 0, 2}, {0, 0, 0, 1}, {6}}, {5, 6, 7}, 0),
            (std::vector<int8_t>{0, 0, 5, 6, 7, 0}));
  // [2, 1, 2] contiguous is physical (1, 2, 1, 2): pad h after by 1.
  EXPECT_EQ(run({{2, 1, 2}, {}, {0, 0, 0, 0}, {0, 1, 0, 0}, {3, 1, 2}}, {1, 2, 3, 4}, 7),
            (std::vector<int8_t>{1, 2, 3, 4, 7, 7}));
}

TEST(PadS8, BatchPadByHand) {
  EXPECT_EQ(run({{1, 1, 1, 2}, kNhwc, {1, 0, 0, 0}, {1, 0, 0, 0}, {3, 1, 1, 2}}, {-1, 1}, 3),
            (std::vector<int8_t>{3, 3, -1, 1, 3, 3}));
}

TEST(PadS8, ZeroPadsCopy) {
  const std::vector<int8_t> in = {1, -2, 3, -4, 5, -6};
  EXPECT_EQ(run({{1, 3, 1, 2}, kNhwc, {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 3, 1, 2}}, in, 100), in);
}

// Each side of each dim alone, and all together, for channels_last 4-D with
// channel counts around the 16-byte tile and for contiguous ranks 1 to 4.
TEST(PadS8, EverySideAgainstTheIndexDefinition) {
  etns::testing::Rng rng(5);
  struct Shape {
    std::vector<int32_t> in;
    std::vector<uint8_t> order;
  };
  const Shape shapes[] = {{{1, 17, 3, 4}, kNhwc}, {{2, 3, 2, 5}, kNhwc}, {{1, 16, 1, 1}, kNhwc},
                          {{1, 33, 2, 2}, kNhwc}, {{2, 3, 4, 5}, {}},    {{3, 7, 15}, {}},
                          {{4, 17}, {}},          {{31}, {}}};
  for (const Shape& s : shapes) {
    const size_t rank = s.in.size();
    // Physical dims (n, h, w, c).
    std::vector<int32_t> dims(4, 1);
    for (size_t k = 0; k < 4; ++k) {
      if (s.order.empty()) {
        if (k >= 4 - rank) dims[k] = s.in[k - (4 - rank)];
      } else {
        dims[k] = s.in[s.order[k]];
      }
    }
    std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>> pads;
    for (size_t k = 4 - rank; k < 4; ++k) {
      std::vector<int64_t> one(4, 0);
      one[k] = k == 3 ? 15 : 2;
      pads.push_back({one, std::vector<int64_t>(4, 0)});
      pads.push_back({std::vector<int64_t>(4, 0), one});
    }
    std::vector<int64_t> all_pre(4, 0), all_post(4, 0);
    for (size_t k = 4 - rank; k < 4; ++k) {
      all_pre[k] = static_cast<int64_t>(k) + 1;
      all_post[k] = k == 3 ? 17 : 1;
    }
    pads.push_back({all_pre, all_post});
    for (const auto& [pre, post] : pads) {
      std::vector<int32_t> out = s.in;
      for (size_t k = 0; k < 4; ++k) {
        const int32_t grow = static_cast<int32_t>(pre[k] + post[k]);
        if (s.order.empty()) {
          if (k >= 4 - rank) out[k - (4 - rank)] += grow;
        } else {
          out[s.order[k]] += grow;
        }
      }
      size_t count = 1;
      for (int32_t d : s.in) count *= static_cast<size_t>(d);
      const std::vector<int8_t> in = etns::testing::random_s8(rng, count);
      const int8_t value = static_cast<int8_t>(rng.uniform(-128, 127));
      ASSERT_EQ(run({s.in, s.order, pre, post, out}, in, value), padded(dims, in, pre, post, value))
          << "rank " << rank << " pre " << pre[0] << pre[1] << pre[2] << pre[3] << " post "
          << post[0] << post[1] << post[2] << post[3];
    }
  }
}

TEST(PadS8, EmptyInputIsAllPadding) {
  EXPECT_EQ(run({{1, 0, 2, 2}, kNhwc, {0, 1, 0, 0}, {0, 0, 0, 0}, {1, 0, 3, 2}}, {}, 4),
            (std::vector<int8_t>{}));
  EXPECT_EQ(run({{2, 0}, {}, {0, 0, 0, 1}, {0, 0, 0, 1}, {2, 2}}, {}, 4),
            (std::vector<int8_t>{4, 4, 4, 4}));
}

// --- prepare rejects ---

struct Bad {
  Case c;
  int64_t value;
  const char* message;
  Error error = Error::InvalidArgument;
  ScalarType dtype = ScalarType::Char;
};

TEST(PadS8, RejectsBadArguments) {
  const Bad cases[] = {
      {{{1, 2, 2, 2}, kNhwc, {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 2, 2, 2}}, 0,
       "input dtype uint8, expected int8", Error::InvalidArgument, ScalarType::Byte},
      {{{1, 1, 1, 1, 2}, {}, {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 1, 1, 1, 2}}, 0,
       "rank 5, expected 1 to 4"},
      {{{}, {}, {0, 0, 0, 0}, {0, 0, 0, 0}, {}}, 0, "rank 0, expected 1 to 4"},
      {{{1, 2, 2, 2}, kNhwc, {0, 0, 0}, {0, 0, 0, 0}, {1, 2, 2, 2}}, 0,
       "pre_pad has 3 entries, expected 4"},
      {{{1, 2, 2, 2}, kNhwc, {0, 0, 0, 0}, {0, 0, 0, 0, 0}, {1, 2, 2, 2}}, 0,
       "post_pad has 5 entries, expected 4"},
      {{{1, 2, 2, 2}, kNhwc, {0, -1, 0, 0}, {0, 0, 0, 0}, {1, 2, 1, 2}}, 0,
       "pre_pad[1] = -1, expected [0, 2147483647]"},
      {{{1, 2, 2, 2}, kNhwc, {0, 0, 0, 0}, {0, 0, 0, -2}, {1, 0, 2, 2}}, 0,
       "post_pad[3] = -2, expected [0, 2147483647]"},
      {{{1, 2, 2, 2}, kNhwc, {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 2, 2, 2}}, 128,
       "pad_value = 128, expected [-128, 127]"},
      {{{1, 2, 2, 2}, kNhwc, {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 2, 2, 2}}, -129,
       "pad_value = -129, expected [-128, 127]"},
      {{{2, 2}, {}, {0, 1, 0, 0}, {0, 0, 0, 0}, {2, 2}}, 0,
       "pre_pad[1] = 1 and post_pad[1] = 0 pad a dim a rank-2 input does not have"},
      {{{1, 2, 2, 2}, kNhwc, {0, 0, 0, 1}, {0, 0, 0, 0}, {1, 2, 2, 2}}, 0,
       "out [1, 2, 2, 2] differs from [1, 3, 2, 2]"},
      {{{1, 2, 2, 2}, {0, 1, 3, 2}, {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 2, 2, 2}}, 0,
       "input [1, 2, 2, 2] is neither contiguous nor 4-D channels_last", Error::NotSupported},
  };
  for (const Bad& b : cases) {
    KernelCall call;
    call.tensor(b.dtype, b.c.in, b.c.order)
        .int_list(b.c.pre)
        .int_list(b.c.post)
        .int_value(b.value)
        .tensor(ScalarType::Char, b.c.out, b.c.order);
    EXPECT_EQ(call.prepare(kEntry), b.error) << b.message;
    EXPECT_TRUE(logged(call, b.message));
  }
}

TEST(PadS8, RejectsAnOutOfAnotherDimOrder) {
  KernelCall call;
  call.tensor(ScalarType::Char, {1, 2, 2, 2}, kNhwc)
      .int_list({0, 0, 0, 0})
      .int_list({0, 0, 0, 0})
      .int_value(0)
      .tensor(ScalarType::Char, {1, 2, 2, 2});
  EXPECT_EQ(call.prepare(kEntry), Error::InvalidArgument);
  EXPECT_TRUE(logged(call, "input and out have different dim orders"));
}

}  // namespace
}  // namespace etns::cortex_m
