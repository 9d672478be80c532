#include "kernels/cortex_m/batch_matmul/batch_matmul.h"

#include <gtest/gtest.h>

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
    runtime::kernel_entry(kBatchMatmulContract, &batch_matmul_prepare, &batch_matmul_run);
constexpr runtime::Arg kLhs = kBatchMatmulContract.arg("lhs");
constexpr runtime::Arg kRhs = kBatchMatmulContract.arg("rhs_transposed");
constexpr runtime::Arg kOut = kBatchMatmulContract.out();

// A real factor of exactly 1: M = 2^30, S = 1 (2^30 * 2 / 2^31).
constexpr int64_t kOne = int64_t{1} << 30;

struct Args {
  int32_t batches, rows, cols, depth;
  int64_t lhs_offset = 0, rhs_offset = 0, out_zero_point = 0;
  int64_t multiplier = kOne, shift = 1;
};

std::vector<int8_t> run(const Args& a, const std::vector<int8_t>& lhs,
                        const std::vector<int8_t>& rhs) {
  KernelCall call;
  call.tensor(ScalarType::Char, {a.batches, a.rows, a.depth})
      .int_value(a.lhs_offset)
      .tensor(ScalarType::Char, {a.batches, a.cols, a.depth})
      .int_value(a.rhs_offset)
      .int_value(a.out_zero_point)
      .int_value(a.multiplier)
      .int_value(a.shift)
      .tensor(ScalarType::Char, {a.batches, a.rows, a.cols});
  EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kLhs, lhs);
  call.fill<int8_t>(kRhs, rhs);
  EXPECT_EQ(call.run(), Error::Ok);
  return call.read<int8_t>(kOut);
}

// --- Hand-worked cases ---

TEST(BatchMatmulS8, OneByOneByOne) {
  EXPECT_EQ(run({1, 1, 1, 1}, {3}, {4}), (std::vector<int8_t>{12}));
  // Offsets are added: (3 + 1) * (4 - 2) = 8.
  EXPECT_EQ(run({1, 1, 1, 1, 1, -2}, {3}, {4}), (std::vector<int8_t>{8}));
  // Output zero point added after requantisation: 12 - 20.
  EXPECT_EQ(run({1, 1, 1, 1, 0, 0, -20}, {3}, {4}), (std::vector<int8_t>{-8}));
}

TEST(BatchMatmulS8, RowTimesTransposedRhsByHand) {
  // lhs [1, 2, 3] (M = 1, K = 3); rhs_transposed rows [1, 0, -1] and [2, 2, 2].
  // Dots: 1 - 3 = -2 and 2 + 4 + 6 = 12; plus zero point 5.
  EXPECT_EQ(run({1, 1, 2, 3, 0, 0, 5}, {1, 2, 3}, {1, 0, -1, 2, 2, 2}),
            (std::vector<int8_t>{3, 17}));
  // Two lhs rows, two batches: batch 1 uses its own rhs.
  // b0: [1, 1] . [1, 2] = 3, [0, 1] . [1, 2] = 2;
  // b1: [2, 0] . [-1, 3] = -2, [1, -1] . [-1, 3] = -4.
  EXPECT_EQ(run({2, 2, 1, 2}, {1, 1, 0, 1, 2, 0, 1, -1}, {1, 2, -1, 3}),
            (std::vector<int8_t>{3, 2, -2, -4}));
}

TEST(BatchMatmulS8, ClampsToInt8) {
  // 4 * 127 * 127 = 64516 saturates high, the negative one low.
  EXPECT_EQ(run({1, 1, 2, 4}, {127, 127, 127, 127}, {127, 127, 127, 127, -128, -128, -128, -128}),
            (std::vector<int8_t>{127, -128}));
}

TEST(BatchMatmulS8, RoundsAsCmsisNn) {
  // Factor 1/2 (M = 2^30, S = 0): DHM rounds ties toward +infinity.
  // 3 -> 1.5 -> 2, -3 -> -1.5 -> -1.
  EXPECT_EQ(run({1, 1, 2, 1, 0, 0, 0, kOne, 0}, {3}, {1, -1}), (std::vector<int8_t>{2, -1}));
  // Factor 1/4 as (2^30, -1): DHM(5) = round(2.5) = 3, then RDIV(3, 1) = round(1.5)
  // away from zero = 2; DHM(-5) = round(-2.5) = -2, RDIV(-2, 1) = -1.
  EXPECT_EQ(run({1, 1, 2, 1, 0, 0, 0, kOne, -1}, {5}, {1, -1}), (std::vector<int8_t>{2, -1}));
  // DHM(-6) = -3, RDIV(-3, 1) = round(-1.5) away from zero = -2.
  EXPECT_EQ(run({1, 1, 1, 1, 0, 0, 0, kOne, -1}, {-6}, {1}), (std::vector<int8_t>{-2}));
}

