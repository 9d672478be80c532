// Every compiled variant of quantized_depthwise_conv2d against the reference,
// on the host and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include <cstddef>
#include <cstdint>

#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d.h"
#include "kernels/testing/conv_family_tester.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::cortex_m {
namespace {

using kernels::testing::fill_conv_case;
using kernels::testing::kTileLengths;
using kernels::testing::fill_conv_int8_extremes;
using kernels::testing::random_conv_offsets;
using kernels::testing::random_out_extent;
using kernels::testing::Rng;
using Case = kernels::testing::ConvCase<DepthwiseConv2dParams>;

constexpr uint64_t kSeed = 0x6477636f;  // "dwco"

size_t weight_bytes(const DepthwiseConv2dParams& p) {
  return static_cast<size_t>(p.filter_h) * p.filter_w * p.output_c;
}
void check_case(const Case& c, const char* what) {
  const DepthwiseConv2dParams& p = c.p;
  ETNS_CHECK_CONV_VARIANTS(
      kernels::kDepthwiseConv2dVariants, c, depthwise_conv2d_scratch_bytes(p), 1,
      "%s: n %d, in %dx%dx%d, x%d, filter %dx%d, out %dx%d, stride %d,%d, pad %d,%d, "
      "dilation %d,%d, offsets %d/%d, act [%d, %d], %s",
      what, static_cast<int>(p.batches), static_cast<int>(p.input_h),
      static_cast<int>(p.input_w), static_cast<int>(p.input_c),
      static_cast<int>(p.depth_multiplier), static_cast<int>(p.filter_h),
      static_cast<int>(p.filter_w), static_cast<int>(p.output_h), static_cast<int>(p.output_w),
      static_cast<int>(p.stride_h), static_cast<int>(p.stride_w), static_cast<int>(p.pad_h),
      static_cast<int>(p.pad_w), static_cast<int>(p.dilation_h), static_cast<int>(p.dilation_w),
      static_cast<int>(p.input_offset), static_cast<int>(p.output_offset),
      static_cast<int>(p.activation_min), static_cast<int>(p.activation_max),
      c.bias != nullptr ? "bias" : "no bias");
}

// Random shapes: channel counts 1-40 (tails of the 16-lane passes), depth
// multipliers 1-3, strides 1-3, dilation 1-2, filters 1x1 to 5x5 and
// non-square, batch 2, uneven padding.
ETNS_KERNEL_TEST(DepthwiseConv2dVariants, RandomShapes) {
  Rng rng(kSeed);
  for (int i = 0; i < 160; ++i) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    DepthwiseConv2dParams& p = c.p;
    p.batches = rng.uniform32(1, 2);
    p.input_c = rng.uniform32(1, 40);
    const int32_t multipliers[] = {1, 1, 2, 3};
    p.depth_multiplier = rng.pick(multipliers);
    p.output_c = p.input_c * p.depth_multiplier;
    p.filter_h = rng.uniform32(1, 5);
    p.filter_w = rng.coin() ? 3 : rng.uniform32(1, 5);
    p.stride_h = rng.uniform32(1, 3);
    p.stride_w = rng.coin() ? 1 : rng.uniform32(1, 3);
    p.dilation_h = rng.uniform32(1, 2);
    p.dilation_w = rng.coin() ? 1 : rng.uniform32(1, 2);
    p.pad_h = rng.uniform32(0, 2);
    p.pad_w = rng.uniform32(0, 2);
    p.input_h = rng.uniform32(1, 9);
    p.input_w = rng.uniform32(1, 9);
    p.output_h = random_out_extent(rng, p.input_h, p.filter_h, p.stride_h, p.pad_h, p.dilation_h);
    p.output_w = random_out_extent(rng, p.input_w, p.filter_w, p.stride_w, p.pad_w, p.dilation_w);
    random_conv_offsets(rng, p);
    fill_conv_case(rng, c, rng.uniform(0, 3) != 0, weight_bytes(c.p));
    check_case(c, "random");
    ETNS_RETURN_IF_FAILED();
  }
}

