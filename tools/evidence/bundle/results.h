#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tools/evidence/config/config.h"

// What a profile run measured, before it is written as a bundle.
namespace etns::tools {

// One finding of the validity evaluation. Severity "error" makes the run
// invalid, "warning" degraded.
struct Issue {
  std::string code;      // stable: "run.load_failed", "output.nondeterministic", ...
  std::string severity;  // protocol::bundle::kSeverityError or kSeverityWarning
  std::string message;   // one line for people
  nlohmann::json context = nlohmann::json::object();
};

// protocol::bundle::kValid, kDegraded or kInvalid.
std::string validity_of(const std::vector<Issue>& issues);

struct Stats {
  double median = 0;
  double mean = 0;
  double min = 0;
  double max = 0;
  double mad = 0;  // median absolute deviation from the median: the spread, robust to outliers
};
Stats summarize(const std::vector<uint64_t>& samples);
// The configured reduction: "median" (mean of the middle two for an even
// count), "mean", or "trimmed" (drop one lowest and one highest, then the
// mean; the plain mean below 3 samples).
double aggregate(const std::vector<uint64_t>& samples, const std::string& method);

// One program instruction: samples[c][k] is counter c in measured iteration k.
struct LayerResult {
  std::string id;             // "c0i3"
  std::string operator_name;  // "cortex_m::quantized_mul.out"
  std::vector<std::vector<uint64_t>> samples;
};

// What one method input held in every run: a file's bytes, or zeros.
struct InputRecord {
  std::optional<std::string> file;  // absolute; none for zeros
  size_t size_bytes = 0;
  std::string sha256;  // of the bytes, or "zeros"
};

struct ProfileResult {
  std::string target;                 // "qemu-m55" | "host"
  std::vector<CounterSpec> counters;  // the columns, selection order
  CounterSpec primary;                // INST_RETIRED (qemu-m55) or WALL_NS (host): the headline metric
  std::vector<LayerResult> layers;    // empty when per_layer is off or the load failed
  std::vector<std::vector<uint64_t>> layer_primary;  // [layer][iteration] primary metric
  std::vector<uint64_t> clean;        // primary metric of each clean execute()
  std::vector<std::vector<uint64_t>> clean_counters;  // [counter][iteration], clean pass
  uint64_t load = 0;                  // primary metric of Program::load + Method::load
  std::vector<uint32_t> output_crc32;  // after every measured iteration, both passes
  size_t method_arena_bytes = 0;
  size_t scratch_bytes = 0;
  std::vector<size_t> planned_bytes;
  size_t input_bytes = 0;
  size_t output_bytes = 0;
  std::vector<InputRecord> inputs;  // one per method input; empty when the program did not load
  std::vector<Issue> issues;
  std::string failure;           // the run's error message when it could not complete
  nlohmann::json target_details = nlohmann::json::object();  // qemu version, firmware, host CPU...
  // What estimated CPU_CYCLES (QemuRun::cycle_model), when a QEMU run gave
  // them; empty on the host and when the run stopped before counting.
  std::string cycle_model;
  double duration_s = 0;
};

}  // namespace etns::tools
