#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "tools/profile/instruction_chart.h"

namespace etns::tools {
namespace {

// Width of the bar drawn after the label `label`.
int bar_width(const std::string& svg, const std::string& label) {
  const std::regex bar(">" + label + "</text>\\n<rect [^>]* width=\"(\\d+)\"");
  std::smatch match;
  EXPECT_TRUE(std::regex_search(svg, match, bar)) << label;
  return match.empty() ? -1 : std::stoi(match[1]);
}

TEST(InstructionChart, CloseValuesStayLinear) {
  const std::string svg = instruction_chart_svg("t", "instructions", {"a0", "a1"}, {100, 200}, {"b0"}, {50});
  EXPECT_EQ(svg.find("logarithmic"), std::string::npos);
  EXPECT_EQ(bar_width(svg, "a1"), 2 * bar_width(svg, "a0"));
  EXPECT_EQ(bar_width(svg, "a0"), 2 * bar_width(svg, "b0"));
}

// tier1: two convolutions of ~480k instructions beside Tier-1 ops of ~2.5k.
// On a linear scale the Tier-1 bars would be 2 pixels; on the log scale
// they stay readable, ordered, and each decade has a labelled line.
TEST(InstructionChart, WideSpreadsGoLogarithmic) {
  const std::string svg = instruction_chart_svg("tier1", "instructions", {"conv", "mean"}, {481684, 2460},
                                                {"hardswish"}, {19510});
  EXPECT_NE(svg.find("logarithmic scale"), std::string::npos);
  const int conv = bar_width(svg, "conv"), mean = bar_width(svg, "mean"), hardswish = bar_width(svg, "hardswish");
  EXPECT_GT(mean, 40) << "a Tier-1 row is visible (linear: 2 of " << conv << " pixels)";
  EXPECT_LT(mean, hardswish);
  EXPECT_LT(hardswish, conv);
  for (const char* decade : {">1,000</text>", ">10,000</text>", ">100,000</text>"}) {
    EXPECT_NE(svg.find(decade), std::string::npos) << decade;
  }
}

}  // namespace
}  // namespace etns::tools
