#include <cstdio>

#include "tools/cli/commands.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/evidence/compare/compare.h"

namespace etns::tools {
namespace {

struct CompareOptions {
  std::string baseline;
  std::string candidate;
  std::string manifest;
  bool json = false;
  double threshold_pct = -1;
  std::string policy;
  std::string output_dir;
  size_t top_layers = 0;
};

void print(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

// The two bundle folders, then the other files named: a missing one is a
// usage error (exit 2) naming it.
void require_inputs(const CompareOptions& options, const std::string& other_file) {
  require_folder(options.baseline, "the baseline bundle");
  require_folder(options.candidate, "the candidate bundle");
  if (!other_file.empty()) require_readable(other_file);
}

int compare(const CompareOptions& options) {
  require_inputs(options, options.policy);
  // The gate is read first: a bad policy is a usage error, whatever the bundles hold.
  const RegressionPolicy policy =
      !options.policy.empty() ? load_regression_policy(options.policy)
                              : threshold_policy(options.threshold_pct >= 0 ? std::optional<double>(options.threshold_pct)
                                                                            : std::nullopt);
  const Bundle baseline = read_bundle(options.baseline);
  const Bundle candidate = read_bundle(options.candidate);
  const BundleComparison comparison = compare_bundles(baseline, candidate, policy, options.top_layers);
  if (!options.output_dir.empty()) write_comparison_files(comparison, options.output_dir);
  print(options.json ? comparison_json(comparison).dump(2) + "\n" : comparison_markdown(comparison));
  for (const std::string& line : comparison.warnings) std::fprintf(stderr, "etns: warning: %s\n", line.c_str());
  if (!comparison.passed()) {
    std::string message;
    for (const std::string& line : comparison.regressions) message += (message.empty() ? "" : "\n") + ("regression: " + line);
    throw Failure(message);
  }
  return 0;
}

int compare_programs_command(const CompareOptions& options) {
  require_inputs(options, options.manifest);
  const Bundle baseline = read_bundle(options.baseline);
  const Bundle candidate = read_bundle(options.candidate);
  std::optional<ExportManifest> manifest;
  if (!options.manifest.empty()) {
    try {
      manifest = read_export_manifest(read_json_file(options.manifest), options.manifest);
    } catch (const Failure& failure) {
      throw Failure(failure.what(), 2);  // a bad --manifest is a usage error
    }
  }
  const ComparisonReport report = compare_programs(baseline, candidate, manifest);
  print(options.json ? report.document.dump(2) + "\n" : report.markdown);
  return 0;
}

}  // namespace

CommandAction add_compare_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("compare", "compare two profile bundles of the same program");
  command->footer(
      "Refuses bundles of different programs (model SHA-256), incomplete or invalid ones, and\n"
      "bundles that measure different things (target, metric). Markdown by default.\n"
      "With --threshold, exits 1 when the clean end-to-end figure, the per-instruction sum, a\n"
      "memory figure or any instruction grew by more than that many percent. Times (host wall\n"
      "time) that grew by less than their noise (3 x the MAD of the noisier run's samples, as\n"
      "% of its median) are 'within noise', not regressions, with one warning when the\n"
      "threshold is below that noise; instruction counts and bytes are exact and always\n"
      "gated. A figure absent or 0 in both shows '—'.\n"
      "--policy FILE gives each figure its own threshold instead (YAML or JSON; see\n"
      "configs/regression_policy.yaml and docs/profiling.md). A gated figure the baseline has\n"
      "and the candidate lacks is a regression.\n"
      "--output-dir DIR writes compare_summary.json and layer_diff.csv; --top-layers N prints\n"
      "the N largest instruction changes only.\n"
      "Examples: etns compare results/tier1_arm.before results/tier1_arm --threshold 1\n"
      "          etns compare results/tier1_arm.before results/tier1_arm --policy configs/regression_policy.yaml");
  auto options = std::make_shared<CompareOptions>();
  command->add_option("baseline", options->baseline, "baseline bundle folder")->required();
  command->add_option("candidate", options->candidate, "candidate bundle folder")->required();
  command->add_flag("--json", options->json, "print JSON instead of Markdown");
  CLI::Option* threshold =
      command->add_option("--threshold", options->threshold_pct, "regression threshold in percent, for every figure")
          ->check(CLI::NonNegativeNumber);
  command->add_option("--policy", options->policy, "regression policy file: a threshold per figure (YAML or JSON)")
      ->excludes(threshold);
  command->add_option("--output-dir", options->output_dir,
                      "also write compare_summary.json and layer_diff.csv (every instruction row) there");
  command->add_option("--top-layers", options->top_layers,
                      "print only the N instruction rows with the largest |change| (default: every row)")
      ->check(CLI::PositiveNumber);
  return [options]() { return compare(*options); };
}

CommandAction add_compare_programs_command(CLI::App& app) {
  CLI::App* command =
      app.add_subcommand("compare-programs", "compare the arm and ns programs of one model, instruction by instruction");
  command->footer(
      "Prints the evidence tables: every instruction in rows matched by structure (same operator,\n"
      "group, only in one program), then the per-instruction sum, clean end to end, the Tier-1\n"
      "regions (groups where ns runs a cortex_m_ns:: kernel) and the planned arena, with delta %\n"
      "and × (ns ÷ arm).\n"
      "--manifest (the export manifest) checks each program's SHA-256 and names instructions.\n"
      "Refuses (exit 2) anything but the arm then the ns program of one model: swapped, the same\n"
      "bundle or program twice, two models (by the manifest, else by <model>_arm/_ns file names).\n"
      "The first line says what was compared.\n"
      "Example: etns compare-programs results/tier1_arm results/tier1_ns --manifest tier1_manifest.json");
  auto options = std::make_shared<CompareOptions>();
  command->add_option("baseline", options->baseline, "baseline bundle folder (the arm program)")->required();
  command->add_option("candidate", options->candidate, "candidate bundle folder (the ns program)")->required();
  command->add_option("--manifest", options->manifest, "export manifest (tier1_manifest.json)");
  command->add_flag("--json", options->json, "print JSON instead of Markdown");
  return [options]() { return compare_programs_command(*options); };
}

}  // namespace etns::tools
