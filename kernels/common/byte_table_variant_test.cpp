// Every compiled variant of the byte-table lookup against the plain loop, on
// the host and on the Cortex-M55 (kernels/testing/kernel_test.h), over tables
// of every shape the AVX3_DL path tells apart: constant below one code and
// above another, with 64 or fewer codes between, 128 or fewer, or more.
#include "kernels/common/byte_table.h"
#include "kernels/common/variant.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::kernels {
namespace {

using testing::Rng;
using testing::TestMemoryScope;

using LookupFn = void (*)(const ByteTable&, const int8_t*, int8_t*, size_t);

constexpr Variant<LookupFn> kLookupVariants[] = {
    {"ref", &lookup_s8},
    ETNS_MVE_VARIANT(&lookup_s8_mve)
    ETNS_HWY_VARIANT(&lookup_s8_hwy)
};

constexpr uint64_t kSeed = 0x7461626c65;  // "table"

// Below and above the window, and past the window path's minimum length.
constexpr size_t kLengths[] = {1, 63, 64, 255, 256, 257, 319, 1000, 4099};

// A table whose entries are `below` for codes under low, `above` for codes
// over high and random in between.
ByteTable window_table(Rng& rng, int low, int high, int8_t below, int8_t above) {
  ByteTable table;
  for (int code = -128; code <= 127; ++code) {
    const int8_t inside = static_cast<int8_t>(rng.uniform32(-128, 127));
    table.values[static_cast<uint8_t>(code)] = code < low ? below : code > high ? above : inside;
  }
  return table;
}

// Every length on random codes (all 256 of them, so both clamped sides
// occur), aligned and one byte off.
void check_table(Rng& rng, const ByteTable& table, const char* what, int low, int high) {
  for (size_t n : kLengths) {
    TestMemoryScope scope;
    int8_t* in = ETNS_TEST_ARRAY(int8_t, n + 1);
    rng.fill_s8(in, n + 1);
    for (size_t offset : {size_t{0}, size_t{1}}) {
      ETNS_CHECK_VARIANTS(
          kLookupVariants, n,
          [&](LookupFn fn, void* out) { fn(table, in + offset, static_cast<int8_t*>(out), n); },
          "%s table, window [%d, %d], n %zu, input offset %zu", what, low, high, n, offset);
    }
  }
}

ETNS_KERNEL_TEST(LookupS8Variants, WindowsOfEveryWidth) {
  Rng rng(kSeed);
  constexpr int kWidths[] = {1, 2, 3, 63, 64, 65, 100, 127, 128, 129, 200, 255, 256};
  for (int width : kWidths) {
    // At the bottom of the codes, at the top and anywhere between.
    const int lows[] = {-128, 128 - width, rng.uniform32(-128, 128 - width)};
    for (int low : lows) {
      const int high = low + width - 1;
      const int8_t below = static_cast<int8_t>(rng.uniform32(-128, 127));
      const int8_t above = static_cast<int8_t>(rng.uniform32(-128, 127));
      check_table(rng, window_table(rng, low, high, below, above), "step", low, high);
      ETNS_RETURN_IF_FAILED();
      // The same value on both sides: runs at both ends of one value.
      check_table(rng, window_table(rng, low, high, below, below), "bump", low, high);
      ETNS_RETURN_IF_FAILED();
    }
  }
}

ETNS_KERNEL_TEST(LookupS8Variants, ConstantAndTwoValueTables) {
  Rng rng(kSeed + 1);
  for (int8_t value : {int8_t{-128}, int8_t{0}, int8_t{127}}) {
    // Constant: the two end runs overlap.
    check_table(rng, window_table(rng, 0, -1, value, value), "constant", 0, -1);
    ETNS_RETURN_IF_FAILED();
  }
  for (int step = -127; step <= 127; step += 127) {
    // Two values, changing at `step`: the runs meet, a window of two codes.
    check_table(rng, window_table(rng, step, step - 1, 3, -3), "two-value", step, step - 1);
    ETNS_RETURN_IF_FAILED();
  }
}

}  // namespace
}  // namespace etns::kernels
