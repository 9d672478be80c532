// Every compiled variant of quantize_per_tensor (int8 and int16) against the
// reference, on the host and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include <cmath>
#include <cstring>

#include "kernels/cortex_m/quantize/quantize.h"
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

constexpr uint64_t kSeed = 0x7175616e74;  // "quant"

// Inputs where a quantizer can go wrong, as float32 bits.
constexpr uint32_t kSpecialInputs[] = {
    0x00000000, 0x80000000,                                      // +-0
    0x00000001, 0x80000001, 0x00400000, 0x007fffff, 0x807fffff,  // denormals
    0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff,              // FLT_MIN, FLT_MAX
    0x7f800000, 0xff800000,                                      // +-Inf
    0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001,              // NaNs: quiet, signalling,
    0x7fffffff, 0xffffffff, 0x7fa5a5a5, 0xffc12345,              // any payload and sign
    0x3f000000, 0xbf000000, 0x3fc00000, 0xbfc00000,              // +-0.5, +-1.5
    0x4a7fffff, 0x4a800000, 0x4a800001, 0x4b000000, 0x4b400000,  // around 2^22, 2^23
    0x46fffe00, 0x46ffff00, 0x47000000, 0xc7000000, 0xc7000080,  // around +-2^15
    0x4effffff, 0x4f000000, 0xcf000000, 0xcf000001,              // around +-2^31
    // operators.md §2.1: float products at exactly k + 0.5 at tier1's input scale.
    0xbf9ae1b4, 0xbf96f5ea, 0xbf8b328b, 0xbf016512, 0x3c7af28f, 0x3f9ae1b4,
};

// Products a quantizer can get wrong: ties, the int8/int16/int32 limits and
// where the 1.5 * 2^23 trick breaks.
constexpr float kSpecialProducts[] = {
    0.5f,      1.5f,       2.5f,        -0.5f,       -1.5f,       -2.5f,   127.5f,  128.5f,
    -128.5f,   -129.5f,    255.5f,      -255.5f,     32767.5f,    32768.f, -32768.5f,
    -32769.f,  4194304.5f, -4194304.5f, 8388608.f,   2147483648.f, -2147483648.f,
    4.0e9f,    -4.0e9f,    1.0e30f,     -1.0e30f,
};

// tier1's three quantizations (operators.md §2.1), with the full int8 range.
QuantizeParams tier1_params(int which) {
  const float scales[] = {0.030633239075541496f, 0.04450160264968872f, 0.0006877929554320872f};
  const int32_t zero_points[] = {1, 1, 4};
  QuantizeParams p;
  p.inv_scale = 1.0f / scales[which];
  p.zero_point = zero_points[which];
  return p;
}

// Scales at the edges of what the Helium variants compute themselves: inverse
// denormal, FLT_MIN, 2^125, 1.5 * 2^125 (a denormal input then quantizes to
// +-1 in the reference), 2^126, and the largest finite inverse.
constexpr float kEdgeScales[] = {
    3.4028234664e38f, 1.5f * 0x1p126f, 0x1p126f, 0x1p-125f, 0x1p-125f / 1.5f,
    0x1p-126f, 0x1p-127f, 2.9387359e-39f,
};

// Any parameters prepare accepts for the type's range [type_min, type_max].
QuantizeParams random_params(Rng& rng, int32_t type_min, int32_t type_max) {
  QuantizeParams p;
  p.out_dtype = type_max == INT8_MAX ? runtime::ScalarType::Char : runtime::ScalarType::Short;
  float scale = 0.0f;
  switch (rng.uniform32(0, 3)) {
    case 0:
      scale = rng.pick(kEdgeScales);
      break;
    case 1:  // typical activations
      scale = static_cast<float>(0.0001 + 0.1 * rng.unit());
      break;
    default:  // anything with a finite inverse: any exponent, any mantissa
      do {
        scale = float_from_bits(static_cast<uint32_t>(rng.uniform(1, 0x7f7fffff)));
      } while (!std::isfinite(1.0f / scale));
      break;
  }
  p.inv_scale = 1.0f / scale;
  switch (rng.uniform32(0, 3)) {
    case 0:
      p.quant_min = type_min;
      p.quant_max = type_max;
      break;
    case 1:
      p.quant_min = p.quant_max = rng.uniform32(type_min, type_max);
      break;
    default:
      p.quant_min = rng.uniform32(type_min, type_max);
      p.quant_max = rng.uniform32(p.quant_min, type_max);
      break;
  }
  const int32_t zero_points[] = {p.quant_min, p.quant_max,
                                 rng.uniform32(p.quant_min, p.quant_max)};
  p.zero_point = rng.pick(zero_points);
  return p;
}

