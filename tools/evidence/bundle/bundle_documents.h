#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "protocol/provider.h"
#include "tools/evidence/bundle/json_field.h"

// The JSON documents of a result bundle (docs/profiling.md, "The bundle"),
// typed. Writers build them once from a run (bundle_from_run.h); to_json gives
// the files' exact content and key order; from_json validates a document
// against its schema and throws Failure naming the file and field
// (json_field.h). Every key to_json writes is required on reading: a value
// that may be absent is written as null (a std::optional here), never left
// out. Readers (compare, compare-programs, reproduce) use the structs, never
// the JSON. The names they share (files, schemas, passes, statuses) are in
// protocol/bundle.h.
namespace etns::tools {

// The statistics of one figure's samples; `value` is the configured aggregation.
struct StatsDoc {
  double value = 0;
  double median = 0;
  double mean = 0;
  double min = 0;
  double max = 0;
  double mad = 0;  // median absolute deviation from the median
  uint64_t samples = 0;
};

struct CounterDoc {
  std::string name;  // "INST_RETIRED", "WALL_NS"
  std::string group;
  std::string unit;  // "instructions" or "ns"
  std::string description;
};

struct IssueDoc {
  std::string code;
  std::string severity;  // protocol::bundle::kSeverityError or kSeverityWarning
  std::string message;
  nlohmann::json context = nlohmann::json::object();
};

struct TopLayerDoc {
  std::string id;
  std::string operator_name;
  double value = 0;
  std::optional<double> pct;
};

struct MemoryDoc {
  uint64_t planned_arena = 0;
  std::vector<uint64_t> planned_buffers;
  int64_t method_arena = 0;  // the configured size
  uint64_t method_arena_used = 0;
  int64_t temporary_arena = 0;
  uint64_t scratch_used = 0;
  uint64_t model_size = 0;
  uint64_t input_size = 0;
  uint64_t output_size = 0;
};

// One region a board must provide; capacity (and free) null when the config reserves nothing fixed.
struct MemoryRegionDoc {
  std::string region;
  std::string consumer;
  std::optional<uint64_t> capacity;
  uint64_t used = 0;
  std::optional<uint64_t> free;
  bool overflow = false;
};

struct BinaryDoc {
  std::string image;
  uint64_t text = 0;
  uint64_t data = 0;
  uint64_t bss = 0;
  uint64_t total = 0;
};

// The board profiler's cycle figures (its total_cycles and clean-window
// average cycles), filled from the QEMU plugin's estimate when the run asked
// for CPU_CYCLES: summary.json `cycles`, written with "estimated": true.
// Estimated, never measured; run_metadata.json `cycles` names the model.
struct CyclesDoc {
  std::string counter;  // "CPU_CYCLES"
  std::string unit;     // "estimated cycles"
  std::optional<double> per_layer_sum;        // Σ rows' cycles; null without the per-instruction pass
  std::optional<StatsDoc> clean_end_to_end;  // one execute(), the clean pass; null when there was none
};

// What estimated the cycles (run_metadata.json `cycles`).
struct CycleEstimateDoc {
  std::string counter;               // "CPU_CYCLES"
  std::optional<std::string> model;  // QemuRun::cycle_model; null when the run stopped before counting
  std::string description;           // what the estimate models and what it cannot see
};

// summary.json, etns.run-summary v1.
struct SummaryDoc {
  std::string target;
  protocol::Provider provider = protocol::Provider::Arm;
  CounterDoc metric;
  std::string aggregation;  // metric.aggregation in the file
  uint64_t layers = 0;
  double per_layer_sum = 0;
  std::optional<StatsDoc> clean_end_to_end;
  uint64_t load = 0;
  std::optional<CyclesDoc> cycles;  // null unless the run asked for CPU_CYCLES (qemu-m55)
  std::vector<TopLayerDoc> top_layers;
  MemoryDoc memory;
  std::vector<MemoryRegionDoc> memory_plan;
  std::optional<BinaryDoc> binary;  // null on the host, which runs no image
  std::string validity;  // protocol::bundle::kValid, kDegraded or kInvalid
  std::vector<IssueDoc> issues;
  std::optional<std::string> failure;
  double duration_s = 0;
};

// Where the run's memory lives and how big the arenas are, as configured.
struct ArenaDoc {
  std::optional<int64_t> size;  // model.arena_size
  std::optional<std::string> location;
  std::optional<std::string> weights_location;
  int64_t method_arena_size = 0;
  int64_t temporary_arena_size = 0;
};

// One method input as every run saw it: a file's bytes, or zeros.
struct InputDoc {
  std::optional<std::string> file;  // null for zeros
  uint64_t size_bytes = 0;
  std::string sha256;  // 64 lowercase hex digits, or "zeros"
};

// run_metadata.json, etns.run-metadata v1.
struct MetadataDoc {
  std::string etns_version;
  std::string run_id;
  std::string timestamp;
  nlohmann::ordered_json config;  // the frozen configuration, as the config reader resolved it
  std::string target;
  nlohmann::json target_details = nlohmann::json::object();  // per target: qemu_version, firmware_sha256, cpu...
  protocol::Provider backend = protocol::Provider::Arm;
  std::vector<std::string> portable_ops;
  std::string portable_ops_source;  // "program" (its instructions' aten:: operators) or "config"
  std::string model_name;
  std::string model_path;
  std::optional<uint64_t> model_size_bytes;  // null when the program was gone at writing
  std::optional<std::string> model_sha256;
  std::vector<InputDoc> inputs;  // one per method input, in order; empty when the program did not load
  std::string toolchain;  // target.toolchain
  std::string host_compiler;
  std::string cmake_version;
  std::optional<std::string> target_compiler;  // null on the host
  ArenaDoc arena;
  std::optional<CycleEstimateDoc> cycles;  // null unless the run asked for CPU_CYCLES

