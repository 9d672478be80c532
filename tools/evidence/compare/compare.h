#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "protocol/provider.h"
#include "tools/evidence/bundle/bundle.h"
#include "tools/common/text.h"
#include "tools/evidence/compare/regression_policy.h"

namespace etns::tools {

// Why two bundles are not (fully) comparable. Each has a stable code, printed
// with the message and written in compare_summary.json.
enum class Comparability {
  Incomplete,          // "incomplete": a run did not complete (refused)
  Invalid,             // "invalid-run": a run is invalid (refused)
  DifferentModel,      // "different-model": the model SHA-256 values differ (refused by compare)
  DifferentTarget,     // "different-target": qemu-m55 against host (refused)
  DifferentMetric,     // "different-metric": the primary metrics differ (refused)
  DifferentCounters,   // "different-counters": the counter selections differ (only common counters compared)
  PerLayerMissing,     // "per-layer-missing": a run has no per-instruction pass (rows omitted)
  DifferentInstructions,  // "different-instructions": the instruction sequences differ (rows omitted)
  Degraded,            // "degraded-run": a run is degraded (compared, with a warning)
};
const char* code_of(Comparability comparability);

struct ComparabilityIssue {
  Comparability code;
  std::string message;
};

// Throws Failure "not comparable: <message> [<code>]" unless both bundles are
// complete, not invalid, and measure the same thing (target and metric): the
// gate of both comparisons.
void require_comparable(const Bundle& baseline, const Bundle& candidate);

// One side of a compared figure: absent when the run did not measure it, with
// the run-to-run noise of its samples (from their MAD) when its median is above 0.
struct Figure {
  bool measured = false;
  double value = 0;
  std::optional<double> noise_pct;  // 3 × MAD / median × 100
};

// What can honestly be said about a pair of figures.
enum class FigureState { Measured, NotMeasured, NotMeasuredInBaseline, NotMeasuredInCandidate, ZeroInBoth, ZeroInBaseline, ZeroInCandidate };
const char* code_of(FigureState state);  // "measured", "not_measured", ...

struct FigureRow {
  std::string name;  // "clean_end_to_end", "memory.planned_arena", or an instruction id
  std::string unit;
  Figure baseline;
  Figure candidate;
  FigureState state = FigureState::NotMeasured;
  std::optional<double> noise_pct;    // the noisier side's, for a time
  std::optional<double> threshold_pct;  // the gate that applied, when gated
  bool within_noise = false;
  bool regression = false;
};

struct CounterDelta {
  std::string name;
  double baseline = 0;
  double candidate = 0;
};

struct InstructionRow {
  size_t index = 0;
  std::string id;
  std::string candidate_id;
  std::string operator_name;
  FigureRow figure;
  // The estimated cycles (CPU_CYCLES) of the instruction, in
  // kEstimatedCyclesUnit, when either run has them; never gated.
  std::optional<FigureRow> cycles;
  std::vector<CounterDelta> counters;  // the counters both runs measured, by name
};

struct ConfigRow {
  std::string name;  // "profiling.iterations", "toolchain.host_compiler", "arena.location"...
  nlohmann::json baseline;
  nlohmann::json candidate;
  bool same() const { return baseline == candidate; }
};

// compare: two bundles of the same program, typed.
struct BundleComparison {
  std::string baseline_dir;
  std::string candidate_dir;
  std::string metric;
  std::string unit;
  std::string target;
  std::vector<ConfigRow> config;
  std::vector<FigureRow> metrics;
  bool layers_comparable = false;
  std::vector<InstructionRow> layers;
  std::vector<ComparabilityIssue> issues;  // what limits the comparison (warnings)
  bool gated = false;                      // a --threshold or a --policy applied
  std::optional<double> threshold_pct;     // --threshold
  std::optional<std::string> policy_file;  // --policy
  std::vector<std::string> regressions;    // one line each
  std::vector<std::string> within_noise;   // one line each: above the gate but within noise
  std::vector<std::string> warnings;       // one line each, for stderr
  size_t top_layers = 0;                   // Markdown shows only this many rows (0 = all)

