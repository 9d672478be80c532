// The "mve_rows" variant's shapes (3 filter rows of one short run each: the
// first layers of image models): every compiled variant of quantized_conv2d
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

using kernels::testing::fill_conv_int8_extremes;
using kernels::testing::random_conv_offsets;
using kernels::testing::Rng;
using Case = kernels::testing::ConvCase<Conv2dParams>;
using kernels::testing::ConvShifts;

constexpr uint64_t kSeed = 0x726f7773;  // "rows"

size_t weight_bytes(const Conv2dParams& p) {
  return static_cast<size_t>(p.output_c) * p.filter_h * p.filter_w * p.filter_c;
}

void check_case(const Case& c, const char* what) {
  const Conv2dParams& p = c.p;
  ETNS_CHECK_CONV_VARIANTS(
      kernels::kConv2dVariants, c, conv2d_scratch_bytes(p), 1,
      "%s: n %d, in %dx%dx%d, filter %dx%dx%dx%d, out %dx%d, stride %d,%d, pad %d,%d, "
      "offsets %d/%d, act [%d, %d], %s, rows variant %s",
      what, static_cast<int>(p.batches), static_cast<int>(p.input_h),
      static_cast<int>(p.input_w), static_cast<int>(p.input_c), static_cast<int>(p.output_c),
      static_cast<int>(p.filter_h), static_cast<int>(p.filter_w), static_cast<int>(p.filter_c),
      static_cast<int>(p.output_h), static_cast<int>(p.output_w), static_cast<int>(p.stride_h),
      static_cast<int>(p.stride_w), static_cast<int>(p.pad_h), static_cast<int>(p.pad_w),
      static_cast<int>(p.input_offset), static_cast<int>(p.output_offset),
      static_cast<int>(p.activation_min), static_cast<int>(p.activation_max),
      c.bias != nullptr ? "bias" : "no bias", conv2d_rows_handles(p) ? "runs" : "declines");
}

// out's extent along one dim for a filter of `span` at `stride`: the usual
// formula, TF SAME's (ceil(in / stride)), or more (taps past the far edge are
// padding); >= 1.
int32_t out_extent(Rng& rng, int32_t in, int32_t span, int32_t stride, int32_t pad) {
  const int32_t valid = in + 2 * pad - span >= 0 ? (in + 2 * pad - span) / stride + 1 : 1;
  switch (rng.uniform(0, 3)) {
    case 0:
    case 1:
      return valid;
    case 2:
      return (in + stride - 1) / stride;
    default:
      return valid + rng.uniform32(1, 3);
  }
}

// Random shapes within conv2d_rows_handles: filter rows of 8 to 16 bytes from
// every (filter_w, input_c) that makes them (3x3 over RGB is 9), strides 1-4,
// padding 0-2 (0-4 along rows), outputs past the usual extent, output
// channels around the variant's passes of 8 and its quads of 4 (1-64), batch
// 2, int8 extremes, and every shift negative in half the cases (the short
// requantisation).
ETNS_KERNEL_TEST(Conv2dRowsVariants, RandomShapes) {
  Rng rng(kSeed);
  struct Run {
    int32_t filter_w, input_c;
  };
  const Run runs[] = {{3, 3}, {3, 4}, {3, 5}, {2, 4}, {2, 8}, {1, 8}, {1, 16},
                      {4, 2}, {8, 1}, {5, 3}, {16, 1}, {4, 4}, {7, 2}, {3, 3}};
  int handled = 0;
  constexpr int kCases = 140;
  for (int i = 0; i < kCases; ++i) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    Conv2dParams& p = c.p;
    const Run run = runs[i % 14];
    p.batches = rng.uniform32(1, 2);
    p.input_c = p.filter_c = run.input_c;
    p.filter_h = 3;
    p.filter_w = run.filter_w;
    const int32_t output_channels[] = {1, 3, 4, 7, 8, 9, 16, 17, 64, rng.uniform32(1, 64)};
    p.output_c = rng.pick(output_channels);
    p.stride_h = rng.uniform32(1, 4);
    p.stride_w = rng.uniform32(1, 4);
    p.pad_h = rng.uniform32(0, 2);
    p.pad_w = rng.uniform32(0, 4);
    p.input_h = rng.uniform32(1, 9);
    p.input_w = rng.uniform32(1, 24);
    // Keep the reference's work on the M55 bounded.
    if (p.output_c > 16 && p.input_w > 12) p.input_w = rng.uniform32(1, 12);
    p.output_h = out_extent(rng, p.input_h, 3, p.stride_h, p.pad_h);
    p.output_w = out_extent(rng, p.input_w, p.filter_w, p.stride_w, p.pad_w);
    random_conv_offsets(rng, p);
    kernels::testing::fill_conv_case(rng, c, rng.uniform(0, 3) != 0, weight_bytes(p),
                                     i % 2 == 1 ? ConvShifts::Right : ConvShifts::AnyOrRight);
    if (i % 5 == 0) fill_conv_int8_extremes(rng, c, weight_bytes(p));
    handled += conv2d_rows_handles(p) ? 1 : 0;
    check_case(c, "rows random");
    ETNS_RETURN_IF_FAILED();
  }
  if (handled < kCases * 3 / 4) {
    kernels::testing::fail(__FILE__, __LINE__, "only %d of %d cases run the rows variant",
                           handled, kCases);
  }
}

