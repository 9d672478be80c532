#pragma once

// Internal to the profile configuration reader (config.cpp, config_check.cpp,
// config_keys.cpp, counters.cpp): the merged YAML tree, its limits and its
// check against the key table. Every problem is one "config error: <where>:
// <what>" line with exit code 2.

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tools/common/failure.h"
#include "tools/common/files.h"

namespace etns::tools::config_detail {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// A configuration problem: where (a dotted key, a file or an override) and
// what. Its message is the one line "config error: <where>: <what>"; exit
// code 2 (usage or configuration).
class ConfigProblem : public Failure {
 public:
  ConfigProblem(std::string where, std::string what);
  const std::string& where() const { return where_; }
  const std::string& what_is_wrong() const { return what_; }

 private:
  std::string where_;
  std::string what_;
};

[[noreturn]] void fail(const std::string& where, const std::string& what);

// Every problem of one configuration, in the order found, so that one run
// reports them all. A step that finds a problem stops there; the others run.
class Problems {
 public:
  // Runs `step`; keeps the ConfigProblem it throws. True when it completed.
  template <typename Step>
  bool attempt(Step&& step) {
    try {
      step();
      return true;
    } catch (const ConfigProblem& problem) {
      list_.push_back(problem);
      return false;
    }
  }
  void add(const ConfigProblem& problem) { list_.push_back(problem); }
  bool empty() const { return list_.empty(); }
  const std::vector<ConfigProblem>& all() const { return list_; }
  // Whether a problem was found at the dotted key `path`, inside it, or at a
  // section above it.
  bool touches(const std::string& path) const;

 private:
  std::vector<ConfigProblem> list_;
};
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

// A whole regular file of at most kMaxConfigBytes, read by tools/common's
// read_text_file. Anything else (missing, a folder, a device, a FIFO, too
// large) is a problem naming the path; a FIFO never blocks.
std::string read_text(const std::string& path);
// Why a file could not be read, as a problem words it: "no such file", "a
// FIFO, not a regular file", "1,048,577 bytes; the limit is ...".
std::string read_problem(const ReadFailure& failure);

// `text` as written in a file under `base` (or on the command line, base =
// the current folder): absolute and normalised.
std::string absolute_path(const fs::path& base, const std::string& text);

// Who wrote each part of the merged tree: the file, then each override in
// order; the last one to set a key, or a mapping above it, wins.
class Origins {
 public:
  void add(std::string key, std::string source) { entries_.push_back({std::move(key), std::move(source)}); }
  // The source of the key `where` ("profiling.iterations", "x.y[2]"); "" when none.
  std::string of(const std::string& where) const;

 private:
  std::vector<std::pair<std::string, std::string>> entries_;  // dotted key ("" = everything), source
};

// The config file (optional: "" reads none) merged with the --set overrides,
// as JSON, every path made absolute; sets *config_path to the file's path
// and *origins to who wrote what.
Json load_tree(const std::string& path, const std::vector<std::string>& overrides, std::string* config_path,
               Origins* origins);

// "a positive integer", "a non-negative integer", "an integer >= 3".
std::string integer_kind(int64_t min);

// The merged tree checked against profile_config_keys(): reserved keys, then
// unknown keys (with "did you mean"), then every value's type, range and
// refusals, section by section in table order. Every problem is added to
// `problems` and the key takes its default, so that the check goes on.
// Returns every key of the table, given or defaulted, in table order
// (Reserved keys left out).
Json check_against_keys(const Json& root, Problems& problems);

}  // namespace etns::tools::config_detail
