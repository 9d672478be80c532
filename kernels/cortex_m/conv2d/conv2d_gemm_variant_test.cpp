// The "mve_gemm" variant's shapes: every compiled variant of quantized_conv2d
// against the reference, on the host and on the Cortex-M55
// (kernels/testing/kernel_test.h). Every shape here is one conv2d_gemm_handles
// accepts (checked), so on the M55 the gemm path itself runs.
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
using kernels::testing::random_out_extent;
using kernels::testing::Rng;
using Case = kernels::testing::ConvCase<Conv2dParams>;

constexpr uint64_t kSeed = 0x67656d6d;  // "gemm"

size_t weight_bytes(const Conv2dParams& p) {
  return static_cast<size_t>(p.output_c) * p.filter_h * p.filter_w * p.filter_c;
}
// Per-channel tensors and data for c.p. realistic: the exporters' values
// (multipliers in [2^30, INT32_MAX), shifts -9..-6, bias within +-2000, the
// all-negative shifts path); else the corners prepare accepts as well.
void fill_case(Rng& rng, Case& c, bool with_bias, bool realistic) {
  const int32_t channels = c.p.output_c;
  c.multipliers = ETNS_TEST_ARRAY(int32_t, channels);
  c.shifts = ETNS_TEST_ARRAY(int32_t, channels);
  c.bias = with_bias ? ETNS_TEST_ARRAY(int32_t, channels) : nullptr;
  for (int32_t oc = 0; oc < channels; ++oc) {
    if (realistic) {
      c.multipliers[oc] = rng.uniform32(1 << 30, INT32_MAX - 1);
      c.shifts[oc] = rng.uniform32(-9, -6);
      if (with_bias) c.bias[oc] = rng.uniform32(-2000, 2000);
      continue;
    }
    const int32_t multipliers[] = {0,
                                   1,
                                   1 << 30,
                                   INT32_MAX,
                                   rng.uniform32(1 << 30, INT32_MAX),
                                   rng.uniform32(1 << 30, INT32_MAX),
                                   rng.uniform32(0, INT32_MAX)};
    const int32_t shifts[] = {
        -31, -1, 0, 1, 30, rng.uniform32(-12, 0), rng.uniform32(-12, -1), rng.uniform32(-31, 30)};
    c.multipliers[oc] = rng.pick(multipliers);
    c.shifts[oc] = rng.pick(shifts);
    if (with_bias) {
      const int32_t biases[] = {0, rng.uniform32(-5000, 5000), rng.uniform32(INT32_MIN, INT32_MAX)};
      c.bias[oc] = rng.pick(biases);
    }
  }
  c.p.multipliers = c.multipliers;
  c.p.shifts = c.shifts;
  // Exactly sized: a read past the end would go unnoticed with slack, so none.
  kernels::testing::random_conv_data(rng, c, weight_bytes(c.p), 0);
}

void check_case(const Case& c, const char* what) {
  const Conv2dParams& p = c.p;
  ETNS_CHECK(conv2d_gemm_handles(p), "%s: the gemm variant declines this shape", what);
  // Exactly sized scratch, as the case's tensors.
  ETNS_CHECK_CONV_VARIANTS(
      kernels::kConv2dVariants, c, conv2d_scratch_bytes(p), 0,
      "%s: n %d, in %dx%dx%d, filter %dx%dx%dx%d, out %dx%d, stride %d,%d, pad %d,%d, "
      "dilation %d,%d, offsets %d/%d, act [%d, %d], %s",
      what, static_cast<int>(p.batches), static_cast<int>(p.input_h), static_cast<int>(p.input_w),
      static_cast<int>(p.input_c), static_cast<int>(p.output_c), static_cast<int>(p.filter_h),
      static_cast<int>(p.filter_w), static_cast<int>(p.filter_c), static_cast<int>(p.output_h),
      static_cast<int>(p.output_w), static_cast<int>(p.stride_h), static_cast<int>(p.stride_w),
      static_cast<int>(p.pad_h), static_cast<int>(p.pad_w), static_cast<int>(p.dilation_h),
      static_cast<int>(p.dilation_w), static_cast<int>(p.input_offset),
      static_cast<int>(p.output_offset), static_cast<int>(p.activation_min),
      static_cast<int>(p.activation_max), c.bias != nullptr ? "bias" : "no bias");
}

