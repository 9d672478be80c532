// Every compiled variant of quantized_add against the reference, on the host
// and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include "kernels/cortex_m/add/add.h"

#include <utility>

#include "kernels/testing/binary_variant_checks.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::cortex_m {
namespace {

using kernels::Requant;
using kernels::testing::kTileLengths;
using kernels::testing::Rng;
using Layout = kernels::testing::BufferLayout;

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

void check_case(const AddParams& p, const int8_t* a, const int8_t* b, size_t n, const char* what,
                Layout layout = Layout::Aligned) {
  ETNS_CHECK_BINARY_VARIANTS(
      kernels::kAddVariants, p, a, b, n, layout,
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

// Every length up to 33 (every tail of the four-lane steps, and the first
// steps of the Helium loop, which works one step ahead) on each path the
// Helium variant picks: input shifts below 0 or 0 on either side (output
// shift below 0), or a left shift; out apart, misaligned, or in place over a.
ETNS_KERNEL_TEST(AddVariants, EveryShortLengthEveryPath) {
  Rng rng(kSeed + 4);
  const size_t longest = 33;
  int8_t* a = ETNS_TEST_ARRAY(int8_t, longest);
  int8_t* b = ETNS_TEST_ARRAY(int8_t, longest);
  const int32_t input_shifts[][2] = {{-1, -2}, {-3, 0}, {0, -1}, {0, 0}, {1, -1}};
  for (size_t n = 1; n <= longest; ++n) {
    for (const auto& shifts : input_shifts) {
      for (Layout layout : {Layout::Aligned, Layout::Misaligned, Layout::InPlace}) {
        rng.fill_s8(a, n);
        rng.fill_s8(b, n);
        AddParams p = random_params(rng);
        p.a.shift = shifts[0];
        p.b.shift = shifts[1];
        p.out.shift = rng.uniform32(-22, -16);
        check_case(p, a, b, n, "short", layout);
        ETNS_RETURN_IF_FAILED();
      }
    }
  }
}

// An output shift that keeps a sum of a' and b' of q's size mostly inside the
// int8 range (|a'| is about 2^(bits(M) - 3 + S) for |a - a_zero_point| near
// 255), so that an a' or b' off by one shows in the output; below 0, as the
// exporters' factors.
int32_t visible_output_shift(Requant q) {
  int32_t bits = 0;
  for (uint32_t m = static_cast<uint32_t>(q.multiplier); m != 0; m >>= 1) ++bits;
  const int32_t shift = 10 - bits - q.shift;
  return shift < -31 ? -31 : (shift > -1 ? -1 : shift);
}

// Every input shift the rounding path takes (-31 .. 0) with edge multipliers
// (2^30 makes exact ties, half away from zero in the reference), on either
// input, every a code against b codes in another order, zero points at the
// ends.
ETNS_KERNEL_TEST(AddVariants, EveryInputShiftEdgeMultipliers) {
  const size_t n = 4 * 256;
  int8_t* a = ETNS_TEST_ARRAY(int8_t, n);
  int8_t* b = ETNS_TEST_ARRAY(int8_t, n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<int8_t>(static_cast<int>(i % 256) - 128);
    b[i] = static_cast<int8_t>(static_cast<int>((i * 157 + i / 256) % 256) - 128);
  }
  Rng rng(kSeed + 5);
  for (int32_t shift = -31; shift <= 0; ++shift) {
    const int32_t multipliers[] = {0, 1, int32_t{1} << 30, INT32_MAX,
                                   rng.uniform32(1 << 30, INT32_MAX)};
    for (int32_t multiplier : multipliers) {
      AddParams p;
      p.a_zero_point = rng.coin() ? -128 : 127;
      p.b_zero_point = rng.coin() ? -128 : 127;
      p.out_zero_point = rng.uniform32(-128, 127);
      p.a = {multiplier, shift};
      p.b = {rng.pick(multipliers), rng.uniform32(-31, 0)};
      // Scaled to one input or the other, so that both are seen.
      p.out = {rng.uniform32(1 << 30, INT32_MAX),
               visible_output_shift(rng.coin() ? p.a : p.b)};
      check_case(p, a, b, n, "a's shift");
      ETNS_RETURN_IF_FAILED();
      std::swap(p.a, p.b);
      std::swap(p.a_zero_point, p.b_zero_point);
      check_case(p, a, b, n, "b's shift");
      ETNS_RETURN_IF_FAILED();
    }
  }
}

}  // namespace
}  // namespace etns::cortex_m
