// Every compiled variant of etns_ops::squared_difference against the
// reference, on the host and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include "kernels/etns_ops/squared_difference/squared_difference.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::etns_ops {
namespace {

using kernels::testing::Rng;

constexpr uint64_t kSeed = 0x73716466;  // "sqdf"

// TFLM's factors: an input's below 1 (shift 0 with M <= 2^30, or a negative
// shift), out's any; now and then an input factor up to 2^31 - 1 at shift 0
// (the square then wraps, in every variant alike) or 0.
SquaredDifferenceParams random_params(Rng& rng) {
  SquaredDifferenceParams p;
  const auto input = [&](int32_t& multiplier, int32_t& shift) {
    const int32_t pick = rng.uniform32(0, 9);
    shift = pick < 3 ? 0 : -rng.uniform32(1, 12);
    multiplier = pick == 0 ? (int32_t{1} << 30) : rng.uniform32(int32_t{1} << 30, INT32_MAX);
    if (pick == 1) multiplier = rng.uniform32(0, int32_t{1} << 30);
    if (pick == 9) multiplier = 0;
  };
  input(p.self_multiplier, p.self_shift);
  input(p.other_multiplier, p.other_shift);
  p.self_offset = -rng.uniform32(-128, 127);
  p.other_offset = -rng.uniform32(-128, 127);
  p.out_zero_point = rng.uniform32(-128, 127);
  p.out_multiplier = rng.uniform32(int32_t{1} << 30, INT32_MAX);
  p.out_shift = rng.uniform32(-24, 4);
  return p;
}

// One walk: dims and strides as prepare plans them, random codes for the
// elements each operand spans.
void check_walk(Rng& rng, SquaredDifferenceParams p, size_t self_count, size_t other_count, const char* what) {
  kernels::testing::TestMemoryScope scope;
  const size_t n = static_cast<size_t>(p.dims[0]) * static_cast<size_t>(p.dims[1]) * static_cast<size_t>(p.dims[2]) *
                   static_cast<size_t>(p.dims[3]);
  int8_t* self = ETNS_TEST_ARRAY(int8_t, self_count + 1);
  int8_t* other = ETNS_TEST_ARRAY(int8_t, other_count + 1);
  rng.fill_s8(self, self_count + 1);
  rng.fill_s8(other, other_count + 1);
  ETNS_CHECK_VARIANTS(
      kernels::kSquaredDifferenceVariants, n,
      [&](SquaredDifferenceFn fn, void* out) { fn(p, self, other, static_cast<int8_t*>(out)); },
      "%s, dims %d %d %d %d, shifts %d %d %d", what, static_cast<int>(p.dims[0]), static_cast<int>(p.dims[1]),
      static_cast<int>(p.dims[2]), static_cast<int>(p.dims[3]), static_cast<int>(p.self_shift),
      static_cast<int>(p.other_shift), static_cast<int>(p.out_shift));
}

SquaredDifferenceParams with_walk(SquaredDifferenceParams p, const int32_t (&dims)[4], const int32_t (&a)[4],
                                  const int32_t (&b)[4]) {
  for (int d = 0; d < 4; ++d) {
    p.dims[d] = dims[d];
    p.self_strides[d] = a[d];
    p.other_strides[d] = b[d];
  }
  return p;
}

// Equal shapes at every tile length, several parameter sets each.
ETNS_KERNEL_TEST(SquaredDifferenceVariants, SameShapesEveryLength) {
  Rng rng(kSeed);
  for (const size_t len : kernels::testing::kTileLengths) {
    for (int rep = 0; rep < 3; ++rep) {
      const int32_t n = static_cast<int32_t>(len);
      check_walk(rng, with_walk(random_params(rng), {1, 1, 1, n}, {0, 0, 0, 1}, {0, 0, 0, 1}), len, len, "same");
      ETNS_RETURN_IF_FAILED();
    }
  }
}

// A row against rows, a column, a scalar (either side), both operands
// broadcast, and a 4-D alternation, with row lengths straddling the lanes.
ETNS_KERNEL_TEST(SquaredDifferenceVariants, Broadcasts) {
  Rng rng(kSeed + 1);
  const int32_t lengths[] = {1, 3, 4, 5, 16, 17, 33};
  for (const int32_t n : lengths) {
    const size_t rows = 3, un = static_cast<size_t>(n);
    const int32_t r = 3;
    check_walk(rng, with_walk(random_params(rng), {1, 1, r, n}, {0, 0, n, 1}, {0, 0, 0, 1}), rows * un, un, "row");
    check_walk(rng, with_walk(random_params(rng), {1, 1, r, n}, {0, 0, 0, 1}, {0, 0, n, 1}), un, rows * un,
               "row, self");
    check_walk(rng, with_walk(random_params(rng), {1, 1, r, n}, {0, 0, n, 1}, {0, 0, 1, 0}), rows * un, rows,
               "column");
    check_walk(rng, with_walk(random_params(rng), {1, 1, 1, n}, {0, 0, 0, 0}, {0, 0, 0, 1}), 1, un, "scalar self");
    check_walk(rng, with_walk(random_params(rng), {1, 1, 1, n}, {0, 0, 0, 1}, {0, 0, 0, 0}), un, 1, "scalar other");
    check_walk(rng, with_walk(random_params(rng), {1, 1, r, n}, {0, 0, 1, 0}, {0, 0, 0, 1}), rows, un, "outer");
    check_walk(rng, with_walk(random_params(rng), {2, r, 2, n}, {0, 2 * n, n, 1}, {r, 1, 0, 0}), 2 * rows * un * 1,
               2 * rows, "alternating");
    ETNS_RETURN_IF_FAILED();
  }
  check_walk(rng, with_walk(random_params(rng), {1, 1, 1, 1}, {0, 0, 0, 0}, {0, 0, 0, 0}), 1, 1, "one element");
}

// Every code pair on fixed grids: [256] rows of one self code against all
// 256 other codes, for each shift-sign combination the Helium variant picks.
ETNS_KERNEL_TEST(SquaredDifferenceVariants, EveryCodePair) {
  kernels::testing::TestMemoryScope scope;
  int8_t* self = ETNS_TEST_ARRAY(int8_t, 256);
  int8_t* other = ETNS_TEST_ARRAY(int8_t, 256);
  for (int32_t i = 0; i < 256; ++i) self[i] = other[i] = static_cast<int8_t>(i - 128);
  const int32_t shifts[][2] = {{0, 0}, {0, -3}, {-2, 0}, {-1, -5}};
  for (const auto& s : shifts) {
    SquaredDifferenceParams p;
    p.dims[2] = 256;
    p.dims[3] = 256;
    p.self_strides[2] = 1;
    p.other_strides[3] = 1;
    p.self_offset = 7;
    p.other_offset = -3;
    p.self_multiplier = s[0] == 0 ? int32_t{1} << 30 : 1518500250;
    p.self_shift = s[0];
    p.other_multiplier = s[1] == 0 ? int32_t{1} << 30 : 1900000000;
    p.other_shift = s[1];
    p.out_zero_point = -100;
    p.out_multiplier = 1234567890;
    p.out_shift = -12;
    ETNS_CHECK_VARIANTS(
        kernels::kSquaredDifferenceVariants, 256 * 256,
        [&](SquaredDifferenceFn fn, void* out) { fn(p, self, other, static_cast<int8_t*>(out)); }, "shifts %d %d",
        static_cast<int>(s[0]), static_cast<int>(s[1]));
  }
}

}  // namespace
}  // namespace etns::etns_ops
