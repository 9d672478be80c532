#include "tools/profile/compare.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "tools/common/failure.h"

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

ComparisonReport compare_bundles(const Bundle& baseline, const Bundle& candidate,
                                 std::optional<double> threshold_pct) {
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

  // Run metrics; clean end to end is compared too (the reference skips it).
  doc["metrics"] = json::array();
  auto metric_row = [&](const std::string& name, const std::string& metric_unit, const json& a, const json& b,
                        bool gated) {
    json row = {{"name", name}, {"unit", metric_unit}};
    if (!a.is_number() || !b.is_number()) {
      row["missing"] = true;
      doc["metrics"].push_back(row);
      return;
    }
    row.update(delta_json(a.get<double>(), b.get<double>()));
    doc["metrics"].push_back(row);
    if (gated && threshold_pct && a.get<double>() > 0 &&
        (b.get<double>() - a.get<double>()) / a.get<double>() * 100.0 > *threshold_pct) {
      report.regressions.push_back(name + ": " + format_count(a.get<double>()) + " -> " + format_count(b.get<double>()) +
                                   " " + metric_unit + " (" + format_delta_pct(a.get<double>(), b.get<double>()) +
                                   ", threshold " + threshold_text(*threshold_pct) + ")");
    }
  };
  const json& ma = baseline.summary["memory"];
  const json& mb = candidate.summary["memory"];
  metric_row("clean_end_to_end", unit, baseline.summary["clean_end_to_end"].value("value", json()),
             candidate.summary["clean_end_to_end"].value("value", json()), true);
  metric_row("per_layer_sum", unit, baseline.summary["per_layer_sum"], candidate.summary["per_layer_sum"], true);
  metric_row("load", unit, baseline.summary["load"], candidate.summary["load"], false);
  metric_row("layers", "rows", baseline.summary["layers"], candidate.summary["layers"], false);
  for (const char* key : {"planned_arena", "method_arena_used", "scratch_used", "model_size"}) {
    metric_row(std::string("memory.") + key, "bytes", ma.value(key, json()), mb.value(key, json()), true);
  }

  // Per instruction, index-aligned, when the programs line up.
  const json& la = baseline.results["layers"];
  const json& lb = candidate.results["layers"];
  bool layers_comparable = la.size() == lb.size();
  for (size_t i = 0; layers_comparable && i < la.size(); ++i) {
    layers_comparable = la[i]["operator"] == lb[i]["operator"];
  }
  doc["layers_comparable"] = layers_comparable;
  doc["layers"] = json::array();
  if (!layers_comparable) {
    warnings.push_back("the instruction sequences differ: per-instruction rows omitted");
  } else {
    for (size_t i = 0; i < la.size(); ++i) {
      const double a = as_number(la[i]["value"]);
      const double b = as_number(lb[i]["value"]);
      json row = {{"index", i}, {"id", la[i]["id"]}, {"operator", la[i]["operator"]}};
      row.update(delta_json(a, b));
      json counters = json::object();
      for (const auto& [name, stats] : la[i]["counters"].items()) {
        if (lb[i]["counters"].contains(name)) {
          counters[name] = delta_json(as_number(stats["value"]), as_number(lb[i]["counters"][name]["value"]));
        }
      }
      row["counters"] = counters;
      doc["layers"].push_back(row);
      if (threshold_pct && a > 0 && (b - a) / a * 100.0 > *threshold_pct) {
        report.regressions.push_back(la[i]["id"].get<std::string>() + " " + la[i]["operator"].get<std::string>() +
                                     ": " + format_count(a) + " -> " + format_count(b) + " " + unit + " (" +
                                     format_delta_pct(a, b) + ", threshold " + threshold_text(*threshold_pct) + ")");
      }
    }
  }
  doc["warnings"] = warnings;
  doc["threshold_pct"] = threshold_pct ? json(*threshold_pct) : json();
  doc["regressions"] = report.regressions;

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
  md << "\n## Run\n\n| metric | unit | baseline | candidate | change | % | × |\n|---|---|---:|---:|---:|---:|---:|\n";
  for (const json& row : doc["metrics"]) {
    if (row.value("missing", false)) {
      md << "| " << row["name"].get<std::string>() << " | " << row["unit"].get<std::string>() << " | | | missing | | |\n";
      continue;
    }
    const double a = row["baseline"].get<double>();
    const double b = row["candidate"].get<double>();
    md << "| " << row["name"].get<std::string>() << " | " << row["unit"].get<std::string>() << " | "
       << format_count(a) << " | " << format_count(b) << " | " << signed_number(b - a) << " | "
       << format_delta_pct(a, b) << " | " << format_factor(a, b) << " |\n";
  }
  if (layers_comparable) {
    md << "\n## Instructions (" << unit << ")\n\n| # | operator | baseline | candidate | change | % | × |\n"
       << "|---|---|---:|---:|---:|---:|---:|\n";
    for (const json& row : doc["layers"]) {
      const double a = row["baseline"].get<double>();
      const double b = row["candidate"].get<double>();
      md << "| " << row["id"].get<std::string>() << " | `" << row["operator"].get<std::string>() << "` | "
         << format_count(a) << " | " << format_count(b) << " | " << signed_number(b - a) << " | "
         << format_delta_pct(a, b) << " | " << format_factor(a, b) << " |\n";
    }
  }
  if (threshold_pct) {
    md << "\n" << (report.regressions.empty() ? "No regression" : "**Regressions**") << " beyond "
       << threshold_text(*threshold_pct) << (report.regressions.empty() ? ".\n" : ":\n\n");
    for (const std::string& line : report.regressions) md << "- " << line << "\n";
  }
  report.markdown = md.str();
  return report;
}

}  // namespace etns::tools
