#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/evidence/profile/instruction_chart.h"
#include "tools/evidence/profile/profiler.h"

namespace etns::tools {

struct ReproduceOptions {
  // etns's programs: <model>_arm.pte / <model>_ns.pte pairs (+ an optional
  // manifest.json or *_manifest.json). Empty: etns's own, exported into
  // <out>/programs by reproduce itself.
  std::string models_dir;
  // Optional: the upstream pairs (+ an optional *_manifest.json), profiled
  // beside etns's on the same page.
  std::string upstream_dir;
  // Optional: folders of int8 .tflite models (with <m>.A.input.bin and
  // <m>.A.tensors/ where available), imported and run on qemu-m55 for the
  // page's section on imported models (reproduce_imported.h).
  std::vector<std::string> tflite_dirs;
  // Optional: a golden folder (golden.json and the tensors it lists, as in
  // ../shared/golden): every tensor checked on qemu-m55 for the first screen.
  std::string golden_dir;
  std::string out_dir;  // bundles, report.md and one SVG chart per (source, model)
  std::vector<std::string> targets = {"qemu-m55", "host"};
  int64_t iterations = 25;
  int64_t warmup = 5;
};

// One program pair of a folder.
struct ProgramPair {
  std::string model;  // "tier1"
  std::string arm;    // absolute paths
  std::string ns;
};

// Every <model>_arm.pte with its <model>_ns.pte in `dir`, sorted by model.
// Throws Failure (exit code 2), one line naming `option` and `dir`, when the
// folder is missing or holds no pair.
std::vector<ProgramPair> find_program_pairs(const std::string& dir, const std::string& option);

// The whole evidence page without a board. Checks the folders first (a bad
// --models or --upstream fails before anything is exported or profiled),
// exports etns's own programs when models_dir is empty, then profiles every
// program of every pair of both sources ("etns" and "upstream") on each
// target (the evidence configuration: per instruction and clean,
// iterations/warmup, median) into <out>/<target>/<source>/<program>,
// verifies both firmware images' kernels, benches the programs on QEMU,
// compares each arm/ns pair (rows matched through its own folder's
// manifest) and writes report.md (a summary table, then one section per
// source and model) and <source>_<model>.svg (arm vs ns per instruction).
// Returns the exit code: 0 when every run is valid and every check passes.
int reproduce(const ReproduceOptions& options, const ProgressFn& progress);

}  // namespace etns::tools
