// Every compiled variant of etns_ops::gather against the reference, on the
// host and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include "kernels/etns_ops/gather/gather.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::etns_ops {
namespace {

using kernels::testing::Rng;

constexpr uint64_t kSeed = 0x67617472;  // "gatr"

void check_case(const GatherParams& p, const int32_t* indices, const uint8_t* self, const char* what) {
  const size_t out_bytes = static_cast<size_t>(p.batches) * static_cast<size_t>(p.outer) *
                           static_cast<size_t>(p.coords) * static_cast<size_t>(p.inner_bytes);
  ETNS_CHECK_VARIANTS(
      kernels::kGatherVariants, out_bytes,
      [&](GatherFn fn, void* out) { fn(p, indices, self, static_cast<uint8_t*>(out)); },
      "%s, b %d, o %d, a %d, j %d, inner %d bytes", what, static_cast<int>(p.batches), static_cast<int>(p.outer),
      static_cast<int>(p.axis_size), static_cast<int>(p.coords), static_cast<int>(p.inner_bytes));
}

void run_case(Rng& rng, const GatherParams& p, const char* what) {
  const size_t self_bytes = static_cast<size_t>(p.batches) * static_cast<size_t>(p.outer) *
                            static_cast<size_t>(p.axis_size) * static_cast<size_t>(p.inner_bytes);
  uint8_t* self = ETNS_TEST_ARRAY(uint8_t, self_bytes);
  rng.fill_s8(reinterpret_cast<int8_t*>(self), self_bytes);
  const size_t count = static_cast<size_t>(p.batches) * static_cast<size_t>(p.coords);
  int32_t* indices = ETNS_TEST_ARRAY(int32_t, count);
  for (size_t i = 0; i < count; ++i) indices[i] = static_cast<int32_t>(rng.uniform(0, p.axis_size - 1));
  check_case(p, indices, self, what);
}

ETNS_KERNEL_TEST(GatherVariants, RandomShapes) {
  Rng rng(kSeed);
  for (int trial = 0; trial < 150; ++trial) {
    kernels::testing::TestMemoryScope scope;
    GatherParams p;
    p.batches = static_cast<int32_t>(rng.uniform(1, 3));
    p.outer = static_cast<int32_t>(rng.uniform(1, 4));
    p.axis_size = static_cast<int32_t>(rng.uniform(1, 9));
    p.coords = static_cast<int32_t>(rng.uniform(1, 12));
    p.inner_bytes = static_cast<int32_t>(rng.uniform(1, 70));
    run_case(rng, p, "random");
    ETNS_RETURN_IF_FAILED();
  }
}

// Every run length of the tile lengths (tail predication on each remainder),
// single-byte runs included.
ETNS_KERNEL_TEST(GatherVariants, EveryRunLength) {
  Rng rng(kSeed + 1);
  for (const size_t n : kernels::testing::kTileLengths) {
    if (n == 0) continue;  // a run is at least one element
    kernels::testing::TestMemoryScope scope;
    GatherParams p;
    p.batches = 2;
    p.outer = 2;
    p.axis_size = 5;
    p.coords = 7;
    p.inner_bytes = static_cast<int32_t>(n);
    run_case(rng, p, "run length");
    ETNS_RETURN_IF_FAILED();
  }
}

}  // namespace
}  // namespace etns::etns_ops