// A mix of special floats, any bit pattern, products in and around the type's
// range, and inputs whose product lands on or next to a tie or a limit.
void fill_inputs(Rng& rng, const QuantizeParams& p, float* x, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    switch (rng.uniform32(0, 4)) {
      case 0:
        x[i] = float_from_bits(rng.pick(kSpecialInputs));
        break;
      case 1:
        x[i] = float_from_bits(static_cast<uint32_t>(rng.next()));
        break;
      case 2:
        x[i] = static_cast<float>((rng.unit() - 0.5) * 80000.0) / p.inv_scale;
        break;
      default: {
        const float target = rng.coin() ? rng.pick(kSpecialProducts)
                                        : static_cast<float>(rng.uniform32(-300, 300)) + 0.5f;
        // A few ulps either side of target / inv_scale.
        const uint32_t bits = bits_of(target / p.inv_scale);
        x[i] = float_from_bits(bits + static_cast<uint32_t>(rng.uniform32(-2, 2)));
        break;
      }
    }
  }
}

template <typename T>
const char* type_name() {
  return sizeof(T) == 1 ? "int8" : "int16";
}

// Checks every variant of the list for T on one case; out_offset shifts the
// variants' output by that many elements (a misaligned output buffer).
template <typename T, typename Fn, size_t N>
void check_case(const kernels::Variant<Fn> (&variants)[N], const QuantizeParams& p,
                const float* in, size_t n, size_t out_offset, const char* what) {
  ETNS_CHECK_VARIANTS(
      variants, n * sizeof(T),
      [&](Fn fn, void* out) {
        TestMemoryScope scope;
        T* shifted = ETNS_TEST_ARRAY(T, n + out_offset) + out_offset;
        fn(p, in, shifted, n);
        std::memcpy(out, shifted, n * sizeof(T));
      },
      "%s, %s, n %zu, out + %zu, inv_scale %g (0x%08x), zp %d, [%d, %d]", what, type_name<T>(),
      n, out_offset, static_cast<double>(p.inv_scale), static_cast<unsigned>(bits_of(p.inv_scale)),
      static_cast<int>(p.zero_point), static_cast<int>(p.quant_min),
      static_cast<int>(p.quant_max));
}

void check_s8(const QuantizeParams& p, const float* in, size_t n, const char* what,
              size_t out_offset = 0) {
  check_case<int8_t>(kernels::kQuantizeS8Variants, p, in, n, out_offset, what);
}

void check_s16(const QuantizeParams& p, const float* in, size_t n, const char* what,
               size_t out_offset = 0) {
  check_case<int16_t>(kernels::kQuantizeS16Variants, p, in, n, out_offset, what);
}

// The special inputs and, for p, the special products, with a few ulps either side.
size_t special_inputs(const QuantizeParams& p, float* x) {
  size_t n = 0;
  for (uint32_t bits : kSpecialInputs) x[n++] = float_from_bits(bits);
  for (float target : kSpecialProducts) {
    const uint32_t bits = bits_of(target / p.inv_scale);
    for (uint32_t d = 0; d < 5; ++d) x[n++] = float_from_bits(bits - 2 + d);
  }
  return n;
}
constexpr size_t kMaxSpecialInputs =
    sizeof(kSpecialInputs) / sizeof(kSpecialInputs[0]) +
    5 * (sizeof(kSpecialProducts) / sizeof(kSpecialProducts[0]));

