// Every compiled variant of quantized_conv2d against the reference, on the
// host and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include <cstddef>
#include <cstdint>

#include "kernels/cortex_m/conv2d/conv2d.h"
#include "kernels/testing/conv_family_tester.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::cortex_m {
namespace {

using kernels::testing::fill_conv_int8_extremes;
using kernels::testing::fill_conv_case;
using kernels::testing::random_conv_offsets;
using kernels::testing::random_out_extent;
using kernels::testing::Rng;
using Case = kernels::testing::ConvCase<Conv2dParams>;

constexpr uint64_t kSeed = 0x636f6e76;  // "conv"

size_t weight_bytes(const Conv2dParams& p) {
  return static_cast<size_t>(p.output_c) * p.filter_h * p.filter_w * p.filter_c;
}
void check_case(const Case& c, const char* what) {
  const Conv2dParams& p = c.p;
  ETNS_CHECK_CONV_VARIANTS(
      kernels::kConv2dVariants, c, conv2d_scratch_bytes(p), 1,
      "%s: n %d, in %dx%dx%d, filter %dx%dx%dx%d, out %dx%d, stride %d,%d, pad %d,%d, "
      "dilation %d,%d, offsets %d/%d, act [%d, %d], %s",
      what, static_cast<int>(p.batches), static_cast<int>(p.input_h),
      static_cast<int>(p.input_w), static_cast<int>(p.input_c), static_cast<int>(p.output_c),
      static_cast<int>(p.filter_h), static_cast<int>(p.filter_w), static_cast<int>(p.filter_c),
      static_cast<int>(p.output_h), static_cast<int>(p.output_w), static_cast<int>(p.stride_h),
      static_cast<int>(p.stride_w), static_cast<int>(p.pad_h), static_cast<int>(p.pad_w),
      static_cast<int>(p.dilation_h), static_cast<int>(p.dilation_w),
      static_cast<int>(p.input_offset), static_cast<int>(p.output_offset),
      static_cast<int>(p.activation_min), static_cast<int>(p.activation_max),
      c.bias != nullptr ? "bias" : "no bias");
}

// Random shapes: groups (incl. depthwise-like), strides 1-3, dilation 1-2,
// filters 1x1 to 5x5 and non-square, batch 2, channel tails, uneven padding.
ETNS_KERNEL_TEST(Conv2dVariants, RandomShapes) {
  Rng rng(kSeed);
  for (int i = 0; i < 160; ++i) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    Conv2dParams& p = c.p;
    p.batches = rng.uniform32(1, 2);
    const int32_t kind = rng.uniform32(0, 5);
    const int32_t groups = kind == 0 ? rng.uniform32(2, 4) : 1;
    if (kind == 1) {  // depthwise-like: filter_c 1, groups = input channels
      p.filter_c = 1;
      p.input_c = rng.uniform32(1, 24);
      p.output_c = p.input_c * rng.uniform32(1, 2);
    } else {
      p.filter_c = rng.uniform32(1, 40);
      p.input_c = p.filter_c * groups;
      p.output_c = groups * rng.uniform32(1, 40 / groups);
    }
    p.filter_h = rng.uniform32(1, 5);
    p.filter_w = rng.coin() ? 3 : rng.uniform32(1, 5);
    p.stride_h = rng.uniform32(1, 3);
    p.stride_w = rng.coin() ? 1 : rng.uniform32(1, 3);
    p.dilation_h = rng.uniform32(1, 2);
    p.dilation_w = rng.coin() ? 1 : rng.uniform32(1, 2);
    p.pad_h = rng.uniform32(0, 2);
    p.pad_w = rng.uniform32(0, 2);
    p.input_h = rng.uniform32(1, 9);
    p.input_w = rng.uniform32(1, 13);
    p.output_h = random_out_extent(rng, p.input_h, p.filter_h, p.stride_h, p.pad_h, p.dilation_h);
    p.output_w = random_out_extent(rng, p.input_w, p.filter_w, p.stride_w, p.pad_w, p.dilation_w);
    random_conv_offsets(rng, p);
    fill_conv_case(rng, c, rng.uniform(0, 3) != 0, weight_bytes(c.p));
    check_case(c, "random");
    ETNS_RETURN_IF_FAILED();
  }
}

