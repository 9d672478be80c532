// pad as a SAME convolution's explicit padding runs it: a [1, 25, 5, 64]
// NHWC block with one pixel of padding on each spatial side, and a channel
// pad from 17 to 32 channels; every variant (kernel_bench.h).
#include "kernels/cortex_m/pad/pad.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::cortex_m {
namespace {

void bench_pad(kernels::testing::Bench& bench, const PadParams& p) {
  size_t in_count = 1;
  size_t out_count = 1;
  for (int k = 0; k < 4; ++k) {
    in_count *= static_cast<size_t>(p.input_dims[k]);
    out_count *= static_cast<size_t>(p.pre[k] + p.input_dims[k] + p.post[k]);
  }
  int8_t* input = ETNS_TEST_ARRAY(int8_t, in_count);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, out_count);
  kernels::testing::Rng rng(in_count);
  rng.fill_s8(input, in_count);
  bench.elements(out_count);  // the elements pad writes
  for (const auto& v : kernels::kPadVariants) {
    bench.measure(v.isa, [&] { v.fn(p, input, out); });
  }
}

ETNS_KERNEL_BENCH(pad, spatial_25x5x64) {
  PadParams p;
  p.input_dims[1] = 25;
  p.input_dims[2] = 5;
  p.input_dims[3] = 64;
  p.pre[1] = p.post[1] = p.pre[2] = p.post[2] = 1;
  p.pad_value = -128;
  bench_pad(bench, p);
}

ETNS_KERNEL_BENCH(pad, channels_17_to_32) {
  PadParams p;
  p.input_dims[1] = 25;
  p.input_dims[2] = 5;
  p.input_dims[3] = 17;
  p.post[3] = 15;
  p.pad_value = 0;
  bench_pad(bench, p);
}

}  // namespace
}  // namespace etns::cortex_m
