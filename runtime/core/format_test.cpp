#include "runtime/core/format.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

namespace etns::runtime {
namespace {

// Both formatters write into buffers pre-filled alike; the whole buffers must
// match, so nothing is written past `capacity` either.
struct Outputs {
  char expected[512];
  char got[512];
  Outputs() {
    std::memset(expected, '#', sizeof(expected));
    std::memset(got, '#', sizeof(got));
  }
};

// A macro so the compiler checks the arguments against the literal format for
// both calls. `capacity` 0 passes null buffers, as vsnprintf allows.
#define EXPECT_SAME_AT(capacity, ...)                                                      \
  do {                                                                                     \
    const size_t cap_ = (capacity);                                                        \
    Outputs out_;                                                                          \
    const int want_ = std::snprintf(cap_ > 0 ? out_.expected : nullptr, cap_, __VA_ARGS__); \
    const size_t have_ = format_text(cap_ > 0 ? out_.got : nullptr, cap_, __VA_ARGS__);   \
    ASSERT_GE(want_, 0);                                                                   \
    EXPECT_EQ(have_, static_cast<size_t>(want_)) << #__VA_ARGS__ << " capacity " << cap_;  \
    EXPECT_EQ(std::string(out_.got, sizeof(out_.got)),                                     \
              std::string(out_.expected, sizeof(out_.expected)))                           \
        << #__VA_ARGS__ << " capacity " << cap_ << ": expected '"                          \
        << (cap_ > 0 ? out_.expected : "") << "', got '" << (cap_ > 0 ? out_.got : "")      \
        << "'";                                                                            \
  } while (0)

#define EXPECT_SAME(...) EXPECT_SAME_AT(256, __VA_ARGS__)

// No format attribute, so formats the checker rightly flags (flags C ignores,
// a zero-length format, deliberate truncation) can be tried too.
size_t unchecked(char* out, size_t capacity, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const size_t length = format_text_v(out, capacity, format, args);
  va_end(args);
  return length;
}

void expect_same_unchecked(size_t capacity, const char* format, ...) {
  Outputs out;
  va_list args;
  va_start(args, format);
  va_list copy;
  va_copy(copy, args);
  const int want = std::vsnprintf(capacity > 0 ? out.expected : nullptr, capacity, format, args);
  const size_t have = format_text_v(capacity > 0 ? out.got : nullptr, capacity, format, copy);
  va_end(copy);
  va_end(args);
  ASSERT_GE(want, 0);
  EXPECT_EQ(have, static_cast<size_t>(want)) << format << " capacity " << capacity;
  EXPECT_EQ(std::string(out.got, sizeof(out.got)), std::string(out.expected, sizeof(out.expected)))
      << format << " capacity " << capacity << ": expected '"
      << (capacity > 0 ? out.expected : "") << "', got '" << (capacity > 0 ? out.got : "") << "'";
}

TEST(FormatText, PlainTextAndPercent) {
  expect_same_unchecked(256, "");
  EXPECT_SAME("hello, world");
  EXPECT_SAME("%%");
  EXPECT_SAME("100%% sure, %d%%", 42);
}

TEST(FormatText, IntTypesAtTheirLimits) {
  EXPECT_SAME("%d %d %d %d", INT_MIN, INT_MAX, 0, -1);
  EXPECT_SAME("%i %i", INT_MIN, INT_MAX);
  EXPECT_SAME("%u %u", 0u, UINT_MAX);
  EXPECT_SAME("%x %X %x", UINT_MAX, 0xdeadbeefu, 0u);
  EXPECT_SAME("%o %o", UINT_MAX, 8u);
  EXPECT_SAME("%hhd %hhd %hhu", static_cast<signed char>(SCHAR_MIN),
              static_cast<signed char>(SCHAR_MAX), static_cast<unsigned char>(UCHAR_MAX));
  EXPECT_SAME("%hhd %hhu %hhx", 300, 300, 0x1ff);  // converted to char first
  EXPECT_SAME("%hd %hd %hu %hx", static_cast<short>(SHRT_MIN), static_cast<short>(SHRT_MAX),
              static_cast<unsigned short>(USHRT_MAX), static_cast<unsigned short>(0xbeef));
  EXPECT_SAME("%hd %hu", 70000, 70000);
  EXPECT_SAME("%ld %ld %lu %lx", LONG_MIN, LONG_MAX, ULONG_MAX, ULONG_MAX);
  EXPECT_SAME("%lld %lld %llu %llx %llX %llo", LLONG_MIN, LLONG_MAX, ULLONG_MAX, ULLONG_MAX,
              0x0123456789abcdefull, ULLONG_MAX);
  EXPECT_SAME("%zu %zx %zd %zd", SIZE_MAX, SIZE_MAX, static_cast<ptrdiff_t>(PTRDIFF_MIN),
              static_cast<ptrdiff_t>(PTRDIFF_MAX));
  EXPECT_SAME("%jd %jd %ju", INTMAX_MIN, INTMAX_MAX, UINTMAX_MAX);
  EXPECT_SAME("%td %td", static_cast<ptrdiff_t>(PTRDIFF_MIN), static_cast<ptrdiff_t>(PTRDIFF_MAX));
}

TEST(FormatText, FixedWidthMacros) {
  EXPECT_SAME("%" PRId32 " %" PRId32 " %" PRIu32 " %" PRIx32, INT32_MIN, INT32_MAX, UINT32_MAX,
              UINT32_MAX);
  EXPECT_SAME("%" PRId64 " %" PRId64 " %" PRIu64 " %" PRIx64, INT64_MIN, INT64_MAX, UINT64_MAX,
              UINT64_MAX);
  EXPECT_SAME("%" PRId8 " %" PRIu16, INT8_MIN, UINT16_MAX);
}

TEST(FormatText, WidthFlagsAndIntegerPrecision) {
  EXPECT_SAME("[%5d] [%-5d] [%05d] [%05d]", 42, 42, 42, -42);
  EXPECT_SAME("[%+d] [%+d] [% d] [% d] [%+05d] [% 5d]", 5, -5, 5, -5, 5, 5);
  expect_same_unchecked(256, "[%-05d] [%0-5d]", 42, -42);  // '-' wins over '0'
  EXPECT_SAME("[%1d] [%2d] [%20lld]", 12345, -12345, LLONG_MIN);
  EXPECT_SAME("[%.3d] [%8.3d] [%-8.3d] [%.3d]", 7, -7, 7, -12345);
  expect_same_unchecked(256, "[%08.3d] [%08.0d]", 7, 0);  // a precision turns '0' off
  EXPECT_SAME("[%.0d] [%5.0d] [%.0u] [%.0x] [%.1d]", 0, 0, 0u, 0u, 0);
  EXPECT_SAME("[%*d] [%*d] [%-*d]", 6, 42, -6, 42, 4, 1);
  EXPECT_SAME("[%.*d] [%.*d]", 4, 3, -1, 3);
  EXPECT_SAME("[%08x] [%-8X] [%8o]", 0xbeefu, 0xbeefu, 8u);
  expect_same_unchecked(256, "[%+u] [% u] [%+x]", 7u, 7u, 7u);  // sign flags: signed only
  EXPECT_SAME("[%03u] [%03x] [%3u]", 12345u, 0xabcdefu, 0u);
}

TEST(FormatText, CharsAndStrings) {
  EXPECT_SAME("[%c] [%3c] [%-3c] [%c%c]", 'A', 'b', 'c', '{', '}');
  EXPECT_SAME("[%s] [%10s] [%-10s] [%2s]", "hello", "hello", "hello", "hello");
  EXPECT_SAME("[%.3s] [%.0s] [%.10s] [%8.3s] [%-8.3s]", "hello", "hello", "abc", "hello",
              "hello");
  EXPECT_SAME("[%.*s] [%.*s] [%*.*s]", 2, "hello", -1, "hello", 6, 2, "hello");
  EXPECT_SAME("[%s]", "");
  EXPECT_SAME("%s = %lld, expected [%lld, %lld]", "self_shift", 40ll, -31ll, 30ll);
}

TEST(FormatText, StringPrecisionReadsNoFurther) {
  const char unterminated[3] = {'a', 'b', 'c'};
  char out[16];
  EXPECT_EQ(format_text(out, sizeof(out), "[%.3s]", unterminated), 5u);
  EXPECT_STREQ(out, "[abc]");
  EXPECT_EQ(format_text(out, sizeof(out), "[%.*s]", 2, unterminated), 4u);
  EXPECT_STREQ(out, "[ab]");
}

TEST(FormatText, NullString) {
  char out[16];
  const char* null_text = nullptr;
  EXPECT_EQ(unchecked(out, sizeof(out), "[%s]", null_text), 8u);
  EXPECT_STREQ(out, "[(null)]");
}

TEST(FormatText, Pointers) {
  int object = 0;
  EXPECT_SAME("%p", static_cast<void*>(&object));
  EXPECT_SAME("[%30p] [%-30p]", static_cast<void*>(&object), static_cast<void*>(&object));
  EXPECT_SAME("%p", static_cast<void*>(nullptr));
}

TEST(FormatText, TruncatesAndCountsTheFullLength) {
  for (size_t capacity = 0; capacity <= 40; ++capacity) {
    expect_same_unchecked(capacity, "value %d: %s [%-6x] %lld", 12345, "abcdef", 0xbeefu,
                          LLONG_MIN);
    expect_same_unchecked(capacity, "%g and %s", -2.5e-07, "more");
  }
  expect_same_unchecked(1, "x");
  expect_same_unchecked(1, "");
  expect_same_unchecked(2, "%s", "long text");
  expect_same_unchecked(3, "%08d", -5);
}

TEST(FormatText, CapacityZeroWritesNothing) {
  char out[4] = {'a', 'b', 'c', 'd'};
  EXPECT_EQ(format_text(out, 0, "%d", 12345), 5u);
  EXPECT_EQ(std::string(out, 4), "abcd");
  EXPECT_EQ(format_text(nullptr, 0, "%s-%s", "ab", "cd"), 5u);
  out[0] = 'x';
  EXPECT_EQ(format_text(out, 1, "%d", 12345), 5u);
  EXPECT_EQ(out[0], '\0');
  EXPECT_EQ(out[1], 'b');
}

// format_text_v takes the caller's va_list, as log_error and PrepareContext::fail use it.
size_t through_va_list(char* out, size_t capacity, const char* format, ...)
    __attribute__((format(printf, 3, 4)));
size_t through_va_list(char* out, size_t capacity, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const size_t length = format_text_v(out, capacity, format, args);
  va_end(args);
  return length;
}

TEST(FormatText, VaListEntryPoint) {
  char out[64];
  EXPECT_EQ(through_va_list(out, sizeof(out), "%s %s: %s", "c0i5", "cortex_m::minimum.out",
                            "min = -1e+39"),
            40u);
  EXPECT_STREQ(out, "c0i5 cortex_m::minimum.out: min = -1e+39");
  EXPECT_EQ(through_va_list(out, sizeof(out), "%lld|%g|%zu", -1ll, 0.5, size_t{7}), 8u);
  EXPECT_STREQ(out, "-1|0.5|7");
}

const double kGeneralValues[] = {
    0.5,
    3.14159,
    3.14159265358979,
    1e+39,
    -1e+39,
    -2.5e-07,
    100000,
    999999,
    999999.4,
    999999.6,
    1e+06,
    123456789,
    1e-05,
    0.0001,
    0.00012345,
    0.000099999,
    2.0 / 3,
    1.0 / 3,
    -2.0 / 3,
    std::numeric_limits<double>::quiet_NaN(),
    -std::numeric_limits<double>::quiet_NaN(),
    std::numeric_limits<double>::infinity(),
    -std::numeric_limits<double>::infinity(),
    0.0,
    -0.0,
    FLT_MAX,
    -FLT_MAX,
    FLT_MIN,
    FLT_EPSILON,
    DBL_MAX,
    DBL_MIN,
    std::numeric_limits<double>::denorm_min(),
    1e-300,
    1e300,
    1e-310,
    1.0,
    -1.0,
    10.0,
    9.5,
    0.1,
    0.3,
    0.1 + 0.2,
    1.5,
    2.5e10,
    12345.6,
    123456.7,
    1234567,
    -123.456,
    1e15,
    1e16,
    1e17,
    1e22,
    1e23,
    4.35,
    65536,
    16777216,
    4294967296.0,
    0.0078125,
    1.17549e-38,
    6.02214076e23,
    1.602176634e-19,
    -0.00001234,
};

TEST(FormatText, GeneralMatchesGlibcOnTheTable) {
  for (const double v : kGeneralValues) {
    SCOPED_TRACE(v);
    EXPECT_SAME("%g", v);
    EXPECT_SAME("%G", v);
    EXPECT_SAME("[%12g] [%-12g] [%+g] [% g]", v, v, v, v);
    EXPECT_SAME("[%012g]", v);
    expect_same_unchecked(256, "[%-012g]", v);
    EXPECT_SAME("[%.1g] [%.0g] [%.2g] [%.3g] [%.10g]", v, v, v, v, v);
    EXPECT_SAME("[%*.*g]", 14, 4, v);
  }
  EXPECT_SAME("%g %g", static_cast<double>(3.5f), static_cast<double>(-1e-3f));
  EXPECT_SAME("%Lg", 0.25L);
}

TEST(FormatText, GeneralTiesRoundToEven) {
  EXPECT_SAME("%.1g %.1g %.2g %.2g %.3g", 2.5, 3.5, 0.125, 0.375, 1.0625);
  EXPECT_SAME("%g %g", 1234565.0, 1234575.0);
}

// Both sides print with "%.*g", P = 1..17: format_text rounds the exact binary
// value as glibc does, so every digit must agree, ties included.
void expect_general_matches(double v, int precision) {
  char expected[64];
  char got[64];
  std::snprintf(expected, sizeof(expected), "%.*g", precision, v);
  format_text(got, sizeof(got), "%.*g", precision, v);
  EXPECT_STREQ(got, expected) << "%." << precision << "g of " << std::hexfloat << v;
}

TEST(FormatText, GeneralMatchesGlibcOnRandomDoubles) {
  uint64_t state = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < 40000; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const uint64_t bits = state ^ (state >> 29);
    double v;
    std::memcpy(&v, &bits, sizeof(v));
    if (v != v || v - v != 0) continue;  // nan, inf: covered by the table
    expect_general_matches(v, 1 + i % 17);
    if (HasFailure()) return;
  }
}

TEST(FormatText, GeneralMatchesGlibcOnShortDecimals) {
  // Values people write (1.5e-3, 250, 0.75): decimal mantissas of 1 to 7 digits.
  uint64_t state = 12345;
  for (int i = 0; i < 20000; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const int digits = 1 + static_cast<int>((state >> 33) % 7);
    long long mantissa = static_cast<long long>((state >> 13) % 10000000);
    for (int d = digits; d < 7; ++d) mantissa /= 10;
    const int exponent = static_cast<int>((state >> 40) % 80) - 40;
    char text[48];
    std::snprintf(text, sizeof(text), "%s%llde%d", (state & 1) != 0 ? "-" : "", mantissa,
                  exponent);
    expect_general_matches(std::strtod(text, nullptr), 1 + i % 17);
    if (HasFailure()) return;
  }
}

TEST(FormatText, GeneralMatchesGlibcNextToPowersOfTenAndTies) {
  const double inf = std::numeric_limits<double>::infinity();
  for (int k = -323; k <= 308; ++k) {
    const double power = std::strtod(("1e" + std::to_string(k)).c_str(), nullptr);
    const double half = std::strtod(("2.5e" + std::to_string(k)).c_str(), nullptr);
    for (const double v : {power, std::nextafter(power, 0.0), std::nextafter(power, inf), half,
                           std::nextafter(half, 0.0), std::nextafter(half, inf)}) {
      for (const int precision : {1, 2, 6, 15, 16, 17}) expect_general_matches(v, precision);
    }
    if (HasFailure()) return;
  }
  for (int i = 0; i < 2000; ++i) {  // exact ties: n + 0.5 in units of the last digit
    for (const int precision : {1, 3, 6}) {
      expect_general_matches(i + 0.5, precision);
      expect_general_matches(i * 1000.0 + 500, precision);
      expect_general_matches((i + 0.5) / 1024, precision);
    }
  }
  for (int precision = 1; precision <= 17; ++precision) {
    expect_general_matches(DBL_MAX, precision);
    expect_general_matches(DBL_MIN, precision);
    expect_general_matches(std::numeric_limits<double>::denorm_min(), precision);
    expect_general_matches(DBL_MIN - std::numeric_limits<double>::denorm_min(), precision);
  }
}

TEST(FormatText, UnknownConversionIsCopiedThrough) {
  char out[32];
  EXPECT_EQ(unchecked(out, sizeof(out), "a %y b %5", 1), 9u);
  EXPECT_STREQ(out, "a %y b %5");
}

}  // namespace
}  // namespace etns::runtime
