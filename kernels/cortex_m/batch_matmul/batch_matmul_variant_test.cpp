// Every compiled variant of batch_matmul against the reference, on the host
// and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include "kernels/cortex_m/batch_matmul/batch_matmul.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::cortex_m {
namespace {

using kernels::testing::Rng;

constexpr uint64_t kSeed = 0x626d6dull;  // "bmm"

void check_case(const BatchMatmulParams& p, const int8_t* lhs, const int8_t* rhs,
                const char* what) {
  int32_t* scratch = ETNS_TEST_ARRAY(int32_t, batch_matmul_scratch_bytes(p) / sizeof(int32_t));
  ETNS_CHECK_VARIANTS(
      kernels::kBatchMatmulVariants,
      static_cast<size_t>(p.batches) * static_cast<size_t>(p.rows) * static_cast<size_t>(p.cols),
      [&](BatchMatmulFn fn, void* out) { fn(p, lhs, rhs, static_cast<int8_t*>(out), scratch); },
      "%s, [%d, %d, %d] x [%d, %d, %d]^T, offsets %d %d %d, M %ld S %d", what,
      static_cast<int>(p.batches), static_cast<int>(p.rows), static_cast<int>(p.depth),
      static_cast<int>(p.batches), static_cast<int>(p.cols), static_cast<int>(p.depth),
      static_cast<int>(p.lhs_offset), static_cast<int>(p.rhs_offset),
      static_cast<int>(p.out_offset), static_cast<long>(p.out.multiplier),
      static_cast<int>(p.out.shift));
}

BatchMatmulParams random_params(Rng& rng, int32_t batches, int32_t rows, int32_t cols,
                                int32_t depth) {
  BatchMatmulParams p;
  p.batches = batches;
  p.rows = rows;
  p.cols = cols;
  p.depth = depth;
  const int32_t offsets[] = {0, -127, 128, 1, 17, -64};
  p.lhs_offset = rng.pick(offsets);
  p.rhs_offset = rng.pick(offsets);
  p.out_offset = static_cast<int32_t>(rng.uniform(-128, 127));
  p.out.multiplier = static_cast<int32_t>(rng.uniform(0, INT32_MAX));
  p.out.shift = static_cast<int32_t>(rng.uniform(-31, 30));
  // Mostly shifts that keep results inside int8, so rounding is exercised.
  if (rng.coin()) p.out.shift = static_cast<int32_t>(rng.uniform(-14, -6));
  return p;
}

// Depths around the 16-lane tile and every column tail of the groups of 4.
ETNS_KERNEL_TEST(BatchMatmulVariants, DepthsAndColumnTails) {
  Rng rng(kSeed);
  const int32_t depths[] = {1, 2, 15, 16, 17, 31, 32, 33, 64, 100};
  for (int32_t depth : depths) {
    for (int32_t cols = 1; cols <= 9; ++cols) {
      kernels::testing::TestMemoryScope scope;
      const int32_t rows = static_cast<int32_t>(rng.uniform(1, 5));
      const int32_t batches = rng.coin() ? 1 : 3;
      const BatchMatmulParams p = random_params(rng, batches, rows, cols, depth);
      const size_t lhs_n = static_cast<size_t>(batches * rows * depth);
      const size_t rhs_n = static_cast<size_t>(batches * cols * depth);
      int8_t* lhs = ETNS_TEST_ARRAY(int8_t, lhs_n + 1) + (rng.coin() ? 1 : 0);
      int8_t* rhs = ETNS_TEST_ARRAY(int8_t, rhs_n + 1) + (rng.coin() ? 1 : 0);
      rng.fill_s8(lhs, lhs_n);
      rng.fill_s8(rhs, rhs_n);
      check_case(p, lhs, rhs, "depth and column tail");
      ETNS_RETURN_IF_FAILED();
    }
  }
}

// Extreme values: every operand byte -128 or 127 with the extreme offsets, and
// a factor of 1 so the sums reach the clamp.
ETNS_KERNEL_TEST(BatchMatmulVariants, ExtremeValues) {
  Rng rng(kSeed + 1);
  for (int trial = 0; trial < 40; ++trial) {
    kernels::testing::TestMemoryScope scope;
    BatchMatmulParams p = random_params(rng, 2, 3, 5, 37);
    if (trial % 2 == 0) {
      p.out.multiplier = 1 << 30;
      p.out.shift = 1;
    }
    const size_t lhs_n = 2 * 3 * 37;
    const size_t rhs_n = 2 * 5 * 37;
    int8_t* lhs = ETNS_TEST_ARRAY(int8_t, lhs_n);
    int8_t* rhs = ETNS_TEST_ARRAY(int8_t, rhs_n);
    for (size_t i = 0; i < lhs_n; ++i) lhs[i] = rng.coin() ? 127 : -128;
    for (size_t i = 0; i < rhs_n; ++i) rhs[i] = rng.coin() ? 127 : -128;
    check_case(p, lhs, rhs, "extreme values");
    ETNS_RETURN_IF_FAILED();
  }
}

// Every shift prepare accepts with the edge multipliers (0 is what TFLite
// writes for a tiny factor; -31 occurs in real models): on extreme bytes,
// then for the rounding shifts on sums that wrap int32, so that even shift
// -31 rounds to -1, 0 or 1.
void check_edge_requant(Rng& rng, int32_t cols, int32_t depth, int32_t shift,
                        const int8_t* lhs, const int8_t* rhs) {
  for (int32_t multiplier : {int32_t{0}, int32_t{1}, int32_t{1} << 30, int32_t{INT32_MAX}}) {
    BatchMatmulParams p = random_params(rng, 1, 1, cols, depth);
    p.lhs_offset = 128;
    p.rhs_offset = rng.coin() ? 128 : -127;
    p.out.multiplier = multiplier;
    p.out.shift = shift;
    check_case(p, lhs, rhs, "edge multiplier and shift");
    ETNS_RETURN_IF_FAILED();
  }
}

ETNS_KERNEL_TEST(BatchMatmulVariants, EdgeMultipliersAndEveryShift) {
  Rng rng(kSeed + 3);
  const int32_t cols = 5;
  const int32_t depth = 34000;  // K * 255 * 255 > 2^31: the sums wrap
  int8_t* lhs = ETNS_TEST_ARRAY(int8_t, depth);
  int8_t* rhs = ETNS_TEST_ARRAY(int8_t, cols * depth);
  for (int32_t k = 0; k < depth; ++k) lhs[k] = static_cast<int8_t>(k % 7 == 0 ? -128 : 127);
  for (int32_t k = 0; k < cols * depth; ++k) rhs[k] = rng.coin() ? 127 : -128;
  for (int32_t shift = -31; shift <= 30; ++shift) {
    check_edge_requant(rng, cols, 37, shift, lhs, rhs);
    ETNS_RETURN_IF_FAILED();
  }
  for (int32_t shift : {-31, -30, -16, -1}) {
    check_edge_requant(rng, 2, depth, shift, lhs, rhs);
    ETNS_RETURN_IF_FAILED();
  }
}

// Random shapes, including empty ones and a depth large enough that the
// int32 sums wrap (K * 255 * 255 > 2^31 needs K > 33,025).
ETNS_KERNEL_TEST(BatchMatmulVariants, RandomShapesAndWrappingSums) {
  Rng rng(kSeed + 2);
  for (int trial = 0; trial < 120; ++trial) {
    kernels::testing::TestMemoryScope scope;
    const int32_t batches = static_cast<int32_t>(rng.uniform(0, 3));
    const int32_t rows = static_cast<int32_t>(rng.uniform(0, 6));
    const int32_t cols = static_cast<int32_t>(rng.uniform(0, 11));
    const int32_t depth = static_cast<int32_t>(rng.uniform(0, 70));
    const BatchMatmulParams p = random_params(rng, batches, rows, cols, depth);
    const size_t lhs_n = static_cast<size_t>(batches * rows * depth);
    const size_t rhs_n = static_cast<size_t>(batches * cols * depth);
    int8_t* lhs = ETNS_TEST_ARRAY(int8_t, lhs_n + 1);
    int8_t* rhs = ETNS_TEST_ARRAY(int8_t, rhs_n + 1);
    rng.fill_s8(lhs, lhs_n + 1);
    rng.fill_s8(rhs, rhs_n + 1);
    check_case(p, lhs, rhs, "random");
    ETNS_RETURN_IF_FAILED();
  }
  kernels::testing::TestMemoryScope scope;
  const int32_t depth = 40000;
  BatchMatmulParams p = random_params(rng, 1, 1, 2, depth);
  p.lhs_offset = 128;
  p.rhs_offset = 128;
  int8_t* lhs = ETNS_TEST_ARRAY(int8_t, depth);
  int8_t* rhs = ETNS_TEST_ARRAY(int8_t, 2 * depth);
  for (int32_t k = 0; k < depth; ++k) lhs[k] = 127;
  for (int32_t k = 0; k < 2 * depth; ++k) rhs[k] = static_cast<int8_t>(k < depth ? 127 : -100);
  check_case(p, lhs, rhs, "wrapping sums");
}

}  // namespace
}  // namespace etns::cortex_m
