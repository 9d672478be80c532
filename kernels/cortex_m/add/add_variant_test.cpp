// Every compiled variant of quantized_add against the reference, on the host
// and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include "kernels/cortex_m/add/add.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::cortex_m {
namespace {

using kernels::Requant;
using kernels::testing::kTileLengths;
using kernels::testing::Rng;

constexpr uint64_t kSeed = 0x616464ull;  // "add"
constexpr size_t kPairs = 256 * 256;

// A requantisation prepare accepts: usually a real scale (input factors
// around 2^-20 .. 2^-19 times a fraction, as exporters emit for the 2^20
// headroom), sometimes an edge: multipliers 0, 1, 2^30, INT32_MAX and shifts
// -31, -1, 0, 1, 30 (wrapping left shifts included).
Requant random_requant(Rng& rng, int32_t typical_shift_lo, int32_t typical_shift_hi) {
  if (rng.uniform(0, 3) != 0) {
    return {rng.uniform32(1 << 30, INT32_MAX), rng.uniform32(typical_shift_lo, typical_shift_hi)};
  }
  const int32_t multipliers[] = {0, 1, int32_t{1} << 30, INT32_MAX, rng.uniform32(0, INT32_MAX)};
  const int32_t shifts[] = {-31, -1, 0, 1, 30, rng.uniform32(-31, 30)};
  return {rng.pick(multipliers), rng.pick(shifts)};
}

AddParams random_params(Rng& rng) {
  const int32_t zero_points[] = {-128, 127, 0, rng.uniform32(-128, 127), rng.uniform32(-128, 127)};
  AddParams p;
  p.a_zero_point = rng.pick(zero_points);
  p.b_zero_point = rng.pick(zero_points);
  p.out_zero_point = rng.pick(zero_points);
  p.a = random_requant(rng, -3, 0);
  p.b = random_requant(rng, -3, 0);
  p.out = random_requant(rng, -22, -16);
  if (rng.coin()) {
    p.activation_min = rng.uniform32(-128, 127);
    p.activation_max = rng.uniform32(p.activation_min, 127);
  }
  return p;
}

void check_case(const AddParams& p, const int8_t* a, const int8_t* b, size_t n, const char* what) {
  ETNS_CHECK_VARIANTS(
      kernels::kAddVariants, n,
      [&](AddFn fn, void* out) { fn(p, a, b, static_cast<int8_t*>(out), n); },
      "%s, n %zu, zp %d %d -> %d, a (%d, %d), b (%d, %d), out (%d, %d), act [%d, %d], "
      "b channels %zu",
      what, n, static_cast<int>(p.a_zero_point), static_cast<int>(p.b_zero_point),
      static_cast<int>(p.out_zero_point), static_cast<int>(p.a.multiplier),
      static_cast<int>(p.a.shift), static_cast<int>(p.b.multiplier), static_cast<int>(p.b.shift),
      static_cast<int>(p.out.multiplier), static_cast<int>(p.out.shift),
      static_cast<int>(p.activation_min), static_cast<int>(p.activation_max), p.b_channels);
}

// Every (a, b) code pair with random parameter sets.
ETNS_KERNEL_TEST(AddVariants, AllPairsRandomParams) {
  int8_t* a = ETNS_TEST_ARRAY(int8_t, kPairs);
  int8_t* b = ETNS_TEST_ARRAY(int8_t, kPairs);
  for (size_t i = 0; i < kPairs; ++i) {
    a[i] = static_cast<int8_t>(static_cast<int>(i / 256) - 128);
    b[i] = static_cast<int8_t>(static_cast<int>(i % 256) - 128);
  }
  Rng rng(kSeed);
  for (int i = 0; i < 24; ++i) {
    check_case(random_params(rng), a, b, kPairs, "all pairs");
    ETNS_RETURN_IF_FAILED();
  }
}

// Every output shift with edge multipliers, on random pairs.
ETNS_KERNEL_TEST(AddVariants, EveryOutputShift) {
  Rng rng(kSeed + 1);
  const size_t n = 257;
  int8_t* a = ETNS_TEST_ARRAY(int8_t, n);
  int8_t* b = ETNS_TEST_ARRAY(int8_t, n);
  rng.fill_s8(a, n);
  rng.fill_s8(b, n);
  for (int32_t shift = -31; shift <= 30; ++shift) {
    for (int32_t multiplier : {int32_t{0}, int32_t{1}, int32_t{1} << 30, int32_t{INT32_MAX}}) {
      AddParams p = random_params(rng);
      p.out = {multiplier, shift};
      check_case(p, a, b, n, "output shift");
      ETNS_RETURN_IF_FAILED();
    }
  }
}

// Every tile length, aligned and one byte off.
ETNS_KERNEL_TEST(AddVariants, LengthsAroundTheTile) {
  Rng rng(kSeed + 2);
  for (size_t n : kTileLengths) {
    kernels::testing::TestMemoryScope scope;
    int8_t* a = ETNS_TEST_ARRAY(int8_t, n + 1);
    int8_t* b = ETNS_TEST_ARRAY(int8_t, n + 1);
    rng.fill_s8(a, n + 1);
    rng.fill_s8(b, n + 1);
    check_case(random_params(rng), a, b, n, "aligned");
    ETNS_RETURN_IF_FAILED();
    check_case(random_params(rng), a + 1, b, n, "misaligned");
    ETNS_RETURN_IF_FAILED();
  }
}

// Channel broadcast: b holds C values for every pixel of a, C around the tile.
ETNS_KERNEL_TEST(AddVariants, ChannelBroadcast) {
  Rng rng(kSeed + 3);
  for (size_t channels : {size_t{1}, size_t{3}, size_t{16}, size_t{17}, size_t{33}, size_t{64}}) {
    kernels::testing::TestMemoryScope scope;
    const size_t n = channels * 7;
    int8_t* a = ETNS_TEST_ARRAY(int8_t, n);
    int8_t* b = ETNS_TEST_ARRAY(int8_t, channels);
    rng.fill_s8(a, n);
    rng.fill_s8(b, channels);
    AddParams p = random_params(rng);
    p.b_channels = channels;
    check_case(p, a, b, n, "channel broadcast");
    ETNS_RETURN_IF_FAILED();
  }
}

}  // namespace
}  // namespace etns::cortex_m
