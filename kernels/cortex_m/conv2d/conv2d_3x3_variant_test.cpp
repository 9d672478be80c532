// The "mve_3x3" variant's shapes: every compiled variant of quantized_conv2d
// against the reference, on the host and on the Cortex-M55
// (kernels/testing/kernel_test.h).
#include <cstddef>
#include <cstdint>

#include "kernels/cortex_m/conv2d/conv2d.h"
#include "kernels/testing/conv_family_tester.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::cortex_m {
namespace {

using kernels::testing::conv_input_bytes;
using kernels::testing::fill_conv_int8_extremes;
using kernels::testing::random_conv_offsets;
using kernels::testing::Rng;
using Case = kernels::testing::ConvCase<Conv2dParams>;
using kernels::testing::ConvShifts;

constexpr uint64_t kSeed = 0x33783363;  // "3x3c"

size_t weight_bytes(const Conv2dParams& p) {
  return static_cast<size_t>(p.output_c) * p.filter_h * p.filter_w * p.filter_c;
}
// A 3x3, stride 1, one-group shape with these channels, image and padding.
Conv2dParams shape(int32_t input_c, int32_t output_c, int32_t input_h, int32_t input_w,
                   int32_t pad_h, int32_t pad_w) {
  Conv2dParams p;
  p.batches = 1;
  p.input_c = p.filter_c = input_c;
  p.output_c = output_c;
  p.filter_h = p.filter_w = 3;
  p.input_h = input_h;
  p.input_w = input_w;
  p.pad_h = pad_h;
  p.pad_w = pad_w;
  p.output_h = input_h + 2 * pad_h - 2 >= 1 ? input_h + 2 * pad_h - 2 : 1;
  p.output_w = input_w + 2 * pad_w - 2 >= 1 ? input_w + 2 * pad_w - 2 : 1;
  return p;
}

// The family's case with `right`: every shift negative (the exporters'
// factors below 1, the variant's faster requantisation).
void fill_case(Rng& rng, Case& c, bool with_bias, bool right) {
  kernels::testing::fill_conv_case(rng, c, with_bias, weight_bytes(c.p),
                                   right ? ConvShifts::Right : ConvShifts::AnyOrRight);
}

void check_case(const Case& c, const char* what) {
  const Conv2dParams& p = c.p;
  ETNS_CHECK_CONV_VARIANTS(
      kernels::kConv2dVariants, c, conv2d_scratch_bytes(p), 1,
      "%s: n %d, in %dx%dx%d, filter %dx%dx%dx%d, out %dx%d, pad %d,%d, offsets %d/%d, "
      "act [%d, %d], %s, 3x3 variant %s",
      what, static_cast<int>(p.batches), static_cast<int>(p.input_h),
      static_cast<int>(p.input_w), static_cast<int>(p.input_c), static_cast<int>(p.output_c),
      static_cast<int>(p.filter_h), static_cast<int>(p.filter_w), static_cast<int>(p.filter_c),
      static_cast<int>(p.output_h), static_cast<int>(p.output_w), static_cast<int>(p.pad_h),
      static_cast<int>(p.pad_w), static_cast<int>(p.input_offset),
      static_cast<int>(p.output_offset), static_cast<int>(p.activation_min),
      static_cast<int>(p.activation_max), c.bias != nullptr ? "bias" : "no bias",
      conv2d_3x3_handles(p) ? "runs" : "declines");
}

// out's extent along one dim: the symmetric formula, TF SAME's (extra padding
// on the far side), or a bit more (taps past the far edge are padding); >= 1.
int32_t out_extent(Rng& rng, int32_t in, int32_t pad) {
  const int32_t symmetric = in + 2 * pad - 2;
  int32_t out = 0;
  switch (rng.uniform(0, 3)) {
    case 0:
    case 1:
      out = symmetric >= 1 ? symmetric : in;
      break;
    case 2:
      out = in;
      break;
    default:
      out = (symmetric >= 1 ? symmetric : in) + rng.uniform32(1, 3);
      break;
  }
  return out < 1 ? 1 : out;
}

// Random shapes within conv2d_3x3_handles: 16-64 input channels, output
// channels 1, 2, odd, 17, 64 or any, widths 1-40 (not a multiple of the
// 4-pixel block too), heights 1-9, padding 0-2, outputs past the symmetric
// extent, batch 2, every shift negative in half the cases. Wide 64-channel
// rows exceed the scratch bound and go to the fallback (checked all the same).
ETNS_KERNEL_TEST(Conv2d3x3Variants, RandomShapes) {
  Rng rng(kSeed);
  const int32_t input_channels[] = {16, 32, 48, 64};
  int handled = 0;
  constexpr int kCases = 120;
  for (int i = 0; i < kCases; ++i) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    Conv2dParams& p = c.p;
    const int32_t output_channels[] = {1, 2, 2 * rng.uniform32(0, 15) + 1, 17, 64,
                                       rng.uniform32(1, 64)};
    p = shape(input_channels[i % 4], rng.pick(output_channels), rng.uniform32(1, 9),
              rng.uniform32(1, 40), rng.uniform32(0, 2), rng.uniform32(0, 2));
    // Keep the reference's work on the M55 bounded.
    if (p.input_c * p.output_c > 1024 && p.input_w > 16) p.input_w = rng.uniform32(1, 16);
    p.batches = rng.uniform32(1, 2);
    p.output_h = out_extent(rng, p.input_h, p.pad_h);
    p.output_w = out_extent(rng, p.input_w, p.pad_w);
    random_conv_offsets(rng, p);
    fill_case(rng, c, rng.uniform(0, 3) != 0, i % 2 == 1);
    if (i % 5 == 0) {  // int8 extremes: the largest magnitude products
      fill_conv_int8_extremes(rng, c, weight_bytes(p));
    }
    handled += conv2d_3x3_handles(p) ? 1 : 0;
    check_case(c, "3x3 random");
    ETNS_RETURN_IF_FAILED();
  }
  if (handled < kCases * 3 / 4) {
    kernels::testing::fail(__FILE__, __LINE__, "only %d of %d cases run the 3x3 variant",
                           handled, kCases);
  }
}

