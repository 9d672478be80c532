#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "protocol/provider.h"

// The profile configuration: the reference profiler's YAML keys
// (shared/spec/profiler.md §3), validated strictly, with defaults, mapped
// onto etns's targets. docs/profiling.md documents every key.
namespace etns::tools {

// One column a target can measure. On qemu-m55 every counter counts executed
// instructions of one class (the etns QEMU plugin's), except CPU_CYCLES, the
// plugin's estimate of the Cortex-M55's core cycles; on host, wall time.
struct CounterSpec {
  std::string name;         // "INST_RETIRED", "MVE_INST_RETIRED", "CPU_CYCLES", "WALL_NS"
  std::string group;        // "cpu", "mve", "memory"
  std::string source;       // qemu-m55: plugin class ("total", "mve", ..., "cycles") or a sum ("mve_load+mve_store"); host: "wall_ns"
  std::string unit;         // "instructions", "estimated cycles" or "ns"
  std::string description;  // one line: what exactly it counts
  bool is_default = false;  // part of the group's `default` selection
};

// The board profiler's cycle counter. On qemu-m55 it holds the plugin's
// estimate (qemu_plugin/cycle_model.h), in kEstimatedCyclesUnit: never a
// measurement, and never an instruction count.
inline constexpr const char* kCycleCounter = "CPU_CYCLES";
inline constexpr const char* kEstimatedCyclesUnit = "estimated cycles";

// The counters `target` ("qemu-m55" or "host") offers, in catalogue order.
// Throws Failure for an unknown target.
const std::vector<CounterSpec>& counter_catalogue(const std::string& target);

struct ProfileConfig {
  // Every key after defaults and overrides (paths absolute): what the bundle
  // freezes. Keys in schema order; profiling.pmu_counters keeps the given
  // group order, which decides the pass order.
  nlohmann::ordered_json resolved;
  std::string config_path;  // absolute; "" when the run had no file

  // model
  std::string model_path;  // absolute
  std::optional<int64_t> arena_size;
  std::optional<std::string> arena_location;    // "tcm" | "sram"
  std::optional<std::string> weights_location;  // "tcm" | "sram" | "mram"

  // engine (engine.type is always "executorch")
  protocol::Provider backend = protocol::Provider::Arm;
  // engine.config.ns_ops: derived from the backend (a config whose ns_ops
  // disagrees is refused), so the image that runs is the provider recorded.
  bool ns_ops() const { return backend == protocol::Provider::Ns; }
  // engine.config.portable_ops as given ("config"), else the aten:: operators
  // the program's instructions use ("program"; none when it does not load,
  // and the run then says why).
  std::vector<std::string> portable_ops;
  std::string portable_ops_source = "program";  // "program" | "config"
  std::optional<int64_t> planned_arena_size;
  int64_t method_arena_size = 65536;
  int64_t temporary_arena_size = 32768;
  std::optional<int64_t> input_size;
  std::optional<int64_t> output_size;

  // target
  std::string target;     // "qemu-m55" | "host" (from target.board)
  std::string toolchain;  // "arm-none-eabi-gcc", ...
  double run_timeout_s = 900;

  // profiling
  std::vector<std::string> groups;     // in order of first appearance: "cpu", "mve", "memory"
  std::vector<CounterSpec> counters;   // the selection, de-duplicated, bucketed by group in `groups` order
  bool per_layer = true;
  int64_t iterations = 100;
  int64_t warmup = 5;
  std::string aggregation = "median";  // "median" | "mean" | "trimmed"
  // profiling.input: one file per method input, absolute, each as large as
  // its input; empty: every input is all zeros.
  std::vector<std::string> inputs;

  // output
  std::string output_format = "csv";  // "csv" | "json"
  std::string output_dir;             // absolute
  bool detailed = false;
  bool verbose = false;

  // One line per key given that changes nothing on the target:
  // "<source>: <key>: has no effect on target <target>; ignored".
  std::vector<std::string> warnings;
};

// What the configuration takes from the program itself. The configuration
// never loads programs: its caller passes a reader (tools/evidence/runner's
// read_model_facts loads the program unbound, as `etns inspect` does).
struct ModelInput {
  size_t nbytes = 0;
  std::string dtype;  // "float32"
  size_t numel = 0;
};
struct ModelFacts {
  std::vector<std::string> portable_ops;  // the aten:: operators its instructions use, in operator-table order
  std::vector<ModelInput> inputs;         // the method's inputs, in order
};
// The facts of the program at an absolute path; nullopt when it does not
// load, which the run then reports with the runtime's own lines.
using ModelFactsReader = std::function<std::optional<ModelFacts>(const std::string& model_path)>;

// Loads `path` ("" = start from an empty mapping), deep-merges `overrides`
// ("dotted.key=value", value parsed as YAML; list indices not supported),
// rejects unknown keys at any depth, checks types and values, fills defaults,
// and checks profiling.input against the program's inputs (from
// `read_model_facts`, called once when the model file reads). Paths in the file
// are relative to the file's folder; paths in overrides to the current
// folder. Every problem is one line, "config error: <source>:
// <dotted.path>: <what> [(did you mean 'x'?)]", the source being the file or
// "override '<text>'" that wrote the key (problems with a file itself are
// "config error: <file>: <what>"); all of them, in the order found, are
// thrown as one Failure(lines, 2). A file that cannot be read or parsed
// stops at once: nothing else can be checked.
ProfileConfig load_profile_config(const std::string& path, const std::vector<std::string>& overrides,
                                  const ModelFactsReader& read_model_facts);

}  // namespace etns::tools
