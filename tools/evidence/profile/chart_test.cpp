#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "tools/evidence/profile/instruction_chart.h"

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
  const std::string svg = instruction_chart_svg("t", "instructions", {350, 50}, {"a0", "a1"}, {100, 200}, {"b0"}, {50});
  EXPECT_EQ(svg.find("logarithmic"), std::string::npos);
  EXPECT_EQ(bar_width(svg, "a1"), 2 * bar_width(svg, "a0"));
  EXPECT_EQ(bar_width(svg, "a0"), 2 * bar_width(svg, "b0"));
}

// tier1: two convolutions of ~480k instructions beside Tier-1 ops of ~2.5k.
// On a linear scale the Tier-1 bars would be 2 pixels; on the log scale
// they stay readable, ordered, and each decade has a labelled line.
TEST(InstructionChart, WideSpreadsGoLogarithmic) {
  const std::string svg = instruction_chart_svg("tier1", "instructions", {484144, 19510}, {"conv", "mean"}, {481684, 2460},
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

// The totals are linear even when the rows are logarithmic: a 24.8x reduction
// is drawn as one bar 24.8x the other's length, and its factor is written.
TEST(InstructionChart, TotalsAreLinearBars) {
  const std::string svg = instruction_chart_svg("tier1", "instructions", {1496025, 60322}, {"conv", "mean"},
                                                {481684, 2460}, {"hardswish"}, {19510});
  EXPECT_NE(svg.find("logarithmic scale"), std::string::npos);
  EXPECT_NE(svg.find("one whole execute() (linear scale; ns ÷ arm = 0.04×)"), std::string::npos) << svg;
  const int arm = bar_width(svg, "arm total"), ns = bar_width(svg, "ns total");
  EXPECT_EQ(arm, 420);
  EXPECT_EQ(ns, static_cast<int>(60322.0 / 1496025.0 * 420));
}

}  // namespace
}  // namespace etns::tools