// Channel counts around the 16-lane passes (1, 3, 15, 16, 17, 33, 64, 65)
// with each depth multiplier, stride 1 and 2, SAME-style padding.
ETNS_KERNEL_TEST(DepthwiseConv2dVariants, ChannelCounts) {
  Rng rng(kSeed + 1);
  const int32_t channels[] = {1, 3, 15, 16, 17, 33, 64, 65};
  for (const int32_t input_c : channels) {
    for (int32_t mult = 1; mult <= 3; ++mult) {
      for (int32_t stride = 1; stride <= 2; ++stride) {
        kernels::testing::TestMemoryScope scope;
        Case c;
        DepthwiseConv2dParams& p = c.p;
        p.batches = 1;
        p.input_c = input_c;
        p.depth_multiplier = mult;
        p.output_c = input_c * mult;
        p.filter_h = p.filter_w = 3;
        p.stride_h = p.stride_w = stride;
        p.pad_h = p.pad_w = 1;
        p.input_h = 4;
        p.input_w = 5;
        p.output_h = (p.input_h + stride - 1) / stride;
        p.output_w = (p.input_w + stride - 1) / stride;
        random_conv_offsets(rng, p);
        fill_conv_case(rng, c, rng.coin(), weight_bytes(c.p));
        check_case(c, "channel counts");
        ETNS_RETURN_IF_FAILED();
      }
    }
  }
}

// The shapes depthwise_conv2d_3x3_s8_mve handles (3x3, multiplier 1, channels
// a multiple of 4, stride 1 or 2 per axis, padding 0-2), around its 8-channel
// groups and padded rows: small images, outputs past SAME's extent (padding
// only windows), batch 2, int8 extremes for the largest products, and every
// shift negative in half the cases.
ETNS_KERNEL_TEST(DepthwiseConv2dVariants, ThreeByThree) {
  Rng rng(kSeed + 4);
  const int32_t channels[] = {4, 8, 12, 16, 20, 36, 64};
  for (int i = 0; i < 96; ++i) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    DepthwiseConv2dParams& p = c.p;
    p.batches = rng.uniform32(1, 2);
    p.input_c = p.output_c = channels[i % 7];
    p.filter_h = p.filter_w = 3;
    p.stride_h = rng.uniform32(1, 2);
    p.stride_w = rng.uniform32(1, 2);
    p.pad_h = rng.uniform32(0, 2);
    p.pad_w = rng.uniform32(0, 2);
    p.input_h = rng.uniform32(1, 8);
    p.input_w = rng.uniform32(1, 8);
    p.output_h = random_out_extent(rng, p.input_h, 3, p.stride_h, p.pad_h, 1);
    p.output_w = random_out_extent(rng, p.input_w, 3, p.stride_w, p.pad_w, 1);
    random_conv_offsets(rng, p);
    fill_conv_case(rng, c, rng.uniform(0, 3) != 0, weight_bytes(c.p));
    if (i % 4 == 0) {
      fill_conv_int8_extremes(rng, c, weight_bytes(c.p));
    }
    if (i % 2 == 1) {  // every shift negative, as exported models have (a faster path)
      for (int32_t oc = 0; oc < p.output_c; ++oc) {
        const int32_t shifts[] = {-31, -1, rng.uniform32(-12, -1), rng.uniform32(-31, -1)};
        c.shifts[oc] = rng.pick(shifts);
      }
    }
    if (!depthwise_conv2d_3x3_handles(p)) {
      kernels::testing::fail(__FILE__, __LINE__, "case %d is not a 3x3 shape", i);
      return;
    }
    check_case(c, "3x3");
    ETNS_RETURN_IF_FAILED();
  }
}

