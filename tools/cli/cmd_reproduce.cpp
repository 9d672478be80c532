#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "tools/cli/commands.h"
#include "tools/cli/progress_line.h"
#include "tools/common/failure.h"
#include "tools/profile/reproduce.h"

namespace etns::tools {
namespace {

// $ETNS_SHARED_DIR/models/tier1, else the shared folder this build was configured with.
std::string default_models_dir() {
  const char* shared = std::getenv("ETNS_SHARED_DIR");
  const std::string root = shared != nullptr && *shared != '\0' ? shared : ETNS_DEFAULT_SHARED_DIR;
  return root + "/models/tier1";
}

int run_reproduce(ReproduceOptions options) {
  if (options.models_dir.empty()) options.models_dir = default_models_dir();
  if (!std::filesystem::is_directory(options.models_dir)) {
    throw Failure("no models at " + options.models_dir + " (pass --models DIR or set ETNS_SHARED_DIR)", 2);
  }
  ProgressLine progress;
  const int status = reproduce(options, [&](const std::string& line) { progress.show(line); });
  progress.clear();
  std::printf("%s: %s/report.md\n", status == 0 ? "reproduced" : "reproduced with FAILURES", options.out_dir.c_str());
  return status;
}

}  // namespace

CommandAction add_reproduce_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("reproduce", "rebuild the whole evidence page (QEMU counts, host times)");
  command->footer(
      "Profiles every <model>_arm.pte / <model>_ns.pte pair on qemu-m55 and on host, checks both\n"
      "firmware images' kernels, compares each pair and writes report.md and <model>.svg.\n"
      "Exit 1 when a run is not valid or a check fails.\n"
      "Example: etns reproduce --out out/evidence");
  auto options = std::make_shared<ReproduceOptions>();
  options->out_dir = "out/reproduce";
  command->add_option("--models", options->models_dir, "folder with the program pairs (default: ../shared/models/tier1)");
  command->add_option("--out", options->out_dir, "output folder (default out/reproduce)");
  command->add_option("--iterations", options->iterations, "measured iterations per pass (default 25)")
      ->check(CLI::PositiveNumber);
  command->add_option("--warmup", options->warmup, "warm-up runs per pass (default 5)")->check(CLI::NonNegativeNumber);
  command->add_option("--target", options->targets, "qemu-m55 and/or host (default both)")
      ->check(CLI::IsMember({"qemu-m55", "host"}));
  return [options]() { return run_reproduce(*options); };
}

}  // namespace etns::tools