// The variant's internal edges, one case each with every shift negative and
// one with any shift: rows split into several requantisation runs (8, 16 or
// 32 pixels) with a short last run, odd and even channel-pair counts (the
// loop's two entries), a lone last channel, a single block, accumulator rows
// of 64, 128 and 256 bytes, output channels equal to the row (the constant
// output step) or not.
ETNS_KERNEL_TEST(Conv2d3x3Variants, RunsAndPairs) {
  Rng rng(kSeed + 4);
  struct Shape {
    int32_t input_c, output_c, input_h, input_w;
  };
  const Shape shapes[] = {{16, 64, 3, 37}, {32, 34, 4, 19}, {48, 31, 3, 11}, {64, 6, 2, 9},
                          {16, 16, 5, 35}, {32, 32, 3, 21}, {64, 64, 2, 13}, {16, 3, 2, 2},
                          {48, 17, 3, 5},  {64, 33, 2, 7},  {16, 2, 1, 1},   {32, 64, 2, 8}};
  for (const Shape& shape_case : shapes) {
    for (int right = 0; right < 2; ++right) {
      kernels::testing::TestMemoryScope scope;
      Case c;
      c.p = shape(shape_case.input_c, shape_case.output_c, shape_case.input_h,
                  shape_case.input_w, 1, 1);
      random_conv_offsets(rng, c.p);
      fill_case(rng, c, true, right == 1);
      if (!conv2d_3x3_handles(c.p)) {
        kernels::testing::fail(__FILE__, __LINE__, "%dx%d, %d -> %d is not a 3x3 shape",
                               static_cast<int>(shape_case.input_h),
                               static_cast<int>(shape_case.input_w),
                               static_cast<int>(shape_case.input_c),
                               static_cast<int>(shape_case.output_c));
        return;
      }
      check_case(c, "3x3 runs and pairs");
      ETNS_RETURN_IF_FAILED();
    }
  }
}

// tier1's convolutions: 1x16x32x32, 3x3, 16 -> 16, padding 1, with conv1's
// (arm) and conv2's requantisation and offsets (operators.md §2.3.6).
ETNS_KERNEL_TEST(Conv2d3x3Variants, Tier1Shape) {
  static const int32_t kConv1Multipliers[16] = {
      1109979705, 1147891037, 1138847467, 1354490799, 1134793497, 1367101146,
      1188910528, 1132211173, 1765065426, 2063243380, 1670393652, 1649163875,
      1391514400, 1409155071, 1108449516, 1338886254};
  static const int32_t kConv1Shifts[16] = {-8, -8, -8, -8, -8, -8, -8, -8,
                                           -8, -9, -8, -8, -8, -8, -8, -8};
  static const int32_t kConv2Multipliers[16] = {
      1747255419, 1909715735, 1697784192, 1982554004, 1841548609, 1823514652,
      1681384452, 1502214994, 1705741614, 1596001409, 1457897944, 2029862516,
      1999872487, 1588206912, 1606657958, 1807473037};
  static const int32_t kConv2Shifts[16] = {-9, -9, -9, -9, -9, -9, -9, -9,
                                           -9, -9, -9, -9, -9, -9, -9, -9};
  Rng rng(kSeed + 1);
  for (int conv = 0; conv < 2; ++conv) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    c.p = shape(16, 16, 32, 32, 1, 1);
    Conv2dParams& p = c.p;
    fill_case(rng, c, true, false);
    p.input_offset = conv == 0 ? -1 : 113;
    p.output_offset = conv == 0 ? -39 : 0;
    for (int32_t oc = 0; oc < 16; ++oc) {
      c.multipliers[oc] = conv == 0 ? kConv1Multipliers[oc] : kConv2Multipliers[oc];
      c.shifts[oc] = conv == 0 ? kConv1Shifts[oc] : kConv2Shifts[oc];
      c.bias[oc] = rng.uniform32(-3000, 3000);
    }
    if (!conv2d_3x3_handles(p)) {
      kernels::testing::fail(__FILE__, __LINE__, "tier1's shape is not a 3x3 shape");
      return;
    }
    check_case(c, conv == 0 ? "tier1 conv1" : "tier1 conv2");
    ETNS_RETURN_IF_FAILED();
  }
}