// The 3x3 variant's pixel-pair block for all-negative shifts and
// non-negative multipliers (its requantisation rewritten exactly: the step
// down from the accumulator's sign, the output offset added in int16):
// multipliers 0, 1 and INT32_MAX, shifts -1 and -31, biases near the int32
// limits so accumulators wrap, offsets and activation bounds at their ends,
// int8 extremes; one case in four has a negative multiplier, which must take
// the general path.
ETNS_KERNEL_TEST(DepthwiseConv2dVariants, ThreeByThreeRightShiftCorners) {
  Rng rng(kSeed + 7);
  const int32_t channels[] = {8, 12, 16, 24, 64};
  for (int i = 0; i < 60; ++i) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    DepthwiseConv2dParams& p = c.p;
    p.batches = 1;
    p.input_c = p.output_c = channels[i % 5];
    p.filter_h = p.filter_w = 3;
    p.stride_h = rng.uniform32(1, 2);
    p.stride_w = i % 2 + 1;
    p.pad_h = p.pad_w = 1;
    p.input_h = rng.uniform32(1, 6);
    p.input_w = rng.uniform32(2, 9);
    p.output_h = random_out_extent(rng, p.input_h, 3, p.stride_h, p.pad_h, 1);
    p.output_w = random_out_extent(rng, p.input_w, 3, p.stride_w, p.pad_w, 1);
    const int32_t input_offsets[] = {-127, 128, rng.uniform32(-127, 128)};
    const int32_t output_offsets[] = {-128, 127, rng.uniform32(-128, 127)};
    p.input_offset = rng.pick(input_offsets);
    p.output_offset = rng.pick(output_offsets);
    p.activation_min = rng.coin() ? -128 : rng.uniform32(-128, 127);
    p.activation_max = rng.coin() ? 127 : rng.uniform32(p.activation_min, 127);
    fill_conv_case(rng, c, rng.uniform(0, 3) != 0, weight_bytes(c.p));
    if (i % 3 == 0) fill_conv_int8_extremes(rng, c, weight_bytes(c.p));
    for (int32_t oc = 0; oc < p.output_c; ++oc) {
      const int32_t multipliers[] = {0, 1, INT32_MAX, rng.uniform32(1 << 30, INT32_MAX)};
      const int32_t shifts[] = {-31, -1, rng.uniform32(-12, -1)};
      c.multipliers[oc] = rng.pick(multipliers);
      c.shifts[oc] = rng.pick(shifts);
      if (c.bias != nullptr && rng.uniform(0, 3) == 0) {
        const int32_t biases[] = {INT32_MAX, INT32_MIN, INT32_MAX - 1000, INT32_MIN + 1000};
        c.bias[oc] = rng.pick(biases);
      }
    }
    if (i % 4 == 3) c.multipliers[rng.uniform32(0, p.output_c - 1)] = -rng.uniform32(1, INT32_MAX);
    check_case(c, "3x3 right shifts");
    ETNS_RETURN_IF_FAILED();
  }
}

// DS-CNN's depthwise layer: 1x64x25x5, 3x3, stride 1, padding 1.
ETNS_KERNEL_TEST(DepthwiseConv2dVariants, DsCnnShape) {
  Rng rng(kSeed + 2);
  kernels::testing::TestMemoryScope scope;
  Case c;
  DepthwiseConv2dParams& p = c.p;
  p.batches = 1;
  p.input_h = p.output_h = 25;
  p.input_w = p.output_w = 5;
  p.input_c = p.output_c = 64;
  p.filter_h = p.filter_w = 3;
  p.pad_h = p.pad_w = 1;
  random_conv_offsets(rng, p);
  fill_conv_case(rng, c, true, weight_bytes(c.p));
  check_case(c, "ds-cnn");
}

