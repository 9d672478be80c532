// quantized_linear on a DS-CNN-style classifier head (1x512 -> 12), a hidden
// layer (1x256 -> 64) and every fully connected layer of the MLPerf Tiny
// models, as the exporter calls it (kernel_sum given, no bias, symmetric
// weights), every variant (kernel_bench.h).
#include "kernels/cortex_m/linear/linear.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::cortex_m {
namespace {

void bench_linear(kernels::testing::Bench& bench, int32_t in, int32_t rows) {
  LinearParams p;
  p.batches = 1;
  p.in_features = in;
  p.out_features = rows;
  p.input_offset = 128;
  p.filter_offset = 0;
  p.output_offset = -17;
  p.out = {1582349210, -9};
  const size_t weight_bytes = static_cast<size_t>(in) * static_cast<size_t>(rows);
  int8_t* input = ETNS_TEST_ARRAY(int8_t, in);
  int8_t* weight = ETNS_TEST_ARRAY(int8_t, weight_bytes);
  int32_t* kernel_sum = ETNS_TEST_ARRAY(int32_t, rows);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, rows);
  uint8_t* scratch = ETNS_TEST_ARRAY(uint8_t, linear_scratch_bytes(p, true) + 16);
  kernels::testing::Rng rng(static_cast<uint64_t>(in) * 1000 + static_cast<uint64_t>(rows));
  rng.fill_s8(input, static_cast<size_t>(in));
  rng.fill_s8(weight, weight_bytes);
  for (int32_t r = 0; r < rows; ++r) kernel_sum[r] = rng.uniform32(-200000, 200000);
  bench.macs(kernels::testing::work_of(p.batches, p.in_features, p.out_features));
  for (const auto& v : kernels::kLinearVariants) {
    bench.measure(v.isa, [&] { v.fn(p, input, weight, nullptr, kernel_sum, out, scratch); });
  }
}

ETNS_KERNEL_BENCH(quantized_linear, ds_cnn_head_1x512x12) { bench_linear(bench, 512, 12); }

ETNS_KERNEL_BENCH(quantized_linear, 1x256x64) { bench_linear(bench, 256, 64); }

// The MLPerf Tiny models' fully connected layers: the classifier heads of kws,
// vww and ic, and the autoencoder's (ad) layers.
ETNS_KERNEL_BENCH(quantized_linear, kws_head_1x64x12) { bench_linear(bench, 64, 12); }
ETNS_KERNEL_BENCH(quantized_linear, vww_head_1x256x2) { bench_linear(bench, 256, 2); }
ETNS_KERNEL_BENCH(quantized_linear, ic_head_1x64x10) { bench_linear(bench, 64, 10); }
ETNS_KERNEL_BENCH(quantized_linear, ad_1x640x128) { bench_linear(bench, 640, 128); }
ETNS_KERNEL_BENCH(quantized_linear, ad_1x128x128) { bench_linear(bench, 128, 128); }
ETNS_KERNEL_BENCH(quantized_linear, ad_1x128x8) { bench_linear(bench, 128, 8); }
ETNS_KERNEL_BENCH(quantized_linear, ad_1x8x128) { bench_linear(bench, 8, 128); }
ETNS_KERNEL_BENCH(quantized_linear, ad_1x128x640) { bench_linear(bench, 128, 640); }

}  // namespace
}  // namespace etns::cortex_m
