#include <cstdio>

#include "tools/cli/commands.h"
#include "tools/cli/progress_line.h"
#include "tools/common/failure.h"
#include "tools/profile/bundle.h"
#include "tools/profile/config.h"
#include "tools/profile/profiler.h"

namespace etns::tools {
namespace {

struct ProfileOptions {
  std::string config;
  std::vector<std::string> overrides;
  std::string out;
};

int profile(const ProfileOptions& options) {
  std::vector<std::string> overrides = options.overrides;
  if (!options.out.empty()) overrides.push_back("output.dir=" + options.out);
  const ProfileConfig config = load_profile_config(options.config, overrides);
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
  std::printf("%s: %s on %s, %s: bundle %s\n", verdict.c_str(), name.c_str(), config.target.c_str(),
              config.backend.c_str(), config.output_dir.c_str());
  // A stopped run says why in the runtime's own lines; otherwise each finding
  // is one line on stderr, naming the program.
  if (!result.failure.empty()) throw Failure(result.failure);
  std::fflush(stdout);
  for (const Issue& issue : result.issues) {
    std::fprintf(stderr, "etns: %s: %s %s: %s\n", config.model_path.c_str(), issue.severity.c_str(),
                 issue.code.c_str(), issue.message.c_str());
  }
  return verdict == "invalid" ? 1 : 0;
}

}  // namespace

CommandAction add_profile_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("profile", "profile a program per instruction and end to end; write a bundle");
  command->footer(
      "The YAML keys follow the reference profiler (docs/profiling.md lists them all).\n"
      "target.board: qemu-m55 counts executed instructions (not cycles) with the QEMU plugin;\n"
      "host measures wall-clock nanoseconds. The input is all zeros.\n"
      "Examples:\n"
      "  etns profile --config configs/tier1_arm.yaml\n"
      "  etns profile --config configs/tier1_ns.yaml --set target.board=host --out results/tier1_ns-host\n"
      "  etns profile --config configs/tier1mean_ns.yaml --set profiling.iterations=5 --out results/quick");
  auto options = std::make_shared<ProfileOptions>();
  command->add_option("--config", options->config, "the YAML configuration")->required();
  command->add_option("--set", options->overrides, "override one key: dotted.key=value (repeatable)");
  command->add_option("--out", options->out, "bundle folder (overrides output.dir)");
  return [options]() { return profile(*options); };
}

}  // namespace etns::tools
