#include "tools/common/text.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace etns::tools {
namespace {

TEST(Grouped, PutsACommaBetweenThousands) {
  EXPECT_EQ(grouped(0), "0");
  EXPECT_EQ(grouped(999), "999");
  EXPECT_EQ(grouped(1000), "1,000");
  EXPECT_EQ(grouped(65536), "65,536");
  EXPECT_EQ(grouped(1234567), "1,234,567");
}

TEST(FormatCount, RoundsToAnIntegerAndGroupsTheThousands) {
  EXPECT_EQ(format_count(1005563), "1,005,563");
  EXPECT_EQ(format_count(999.6), "1,000");
  EXPECT_EQ(format_count(-1234.4), "-1,234");
  EXPECT_EQ(format_count(-0.2), "0") << "no minus sign on a zero";
}

TEST(EditDistance, CountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("profiel", "profile"), 2u);  // two substitutions
  EXPECT_EQ(edit_distance("confg", "config"), 1u);      // one insertion
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

TEST(ClosestName, PrefersCaseInsensitiveMatchThenFewestEdits) {
  const std::vector<std::string> commands = {"inspect", "run", "profile", "compare", "compare-programs"};
  EXPECT_EQ(closest_name("Profile", commands), "profile");
  EXPECT_EQ(closest_name("profiel", commands), "profile");
  EXPECT_EQ(closest_name("comapre", commands), "compare");
  EXPECT_EQ(closest_name("compare-program", commands), "compare-programs");
  EXPECT_EQ(closest_name("xyzzy", commands), "");
  EXPECT_EQ(closest_name("ab", commands), "");
}

TEST(ClosestName, FallsBackToAPrefixForLongerWords) {
  EXPECT_EQ(closest_name("iter", {"model", "iterations"}), "iterations");
  EXPECT_EQ(closest_name("portable_opsxyz", {"portable_ops", "ns_ops"}), "portable_ops");
}

TEST(Printable, EscapesEveryByteOutsidePrintableAsciiAndNeverCuts) {
  EXPECT_EQ(printable("forward"), "forward");
  EXPECT_EQ(printable(std::string("a\nb\x1b\0\"\\", 7)), "a\\nb\\x1b\\0\\\"\\\\");
  const std::string long_name(300, '\x7f');
  std::string want;
  for (size_t i = 0; i < long_name.size(); ++i) want += "\\x7f";
  EXPECT_EQ(printable(long_name), want) << "a report shows the whole name, unlike a bounded log line";
}

}  // namespace
}  // namespace etns::tools