// The models' first layers: vww's (96x96x3 -> 8, 3x3, stride 2, TF SAME:
// padding only past the far edges) on a 24x24 crop, ic's (32x32x3 -> 16, 3x3,
// stride 1, padding 1) on a 16x16 crop; rows past the 16-pixel chunk.
ETNS_KERNEL_TEST(Conv2dRowsVariants, FirstLayers) {
  Rng rng(kSeed + 1);
  for (int i = 0; i < 4; ++i) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    Conv2dParams& p = c.p;
    p.batches = 1;
    p.input_c = p.filter_c = 3;
    p.filter_h = p.filter_w = 3;
    if (i % 2 == 0) {
      p.output_c = 8;
      p.input_h = p.input_w = 24;
      p.stride_h = p.stride_w = 2;
      p.pad_h = p.pad_w = 0;
      p.output_h = p.output_w = 12;
    } else {
      p.output_c = 16;
      p.input_h = p.input_w = 16;
      p.pad_h = p.pad_w = 1;
      p.output_h = p.output_w = 16;
    }
    random_conv_offsets(rng, p);
    kernels::testing::fill_conv_case(rng, c, true, weight_bytes(p),
                                     i < 2 ? ConvShifts::Right : ConvShifts::AnyOrRight);
    if (!conv2d_rows_handles(p)) {
      kernels::testing::fail(__FILE__, __LINE__, "case %d is not a rows shape", i);
      return;
    }
    check_case(c, "first layer");
    ETNS_RETURN_IF_FAILED();
  }
}

// Extremes: offsets at the ends of their ranges, biases near the int32 limits
// so sums wrap, every multiplier/shift corner, images smaller than the filter
// (windows of padding only).
ETNS_KERNEL_TEST(Conv2dRowsVariants, Extremes) {
  Rng rng(kSeed + 2);
  for (int i = 0; i < 24; ++i) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    Conv2dParams& p = c.p;
    p.batches = 1;
    p.input_c = p.filter_c = 3;
    p.filter_h = p.filter_w = 3;
    p.output_c = rng.uniform32(1, 12);
    p.stride_h = rng.uniform32(1, 2);
    p.stride_w = rng.uniform32(1, 2);
    p.pad_h = rng.uniform32(0, 2);
    p.pad_w = rng.uniform32(0, 2);
    p.input_h = rng.uniform32(1, 4);
    p.input_w = rng.uniform32(1, 6);
    p.output_h = p.input_h + 2 * p.pad_h + rng.uniform32(0, 2);
    p.output_w = p.input_w + 2 * p.pad_w + rng.uniform32(0, 2);
    p.input_offset = rng.coin() ? -127 : 128;
    p.output_offset = rng.coin() ? -128 : 127;
    p.activation_min = rng.coin() ? -128 : rng.uniform32(-128, 0);
    p.activation_max = rng.coin() ? 127 : rng.uniform32(p.activation_min, 127);
    kernels::testing::fill_conv_case(rng, c, true, weight_bytes(p), ConvShifts::AnyOrRight);
    for (int32_t oc = 0; oc < p.output_c; ++oc) {
      const int32_t biases[] = {INT32_MAX, INT32_MIN, INT32_MAX - 1000, INT32_MIN + 1000};
      const int32_t multipliers[] = {0, 1, INT32_MAX};
      const int32_t shifts[] = {-31, -1, 0, 30};
      c.bias[oc] = rng.pick(biases);
      c.multipliers[oc] = rng.pick(multipliers);
      c.shifts[oc] = rng.pick(shifts);
    }
    if (i % 2 == 0) fill_conv_int8_extremes(rng, c, weight_bytes(p));
    check_case(c, "rows extremes");
    ETNS_RETURN_IF_FAILED();
  }
}

}  // namespace
}  // namespace etns::cortex_m
