// Every compiled variant of quantized_transpose_conv2d against the reference,
// on the host and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include <cstddef>
#include <cstdint>

#include "kernels/cortex_m/transpose_conv2d/transpose_conv2d.h"
#include "kernels/testing/conv_family_tester.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::cortex_m {
namespace {

using kernels::testing::fill_conv_int8_extremes;
using kernels::testing::fill_conv_case;
using kernels::testing::random_conv_offsets;
using kernels::testing::Rng;
using Case = kernels::testing::ConvCase<TransposeConv2dParams>;

constexpr uint64_t kSeed = 0x74636f6e;  // "tcon"

size_t weight_bytes(const TransposeConv2dParams& p) {
  return static_cast<size_t>(p.output_c) * p.filter_h * p.filter_w * p.input_c;
}
// The size formula prepare enforces; output_padding in [0, stride).
int32_t out_extent(int32_t in, int32_t kernel, int32_t stride, int32_t pad,
                   int32_t output_padding) {
  return (in - 1) * stride - 2 * pad + kernel + output_padding;
}

// A padding in [0, max_pad] and output_padding in [0, stride) that leave out >= 1.
void random_padding(Rng& rng, int32_t in, int32_t kernel, int32_t stride, int32_t max_pad,
                    int32_t* pad, int32_t* output_padding, int32_t* out) {
  do {
    *pad = rng.uniform32(0, max_pad);
    *output_padding = rng.uniform32(0, stride - 1);
    *out = out_extent(in, kernel, stride, *pad, *output_padding);
  } while (*out < 1);
}

void check_case(const Case& c, const char* what) {
  const TransposeConv2dParams& p = c.p;
  ETNS_CHECK_CONV_VARIANTS(
      kernels::kTransposeConv2dVariants, c, transpose_conv2d_scratch_bytes(p), 1,
      "%s: n %d, in %dx%dx%d, filter %dx%dx%d, out %dx%d, stride %d,%d, pad %d,%d, "
      "offsets %d/%d, act [%d, %d], %s",
      what, static_cast<int>(p.batches), static_cast<int>(p.input_h),
      static_cast<int>(p.input_w), static_cast<int>(p.input_c), static_cast<int>(p.output_c),
      static_cast<int>(p.filter_h), static_cast<int>(p.filter_w), static_cast<int>(p.output_h),
      static_cast<int>(p.output_w), static_cast<int>(p.stride_h), static_cast<int>(p.stride_w),
      static_cast<int>(p.pad_h), static_cast<int>(p.pad_w), static_cast<int>(p.input_offset),
      static_cast<int>(p.output_offset), static_cast<int>(p.activation_min),
      static_cast<int>(p.activation_max), c.bias != nullptr ? "bias" : "no bias");
}

// Random shapes: channel counts 1-40 in and out (tails of the 16-byte dot
// products and of the 4-channel groups), strides 1-4 (also above the
// kernel), filters 1x1 to 5x5 and non-square, padding 0-3, output_padding,
// batch 2.
ETNS_KERNEL_TEST(TransposeConv2dVariants, RandomShapes) {
  Rng rng(kSeed);
  for (int i = 0; i < 160; ++i) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    TransposeConv2dParams& p = c.p;
    p.batches = rng.uniform32(1, 2);
    p.input_c = rng.uniform32(1, 40);
    p.output_c = rng.uniform32(1, 40);
    p.filter_h = rng.uniform32(1, 5);
    p.filter_w = rng.coin() ? p.filter_h : rng.uniform32(1, 5);
    p.stride_h = rng.uniform32(1, 4);
    p.stride_w = rng.coin() ? p.stride_h : rng.uniform32(1, 4);
    p.input_h = rng.uniform32(1, 7);
    p.input_w = rng.uniform32(1, 7);
    int32_t output_padding = 0;
    random_padding(rng, p.input_h, p.filter_h, p.stride_h, 3, &p.pad_h, &output_padding,
                   &p.output_h);
    random_padding(rng, p.input_w, p.filter_w, p.stride_w, 3, &p.pad_w, &output_padding,
                   &p.output_w);
    random_conv_offsets(rng, p);
    fill_conv_case(rng, c, rng.uniform(0, 3) != 0, weight_bytes(c.p));
    check_case(c, "random");
    ETNS_RETURN_IF_FAILED();
  }
}

