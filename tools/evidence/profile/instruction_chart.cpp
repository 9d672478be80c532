#include "tools/evidence/profile/instruction_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <tuple>

#include "tools/common/text.h"

namespace etns::tools {
namespace {

std::string xml_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string instruction_chart_svg(const std::string& title, const std::string& unit, const ChartTotals& totals,
                                  const std::vector<std::string>& baseline_labels,
                                  const std::vector<double>& baseline_values,
                                  const std::vector<std::string>& candidate_labels,
                                  const std::vector<double>& candidate_values) {
  const int label_width = 380, bar_width = 420, value_width = 120, row = 22;
  // The totals panel: a caption, two bars, a gap.
  const int totals_top = 48, top = totals_top + 4 * row;
  const size_t rows = baseline_values.size() + candidate_values.size() + 1;  // a gap between programs
  const int height = top + static_cast<int>(rows) * row + 30;
  double max_value = 1, min_value = 0;
  for (const std::vector<double>* values : {&baseline_values, &candidate_values}) {
    for (double v : *values) {
      max_value = std::max(max_value, v);
      if (v > 0 && (min_value == 0 || v < min_value)) min_value = v;
    }
  }
  // A convolution executes ~200x what a Tier-1 op does: on a linear scale
  // every Tier-1 row is a sliver. Past a 30x spread the bars go logarithmic,
  // from the decade below the smallest value, with a line per decade.
  const bool log_scale = min_value > 0 && max_value / min_value > 30;
  const double log_lo = log_scale ? std::floor(std::log10(min_value)) : 0;
  const double log_hi = log_scale ? std::log10(max_value) : 1;
  auto length = [&](double v) {
    if (!log_scale) return v / max_value * bar_width;
    if (v <= 0) return 0.0;
    return std::max(0.0, (std::log10(v) - log_lo) / (log_hi - log_lo)) * bar_width;
  };
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << label_width + bar_width + value_width
      << "\" height=\"" << height << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg << "<text x=\"8\" y=\"20\" font-size=\"15\" font-weight=\"bold\">" << xml_escape(title) << "</text>\n";
  svg << "<text x=\"8\" y=\"38\" fill=\"#555\">blue: arm program, orange: ns program</text>\n";
  // Totals, linear from zero.
  const double total_max = std::max({totals.baseline, totals.candidate, 1.0});
  char factor[48] = "";
  if (totals.baseline > 0) std::snprintf(factor, sizeof(factor), "; ns ÷ arm = %.2f×", totals.candidate / totals.baseline);
  svg << "<text x=\"8\" y=\"" << totals_top + 14 << "\" font-weight=\"bold\">" << xml_escape(unit)
      << ", one whole execute() (linear scale" << factor << ")</text>\n";
  int total_y = totals_top + row;
  for (const auto& [label, value, colour] :
       {std::make_tuple("arm total", totals.baseline, "#3b6fb6"), std::make_tuple("ns total", totals.candidate, "#e08a2c")}) {
    const int width = std::max(1, static_cast<int>(value / total_max * bar_width));
    svg << "<text x=\"" << label_width - 6 << "\" y=\"" << total_y + 15 << "\" text-anchor=\"end\">" << label
        << "</text>\n";
    svg << "<rect x=\"" << label_width << "\" y=\"" << total_y + 4 << "\" width=\"" << width << "\" height=\""
        << row - 8 << "\" fill=\"" << colour << "\"/>\n";
    svg << "<text x=\"" << label_width + width + 4 << "\" y=\"" << total_y + 15 << "\">" << format_count(value)
        << "</text>\n";
    total_y += row;
  }
  svg << "<text x=\"8\" y=\"" << top - 8 << "\" font-weight=\"bold\">" << xml_escape(unit)
      << " per program instruction" << (log_scale ? " (logarithmic scale)" : " (linear scale)") << "</text>\n";
  if (log_scale) {
    for (double decade = log_lo; decade <= log_hi; decade += 1) {
      const int x = label_width + static_cast<int>(length(std::pow(10.0, decade)));
      svg << "<line x1=\"" << x << "\" y1=\"" << top - 4 << "\" x2=\"" << x << "\" y2=\"" << height - 24
          << "\" stroke=\"#ddd\"/>\n";
      svg << "<text x=\"" << x << "\" y=\"" << height - 10 << "\" text-anchor=\"middle\" fill=\"#777\">"
          << format_count(std::pow(10.0, decade)) << "</text>\n";
    }
  }
  int y = top;
  auto bars = [&](const std::vector<std::string>& labels, const std::vector<double>& values, const char* colour) {
    for (size_t i = 0; i < values.size(); ++i) {
      const int width = std::max(1, static_cast<int>(length(values[i])));
      svg << "<text x=\"" << label_width - 6 << "\" y=\"" << y + 15 << "\" text-anchor=\"end\">"
          << xml_escape(labels[i]) << "</text>\n";
      svg << "<rect x=\"" << label_width << "\" y=\"" << y + 4 << "\" width=\"" << width << "\" height=\"" << row - 8
          << "\" fill=\"" << colour << "\"/>\n";
      svg << "<text x=\"" << label_width + width + 4 << "\" y=\"" << y + 15 << "\">" << format_count(values[i])
          << "</text>\n";
      y += row;
    }
  };
  bars(baseline_labels, baseline_values, "#3b6fb6");
  y += row;
  bars(candidate_labels, candidate_values, "#e08a2c");
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace etns::tools
