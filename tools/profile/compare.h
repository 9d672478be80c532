#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tools/profile/bundle.h"

namespace etns::tools {

struct ComparisonReport {
  nlohmann::json document;               // everything, for --json
  std::string markdown;                  // the default output
  std::vector<std::string> regressions;  // one line each, beyond the threshold
  std::vector<std::string> warnings;     // one line each, for stderr
};

// Two bundles of the same program (profiler.md §9): refuses (Failure) when a
// bundle is incomplete or invalid, when the model SHA-256 values differ, or
// when the bundles measure different things (target or metric). Compares the
// configuration, the run metrics (per-instruction sum, clean end to end, load,
// memory) and every instruction (absolute, %, ×); a figure a run did not
// measure (per_layer: false) or that is 0 in both is no change, and a zero
// baseline gives no ratio. With a threshold, a metric or instruction that grew
// by more than `threshold_pct` % is a regression, except a time (unit ns) that
// grew by no more than its noise, 3 × the median absolute deviation of the
// noisier run's samples relative to its median: that is "within noise", with
// one warning when the threshold is below the noise. Counts (instructions,
// bytes) are exact gates.
// `top_layers` > 0 prints only that many instruction rows, the largest
// |change| first (the JSON keeps every row).
ComparisonReport compare_bundles(const Bundle& baseline, const Bundle& candidate,
                                 std::optional<double> threshold_pct, size_t top_layers = 0);

// `compare --output-dir`: compare_summary.json (everything but the
// instruction rows) and layer_diff.csv (one line per instruction row) in
// `dir`, created if missing (profiler.md §9.4, with values named by the
// metric's unit instead of "cycles").
void write_comparison_files(const ComparisonReport& report, const std::string& dir);

// Two programs of the same model, the arm then the ns program (profiler.md
// §10); anything else (swapped, the same bundle or program twice, different
// models by the manifest or else the <model>_arm/_ns file names) is refused
// with Failure exit 2. The first line says what was compared. Rows side
// by side, then per-instruction sum, clean end to end, the Tier-1 region and
// the planned arena. Instructions are matched through the export manifest
// when given (labels, SHA-256 check, planned arena), otherwise the labels are
// the bundles' own. The Tier-1 region comes from the programs' structure: the
// cortex_m:: instructions both share align (a longest common subsequence in
// which an aten:: operator also pairs with the cortex_m_ns:: operator that
// replaces it), and the region is every stretch between aligned cortex_m::
// instructions where the baseline runs portable (aten::) kernels.
ComparisonReport compare_programs(const Bundle& baseline, const Bundle& candidate,
                                  const std::optional<nlohmann::json>& manifest);

// Throws Failure unless both bundles are complete, not invalid, and measure
// the same thing (target and metric): the gate of both comparisons.
void require_comparable(const Bundle& baseline, const Bundle& candidate);

// {baseline, candidate, delta, delta_pct, factor (baseline / candidate)};
// null where a division by zero would be.
nlohmann::json delta_json(double baseline, double candidate);

// "1,005,563"; "-21.3%"; "2.5×" (integers from 100×).
std::string format_count(double value);
std::string format_delta_pct(double baseline, double candidate);
std::string format_factor(double baseline, double candidate);

}  // namespace etns::tools