// Channel counts around the 16-lane vector and the 64-channel block, wide
// inputs whose row strips would not fit (the per-pixel path), and first
// layers' few channels (DS-CNN's 10x4 stride 2 on 1 channel, RGB) whose filter
// rows are one dot product each.
ETNS_KERNEL_TEST(Conv2dVariants, ChannelCounts) {
  Rng rng(kSeed + 1);
  struct Shape {
    int32_t input_c, output_c, filter_h, filter_w, stride, groups;
  };
  const Shape shapes[] = {
      {1, 1, 3, 3, 1, 1},     {15, 17, 3, 3, 1, 1},  {16, 16, 3, 3, 1, 1}, {17, 33, 3, 3, 1, 1},
      {32, 65, 3, 3, 1, 1},   {33, 130, 1, 1, 1, 1}, {48, 31, 3, 3, 2, 1}, {64, 16, 5, 5, 1, 1},
      {300, 20, 3, 3, 1, 1},  {257, 9, 1, 1, 1, 1},  {96, 96, 3, 3, 1, 96}, {80, 70, 3, 3, 1, 2},
      {16, 16, 3, 3, 1, 1},   {1, 64, 10, 4, 2, 1},  {3, 8, 3, 3, 2, 1},   {2, 5, 5, 7, 1, 1},
  };
  for (const Shape& s : shapes) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    Conv2dParams& p = c.p;
    p.batches = 1;
    p.input_c = s.input_c;
    p.filter_c = s.input_c / s.groups;
    p.output_c = s.output_c;
    p.filter_h = s.filter_h;
    p.filter_w = s.filter_w;
    p.stride_h = p.stride_w = s.stride;
    p.pad_h = s.filter_h / 2;
    p.pad_w = s.filter_w / 2;
    p.input_h = 5;
    p.input_w = 7;
    p.output_h = (p.input_h + 2 * p.pad_h - p.filter_h) / s.stride + 1;
    p.output_w = (p.input_w + 2 * p.pad_w - p.filter_w) / s.stride + 1;
    random_conv_offsets(rng, p);
    fill_conv_case(rng, c, true, weight_bytes(c.p));
    check_case(c, "channel counts");
    ETNS_RETURN_IF_FAILED();
  }
}

// Input channels in fours per group, which the host variant's VNNI path
// takes (conv2d_hwy.cpp): 1 to 4 vectors of 16 output channels and partial
// ones, more than 64 channels (two blocks), groups, rows not a multiple of the
// 8 or 4 pixels a pass takes, strides, dilation, padding wider than the
// filter, two batches.
ETNS_KERNEL_TEST(Conv2dVariants, ChannelsInFours) {
  Rng rng(kSeed + 4);
  struct Shape {
    int32_t input_c, filter_c, output_c, filter_h, filter_w, stride, dilation, pad, input_h, input_w, batches;
  };
  const Shape shapes[] = {
      {4, 4, 1, 1, 1, 1, 1, 0, 3, 5, 1},      {8, 8, 17, 3, 3, 1, 1, 1, 6, 11, 2},
      {32, 32, 48, 3, 3, 2, 1, 1, 7, 9, 1},   {16, 8, 70, 3, 3, 1, 2, 2, 5, 13, 1},
      {64, 64, 130, 1, 1, 1, 1, 0, 4, 9, 1},  {12, 4, 12, 5, 5, 1, 1, 3, 4, 6, 2},
      {20, 20, 64, 1, 7, 1, 1, 3, 2, 17, 1},  {16, 16, 33, 3, 3, 2, 2, 4, 5, 8, 1},
  };
  for (const Shape& s : shapes) {
    for (int repeat = 0; repeat < 3; ++repeat) {
      kernels::testing::TestMemoryScope scope;
      Case c;
      Conv2dParams& p = c.p;
      p.batches = s.batches;
      p.input_c = s.input_c;
      p.filter_c = s.filter_c;
      p.output_c = s.output_c;
      p.filter_h = s.filter_h;
      p.filter_w = s.filter_w;
      p.stride_h = p.stride_w = s.stride;
      p.dilation_h = p.dilation_w = s.dilation;
      p.pad_h = p.pad_w = s.pad;
      p.input_h = s.input_h;
      p.input_w = s.input_w;
      p.output_h = random_out_extent(rng, p.input_h, p.filter_h, p.stride_h, p.pad_h, p.dilation_h);
      p.output_w = random_out_extent(rng, p.input_w, p.filter_w, p.stride_w, p.pad_w, p.dilation_w);
      random_conv_offsets(rng, p);
      fill_conv_case(rng, c, repeat != 2, weight_bytes(c.p));
      if (repeat == 1) {  // int8 extremes: the largest products, unsigned bytes 0 and 255
        fill_conv_int8_extremes(rng, c, weight_bytes(p));
      }
      check_case(c, "channels in fours");
      ETNS_RETURN_IF_FAILED();
    }
  }
}

