// quantized_conv2d on the Tier-1 shape (1x16x32x32, 3x3, 16 -> 16, padding 1)
// with tier1_arm conv1's requantisation, and on DS-CNN's first layer (one
// input channel), every variant (kernel_bench.h).
#include "kernels/cortex_m/conv2d/conv2d.h"
#include "kernels/testing/conv_family_bench.h"

namespace etns::cortex_m {
namespace {

constexpr int32_t kMultipliers[16] = {1109979705, 1147891037, 1138847467, 1354490799,
                                      1134793497, 1367101146, 1188910528, 1132211173,
                                      1765065426, 2063243380, 1670393652, 1649163875,
                                      1391514400, 1409155071, 1108449516, 1338886254};
constexpr int32_t kShifts[16] = {-8, -8, -8, -8, -8, -8, -8, -8, -8, -9, -8, -8, -8, -8, -8, -8};

// Every output times one filter's taps, padded taps included.
uint64_t conv2d_macs(const Conv2dParams& p) {
  return kernels::testing::work_of(p.batches, p.output_h, p.output_w, p.output_c, p.filter_h, p.filter_w,
                                   p.filter_c);
}

// tier1's 16 values repeated over `channels` channels, in test memory.
const int32_t* tiled(const int32_t (&values)[16], int32_t channels) {
  int32_t* tiled_values = ETNS_TEST_ARRAY(int32_t, channels);
  for (int32_t oc = 0; oc < channels; ++oc) tiled_values[oc] = values[oc % 16];
  return tiled_values;
}

ETNS_KERNEL_BENCH(quantized_conv2d, tier1) {
  Conv2dParams p;
  p.batches = 1;
  p.input_h = p.input_w = p.output_h = p.output_w = 32;
  p.input_c = p.output_c = p.filter_c = 16;
  p.filter_h = p.filter_w = 3;
  p.pad_h = p.pad_w = 1;
  p.input_offset = -1;
  p.output_offset = -39;
  p.multipliers = kMultipliers;
  p.shifts = kShifts;
  const int32_t* bias = ETNS_TEST_ARRAY(int32_t, 16);  // all 0
  kernels::testing::Rng rng(3);
  bench.macs(conv2d_macs(p));
  kernels::testing::measure_conv_variants(bench, kernels::kConv2dVariants, p, bias, 16 * 3 * 3 * 16,
                                          conv2d_scratch_bytes(p), rng);
}

// dscnn's conv1: 1x1x49x10 -> 16x24x5, 10x4, stride 2, padding (4, 1): 76,800 MACs.
ETNS_KERNEL_BENCH(quantized_conv2d, ds_cnn_conv1) {
  Conv2dParams p;
  p.batches = 1;
  p.input_h = 49;
  p.input_w = 10;
  p.input_c = p.filter_c = 1;
  p.output_c = 16;
  p.filter_h = 10;
  p.filter_w = 4;
  p.stride_h = p.stride_w = 2;
  p.pad_h = 4;
  p.pad_w = 1;
  p.output_h = 24;
  p.output_w = 5;
  p.input_offset = 3;
  p.output_offset = -128;
  p.multipliers = kMultipliers;
  p.shifts = kShifts;
  const int32_t* bias = ETNS_TEST_ARRAY(int32_t, 16);  // all 0
  kernels::testing::Rng rng(4);
  bench.macs(conv2d_macs(p));
  kernels::testing::measure_conv_variants(bench, kernels::kConv2dVariants, p, bias, 16 * 10 * 4,
                                          conv2d_scratch_bytes(p), rng);
}

// ic (ResNet-8) op 5: 1x16x16x32 -> 32, 3x3, padding 1: 2,359,296 MACs, with
// its offsets (input zero point -128, output 4) and tier1's multipliers.
ETNS_KERNEL_BENCH(quantized_conv2d, ic_16x16x32) {
  Conv2dParams p;
  p.batches = 1;
  p.input_h = p.input_w = p.output_h = p.output_w = 16;
  p.input_c = p.output_c = p.filter_c = 32;
  p.filter_h = p.filter_w = 3;
  p.pad_h = p.pad_w = 1;
  p.input_offset = 128;
  p.output_offset = 4;
  p.multipliers = tiled(kMultipliers, 32);
  p.shifts = tiled(kShifts, 32);
  const int32_t* bias = ETNS_TEST_ARRAY(int32_t, 32);  // all 0
  kernels::testing::Rng rng(5);
  bench.macs(conv2d_macs(p));
  kernels::testing::measure_conv_variants(bench, kernels::kConv2dVariants, p, bias, 32 * 3 * 3 * 32,
                                          conv2d_scratch_bytes(p), rng);
}

// ic op 9: 1x8x8x64 -> 64, 3x3, padding 1: 2,359,296 MACs (offsets 128 / -2).
ETNS_KERNEL_BENCH(quantized_conv2d, ic_8x8x64) {
  Conv2dParams p;
  p.batches = 1;
  p.input_h = p.input_w = p.output_h = p.output_w = 8;
  p.input_c = p.output_c = p.filter_c = 64;
  p.filter_h = p.filter_w = 3;
  p.pad_h = p.pad_w = 1;
  p.input_offset = 128;
  p.output_offset = -2;
  p.multipliers = tiled(kMultipliers, 64);
  p.shifts = tiled(kShifts, 64);
  const int32_t* bias = ETNS_TEST_ARRAY(int32_t, 64);  // all 0
  kernels::testing::Rng rng(6);
  bench.macs(conv2d_macs(p));
  kernels::testing::measure_conv_variants(bench, kernels::kConv2dVariants, p, bias, 64 * 3 * 3 * 64,
                                          conv2d_scratch_bytes(p), rng);
}

}  // namespace
}  // namespace etns::cortex_m
