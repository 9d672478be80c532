// Every compiled variant of max_pool2d against the reference, on the host and
// on the Cortex-M55 (kernels/testing/kernel_test.h).
#include "kernels/cortex_m/max_pool2d/max_pool2d.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/pool_shapes.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::cortex_m {
namespace {

using kernels::testing::Rng;

constexpr uint64_t kSeed = 0x6d6178706f6f6cull;  // "maxpool"

void check_case(const MaxPool2dParams& p, const int8_t* input, const char* what) {
  const kernels::Pool2dShape& s = p.shape;
  ETNS_CHECK_VARIANTS(
      kernels::kMaxPool2dVariants, kernels::testing::pool_out_count(s),
      [&](MaxPool2dFn fn, void* out) { fn(p, input, static_cast<int8_t*>(out)); },
      "%s: n %ld, in %ldx%ld, c %ld, out %ldx%ld, kernel %ldx%ld, stride %ldx%ld, padding "
      "%ldx%ld, activation [%ld, %ld]",
      what, long{s.batches}, long{s.input_h}, long{s.input_w}, long{s.channels}, long{s.output_h},
      long{s.output_w}, long{s.kernel_h}, long{s.kernel_w}, long{s.stride_h}, long{s.stride_w},
      long{s.pad_h}, long{s.pad_w}, long{p.activation_min}, long{p.activation_max});
}

// Random geometry (kernels/testing/pool_shapes.h) and activation ranges.
ETNS_KERNEL_TEST(MaxPool2dVariants, RandomShapesAndRanges) {
  Rng rng(kSeed);
  for (int trial = 0; trial < 300; ++trial) {
    kernels::testing::TestMemoryScope scope;
    MaxPool2dParams p;
    p.shape = kernels::testing::random_pool_shape(rng);
    if (trial % 3 != 0) {
      p.activation_min = rng.uniform32(-128, 127);
      p.activation_max = rng.uniform32(p.activation_min, 127);
    }
    const size_t count = kernels::testing::pool_input_count(p.shape);
    int8_t* input = ETNS_TEST_ARRAY(int8_t, count);
    rng.fill_s8(input, count);
    check_case(p, input, "random shape");
    ETNS_RETURN_IF_FAILED();
  }
}

// Inputs of all -128 and all 127 (the max's and the clamp's extremes).
ETNS_KERNEL_TEST(MaxPool2dVariants, ExtremeInputs) {
  MaxPool2dParams p;
  kernels::Pool2dShape& s = p.shape;
  s.batches = 2;
  s.input_h = 5;
  s.input_w = 5;
  s.channels = 33;
  s.kernel_h = 3;
  s.kernel_w = 3;
  s.stride_h = 2;
  s.stride_w = 2;
  s.pad_h = 1;
  s.pad_w = 1;
  s.output_h = 3;
  s.output_w = 3;
  int8_t* input = ETNS_TEST_ARRAY(int8_t, 2 * 5 * 5 * 33);
  for (int8_t fill : {int8_t{-128}, int8_t{127}}) {
    for (size_t i = 0; i < 2 * 5 * 5 * 33; ++i) input[i] = fill;
    check_case(p, input, "constant input");
    ETNS_RETURN_IF_FAILED();
    p.activation_min = -5;
    p.activation_max = 5;
    check_case(p, input, "constant input, clamped");
    ETNS_RETURN_IF_FAILED();
    p.activation_min = -128;
    p.activation_max = 127;
  }
}

}  // namespace
}  // namespace etns::cortex_m
