#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/common/requantize.h"
#include "kernels/common/variant.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/variant_check.h"
#include "runtime/core/crc32.h"

// What the variant tests of the requantising binary operators (mul, sub)
// share, on the host and on the Cortex-M55: the buffers a kernel may be
// handed, every (self, other) code pair, the table CRC check, and the
// exporter's QM.
namespace etns::kernels::testing {

// The exporter's QM(x) (operators.md §1.4), up to the rounding of M; the
// shift is kept inside what prepare accepts.
inline Requant quantized_multiplier(double x) {
  int exponent = 0;
  const double mantissa = std::frexp(x, &exponent);
  int64_t multiplier = std::llround(std::ldexp(mantissa, 31));
  if (multiplier == (int64_t{1} << 31)) {
    multiplier = int64_t{1} << 30;
    exponent += 1;
  }
  if (exponent < -31 || exponent > 30) return {0, 0};
  return {static_cast<int32_t>(multiplier), exponent};
}

// How the kernel may be handed its buffers: out apart and aligned as the
// case's inputs, out one byte past an aligned address, or out the first
// input's memory (the operators run in place).
enum class BufferLayout { Aligned, Misaligned, InPlace };

// check_variants on fn(p, self, other, out, n) with out laid out as `layout`.
template <typename Fn, size_t N, typename Params>
void check_binary_variants(const Variant<Fn> (&variants)[N], const Params& p, const int8_t* self,
                           const int8_t* other, size_t n, BufferLayout layout, const char* what,
                           const char* file, int line) {
  check_variants(
      variants, n,
      [&](Fn fn, void* out) {
        auto* bytes = static_cast<int8_t*>(out);
        if (layout == BufferLayout::Aligned) {
          fn(p, self, other, bytes, n);
          return;
        }
        TestMemoryScope scope;
        int8_t* buffer =
            test_array_at<int8_t>(n + 1, file, line) + (layout == BufferLayout::Misaligned ? 1 : 0);
        if (layout == BufferLayout::InPlace) std::memcpy(buffer, self, n);
        fn(p, layout == BufferLayout::InPlace ? buffer : self, other, buffer, n);
        std::memcpy(bytes, buffer, n);
      },
      what, file, line);
}

inline constexpr size_t kCodePairs = 256 * 256;

// Every (self, other) code pair, row = self + 128, column = other + 128, as
// operators.md tabulates mul and sub.
struct CodePairs {
  int8_t* self;
  int8_t* other;
};
inline CodePairs all_code_pairs() {
  CodePairs pairs{ETNS_TEST_ARRAY(int8_t, kCodePairs), ETNS_TEST_ARRAY(int8_t, kCodePairs)};
  for (size_t i = 0; i < kCodePairs; ++i) {
    pairs.self[i] = static_cast<int8_t>(static_cast<int>(i / 256) - 128);
    pairs.other[i] = static_cast<int8_t>(static_cast<int>(i % 256) - 128);
  }
  return pairs;
}

// Every variant's table of all code pairs for p has the CRC-32 `want`.
template <typename Fn, size_t N, typename Params>
void check_table_crc(const Variant<Fn> (&variants)[N], const Params& p, const CodePairs& pairs,
                     uint32_t want) {
  int8_t* table = ETNS_TEST_ARRAY(int8_t, kCodePairs);
  for (const auto& variant : variants) {
    variant.fn(p, pairs.self, pairs.other, table, kCodePairs);
    const uint32_t crc = runtime::crc32(table, kCodePairs);
    ETNS_CHECK(crc == want, "%s: table CRC-32 %08x, want %08x", variant.isa,
               static_cast<unsigned>(crc), static_cast<unsigned>(want));
  }
}

}  // namespace etns::kernels::testing

// Checks every variant against the reference on one binary case (out laid
// out as `layout`) and returns from the calling function when one differs;
// the trailing arguments describe the case (printf-style).
#define ETNS_CHECK_BINARY_VARIANTS(variants, p, self, other, n, layout, ...)                    \
  do {                                                                                         \
    ::etns::kernels::testing::check_binary_variants(                                           \
        (variants), (p), (self), (other), (n), (layout),                                       \
        ::etns::kernels::testing::case_text(__VA_ARGS__).text, __FILE__, __LINE__);            \
    ETNS_RETURN_IF_FAILED();                                                                   \
  } while (0)
