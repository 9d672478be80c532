// Every compiled variant of quantized_depthwise_conv2d against the reference,
// on the host and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include <cstddef>
#include <cstdint>

#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::cortex_m {
namespace {

using kernels::testing::Rng;

constexpr uint64_t kSeed = 0x6477636f;  // "dwco"

// One case: parameters plus per-channel multipliers, shifts and bias, and the
// input and weight bytes, all in test memory.
struct Case {
  DepthwiseConv2dParams p;
  int32_t* multipliers = nullptr;
  int32_t* shifts = nullptr;
  int32_t* bias = nullptr;  // nullptr: no bias
  int8_t* input = nullptr;
  int8_t* weight = nullptr;
};

size_t input_bytes(const DepthwiseConv2dParams& p) {
  return static_cast<size_t>(p.batches) * p.input_h * p.input_w * p.input_c;
}
size_t weight_bytes(const DepthwiseConv2dParams& p) {
  return static_cast<size_t>(p.filter_h) * p.filter_w * p.output_c;
}
size_t out_bytes(const DepthwiseConv2dParams& p) {
  return static_cast<size_t>(p.batches) * p.output_h * p.output_w * p.output_c;
}

// Allocates and fills the per-channel tensors and data for c.p: requantisation
// from the extremes prepare accepts (and random values), bias over all of int32.
void fill_case(Rng& rng, Case& c, bool with_bias) {
  const int32_t channels = c.p.output_c;
  c.multipliers = ETNS_TEST_ARRAY(int32_t, channels);
  c.shifts = ETNS_TEST_ARRAY(int32_t, channels);
  c.bias = with_bias ? ETNS_TEST_ARRAY(int32_t, channels) : nullptr;
  for (int32_t oc = 0; oc < channels; ++oc) {
    const int32_t multipliers[] = {0,
                                   1,
                                   1 << 30,
                                   INT32_MAX,
                                   rng.uniform32(1 << 30, INT32_MAX),
                                   rng.uniform32(1 << 30, INT32_MAX),
                                   rng.uniform32(0, INT32_MAX)};
    const int32_t shifts[] = {-31, -1, 0, 1, 30, rng.uniform32(-12, 0), rng.uniform32(-12, 0),
                              rng.uniform32(-31, 30)};
    c.multipliers[oc] = rng.pick(multipliers);
    c.shifts[oc] = rng.pick(shifts);
    if (with_bias) {
      const int32_t biases[] = {0, rng.uniform32(-5000, 5000), rng.uniform32(INT32_MIN, INT32_MAX)};
      c.bias[oc] = rng.pick(biases);
    }
  }
  c.p.multipliers = c.multipliers;
  c.p.shifts = c.shifts;
  c.input = ETNS_TEST_ARRAY(int8_t, input_bytes(c.p) + 1);
  c.weight = ETNS_TEST_ARRAY(int8_t, weight_bytes(c.p) + 1);
  rng.fill_s8(c.input, input_bytes(c.p));
  rng.fill_s8(c.weight, weight_bytes(c.p));
}

// Input and weights of only -128 and 127: the largest products and sums.
void fill_int8_extremes(Rng& rng, Case& c) {
  for (size_t k = 0; k < input_bytes(c.p); ++k) c.input[k] = rng.coin() ? -128 : 127;
  for (size_t k = 0; k < weight_bytes(c.p); ++k) c.weight[k] = rng.coin() ? -128 : 127;
}

void check_case(const Case& c, const char* what) {
  const DepthwiseConv2dParams& p = c.p;
  uint8_t* scratch = ETNS_TEST_ARRAY(uint8_t, depthwise_conv2d_scratch_bytes(p) + 1);
  ETNS_CHECK_VARIANTS(
      kernels::kDepthwiseConv2dVariants, out_bytes(p),
      [&](DepthwiseConv2dFn fn, void* out) {
        fn(p, c.input, c.weight, c.bias, static_cast<int8_t*>(out), scratch);
      },
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

// out's extent along one dim: PyTorch's symmetric formula, TF SAME's
// ceil(in / stride) (extra padding on the far side), or a bit more; >= 1.
int32_t out_extent(Rng& rng, int32_t in, int32_t kernel, int32_t stride, int32_t pad,
                   int32_t dilation) {
  const int32_t span = dilation * (kernel - 1) + 1;
  const int32_t symmetric = (in + 2 * pad - span) / stride + 1;
  const int32_t same = (in + stride - 1) / stride;
  int32_t out = 0;
  switch (rng.uniform(0, 3)) {
    case 0:
    case 1:
      out = in + 2 * pad >= span ? symmetric : same;
      break;
    case 2:
      out = same;
      break;
    default:
      out = (in + 2 * pad >= span ? symmetric : same) + rng.uniform32(1, 3);
      break;
  }
  return out < 1 ? 1 : out;
}

void random_offsets(Rng& rng, DepthwiseConv2dParams& p) {
  const int32_t input_offsets[] = {-127, 128, 0, rng.uniform32(-127, 128)};
  p.input_offset = rng.pick(input_offsets);
  p.output_offset = rng.uniform32(-128, 127);
  if (rng.coin()) {
    p.activation_min = -128;
    p.activation_max = 127;
  } else {
    p.activation_min = rng.uniform32(-128, 127);
    p.activation_max = rng.uniform32(p.activation_min, 127);
  }
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
    p.output_h = out_extent(rng, p.input_h, p.filter_h, p.stride_h, p.pad_h, p.dilation_h);
    p.output_w = out_extent(rng, p.input_w, p.filter_w, p.stride_w, p.pad_w, p.dilation_w);
    random_offsets(rng, p);
    fill_case(rng, c, rng.uniform(0, 3) != 0);
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
        random_offsets(rng, p);
        fill_case(rng, c, rng.coin());
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
    p.output_h = out_extent(rng, p.input_h, 3, p.stride_h, p.pad_h, 1);
    p.output_w = out_extent(rng, p.input_w, 3, p.stride_w, p.pad_w, 1);
    random_offsets(rng, p);
    fill_case(rng, c, rng.uniform(0, 3) != 0);
    if (i % 4 == 0) {
      fill_int8_extremes(rng, c);
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
  random_offsets(rng, p);
  fill_case(rng, c, true);
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
    fill_case(rng, c, true);
    for (int32_t oc = 0; oc < p.output_c; ++oc) {
      const int32_t biases[] = {INT32_MAX, INT32_MIN, INT32_MAX - 1000, INT32_MIN + 1000};
      c.bias[oc] = rng.pick(biases);
      const int32_t multipliers[] = {0, 1, INT32_MAX};
      const int32_t shifts[] = {-31, 0, 30};
      c.multipliers[oc] = rng.pick(multipliers);
      c.shifts[oc] = rng.pick(shifts);
    }
    if (i % 3 == 0) {
      fill_int8_extremes(rng, c);
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
    p.output_h = out_extent(rng, p.input_h, p.filter_h, p.stride_h, p.pad_h, p.dilation_h);
    p.output_w = out_extent(rng, p.input_w, p.filter_w, p.stride_w, p.pad_w, p.dilation_w);
    random_offsets(rng, p);
    fill_case(rng, c, rng.uniform(0, 3) != 0);
    if (i % 3 == 0) {
      fill_int8_extremes(rng, c);
      if (c.bias != nullptr) {
        for (int32_t oc = 0; oc < p.output_c; ++oc) c.bias[oc] = rng.coin() ? INT32_MAX - 100 : INT32_MIN + 100;
      }
    }
    check_case(c, "vnni shapes");
    ETNS_RETURN_IF_FAILED();
  }
}

}  // namespace
}  // namespace etns::cortex_m
