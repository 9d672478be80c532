#pragma once

// Internal to the profile configuration reader (config.cpp, config_keys.cpp,
// counters.cpp): the merged YAML tree, its limits and its check against the
// key table. Every problem is one "config error: <dotted.key>: <what>" line
// (or "<file>: <what>") with exit code 2.

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tools/common/failure.h"

namespace etns::tools::config_detail {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// Every configuration problem: one line, exit code 2 (usage or configuration).
[[noreturn]] void fail(const std::string& where, const std::string& what);
std::string join(const std::vector<std::string>& items);
bool contains(const std::vector<std::string>& items, const std::string& item);
std::string child_path(const std::string& parent, const std::string& key);

// How a value reads in a message: strings quoted, other scalars as written.
template <typename AnyJson>
std::string describe(const AnyJson& value) {
  if (value.is_string()) return "'" + value.template get<std::string>() + "'";
  if (value.is_object()) return "a mapping";
  if (value.is_array()) return "a list";
  return value.dump();
}

template <typename T>
Json or_null(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

// What one configuration may hold. A real one is a few hundred bytes, a few
// levels deep and under a hundred values; the limits keep a hostile or
// mistaken file (an alias bomb, a recursive alias, /dev/zero) from taking the
// process's memory or stack.
constexpr size_t kMaxConfigBytes = size_t{1} << 20;  // 1 MiB
constexpr size_t kMaxConfigDepth = 32;               // nested mappings and lists
constexpr size_t kMaxConfigValues = 100000;          // after expanding aliases

// A whole regular file of at most kMaxConfigBytes. Anything else (missing, a
// folder, a device, a FIFO, too large) fails naming the path; the type is
// checked with stat before the file is opened, so a FIFO never blocks.
std::string read_text(const std::string& path);

// `text` as written in a file under `base` (or on the command line, base =
// the current folder): absolute and normalised.
std::string absolute_path(const fs::path& base, const std::string& text);

// The config file (optional: "" reads none) merged with the --set overrides,
// as JSON, every path made absolute; sets *config_path to the file's path.
Json load_tree(const std::string& path, const std::vector<std::string>& overrides, std::string* config_path);

// "a positive integer", "a non-negative integer", "an integer >= 3".
std::string integer_kind(int64_t min);

// The merged tree checked against profile_config_keys(): reserved keys, then
// unknown keys (with "did you mean"), then every value's type, range and
// refusals, section by section in table order. Returns every key of the
// table, given or defaulted, in table order (Reserved keys left out).
Json check_against_keys(const Json& root);

}  // namespace etns::tools::config_detail
