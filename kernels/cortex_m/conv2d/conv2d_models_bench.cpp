// quantized_conv2d on every distinct convolution layer shape of the MLPerf
// Tiny models (shared/models/mlperf-tiny/CENSUS.md) that the "mve_gemm"
// variant runs, every variant (kernel_bench.h). ic's 3x3 stride-1 layers are
// in the mve_3x3 variant's bench.
#include "kernels/cortex_m/conv2d/conv2d.h"
#include "kernels/testing/conv_family_bench.h"

namespace etns::cortex_m {
namespace {

// One layer: input height x width x channels, output channels, the filter,
// the stride (both axes), the near-side padding and the output size (TFLite
// SAME: a larger output puts the extra padding on the far side).
struct Layer {
  int32_t in_h, in_w, in_c, out_c, filter_h, filter_w, stride, pad_h, pad_w, out_h, out_w;
};

void bench_layer(kernels::testing::Bench& bench, const Layer& layer) {
  kernels::testing::Rng rng(6);
  const int32_t channels = layer.out_c;
  const kernels::testing::ConvBenchChannels c =
      kernels::testing::random_bench_channels(rng, channels, INT32_MAX - 1, -9, -6);
  Conv2dParams p;
  p.batches = 1;
  p.input_h = layer.in_h;
  p.input_w = layer.in_w;
  p.input_c = p.filter_c = layer.in_c;
  p.output_c = channels;
  p.filter_h = layer.filter_h;
  p.filter_w = layer.filter_w;
  p.stride_h = p.stride_w = layer.stride;
  p.pad_h = layer.pad_h;
  p.pad_w = layer.pad_w;
  p.output_h = layer.out_h;
  p.output_w = layer.out_w;
  p.input_offset = 128;
  p.output_offset = -128;
  p.multipliers = c.multipliers;
  p.shifts = c.shifts;
  const size_t weight_bytes = static_cast<size_t>(channels) * p.filter_h * p.filter_w * p.filter_c;
  // Every output times one filter's taps, padded taps included.
  bench.macs(kernels::testing::work_of(p.batches, p.output_h, p.output_w, p.output_c, p.filter_h, p.filter_w,
                                       p.filter_c));
  kernels::testing::measure_conv_variants(bench, kernels::kConv2dVariants, p, c.bias, weight_bytes,
                                          conv2d_scratch_bytes(p), rng);
}

// kws (DS-CNN): conv1 10x4 stride 2, padding (4, 1) with the far side
// uneven; the four identical pointwise layers.
ETNS_KERNEL_BENCH(quantized_conv2d, kws_conv1_49x10x1_s2) {
  bench_layer(bench, {49, 10, 1, 64, 10, 4, 2, 4, 1, 25, 5});
}
ETNS_KERNEL_BENCH(quantized_conv2d, kws_pointwise_25x5x64) {
  bench_layer(bench, {25, 5, 64, 64, 1, 1, 1, 0, 0, 25, 5});
}

// vww (MobileNet v1 0.25): conv1 3x3 stride 2 (SAME: padding after only),
// then each distinct pointwise layer.
ETNS_KERNEL_BENCH(quantized_conv2d, vww_conv1_96x96x3_s2) {
  bench_layer(bench, {96, 96, 3, 8, 3, 3, 2, 0, 0, 48, 48});
}
ETNS_KERNEL_BENCH(quantized_conv2d, vww_pointwise_48x48x8_16) {
  bench_layer(bench, {48, 48, 8, 16, 1, 1, 1, 0, 0, 48, 48});
}
ETNS_KERNEL_BENCH(quantized_conv2d, vww_pointwise_24x24x16_32) {
  bench_layer(bench, {24, 24, 16, 32, 1, 1, 1, 0, 0, 24, 24});
}
ETNS_KERNEL_BENCH(quantized_conv2d, vww_pointwise_24x24x32_32) {
  bench_layer(bench, {24, 24, 32, 32, 1, 1, 1, 0, 0, 24, 24});
}
ETNS_KERNEL_BENCH(quantized_conv2d, vww_pointwise_12x12x32_64) {
  bench_layer(bench, {12, 12, 32, 64, 1, 1, 1, 0, 0, 12, 12});
}
ETNS_KERNEL_BENCH(quantized_conv2d, vww_pointwise_12x12x64_64) {
  bench_layer(bench, {12, 12, 64, 64, 1, 1, 1, 0, 0, 12, 12});
}
ETNS_KERNEL_BENCH(quantized_conv2d, vww_pointwise_6x6x64_128) {
  bench_layer(bench, {6, 6, 64, 128, 1, 1, 1, 0, 0, 6, 6});
}
ETNS_KERNEL_BENCH(quantized_conv2d, vww_pointwise_6x6x128_128) {
  bench_layer(bench, {6, 6, 128, 128, 1, 1, 1, 0, 0, 6, 6});
}
ETNS_KERNEL_BENCH(quantized_conv2d, vww_pointwise_3x3x128_256) {
  bench_layer(bench, {3, 3, 128, 256, 1, 1, 1, 0, 0, 3, 3});
}
ETNS_KERNEL_BENCH(quantized_conv2d, vww_pointwise_3x3x256_256) {
  bench_layer(bench, {3, 3, 256, 256, 1, 1, 1, 0, 0, 3, 3});
}

// ic (ResNet-8): conv1 3x3 stride 1 on RGB; the 3x3 stride-2 layers (SAME:
// padding after only) and the 1x1 stride-2 shortcuts.
ETNS_KERNEL_BENCH(quantized_conv2d, ic_conv1_32x32x3) {
  bench_layer(bench, {32, 32, 3, 16, 3, 3, 1, 1, 1, 32, 32});
}
ETNS_KERNEL_BENCH(quantized_conv2d, ic_conv_32x32x16_s2) {
  bench_layer(bench, {32, 32, 16, 32, 3, 3, 2, 0, 0, 16, 16});
}
ETNS_KERNEL_BENCH(quantized_conv2d, ic_conv_16x16x32_s2) {
  bench_layer(bench, {16, 16, 32, 64, 3, 3, 2, 0, 0, 8, 8});
}
ETNS_KERNEL_BENCH(quantized_conv2d, ic_shortcut_32x32x16_s2) {
  bench_layer(bench, {32, 32, 16, 32, 1, 1, 2, 0, 0, 16, 16});
}
ETNS_KERNEL_BENCH(quantized_conv2d, ic_shortcut_16x16x32_s2) {
  bench_layer(bench, {16, 16, 32, 64, 1, 1, 2, 0, 0, 8, 8});
}

}  // namespace
}  // namespace etns::cortex_m