// 1x1 filters, stride 1 and 2, with and without padding (taps in the
// padding read the zero point), channel counts below, at and around 16,
// pixel counts not a multiple of three, odd and single output channels,
// batch 2, outputs past the symmetric size.
ETNS_KERNEL_TEST(Conv2dGemmVariant, Pointwise) {
  Rng rng(kSeed);
  for (int i = 0; i < 80; ++i) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    Conv2dParams& p = c.p;
    p.batches = rng.uniform32(1, 2);
    const int32_t channel_counts[] = {1, 3, 8, 15, 16, 17, 32, 33, 64, rng.uniform32(1, 80)};
    p.input_c = p.filter_c = rng.pick(channel_counts);
    const int32_t out_counts[] = {1, 2, 3, 5, 16, 31, rng.uniform32(1, 70)};
    p.output_c = rng.pick(out_counts);
    p.filter_h = p.filter_w = 1;
    p.stride_h = rng.uniform32(1, 2);
    p.stride_w = rng.coin() ? p.stride_h : rng.uniform32(1, 3);
    p.pad_h = rng.coin() ? 0 : rng.uniform32(0, 2);
    p.pad_w = rng.coin() ? 0 : rng.uniform32(0, 2);
    p.input_h = rng.uniform32(1, 8);
    p.input_w = rng.uniform32(1, 11);
    p.output_h = random_out_extent(rng, p.input_h, 1, p.stride_h, p.pad_h, 1);
    p.output_w = random_out_extent(rng, p.input_w, 1, p.stride_w, p.pad_w, 1);
    random_conv_offsets(rng, p);
    fill_case(rng, c, rng.uniform(0, 3) != 0, rng.coin());
    check_case(c, "pointwise");
    ETNS_RETURN_IF_FAILED();
  }
}

// Gathered windows: filters 1x1 to 5x5 and non-square, strides 1-3,
// dilation 1-2, padding up to wider than the image, uneven (SAME) far-side
// padding, K below 16 and not a multiple of 16, batch 2.
ETNS_KERNEL_TEST(Conv2dGemmVariant, RandomShapes) {
  Rng rng(kSeed + 1);
  for (int i = 0; i < 140; ++i) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    Conv2dParams& p = c.p;
    p.batches = rng.uniform32(1, 2);
    const int32_t channel_counts[] = {1, 2, 3, 4, 8, 16, rng.uniform32(1, 40)};
    p.input_c = p.filter_c = rng.pick(channel_counts);
    p.output_c = rng.uniform32(1, 40);
    p.filter_h = rng.uniform32(1, 5);
    p.filter_w = rng.coin() ? 3 : rng.uniform32(1, 5);
    p.stride_h = rng.uniform32(1, 3);
    p.stride_w = rng.coin() ? p.stride_h : rng.uniform32(1, 3);
    p.dilation_h = rng.uniform32(1, 2);
    p.dilation_w = rng.coin() ? 1 : rng.uniform32(1, 2);
    p.pad_h = rng.uniform32(0, 2);
    p.pad_w = rng.uniform32(0, 2);
    if (i % 10 == 0) p.pad_w = rng.uniform32(5, 12);  // wider than the image
    p.input_h = rng.uniform32(1, 9);
    p.input_w = rng.uniform32(1, 12);
    p.output_h = random_out_extent(rng, p.input_h, p.filter_h, p.stride_h, p.pad_h, p.dilation_h);
    p.output_w = random_out_extent(rng, p.input_w, p.filter_w, p.stride_w, p.pad_w, p.dilation_w);
    random_conv_offsets(rng, p);
    fill_case(rng, c, rng.uniform(0, 3) != 0, rng.coin());
    check_case(c, "random");
    ETNS_RETURN_IF_FAILED();
  }
}

