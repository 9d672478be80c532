// compare's outputs: Markdown, --json, and --output-dir's compare_summary.json
// and layer_diff.csv, all from the typed comparison.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>

#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/evidence/compare/compare.h"

namespace etns::tools {
namespace {

using json = nlohmann::json;

// The numbers a pair of figures honestly has: none where a run did not
// measure, no delta for 0 in both, no % or × where a division by zero would be
// (a zero baseline). The factor is factor_of's, candidate ÷ baseline.
struct PairNumbers {
  std::optional<double> baseline, candidate, delta, delta_pct, factor;
};

PairNumbers numbers_of(const FigureRow& row) {
  PairNumbers n;
  if (row.baseline.measured) n.baseline = row.baseline.value;
  if (row.candidate.measured) n.candidate = row.candidate.value;
  if (!n.baseline || !n.candidate) return n;
  const double a = *n.baseline, b = *n.candidate;
  if (row.state != FigureState::ZeroInBoth) n.delta = b - a;
  if (a != 0) n.delta_pct = (b - a) / a * 100.0;
  n.factor = factor_of(a, b);
  return n;
}

json figure_json(const FigureRow& row) {
  const PairNumbers n = numbers_of(row);
  json out = {{"baseline", json_or_null(n.baseline)}, {"candidate", json_or_null(n.candidate)},
              {"delta", json_or_null(n.delta)},       {"delta_pct", json_or_null(n.delta_pct)},
              {"factor", json_or_null(n.factor)},     {"state", code_of(row.state)}};
  if (row.noise_pct) out["noise_pct"] = *row.noise_pct;
  if (row.threshold_pct) out["threshold_pct"] = *row.threshold_pct;
  if (row.within_noise) out["within_noise"] = true;
  if (row.regression) out["regression"] = true;
  return out;
}

std::string signed_number(double value) { return (value < 0 ? "-" : value > 0 ? "+" : "") + format_count(std::fabs(value)); }

// Markdown cells: "—" wherever a figure or a ratio does not exist.
std::string cells(const FigureRow& row) {
  const PairNumbers n = numbers_of(row);
  auto value = [](const std::optional<double>& v) { return v ? format_count(*v) : std::string("—"); };
  std::string change = "—", pct = "—", factor = "—", note;
  switch (row.state) {
    case FigureState::NotMeasured: note = "not measured"; break;
    case FigureState::NotMeasuredInBaseline: note = "not measured in the baseline"; break;
    case FigureState::NotMeasuredInCandidate: note = "not measured in the candidate"; break;
    case FigureState::ZeroInBoth: note = "0 in both"; break;
    default:
      change = signed_number(*n.delta);
      if (n.delta_pct) pct = format_delta_pct(*n.baseline, *n.candidate);
      if (n.delta_pct && n.factor) factor = format_factor(*n.baseline, *n.candidate);
      if (row.state == FigureState::ZeroInBaseline) note = "baseline 0: no % or ×";
  }
  if (row.within_noise) note = "within noise (±" + format_noise_pct(*row.noise_pct) + ")";
  if (row.regression) note = "**regression**";
  return fmt::format("| {} | {} | {} | {} | {} | {} |\n", value(n.baseline), value(n.candidate), change, pct, factor,
                     note);
}

// Everything but the gate's lines that a reader should know first.
std::vector<std::string> warning_lines(const BundleComparison& comparison) {
  std::vector<std::string> lines;
  for (const ComparabilityIssue& issue : comparison.issues) {
    lines.push_back(fmt::format("{} [{}]", issue.message, code_of(issue.code)));
  }
  lines.insert(lines.end(), comparison.warnings.begin(), comparison.warnings.end());
  return lines;
}

std::string gate_name(const BundleComparison& comparison) {
  if (comparison.policy_file) return "the thresholds of " + *comparison.policy_file;
  return fmt::format("+{}%", *comparison.threshold_pct);
}

std::string csv_cell(const json& value) {
  if (value.is_null()) return "";
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_number()) {
    const double number = value.get<double>();
    if (std::floor(number) == number && std::fabs(number) < 9.0e15) return fmt::format("{:.0f}", number);
    return fmt::format("{:.3f}", number);
  }
  const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string csv_number(const std::optional<double>& value) { return csv_cell(json_or_null(value)); }

}  // namespace

json comparison_json(const BundleComparison& comparison) {
  json config = json::array();
  for (const ConfigRow& row : comparison.config) {
    config.push_back({{"name", row.name}, {"baseline", row.baseline}, {"candidate", row.candidate}, {"same", row.same()}});
  }
  json metrics = json::array();
  for (const FigureRow& row : comparison.metrics) {
    json out = {{"name", row.name}, {"unit", row.unit}};
    out.update(figure_json(row));
    metrics.push_back(out);
  }
  json layers = json::array();
  for (const InstructionRow& row : comparison.layers) {
    json out = {{"index", row.index}, {"id", row.id}, {"candidate_id", row.candidate_id}, {"operator", row.operator_name}};
    out.update(figure_json(row.figure));
    json cycles;
    if (row.cycles) {
      cycles = {{"unit", row.cycles->unit}};
      cycles.update(figure_json(*row.cycles));
    }
    out["cycles"] = cycles;
    json counters = json::object();
    for (const CounterDelta& counter : row.counters) counters[counter.name] = delta_json(counter.baseline, counter.candidate);
    out["counters"] = counters;
    layers.push_back(out);
  }
  json issues = json::array();
  for (const ComparabilityIssue& issue : comparison.issues) {
    issues.push_back({{"code", code_of(issue.code)}, {"message", issue.message}});
  }
  json warnings = json::array();
  for (const ComparabilityIssue& issue : comparison.issues) warnings.push_back(issue.message);
  for (const std::string& warning : comparison.warnings) warnings.push_back(warning);
  return {{"schema", "etns.compare"},
          {"schema_version", 1},
          {"baseline_dir", comparison.baseline_dir},
          {"candidate_dir", comparison.candidate_dir},
          {"metric", comparison.metric},
          {"unit", comparison.unit},
          {"config", config},
          {"metrics", metrics},
          {"layers_comparable", comparison.layers_comparable},
          {"layers", layers},
          {"warnings", warnings},
          {"comparability",
           {{"comparable", true},
            {"layers_comparable", comparison.layers_comparable},
            {"metrics_comparable", true},
            {"issues", issues}}},
          {"threshold_pct", json_or_null(comparison.threshold_pct)},
          {"policy", comparison.policy_file ? json(*comparison.policy_file) : json()},
          {"regressions", comparison.regressions},
          {"within_noise", comparison.within_noise}};
}

std::string comparison_markdown(const BundleComparison& comparison) {
  std::string md = fmt::format("# Comparison: {} → {}\n\nMetric: {} ({}), {}.\n", comparison.baseline_dir,
                               comparison.candidate_dir, comparison.metric, comparison.unit, comparison.target);
  for (const std::string& line : warning_lines(comparison)) md += "\n> " + line + "\n";
  md += "\n## Configuration\n\n| key | baseline | candidate | |\n|---|---|---|---|\n";
  auto text = [](const json& value) { return value.is_string() ? value.get<std::string>() : value.dump(); };
  for (const ConfigRow& row : comparison.config) {
    md += fmt::format("| {} | {} | {} | {} |\n", row.name, text(row.baseline), text(row.candidate),
                      row.same() ? "same" : "**diff**");
  }
  md += "\n## Run\n\n| metric | unit | baseline | candidate | change | % | × (candidate ÷ baseline) | |\n"
        "|---|---|---:|---:|---:|---:|---:|---|\n";
  for (const FigureRow& row : comparison.metrics) md += fmt::format("| {} | {} ", row.name, row.unit) + cells(row);
  if (comparison.layers_comparable) {
    std::vector<const InstructionRow*> shown;
    for (const InstructionRow& row : comparison.layers) shown.push_back(&row);
    if (comparison.top_layers > 0 && comparison.top_layers < shown.size()) {
      auto size = [](const InstructionRow* row) {
        const std::optional<double> delta = numbers_of(row->figure).delta;
        return delta ? std::fabs(*delta) : -1.0;
      };
      std::stable_sort(shown.begin(), shown.end(), [&](const InstructionRow* x, const InstructionRow* y) {
        return size(x) > size(y);
      });
      shown.resize(comparison.top_layers);
    }
    md += "\n## Instructions (" + comparison.unit;
    if (shown.size() < comparison.layers.size()) {
      md += fmt::format("; the {} largest changes of {}", shown.size(), comparison.layers.size());
    }
    md += ")\n\n| # | operator | baseline | candidate | change | % | × (candidate ÷ baseline) | |\n"
          "|---|---|---:|---:|---:|---:|---:|---|\n";
    for (const InstructionRow* row : shown) md += fmt::format("| {} | `{}` ", row->id, row->operator_name) + cells(row->figure);
    // The same rows in estimated cycles, beside the counts: shown, never gated.
    const bool cycles =
        std::any_of(shown.begin(), shown.end(), [](const InstructionRow* row) { return row->cycles.has_value(); });
    if (cycles) {
      md += std::string("\n## Instructions (") + kEstimatedCyclesUnit + ": " + kCycleCounter +
            ", an estimate, not a measurement; not gated)\n\n"
            "| # | operator | baseline | candidate | change | % | × (candidate ÷ baseline) | |\n"
            "|---|---|---:|---:|---:|---:|---:|---|\n";
      for (const InstructionRow* row : shown) {
        if (row->cycles) md += fmt::format("| {} | `{}` ", row->id, row->operator_name) + cells(*row->cycles);
      }
    }
  }
  if (comparison.gated) {
    md += fmt::format("\n{} beyond {}{}", comparison.passed() ? "No regression" : "**Regressions**",
                      gate_name(comparison), comparison.passed() ? ".\n" : ":\n\n");
    for (const std::string& line : comparison.regressions) md += "- " + line + "\n";
    if (!comparison.within_noise.empty()) {
      md += "\nAbove the threshold but within the run-to-run noise (not regressions):\n\n";
      for (const std::string& line : comparison.within_noise) md += "- " + line + "\n";
    }
  }
  return md;
}

void write_comparison_files(const BundleComparison& comparison, const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) throw Failure("--output-dir " + dir + ": " + error.message(), 2);
  json summary = comparison_json(comparison);
  summary.erase("layers");
  summary["schema"] = "etns.compare-summary";
  if (comparison.gated) {
    summary["verdict"] = {{"status", comparison.passed() ? "pass" : "fail"},
                          {"threshold_pct", json_or_null(comparison.threshold_pct)},
                          {"policy", json_or_null(comparison.policy_file)},
                          {"regressions", comparison.regressions},
                          {"within_noise", comparison.within_noise}};
  }
  write_file_atomic(dir + "/compare_summary.json", summary.dump(2) + "\n");

