// quantized_depthwise_conv2d on the MLPerf Tiny depthwise layers (every one
// 3x3, depth multiplier 1, channels_last; shared/models/mlperf-tiny/CENSUS.md):
// DS-CNN's 1x64x25x5 (stride 1, padding 1) and each distinct shape of VWW's
// MobileNet, stride 1 with padding 1 and stride 2 with TFLite's uneven "SAME"
// padding (0 before, 1 after), every variant (kernel_bench.h).
#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d.h"
#include "kernels/testing/conv_family_bench.h"

namespace etns::cortex_m {
namespace {

// One 3x3 layer: input height x width x channels and the stride (both axes).
void bench_3x3(kernels::testing::Bench& bench, int32_t height, int32_t width, int32_t channels,
               int32_t stride) {
  kernels::testing::Rng rng(5);
  const kernels::testing::ConvBenchChannels c =
      kernels::testing::random_bench_channels(rng, channels, INT32_MAX, -9, -6);
  DepthwiseConv2dParams p;
  p.batches = 1;
  p.input_h = height;
  p.input_w = width;
  p.input_c = p.output_c = channels;
  p.filter_h = p.filter_w = 3;
  p.stride_h = p.stride_w = stride;
  // "SAME": stride 1 pads 1 on each side; stride 2 on even sizes pads only
  // after, which the output size expresses (taps past the end are padding).
  p.pad_h = p.pad_w = stride == 1 ? 1 : 0;
  p.output_h = (height + stride - 1) / stride;
  p.output_w = (width + stride - 1) / stride;
  p.input_offset = 128;
  p.output_offset = -128;
  p.multipliers = c.multipliers;
  p.shifts = c.shifts;
  kernels::testing::measure_conv_variants(bench, kernels::kDepthwiseConv2dVariants, p, c.bias,
                                          3 * 3 * static_cast<size_t>(channels),
                                          depthwise_conv2d_scratch_bytes(p), rng);
}

ETNS_KERNEL_BENCH(quantized_depthwise_conv2d, ds_cnn) { bench_3x3(bench, 25, 5, 64, 1); }
ETNS_KERNEL_BENCH(quantized_depthwise_conv2d, vww_48x48x8_s1) { bench_3x3(bench, 48, 48, 8, 1); }
ETNS_KERNEL_BENCH(quantized_depthwise_conv2d, vww_48x48x16_s2) { bench_3x3(bench, 48, 48, 16, 2); }
ETNS_KERNEL_BENCH(quantized_depthwise_conv2d, vww_24x24x32_s1) { bench_3x3(bench, 24, 24, 32, 1); }
ETNS_KERNEL_BENCH(quantized_depthwise_conv2d, vww_24x24x32_s2) { bench_3x3(bench, 24, 24, 32, 2); }
ETNS_KERNEL_BENCH(quantized_depthwise_conv2d, vww_12x12x64_s1) { bench_3x3(bench, 12, 12, 64, 1); }
ETNS_KERNEL_BENCH(quantized_depthwise_conv2d, vww_12x12x64_s2) { bench_3x3(bench, 12, 12, 64, 2); }
ETNS_KERNEL_BENCH(quantized_depthwise_conv2d, vww_6x6x128_s1) { bench_3x3(bench, 6, 6, 128, 1); }
ETNS_KERNEL_BENCH(quantized_depthwise_conv2d, vww_6x6x128_s2) { bench_3x3(bench, 6, 6, 128, 2); }
ETNS_KERNEL_BENCH(quantized_depthwise_conv2d, vww_3x3x256_s1) { bench_3x3(bench, 3, 3, 256, 1); }

}  // namespace
}  // namespace etns::cortex_m