ETNS_KERNEL_TEST(QuantizeVariants, SpecialInputsTier1) {
  float* x = ETNS_TEST_ARRAY(float, kMaxSpecialInputs);
  for (int which = 0; which < 3; ++which) {
    QuantizeParams p = tier1_params(which);
    const size_t n = special_inputs(p, x);
    check_s8(p, x, n, "tier1 special inputs");
    p.quant_min = INT16_MIN;
    p.quant_max = INT16_MAX;
    p.out_dtype = runtime::ScalarType::Short;
    check_s16(p, x, n, "tier1 scale, special inputs");
  }
}

ETNS_KERNEL_TEST(QuantizeVariants, SpecialInputsRandomParams) {
  Rng rng(kSeed);
  float* x = ETNS_TEST_ARRAY(float, kMaxSpecialInputs);
  for (int i = 0; i < 150; ++i) {
    const QuantizeParams s8 = random_params(rng, INT8_MIN, INT8_MAX);
    check_s8(s8, x, special_inputs(s8, x), "special inputs");
    const QuantizeParams s16 = random_params(rng, INT16_MIN, INT16_MAX);
    check_s16(s16, x, special_inputs(s16, x), "special inputs");
  }
}

// Every edge scale on every special input, including the flush-to-zero cases
// the Helium variants hand to the reference.
ETNS_KERNEL_TEST(QuantizeVariants, EdgeScales) {
  float* x = ETNS_TEST_ARRAY(float, kMaxSpecialInputs);
  for (float scale : kEdgeScales) {
    QuantizeParams p;
    p.inv_scale = 1.0f / scale;
    const size_t n = special_inputs(p, x);
    check_s8(p, x, n, "edge scale");
    p.quant_min = INT16_MIN;
    p.quant_max = INT16_MAX;
    p.zero_point = -7;
    check_s16(p, x, n, "edge scale");
  }
}

ETNS_KERNEL_TEST(QuantizeVariants, RandomInputsRandomParams) {
  Rng rng(kSeed + 1);
  float* x = ETNS_TEST_ARRAY(float, 256);
  for (int i = 0; i < 150; ++i) {
    const QuantizeParams s8 = random_params(rng, INT8_MIN, INT8_MAX);
    fill_inputs(rng, s8, x, 256);
    check_s8(s8, x, 256, "random inputs");
    const QuantizeParams s16 = random_params(rng, INT16_MIN, INT16_MAX);
    fill_inputs(rng, s16, x, 256);
    check_s16(s16, x, 256, "random inputs");
  }
}

ETNS_KERNEL_TEST(QuantizeVariants, LengthsAroundTheTile) {
  Rng rng(kSeed + 2);
  for (size_t n : kTileLengths) {
    TestMemoryScope scope;
    float* x = ETNS_TEST_ARRAY(float, n + 1);
    const QuantizeParams s8 = random_params(rng, INT8_MIN, INT8_MAX);
    fill_inputs(rng, s8, x, n + 1);
    check_s8(s8, x, n, "random inputs");
    // Misaligned buffers: input one float in, output one element in.
    check_s8(s8, x + 1, n, "misaligned", 1);
    const QuantizeParams s16 = random_params(rng, INT16_MIN, INT16_MAX);
    fill_inputs(rng, s16, x, n + 1);
    check_s16(s16, x, n, "random inputs");
    check_s16(s16, x + 1, n, "misaligned", 1);
  }
}

ETNS_KERNEL_TEST(QuantizeVariants, Tier1Size) {
  const size_t n = 16384;  // 1x16x32x32
  float* x = ETNS_TEST_ARRAY(float, n);
  Rng rng(kSeed + 3);
  const QuantizeParams p = tier1_params(0);
  fill_inputs(rng, p, x, n);
  check_s8(p, x, n, "tier1 shape");
}

}  // namespace
}  // namespace etns::cortex_m