// Channel counts around the 16-byte dot products and 4-channel groups
// (1, 3, 15, 16, 17, 33, 64) in and out, stride 1-3, kernel 2-4.
ETNS_KERNEL_TEST(TransposeConv2dVariants, ChannelCounts) {
  Rng rng(kSeed + 1);
  const int32_t channels[] = {1, 3, 15, 16, 17, 33, 64};
  for (const int32_t input_c : channels) {
    for (const int32_t output_c : {1, 5, 16, 17}) {
      for (int32_t stride = 1; stride <= 3; ++stride) {
        kernels::testing::TestMemoryScope scope;
        Case c;
        TransposeConv2dParams& p = c.p;
        p.batches = 1;
        p.input_c = input_c;
        p.output_c = output_c;
        p.filter_h = p.filter_w = stride + 1;
        p.stride_h = p.stride_w = stride;
        p.pad_h = p.pad_w = stride > 1 ? 1 : 0;
        p.input_h = 3;
        p.input_w = 4;
        const int32_t output_padding = stride > 1 ? 1 : 0;
        p.output_h = out_extent(p.input_h, p.filter_h, stride, p.pad_h, output_padding);
        p.output_w = out_extent(p.input_w, p.filter_w, stride, p.pad_w, output_padding);
        random_conv_offsets(rng, p);
        fill_conv_case(rng, c, rng.coin(), weight_bytes(c.p));
        check_case(c, "channel counts");
        ETNS_RETURN_IF_FAILED();
      }
    }
  }
}

// The bench shape: 1x16x8x8 -> 1x16x16x16, 4x4 kernel, stride 2, padding 1.
ETNS_KERNEL_TEST(TransposeConv2dVariants, BenchShape) {
  Rng rng(kSeed + 2);
  kernels::testing::TestMemoryScope scope;
  Case c;
  TransposeConv2dParams& p = c.p;
  p.batches = 1;
  p.input_h = p.input_w = 8;
  p.output_h = p.output_w = 16;
  p.input_c = p.output_c = 16;
  p.filter_h = p.filter_w = 4;
  p.stride_h = p.stride_w = 2;
  p.pad_h = p.pad_w = 1;
  random_conv_offsets(rng, p);
  fill_conv_case(rng, c, true, weight_bytes(c.p));
  check_case(c, "bench shape");
}

// Extremes: offsets at the ends of their ranges, bias near the int32 limits so
// the accumulator wraps, every multiplier/shift corner, int8 extremes.
ETNS_KERNEL_TEST(TransposeConv2dVariants, Extremes) {
  Rng rng(kSeed + 3);
  for (int i = 0; i < 24; ++i) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    TransposeConv2dParams& p = c.p;
    p.batches = 2;
    p.input_c = rng.uniform32(1, 20);
    p.output_c = rng.uniform32(1, 20);
    p.filter_h = rng.uniform32(1, 4);
    p.filter_w = rng.uniform32(1, 4);
    p.stride_h = rng.uniform32(1, 3);
    p.stride_w = rng.uniform32(1, 3);
    p.input_h = rng.uniform32(1, 4);
    p.input_w = rng.uniform32(1, 6);
    int32_t output_padding = 0;
    random_padding(rng, p.input_h, p.filter_h, p.stride_h, 2, &p.pad_h, &output_padding,
                   &p.output_h);
    random_padding(rng, p.input_w, p.filter_w, p.stride_w, 2, &p.pad_w, &output_padding,
                   &p.output_w);
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
