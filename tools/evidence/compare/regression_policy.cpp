#include "tools/evidence/compare/regression_policy.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <vector>

#include "tools/common/failure.h"
#include "tools/common/text.h"

namespace etns::tools {
namespace {

const std::vector<std::string> kRunFigures = {"clean_end_to_end", "per_layer_sum", "layers"};
const std::vector<std::string> kMemoryFigures = {"planned_arena", "method_arena_used", "scratch_used", "model_size"};
const std::vector<std::string> kSections = {"instructions", "time", "memory", "default"};

[[noreturn]] void refuse(const std::string& file, const std::string& key, const std::string& what) {
  throw Failure(fmt::format("{}: {}: {}", file, key, what), 2);
}

std::string unknown_key(const std::string& typed, const std::vector<std::string>& names) {
  const std::string near = closest_name(typed, names);
  std::string known;
  for (const std::string& name : names) known += (known.empty() ? "" : ", ") + name;
  return near.empty() ? fmt::format("unknown key (expected one of {})", known)
                      : fmt::format("unknown key (did you mean '{}'?)", near);
}

double percentage(const std::string& file, const std::string& key, const YAML::Node& node) {
  double value = -1;
  bool number = node.IsScalar();
  if (number) {
    try {
      value = node.as<double>();
    } catch (const YAML::Exception&) {
      number = false;
    }
  }
  if (!number || !std::isfinite(value) || value < 0) {
    const std::string found = node.IsScalar() ? "'" + node.Scalar() + "'" : node.IsNull() ? "null" : "a collection";
    refuse(file, key, "expected a percentage >= 0, found " + found);
  }
  return value;
}

std::map<std::string, double> section(const std::string& file, const std::string& name, const YAML::Node& node,
                                      const std::vector<std::string>& figures) {
  if (!node.IsMap()) refuse(file, name, "expected a mapping of figure: percentage");
  std::map<std::string, double> thresholds;
  for (const auto& entry : node) {
    const std::string key = entry.first.as<std::string>();
    const std::string path = name + "." + key;
    if (std::find(figures.begin(), figures.end(), key) == figures.end()) refuse(file, path, unknown_key(key, figures));
    thresholds[key] = percentage(file, path, entry.second);
  }
  return thresholds;
}

}  // namespace

std::optional<double> RegressionPolicy::threshold_for(MetricKind kind, const std::string& figure) const {
  const std::map<std::string, double>& table =
      kind == MetricKind::Instructions ? instructions_pct : kind == MetricKind::Time ? time_pct : memory_pct;
  const auto found = table.find(figure);
  if (found != table.end()) return found->second;
  return default_pct;
}

bool RegressionPolicy::gates() const {
  return default_pct || !instructions_pct.empty() || !time_pct.empty() || !memory_pct.empty();
}

RegressionPolicy threshold_policy(std::optional<double> pct) {
  RegressionPolicy policy;
  policy.default_pct = pct;
  return policy;
}

RegressionPolicy load_regression_policy(const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw Failure("--policy " + path + ": cannot read the file", 2);
  } catch (const YAML::Exception& error) {
    throw Failure(fmt::format("{}: line {}: not valid YAML or JSON ({})", path, error.mark.line + 1, error.msg), 2);
  }
  if (!root.IsMap()) refuse(path, "/", "expected a mapping with instructions, time, memory or default");
  RegressionPolicy policy;
  policy.file = path;
  for (const auto& entry : root) {
    const std::string key = entry.first.as<std::string>();
    if (key == "instructions") {
      policy.instructions_pct = section(path, key, entry.second, kRunFigures);
    } else if (key == "time") {
      policy.time_pct = section(path, key, entry.second, kRunFigures);
    } else if (key == "memory") {
      policy.memory_pct = section(path, key, entry.second, kMemoryFigures);
    } else if (key == "default") {
      policy.default_pct = percentage(path, key, entry.second);
    } else {
      refuse(path, key, unknown_key(key, kSections));
    }
  }
  if (!policy.gates()) refuse(path, "/", "no threshold: give at least one of instructions, time, memory or default");
  return policy;
}

}  // namespace etns::tools
