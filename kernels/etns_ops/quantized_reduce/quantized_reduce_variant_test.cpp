// Every compiled variant of etns_ops::quantized_reduce against the reference,
// on the host and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include "kernels/etns_ops/quantized_reduce/quantized_reduce.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::etns_ops {
namespace {

using kernels::testing::kTileLengths;
using kernels::testing::Rng;

constexpr uint64_t kSeed = 0x72656475ull;  // "redu"

size_t in_count(const ReduceGeometry& g) { return g.outer * g.reduce_outer * g.middle * g.reduce * g.inner; }

// Parameters as prepare derives them for `g` (count, bias in upstream's order).
QuantizedReduceParams params_for(Reduction reduction, const ReduceGeometry& g, int32_t in_zero_point,
                                 int32_t out_zero_point, float scale) {
  QuantizedReduceParams p;
  p.reduction = reduction;
  p.count = static_cast<int32_t>(g.count());
  p.count_f = static_cast<float>(p.count);
  p.out_zero_point = out_zero_point;
  p.scale = scale;
  const float zero_point_term = static_cast<float>(-in_zero_point) * scale;
  p.bias = reduction == Reduction::SumRescaled ? zero_point_term * p.count_f : zero_point_term;
  return p;
}

QuantizedReduceParams random_params(Rng& rng, const ReduceGeometry& g) {
  const Reduction reductions[] = {Reduction::MeanTruncated, Reduction::MeanRescaled, Reduction::SumRescaled,
                                  Reduction::Max};
  const int32_t zero_points[] = {-128, 127, 0, rng.uniform32(-128, 127)};
  const Reduction reduction = rng.pick(reductions);
  // Sums keep 256 * scale * count below 2^30, as prepare requires.
  const float scales[] = {1.0F, 0.5F, 1.7755F, 0.0078125F, static_cast<float>(rng.uniform(1, 4000)) / 1000.0F};
  return params_for(reduction, g, rng.pick(zero_points), rng.pick(zero_points), rng.pick(scales));
}

void check_case(const QuantizedReduceParams& p, const ReduceGeometry& g, const int8_t* in, const char* what) {
  ETNS_CHECK_VARIANTS(
      kernels::kQuantizedReduceVariants, g.outputs(),
      [&](QuantizedReduceFn fn, void* out) { fn(p, g, in, static_cast<int8_t*>(out)); },
      "%s, geometry [%zu, %zu, %zu, %zu, %zu], reduction %d, zp -> %d, scale %g", what, g.outer, g.reduce_outer,
      g.middle, g.reduce, g.inner, static_cast<int>(p.reduction), static_cast<int>(p.out_zero_point),
      static_cast<double>(p.scale));
}

// fingerprint_signature's MEAN: [1, 42, 42, 16] over H, W, every reduction.
ETNS_KERNEL_TEST(QuantizedReduceVariants, FingerprintShape) {
  const ReduceGeometry g{1, 1, 1, 42 * 42, 16};
  int8_t* in = ETNS_TEST_ARRAY(int8_t, in_count(g));
  Rng rng(kSeed);
  rng.fill_s8(in, in_count(g));
  for (const Reduction r : {Reduction::MeanTruncated, Reduction::MeanRescaled, Reduction::SumRescaled,
                            Reduction::Max}) {
    check_case(params_for(r, g, -128, -128, 1.7755F), g, in, "fingerprint");
    ETNS_RETURN_IF_FAILED();
  }
}

// Reduction lengths around every tile (16-byte vectors, the 256-row int16
// sums), as contiguous runs and as columns of every width up to 33, misaligned too.
ETNS_KERNEL_TEST(QuantizedReduceVariants, LengthsAroundTheTile) {
  Rng rng(kSeed + 1);
  const size_t extra[] = {255, 256, 257, 511, 512, 513};
  auto run_length = [&](size_t n) {
    if (n == 0) return;  // prepare refuses a reduction of no elements
    kernels::testing::TestMemoryScope scope;
    const size_t inner = static_cast<size_t>(rng.uniform(2, 33));
    const size_t bytes = 3 * n * inner + 1;
    int8_t* in = ETNS_TEST_ARRAY(int8_t, bytes);
    rng.fill_s8(in, bytes);
    const ReduceGeometry cases[] = {{3, 1, 1, n, 1}, {1, 1, 3, n, 1}, {1, 1, 1, n, inner}, {3, 1, 1, n, inner}};
    for (const ReduceGeometry& g : cases) {
      check_case(random_params(rng, g), g, in + (rng.coin() ? 1 : 0), "lengths");
      ETNS_RETURN_IF_FAILED();
    }
  };
  for (size_t n : kTileLengths) {
    run_length(n);
    ETNS_RETURN_IF_FAILED();
  }
  for (size_t n : extra) {
    run_length(n);
    ETNS_RETURN_IF_FAILED();
  }
}

// Random geometries of all five dims: two reduced runs, any column count.
ETNS_KERNEL_TEST(QuantizedReduceVariants, RandomGeometries) {
  Rng rng(kSeed + 2);
  const size_t sizes[] = {1, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33};
  for (int trial = 0; trial < 300; ++trial) {
    kernels::testing::TestMemoryScope scope;
    const ReduceGeometry g{rng.pick(sizes), rng.pick(sizes), rng.pick(sizes), rng.pick(sizes), rng.pick(sizes)};
    if (in_count(g) > 40000) continue;
    int8_t* in = ETNS_TEST_ARRAY(int8_t, in_count(g) + 1);
    const size_t offset = rng.coin() ? 1 : 0;
    rng.fill_s8(in + offset, in_count(g));
    check_case(random_params(rng, g), g, in + offset, "random geometry");
    ETNS_RETURN_IF_FAILED();
  }
}

// The largest sums and maxima: every byte at one end, over counts that cross
// the 256-row int16 sums many times.
ETNS_KERNEL_TEST(QuantizedReduceVariants, ExtremeValues) {
  const size_t count = 12000;
  int8_t* in = ETNS_TEST_ARRAY(int8_t, count * 3);
  for (int8_t value : {int8_t{-128}, int8_t{127}}) {
    for (size_t i = 0; i < count * 3; ++i) in[i] = value;
    const ReduceGeometry cases[] = {
        {1, 1, 1, count, 3}, {1, 3, 1, count, 1}, {1, 2, 1, count / 2, 3}, {1, 1, 1, count * 3 / 16, 16}};
    for (const ReduceGeometry& g : cases) {
      for (const Reduction r : {Reduction::MeanTruncated, Reduction::MeanRescaled, Reduction::SumRescaled,
                                Reduction::Max}) {
        check_case(params_for(r, g, value == 127 ? -128 : 127, 0, 0.001F), g, in, "extreme");
        ETNS_RETURN_IF_FAILED();
      }
    }
  }
}

}  // namespace
}  // namespace etns::etns_ops