// Extremes: offsets at the ends of their ranges, bias near the int32 limits so
// the accumulator wraps, every multiplier/shift corner, all-padding windows.
ETNS_KERNEL_TEST(DepthwiseConv2dVariants, Extremes) {
  Rng rng(kSeed + 3);
  for (int i = 0; i < 24; ++i) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    DepthwiseConv2dParams& p = c.p;
    p.batches = 2;
    p.input_c = rng.uniform32(1, 20);
    p.depth_multiplier = rng.uniform32(1, 3);
    p.output_c = p.input_c * p.depth_multiplier;
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
    if (i % 3 == 0) {
      fill_conv_int8_extremes(rng, c, weight_bytes(c.p));
    }
    check_case(c, "extremes");
    ETNS_RETURN_IF_FAILED();
  }
}

// The shapes of the host's VNNI path (depth multiplier 1; steps of 64 output
// bytes over a zero-point-padded image, its rows split into stride phases):
// channels a multiple of 64, and channels dividing 64 (64 / C pixels a step,
// the rest of a row one pixel at a time). Filters 1x1 to 6x5 (tap counts on and
// off multiples of 4), strides 1-3, dilation 1-2, padding 0-3, outputs past
// SAME's extent, batch 2; a third of the cases with int8 extremes and biases
// near the int32 limits, so the sums wrap.
ETNS_KERNEL_TEST(DepthwiseConv2dVariants, VnniShapes) {
  Rng rng(kSeed + 5);
  const int32_t channels[] = {1, 2, 4, 8, 16, 32, 64, 128, 192};
  for (int i = 0; i < 108; ++i) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    DepthwiseConv2dParams& p = c.p;
    p.batches = rng.uniform32(1, 2);
    p.input_c = p.output_c = channels[i % 9];
    p.filter_h = rng.uniform32(1, 6);
    p.filter_w = rng.uniform32(1, 5);
    p.stride_h = rng.uniform32(1, 3);
    p.stride_w = rng.uniform32(1, 3);
    p.dilation_h = rng.uniform32(1, 2);
    p.dilation_w = rng.uniform32(1, 2);
    p.pad_h = rng.uniform32(0, 3);
    p.pad_w = rng.uniform32(0, 3);
    p.input_h = rng.uniform32(1, 8);
    // Rows of several 64-byte steps (64 / C pixels each) and a few left over.
    p.input_w = p.output_c < 64 ? rng.uniform32(1, p.stride_w * (80 / p.output_c) + 8) : rng.uniform32(1, 8);
    p.output_h = random_out_extent(rng, p.input_h, p.filter_h, p.stride_h, p.pad_h, p.dilation_h);
    p.output_w = random_out_extent(rng, p.input_w, p.filter_w, p.stride_w, p.pad_w, p.dilation_w);
    random_conv_offsets(rng, p);
    fill_conv_case(rng, c, rng.uniform(0, 3) != 0, weight_bytes(c.p));
    if (i % 3 == 0) {
      fill_conv_int8_extremes(rng, c, weight_bytes(c.p));
      if (c.bias != nullptr) {
        for (int32_t oc = 0; oc < p.output_c; ++oc) c.bias[oc] = rng.coin() ? INT32_MAX - 100 : INT32_MIN + 100;
      }
    }
    check_case(c, "vnni shapes");
    ETNS_RETURN_IF_FAILED();
  }
}

// Every shift negative, as exported models have.
void right_shifts(Rng& rng, Case& c) {
  for (int32_t oc = 0; oc < c.p.output_c; ++oc) {
    const int32_t shifts[] = {-31, -1, rng.uniform32(-12, -1), rng.uniform32(-31, -1)};
    c.shifts[oc] = rng.pick(shifts);
  }
}

