// quantized_depthwise_conv2d on DS-CNN's depthwise layer (1x64x25x5
// channels_last, 3x3, stride 1, padding 1, depth multiplier 1), every variant
// (kernel_bench.h).
#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::cortex_m {
namespace {

constexpr int32_t kChannels = 64, kHeight = 25, kWidth = 5;

ETNS_KERNEL_BENCH(quantized_depthwise_conv2d, ds_cnn) {
  kernels::testing::Rng rng(5);
  int32_t* multipliers = ETNS_TEST_ARRAY(int32_t, kChannels);
  int32_t* shifts = ETNS_TEST_ARRAY(int32_t, kChannels);
  int32_t* bias = ETNS_TEST_ARRAY(int32_t, kChannels);
  for (int32_t c = 0; c < kChannels; ++c) {
    multipliers[c] = rng.uniform32(1 << 30, INT32_MAX);
    shifts[c] = rng.uniform32(-9, -6);
    bias[c] = rng.uniform32(-2000, 2000);
  }
  DepthwiseConv2dParams p;
  p.batches = 1;
  p.input_h = p.output_h = kHeight;
  p.input_w = p.output_w = kWidth;
  p.input_c = p.output_c = kChannels;
  p.filter_h = p.filter_w = 3;
  p.pad_h = p.pad_w = 1;
  p.input_offset = 128;
  p.output_offset = -128;
  p.multipliers = multipliers;
  p.shifts = shifts;
  const size_t pixels = static_cast<size_t>(kHeight) * kWidth * kChannels;
  int8_t* input = ETNS_TEST_ARRAY(int8_t, pixels);
  int8_t* weight = ETNS_TEST_ARRAY(int8_t, 3 * 3 * kChannels);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, pixels);
  uint8_t* scratch = ETNS_TEST_ARRAY(uint8_t, depthwise_conv2d_scratch_bytes(p) + 16);
  rng.fill_s8(input, pixels);
  rng.fill_s8(weight, 3 * 3 * kChannels);
  for (const auto& v : kernels::kDepthwiseConv2dVariants) {
    bench.measure(v.isa, [&] { v.fn(p, input, weight, bias, out, scratch); });
  }
}

}  // namespace
}  // namespace etns::cortex_m