// The definition, with the shared requantize (tested in requantize_test.cpp).
std::vector<int8_t> expected(const Args& a, const std::vector<int8_t>& lhs,
                             const std::vector<int8_t>& rhs) {
  std::vector<int8_t> out;
  const kernels::Requant q{static_cast<int32_t>(a.multiplier), static_cast<int32_t>(a.shift)};
  for (int32_t b = 0; b < a.batches; ++b) {
    for (int32_t m = 0; m < a.rows; ++m) {
      for (int32_t n = 0; n < a.cols; ++n) {
        int64_t sum = 0;
        for (int32_t k = 0; k < a.depth; ++k) {
          sum += (lhs[static_cast<size_t>((b * a.rows + m) * a.depth + k)] + a.lhs_offset) *
                 (rhs[static_cast<size_t>((b * a.cols + n) * a.depth + k)] + a.rhs_offset);
        }
        const int64_t v = kernels::requantize(static_cast<int32_t>(sum), q) + a.out_zero_point;
        out.push_back(static_cast<int8_t>(v < -128 ? -128 : (v > 127 ? 127 : v)));
      }
    }
  }
  return out;
}

// Depths around the 16-lane tile, odd rows and columns (column groups of 4
// with every tail), batches 1 and 3, extreme offsets.
TEST(BatchMatmulS8, DepthsAroundTheTileAndOddShapes) {
  etns::testing::Rng rng(3);
  for (int32_t depth : {1, 15, 16, 17, 100}) {
    for (int32_t batches : {1, 3}) {
      for (const auto& [rows, cols] : {std::pair{1, 1}, std::pair{3, 5}, std::pair{7, 9},
                                       std::pair{5, 4}, std::pair{2, 7}}) {
        Args a{batches, rows, cols, depth};
        const int64_t offsets[] = {0, -127, 128, 3, -40};
        a.lhs_offset = rng.pick(offsets);
        a.rhs_offset = rng.pick(offsets);
        a.out_zero_point = rng.uniform(-128, 127);
        a.multiplier = rng.uniform(1 << 29, (int64_t{1} << 31) - 1);
        a.shift = rng.uniform(-12, -6);
        const auto lhs =
            etns::testing::random_s8(rng, static_cast<size_t>(batches * rows * depth));
        const auto rhs =
            etns::testing::random_s8(rng, static_cast<size_t>(batches * cols * depth));
        ASSERT_EQ(run(a, lhs, rhs), expected(a, lhs, rhs))
            << "depth " << depth << " batches " << batches << " rows " << rows << " cols "
            << cols;
      }
    }
  }
}

// TFLite flushes an effective scale below 2^-32 to multiplier 0 (shift 0),
// and real models hold shifts down to -31: both are accepted and computed.
TEST(BatchMatmulS8, TakesMultiplierZeroAndShiftMinus31) {
  // Multiplier 0 leaves the output zero point, whatever the shift.
  EXPECT_EQ(run({1, 1, 2, 2, 0, 0, 7, 0, 0}, {127, 127}, {127, 127, -128, -128}),
            (std::vector<int8_t>{7, 7}));
  EXPECT_EQ(run({1, 1, 2, 2, 0, 0, -7, 0, 30}, {127, 127}, {127, 127, -128, -128}),
            (std::vector<int8_t>{-7, -7}));
  // Shift -31 with M = 2^31 - 1: acc / 2^31 rounded, 0 for any sum this small.
  EXPECT_EQ(run({1, 1, 2, 2, 128, 128, 3, INT32_MAX, -31}, {127, 127}, {127, 127, -128, -128}),
            (std::vector<int8_t>{3, 3}));
  // Sums that wrap int32 reach +-1 at 2^31: K = 33,100 of 255 * 255 is
  // 2,152,327,500 (wraps to -2,142,639,796), half of it rounds to -1.
  const int32_t depth = 33100;
  const Args big{1, 1, 1, depth, 128, 128, 0, INT32_MAX, -31};
  const std::vector<int8_t> lhs(static_cast<size_t>(depth), 127);
  EXPECT_EQ(run(big, lhs, lhs), expected(big, lhs, lhs));
  EXPECT_EQ(run(big, lhs, lhs), (std::vector<int8_t>{-1}));
}

