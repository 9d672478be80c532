#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tools/export/memory_planner.h"
#include "tools/export/tier1_models.h"

namespace etns::tools {

// `etns export`: etns writes its own Tier-1 programs (profiler.md §12) from
// the quantized graphs of tier1_models.h, converted by graph_to_program.h.
//
// Four programs, in this order: tier1_arm.pte, tier1_ns.pte,
// tier1mean_arm.pte, tier1mean_ns.pte; then manifest.json in the shape of the
// upstream manifest (profiler.md §12.5) with "exporter": "etns <version>"
// where upstream records torch_version, no edge-dialect fields (etns has no
// edge dialect), and for each program also "planned_arena_lower_bound".
// Every byte depends only on the seed and the etns version.

struct ExportedProgram {
  Tier1Model model = Tier1Model::Tier1;
  Provider provider = Provider::Arm;
  std::string file;            // "tier1_arm.pte"
  std::vector<uint8_t> bytes;  // the .pte
  ReplanReport plan;
};

struct Tier1Export {
  uint64_t seed = kTier1Seed;
  std::vector<ExportedProgram> programs;
  nlohmann::ordered_json manifest;
};

// Throws Failure (exit code 2) naming the one seed the models define unless
// `seed` is kTier1Seed.
void check_export_seed(uint64_t seed);

// Builds the four programs and the manifest in memory. The models are defined
// for kTier1Seed only: another seed throws Failure (exit code 2). Throws
// Failure (exit code 1) when a program breaks an upstream export check
// (profiler.md §12.4: ns names every required cortex_m_ns op, arm none, one
// planned buffer) or does not read back through our loader.
Tier1Export export_tier1(uint64_t seed = kTier1Seed);

// The manifest's file text: 2-space indent, trailing newline.
std::string manifest_text(const Tier1Export& exported);

// Creates `out_dir` when missing. A bad folder (exists but is not a folder,
// cannot be created) throws Failure "--out <dir>: <reason>" with exit code 2.
// The command calls it before building anything, so a bad --out fails at once.
void prepare_export_dir(const std::string& out_dir);

// prepare_export_dir(out_dir), then writes each program, then manifest.json
// last, each atomically (write_file_atomic). Calls `on_written` with each
// path after it is in place.
void write_tier1_export(const Tier1Export& exported, const std::string& out_dir,
                        const std::function<void(const std::string& path)>& on_written);

}  // namespace etns::tools
