// quantized_transpose_conv2d on a decoder-style 2x upsampling layer
// (1x16x8x8 channels_last -> 1x16x16x16, 4x4 kernel, stride 2, padding 1),
// every variant (kernel_bench.h).
#include "kernels/cortex_m/transpose_conv2d/transpose_conv2d.h"
#include "kernels/testing/conv_family_bench.h"

namespace etns::cortex_m {
namespace {

constexpr int32_t kChannels = 16, kInput = 8, kOutput = 16, kKernel = 4;

ETNS_KERNEL_BENCH(quantized_transpose_conv2d, upsample2x) {
  kernels::testing::Rng rng(7);
  const kernels::testing::ConvBenchChannels c =
      kernels::testing::random_bench_channels(rng, kChannels, INT32_MAX, -9, -7);
  TransposeConv2dParams p;
  p.batches = 1;
  p.input_h = p.input_w = kInput;
  p.output_h = p.output_w = kOutput;
  p.input_c = p.output_c = kChannels;
  p.filter_h = p.filter_w = kKernel;
  p.stride_h = p.stride_w = 2;
  p.pad_h = p.pad_w = 1;
  p.input_offset = 128;
  p.output_offset = -128;
  p.multipliers = c.multipliers;
  p.shifts = c.shifts;
  const size_t weight_bytes = static_cast<size_t>(kChannels) * kKernel * kKernel * kChannels;
  // Every input times every filter tap into every output channel, taps cut by
  // the padding included.
  bench.macs(kernels::testing::work_of(p.batches, p.input_h, p.input_w, p.input_c, p.filter_h, p.filter_w,
                                       p.output_c));
  kernels::testing::measure_conv_variants(bench, kernels::kTransposeConv2dVariants, p, c.bias,
                                          weight_bytes, transpose_conv2d_scratch_bytes(p), rng);
}

}  // namespace
}  // namespace etns::cortex_m
