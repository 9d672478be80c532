#include "tools/evidence/compare/compare.h"

#include <algorithm>
#include <fmt/format.h>

#include "protocol/bundle.h"
#include "tools/common/failure.h"

namespace etns::tools {
namespace {

// Three median absolute deviations: about two standard deviations of
// normally distributed samples, and blind to the one-off outliers of a busy
// machine that make min..max useless as a noise figure.
constexpr double kNoiseMads = 3.0;

Figure measured(double value) { return {true, value, std::nullopt}; }

// A statistics figure with its noise: 3 MADs relative to the median.
Figure figure_of(const StatsDoc& stats) {
  Figure f = measured(stats.value);
  if (stats.median > 0) f.noise_pct = kNoiseMads * stats.mad / stats.median * 100.0;
  return f;
}

Figure figure_of(const std::optional<StatsDoc>& stats) { return stats ? figure_of(*stats) : Figure{}; }

// An instruction row: its value, with the noise of its primary statistics.
Figure row_figure(const LayerDoc& layer) {
  Figure f = figure_of(layer.primary);
  f.value = layer.value;
  return f;
}

// The per-instruction sum, with the noise of its rows added up.
Figure per_layer_sum_of(const Bundle& bundle) {
  if (!bundle.results.ran_per_instruction_pass()) return {};
  Figure f = measured(bundle.summary.per_layer_sum);
  double width = 0, median = 0;
  for (const LayerDoc& layer : bundle.results.layers) {
    width += kNoiseMads * layer.primary.mad;
    median += layer.primary.median;
  }
  if (median > 0) f.noise_pct = width / median * 100.0;
  return f;
}

// Time is noisy run to run; counts (instructions, bytes, rows) are exact.
bool is_time_unit(const std::string& unit) { return unit == "ns" || unit == "us" || unit == "ms" || unit == "s"; }

FigureState state_of(const Figure& a, const Figure& b) {
  if (!a.measured && !b.measured) return FigureState::NotMeasured;
  if (!a.measured) return FigureState::NotMeasuredInBaseline;
  if (!b.measured) return FigureState::NotMeasuredInCandidate;
  if (a.value == 0 && b.value == 0) return FigureState::ZeroInBoth;
  if (a.value == 0) return FigureState::ZeroInBaseline;
  if (b.value == 0) return FigureState::ZeroInCandidate;
  return FigureState::Measured;
}

// Applies each figure's gate and collects what it found.
class Gate {
 public:
  Gate(const RegressionPolicy& policy, BundleComparison& comparison) : policy_(policy), comparison_(comparison) {}

  // `excused`: the figure is absent in the candidate because its configuration
  // does not measure it (a comparability issue says so), not because it is missing.
  void apply(FigureRow& row, const std::string& label, std::optional<double> threshold, bool timed, bool excused) {
    const Figure& a = row.baseline;
    const Figure& b = row.candidate;
    if (timed) {
      if (a.noise_pct) row.noise_pct = *a.noise_pct;
      if (b.noise_pct) row.noise_pct = std::max(row.noise_pct.value_or(0.0), *b.noise_pct);
    }
    if (!threshold) return;
    row.threshold_pct = threshold;
    if (a.measured && !b.measured && !excused) {
      row.regression = true;
      comparison_.regressions.push_back(fmt::format("{}: {} {} in the baseline, missing in the candidate ({})", label,
                                                    format_count(a.value), row.unit, gate_text(*threshold)));
      return;
    }
    if (!a.measured || !b.measured || a.value <= 0) return;
    if (row.noise_pct) {
      ++timed_rows_;
      if (*row.noise_pct > *threshold) {
        ++noisier_rows_;
        largest_noise_ = std::max(largest_noise_, *row.noise_pct);
        lowest_threshold_ = std::min(lowest_threshold_.value_or(*threshold), *threshold);
      }
    }
    const double pct = (b.value - a.value) / a.value * 100.0;
    if (pct <= *threshold) return;
    const std::string what = fmt::format("{}: {} -> {} {} ({}", label, format_count(a.value), format_count(b.value),
                                         row.unit, format_delta_pct(a.value, b.value));
    if (row.noise_pct && pct <= *row.noise_pct) {
      row.within_noise = true;
      comparison_.within_noise.push_back(what + ", within noise ±" + format_noise_pct(*row.noise_pct) + ")");
      return;
    }
    row.regression = true;
    comparison_.regressions.push_back(what + ", " + gate_text(*threshold) + ")");
  }

