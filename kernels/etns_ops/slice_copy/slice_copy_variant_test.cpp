// Every compiled variant of etns_ops::slice_copy against the reference, on the
// host and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include "kernels/etns_ops/slice_copy/slice_copy.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::etns_ops {
namespace {

using kernels::testing::Rng;

constexpr uint64_t kSeed = 0x736c6963;  // "slic"

size_t out_bytes(const SliceCopyParams& p) {
  size_t n = static_cast<size_t>(p.element_size);
  for (size_t k = 0; k < kSliceCopyMaxRank; ++k) n *= static_cast<size_t>(p.count[k]);
  return n;
}

void check_case(const SliceCopyParams& p, const uint8_t* self, const char* what) {
  ETNS_CHECK_VARIANTS(
      kernels::kSliceCopyVariants, out_bytes(p),
      [&](SliceCopyFn fn, void* out) { fn(p, self, static_cast<uint8_t*>(out)); },
      "%s, counts [%d, %d, %d, %d, %d], strides [%d, %d, %d, %d, %d], offset %d, element %d", what,
      static_cast<int>(p.count[0]), static_cast<int>(p.count[1]), static_cast<int>(p.count[2]),
      static_cast<int>(p.count[3]), static_cast<int>(p.count[4]), static_cast<int>(p.stride[0]),
      static_cast<int>(p.stride[1]), static_cast<int>(p.stride[2]), static_cast<int>(p.stride[3]),
      static_cast<int>(p.stride[4]), static_cast<int>(p.offset), static_cast<int>(p.element_size));
}

// A walk as prepare makes it: random counts and steps inside a self of
// `dims` row-major dims, offset at the first element read.
SliceCopyParams random_walk(Rng& rng, int32_t element_size, size_t* self_bytes) {
  int32_t sizes[kSliceCopyMaxRank];
  int64_t strides[kSliceCopyMaxRank];
  int64_t running = element_size;
  for (size_t k = kSliceCopyMaxRank; k-- > 0;) {
    sizes[k] = static_cast<int32_t>(k < 3 ? rng.uniform(1, 3) : rng.uniform(1, 40));
    strides[k] = running;
    running *= sizes[k];
  }
  *self_bytes = static_cast<size_t>(running);
  SliceCopyParams p;
  p.element_size = element_size;
  int64_t offset = 0;
  for (size_t k = 0; k < kSliceCopyMaxRank; ++k) {
    const int32_t size = sizes[k];
    int32_t step = static_cast<int32_t>(rng.uniform(1, 3));
    if (rng.coin()) step = -step;
    if (k == kSliceCopyMaxRank - 1 && rng.coin()) step = 1;  // contiguous runs most of the time
    const int32_t start = static_cast<int32_t>(rng.uniform(0, size - 1));
    const int32_t room = step > 0 ? (size - 1 - start) / step : start / -step;
    p.count[k] = static_cast<int32_t>(rng.uniform(1, room + 1));
    p.stride[k] = static_cast<int32_t>(step * strides[k]);
    offset += start * strides[k];
  }
  p.offset = static_cast<int32_t>(offset);
  return p;
}

ETNS_KERNEL_TEST(SliceCopyVariants, RandomWalks) {
  Rng rng(kSeed);
  for (int trial = 0; trial < 200; ++trial) {
    kernels::testing::TestMemoryScope scope;
    const int32_t element_size = rng.coin() ? 1 : 4;
    size_t self_bytes = 0;
    const SliceCopyParams p = random_walk(rng, element_size, &self_bytes);
    uint8_t* self = ETNS_TEST_ARRAY(uint8_t, self_bytes);
    rng.fill_s8(reinterpret_cast<int8_t*>(self), self_bytes);
    check_case(p, self, element_size == 1 ? "int8" : "int32");
    ETNS_RETURN_IF_FAILED();
  }
}

// One contiguous run of every tile length, at every source alignment.
ETNS_KERNEL_TEST(SliceCopyVariants, ContiguousRunsOfEveryLength) {
  Rng rng(kSeed + 1);
  for (int32_t n = 1; n <= 67; ++n) {
    for (int32_t shift = 0; shift < 3; ++shift) {
      kernels::testing::TestMemoryScope scope;
      const size_t self_bytes = static_cast<size_t>(3 * (n + shift));
      uint8_t* self = ETNS_TEST_ARRAY(uint8_t, self_bytes);
      rng.fill_s8(reinterpret_cast<int8_t*>(self), self_bytes);
      SliceCopyParams p;
      p.count[3] = 3;
      p.stride[3] = n + shift;
      p.count[4] = n;
      p.stride[4] = 1;
      p.offset = shift;
      check_case(p, self, "rows");
      ETNS_RETURN_IF_FAILED();
    }
  }
}

// Backward and strided innermost runs (a reversed axis, every other element).
ETNS_KERNEL_TEST(SliceCopyVariants, StridedAndBackwardRuns) {
  Rng rng(kSeed + 2);
  const int32_t strides[] = {-4, -1, 2, 3, 8};
  for (int32_t stride : strides) {
    for (int32_t n = 1; n <= 33; n += 4) {
      kernels::testing::TestMemoryScope scope;
      const int32_t reach = (n - 1) * (stride < 0 ? -stride : stride);
      const size_t self_bytes = static_cast<size_t>(reach + 1);
      uint8_t* self = ETNS_TEST_ARRAY(uint8_t, self_bytes);
      rng.fill_s8(reinterpret_cast<int8_t*>(self), self_bytes);
      SliceCopyParams p;
      p.count[4] = n;
      p.stride[4] = stride;
      p.offset = stride < 0 ? reach : 0;
      check_case(p, self, "strided");
      ETNS_RETURN_IF_FAILED();
    }
  }
}

}  // namespace
}  // namespace etns::etns_ops
