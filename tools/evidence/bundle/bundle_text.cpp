#include "tools/evidence/bundle/bundle_text.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "tools/common/text.h"

namespace etns::tools {
namespace {

std::string csv_number(double value) {
  if (std::floor(value) == value && std::fabs(value) < 9.0e15) return std::to_string(static_cast<int64_t>(value));
  return fmt::format("{:.3f}", value);
}

std::string pct_text(const std::optional<double>& pct) { return pct ? fmt::format("{:.1f}", *pct) : ""; }

// "an all-zero input", or each input's file and SHA-256.
std::string inputs_text(const std::vector<InputDoc>& inputs) {
  const bool zeros = std::all_of(inputs.begin(), inputs.end(), [](const InputDoc& input) { return !input.file; });
  if (zeros) return "an all-zero input";
  std::string text;
  for (size_t i = 0; i < inputs.size(); ++i) {
    text += (i == 0 ? "input " : ", input ") + std::to_string(i) + " " +
            (inputs[i].file ? fmt::format("`{}` (SHA-256 {})", *inputs[i].file, inputs[i].sha256) : "all zeros");
  }
  return text;
}

}  // namespace

std::string results_csv(const ResultsDoc& results, const std::vector<std::string>& counters) {
  // With CPU_CYCLES among the columns, the board profiler's row keys too: the
  // estimated cycles and their share.
  const bool cycles = std::find(counters.begin(), counters.end(), kCycleCounter) != counters.end();
  std::string csv = "id,op,operator";
  for (const std::string& name : counters) csv += "," + name;
  csv += cycles ? ",pct,cycles,cycles_pct\n" : ",pct\n";
  double total = 0;
  auto value_of = [](const LayerDoc& layer, const std::string& name) {
    const auto found = layer.counters.find(name);
    return found == layer.counters.end() ? 0.0 : found->second.value;
  };
  if (!counters.empty()) {
    for (const LayerDoc& layer : results.layers) total += value_of(layer, counters.front());
  }
  for (const LayerDoc& layer : results.layers) {
    csv += fmt::format("{},OPERATOR_CALL:{},{}", layer.index, layer.id, layer.operator_name);
    for (const std::string& name : counters) csv += "," + csv_number(value_of(layer, name));
    std::optional<double> pct;
    if (!counters.empty() && total > 0) pct = std::round(value_of(layer, counters.front()) / total * 1000.0) / 10.0;
    csv += "," + pct_text(pct);
    if (cycles) csv += "," + (layer.cycles ? csv_number(*layer.cycles) : std::string()) + "," + pct_text(layer.cycles_pct);
    csv += "\n";
  }
  return csv;
}

std::string report_markdown(const RunDocuments& documents) {
  const SummaryDoc& summary = documents.summary;
  const ResultsDoc& results = documents.results;
  const std::string& unit = results.metric.unit;
  std::string md = fmt::format("# Profile: {} ({}, {})\n\nValidity: **{}**", documents.metadata.model_name,
                               protocol::to_string(summary.provider), summary.target, summary.validity);
  if (!summary.issues.empty()) {
    md += "\n\n";
    for (const IssueDoc& issue : summary.issues) {
      md += fmt::format("- `{}` ({}): {}\n", issue.code, issue.severity, issue.message);
    }
  } else {
    md += "\n";
  }
  md += fmt::format("\nEach value is the {} of {} iterations after {} warm-up runs, with {}. {}: {}.\n",
                    results.aggregation, results.iterations, results.warmup, inputs_text(documents.metadata.inputs),
                    results.metric.name, results.metric.description);
  if (!results.layers.empty()) {
    std::vector<std::string> extra;
    for (const CounterDoc& counter : results.counters) {
      if (counter.name != results.metric.name) extra.push_back(counter.name);
    }
    md += fmt::format("\n| # | instruction | operator | {} ({}) | min | max | share |", results.metric.name, unit);
    for (const CounterDoc& counter : results.counters) {
      if (counter.name == results.metric.name) continue;
      // A column in another unit says which (the estimated cycles).
      md += " " + counter.name + (counter.unit != unit ? " (" + counter.unit + ")" : std::string()) + " |";
    }
    md += "\n|---|---|---|---:|---:|---:|---:|";
    for (size_t k = 0; k < extra.size(); ++k) md += "---:|";
    md += "\n";
    for (const LayerDoc& layer : results.layers) {
      md += fmt::format("| {} | {} | `{}` | {} | {} | {} | {} |", layer.index, layer.id, layer.operator_name,
                        format_count(layer.value), format_count(layer.primary.min), format_count(layer.primary.max),
                        layer.pct ? fmt::format("{:.1f} %", *layer.pct) : std::string());
      for (const std::string& name : extra) {
        const auto found = layer.counters.find(name);
        md += " " + format_count(found == layer.counters.end() ? 0.0 : found->second.value) + " |";
      }
      md += "\n";
    }
    md += fmt::format("\nPer-instruction sum: {} {}.\n", format_count(results.per_layer_sum), unit);
  }
  if (summary.clean_end_to_end) {
    const StatsDoc& clean = *summary.clean_end_to_end;
    md += fmt::format(
        "Clean end to end (execute() without per-instruction instrumentation): {} {} (min {}, max {}).\n",
        format_count(clean.value), unit, format_count(clean.min), format_count(clean.max));
  }
  if (summary.cycles) {
    const CyclesDoc& cycles = *summary.cycles;
    const std::optional<CycleEstimateDoc>& estimate = documents.metadata.cycles;
    md += fmt::format("\nEstimated Cortex-M55 cycles ({}, {}; an estimate, not a measurement):", cycles.counter,
                      estimate && estimate->model ? "`" + *estimate->model + "`" : std::string("model not recorded"));
    md += cycles.per_layer_sum ? fmt::format(" per-instruction sum {};", format_count(*cycles.per_layer_sum))
                               : std::string(" no per-instruction pass;");
    md += cycles.clean_end_to_end
              ? fmt::format(" clean end to end {} for one execute().\n", format_count(cycles.clean_end_to_end->value))
              : std::string(" no clean pass.\n");
  }
  const MemoryDoc& memory = summary.memory;
  md += fmt::format("\nMemory: planned arena {} B, method arena used {} B of {}, scratch {} B, program {} B.\n",
                    memory.planned_arena, memory.method_arena_used, memory.method_arena, memory.scratch_used,
                    memory.model_size);
  if (summary.failure) md += fmt::format("\nThe run did not complete:\n\n```\n{}\n```\n", *summary.failure);
  return md;
}

}  // namespace etns::tools