// Padding wider than the four pixels' strip (and than a window): the first
// strips and windows are all padding, never written past their end. One
// group (the strip copied as one run), grouped, and a 1-channel window.
ETNS_KERNEL_TEST(Conv2dVariants, PaddingWiderThanAStrip) {
  Rng rng(kSeed + 3);
  struct Shape {
    int32_t input_c, filter_c, output_c, filter_w, pad;
  };
  const Shape shapes[] = {{16, 16, 8, 1, 9}, {6, 3, 4, 1, 9}, {1, 1, 5, 3, 11}};
  for (const Shape& s : shapes) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    Conv2dParams& p = c.p;
    p.batches = 1;
    p.input_c = s.input_c;
    p.filter_c = s.filter_c;
    p.output_c = s.output_c;
    p.filter_h = 1;
    p.filter_w = s.filter_w;
    p.pad_h = 0;
    p.pad_w = s.pad;
    p.input_h = 2;
    p.input_w = 3;
    p.output_h = 2;
    p.output_w = p.input_w + 2 * s.pad - s.filter_w + 1;
    random_conv_offsets(rng, p);
    fill_conv_case(rng, c, true, weight_bytes(c.p));
    check_case(c, "wide padding");
    ETNS_RETURN_IF_FAILED();
  }
}

// tier1's convolutions: 1x16x32x32, 3x3, 16 -> 16, padding 1, with conv1's
// (arm) and conv2's requantisation and offsets (operators.md §2.3.6).
ETNS_KERNEL_TEST(Conv2dVariants, Tier1Shape) {
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
  Rng rng(kSeed + 2);
  for (int conv = 0; conv < 2; ++conv) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    Conv2dParams& p = c.p;
    p.batches = 1;
    p.input_h = p.input_w = p.output_h = p.output_w = 32;
    p.input_c = p.output_c = p.filter_c = 16;
    p.filter_h = p.filter_w = 3;
    p.pad_h = p.pad_w = 1;
    fill_conv_case(rng, c, true, weight_bytes(c.p));
    p.input_offset = conv == 0 ? -1 : 113;
    p.output_offset = conv == 0 ? -39 : 0;
    for (int32_t oc = 0; oc < 16; ++oc) {
      c.multipliers[oc] = conv == 0 ? kConv1Multipliers[oc] : kConv2Multipliers[oc];
      c.shifts[oc] = conv == 0 ? kConv1Shifts[oc] : kConv2Shifts[oc];
      c.bias[oc] = 0;
    }
    check_case(c, conv == 0 ? "tier1 conv1" : "tier1 conv2");
    ETNS_RETURN_IF_FAILED();
  }
}

// Extremes: offsets at the ends of their ranges, bias near the int32 limits so
// the accumulator wraps, every multiplier/shift corner, all-padding windows.
ETNS_KERNEL_TEST(Conv2dVariants, Extremes) {
  Rng rng(kSeed + 3);
  for (int i = 0; i < 24; ++i) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    Conv2dParams& p = c.p;
    p.batches = 2;
    p.input_c = p.filter_c = rng.uniform32(1, 20);
    p.output_c = rng.uniform32(1, 20);
    p.filter_h = rng.uniform32(1, 4);
    p.filter_w = rng.uniform32(1, 4);
    p.pad_h = rng.uniform32(0, 4);
    p.pad_w = rng.uniform32(0, 4);
    p.input_h = rng.uniform32(1, 4);
    p.input_w = rng.uniform32(1, 6);
    // Far past the image on both sides: many windows are padding only.
    p.output_h = p.input_h + 2 * p.pad_h + rng.uniform32(0, 3);
    p.output_w = p.input_w + 2 * p.pad_w + rng.uniform32(0, 3);
    p.input_offset = rng.coin() ? -127 : 128;
    p.output_offset = rng.coin() ? -128 : 127;
    p.activation_min = rng.coin() ? -128 : rng.uniform32(-128, 0);
    p.activation_max = rng.coin() ? 127 : rng.uniform32(p.activation_min, 127);
    fill_conv_case(rng, c, true, weight_bytes(c.p));
    for (int32_t oc = 0; oc < p.output_c; ++oc) {
      const int32_t biases[] = {INT32_MAX, INT32_MIN, INT32_MAX - 1000, INT32_MIN + 1000};
      c.bias[oc] = rng.pick(biases);
      const int32_t multipliers[] = {0, 1, INT32_MAX};
      const int32_t shifts[] = {-31, 0, 30};
      c.multipliers[oc] = rng.pick(multipliers);
      c.shifts[oc] = rng.pick(shifts);
    }
    if (i % 3 == 0) {  // int8 extremes: the largest magnitude products
      fill_conv_int8_extremes(rng, c, weight_bytes(p));
    }
    check_case(c, "extremes");
    ETNS_RETURN_IF_FAILED();
  }
}

}  // namespace
}  // namespace etns::cortex_m
