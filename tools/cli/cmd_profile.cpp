#include <fmt/format.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "protocol/bundle.h"
#include "tools/evidence/bundle/bundle.h"
#include "tools/cli/commands.h"
#include "tools/cli/progress_line.h"
#include "tools/common/failure.h"
#include "tools/common/text.h"
#include "tools/evidence/config/config.h"
#include "tools/evidence/config/config_keys.h"
#include "tools/evidence/profile/profiler.h"
#include "tools/evidence/runner/model_facts.h"

namespace etns::tools {
namespace {

struct ProfileOptions {
  std::string config;
  std::vector<std::string> overrides;
  std::string out;
  std::vector<std::string> inputs;  // --input, one per method input: profiling.input
  bool list_keys = false;
  bool markdown = false;
};

// The run's one figure: the clean pass's execute() in the run's metric and
// unit, with the spread a timed figure has.
std::string headline(const ProfileConfig& config, const ProfileResult& result) {
  if (result.clean.empty()) return "clean end to end: not measured (the run stopped before the clean pass)";
  const double value = aggregate(result.clean, config.aggregation);
  const std::string how = config.aggregation == "trimmed" ? "trimmed mean" : config.aggregation;
  std::string line = fmt::format("clean end to end: {} {} for one execute() ({}, {} of {} on {}", format_count(value),
                                 result.primary.unit, result.primary.name, how, result.clean.size(), config.target);
  if (result.primary.unit != "ns") return line + ")";
  // Times vary from run to run: the spread as compare's noise measures it.
  const Stats stats = summarize(result.clean);
  const double spread_pct = stats.median > 0 ? 3 * stats.mad / stats.median * 100 : 0;
  return line + fmt::format("; spread ±{:.1f}% = 3 MAD, min {}, max {} ns)", spread_pct, format_count(stats.min),
                            format_count(stats.max));
}

int profile(const ProfileOptions& options) {
  if (options.list_keys) {
    const std::string keys = options.markdown ? key_reference_markdown() : key_listing_text();
    std::fputs(keys.c_str(), stdout);
    return 0;
  }
  if (options.config.empty()) throw Failure("profile: --config is required (or --list-keys)", 2);
  std::vector<std::string> overrides = options.overrides;
  if (!options.out.empty()) overrides.push_back("output.dir=" + options.out);
  // As a YAML flow list of JSON strings, so that any file name reads back as written.
  if (!options.inputs.empty()) overrides.push_back("profiling.input=" + nlohmann::json(options.inputs).dump());
  const ProfileConfig config = load_profile_config(options.config, overrides, read_model_facts);
  for (const std::string& warning : config.warnings) std::fprintf(stderr, "etns: warning: %s\n", warning.c_str());
  check_bundle_destination(config);  // before minutes of measuring, not after
  ProgressLine progress;
  const std::string name = config.model_path.substr(config.model_path.find_last_of('/') + 1);
  progress.show(name + " on " + config.target + ": loading");
  const ProfileResult result = run_profile(config, [&](const std::string& status) {
    progress.show(name + " on " + config.target + ": " + status);
  });
  progress.clear();
  write_bundle(config, result);
  const std::string verdict = validity_of(result.issues);
  std::printf("%s\n", headline(config, result).c_str());
  std::printf("%s: %s on %s, %s: bundle %s\n", verdict.c_str(), name.c_str(), config.target.c_str(),
              protocol::to_string(config.backend), config.output_dir.c_str());
  // A stopped run says why in the runtime's own lines; otherwise each finding
  // is one line on stderr, naming the program.
  if (!result.failure.empty()) throw Failure(result.failure);
  std::fflush(stdout);
  for (const Issue& issue : result.issues) {
    std::fprintf(stderr, "etns: %s: %s %s: %s\n", config.model_path.c_str(), issue.severity.c_str(),
                 issue.code.c_str(), issue.message.c_str());
  }
  return verdict == protocol::bundle::kInvalid ? 1 : 0;
}

}  // namespace

CommandAction add_profile_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("profile", "profile a program per instruction and end to end; write a bundle");
  command->footer(
      "The YAML keys keep the board profiler's names: --list-keys lists every key with its type,\n"
      "default, limits (iterations and warmup have upper bounds, each with its reason) and help;\n"
      "docs/profiling.md has the same table. A config file is a regular file of at most 1 MiB.\n"
      "Every configuration error is reported, one line each, then exit 2; a key that changes\n"
      "nothing on the target (e.g. target.jlink_serial, or timeouts.run on host) warns.\n"
      "target.board: qemu-m55 counts executed instructions with the QEMU plugin, and CPU_CYCLES\n"
      "holds the Cortex-M55 cycles it estimates from them (an estimate, not a measurement);\n"
      "host measures wall-clock nanoseconds. Every input is all zeros unless --input (or\n"
      "profiling.input) gives a file per method input, each exactly the input's size.\n"
      "The last two lines on stdout: the clean end-to-end figure, then the verdict and bundle.\n"
      "Examples:\n"
      "  etns profile --config configs/tier1_arm.yaml\n"
      "  etns profile --config configs/tier1_ns.yaml --set target.board=host --out results/tier1_ns-host\n"
      "  etns profile --config configs/tier1mean_ns.yaml --set profiling.iterations=5 --out results/quick\n"
      "  etns profile --config configs/export_tier1_arm.yaml --input out/export/tier1.input.bin\n"
      "  etns profile --list-keys");
  auto options = std::make_shared<ProfileOptions>();
  command->add_option("--config", options->config, "the YAML configuration (required unless --list-keys)");
  command->add_option("--set", options->overrides, "override one key: dotted.key=value (repeatable)");
  command->add_option("--out", options->out, "bundle folder (overrides output.dir)");
  command->add_option("--input", options->inputs,
                      "input bytes, once per method input in order (overrides profiling.input; default all zeros)");
  CLI::Option* list_keys =
      command->add_flag("--list-keys", options->list_keys, "list every configuration key (type, default, help)");
  command->add_flag("--markdown", options->markdown, "with --list-keys: the Markdown table of docs/profiling.md")
      ->needs(list_keys);
  return [options]() { return profile(*options); };
}

}  // namespace etns::tools
