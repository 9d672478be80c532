// Every compiled variant of etns_ops::channel_lookup against the reference,
// on the host and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include "kernels/etns_ops/channel_lookup/channel_lookup.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::etns_ops {
namespace {

using kernels::testing::Rng;

constexpr uint64_t kSeed = 0x63686c74;  // "chlt"

void check_case(Rng& rng, int32_t pixels, int32_t channels) {
  kernels::testing::TestMemoryScope scope;
  const size_t n = static_cast<size_t>(pixels) * static_cast<size_t>(channels);
  const size_t t = static_cast<size_t>(channels) * kChannelLookupEntries;
  int8_t* in = ETNS_TEST_ARRAY(int8_t, n);
  int8_t* tables = ETNS_TEST_ARRAY(int8_t, t);
  rng.fill_s8(in, n);
  rng.fill_s8(tables, t);
  const ChannelLookupParams p{pixels, channels};
  ETNS_CHECK_VARIANTS(
      kernels::kChannelLookupVariants, n,
      [&](ChannelLookupFn fn, void* out) { fn(p, tables, in, static_cast<int8_t*>(out)); }, "pixels %d, channels %d",
      static_cast<int>(pixels), static_cast<int>(channels));
}

// Every channel count up to 40 (every tail of an 8-lane pass), and the
// counts around the 16-bit offset limit.
ETNS_KERNEL_TEST(ChannelLookupVariants, EveryChannelCount) {
  Rng rng(kSeed);
  for (int32_t c = 1; c <= 40; ++c) {
    check_case(rng, 3, c);
    ETNS_RETURN_IF_FAILED();
  }
  const int32_t wide[] = {255, 256, 257, 300};
  for (const int32_t c : wide) {
    check_case(rng, 2, c);
    ETNS_RETURN_IF_FAILED();
  }
}

// Every code of every channel: pixel i holds code i in each channel.
ETNS_KERNEL_TEST(ChannelLookupVariants, EveryCode) {
  kernels::testing::TestMemoryScope scope;
  Rng rng(kSeed + 1);
  const int32_t channels = 12;
  const size_t n = 256 * channels;
  int8_t* in = ETNS_TEST_ARRAY(int8_t, n);
  int8_t* tables = ETNS_TEST_ARRAY(int8_t, channels * kChannelLookupEntries);
  for (size_t i = 0; i < n; ++i) in[i] = static_cast<int8_t>(static_cast<uint8_t>(i / channels));
  rng.fill_s8(tables, channels * kChannelLookupEntries);
  const ChannelLookupParams p{256, channels};
  ETNS_CHECK_VARIANTS(
      kernels::kChannelLookupVariants, n,
      [&](ChannelLookupFn fn, void* out) { fn(p, tables, in, static_cast<int8_t*>(out)); }, "every code");
}

}  // namespace
}  // namespace etns::etns_ops