// Depth multiplier > 1 with more than one input channel (output channel
// c * M + m reads input channel c), the shapes depthwise_conv2d_mult_s8_mve
// takes: multipliers 2-5, 8, 16, 17 (its byte copies: widening multiplies at
// 2 and 4, one broadcast store up to 16, several above), input channels 2-9
// so that output channels fall on and off its 16- and 8-channel passes and
// tails, filters 1x1 to 5x5, 10x8 and 17x16 (more taps than its vector fill
// of the per-channel values sums in int16), strides 1-3, dilation 1-3 (its
// row slots are kept only at dilation 1; the two-pixel pass only at width
// dilation 1), padding 0-4, outputs past SAME's extent, batch 2; a quarter
// with int8 extremes and biases near the int32 limits, half with every shift
// negative. A shape whose scratch would pass 8 KiB goes to the general
// variant (still checked); most are the multiplier path's, 272-tap ones too.
ETNS_KERNEL_TEST(DepthwiseConv2dVariants, Multipliers) {
  Rng rng(kSeed + 6);
  const int32_t multipliers[] = {2, 3, 4, 5, 8, 16, 17};
  int handled = 0, handled_many_taps = 0;
  for (int i = 0; i < 140; ++i) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    DepthwiseConv2dParams& p = c.p;
    p.batches = rng.uniform32(1, 2);
    p.input_c = rng.uniform32(2, 9);
    p.depth_multiplier = multipliers[i % 7];
    p.output_c = p.input_c * p.depth_multiplier;
    if (i % 20 == 19) {  // 272 taps: past the int16 sums of the blocks' vector fill
      p.filter_h = 17;
      p.filter_w = 16;
    } else if (i % 10 == 9) {
      p.filter_h = 10;
      p.filter_w = 8;
    } else {
      p.filter_h = rng.uniform32(1, 5);
      p.filter_w = rng.coin() ? 3 : rng.uniform32(1, 5);
    }
    p.stride_h = rng.uniform32(1, 3);
    p.stride_w = rng.coin() ? 1 : rng.uniform32(1, 3);
    p.dilation_h = rng.coin() ? 1 : rng.uniform32(2, 3);
    p.dilation_w = rng.coin() ? 1 : rng.uniform32(2, 3);
    p.pad_h = rng.uniform32(0, 4);
    p.pad_w = rng.uniform32(0, 4);
    p.input_h = rng.uniform32(1, 12);
    p.input_w = rng.uniform32(1, 12);
    p.output_h = random_out_extent(rng, p.input_h, p.filter_h, p.stride_h, p.pad_h, p.dilation_h);
    p.output_w = random_out_extent(rng, p.input_w, p.filter_w, p.stride_w, p.pad_w, p.dilation_w);
    random_conv_offsets(rng, p);
    fill_conv_case(rng, c, rng.uniform(0, 3) != 0, weight_bytes(c.p));
    if (i % 4 == 0) {
      fill_conv_int8_extremes(rng, c, weight_bytes(c.p));
      if (c.bias != nullptr) {
        for (int32_t oc = 0; oc < p.output_c; ++oc) {
          c.bias[oc] = rng.coin() ? INT32_MAX - 100 : INT32_MIN + 100;
        }
      }
    }
    if (i % 2 == 1) right_shifts(rng, c);
    if (depthwise_conv2d_mult_handles(p)) {
      ++handled;
      if (p.filter_h * p.filter_w > 256) ++handled_many_taps;
    }
    check_case(c, "multipliers");
    ETNS_RETURN_IF_FAILED();
  }
  ETNS_CHECK(handled >= 120 && handled_many_taps > 0,
             "%d of 140 cases (%d with 272 taps) are the multiplier path's", handled,
             handled_many_taps);
}

