#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "kernels/common/hwy_targets.h"
#include "kernels/common/variant.h"
#include "kernels/testing/kernel_test.h"
#include "runtime/core/format.h"

// The one shared tester of kernel variants: every compiled variant of an
// operator (its k<Op>Variants, in its header) must write exactly the reference's bytes.
namespace etns::kernels::testing {

using kernels::Variant;

// Lengths that straddle every vector tile (4, 8, 16 lanes, unrolled by up to 4).
inline constexpr size_t kTileLengths[] = {0,  1,  2,  3,  4,  5,  7,  8,  9,  15,  16,  17,
                                          31, 32, 33, 47, 63, 64, 65, 100, 255, 256, 257, 1000};

// Bytes after each variant's output that it must leave alone.
inline constexpr size_t kGuardBytes = 64;

// Runs the reference (variants[0]) and then every other variant on one case:
// `run(fn, out)` calls fn on the case's inputs, writing out_bytes bytes at out.
// The reference's and the variant's buffers start with different fill bytes,
// so an output byte a variant does not write is caught, and guard bytes after
// the variant's output catch writes past the end. The first difference fails
// the test with the variant, the byte offset, both values and `what`. On the
// host the "hwy" variant runs once per Highway target this CPU supports
// (named "hwy:AVX2", ...), not only the one dispatch picks.
template <typename Fn, size_t N, typename Run>
void check_variants(const Variant<Fn> (&variants)[N], size_t out_bytes, Run&& run,
                    const char* what, const char* file, int line) {
  TestMemoryScope scope;
  uint8_t* want = test_array_at<uint8_t>(out_bytes + 1, file, line);
  uint8_t* got = test_array_at<uint8_t>(out_bytes + kGuardBytes, file, line);
  std::memset(want, 0x5A, out_bytes);
  run(variants[0].fn, static_cast<void*>(want));
  // Whether the variant called `name` matches the reference; fails otherwise.
  const auto check = [&](const char* name, Fn fn) {
    std::memset(got, 0xA5, out_bytes + kGuardBytes);
    run(fn, static_cast<void*>(got));
    for (size_t i = 0; i < out_bytes; ++i) {
      if (want[i] != got[i]) {
        fail(file, line, "%s differs from %s at byte %zu of %zu: 0x%02x, want 0x%02x (%s)", name,
             variants[0].isa, i, out_bytes, got[i], want[i], what);
        return false;
      }
    }
    for (size_t i = 0; i < kGuardBytes; ++i) {
      if (got[out_bytes + i] != 0xA5) {
        fail(file, line, "%s wrote past its %zu output bytes, at +%zu (%s)", name, out_bytes, i,
             what);
        return false;
      }
    }
    return true;
  };
  for (size_t v = 1; v < N; ++v) {
#if ETNS_HAVE_HWY
    if (std::strcmp(variants[v].isa, "hwy") == 0) {
      const bool same = kernels::for_each_hwy_target([&](int64_t, const char* target) {
        char name[32];
        std::snprintf(name, sizeof name, "hwy:%s", target);
        return check(name, variants[v].fn);
      });
      if (!same) return;
      continue;
    }
#endif
    if (!check(variants[v].isa, variants[v].fn)) return;
  }
}

// A case description for check_variants, printf-style.
struct CaseText {
  char text[200];
};
CaseText case_text(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace etns::kernels::testing

// Checks every variant against the reference on one case and returns from the
// calling function when one differs. The trailing arguments describe the case
// (printf-style), e.g. "n = %zu, zp %d".
#define ETNS_CHECK_VARIANTS(variants, out_bytes, run, ...)                                     \
  do {                                                                                         \
    ::etns::kernels::testing::check_variants(                                                  \
        (variants), (out_bytes), (run), ::etns::kernels::testing::case_text(__VA_ARGS__).text, \
        __FILE__, __LINE__);                                                                   \
    ETNS_RETURN_IF_FAILED();                                                                   \
  } while (0)
