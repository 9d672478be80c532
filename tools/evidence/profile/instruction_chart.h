#pragma once

#include <string>
#include <vector>

// The evidence page's per-instruction chart (etns reproduce).
namespace etns::tools {

// The two programs' totals (one whole execute() each), drawn first on a
// linear scale whatever the per-instruction bars use, so that a 3x reduction
// looks like one; labelled "arm" and "ns" with the candidate ÷ baseline factor.
struct ChartTotals {
  double baseline = 0;
  double candidate = 0;
};

// A horizontal bar chart (SVG 1.1): the totals, then one bar per instruction
// of both programs (logarithmic past a 30x spread, said so).
std::string instruction_chart_svg(const std::string& title, const std::string& unit, const ChartTotals& totals,
                                  const std::vector<std::string>& baseline_labels,
                                  const std::vector<double>& baseline_values,
                                  const std::vector<std::string>& candidate_labels,
                                  const std::vector<double>& candidate_values);

}  // namespace etns::tools
