#include "runtime/core/escape.h"

#include <gtest/gtest.h>

#include <string>

namespace etns::runtime {
namespace {

std::string escaped(const std::string& text, size_t capacity = kMaxEscapedBytes) {
  char out[256];
  return escape_text(out, capacity, text.data(), text.size());
}

TEST(EscapeText, SpellsEveryUnprintableByte) {
  EXPECT_EQ(escaped("cortex_m::quantized_add.out"), "cortex_m::quantized_add.out");
  EXPECT_EQ(escaped(std::string("add\nsub", 7)), "add\\nsub");
  EXPECT_EQ(escaped(std::string("\x1b[31mred", 8)), "\\x1b[31mred");
  EXPECT_EQ(escaped(std::string("relu\0x", 6)), "relu\\0x");
  EXPECT_EQ(escaped("a\\b\"c\t\r"), "a\\\\b\\\"c\\t\\r");
  EXPECT_EQ(escaped("\x7f\xff"), "\\x7f\\xff");
}

TEST(EscapeText, CutsLongTextAfterAWholeEscapeWithAnEllipsis) {
  EXPECT_EQ(escaped("abcdefgh", 9), "abcdefgh");  // fits exactly: no ellipsis
  EXPECT_EQ(escaped("abcdefghi", 9), "abcde...");
  EXPECT_EQ(escaped("ab\x1b\x1b", 9), "ab...");    // never half an escape
  const std::string long_name(1000, '\n');
  const std::string cut = escaped(long_name);
  EXPECT_EQ(cut.size(), kMaxEscapedBytes - 1);  // 30 escapes and the ellipsis
  EXPECT_EQ(cut.substr(cut.size() - 3), "...");
}

TEST(EscapeText, PrintableIsPrintableAsciiOnly) {
  EXPECT_TRUE(is_printable("cortex_m::quantized_add.out", 27));
  EXPECT_FALSE(is_printable("add\0", 4));
  EXPECT_FALSE(is_printable("\x1b", 1));
  EXPECT_FALSE(is_printable("\x80", 1));
}

}  // namespace
}  // namespace etns::runtime
