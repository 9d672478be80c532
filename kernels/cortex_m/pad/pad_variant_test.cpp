// Every compiled variant of pad against the reference, on the host and on the
// Cortex-M55 (kernels/testing/kernel_test.h).
#include "kernels/cortex_m/pad/pad.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::cortex_m {
namespace {

using kernels::testing::Rng;

constexpr uint64_t kSeed = 0x706164ull;  // "pad"

size_t out_count(const PadParams& p) {
  size_t count = 1;
  for (int k = 0; k < 4; ++k) count *= static_cast<size_t>(p.pre[k] + p.input_dims[k] + p.post[k]);
  return count;
}

void check_case(const PadParams& p, const int8_t* input, const char* what) {
  ETNS_CHECK_VARIANTS(
      kernels::kPadVariants, out_count(p),
      [&](PadFn fn, void* out) { fn(p, input, static_cast<int8_t*>(out)); },
      "%s, input [%d, %d, %d, %d], pre [%d, %d, %d, %d], post [%d, %d, %d, %d], value %d", what,
      static_cast<int>(p.input_dims[0]), static_cast<int>(p.input_dims[1]),
      static_cast<int>(p.input_dims[2]), static_cast<int>(p.input_dims[3]),
      static_cast<int>(p.pre[0]), static_cast<int>(p.pre[1]), static_cast<int>(p.pre[2]),
      static_cast<int>(p.pre[3]), static_cast<int>(p.post[0]), static_cast<int>(p.post[1]),
      static_cast<int>(p.post[2]), static_cast<int>(p.post[3]), static_cast<int>(p.pad_value));
}

// Channel counts and channel pads around the 16-byte tile, with and without
// spatial and batch padding.
ETNS_KERNEL_TEST(PadVariants, ChannelTailsAndEverySide) {
  Rng rng(kSeed);
  const int32_t channels[] = {1, 3, 15, 16, 17, 33};
  const int32_t channel_pads[] = {0, 1, 7, 16, 17};
  for (int32_t c : channels) {
    for (int32_t pre_c : channel_pads) {
      for (int32_t post_c : channel_pads) {
        kernels::testing::TestMemoryScope scope;
        PadParams p;
        p.input_dims[0] = 1;
        p.input_dims[1] = 3;
        p.input_dims[2] = 2;
        p.input_dims[3] = c;
        p.pre[1] = static_cast<int32_t>(rng.uniform(0, 2));
        p.post[1] = static_cast<int32_t>(rng.uniform(0, 2));
        p.pre[2] = static_cast<int32_t>(rng.uniform(0, 2));
        p.post[2] = static_cast<int32_t>(rng.uniform(0, 2));
        p.pre[3] = pre_c;
        p.post[3] = post_c;
        p.pad_value = static_cast<int32_t>(rng.uniform(-128, 127));
        const size_t n = static_cast<size_t>(3 * 2 * c);
        int8_t* input = ETNS_TEST_ARRAY(int8_t, n + 1) + (rng.coin() ? 1 : 0);
        rng.fill_s8(input, n);
        check_case(p, input, "channel tail");
        ETNS_RETURN_IF_FAILED();
      }
    }
  }
}

// Random 4-D shapes and pads, including empty input dims and batch pads.
ETNS_KERNEL_TEST(PadVariants, RandomShapes) {
  Rng rng(kSeed + 1);
  const int32_t sizes[] = {0, 1, 1, 2, 3, 5, 16, 17};
  for (int trial = 0; trial < 300; ++trial) {
    kernels::testing::TestMemoryScope scope;
    PadParams p;
    size_t n = 1;
    for (int k = 0; k < 4; ++k) {
      p.input_dims[k] = rng.pick(sizes);
      p.pre[k] = static_cast<int32_t>(rng.uniform(0, k == 3 ? 20 : 3));
      p.post[k] = static_cast<int32_t>(rng.uniform(0, k == 3 ? 20 : 3));
      n *= static_cast<size_t>(p.input_dims[k]);
    }
    if (out_count(p) > 40000) continue;
    p.pad_value = static_cast<int32_t>(rng.uniform(-128, 127));
    int8_t* input = ETNS_TEST_ARRAY(int8_t, n + 1);
    rng.fill_s8(input, n + 1);
    check_case(p, input, "random");
    ETNS_RETURN_IF_FAILED();
  }
}

}  // namespace
}  // namespace etns::cortex_m
