// Every compiled variant of etns_ops::resize_bilinear against the reference,
// on the host and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include "kernels/etns_ops/resize_bilinear/resize_bilinear.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::etns_ops {
namespace {

using kernels::testing::Rng;

constexpr uint64_t kSeed = 0x62696c69;  // "bili"

void check_case(const ResizeBilinearParams& p, const int32_t* rows, const int32_t* cols, const int8_t* self,
                const char* what) {
  const size_t out_bytes = static_cast<size_t>(p.batches) * static_cast<size_t>(p.out_h) *
                           static_cast<size_t>(p.out_w) * static_cast<size_t>(p.channels);
  ETNS_CHECK_VARIANTS(
      kernels::kResizeBilinearVariants, out_bytes,
      [&](ResizeBilinearFn fn, void* out) { fn(p, rows, cols, self, static_cast<int8_t*>(out)); },
      "%s, n %d, c %d, in %dx%d, out %dx%d", what, static_cast<int>(p.batches), static_cast<int>(p.channels),
      static_cast<int>(p.in_h), static_cast<int>(p.in_w), static_cast<int>(p.out_h), static_cast<int>(p.out_w));
}

// Triples as a resize makes them (i0 <= i1 <= i0 + 1, f in [0, 1024)), or
// arbitrary ones over the whole accepted fraction range, ends included.
void fill_triples(Rng& rng, int32_t* v, int32_t count, int32_t limit, bool resize) {
  for (int32_t i = 0; i < count; ++i) {
    if (resize) {
      const int32_t i0 = static_cast<int32_t>((static_cast<int64_t>(i) * limit) / count);
      v[3 * i] = i0;
      v[3 * i + 1] = i0 + 1 < limit ? i0 + 1 : i0;
      v[3 * i + 2] = static_cast<int32_t>(rng.uniform(0, 1023));
    } else {
      v[3 * i] = static_cast<int32_t>(rng.uniform(0, limit - 1));
      v[3 * i + 1] = static_cast<int32_t>(rng.uniform(0, limit - 1));
      const int64_t pick = rng.uniform(0, 9);
      v[3 * i + 2] = pick == 0   ? kResizeBilinearMinFraction
                     : pick == 1 ? kResizeBilinearMaxFraction
                     : pick == 2 ? 512
                                 : static_cast<int32_t>(rng.uniform(kResizeBilinearMinFraction,
                                                                    kResizeBilinearMaxFraction));
    }
  }
}

ETNS_KERNEL_TEST(ResizeBilinearVariants, RandomResizes) {
  Rng rng(kSeed);
  for (int trial = 0; trial < 120; ++trial) {
    kernels::testing::TestMemoryScope scope;
    ResizeBilinearParams p;
    p.batches = static_cast<int32_t>(rng.uniform(1, 3));
    p.channels = static_cast<int32_t>(rng.uniform(1, 40));
    p.in_h = static_cast<int32_t>(rng.uniform(1, 9));
    p.in_w = static_cast<int32_t>(rng.uniform(1, 9));
    p.out_h = static_cast<int32_t>(rng.uniform(1, 12));
    p.out_w = static_cast<int32_t>(rng.uniform(1, 12));
    const size_t self_bytes = static_cast<size_t>(p.batches * p.in_h * p.in_w * p.channels);
    int8_t* self = ETNS_TEST_ARRAY(int8_t, self_bytes);
    rng.fill_s8(self, self_bytes);
    int32_t* rows = ETNS_TEST_ARRAY(int32_t, static_cast<size_t>(3 * p.out_h));
    int32_t* cols = ETNS_TEST_ARRAY(int32_t, static_cast<size_t>(3 * p.out_w));
    const bool resize = rng.coin();
    fill_triples(rng, rows, p.out_h, p.in_h, resize);
    fill_triples(rng, cols, p.out_w, p.in_w, resize);
    check_case(p, rows, cols, self, resize ? "resize" : "arbitrary");
    ETNS_RETURN_IF_FAILED();
  }
}

// Every channel count of the tile lengths, on extreme codes (-128 and 127
// everywhere: the largest products) and on random ones, with ties (512).
ETNS_KERNEL_TEST(ResizeBilinearVariants, EveryChannelCount) {
  Rng rng(kSeed + 1);
  for (size_t c : kernels::testing::kTileLengths) {
    if (c == 0) continue;
    for (int fill = 0; fill < 3; ++fill) {
      kernels::testing::TestMemoryScope scope;
      ResizeBilinearParams p;
      p.batches = 2;
      p.channels = static_cast<int32_t>(c);
      p.in_h = 2;
      p.in_w = 3;
      p.out_h = 4;
      p.out_w = 5;
      const size_t self_bytes = static_cast<size_t>(p.batches * p.in_h * p.in_w) * c;
      int8_t* self = ETNS_TEST_ARRAY(int8_t, self_bytes);
      if (fill == 2) {
        rng.fill_s8(self, self_bytes);
      } else {
        for (size_t i = 0; i < self_bytes; ++i) self[i] = static_cast<int8_t>(fill == 0 ? -128 : (i % 2 ? 127 : -128));
      }
      int32_t* rows = ETNS_TEST_ARRAY(int32_t, 12);
      int32_t* cols = ETNS_TEST_ARRAY(int32_t, 15);
      const int32_t r[] = {0, 1, 512, 1, 0, -1024, 0, 1, 2048, 1, 1, 300};
      const int32_t q[] = {0, 2, 512, 2, 1, 1023, 1, 1, 0, 0, 1, -1024, 2, 0, 2048};
      for (int i = 0; i < 12; ++i) rows[i] = r[i];
      for (int i = 0; i < 15; ++i) cols[i] = q[i];
      check_case(p, rows, cols, self, "channels");
      ETNS_RETURN_IF_FAILED();
    }
  }
}

}  // namespace
}  // namespace etns::etns_ops
