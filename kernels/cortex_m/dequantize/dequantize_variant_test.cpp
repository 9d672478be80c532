// Every compiled variant of dequantize_per_tensor (int8 and int16) against the
// reference, on the host and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include <cstring>

#include "kernels/common/byte_table.h"
#include "kernels/cortex_m/dequantize/dequantize.h"
#include "kernels/testing/float_bits.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::cortex_m {
namespace {

using kernels::testing::bits_of;
using kernels::testing::float_from_bits;
using kernels::testing::kTileLengths;
using kernels::testing::Rng;
using kernels::testing::TestMemoryScope;

constexpr uint64_t kSeed = 0x6465717561;  // "dequa"

// prepare refuses most of these, but the variants still agree on them bit for
// bit: these are the scales Helium arithmetic could get wrong (denormals, NaN payloads, infinities, signed zeros), as float32 bits.
constexpr uint32_t kSpecialScales[] = {
    0x00000000, 0x80000000,                                      // +-0
    0x00000001, 0x80000001, 0x00000003, 0x00400000, 0x007fffff,  // denormals
    0x807fffff, 0x00012345,                                      //
    0x00800000, 0x80800000, 0x00800001, 0x7f7fffff, 0xff7fffff,  // FLT_MIN, FLT_MAX
    0x7f800000, 0xff800000,                                      // +-Inf
    0x7fc00000, 0xffc00000, 0x7f800001, 0xffbfffff, 0x7fc12345,  // NaNs
    0x3f800000, 0xbf800000, 0x3c23d70a, 0x3a344d01,              // 1, -1, 0.01, tier1mean
};

// The int8 dequantizations of the tier1 programs (operators.md §2.2).
struct Tier1Dequantize {
  float scale;
  int32_t zero_point;
};
constexpr Tier1Dequantize kTier1[] = {
    {0.024257738143205643f, -113}, {0.04002131149172783f, 0},    {0.04450160264968872f, 1},
    {0.01990390010178089f, -128},  {0.030633239075541496f, 1}, {0.0006877929554320872f, 4},
};

// Any parameters prepare accepts for the type's range [type_min, type_max]:
// any scale at all, a zero point inside a quant range inside the type.
DequantizeParams random_params(Rng& rng, int32_t type_min, int32_t type_max) {
  DequantizeParams p;
  p.in_dtype = type_max == INT8_MAX ? runtime::ScalarType::Char : runtime::ScalarType::Short;
  switch (rng.uniform32(0, 2)) {
    case 0:
      p.scale = float_from_bits(rng.pick(kSpecialScales));
      break;
    case 1:
      p.scale = static_cast<float>(0.0001 + 0.1 * rng.unit());
      break;
    default:
      p.scale = float_from_bits(static_cast<uint32_t>(rng.next()));
      break;
  }
  const int32_t zero_points[] = {type_min, type_max, 0, rng.uniform32(type_min, type_max)};
  p.zero_point = rng.pick(zero_points);
  return p;
}

template <typename T>
const char* type_name() {
  return sizeof(T) == 1 ? "int8" : "int16";
}

// Checks every variant of the list for T on one case; out_offset shifts the
// variants' output by that many floats (a misaligned output buffer).
template <typename T, typename Fn, size_t N>
void check_case(const kernels::Variant<Fn> (&variants)[N], const DequantizeParams& p,
                const T* in, size_t n, size_t out_offset, const char* what) {
  ETNS_CHECK_VARIANTS(
      variants, n * sizeof(float),
      [&](Fn fn, void* out) {
        TestMemoryScope scope;
        float* shifted = ETNS_TEST_ARRAY(float, n + out_offset) + out_offset;
        fn(p, in, shifted, n);
        std::memcpy(out, shifted, n * sizeof(float));
      },
      "%s, %s, n %zu, out + %zu, scale %g (0x%08x), zp %d", what, type_name<T>(), n, out_offset,
      static_cast<double>(p.scale), static_cast<unsigned>(bits_of(p.scale)),
      static_cast<int>(p.zero_point));
}

void check_s8(const DequantizeParams& p, const int8_t* in, size_t n, const char* what,
              size_t out_offset = 0) {
  check_case(kernels::kDequantizeS8Variants, p, in, n, out_offset, what);
}

void check_s16(const DequantizeParams& p, const int16_t* in, size_t n, const char* what,
               size_t out_offset = 0) {
  check_case(kernels::kDequantizeS16Variants, p, in, n, out_offset, what);
}

void fill_s16(Rng& rng, int16_t* out, size_t n) {
  const int16_t edges[] = {INT16_MIN, INT16_MIN + 1, -1, 0, 1, INT16_MAX - 1, INT16_MAX};
  for (size_t i = 0; i < n; ++i) {
    out[i] = rng.coin() ? rng.pick(edges) : static_cast<int16_t>(rng.next() >> 48);
  }
}

ETNS_KERNEL_TEST(DequantizeVariants, AllCodesTier1) {
  int8_t codes[256];
  kernels::byte_table_inputs(codes);
  for (const Tier1Dequantize& t : kTier1) {
    DequantizeParams p;
    p.scale = t.scale;
    p.zero_point = t.zero_point;
    check_s8(p, codes, 256, "tier1 all codes");
  }
}

ETNS_KERNEL_TEST(DequantizeVariants, AllCodesSpecialScales) {
  int8_t codes[256];
  kernels::byte_table_inputs(codes);
  const int32_t zero_points[] = {-128, -1, 0, 1, 127};
  for (uint32_t bits : kSpecialScales) {
    for (int32_t zero_point : zero_points) {
      DequantizeParams p;
      p.scale = float_from_bits(bits);
      p.zero_point = zero_point;
      check_s8(p, codes, 256, "special scale, all codes");
    }
  }
}

ETNS_KERNEL_TEST(DequantizeVariants, AllCodesRandomParams) {
  Rng rng(kSeed);
  int8_t codes[256];
  kernels::byte_table_inputs(codes);
  for (int i = 0; i < 200; ++i) {
    check_s8(random_params(rng, INT8_MIN, INT8_MAX), codes, 256, "all codes");
  }
}

// Every int16 code, in slices, for a few scales and the extreme zero points
// (q - zp reaches +-65535).
ETNS_KERNEL_TEST(DequantizeVariants, AllInt16Codes) {
  constexpr size_t kSlice = 4096;
  int16_t* codes = ETNS_TEST_ARRAY(int16_t, kSlice);
  const DequantizeParams params[] = {
      {0.0006877929554320872f, INT16_MIN, runtime::ScalarType::Short},
      {float_from_bits(0x00000003), INT16_MAX, runtime::ScalarType::Short},
      {-3.0e38f, 0, runtime::ScalarType::Short},
  };
  for (const DequantizeParams& p : params) {
    for (int32_t first = INT16_MIN; first <= INT16_MAX; first += static_cast<int32_t>(kSlice)) {
      for (size_t i = 0; i < kSlice; ++i) codes[i] = static_cast<int16_t>(first + int32_t(i));
      check_s16(p, codes, kSlice, "int16 codes");
    }
  }
}

ETNS_KERNEL_TEST(DequantizeVariants, Int16RandomParams) {
  Rng rng(kSeed + 1);
  int16_t* codes = ETNS_TEST_ARRAY(int16_t, 256);
  for (int i = 0; i < 200; ++i) {
    fill_s16(rng, codes, 256);
    check_s16(random_params(rng, INT16_MIN, INT16_MAX), codes, 256, "random codes");
  }
}

ETNS_KERNEL_TEST(DequantizeVariants, LengthsAroundTheTile) {
  Rng rng(kSeed + 2);
  for (size_t n : kTileLengths) {
    TestMemoryScope scope;
    int8_t* s8 = ETNS_TEST_ARRAY(int8_t, n + 1);
    rng.fill_s8(s8, n + 1);
    check_s8(random_params(rng, INT8_MIN, INT8_MAX), s8, n, "random codes");
    // Misaligned buffers: input one element in, output one float in.
    check_s8(random_params(rng, INT8_MIN, INT8_MAX), s8 + 1, n, "misaligned", 1);
    int16_t* s16 = ETNS_TEST_ARRAY(int16_t, n + 1);
    fill_s16(rng, s16, n + 1);
    check_s16(random_params(rng, INT16_MIN, INT16_MAX), s16, n, "random codes");
    check_s16(random_params(rng, INT16_MIN, INT16_MAX), s16 + 1, n, "misaligned", 1);
  }
}

ETNS_KERNEL_TEST(DequantizeVariants, Tier1Size) {
  const size_t n = 16384;  // 1x16x32x32
  int8_t* in = ETNS_TEST_ARRAY(int8_t, n);
  Rng rng(kSeed + 3);
  rng.fill_s8(in, n);
  DequantizeParams p;
  p.scale = kTier1[3].scale;
  p.zero_point = kTier1[3].zero_point;
  check_s8(p, in, n, "tier1 shape");
}

}  // namespace
}  // namespace etns::cortex_m
