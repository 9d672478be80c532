// Every compiled variant of avg_pool2d against the reference, on the host and
// on the Cortex-M55 (kernels/testing/kernel_test.h).
#include "kernels/cortex_m/avg_pool2d/avg_pool2d.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/pool_shapes.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::cortex_m {
namespace {

using kernels::testing::Rng;

constexpr uint64_t kSeed = 0x617667706f6f6cull;  // "avgpool"

void check_case(const AvgPool2dParams& p, const int8_t* input, const char* what) {
  ETNS_CHECK_VARIANTS(
      kernels::kAvgPool2dVariants, kernels::testing::pool_out_count(p),
      [&](AvgPool2dFn fn, void* out) { fn(p, input, static_cast<int8_t*>(out)); },
      "%s: n %ld, in %ldx%ld, c %ld, out %ldx%ld, kernel %ldx%ld, stride %ldx%ld, padding "
      "%ldx%ld",
      what, long{p.batches}, long{p.input_h}, long{p.input_w}, long{p.channels}, long{p.output_h},
      long{p.output_w}, long{p.kernel_h}, long{p.kernel_w}, long{p.stride_h}, long{p.stride_w},
      long{p.pad_h}, long{p.pad_w});
}

AvgPool2dParams shape(int32_t n, int32_t h, int32_t w, int32_t c, int32_t kh, int32_t kw, int32_t s,
                      int32_t pad, int32_t oh, int32_t ow) {
  AvgPool2dParams p;
  p.batches = n;
  p.input_h = h;
  p.input_w = w;
  p.channels = c;
  p.kernel_h = kh;
  p.kernel_w = kw;
  p.stride_h = s;
  p.stride_w = s;
  p.pad_h = pad;
  p.pad_w = pad;
  p.output_h = oh;
  p.output_w = ow;
  return p;
}

// Every tap count from 1 to 300 (a 1 x n window over a row, past the 256 taps
// an int16 lane sums), on all -128, all 127 and random inputs: the extremes
// and every rounding of the division by the count.
ETNS_KERNEL_TEST(AvgPool2dVariants, EveryTapCountUpTo300) {
  constexpr int32_t kWidth = 300;
  constexpr int32_t kChannels = 17;
  int8_t* input = ETNS_TEST_ARRAY(int8_t, kWidth * kChannels);
  Rng rng(kSeed);
  for (int fill = 0; fill < 3; ++fill) {
    for (int32_t i = 0; i < kWidth * kChannels; ++i) {
      input[i] = fill == 0   ? int8_t{-128}
                 : fill == 1 ? int8_t{127}
                             : static_cast<int8_t>(rng.uniform(-128, 127));
    }
    for (int32_t taps = 1; taps <= kWidth; ++taps) {
      check_case(shape(1, 1, kWidth, kChannels, 1, taps, taps, 0, 1, kWidth / taps), input,
                 fill == 0   ? "all -128"
                 : fill == 1 ? "all 127"
                             : "random");
      ETNS_RETURN_IF_FAILED();
    }
  }
}

// Large windows (up to 64 x 64 = 4096 taps) where the sums reach +-2^19.
ETNS_KERNEL_TEST(AvgPool2dVariants, LargeWindows) {
  Rng rng(kSeed + 1);
  int8_t* input = ETNS_TEST_ARRAY(int8_t, 64 * 64 * 3);
  for (int32_t k : {17, 31, 45, 64}) {
    for (int fill = 0; fill < 2; ++fill) {
      for (int32_t i = 0; i < 64 * 64 * 3; ++i) {
        input[i] = fill == 0 ? static_cast<int8_t>(rng.uniform(-128, 127))
                             : static_cast<int8_t>(rng.uniform(100, 127) * (i % 3 == 1 ? -1 : 1));
      }
      check_case(shape(1, 64, 64, 3, k, k, k, 0, (64 + k - 1) / k, (64 + k - 1) / k), input,
                 "large window");
      ETNS_RETURN_IF_FAILED();
    }
  }
}

// Random geometry (kernels/testing/pool_shapes.h).
ETNS_KERNEL_TEST(AvgPool2dVariants, RandomShapes) {
  Rng rng(kSeed + 2);
  for (int trial = 0; trial < 200; ++trial) {
    kernels::testing::TestMemoryScope scope;
    const AvgPool2dParams p = kernels::testing::random_pool_shape(rng);
    const size_t count = kernels::testing::pool_input_count(p);
    int8_t* input = ETNS_TEST_ARRAY(int8_t, count);
    rng.fill_s8(input, count);
    check_case(p, input, "random shape");
    ETNS_RETURN_IF_FAILED();
  }
}

}  // namespace
}  // namespace etns::cortex_m
