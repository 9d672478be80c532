// Every compiled variant of the portable operators' float32 rows against the
// reference, on the host and on the Cortex-M55 (kernels/testing/kernel_test.h):
// lengths around every vector tile, special values (NaNs with payloads, both
// infinities, signed zeros, denormals, the float extremes) mixed with ordinary
// values, and special factors and bounds.
#include <cstddef>
#include <cstdint>

#include "kernels/portable/float_rows.h"
#include "kernels/testing/float_bits.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::portable {
namespace {

using kernels::testing::float_from_bits;
using kernels::testing::kTileLengths;
using kernels::testing::Rng;

constexpr uint64_t kSeed = 0x666c6f6174ull;  // "float"

// A value: one in four special, the rest of mixed sign and magnitude.
float random_value(Rng& rng) {
  const float specials[] = {
      float_from_bits(0x7FC00000u), float_from_bits(0xFFC00001u), float_from_bits(0x7F800001u),  // NaNs
      float_from_bits(0x7F800000u), float_from_bits(0xFF800000u),                                 // infinities
      0.0f,                         -0.0f,                                                        // zeros
      float_from_bits(0x00000001u), float_from_bits(0x807FFFFFu),                                 // denormals
      float_from_bits(0x7F7FFFFFu), float_from_bits(0xFF7FFFFFu),                                 // extremes
      1.0f,                         -1.0f};
  if (rng.uniform(0, 3) == 0) return rng.pick(specials);
  const double magnitude = rng.unit() * 100.0;
  return static_cast<float>(rng.coin() ? -magnitude : magnitude);
}

float* random_values(Rng& rng, size_t n) {
  float* values = ETNS_TEST_ARRAY(float, n + 1);
  for (size_t i = 0; i < n; ++i) values[i] = random_value(rng);
  return values;
}

ETNS_KERNEL_TEST(FloatRowVariants, LeakyRelu) {
  Rng rng(kSeed);
  const float slopes[] = {0.01f, 0.2f, 0.0f, -0.0f, -1.5f, 1e30f, float_from_bits(0x7FC00000u),
                          float_from_bits(0x7F800000u)};
  for (size_t n : kTileLengths) {
    for (float slope : slopes) {
      kernels::testing::TestMemoryScope scope;
      const float* in = random_values(rng, n);
      ETNS_CHECK_VARIANTS(
          kernels::kLeakyReluRowVariants, n * sizeof(float),
          [&](LeakyReluRowFn fn, void* out) { fn(in, static_cast<float*>(out), n, slope); }, "n %zu, slope %g", n,
          static_cast<double>(slope));
      ETNS_RETURN_IF_FAILED();
    }
  }
}

ETNS_KERNEL_TEST(FloatRowVariants, Clamp) {
  Rng rng(kSeed + 1);
  struct Bounds {
    float lo, hi;
  };
  const Bounds bounds[] = {{0.0f, 6.0f},
                           {-1.0f, 1.0f},
                           {-0.0f, 0.0f},
                           {0.0f, -0.0f},
                           {5.0f, -5.0f},  // lo above hi: hi wins
                           {float_from_bits(0xFF800000u), float_from_bits(0x7F800000u)},
                           {float_from_bits(0x7FC00000u), 1.0f},
                           {-1.0f, float_from_bits(0x7FC00001u)}};
  for (size_t n : kTileLengths) {
    for (const Bounds& b : bounds) {
      kernels::testing::TestMemoryScope scope;
      const float* in = random_values(rng, n);
      ETNS_CHECK_VARIANTS(
          kernels::kClampRowVariants, n * sizeof(float),
          [&](ClampRowFn fn, void* out) { fn(in, static_cast<float*>(out), n, b.lo, b.hi); }, "n %zu, [%g, %g]", n,
          static_cast<double>(b.lo), static_cast<double>(b.hi));
      ETNS_RETURN_IF_FAILED();
    }
  }
}

ETNS_KERNEL_TEST(FloatRowVariants, ClampS8) {
  Rng rng(kSeed + 3);
  const int8_t bounds[][2] = {{-128, 127}, {0, 6}, {-5, 5}, {5, -5}, {127, 127}, {-128, -128}};
  for (size_t n : kTileLengths) {
    for (const auto& b : bounds) {
      kernels::testing::TestMemoryScope scope;
      int8_t* in = ETNS_TEST_ARRAY(int8_t, n + 1);
      rng.fill_s8(in, n);
      ETNS_CHECK_VARIANTS(
          kernels::kClampRowS8Variants, n,
          [&](ClampRowS8Fn fn, void* out) { fn(in, static_cast<int8_t*>(out), n, b[0], b[1]); }, "n %zu, [%d, %d]", n,
          static_cast<int>(b[0]), static_cast<int>(b[1]));
      ETNS_RETURN_IF_FAILED();
    }
  }
}

// Both operands rows, either repeated (step 0), and a step of 2 (the
// reference's own path).
ETNS_KERNEL_TEST(FloatRowVariants, Sub) {
  Rng rng(kSeed + 2);
  const float alphas[] = {1.0f, -2.5f, 0.0f, float_from_bits(0x7F800000u), float_from_bits(0x7FC00000u)};
  const size_t steps[][2] = {{1, 1}, {1, 0}, {0, 1}, {2, 1}, {1, 2}};
  for (size_t n : kTileLengths) {
    for (const auto& step : steps) {
      kernels::testing::TestMemoryScope scope;
      const float alpha = rng.pick(alphas);
      const float* a = random_values(rng, 2 * n + 1);
      const float* b = random_values(rng, 2 * n + 1);
      ETNS_CHECK_VARIANTS(
          kernels::kSubRowVariants, n * sizeof(float),
          [&](SubRowFn fn, void* out) { fn(a, step[0], b, step[1], static_cast<float*>(out), n, alpha); },
          "n %zu, steps %zu/%zu, alpha %g", n, step[0], step[1], static_cast<double>(alpha));
      ETNS_RETURN_IF_FAILED();
    }
  }
}

}  // namespace
}  // namespace etns::portable
