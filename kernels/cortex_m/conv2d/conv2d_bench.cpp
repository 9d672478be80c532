// quantized_conv2d on the Tier-1 shape (1x16x32x32, 3x3, 16 -> 16, padding 1)
// with tier1_arm conv1's requantisation, and on DS-CNN's first layer (one
// input channel), every variant (kernel_bench.h).
#include "kernels/cortex_m/conv2d/conv2d.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::cortex_m {
namespace {

constexpr int32_t kMultipliers[16] = {1109979705, 1147891037, 1138847467, 1354490799,
                                      1134793497, 1367101146, 1188910528, 1132211173,
                                      1765065426, 2063243380, 1670393652, 1649163875,
                                      1391514400, 1409155071, 1108449516, 1338886254};
constexpr int32_t kShifts[16] = {-8, -8, -8, -8, -8, -8, -8, -8, -8, -9, -8, -8, -8, -8, -8, -8};

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
  int8_t* input = ETNS_TEST_ARRAY(int8_t, 32 * 32 * 16);
  int8_t* weight = ETNS_TEST_ARRAY(int8_t, 16 * 3 * 3 * 16);
  int32_t* bias = ETNS_TEST_ARRAY(int32_t, 16);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, 32 * 32 * 16);
  uint8_t* scratch = ETNS_TEST_ARRAY(uint8_t, conv2d_scratch_bytes(p) + 16);
  kernels::testing::Rng rng(3);
  rng.fill_s8(input, 32 * 32 * 16);
  rng.fill_s8(weight, 16 * 3 * 3 * 16);
  for (const auto& v : kernels::kConv2dVariants) {
    bench.measure(v.isa, [&] { v.fn(p, input, weight, bias, out, scratch); });
  }
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
  int8_t* input = ETNS_TEST_ARRAY(int8_t, 49 * 10);
  int8_t* weight = ETNS_TEST_ARRAY(int8_t, 16 * 10 * 4);
  int32_t* bias = ETNS_TEST_ARRAY(int32_t, 16);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, 24 * 5 * 16);
  uint8_t* scratch = ETNS_TEST_ARRAY(uint8_t, conv2d_scratch_bytes(p) + 16);
  kernels::testing::Rng rng(4);
  rng.fill_s8(input, 49 * 10);
  rng.fill_s8(weight, 16 * 10 * 4);
  for (const auto& v : kernels::kConv2dVariants) {
    bench.measure(v.isa, [&] { v.fn(p, input, weight, bias, out, scratch); });
  }
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
  int32_t* multipliers = ETNS_TEST_ARRAY(int32_t, 32);
  int32_t* shifts = ETNS_TEST_ARRAY(int32_t, 32);
  for (int32_t oc = 0; oc < 32; ++oc) {
    multipliers[oc] = kMultipliers[oc % 16];
    shifts[oc] = kShifts[oc % 16];
  }
  p.multipliers = multipliers;
  p.shifts = shifts;
  int8_t* input = ETNS_TEST_ARRAY(int8_t, 16 * 16 * 32);
  int8_t* weight = ETNS_TEST_ARRAY(int8_t, 32 * 3 * 3 * 32);
  int32_t* bias = ETNS_TEST_ARRAY(int32_t, 32);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, 16 * 16 * 32);
  uint8_t* scratch = ETNS_TEST_ARRAY(uint8_t, conv2d_scratch_bytes(p) + 16);
  kernels::testing::Rng rng(5);
  rng.fill_s8(input, 16 * 16 * 32);
  rng.fill_s8(weight, 32 * 3 * 3 * 32);
  for (const auto& v : kernels::kConv2dVariants) {
    bench.measure(v.isa, [&] { v.fn(p, input, weight, bias, out, scratch); });
  }
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
  int32_t* multipliers = ETNS_TEST_ARRAY(int32_t, 64);
  int32_t* shifts = ETNS_TEST_ARRAY(int32_t, 64);
  for (int32_t oc = 0; oc < 64; ++oc) {
    multipliers[oc] = kMultipliers[oc % 16];
    shifts[oc] = kShifts[oc % 16];
  }
  p.multipliers = multipliers;
  p.shifts = shifts;
  int8_t* input = ETNS_TEST_ARRAY(int8_t, 8 * 8 * 64);
  int8_t* weight = ETNS_TEST_ARRAY(int8_t, 64 * 3 * 3 * 64);
  int32_t* bias = ETNS_TEST_ARRAY(int32_t, 64);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, 8 * 8 * 64);
  uint8_t* scratch = ETNS_TEST_ARRAY(uint8_t, conv2d_scratch_bytes(p) + 16);
  kernels::testing::Rng rng(6);
  rng.fill_s8(input, 8 * 8 * 64);
  rng.fill_s8(weight, 64 * 3 * 3 * 64);
  for (const auto& v : kernels::kConv2dVariants) {
    bench.measure(v.isa, [&] { v.fn(p, input, weight, bias, out, scratch); });
  }
}

}  // namespace
}  // namespace etns::cortex_m