  // provider.ns_ops in the file: it follows the backend (a file whose value
  // disagrees is refused on reading).
  bool ns_ops() const { return backend == protocol::Provider::Ns; }
  // A string of target_details, when the run recorded it.
  std::optional<std::string> detail(const std::string& key) const;
};

struct LayerDoc {
  uint64_t index = 0;
  std::string id;  // "c0i3"
  std::string operator_name;
  double value = 0;
  std::optional<double> pct;
  // The board profiler's row keys: the estimated CPU_CYCLES and their share
  // of the rows' sum, one decimal; null unless the run asked for CPU_CYCLES.
  std::optional<double> cycles;
  std::optional<double> cycles_pct;
  StatsDoc primary;
  std::map<std::string, StatsDoc> counters;  // by counter name
};

struct CleanPassDoc {
  StatsDoc primary;
  std::map<std::string, StatsDoc> counters;
};

// profile_results.json, etns.profile-results v1.
struct ResultsDoc {
  std::string target;
  CounterDoc metric;
  std::vector<CounterDoc> counters;
  std::string aggregation;
  int64_t iterations = 0;
  int64_t warmup = 0;
  std::vector<std::string> passes;  // protocol::bundle::kPassPerInstruction, kPassClean
  std::vector<LayerDoc> layers;
  double per_layer_sum = 0;
  std::optional<CleanPassDoc> clean_end_to_end;
  uint64_t load = 0;
  std::vector<std::string> output_crc32;

  bool ran_per_instruction_pass() const;
};

struct ArtifactDoc {
  std::string path;
  uint64_t size_bytes = 0;
  std::string sha256;
  std::string role;  // protocol::bundle::kRoleCore, kRoleProjection or kRoleReport
};

// manifest.json, etns.result-manifest v1.
struct ManifestDoc {
  std::string run_id;
  std::string timestamp;
  std::string etns_version;
  std::string status;  // protocol::bundle::kStatusComplete or kStatusFailed
  std::string validity;
  std::vector<IssueDoc> issues;
  std::string config_sha256;
  std::string model_sha256;
  std::string board;
  protocol::Provider provider = protocol::Provider::Arm;
  std::string target;
  std::string metric;
  std::vector<std::string> counters;
  std::string aggregation;
  std::vector<ArtifactDoc> artifacts;
};

// The files' content. Integral figures are written as integers.
nlohmann::json to_json(const StatsDoc& stats);
nlohmann::json to_json(const SummaryDoc& summary);
nlohmann::ordered_json to_json(const MetadataDoc& metadata);
nlohmann::json to_json(const ResultsDoc& results);
nlohmann::json to_json(const ManifestDoc& manifest);

// Validated reads: Failure "<file>: <pointer>: <what was expected, what was found>".
SummaryDoc summary_from_json(const JsonField& document);
MetadataDoc metadata_from_json(const JsonField& document);
ResultsDoc results_from_json(const JsonField& document);
ManifestDoc manifest_from_json(const JsonField& document);

// A figure as the files write it: an integer when it is one.
nlohmann::json json_number(double value);

// The value, or null when there is none.
template <typename T>
nlohmann::json json_or_null(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json();
}

}  // namespace etns::tools
