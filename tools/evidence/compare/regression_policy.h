#pragma once

#include <map>
#include <optional>
#include <string>

// The gates of `etns compare`: a threshold in percent per figure, from
// --threshold (one for every figure) or a policy file (--policy; YAML or
// JSON, documented in docs/profiling.md, example configs/regression_policy.yaml):
//
//   instructions:            # bundles whose metric counts instructions (qemu-m55)
//     clean_end_to_end: 0
//     per_layer_sum: 0
//     layers: 0              # every instruction row
//   time:                    # bundles whose metric is a time (host WALL_NS): noise applies
//     clean_end_to_end: 10
//   memory:                  # bytes, on either target
//     planned_arena: 0
//   default: 5               # every figure the sections above leave out (optional)
//
// A figure without a threshold is not gated.
namespace etns::tools {

enum class MetricKind { Instructions, Time, Memory };

struct RegressionPolicy {
  std::string file;                   // the policy file; "" for --threshold or no gate
  std::optional<double> default_pct;  // --threshold, or the file's `default`
  std::map<std::string, double> instructions_pct;
  std::map<std::string, double> time_pct;
  std::map<std::string, double> memory_pct;

  // The threshold of `figure` ("clean_end_to_end", "per_layer_sum", "layers";
  // for memory "planned_arena", "method_arena_used", "scratch_used", "model_size").
  std::optional<double> threshold_for(MetricKind kind, const std::string& figure) const;
  bool gates() const;
};

// One threshold for every figure (--threshold), or no gate at all.
RegressionPolicy threshold_policy(std::optional<double> pct);

// Reads and validates a policy file. Every problem throws Failure(message, 2),
// one line naming the file and the key: "<file>: time.layer: unknown key (did
// you mean 'layers'?)", "<file>: memory.planned_arena: expected a percentage >= 0".
RegressionPolicy load_regression_policy(const std::string& path);

}  // namespace etns::tools