TEST(BatchMatmulS8, EmptyShapes) {
  EXPECT_EQ(run({1, 0, 3, 4}, {}, std::vector<int8_t>(12, 1)), (std::vector<int8_t>{}));
  // Depth 0: every sum is 0, out is the zero point.
  EXPECT_EQ(run({1, 2, 2, 0, 5, 5, 9}, {}, {}), (std::vector<int8_t>{9, 9, 9, 9}));
}

// --- prepare rejects ---

struct Bad {
  std::vector<int32_t> lhs, rhs, out;
  Args a;
  const char* message;
  Error error = Error::InvalidArgument;
  ScalarType lhs_dtype = ScalarType::Char;
  std::vector<uint8_t> lhs_order = {};
};

TEST(BatchMatmulS8, RejectsBadArguments) {
  Args shift_low = Args{1, 2, 3, 4};
  shift_low.shift = -32;
  const Args ok{1, 2, 3, 4};
  Args lhs_offset = ok;
  lhs_offset.lhs_offset = 129;
  Args rhs_offset = ok;
  rhs_offset.rhs_offset = -128;
  Args out_zp = ok;
  out_zp.out_zero_point = 128;
  Args multiplier = ok;
  multiplier.multiplier = -1;
  Args shift = ok;
  shift.shift = 31;
  const Bad cases[] = {
      {{1, 2, 4}, {1, 3, 4}, {1, 2, 3}, ok, "lhs dtype int16, expected int8",
       Error::InvalidArgument, ScalarType::Short},
      {{2, 4}, {1, 3, 4}, {1, 2, 3}, ok, "lhs has rank 2, expected 3"},
      {{1, 2, 4}, {1, 1, 3, 4}, {1, 2, 3}, ok, "rhs_transposed has rank 4, expected 3"},
      {{2, 2, 4}, {3, 3, 4}, {2, 2, 3}, ok,
       "lhs [2, 2, 4] has 2 batches and rhs_transposed [3, 3, 4] 3"},
      {{1, 2, 4}, {1, 3, 5}, {1, 2, 3}, ok,
       "lhs [1, 2, 4] and rhs_transposed [1, 3, 5] differ in depth"},
      {{1, 2, 4}, {1, 3, 4}, {1, 3, 2}, ok, "out [1, 3, 2] differs from [1, 2, 3]"},
      {{1, 2, 4}, {1, 3, 4}, {1, 2, 3}, lhs_offset, "lhs_zero_point = 129, expected [-127, 128]"},
      {{1, 2, 4}, {1, 3, 4}, {1, 2, 3}, rhs_offset, "rhs_zero_point = -128, expected [-127, 128]"},
      {{1, 2, 4}, {1, 3, 4}, {1, 2, 3}, out_zp, "output_zero_point = 128, expected [-128, 127]"},
      {{1, 2, 4}, {1, 3, 4}, {1, 2, 3}, multiplier,
       "output_multiplier = -1, expected [0, 2147483647]"},
      {{1, 2, 4}, {1, 3, 4}, {1, 2, 3}, shift, "output_shift = 31, expected [-31, 30]"},
      {{1, 2, 4}, {1, 3, 4}, {1, 2, 3}, shift_low, "output_shift = -32, expected [-31, 30]"},
      {{2, 2, 4}, {2, 3, 4}, {2, 2, 3}, ok, "lhs must be contiguous (row-major in memory)",
       Error::InvalidArgument, ScalarType::Char, {0, 2, 1}},
  };
  for (const Bad& c : cases) {
    KernelCall call;
    call.tensor(c.lhs_dtype, c.lhs, c.lhs_order)
        .int_value(c.a.lhs_offset)
        .tensor(ScalarType::Char, c.rhs)
        .int_value(c.a.rhs_offset)
        .int_value(c.a.out_zero_point)
        .int_value(c.a.multiplier)
        .int_value(c.a.shift)
        .tensor(ScalarType::Char, c.out);
    EXPECT_EQ(call.prepare(kEntry), c.error) << c.message;
    EXPECT_TRUE(logged(call, c.message));
  }
}

}  // namespace
}  // namespace etns::cortex_m
