#include <cstdio>
#include <memory>

#include "tools/cli/commands.h"
#include "tools/cli/progress_line.h"
#include "tools/evidence/profile/reproduce.h"

namespace etns::tools {
namespace {

int run_reproduce(const ReproduceOptions& options) {
  ProgressLine progress;
  const int status = reproduce(options, [&](const std::string& line) { progress.show(line); });
  progress.clear();
  std::printf("%s: %s/report.md\n", status == 0 ? "reproduced" : "reproduced with FAILURES", options.out_dir.c_str());
  return status;
}

}  // namespace

CommandAction add_reproduce_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "reproduce", "rebuild the whole evidence page (QEMU counts and estimated cycles, host times)");
  command->footer(
      "Profiles every <model>_arm.pte / <model>_ns.pte pair on qemu-m55 and on host: etns's own\n"
      "programs (exported into <out>/programs, or those of --models) and, with --upstream, the\n"
      "upstream ones beside them. Checks both firmware images' kernels, compares each pair and\n"
      "writes one report.md (at most 400 lines). Its first screen is the answer: tier1_arm, tier1_ns\n"
      "and, with --tflite, the MLPerf Tiny models, input A, each in executed instructions (exact),\n"
      "estimated Cortex-M55 cycles (LLVM 19's M55 model: an estimate, not a measurement), CPI,\n"
      "milliseconds at Apollo510's 96 MHz lp clock and the convolutions' multiply-pipe use, beside\n"
      "TFLite Micro + CMSIS-NN's figures (bench/anchors, made outside this repository), then the\n"
      "cycles an Apollo510 board measured for other stacks. Then arm -> ns (tier1 and dscnn: one\n"
      "execute(), the Tier-1 region, memory, image sizes, host time, ns's error in LSBs) and the\n"
      "details, folded; the long tables go beside the page (bench.md, verify_kernels.txt,\n"
      "imported/operator_types.md); <source>_<model>.svg; bundles go to <out>/<target>/<source>/<program>.\n"
      "With --golden, also checks every upstream golden tensor on qemu-m55 and runs tier1 on golden\n"
      "input A; with --tflite, imports every .tflite of the folder and runs it on qemu-m55.\n"
      "Exit 1 when a run is not valid or a check fails; 2 for a bad folder, before anything runs.\n"
      "Examples: etns reproduce --out out/evidence\n"
      "          etns reproduce --out out/evidence --upstream ../shared/models/tier1\n"
      "          etns reproduce --out out/evidence --upstream ../shared/models/tier1 --golden ../shared/golden \\\n"
      "              --tflite ../shared/models/mlperf-tiny");
  auto options = std::make_shared<ReproduceOptions>();
  options->out_dir = "out/reproduce";
  command->add_option("--models", options->models_dir,
                      "folder with etns's program pairs (default: its own, exported into <out>/programs)");
  command->add_option("--upstream", options->upstream_dir,
                      "folder with upstream program pairs (+ *_manifest.json), profiled beside etns's");
  command->add_option("--tflite", options->tflite_dirs,
                      "folder of int8 .tflite models to import and run on qemu-m55, repeatable (section 'Imported "
                      "TFLite models')");
  command->add_option("--golden", options->golden_dir,
                      "folder of upstream golden tensors (golden.json): checked on qemu-m55 for the first screen")
      ->check(CLI::ExistingDirectory);
  command->add_option("--out", options->out_dir, "output folder (default out/reproduce)");
  command->add_option("--iterations", options->iterations, "measured iterations per pass (default 25)")
      ->check(CLI::PositiveNumber);
  command->add_option("--warmup", options->warmup, "warm-up runs per pass (default 5)")->check(CLI::NonNegativeNumber);
  command->add_option("--target", options->targets, "qemu-m55 and/or host (default both)")
      ->check(one_of({"qemu-m55", "host"}));
  return [options]() { return run_reproduce(*options); };
}

}  // namespace etns::tools
