#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tools/writers/program/memory_planner.h"
#include "tools/writers/export/tier1_models.h"

namespace etns::tools {

// `etns export`: etns writes its own Tier-1 programs from the quantized
// graphs of tier1_models.h (the evidence models of profiler.md §12) and
// coverage_models.h (one program per Tier-1 case the evidence models leave
// out), converted by graph_to_program.h.
//
// For each model, in order (tier1, tier1mean, the coverage models, then the
// application model dscnn of dscnn_model.h, the whole cortex_m:: path):
// <model>_arm.pte, <model>_ns.pte, and <model>.input.bin, its example input
// (float32, little-endian, in the input's memory order; <model>_ns.input.bin
// too where the ns program reads another memory order: sub_channel). Then manifest.json
// in the shape of the upstream manifest (profiler.md §12.5) with "exporter":
// "etns <version>" where upstream records torch_version, no edge-dialect
// fields (etns has no edge dialect), and for each model also "kind"
// (evidence, coverage or application) and "description", and for each program
// "planned_arena_lower_bound", "channels_last" and "example_input". Every byte depends only on the seed
// and the etns version.

struct ExportedProgram {
  std::string model;  // "tier1"
  Provider provider = Provider::Arm;
  std::string file;            // "tier1_arm.pte"
  std::vector<uint8_t> bytes;  // the .pte
  ReplanReport plan;
};

struct ExportedFile {
  std::string file;  // "tier1.input.bin"
  std::vector<uint8_t> bytes;
};

struct Tier1Export {
  uint64_t seed = kTier1Seed;
  std::vector<ExportedProgram> programs;
  std::vector<ExportedFile> inputs;  // one example input per model
  nlohmann::ordered_json manifest;
};

// Builds every program, example input and the manifest in memory. Any seed
// works; kTier1Seed (20260819) is the evidence page's. Throws Failure (exit
// code 1) when a derived parameter leaves the kernels' range (the message
// names the model and the parameter), when a program breaks an upstream
// export check (profiler.md §12.4: ns names every required cortex_m_ns op,
// arm none, one planned buffer) or does not read back through our loader.
Tier1Export export_tier1(uint64_t seed = kTier1Seed);

// The manifest's file text: 2-space indent, trailing newline.
std::string manifest_text(const Tier1Export& exported);

// Creates `out_dir` when missing. A bad folder (exists but is not a folder,
// cannot be created) throws Failure "--out <dir>: <reason>" with exit code 2.
// The command calls it before building anything, so a bad --out fails at once.
void prepare_export_dir(const std::string& out_dir);

// prepare_export_dir(out_dir), then writes each program, each example input,
// then manifest.json last, each atomically (write_file_atomic). Calls `on_written` with each
// path after it is in place.
void write_tier1_export(const Tier1Export& exported, const std::string& out_dir,
                        const std::function<void(const std::string& path)>& on_written);

}  // namespace etns::tools
