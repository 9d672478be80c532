#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/profile/profiler.h"

namespace etns::tools {

struct ReproduceOptions {
  std::string models_dir;  // holds <model>_arm.pte and <model>_ns.pte pairs (+ an optional *_manifest.json)
  std::string out_dir;     // bundles, report.md and one SVG chart per model
  std::vector<std::string> targets = {"qemu-m55", "host"};
  int64_t iterations = 25;
  int64_t warmup = 5;
};

// The whole evidence page without a board: profiles every program of every
// pair on each target (the evidence configuration: per instruction and clean,
// iterations/warmup, median), verifies both firmware images' kernels,
// compares each arm/ns pair, and writes report.md with the tables (counts on
// QEMU, time on the host) and <model>.svg (arm vs ns per instruction).
// Returns the exit code: 0 when every run is valid and every check passes.
int reproduce(const ReproduceOptions& options, const ProgressFn& progress);

// A horizontal bar chart, one bar per instruction of both programs (SVG 1.1).
std::string instruction_chart_svg(const std::string& title, const std::string& unit,
                                  const std::vector<std::string>& baseline_labels,
                                  const std::vector<double>& baseline_values,
                                  const std::vector<std::string>& candidate_labels,
                                  const std::vector<double>& candidate_values);

}  // namespace etns::tools