// Every convolution shape of the MLPerf Tiny models this variant runs
// (shared/models/mlperf-tiny/CENSUS.md), with their offsets and TFLite's
// padding (SAME at stride 2: the extra on the far side, as a larger output).
ETNS_KERNEL_TEST(Conv2dGemmVariant, MlperfShapes) {
  struct Shape {
    const char* name;
    int32_t in_h, in_w, in_c, out_c, filter_h, filter_w, stride, pad_h, pad_w, out_h, out_w;
  };
  const Shape shapes[] = {
      {"kws conv1", 49, 10, 1, 64, 10, 4, 2, 4, 1, 25, 5},
      {"kws pointwise", 25, 5, 64, 64, 1, 1, 1, 0, 0, 25, 5},
      {"vww conv1", 96, 96, 3, 8, 3, 3, 2, 0, 0, 48, 48},
      {"vww 48x48x8->16", 48, 48, 8, 16, 1, 1, 1, 0, 0, 48, 48},
      {"vww 24x24x16->32", 24, 24, 16, 32, 1, 1, 1, 0, 0, 24, 24},
      {"vww 24x24x32->32", 24, 24, 32, 32, 1, 1, 1, 0, 0, 24, 24},
      {"vww 12x12x32->64", 12, 12, 32, 64, 1, 1, 1, 0, 0, 12, 12},
      {"vww 12x12x64->64", 12, 12, 64, 64, 1, 1, 1, 0, 0, 12, 12},
      {"vww 6x6x64->128", 6, 6, 64, 128, 1, 1, 1, 0, 0, 6, 6},
      {"vww 6x6x128->128", 6, 6, 128, 128, 1, 1, 1, 0, 0, 6, 6},
      {"vww 3x3x128->256", 3, 3, 128, 256, 1, 1, 1, 0, 0, 3, 3},
      {"vww 3x3x256->256", 3, 3, 256, 256, 1, 1, 1, 0, 0, 3, 3},
      {"ic conv1", 32, 32, 3, 16, 3, 3, 1, 1, 1, 32, 32},
      {"ic 32x32x16 s2", 32, 32, 16, 32, 3, 3, 2, 0, 0, 16, 16},
      {"ic 16x16x32 s2", 16, 16, 32, 64, 3, 3, 2, 0, 0, 8, 8},
      {"ic shortcut 32x32x16", 32, 32, 16, 32, 1, 1, 2, 0, 0, 16, 16},
      {"ic shortcut 16x16x32", 16, 16, 32, 64, 1, 1, 2, 0, 0, 8, 8},
  };
  Rng rng(kSeed + 2);
  for (const Shape& s : shapes) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    Conv2dParams& p = c.p;
    p.batches = 1;
    p.input_h = s.in_h;
    p.input_w = s.in_w;
    p.input_c = p.filter_c = s.in_c;
    p.output_c = s.out_c;
    p.filter_h = s.filter_h;
    p.filter_w = s.filter_w;
    p.stride_h = p.stride_w = s.stride;
    p.pad_h = s.pad_h;
    p.pad_w = s.pad_w;
    p.output_h = s.out_h;
    p.output_w = s.out_w;
    p.input_offset = 128;
    p.output_offset = -128;
    p.activation_min = -128;
    p.activation_max = 127;
    fill_case(rng, c, true, true);
    check_case(c, s.name);
    ETNS_RETURN_IF_FAILED();
  }
}

