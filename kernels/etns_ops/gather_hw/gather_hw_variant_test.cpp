// Every compiled variant of etns_ops::gather_hw against the reference, on the
// host and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include "kernels/etns_ops/gather_hw/gather_hw.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::etns_ops {
namespace {

using kernels::testing::Rng;

constexpr uint64_t kSeed = 0x67617468;  // "gath"

void check_case(const GatherHwParams& p, const int32_t* rows, const int32_t* cols, const int8_t* self,
                const char* what) {
  const size_t out_bytes = static_cast<size_t>(p.batches) * static_cast<size_t>(p.out_h) *
                           static_cast<size_t>(p.out_w) * static_cast<size_t>(p.channels);
  ETNS_CHECK_VARIANTS(
      kernels::kGatherHwVariants, out_bytes,
      [&](GatherHwFn fn, void* out) { fn(p, rows, cols, self, static_cast<int8_t*>(out)); },
      "%s, n %d, c %d, in %dx%d, out %dx%d", what, static_cast<int>(p.batches), static_cast<int>(p.channels),
      static_cast<int>(p.in_h), static_cast<int>(p.in_w), static_cast<int>(p.out_h), static_cast<int>(p.out_w));
}

// Sorted (as nearest-neighbour resizing makes them) or arbitrary indices.
void fill_indices(Rng& rng, int32_t* v, int32_t count, int32_t limit, bool sorted) {
  for (int32_t i = 0; i < count; ++i) {
    v[i] = sorted ? static_cast<int32_t>((static_cast<int64_t>(i) * limit) / count)
                  : static_cast<int32_t>(rng.uniform(0, limit - 1));
  }
}

ETNS_KERNEL_TEST(GatherHwVariants, RandomResizes) {
  Rng rng(kSeed);
  for (int trial = 0; trial < 120; ++trial) {
    kernels::testing::TestMemoryScope scope;
    GatherHwParams p;
    p.batches = static_cast<int32_t>(rng.uniform(1, 3));
    p.channels = static_cast<int32_t>(rng.uniform(1, 40));
    p.in_h = static_cast<int32_t>(rng.uniform(1, 9));
    p.in_w = static_cast<int32_t>(rng.uniform(1, 9));
    p.out_h = static_cast<int32_t>(rng.uniform(1, 12));
    p.out_w = static_cast<int32_t>(rng.uniform(1, 12));
    const size_t self_bytes = static_cast<size_t>(p.batches * p.in_h * p.in_w * p.channels);
    int8_t* self = ETNS_TEST_ARRAY(int8_t, self_bytes);
    rng.fill_s8(self, self_bytes);
    int32_t* rows = ETNS_TEST_ARRAY(int32_t, static_cast<size_t>(p.out_h));
    int32_t* cols = ETNS_TEST_ARRAY(int32_t, static_cast<size_t>(p.out_w));
    const bool sorted = rng.coin();
    fill_indices(rng, rows, p.out_h, p.in_h, sorted);
    fill_indices(rng, cols, p.out_w, p.in_w, sorted);
    check_case(p, rows, cols, self, sorted ? "sorted" : "arbitrary");
    ETNS_RETURN_IF_FAILED();
  }
}

// Every channel count of the tile lengths, with repeated rows (the row copy)
// and a row that changes source.
ETNS_KERNEL_TEST(GatherHwVariants, EveryChannelCount) {
  Rng rng(kSeed + 1);
  for (int32_t c = 1; c <= 67; ++c) {
    kernels::testing::TestMemoryScope scope;
    GatherHwParams p;
    p.batches = 2;
    p.channels = c;
    p.in_h = 2;
    p.in_w = 3;
    p.out_h = 5;
    p.out_w = 4;
    const size_t self_bytes = static_cast<size_t>(p.batches * p.in_h * p.in_w * c);
    int8_t* self = ETNS_TEST_ARRAY(int8_t, self_bytes);
    rng.fill_s8(self, self_bytes);
    int32_t* rows = ETNS_TEST_ARRAY(int32_t, 5);
    int32_t* cols = ETNS_TEST_ARRAY(int32_t, 4);
    const int32_t r[] = {0, 0, 1, 1, 0};
    const int32_t q[] = {2, 0, 0, 1};
    for (int i = 0; i < 5; ++i) rows[i] = r[i];
    for (int i = 0; i < 4; ++i) cols[i] = q[i];
    check_case(p, rows, cols, self, "channels");
    ETNS_RETURN_IF_FAILED();
  }
}

}  // namespace
}  // namespace etns::etns_ops
