// quantized_depthwise_conv2d on the MLPerf Tiny depthwise layers (every one
// 3x3, depth multiplier 1, channels_last; shared/models/mlperf-tiny/CENSUS.md):
// DS-CNN's 1x64x25x5 (stride 1, padding 1) and each distinct shape of VWW's
// MobileNet, stride 1 with padding 1 and stride 2 with TFLite's uneven "SAME"
// padding (0 before, 1 after), every variant (kernel_bench.h). Then depth
// multipliers above 1 (output channel c * M + m reads input channel c): 4
// channels x 2 and 8 channels x 4 at 3x3, and micro_speech's first layer, one
// channel x 8 with a 10x8 filter, stride 2 and TFLite's "SAME" padding.
#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d.h"
#include "kernels/testing/conv_family_bench.h"

namespace etns::cortex_m {
namespace {

// Every output times its channel's taps, padded taps included.
uint64_t depthwise_macs(const DepthwiseConv2dParams& p) {
  return kernels::testing::work_of(p.batches, p.output_h, p.output_w, p.output_c, p.filter_h, p.filter_w);
}

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
  bench.macs(depthwise_macs(p));
  kernels::testing::measure_conv_variants(bench, kernels::kDepthwiseConv2dVariants, p, c.bias,
                                          3 * 3 * static_cast<size_t>(channels),
                                          depthwise_conv2d_scratch_bytes(p), rng);
}

// A layer with depth multiplier `mult`: input height x width x channels,
// filter, stride (both axes), padding before (top, left) and output size.
struct MultLayer {
  int32_t height, width, channels, mult, filter_h, filter_w, stride, pad_h, pad_w;
  int32_t output_h, output_w;
};
void bench_mult(kernels::testing::Bench& bench, const MultLayer& l) {
  kernels::testing::Rng rng(7);
  const int32_t output_c = l.channels * l.mult;
  const kernels::testing::ConvBenchChannels c =
      kernels::testing::random_bench_channels(rng, output_c, INT32_MAX, -9, -6);
  DepthwiseConv2dParams p;
  p.batches = 1;
  p.input_h = l.height;
  p.input_w = l.width;
  p.input_c = l.channels;
  p.depth_multiplier = l.mult;
  p.output_c = output_c;
  p.filter_h = l.filter_h;
  p.filter_w = l.filter_w;
  p.stride_h = p.stride_w = l.stride;
  p.pad_h = l.pad_h;
  p.pad_w = l.pad_w;
  p.output_h = l.output_h;
  p.output_w = l.output_w;
  p.input_offset = 128;
  p.output_offset = -128;
  p.multipliers = c.multipliers;
  p.shifts = c.shifts;
  bench.macs(depthwise_macs(p));
  kernels::testing::measure_conv_variants(
      bench, kernels::kDepthwiseConv2dVariants, p, c.bias,
      static_cast<size_t>(l.filter_h) * l.filter_w * static_cast<size_t>(output_c),
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
// 24x24x4 x 2, 3x3, stride 1, padding 1: 24x24x8 out.
ETNS_KERNEL_BENCH(quantized_depthwise_conv2d, mult2_24x24x4_s1) {
  bench_mult(bench, {24, 24, 4, 2, 3, 3, 1, 1, 1, 24, 24});
}
// 12x12x8 x 4, 3x3, stride 2, "SAME" (0 before, 1 after): 6x6x32 out.
ETNS_KERNEL_BENCH(quantized_depthwise_conv2d, mult4_12x12x8_s2) {
  bench_mult(bench, {12, 12, 8, 4, 3, 3, 2, 0, 0, 6, 6});
}
// micro_speech: 49x40x1 x 8, 10x8, stride 2, "SAME" (4 rows and 3 columns
// before): 25x20x8 out.
ETNS_KERNEL_BENCH(quantized_depthwise_conv2d, micro_speech_49x40x1_x8) {
  bench_mult(bench, {49, 40, 1, 8, 10, 8, 2, 4, 3, 25, 20});
}

}  // namespace
}  // namespace etns::cortex_m
