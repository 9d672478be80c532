#include "tools/profile/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "tools/common/failure.h"
#include "tools/common/files.h"

namespace etns::tools {
namespace {

using json = nlohmann::json;

double as_number(const json& value) { return value.is_number() ? value.get<double>() : 0.0; }

std::string threshold_text(double pct) {
  char text[32];
  std::snprintf(text, sizeof(text), "+%g%%", pct);
  return text;
}

std::string model_sha(const Bundle& bundle) { return bundle.metadata["model"].value("sha256", ""); }

std::string signed_number(double value) {
  std::string text = format_count(std::fabs(value));
  return (value < 0 ? "-" : value > 0 ? "+" : "") + text;
}

}  // namespace

json delta_json(double baseline, double candidate) {
  json row = {{"baseline", baseline}, {"candidate", candidate}, {"delta", candidate - baseline}};
  row["delta_pct"] = baseline != 0 ? json((candidate - baseline) / baseline * 100.0) : json();
  row["factor"] = candidate != 0 ? json(baseline / candidate) : json();
  return row;
}

void require_comparable(const Bundle& baseline, const Bundle& candidate) {
  for (const Bundle* bundle : {&baseline, &candidate}) {
    if (bundle->manifest.value("status", "") != "complete") {
      throw Failure(bundle->dir + ": the run did not complete (status " + bundle->manifest.value("status", "?") +
                    "); not comparable");
    }
    if (bundle->manifest.value("validity", "") == "invalid") {
      throw Failure(bundle->dir + ": the run is invalid (see its summary.json issues); not comparable");
    }
  }
  const std::string a = baseline.summary.value("target", "") + " " + baseline.summary["metric"].value("name", "");
  const std::string b = candidate.summary.value("target", "") + " " + candidate.summary["metric"].value("name", "");
  if (a != b) throw Failure("not comparable: the bundles measure different things (" + a + " vs " + b + ")");
}

std::string format_count(double value) {
  char digits[40];
  std::snprintf(digits, sizeof(digits), "%.0f", std::fabs(value));
  std::string out;
  const size_t n = std::strlen(digits);
  for (size_t i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (value < 0 && out != "0" ? "-" : "") + out;
}

std::string format_delta_pct(double baseline, double candidate) {
  if (baseline == 0) return "";
  char text[32];
  std::snprintf(text, sizeof(text), "%+.1f%%", (candidate - baseline) / baseline * 100.0);
  return text;
}

std::string format_factor(double baseline, double candidate) {
  if (candidate == 0) return "";
  const double factor = baseline / candidate;
  char text[32];
  if (factor >= 100) {
    std::snprintf(text, sizeof(text), "%.0f×", factor);
  } else {
    std::snprintf(text, sizeof(text), "%.1f×", factor);
  }
  return text;
}

namespace {

// One side of a compared figure: absent when the run did not measure it, with
// the run-to-run noise of its samples when the bundle records their MAD.
struct Figure {
  bool measured = false;
  double value = 0;
  std::optional<double> noise_pct;  // 3 × MAD / median × 100: the run-to-run noise
};

// Three median absolute deviations: about two standard deviations of
// normally distributed samples, and blind to the one-off outliers of a busy
// machine that make min..max useless as a noise figure.
constexpr double kNoiseMads = 3.0;

Figure figure(const json& value) {
  Figure f;
  if (value.is_number()) {
    f.measured = true;
    f.value = value.get<double>();
  }
  return f;
}

// A statistics object {value, median, min, max, ...} as written by the profiler.
Figure figure_of_stats(const json& stats) {
  Figure f = figure(stats.is_object() ? stats.value("value", json()) : json());
  if (f.measured && stats.contains("mad") && stats.value("median", 0.0) > 0) {
    f.noise_pct = kNoiseMads * stats["mad"].get<double>() / stats["median"].get<double>() * 100.0;
  }
  return f;
}

// An instruction row: its value, with the noise of its primary statistics.
Figure row_figure(const json& layer) {
  Figure f = figure(json(as_number(layer.value("value", json()))));
  if (layer.contains("primary")) f.noise_pct = figure_of_stats(layer["primary"]).noise_pct;
  return f;
}

bool ran_per_instruction_pass(const Bundle& bundle) {
  const json passes = bundle.results.value("passes", json());
  if (!passes.is_array()) return !bundle.results.value("layers", json::array()).empty();
  return std::find(passes.begin(), passes.end(), json("per_instruction")) != passes.end();
}

// The per-instruction sum, with the noise of its rows added up.
Figure per_layer_sum_of(const Bundle& bundle) {
  Figure f;
  if (!ran_per_instruction_pass(bundle)) return f;
  f = figure(bundle.summary["per_layer_sum"]);
  double width = 0, median = 0;
  bool spread = f.measured;
  for (const json& layer : bundle.results["layers"]) {
    const json& stats = layer["primary"];
    if (!stats.is_object() || !stats.contains("mad") || !stats.contains("median")) {
      spread = false;
      break;
    }
    width += kNoiseMads * stats["mad"].get<double>();
    median += stats["median"].get<double>();
  }
  if (spread && median > 0) f.noise_pct = width / median * 100.0;
  return f;
}

// Time is noisy run to run; counts (instructions, bytes, rows) are exact.
bool is_time_unit(const std::string& unit) { return unit == "ns" || unit == "us" || unit == "ms" || unit == "s"; }

std::string pct_text(double pct) {
  char text[32];
  std::snprintf(text, sizeof(text), pct < 10 ? "%.1f%%" : "%.0f%%", pct);
  return text;
}

}  // namespace

ComparisonReport compare_bundles(const Bundle& baseline, const Bundle& candidate,
                                 std::optional<double> threshold_pct, size_t top_layers) {
  const std::string sha_a = model_sha(baseline);
  const std::string sha_b = model_sha(candidate);
  if (!sha_a.empty() && !sha_b.empty() && sha_a != sha_b) {
    throw Failure("not comparable: different programs (model SHA-256 " + sha_a.substr(0, 12) + "… vs " +
                  sha_b.substr(0, 12) + "…); use etns compare-programs for an arm/ns pair");
  }
  require_comparable(baseline, candidate);

  ComparisonReport report;
  json& doc = report.document;
  doc["schema"] = "etns.compare";
  doc["schema_version"] = 1;
  doc["baseline_dir"] = baseline.dir;
  doc["candidate_dir"] = candidate.dir;
  const std::string unit = baseline.summary["metric"].value("unit", "");
  const std::string metric = baseline.summary["metric"].value("name", "");
  const bool noisy = is_time_unit(unit);
  json warnings = json::array();
  for (const Bundle* bundle : {&baseline, &candidate}) {
    if (bundle->manifest.value("validity", "") == "degraded") warnings.push_back(bundle->dir + " is degraded");
  }

  // Configuration rows.
  const json& ca = baseline.metadata["config"];
  const json& cb = candidate.metadata["config"];
  auto config_row = [&](const std::string& name, const json& a, const json& b) {
    doc["config"].push_back({{"name", name}, {"baseline", a}, {"candidate", b}, {"same", a == b}});
  };
  doc["config"] = json::array();
  config_row("model.path", ca["model"]["path"], cb["model"]["path"]);
  config_row("model.sha256", sha_a, sha_b);
  config_row("target", baseline.summary["target"], candidate.summary["target"]);
  config_row("engine.backend", ca["engine"]["backend"], cb["engine"]["backend"]);
  config_row("engine.config.ns_ops", ca["engine"]["config"]["ns_ops"], cb["engine"]["config"]["ns_ops"]);
  config_row("engine.config.portable_ops", ca["engine"]["config"]["portable_ops"], cb["engine"]["config"]["portable_ops"]);
  config_row("profiling.per_layer", ca["profiling"]["per_layer"], cb["profiling"]["per_layer"]);
  config_row("profiling.iterations", ca["profiling"]["iterations"], cb["profiling"]["iterations"]);
  config_row("profiling.warmup", ca["profiling"]["warmup"], cb["profiling"]["warmup"]);
  config_row("profiling.aggregation", ca["profiling"]["aggregation"], cb["profiling"]["aggregation"]);
  config_row("profiling.pmu_counters", ca["profiling"]["pmu_counters"], cb["profiling"]["pmu_counters"]);
  config_row("etns_version", baseline.metadata["etns_version"], candidate.metadata["etns_version"]);
  const json& ta = baseline.metadata["target"]["details"];
  const json& tb = candidate.metadata["target"]["details"];
  for (const char* key : {"firmware_sha256", "qemu_version", "cpu", "compiler"}) {
    if (ta.contains(key) || tb.contains(key)) config_row(std::string("target.") + key, ta.value(key, json()), tb.value(key, json()));
  }

  // Gating: a figure that grew by more than the threshold is a regression,
  // unless it is a time whose growth stays within the noisier run's noise.
  double noise_above_threshold = 0;  // the largest noise above the threshold
  size_t rows_noisier = 0, rows_timed = 0;
  std::vector<std::string> within_noise;
  auto gate = [&](json& row, const std::string& name, const std::string& row_unit, const Figure& a, const Figure& b,
                  bool timed) {
    std::optional<double> noise;
    if (timed) {
      if (a.noise_pct) noise = *a.noise_pct;
      if (b.noise_pct) noise = std::max(noise.value_or(0.0), *b.noise_pct);
      if (noise) row["noise_pct"] = *noise;
    }
    if (!threshold_pct || !a.measured || !b.measured || a.value <= 0) return;
    if (noise) {
      ++rows_timed;
      if (*noise > *threshold_pct) {
        ++rows_noisier;
        noise_above_threshold = std::max(noise_above_threshold, *noise);
      }
    }
    const double pct = (b.value - a.value) / a.value * 100.0;
    if (pct <= *threshold_pct) return;
    const std::string what = name + ": " + format_count(a.value) + " -> " + format_count(b.value) + " " + row_unit +
                             " (" + format_delta_pct(a.value, b.value);
    if (noise && pct <= *noise) {
      row["within_noise"] = true;
      within_noise.push_back(what + ", within noise ±" + pct_text(*noise) + ")");
      return;
    }
    row["regression"] = true;
    report.regressions.push_back(what + ", threshold " + threshold_text(*threshold_pct) + ")");
  };

  // A pair of figures: what can honestly be said about the change.
  auto pair_json = [](const Figure& a, const Figure& b) {
    json row;
    if (!a.measured && !b.measured) {
      row = {{"baseline", nullptr}, {"candidate", nullptr}, {"delta", nullptr}, {"delta_pct", nullptr},
             {"factor", nullptr}, {"state", "not_measured"}};
    } else if (!a.measured || !b.measured) {
      row = {{"baseline", a.measured ? json(a.value) : json()}, {"candidate", b.measured ? json(b.value) : json()},
             {"delta", nullptr}, {"delta_pct", nullptr}, {"factor", nullptr},
             {"state", a.measured ? "not_measured_in_candidate" : "not_measured_in_baseline"}};
    } else {
      row = delta_json(a.value, b.value);
      row["state"] = a.value == 0 && b.value == 0 ? "zero_in_both"
                     : a.value == 0               ? "zero_in_baseline"
                     : b.value == 0               ? "zero_in_candidate"
                                                  : "measured";
      if (a.value == 0 && b.value == 0) row["delta"] = nullptr;
    }
    return row;
  };

  // Run metrics; clean end to end is compared too (the reference skips it).
  doc["metrics"] = json::array();
  auto metric_row = [&](const std::string& name, const std::string& metric_unit, const Figure& a, const Figure& b,
                        bool gated, bool timed) {
    json row = {{"name", name}, {"unit", metric_unit}};
    row.update(pair_json(a, b));
    if (gated) gate(row, name, metric_unit, a, b, timed);
    doc["metrics"].push_back(row);
  };
  const json& ma = baseline.summary["memory"];
  const json& mb = candidate.summary["memory"];
  metric_row("clean_end_to_end", unit, figure_of_stats(baseline.summary["clean_end_to_end"]),
             figure_of_stats(candidate.summary["clean_end_to_end"]), true, noisy);
  metric_row("per_layer_sum", unit, per_layer_sum_of(baseline), per_layer_sum_of(candidate), true, noisy);
  metric_row("load", unit, figure(baseline.summary["load"]), figure(candidate.summary["load"]), false, noisy);
  metric_row("layers", "rows",
             ran_per_instruction_pass(baseline) ? figure(baseline.summary["layers"]) : Figure{},
             ran_per_instruction_pass(candidate) ? figure(candidate.summary["layers"]) : Figure{}, false, false);
  for (const char* key : {"planned_arena", "method_arena_used", "scratch_used", "model_size"}) {
    metric_row(std::string("memory.") + key, "bytes", figure(ma.value(key, json())), figure(mb.value(key, json())), true,
               false);
  }

  // Per instruction, index-aligned, when the programs line up.
  const json& la = baseline.results["layers"];
  const json& lb = candidate.results["layers"];
  const bool pass_a = ran_per_instruction_pass(baseline), pass_b = ran_per_instruction_pass(candidate);
  bool layers_comparable = pass_a && pass_b && la.size() == lb.size();
  for (size_t i = 0; layers_comparable && i < la.size(); ++i) {
    layers_comparable = la[i]["operator"] == lb[i]["operator"];
  }
  doc["layers_comparable"] = layers_comparable;
  doc["layers"] = json::array();
  if (!pass_a && !pass_b) {
    warnings.push_back("neither run has a per-instruction pass (per_layer: false): no per-instruction rows");
  } else if (!pass_a || !pass_b) {
    warnings.push_back(std::string("only the ") + (pass_a ? "baseline" : "candidate") +
                       " has a per-instruction pass (per_layer: false in the other): per-instruction rows omitted");
  } else if (!layers_comparable) {
    warnings.push_back("the instruction sequences differ: per-instruction rows omitted");
  } else {
    for (size_t i = 0; i < la.size(); ++i) {
      const Figure a = row_figure(la[i]);
      const Figure b = row_figure(lb[i]);
      json row = {{"index", i}, {"id", la[i]["id"]}, {"candidate_id", lb[i]["id"]}, {"operator", la[i]["operator"]}};
      row.update(pair_json(a, b));
      json counters = json::object();
      for (const auto& [name, stats] : la[i]["counters"].items()) {
        if (lb[i]["counters"].contains(name)) {
          counters[name] = delta_json(as_number(stats["value"]), as_number(lb[i]["counters"][name]["value"]));
        }
      }
      row["counters"] = counters;
      gate(row, la[i]["id"].get<std::string>() + " " + la[i]["operator"].get<std::string>(), unit, a, b, noisy);
      doc["layers"].push_back(row);
    }
  }
  if (rows_noisier > 0) {
    report.warnings.push_back("the threshold " + threshold_text(*threshold_pct) + " is below the run-to-run noise of " +
                              std::to_string(rows_noisier) + " of " + std::to_string(rows_timed) +
                              " timed figures (up to ±" + pct_text(noise_above_threshold) +
                              "): changes within a figure's noise are not called regressions");
    warnings.push_back(report.warnings.back());
  }
  doc["warnings"] = warnings;
  doc["metric"] = metric;
  doc["unit"] = unit;
  doc["comparability"] = {{"comparable", true},
                          {"layers_comparable", layers_comparable},
                          {"metrics_comparable", true},
                          {"issues", warnings}};
  doc["threshold_pct"] = threshold_pct ? json(*threshold_pct) : json();
  doc["regressions"] = report.regressions;
  doc["within_noise"] = within_noise;

  // Markdown cells: "—" wherever a figure or a ratio does not exist.
  auto cells = [](const json& row) {
    auto value = [](const json& v) { return v.is_number() ? format_count(v.get<double>()) : std::string("—"); };
    const std::string state = row["state"].get<std::string>();
    std::string change = "—", pct = "—", factor = "—", note;
    if (state == "not_measured") {
      note = "not measured";
    } else if (state == "not_measured_in_baseline" || state == "not_measured_in_candidate") {
      note = state == "not_measured_in_baseline" ? "not measured in the baseline" : "not measured in the candidate";
    } else if (state == "zero_in_both") {
      note = "0 in both";
    } else {
      const double a = row["baseline"].get<double>(), b = row["candidate"].get<double>();
      change = signed_number(b - a);
      if (a != 0) pct = format_delta_pct(a, b);
      if (b != 0 && a != 0) factor = format_factor(a, b);
      if (state == "zero_in_baseline") note = "baseline 0: no % or ×";
      if (state == "zero_in_candidate") note = "candidate 0: no ×";
    }
    if (row.value("within_noise", false)) note = "within noise (±" + pct_text(row["noise_pct"].get<double>()) + ")";
    if (row.value("regression", false)) note = "**regression**";
    return "| " + value(row["baseline"]) + " | " + value(row["candidate"]) + " | " + change + " | " + pct + " | " +
           factor + " | " + note + " |\n";
  };

  std::ostringstream md;
  md << "# Comparison: " << baseline.dir << " → " << candidate.dir << "\n\n";
  md << "Metric: " << metric << " (" << unit << "), " << baseline.summary.value("target", "") << ".\n";
  for (const json& warning : warnings) md << "\n> " << warning.get<std::string>() << "\n";
  md << "\n## Configuration\n\n| key | baseline | candidate | |\n|---|---|---|---|\n";
  for (const json& row : doc["config"]) {
    auto text = [](const json& value) { return value.is_string() ? value.get<std::string>() : value.dump(); };
    md << "| " << row["name"].get<std::string>() << " | " << text(row["baseline"]) << " | " << text(row["candidate"])
       << " | " << (row["same"].get<bool>() ? "same" : "**diff**") << " |\n";
  }
  md << "\n## Run\n\n| metric | unit | baseline | candidate | change | % | × | |\n"
     << "|---|---|---:|---:|---:|---:|---:|---|\n";
  for (const json& row : doc["metrics"]) {
    md << "| " << row["name"].get<std::string>() << " | " << row["unit"].get<std::string>() << " " << cells(row);
  }
  if (layers_comparable) {
    std::vector<json> shown(doc["layers"].begin(), doc["layers"].end());
    if (top_layers > 0 && top_layers < shown.size()) {
      auto size = [](const json& row) { return row["delta"].is_number() ? std::fabs(row["delta"].get<double>()) : -1.0; };
      std::stable_sort(shown.begin(), shown.end(), [&](const json& x, const json& y) { return size(x) > size(y); });
      shown.resize(top_layers);
    }
    md << "\n## Instructions (" << unit;
    if (shown.size() < doc["layers"].size()) {
      md << "; the " << shown.size() << " largest changes of " << doc["layers"].size();
    }
    md << ")\n\n| # | operator | baseline | candidate | change | % | × | |\n|---|---|---:|---:|---:|---:|---:|---|\n";
    for (const json& row : shown) {
      md << "| " << row["id"].get<std::string>() << " | `" << row["operator"].get<std::string>() << "` " << cells(row);
    }
  }
  if (threshold_pct) {
    md << "\n" << (report.regressions.empty() ? "No regression" : "**Regressions**") << " beyond "
       << threshold_text(*threshold_pct) << (report.regressions.empty() ? ".\n" : ":\n\n");
    for (const std::string& line : report.regressions) md << "- " << line << "\n";
    if (!within_noise.empty()) {
      md << "\nAbove the threshold but within the run-to-run noise (not regressions):\n\n";
      for (const std::string& line : within_noise) md << "- " << line << "\n";
    }
  }
  report.markdown = md.str();
  return report;
}

namespace {

std::string csv_cell(const json& value) {
  if (value.is_null()) return "";
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_number()) {
    const double number = value.get<double>();
    char text[40];
    if (std::floor(number) == number && std::fabs(number) < 9.0e15) {
      std::snprintf(text, sizeof(text), "%.0f", number);
    } else {
      std::snprintf(text, sizeof(text), "%.3f", number);
    }
    return text;
  }
  const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

void write_comparison_files(const ComparisonReport& report, const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) throw Failure("--output-dir " + dir + ": " + error.message(), 2);
  json summary = report.document;
  summary.erase("layers");
  summary["schema"] = "etns.compare-summary";
  if (!summary["threshold_pct"].is_null()) {
    summary["verdict"] = {{"status", report.regressions.empty() ? "pass" : "fail"},
                          {"threshold_pct", summary["threshold_pct"]},
                          {"regressions", summary["regressions"]},
                          {"within_noise", summary["within_noise"]}};
  }
  write_file_atomic(dir + "/compare_summary.json", summary.dump(2) + "\n");

  const json& layers = report.document["layers"];
  std::vector<std::string> counters;
  for (const json& row : layers) {
    for (const auto& [name, value] : row["counters"].items()) {
      if (std::find(counters.begin(), counters.end(), name) == counters.end()) counters.push_back(name);
    }
  }
  std::sort(counters.begin(), counters.end());
  std::ostringstream csv;
  csv << "id,baseline_id,candidate_id,baseline_op,candidate_op,op_match,unit,baseline_value,candidate_value,"
         "delta_value,delta_pct,speedup,noise_pct,state,within_noise,regression";
  for (const std::string& name : counters) {
    csv << ",baseline_" << name << ",candidate_" << name << ",delta_" << name << ",delta_pct_" << name;
  }
  csv << "\n";
  for (const json& row : layers) {
    csv << csv_cell(row["index"]) << "," << csv_cell(row["id"]) << "," << csv_cell(row["candidate_id"]) << ","
        << csv_cell(row["operator"]) << "," << csv_cell(row["operator"]) << ",true," << csv_cell(report.document["unit"])
        << "," << csv_cell(row["baseline"]) << "," << csv_cell(row["candidate"]) << "," << csv_cell(row["delta"]) << ","
        << csv_cell(row["delta_pct"]) << "," << csv_cell(row["factor"]) << "," << csv_cell(row.value("noise_pct", json()))
        << "," << csv_cell(row["state"]) << "," << csv_cell(row.value("within_noise", false)) << ","
        << csv_cell(row.value("regression", false));
    for (const std::string& name : counters) {
      const json counter = row["counters"].value(name, json::object());
      csv << "," << csv_cell(counter.value("baseline", json())) << "," << csv_cell(counter.value("candidate", json()))
          << "," << csv_cell(counter.value("delta", json())) << "," << csv_cell(counter.value("delta_pct", json()));
    }
    csv << "\n";
  }
  write_file_atomic(dir + "/layer_diff.csv", csv.str());
}

}  // namespace etns::tools
