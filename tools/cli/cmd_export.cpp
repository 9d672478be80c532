#include <cstdio>
#include <memory>
#include <string>

#include "tools/cli/commands.h"
#include "tools/writers/export/exporter.h"

namespace etns::tools {
namespace {

struct ExportCommand {
  std::string out_dir;
  uint64_t seed = kTier1Seed;
};

int run_export_command(const ExportCommand& command) {
  prepare_export_dir(command.out_dir);
  const Tier1Export exported = export_tier1(command.seed);
  size_t next = 0;
  write_tier1_export(exported, command.out_dir, [&](const std::string& path) {
    if (next < exported.programs.size()) {
      const ExportedProgram& p = exported.programs[next++];
      std::printf("wrote %s  %zu bytes  planned arena %llu bytes (lower bound %llu)\n", path.c_str(), p.bytes.size(),
                  static_cast<unsigned long long>(p.plan.arena_bytes),
                  static_cast<unsigned long long>(p.plan.lower_bound_bytes));
    } else {
      std::printf("wrote %s\n", path.c_str());
    }
  });
  return 0;
}

}  // namespace

CommandAction add_export_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("export", "write etns's own Tier-1 programs, example inputs and their manifest");
  command->footer(
      "Builds the evidence models tier1 and tier1mean, the coverage models (relu6, hardtanh,\n"
      "clamp, clamp_min, leaky_relu_0p01, leaky_relu_0p2, sub_channel, mean_c, mean_last) and\n"
      "dscnn (a DS-CNN keyword spotter made of the whole cortex_m:: path) for providers arm and ns\n"
      "from seeded weights and calibration (no PyTorch), plans each program's\n"
      "activations into one arena and writes <model>_arm.pte, <model>_ns.pte, <model>.input.bin\n"
      "(an example input) and manifest.json (the upstream manifest's shape) to --out. The same\n"
      "seed and etns version give the same bytes on every run.\n"
      "Examples: etns export --out out/export\n"
      "          etns export --out out/export --seed 20260819");
  auto c = std::make_shared<ExportCommand>();
  command->add_option("--out", c->out_dir, "output folder (created when missing)")->required();
  command->add_option("--seed", c->seed, "model seed: weights, calibration and example inputs (default 20260819, the evidence page's)");
  return [c]() { return run_export_command(*c); };
}

}  // namespace etns::tools
