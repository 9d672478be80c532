// Every compiled variant of quantized_mean against the reference, on the host
// and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include "kernels/cortex_m_ns/mean/mean.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::cortex_m_ns {
namespace {

using kernels::testing::kTileLengths;
using kernels::testing::Rng;

constexpr uint64_t kSeed = 0x6d65616eull;  // "mean"

size_t in_count(const MeanGeometry& g) {
  return g.outer * g.reduce_outer * g.middle * g.reduce * g.inner;
}

void check_case(const MeanParams& p, const MeanGeometry& g, const int8_t* in, const char* what) {
  ETNS_CHECK_VARIANTS(
      kernels::kMeanVariants, g.outputs(),
      [&](MeanFn fn, void* out) { fn(p, g, in, static_cast<int8_t*>(out)); },
      "%s, geometry [%zu, %zu, %zu, %zu, %zu], zp %d -> %d, (%d, %d)", what, g.outer,
      g.reduce_outer, g.middle, g.reduce, g.inner, static_cast<int>(p.in_zero_point),
      static_cast<int>(p.out_zero_point), static_cast<int>(p.out.multiplier),
      static_cast<int>(p.out.shift));
}

// tier1mean_ns c0i1 (operators.md §3.5).
MeanParams tier1_params() {
  MeanParams p;
  p.in_zero_point = 1;
  p.out_zero_point = 4;
  p.out = {1494462729, -4};
  return p;
}

// Any parameters prepare accepts, with the edge values drawn often.
MeanParams random_params(Rng& rng) {
  MeanParams p;
  const int32_t zero_points[] = {-128, 127, 0, rng.uniform32(-128, 127)};
  p.in_zero_point = rng.pick(zero_points);
  p.out_zero_point = rng.pick(zero_points);
  const int32_t multipliers[] = {0, 1, 1 << 30, INT32_MAX, rng.uniform32(1 << 30, INT32_MAX)};
  const int32_t shifts[] = {-31, -1, 0, 1, 30, rng.uniform32(-31, 30), rng.uniform32(-16, -4)};
  p.out = {rng.pick(multipliers), rng.pick(shifts)};
  return p;
}

// tier1mean: 16 channels of 1024 contiguous bytes.
ETNS_KERNEL_TEST(MeanVariants, Tier1Shape) {
  const MeanGeometry g{1, 1, 16, 1024, 1};
  int8_t* in = ETNS_TEST_ARRAY(int8_t, in_count(g));
  Rng rng(kSeed);
  rng.fill_s8(in, in_count(g));
  check_case(tier1_params(), g, in, "tier1mean");
}

// Every code as a constant channel of 1024 bytes (the spec's vectors), with
// the real parameters and random ones; 256 outputs, 4 per requantisation.
ETNS_KERNEL_TEST(MeanVariants, ConstantChannelsOfEveryCode) {
  const size_t count = 1024;
  int8_t* in = ETNS_TEST_ARRAY(int8_t, 256 * count);
  for (int v = 0; v < 256; ++v) {
    for (size_t r = 0; r < count; ++r) in[v * count + r] = static_cast<int8_t>(v - 128);
  }
  const MeanGeometry g{1, 1, 256, count, 1};
  check_case(tier1_params(), g, in, "constant channels, tier1mean");
  ETNS_RETURN_IF_FAILED();
  Rng rng(kSeed + 1);
  for (int i = 0; i < 40; ++i) {
    check_case(random_params(rng), g, in, "constant channels");
    ETNS_RETURN_IF_FAILED();
  }
}

// Reduction lengths around every tile (16-byte vectors, 512-byte passes, the
// 256-row int16 sums), as contiguous runs and as columns, misaligned too.
ETNS_KERNEL_TEST(MeanVariants, LengthsAroundTheTile) {
  Rng rng(kSeed + 2);
  const size_t extra[] = {127, 128, 129, 255, 256, 257, 511, 512, 513, 1024, 1025};
  auto run_length = [&](size_t n) {
    kernels::testing::TestMemoryScope scope;
    const size_t inner = static_cast<size_t>(rng.uniform(2, 19));
    const size_t bytes = 3 * n * inner + 1;
    int8_t* in = ETNS_TEST_ARRAY(int8_t, bytes);
    rng.fill_s8(in, bytes);
    check_case(random_params(rng), MeanGeometry{3, 1, 1, n, 1}, in, "contiguous runs");
    ETNS_RETURN_IF_FAILED();
    check_case(random_params(rng), MeanGeometry{1, 1, 3, n, 1}, in + 1, "misaligned runs");
    ETNS_RETURN_IF_FAILED();
    check_case(random_params(rng), MeanGeometry{1, 1, 1, n, inner}, in, "columns");
    ETNS_RETURN_IF_FAILED();
    check_case(random_params(rng), MeanGeometry{3, 1, 1, n, inner}, in + 1, "misaligned columns");
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

// Random geometries of all five dims: two reduced runs, outputs not a multiple
// of 4, columns not a multiple of 8, empty dims.
ETNS_KERNEL_TEST(MeanVariants, RandomGeometries) {
  Rng rng(kSeed + 3);
  const size_t sizes[] = {1, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33};
  for (int trial = 0; trial < 400; ++trial) {
    kernels::testing::TestMemoryScope scope;
    MeanGeometry g{rng.pick(sizes), rng.pick(sizes), rng.pick(sizes), rng.pick(sizes),
                   rng.pick(sizes)};
    if (trial % 40 == 39) g.middle = 0;
    if (trial % 40 == 19) g.reduce = 0;  // count 0: every output is RQ(0) + zp
    if (in_count(g) > 40000) continue;
    int8_t* in = ETNS_TEST_ARRAY(int8_t, in_count(g) + 1);
    const size_t offset = rng.coin() ? 1 : 0;
    rng.fill_s8(in + offset, in_count(g));
    check_case(random_params(rng), g, in + offset, "random geometry");
    ETNS_RETURN_IF_FAILED();
  }
}

// The largest sums: every byte at one end, zero point at the other, over
// counts that cross the 256-row int16 sums many times.
ETNS_KERNEL_TEST(MeanVariants, ExtremeSums) {
  const size_t count = 12000;
  int8_t* in = ETNS_TEST_ARRAY(int8_t, count * 3);
  MeanParams p;
  p.out = {int32_t{1} << 30, -14};  // about 1 / count
  for (int8_t value : {int8_t{-128}, int8_t{127}}) {
    for (size_t i = 0; i < count * 3; ++i) in[i] = value;
    p.in_zero_point = value == 127 ? -128 : 127;
    check_case(p, MeanGeometry{1, 1, 1, count, 3}, in, "extreme columns");
    ETNS_RETURN_IF_FAILED();
    check_case(p, MeanGeometry{1, 3, 1, count, 1}, in, "extreme runs");
    ETNS_RETURN_IF_FAILED();
    check_case(p, MeanGeometry{1, 2, 1, count / 2, 3}, in, "extreme two-level columns");
    ETNS_RETURN_IF_FAILED();
    // Channels dividing a vector (the host's folded sums), many flushes.
    check_case(p, MeanGeometry{1, 1, 1, count * 3 / 16, 16}, in, "extreme channels_last columns");
    ETNS_RETURN_IF_FAILED();
    check_case(p, MeanGeometry{1, 3, 1, count / 8, 8}, in, "extreme two-level channels_last columns");
    ETNS_RETURN_IF_FAILED();
  }
}

}  // namespace
}  // namespace etns::cortex_m_ns