// ResNet-8's other 3x3 stride-1 layers (ic ops 5 and 9): 1x16x16x32 -> 32 and
// 1x8x8x64 -> 64, padding 1, ReLU's range in one case of each.
ETNS_KERNEL_TEST(Conv2d3x3Variants, ResNetShapes) {
  Rng rng(kSeed + 2);
  const int32_t sizes[][2] = {{16, 32}, {8, 64}};
  for (int i = 0; i < 4; ++i) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    const int32_t size = sizes[i % 2][0], channels = sizes[i % 2][1];
    c.p = shape(channels, channels, size, size, 1, 1);
    Conv2dParams& p = c.p;
    random_conv_offsets(rng, p);
    if (i >= 2) {
      p.output_offset = -128;
      p.activation_min = -128;
      p.activation_max = 127;
    }
    fill_case(rng, c, true, true);
    if (!conv2d_3x3_handles(p)) {
      kernels::testing::fail(__FILE__, __LINE__, "ResNet's %dx%dx%d is not a 3x3 shape",
                             static_cast<int>(size), static_cast<int>(size),
                             static_cast<int>(channels));
      return;
    }
    check_case(c, "resnet");
    ETNS_RETURN_IF_FAILED();
  }
}

// Extremes: offsets at the ends of their ranges, bias near the int32 limits so
// the sum wraps, multipliers 0 / 1 / INT32_MAX, shifts -31 / 0 / 30, inputs and
// weights all -128 or 127, outputs far past the image (padding-only windows).
ETNS_KERNEL_TEST(Conv2d3x3Variants, Extremes) {
  Rng rng(kSeed + 3);
  for (int i = 0; i < 32; ++i) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    c.p = shape(16 * rng.uniform32(1, 4), rng.uniform32(1, 20), rng.uniform32(1, 4),
                rng.uniform32(1, 9), rng.uniform32(0, 2), rng.uniform32(0, 2));
    Conv2dParams& p = c.p;
    p.batches = 2;
    p.output_h = p.input_h + 2 * p.pad_h + rng.uniform32(0, 3);
    p.output_w = p.input_w + 2 * p.pad_w + rng.uniform32(0, 3);
    p.input_offset = rng.coin() ? -127 : 128;
    p.output_offset = rng.coin() ? -128 : 127;
    p.activation_min = rng.coin() ? -128 : rng.uniform32(-128, 0);
    p.activation_max = rng.coin() ? 127 : rng.uniform32(p.activation_min, 127);
    fill_case(rng, c, true, false);
    const bool right = i % 2 == 1;
    for (int32_t oc = 0; oc < p.output_c; ++oc) {
      const int32_t biases[] = {INT32_MAX, INT32_MIN, INT32_MAX - 1000, INT32_MIN + 1000};
      c.bias[oc] = rng.pick(biases);
      const int32_t multipliers[] = {0, 1, INT32_MAX};
      const int32_t shifts[] = {-31, 0, 30};
      const int32_t right_shifts[] = {-31, -1};
      c.multipliers[oc] = rng.pick(multipliers);
      c.shifts[oc] = right ? rng.pick(right_shifts) : rng.pick(shifts);
    }
    const int8_t input_value = rng.coin() ? -128 : 127;
    const int8_t weight_value = rng.coin() ? -128 : 127;
    for (size_t k = 0; k < conv_input_bytes(p); ++k) {
      c.input[k] = i % 3 == 0 ? input_value : (rng.coin() ? -128 : 127);
    }
    for (size_t k = 0; k < weight_bytes(p); ++k) {
      c.weight[k] = i % 3 == 0 ? weight_value : (rng.coin() ? -128 : 127);
    }
    if (!conv2d_3x3_handles(p)) {
      kernels::testing::fail(__FILE__, __LINE__, "case %d is not a 3x3 shape", i);
      return;
    }
    check_case(c, "3x3 extremes");
    ETNS_RETURN_IF_FAILED();
  }
}

}  // namespace
}  // namespace etns::cortex_m
