#include <cstdio>
#include <filesystem>

#include "tools/cli/commands.h"
#include "tools/cli/progress_line.h"
#include "tools/common/failure.h"
#include "tools/export/exporter.h"
#include "tools/profile/reproduce.h"

namespace etns::tools {
namespace {

// Without --models the page is built from etns's own programs: exported
// (deterministically) into <out>/programs first, so nothing outside this
// repository is needed.
std::string export_own_programs(const std::string& out_dir) {
  const std::string dir = out_dir + "/programs";
  prepare_export_dir(dir);
  write_tier1_export(export_tier1(), dir, [](const std::string&) {});
  return dir;
}

int run_reproduce(ReproduceOptions options) {
  if (options.models_dir.empty()) options.models_dir = export_own_programs(options.out_dir);
  if (!std::filesystem::is_directory(options.models_dir)) {
    throw Failure("no models at " + options.models_dir + " (--models)", 2);
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
      "Without --models it first exports etns's own Tier-1 programs into <out>/programs.\n"
      "Exit 1 when a run is not valid or a check fails.\n"
      "Examples: etns reproduce --out out/evidence\n"
      "          etns reproduce --models ../shared/models/tier1 --out out/evidence-upstream");
  auto options = std::make_shared<ReproduceOptions>();
  options->out_dir = "out/reproduce";
  command->add_option("--models", options->models_dir,
                      "folder with the program pairs (default: etns's own, exported into <out>/programs)");
  command->add_option("--out", options->out_dir, "output folder (default out/reproduce)");
  command->add_option("--iterations", options->iterations, "measured iterations per pass (default 25)")
      ->check(CLI::PositiveNumber);
  command->add_option("--warmup", options->warmup, "warm-up runs per pass (default 5)")->check(CLI::NonNegativeNumber);
  command->add_option("--target", options->targets, "qemu-m55 and/or host (default both)")
      ->check(CLI::IsMember({"qemu-m55", "host"}));
  return [options]() { return run_reproduce(*options); };
}

}  // namespace etns::tools