  bool passed() const { return regressions.empty(); }
};

// Two bundles of the same program (profiler.md §9): refuses (Failure) when a
// bundle is incomplete or invalid, when the model SHA-256 values differ, or
// when the bundles measure different things (target or metric). Compares the
// configuration, the run metrics (per-instruction sum, clean end to end, load,
// memory; with the cycle estimate in either run, its clean end to end and
// per-instruction sum too, in estimated cycles, shown but never gated) and
// every instruction (and its estimated cycles); a figure a run did not measure
// (per_layer: false) or that is 0 in both is no change, and a zero baseline
// gives no ratio. `policy` gives each figure its gate (regression_policy.h):
// a figure that grew by more than its threshold is a regression, except a
// time (unit ns) that grew by no more than its noise, 3 × the median absolute
// deviation of the noisier run's samples relative to its median: that is
// "within noise", with one warning when a threshold is below the noise.
// A figure whose gate has no value on either side never passes silently: it
// is a regression ("not measured").
BundleComparison compare_bundles(const Bundle& baseline, const Bundle& candidate, const RegressionPolicy& policy,
                                 size_t top_layers = 0);

// The comparison for people (Markdown) and as --json.
std::string comparison_markdown(const BundleComparison& comparison);
nlohmann::json comparison_json(const BundleComparison& comparison);

// `compare --output-dir`: compare_summary.json (everything but the
// instruction rows) and layer_diff.csv (one line per instruction row) in
// `dir`, created if missing (profiler.md §9.4, with values named by the
// metric's unit instead of "cycles").
void write_comparison_files(const BundleComparison& comparison, const std::string& dir);

// compare-programs' result.
struct ComparisonReport {
  nlohmann::json document;  // everything, for --json
  std::string markdown;     // the default output
};

// The parts of an export manifest compare-programs uses: per model and
// provider, the program's SHA-256, its instructions' labels and its planned arena.
struct ManifestProgram {
  std::string model;
  protocol::Provider provider = protocol::Provider::Arm;
  std::string sha256;
  std::map<std::string, std::string> labels;  // instruction id -> operator
  std::optional<double> planned_arena;
};
struct ExportManifest {
  std::vector<ManifestProgram> programs;
};
// Validates `manifest` (from `file`): Failure naming the file and the field
// (a provider other than arm or ns is one).
ExportManifest read_export_manifest(const nlohmann::json& manifest, const std::string& file);

// How one row of compare-programs' table pairs the two programs' instructions.
enum class RowMatch {
  SameOperator,     // "same_operator": one instruction each, the same operator name
  Group,            // "group": the instructions between two same-operator rows, on both sides
  OnlyInBaseline,   // "only_in_baseline": instructions the candidate has nothing for
  OnlyInCandidate,  // "only_in_candidate": instructions the baseline has nothing for
};
const char* code_of(RowMatch match);

struct MatchedRow {
  RowMatch match = RowMatch::SameOperator;
  std::vector<size_t> baseline;   // indices into the baseline's instructions, consecutive
  std::vector<size_t> candidate;  // the same for the candidate
  bool tier1_region = false;      // a group: the candidate's cortex_m_ns:: kernels for the baseline's portable ones
};

// The structural match of two instruction lists (operator names in program
// order). Anchors are the operators both programs run, by identical name
// (portable ones too): a longest common subsequence, and among the longest the
// one with the fewest unmatched stretches, so that an island the candidate
// replaces stays one stretch (the arm `dequantize, leaky_relu, sub, quantize,
// clamp` island against ns's three cortex_m_ns:: kernels). Each stretch between
// consecutive anchors is one row: a group when both sides have instructions
// there, else only in one program. A group is a Tier-1 region when its
// candidate side runs a cortex_m_ns:: operator and its baseline side a
// portable aten:: one (the float island profiler.md §10.4 defines); only those
// two prefixes decide it, never data movement both programs run. Rows are
// in program order and cover every instruction of both lists exactly once.
std::vector<MatchedRow> match_by_structure(const std::vector<std::string>& baseline,
                                           const std::vector<std::string>& candidate);

// Two programs of the same model, the arm then the ns program (profiler.md
// §10); anything else (swapped, the same bundle or program twice, different
// models by the manifest or else the <model>_arm/_ns file names) is refused
// with Failure exit 2. The first line says what was compared. Then the rows
// of match_by_structure, each saying how it was matched, then per-instruction
// sum, clean end to end, each Tier-1 region, each operator one Tier-1 kernel
// replaces one-for-one inside a region, and the planned arena. When both
// bundles carry the cycle estimate (CPU_CYCLES), the rows again in estimated
// cycles and, beside each of those figures but the arena, its estimated
// cycles (the JSON's `cycles`, apart from `metrics`). With the
// export manifest, operator names (and so the match), the SHA-256 check and
// the planned arena come from it; otherwise the names are the bundles' own.
ComparisonReport compare_programs(const Bundle& baseline, const Bundle& candidate,
                                  const std::optional<ExportManifest>& manifest);

// The × of every comparison table and the JSON's `factor`: candidate ÷
// baseline (1.9× is a figure that grew by 90 %, 0.40× one that fell by 60 %);
// none when the baseline is 0.
std::optional<double> factor_of(double baseline, double candidate);

// {baseline, candidate, delta, delta_pct, factor (factor_of)}; null where a
// division by zero would be.
nlohmann::json delta_json(double baseline, double candidate);

// "-21.3%"; the factor_of as "1.9×", "0.40×", "0.0057×" (two significant
// digits below 1, integers from 100×). Counts: format_count (tools/common/text.h).
std::string format_delta_pct(double baseline, double candidate);
std::string format_factor(double baseline, double candidate);
// A noise figure: "4.5%" below 10, "45%" from 10.
std::string format_noise_pct(double pct);

}  // namespace etns::tools
