// Every compiled variant of etns_ops::concatenate against the reference, on
// the host and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include "kernels/etns_ops/concatenate/concatenate.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::etns_ops {
namespace {

using kernels::testing::Rng;

constexpr uint64_t kSeed = 0x636f6e63;  // "conc"

// Random row counts, input counts and row lengths around the 16-byte tile.
ETNS_KERNEL_TEST(ConcatenateVariants, RandomRowsAndInputs) {
  Rng rng(kSeed);
  for (int trial = 0; trial < 150; ++trial) {
    kernels::testing::TestMemoryScope scope;
    ConcatenateParams p;
    p.outer = static_cast<int32_t>(rng.uniform(1, 9));
    p.count = static_cast<int32_t>(rng.uniform(1, static_cast<int64_t>(kConcatenateMaxInputs)));
    const uint8_t* inputs[kConcatenateMaxInputs] = {};
    size_t total = 0;
    for (int32_t i = 0; i < p.count; ++i) {
      p.row_bytes[i] = static_cast<int32_t>(rng.uniform(1, 40));
      const size_t n = static_cast<size_t>(p.outer) * static_cast<size_t>(p.row_bytes[i]);
      uint8_t* x = ETNS_TEST_ARRAY(uint8_t, n + 1) + (rng.coin() ? 1 : 0);
      rng.fill_s8(reinterpret_cast<int8_t*>(x), n);
      inputs[i] = x;
      total += n;
    }
    ETNS_CHECK_VARIANTS(
        kernels::kConcatenateVariants, total,
        [&](ConcatenateFn fn, void* out) { fn(p, inputs, static_cast<uint8_t*>(out)); },
        "outer %d, %d inputs, first row %d bytes", static_cast<int>(p.outer), static_cast<int>(p.count),
        static_cast<int>(p.row_bytes[0]));
  }
}

// Two inputs, one row each, of every length up to 67 bytes.
ETNS_KERNEL_TEST(ConcatenateVariants, EveryRowLength) {
  Rng rng(kSeed + 1);
  for (int32_t n = 1; n <= 67; ++n) {
    kernels::testing::TestMemoryScope scope;
    ConcatenateParams p;
    p.outer = 2;
    p.count = 2;
    p.row_bytes[0] = n;
    p.row_bytes[1] = 68 - n;
    uint8_t* a = ETNS_TEST_ARRAY(uint8_t, static_cast<size_t>(2 * n));
    uint8_t* b = ETNS_TEST_ARRAY(uint8_t, static_cast<size_t>(2 * (68 - n)));
    rng.fill_s8(reinterpret_cast<int8_t*>(a), static_cast<size_t>(2 * n));
    rng.fill_s8(reinterpret_cast<int8_t*>(b), static_cast<size_t>(2 * (68 - n)));
    const uint8_t* inputs[kConcatenateMaxInputs] = {a, b};
    ETNS_CHECK_VARIANTS(
        kernels::kConcatenateVariants, 136u,
        [&](ConcatenateFn fn, void* out) { fn(p, inputs, static_cast<uint8_t*>(out)); }, "row %d", static_cast<int>(n));
  }
}

}  // namespace
}  // namespace etns::etns_ops