// Rows of kTileLengths pixels (1 to 1000: the two-pixel pass's pairs and odd
// last pixel, the byte copies' full vectors and predicated tails) with 2-4
// input channels times multipliers 2, 3, 4 and 8, 3x3 and 1x2 filters, stride
// 1 and 2, SAME-style padding.
ETNS_KERNEL_TEST(DepthwiseConv2dVariants, MultiplierRowLengths) {
  Rng rng(kSeed + 7);
  const int32_t multipliers[] = {2, 3, 4, 8};
  int i = 0;
  for (const size_t n : kTileLengths) {
    if (n == 0) continue;  // an empty row is no tensor prepare accepts
    kernels::testing::TestMemoryScope scope;
    Case c;
    DepthwiseConv2dParams& p = c.p;
    p.batches = 1;
    p.input_c = 2 + i % 3;
    p.depth_multiplier = multipliers[i % 4];
    p.output_c = p.input_c * p.depth_multiplier;
    p.filter_h = i % 3 == 2 ? 1 : 3;
    p.filter_w = i % 3 == 2 ? 2 : 3;
    p.stride_h = p.stride_w = 1 + i % 2;
    p.pad_h = p.pad_w = p.filter_h == 3 && p.stride_h == 1 ? 1 : 0;
    p.input_h = 3;
    p.input_w = static_cast<int32_t>(n);
    p.output_h = (p.input_h + p.stride_h - 1) / p.stride_h;
    p.output_w = (p.input_w + p.stride_w - 1) / p.stride_w;
    random_conv_offsets(rng, p);
    fill_conv_case(rng, c, rng.coin(), weight_bytes(c.p));
    check_case(c, "multiplier row lengths");
    ETNS_RETURN_IF_FAILED();
    ++i;
  }
}

// Output channel counts 4 to 64 from input channels 2, 3, 4, 5, 7 and 8 times
// multipliers 2, 3, 4 and 8 (every combination): each of the path's 16- and
// 8-channel passes and tails, 3x3 at stride 1 and 2 and dilation 1 and 2.
ETNS_KERNEL_TEST(DepthwiseConv2dVariants, MultiplierChannels) {
  Rng rng(kSeed + 8);
  const int32_t channels[] = {2, 3, 4, 5, 7, 8};
  const int32_t multipliers[] = {2, 3, 4, 8};
  int i = 0;
  for (const int32_t input_c : channels) {
    for (const int32_t mult : multipliers) {
      kernels::testing::TestMemoryScope scope;
      Case c;
      DepthwiseConv2dParams& p = c.p;
      p.batches = 1;
      p.input_c = input_c;
      p.depth_multiplier = mult;
      p.output_c = input_c * mult;
      p.filter_h = p.filter_w = 3;
      p.stride_h = p.stride_w = 1 + i % 2;
      p.dilation_h = p.dilation_w = 1 + (i / 2) % 2;
      p.pad_h = p.pad_w = 1;
      p.input_h = 5;
      p.input_w = 6;
      p.output_h = random_out_extent(rng, p.input_h, 3, p.stride_h, 1, p.dilation_h);
      p.output_w = random_out_extent(rng, p.input_w, 3, p.stride_w, 1, p.dilation_w);
      random_conv_offsets(rng, p);
      fill_conv_case(rng, c, rng.coin(), weight_bytes(c.p));
      check_case(c, "multiplier channels");
      ETNS_RETURN_IF_FAILED();
      ++i;
    }
  }
}

// A row too wide for the multiplier path's 8 KiB of scratch (3 slots of 200
// pixels x 32 channels): declined, the general variant's result checked.
ETNS_KERNEL_TEST(DepthwiseConv2dVariants, MultiplierDeclinesWideRows) {
  Rng rng(kSeed + 11);
  kernels::testing::TestMemoryScope scope;
  Case c;
  DepthwiseConv2dParams& p = c.p;
  p.batches = 1;
  p.input_h = 3;
  p.input_w = p.output_w = 200;
  p.output_h = 3;
  p.input_c = 8;
  p.depth_multiplier = 4;
  p.output_c = 32;
  p.filter_h = p.filter_w = 3;
  p.pad_h = p.pad_w = 1;
  random_conv_offsets(rng, p);
  fill_conv_case(rng, c, true, weight_bytes(c.p));
  ETNS_CHECK(!depthwise_conv2d_mult_handles(p), "a 200-pixel row of 32 channels is handled");
  ETNS_CHECK(depthwise_conv2d_mult_s8_mve_scratch_bytes(p) ==
                 depthwise_conv2d_s8_mve_scratch_bytes(p),
             "the declined shape's scratch is not the general variant's");
  check_case(c, "wide rows");
}

