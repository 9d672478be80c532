#include "tools/evidence/runner/timing_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "tools/common/failure.h"
#include "tools/common/text.h"

namespace etns::tools {
namespace {

constexpr const char* kCyclesKey = "cycles";

TimedCounts parse_counts(const nlohmann::json& counts, const std::vector<std::string>& classes) {
  TimedCounts result;
  for (const std::string& name : classes) result.classes.push_back(counts.at(name).get<uint64_t>());
  result.instructions = counts.at("total").get<uint64_t>();
  if (counts.contains(kCyclesKey)) result.cycles = counts.at(kCyclesKey).get<uint64_t>();
  return result;
}

// Sums and range of one region's visits.
struct VisitSummary {
  uint64_t instructions = 0;
  uint64_t min_instructions = 0;
  uint64_t max_instructions = 0;
  std::optional<uint64_t> cycles;  // when every visit has them
  std::vector<uint64_t> classes;
};

VisitSummary summarize(const std::vector<TimedCounts>& visits, size_t class_count) {
  VisitSummary summary;
  summary.classes.assign(class_count, 0);
  if (visits.empty()) return summary;
  summary.min_instructions = visits.front().instructions;
  summary.max_instructions = visits.front().instructions;
  uint64_t cycles = 0;
  bool all_cycles = true;
  for (const TimedCounts& visit : visits) {
    summary.instructions += visit.instructions;
    summary.min_instructions = std::min(summary.min_instructions, visit.instructions);
    summary.max_instructions = std::max(summary.max_instructions, visit.instructions);
    if (visit.cycles) {
      cycles += *visit.cycles;
    } else {
      all_cycles = false;
    }
    for (size_t c = 0; c < class_count && c < visit.classes.size(); ++c) summary.classes[c] += visit.classes[c];
  }
  if (all_cycles) summary.cycles = cycles;
  return summary;
}

std::string label_of(const TimedRegion& region) {
  return region.name.empty() ? "region " + std::to_string(region.id) : region.name;
}

std::string quoted_label(const TimedRegion& region) {
  return "region " + std::to_string(region.id) + (region.name.empty() ? "" : " '" + region.name + "'");
}

std::string ratio(uint64_t numerator, uint64_t denominator) {
  return denominator == 0 ? "-" : fmt::format("{:.2f}", static_cast<double>(numerator) / static_cast<double>(denominator));
}

// A text table: the first column left-aligned, the others right-aligned.
std::string render_rows(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  std::string text;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      const std::string pad(widths[i] - row[i].size(), ' ');
      line += (i == 0 ? "" : "  ") + (i <= 1 ? row[i] + pad : pad + row[i]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    text += line + "\n";
  }
  return text;
}

nlohmann::ordered_json classes_json(const std::vector<std::string>& names, const std::vector<uint64_t>& values) {
  nlohmann::ordered_json classes = nlohmann::ordered_json::object();
  for (size_t i = 0; i < names.size() && i < values.size(); ++i) classes[names[i]] = values[i];
  return classes;
}

nlohmann::ordered_json optional_json(const std::optional<uint64_t>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

}  // namespace

TimingReport timing_from_counts(const nlohmann::json& counts, const std::map<uint32_t, std::string>& names,
                                const std::string& where) {
  TimingReport report;
  try {
    const int version = counts.value("schema_version", 0);
    if (counts.value("schema", "") != "etns.qemu_counts" || (version != 2 && version != 3)) {
      throw Failure(where + ": the counting plugin wrote schema '" + counts.value("schema", "") + "' version " +
                    std::to_string(version) + ", expected etns.qemu_counts 2 or 3 (a plugin from another etns?)");
    }
    report.classes = counts.at("classes").get<std::vector<std::string>>();
    report.classes.push_back("weighted");
    if (counts.contains("cycle_model")) {
      const nlohmann::json& model = counts.at("cycle_model");
      report.cycle_model = model.at("name").get<std::string>();
      report.unmodelled_instructions = model.value("unmodelled_instructions", uint64_t{0});
    }
    report.whole_run = parse_counts(counts.at("program"), report.classes);
    std::map<uint32_t, TimedRegion> regions;
    for (const auto& [id, name] : names) regions[id] = TimedRegion{id, name, {}, 0, 0};
    for (const nlohmann::json& entry : counts.at("regions")) {
      TimedRegion& region = regions[entry.at("id").get<uint32_t>()];
      region.id = entry.at("id").get<uint32_t>();
      region.dropped_visits = entry.at("dropped_visits").get<uint64_t>();
      region.unbalanced = entry.at("unbalanced").get<uint64_t>();
      for (const nlohmann::json& visit : entry.at("visits")) {
        region.visits.push_back(parse_counts(visit, report.classes));
      }
    }
    for (auto& [id, region] : regions) report.regions.push_back(std::move(region));
  } catch (const nlohmann::json::exception& error) {
    throw Failure(where + ": the counting plugin's output does not read as etns.qemu_counts: " + error.what());
  }
  return report;
}

std::vector<std::string> timing_warnings(const TimingReport& report) {
  std::vector<std::string> warnings;
  for (const TimedRegion& region : report.regions) {
    if (region.unbalanced != 0) {
      warnings.push_back(fmt::format(
          "{}: {} unbalanced marker{} (a begin while it was open, an end while it was closed, or open at exit): "
          "its visits may not be what the code meant",
          quoted_label(region), grouped(region.unbalanced), region.unbalanced == 1 ? "" : "s"));
    }
    if (region.dropped_visits != 0) {
      warnings.push_back(fmt::format("{}: {} visits after the first {} were not counted (raise --max-visits): its "
                                     "totals leave them out",
                                     quoted_label(region), grouped(region.dropped_visits),
                                     grouped(region.visits.size())));
    }
  }
  return warnings;
}

std::string render_timing(const TimingReport& report) {
  const bool cycles = !report.cycle_model.empty();
  std::string text = fmt::format("{}: firmware exit status {} under QEMU mps3-an547\n", report.elf, report.exit_status);
  text += "instructions: executed instructions, exact (the etns QEMU plugin; the same on every run)\n";
  if (cycles) {
    text += fmt::format("est. cycles: estimated (LLVM 19 Cortex-M55 model), not measured: {}", report.cycle_model);
    if (report.unmodelled_instructions != 0) {
      text += fmt::format("; {} executed instructions it has no timing for cost 1 cycle each",
                          grouped(report.unmodelled_instructions));
    }
    text += "\n";
  } else {
    text += "est. cycles: not available (" +
            (report.cycles_missing_reason.empty() ? std::string("the plugin ran without its cycle model")
                                                  : report.cycles_missing_reason) +
            ")\n";
  }
  text += "\n";
  std::vector<std::vector<std::string>> rows = {{"id", "region", "visits", "instructions/visit", "instructions",
                                                 "est. cycles/visit", "est. cycles", "est. cycles/instruction"}};
  std::vector<std::string> notes;
  for (const TimedRegion& region : report.regions) {
    const VisitSummary summary = summarize(region.visits, report.classes.size());
    const uint64_t visits = region.visits.size();
    if (visits == 0) {
      rows.push_back({std::to_string(region.id), label_of(region), "0", "-", "-", "-", "-", "-"});
      continue;
    }
    const double mean = static_cast<double>(summary.instructions) / static_cast<double>(visits);
    rows.push_back({std::to_string(region.id), label_of(region), grouped(visits), format_count(mean),
                    grouped(summary.instructions),
                    summary.cycles ? format_count(static_cast<double>(*summary.cycles) / static_cast<double>(visits))
                                   : "-",
                    summary.cycles ? grouped(*summary.cycles) : "-",
                    summary.cycles ? ratio(*summary.cycles, summary.instructions) : "-"});
    if (summary.min_instructions != summary.max_instructions) {
      notes.push_back(fmt::format("{}: per visit is the mean; visits range from {} to {} instructions",
                                  quoted_label(region), grouped(summary.min_instructions),
                                  grouped(summary.max_instructions)));
    }
  }
  const TimedCounts& whole = report.whole_run;
  rows.push_back({"", "whole run", "-", "-", grouped(whole.instructions), "-",
                  whole.cycles ? grouped(*whole.cycles) : "-",
                  whole.cycles ? ratio(*whole.cycles, whole.instructions) : "-"});
  text += render_rows(rows);
  text += "\nA visit counts from the return of its begin marker to the call of its end marker, which adds 2 or 3 "
          "instructions (firmware/regions.h).\n";
  for (const std::string& note : notes) text += note + "\n";
  return text;
}

nlohmann::ordered_json timing_json(const TimingReport& report) {
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  json["schema"] = "etns.time";
  json["schema_version"] = 1;
  json["elf"] = report.elf;
  json["exit_status"] = report.exit_status;
  json["counts"] = {{"instructions", "executed instructions, exact (etns QEMU plugin)"},
                    {"cycles", "estimated (LLVM 19 Cortex-M55 model), not measured; null without the model"}};
  if (report.cycle_model.empty()) {
    json["cycle_model"] = nullptr;
  } else {
    json["cycle_model"] = {{"name", report.cycle_model},
                           {"unmodelled_instructions", report.unmodelled_instructions}};
  }
  json["classes"] = report.classes;
  json["whole_run"] = {{"instructions", report.whole_run.instructions},
                       {"cycles", optional_json(report.whole_run.cycles)},
                       {"classes", classes_json(report.classes, report.whole_run.classes)}};
  nlohmann::ordered_json regions = nlohmann::ordered_json::array();
  for (const TimedRegion& region : report.regions) {
    const VisitSummary summary = summarize(region.visits, report.classes.size());
    const uint64_t visits = region.visits.size();
    nlohmann::ordered_json per_visit = nlohmann::ordered_json::array();
    for (const TimedCounts& visit : region.visits) {
      per_visit.push_back({{"instructions", visit.instructions}, {"cycles", optional_json(visit.cycles)}});
    }
    nlohmann::ordered_json entry = nlohmann::ordered_json::object();
    entry["id"] = region.id;
    entry["name"] = region.name.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(region.name);
    entry["visits"] = visits;
    entry["dropped_visits"] = region.dropped_visits;
    entry["unbalanced"] = region.unbalanced;
    entry["instructions"] = {{"total", summary.instructions},
                             {"per_visit_min", summary.min_instructions},
                             {"per_visit_max", summary.max_instructions}};
    const bool has_cycles = visits != 0 && summary.cycles.has_value();
    entry["cycles"] = has_cycles ? nlohmann::ordered_json(*summary.cycles) : nlohmann::ordered_json(nullptr);
    entry["cycles_per_instruction"] =
        has_cycles && summary.instructions != 0
            ? nlohmann::ordered_json(static_cast<double>(*summary.cycles) / static_cast<double>(summary.instructions))
            : nlohmann::ordered_json(nullptr);
    entry["classes"] = classes_json(report.classes, summary.classes);
    entry["per_visit"] = std::move(per_visit);
    regions.push_back(std::move(entry));
  }
  json["regions"] = std::move(regions);
  json["console"] = report.console;
  return json;
}

}  // namespace etns::tools
