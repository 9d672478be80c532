// quantized_transpose_conv2d on a decoder-style 2x upsampling layer
// (1x16x8x8 channels_last -> 1x16x16x16, 4x4 kernel, stride 2, padding 1),
// every variant (kernel_bench.h).
#include "kernels/cortex_m/transpose_conv2d/transpose_conv2d.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::cortex_m {
namespace {

constexpr int32_t kChannels = 16, kInput = 8, kOutput = 16, kKernel = 4;

ETNS_KERNEL_BENCH(quantized_transpose_conv2d, upsample2x) {
  kernels::testing::Rng rng(7);
  int32_t* multipliers = ETNS_TEST_ARRAY(int32_t, kChannels);
  int32_t* shifts = ETNS_TEST_ARRAY(int32_t, kChannels);
  int32_t* bias = ETNS_TEST_ARRAY(int32_t, kChannels);
  for (int32_t c = 0; c < kChannels; ++c) {
    multipliers[c] = rng.uniform32(1 << 30, INT32_MAX);
    shifts[c] = rng.uniform32(-9, -7);
    bias[c] = rng.uniform32(-2000, 2000);
  }
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
  p.multipliers = multipliers;
  p.shifts = shifts;
  const size_t input_bytes = static_cast<size_t>(kInput) * kInput * kChannels;
  const size_t weight_bytes = static_cast<size_t>(kChannels) * kKernel * kKernel * kChannels;
  const size_t out_bytes = static_cast<size_t>(kOutput) * kOutput * kChannels;
  int8_t* input = ETNS_TEST_ARRAY(int8_t, input_bytes);
  int8_t* weight = ETNS_TEST_ARRAY(int8_t, weight_bytes);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, out_bytes);
  uint8_t* scratch = ETNS_TEST_ARRAY(uint8_t, transpose_conv2d_scratch_bytes(p) + 16);
  rng.fill_s8(input, input_bytes);
  rng.fill_s8(weight, weight_bytes);
  for (const auto& v : kernels::kTransposeConv2dVariants) {
    bench.measure(v.isa, [&] { v.fn(p, input, weight, bias, out, scratch); });
  }
}

}  // namespace
}  // namespace etns::cortex_m