// micro_speech's first layer, 49x40x1 x 8, 10x8, stride 2, "SAME" (4 rows and
// 3 columns before; 25x20x8 out), and the same with 3 input channels.
ETNS_KERNEL_TEST(DepthwiseConv2dVariants, MicroSpeechShape) {
  Rng rng(kSeed + 9);
  for (const int32_t input_c : {1, 3}) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    DepthwiseConv2dParams& p = c.p;
    p.batches = 1;
    p.input_h = 49;
    p.input_w = 40;
    p.input_c = input_c;
    p.depth_multiplier = 8;
    p.output_c = input_c * 8;
    p.filter_h = 10;
    p.filter_w = 8;
    p.stride_h = p.stride_w = 2;
    p.pad_h = 4;
    p.pad_w = 3;
    p.output_h = 25;
    p.output_w = 20;
    random_conv_offsets(rng, p);
    fill_conv_case(rng, c, true, weight_bytes(c.p));
    right_shifts(rng, c);
    check_case(c, "micro_speech");
    ETNS_RETURN_IF_FAILED();
  }
}

#if ETNS_HAVE_MVE
// depthwise_conv2d_mult_s8_mve writes only inside the scratch size it asks
// for, from any alignment of the scratch (its base is rounded up to 16
// bytes): 64 guard bytes after the buffer keep their pattern.
ETNS_KERNEL_TEST(DepthwiseConv2dVariants, MultiplierScratchBounds) {
  Rng rng(kSeed + 10);
  constexpr size_t kGuard = 64;
  for (int i = 0; i < 32; ++i) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    DepthwiseConv2dParams& p = c.p;
    p.batches = 1;
    p.input_c = rng.uniform32(2, 6);
    p.depth_multiplier = rng.uniform32(2, 9);
    p.output_c = p.input_c * p.depth_multiplier;
    p.filter_h = rng.uniform32(1, 4);
    p.filter_w = rng.uniform32(1, 4);
    p.stride_h = rng.uniform32(1, 2);
    p.stride_w = rng.uniform32(1, 2);
    p.dilation_h = rng.uniform32(1, 2);
    p.dilation_w = rng.uniform32(1, 2);
    p.pad_h = rng.uniform32(0, 3);
    p.pad_w = rng.uniform32(0, 3);
    p.input_h = rng.uniform32(1, 7);
    p.input_w = rng.uniform32(1, 7);
    p.output_h = random_out_extent(rng, p.input_h, p.filter_h, p.stride_h, p.pad_h, p.dilation_h);
    p.output_w = random_out_extent(rng, p.input_w, p.filter_w, p.stride_w, p.pad_w, p.dilation_w);
    random_conv_offsets(rng, p);
    fill_conv_case(rng, c, true, weight_bytes(c.p));
    const size_t bytes = depthwise_conv2d_mult_s8_mve_scratch_bytes(p);
    const size_t misalign = static_cast<size_t>(i % 16);
    uint8_t* buffer = ETNS_TEST_ARRAY(uint8_t, misalign + bytes + kGuard);
    uint8_t* scratch = buffer + misalign;
    for (size_t k = 0; k < kGuard; ++k) scratch[bytes + k] = 0x5a;
    int8_t* out = ETNS_TEST_ARRAY(int8_t, kernels::testing::conv_out_bytes(p));
    depthwise_conv2d_mult_s8_mve(p, c.input, c.weight, c.bias, out, scratch);
    for (size_t k = 0; k < kGuard; ++k) {
      ETNS_CHECK(scratch[bytes + k] == 0x5a,
                 "case %d: scratch byte %u past its %u bytes written (misaligned by %u)", i,
                 static_cast<unsigned>(k), static_cast<unsigned>(bytes),
                 static_cast<unsigned>(misalign));
    }
  }
}
#endif

}  // namespace
}  // namespace etns::cortex_m