  std::vector<std::string> counters;
  for (const InstructionRow& row : comparison.layers) {
    for (const CounterDelta& counter : row.counters) {
      if (std::find(counters.begin(), counters.end(), counter.name) == counters.end()) counters.push_back(counter.name);
    }
  }
  std::sort(counters.begin(), counters.end());
  std::string csv =
      "id,baseline_id,candidate_id,baseline_op,candidate_op,op_match,unit,baseline_value,candidate_value,"
      "delta_value,delta_pct,speedup,noise_pct,state,within_noise,regression";
  for (const std::string& name : counters) csv += fmt::format(",baseline_{0},candidate_{0},delta_{0},delta_pct_{0}", name);
  csv += "\n";
  for (const InstructionRow& row : comparison.layers) {
    const PairNumbers n = numbers_of(row.figure);
    // The reference's `speedup` (profiler.md §9.3) is baseline ÷ candidate: factor_of with the sides swapped.
    const std::optional<double> speedup =
        n.baseline && n.candidate ? factor_of(*n.candidate, *n.baseline) : std::nullopt;
    csv += fmt::format("{},{},{},{},{},true,{},{},{},{},{},{},{},{},{},{}", row.index, csv_cell(row.id),
                       csv_cell(row.candidate_id), csv_cell(row.operator_name), csv_cell(row.operator_name),
                       csv_cell(comparison.unit), csv_number(n.baseline), csv_number(n.candidate), csv_number(n.delta),
                       csv_number(n.delta_pct), csv_number(speedup), csv_number(row.figure.noise_pct),
                       code_of(row.figure.state), row.figure.within_noise, row.figure.regression);
    for (const std::string& name : counters) {
      const auto found = std::find_if(row.counters.begin(), row.counters.end(),
                                      [&](const CounterDelta& counter) { return counter.name == name; });
      if (found == row.counters.end()) {
        csv += ",,,,";
        continue;
      }
      const double a = found->baseline, b = found->candidate;
      csv += fmt::format(",{},{},{},{}", csv_number(a), csv_number(b), csv_number(b - a),
                         csv_number(a != 0 ? std::optional<double>((b - a) / a * 100.0) : std::nullopt));
    }
    csv += "\n";
  }
  write_file_atomic(dir + "/layer_diff.csv", csv);
}

}  // namespace etns::tools