  // One line when a threshold is below the run-to-run noise of timed figures.
  std::optional<std::string> noise_warning() const {
    if (noisier_rows_ == 0) return std::nullopt;
    return fmt::format(
        "the threshold +{}% is below the run-to-run noise of {} of {} timed figures (up to ±{}): changes within a "
        "figure's noise are not called regressions",
        *lowest_threshold_, noisier_rows_, timed_rows_, format_noise_pct(largest_noise_));
  }

 private:
  std::string gate_text(double threshold) const {
    return policy_.file.empty() ? fmt::format("threshold +{}%", threshold)
                                : fmt::format("threshold +{}%, {}", threshold, policy_.file);
  }

  const RegressionPolicy& policy_;
  BundleComparison& comparison_;
  size_t timed_rows_ = 0, noisier_rows_ = 0;
  double largest_noise_ = 0;
  std::optional<double> lowest_threshold_;
};

void config_row(BundleComparison& comparison, const std::string& name, const nlohmann::json& a, const nlohmann::json& b) {
  comparison.config.push_back({name, a, b});
}

// The configuration side by side: what each run was set up with, as its bundle records it.
void compare_configuration(const Bundle& baseline, const Bundle& candidate, BundleComparison& comparison) {
  const MetadataDoc& ma = baseline.metadata;
  const MetadataDoc& mb = candidate.metadata;
  const ResultsDoc& ra = baseline.results;
  const ResultsDoc& rb = candidate.results;
  config_row(comparison, "model.path", ma.model_path, mb.model_path);
  config_row(comparison, "model.sha256", ma.model_sha256.value_or(""), mb.model_sha256.value_or(""));
  config_row(comparison, "target", baseline.summary.target, candidate.summary.target);
  config_row(comparison, "engine.backend", protocol::to_string(ma.backend), protocol::to_string(mb.backend));
  config_row(comparison, "engine.config.ns_ops", ma.ns_ops(), mb.ns_ops());
  config_row(comparison, "engine.config.portable_ops", ma.portable_ops, mb.portable_ops);
  config_row(comparison, "profiling.per_layer", ra.ran_per_instruction_pass(), rb.ran_per_instruction_pass());
  config_row(comparison, "profiling.iterations", ra.iterations, rb.iterations);
  config_row(comparison, "profiling.warmup", ra.warmup, rb.warmup);
  config_row(comparison, "profiling.aggregation", ra.aggregation, rb.aggregation);
  std::vector<std::string> counters_a, counters_b;
  for (const CounterDoc& counter : ra.counters) counters_a.push_back(counter.name);
  for (const CounterDoc& counter : rb.counters) counters_b.push_back(counter.name);
  config_row(comparison, "profiling.counters", counters_a, counters_b);
  config_row(comparison, "etns_version", ma.etns_version, mb.etns_version);
  // What only some runs record (a target's own details, the M55 compiler) is shown when either records it.
  auto optional_row = [&](const std::string& name, const nlohmann::json& a, const nlohmann::json& b) {
    if (!a.is_null() || !b.is_null()) config_row(comparison, name, a, b);
  };
  for (const char* key : {"firmware_sha256", "qemu_version", "cpu", "compiler"}) {
    optional_row(std::string("target.") + key, json_or_null(ma.detail(key)), json_or_null(mb.detail(key)));
  }
  // What estimated the cycles: two models give two different estimates.
  auto cycle_model = [](const MetadataDoc& m) { return m.cycles ? json_or_null(m.cycles->model) : nlohmann::json(); };
  optional_row("cycles.model", cycle_model(ma), cycle_model(mb));
  config_row(comparison, "toolchain", ma.toolchain, mb.toolchain);
  config_row(comparison, "toolchain.host_compiler", ma.host_compiler, mb.host_compiler);
  optional_row("toolchain.target_compiler", json_or_null(ma.target_compiler), json_or_null(mb.target_compiler));
  config_row(comparison, "arena.size", json_or_null(ma.arena.size), json_or_null(mb.arena.size));
  config_row(comparison, "arena.location", json_or_null(ma.arena.location), json_or_null(mb.arena.location));
  config_row(comparison, "arena.weights_location", json_or_null(ma.arena.weights_location),
             json_or_null(mb.arena.weights_location));
  config_row(comparison, "arena.method_arena_size", baseline.summary.memory.method_arena,
             candidate.summary.memory.method_arena);
  config_row(comparison, "arena.temporary_arena_size", baseline.summary.memory.temporary_arena,
             candidate.summary.memory.temporary_arena);
}

FigureRow figure_row(const std::string& name, const std::string& unit, const Figure& a, const Figure& b) {
  FigureRow row;
  row.name = name;
  row.unit = unit;
  row.baseline = a;
  row.candidate = b;
  row.state = state_of(a, b);
  return row;
}

// Refuses two different programs (compare-programs compares an arm/ns
// pair), then anything require_comparable refuses.
void require_same_program(const Bundle& baseline, const Bundle& candidate) {
  const std::string sha_a = baseline.metadata.model_sha256.value_or("");
  const std::string sha_b = candidate.metadata.model_sha256.value_or("");
  if (!sha_a.empty() && !sha_b.empty() && sha_a != sha_b) {
    throw Failure(fmt::format("not comparable: different programs (model SHA-256 {}… vs {}…); use etns "
                              "compare-programs for an arm/ns pair [{}]",
                              sha_a.substr(0, 12), sha_b.substr(0, 12), code_of(Comparability::DifferentModel)));
  }
  require_comparable(baseline, candidate);
}

MetricKind kind_of(const BundleComparison& comparison) {
  return is_time_unit(comparison.unit) ? MetricKind::Time : MetricKind::Instructions;
}

// The run's figures: clean end to end, per-instruction sum, load, rows and
// the memory figures, each gated by the policy.
void compare_run_figures(const Bundle& baseline, const Bundle& candidate, const RegressionPolicy& policy, Gate& gate,
                         BundleComparison& comparison) {
  const bool noisy = is_time_unit(comparison.unit);
  const MetricKind kind = kind_of(comparison);
  const bool pass_a = baseline.results.ran_per_instruction_pass();
  const bool pass_b = candidate.results.ran_per_instruction_pass();
  auto metric_row = [&](const std::string& name, const std::string& unit, const Figure& a, const Figure& b,
                        std::optional<double> threshold, bool timed, bool excused) {
    FigureRow row = figure_row(name, unit, a, b);
    gate.apply(row, name, threshold, timed, excused);
    comparison.metrics.push_back(row);
  };
  const SummaryDoc& sa = baseline.summary;
  const SummaryDoc& sb = candidate.summary;
  metric_row("clean_end_to_end", comparison.unit, figure_of(sa.clean_end_to_end), figure_of(sb.clean_end_to_end),
             policy.threshold_for(kind, "clean_end_to_end"), noisy, false);
  metric_row("per_layer_sum", comparison.unit, per_layer_sum_of(baseline), per_layer_sum_of(candidate),
             policy.threshold_for(kind, "per_layer_sum"), noisy, !pass_b);
  // Beside them, the estimated cycles when either run has the estimate: shown, not gated (the gate is on
  // what is counted or measured).
  if (sa.cycles || sb.cycles) {
    auto clean_cycles = [](const SummaryDoc& s) { return s.cycles ? figure_of(s.cycles->clean_end_to_end) : Figure{}; };
    auto sum_cycles = [](const SummaryDoc& s) {
      return s.cycles && s.cycles->per_layer_sum ? measured(*s.cycles->per_layer_sum) : Figure{};
    };
    metric_row("cycles.clean_end_to_end", kEstimatedCyclesUnit, clean_cycles(sa), clean_cycles(sb), std::nullopt,
               false, false);
    metric_row("cycles.per_layer_sum", kEstimatedCyclesUnit, sum_cycles(sa), sum_cycles(sb), std::nullopt, false,
               false);
  }
  metric_row("load", comparison.unit, measured(static_cast<double>(sa.load)), measured(static_cast<double>(sb.load)),
             std::nullopt, noisy, false);
  metric_row("layers", "rows", pass_a ? measured(static_cast<double>(sa.layers)) : Figure{},
             pass_b ? measured(static_cast<double>(sb.layers)) : Figure{}, std::nullopt, false, false);
  const std::pair<const char*, uint64_t MemoryDoc::*> memory_figures[] = {
      {"planned_arena", &MemoryDoc::planned_arena},
      {"method_arena_used", &MemoryDoc::method_arena_used},
      {"scratch_used", &MemoryDoc::scratch_used},
      {"model_size", &MemoryDoc::model_size}};
  for (const auto& [key, member] : memory_figures) {
    metric_row(std::string("memory.") + key, "bytes", measured(static_cast<double>(sa.memory.*member)),
               measured(static_cast<double>(sb.memory.*member)), policy.threshold_for(MetricKind::Memory, key), false,
               false);
  }
}

// Per instruction, index-aligned, when both runs have the per-instruction
// pass and the same operators in the same order; otherwise an issue says why
// there are no rows.
void compare_instructions(const Bundle& baseline, const Bundle& candidate, const RegressionPolicy& policy, Gate& gate,
                          BundleComparison& comparison) {
  auto issue = [&](Comparability code, const std::string& message) { comparison.issues.push_back({code, message}); };
  const bool pass_a = baseline.results.ran_per_instruction_pass();
  const bool pass_b = candidate.results.ran_per_instruction_pass();
  const std::vector<LayerDoc>& la = baseline.results.layers;
  const std::vector<LayerDoc>& lb = candidate.results.layers;
  comparison.layers_comparable = pass_a && pass_b && la.size() == lb.size();
  for (size_t i = 0; comparison.layers_comparable && i < la.size(); ++i) {
    comparison.layers_comparable = la[i].operator_name == lb[i].operator_name;
  }
  if (!pass_a && !pass_b) {
    issue(Comparability::PerLayerMissing,
          "neither run has a per-instruction pass (per_layer: false): no per-instruction rows");
    return;
  }
  if (!pass_a || !pass_b) {
    issue(Comparability::PerLayerMissing,
          std::string("only the ") + (pass_a ? "baseline" : "candidate") +
              " has a per-instruction pass (per_layer: false in the other): per-instruction rows omitted");
    return;
  }
  if (!comparison.layers_comparable) {
    issue(Comparability::DifferentInstructions, "the instruction sequences differ: per-instruction rows omitted");
    return;
  }
  for (size_t i = 0; i < la.size(); ++i) {
    InstructionRow row{i, la[i].id, lb[i].id, la[i].operator_name,
                       figure_row(la[i].id, comparison.unit, row_figure(la[i]), row_figure(lb[i])), std::nullopt, {}};
    if (la[i].cycles || lb[i].cycles) {
      auto cycles = [](const LayerDoc& layer) { return layer.cycles ? measured(*layer.cycles) : Figure{}; };
      row.cycles = figure_row(la[i].id, kEstimatedCyclesUnit, cycles(la[i]), cycles(lb[i]));
    }
    for (const auto& [name, stats] : la[i].counters) {
      const auto other = lb[i].counters.find(name);
      if (other != lb[i].counters.end()) row.counters.push_back({name, stats.value, other->second.value});
    }
    gate.apply(row.figure, la[i].id + " " + la[i].operator_name, policy.threshold_for(kind_of(comparison), "layers"),
               is_time_unit(comparison.unit), false);
    comparison.layers.push_back(row);
  }
}

}  // namespace

BundleComparison compare_bundles(const Bundle& baseline, const Bundle& candidate, const RegressionPolicy& policy,
                                 size_t top_layers) {
  require_same_program(baseline, candidate);
  BundleComparison comparison;
  comparison.baseline_dir = baseline.dir;
  comparison.candidate_dir = candidate.dir;
  comparison.metric = baseline.summary.metric.name;
  comparison.unit = baseline.summary.metric.unit;
  comparison.target = baseline.summary.target;
  comparison.gated = policy.gates();
  comparison.threshold_pct = policy.default_pct;
  if (!policy.file.empty()) comparison.policy_file = policy.file;
  comparison.top_layers = top_layers;
  for (const Bundle* bundle : {&baseline, &candidate}) {
    if (bundle->manifest.validity == protocol::bundle::kDegraded) {
      comparison.issues.push_back({Comparability::Degraded, bundle->dir + " is degraded"});
    }
  }
  compare_configuration(baseline, candidate, comparison);
  Gate gate(policy, comparison);
  compare_run_figures(baseline, candidate, policy, gate, comparison);
  compare_instructions(baseline, candidate, policy, gate, comparison);
  std::vector<std::string> counters_a = baseline.manifest.counters, counters_b = candidate.manifest.counters;
  std::sort(counters_a.begin(), counters_a.end());
  std::sort(counters_b.begin(), counters_b.end());
  if (counters_a != counters_b) {
    comparison.issues.push_back(
        {Comparability::DifferentCounters,
         "the runs measured different counters: only the counters both measured are compared per instruction"});
  }
  if (const std::optional<std::string> warning = gate.noise_warning()) {
    comparison.warnings.push_back(*warning);
  }
  return comparison;
}

}  // namespace etns::tools