// Extremes: offsets at the ends of their ranges, bias near the int32 limits so
// the sum wraps, multipliers 0 / 1 / INT32_MAX with shifts -31 / 0 / 30,
// int8 extremes everywhere, windows all padding.
ETNS_KERNEL_TEST(Conv2dGemmVariant, Extremes) {
  Rng rng(kSeed + 3);
  for (int i = 0; i < 30; ++i) {
    kernels::testing::TestMemoryScope scope;
    Case c;
    Conv2dParams& p = c.p;
    p.batches = 2;
    p.input_c = p.filter_c = rng.uniform32(1, 40);
    p.output_c = rng.uniform32(1, 20);
    p.filter_h = rng.uniform32(1, 4);
    p.filter_w = rng.uniform32(1, 4);
    p.pad_h = rng.uniform32(0, 4);
    p.pad_w = rng.uniform32(0, 4);
    p.input_h = rng.uniform32(1, 4);
    p.input_w = rng.uniform32(1, 6);
    p.output_h = p.input_h + 2 * p.pad_h + rng.uniform32(0, 3);
    p.output_w = p.input_w + 2 * p.pad_w + rng.uniform32(0, 3);
    const bool ends = rng.coin();
    p.input_offset = ends ? -127 : 128;
    p.output_offset = ends ? -128 : 127;
    p.activation_min = rng.coin() ? -128 : rng.uniform32(-128, 0);
    p.activation_max = rng.coin() ? 127 : rng.uniform32(p.activation_min, 127);
    fill_case(rng, c, true, false);
    for (int32_t oc = 0; oc < p.output_c; ++oc) {
      const int32_t biases[] = {INT32_MAX, INT32_MIN, INT32_MAX - 1000, INT32_MIN + 1000};
      c.bias[oc] = rng.pick(biases);
      const int32_t multipliers[] = {0, 1, INT32_MAX};
      const int32_t shifts[] = {-31, 0, 30};
      c.multipliers[oc] = rng.pick(multipliers);
      c.shifts[oc] = rng.pick(shifts);
    }
    if (i % 2 == 0) {  // the largest magnitude products
      fill_conv_int8_extremes(rng, c, weight_bytes(p));
    }
    check_case(c, "extremes");
    ETNS_RETURN_IF_FAILED();
  }
}

// The scratch stays bounded: a huge window, or so many output channels that
// the per-channel table would not fit, is declined (conv2d_s8_mve runs it);
// grouped convolutions are too. Every accepted shape's need is small.
ETNS_KERNEL_TEST(Conv2dGemmVariant, ScratchBounded) {
  Conv2dParams p;
  p.batches = 1;
  p.input_h = p.input_w = p.output_h = p.output_w = 8;
  p.input_c = p.filter_c = 128;
  p.output_c = 16;
  p.filter_h = p.filter_w = 5;
  p.pad_h = p.pad_w = 2;
  ETNS_CHECK(!conv2d_gemm_handles(p), "a 3200-byte window is accepted");
  p.filter_h = p.filter_w = 1;
  p.pad_h = p.pad_w = 0;
  p.output_c = 4096;
  ETNS_CHECK(!conv2d_gemm_handles(p), "4096 output channels are accepted");
  p.output_c = 16;
  p.filter_c = 64;  // two groups
  ETNS_CHECK(!conv2d_gemm_handles(p), "a grouped convolution is accepted");
  p.filter_c = 128;
  ETNS_CHECK(conv2d_gemm_handles(p), "a 1x1 128 -> 16 is declined");
  ETNS_CHECK(conv2d_s8_mve_gemm_scratch_bytes(p) <= 8192, "scratch %d bytes",
             static_cast<int>(conv2d_s8_mve_gemm_scratch_bytes(p)));
  p.output_c = 256;
  p.input_c = p.filter_c = 256;
  ETNS_CHECK(conv2d_gemm_handles(p), "vww's 256 -> 256 is declined");
  ETNS_CHECK(conv2d_s8_mve_gemm_scratch_bytes(p) <= 8192, "scratch %d bytes",
             static_cast<int>(conv2d_s8_mve_gemm_scratch_bytes(p)));
}

}  // namespace
}  // namespace etns::cortex_m
