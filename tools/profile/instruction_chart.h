#pragma once

#include <string>
#include <vector>

// The evidence page's per-instruction chart (etns reproduce).
namespace etns::tools {

// A horizontal bar chart, one bar per instruction of both programs (SVG 1.1).
std::string instruction_chart_svg(const std::string& title, const std::string& unit,
                                  const std::vector<std::string>& baseline_labels,
                                  const std::vector<double>& baseline_values,
                                  const std::vector<std::string>& candidate_labels,
                                  const std::vector<double>& candidate_values);

}  // namespace etns::tools
