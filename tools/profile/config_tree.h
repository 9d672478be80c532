#pragma once

// Internal to the profile configuration reader (config.cpp, counters.cpp):
// the merged YAML tree and typed access to it. Every problem is one
// "config error: <dotted.key>: <what>" line with exit code 2.

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tools/common/failure.h"
#include "tools/common/text.h"

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

// A whole text file; a missing or unreadable one fails naming the path.
std::string read_text(const std::string& path);

// `text` as written in a file under `base` (or on the command line, base =
// the current folder): absolute and normalised.
std::string absolute_path(const fs::path& base, const std::string& text);

// The config file (optional: "" reads none) merged with the --set overrides,
// as JSON, every path made absolute; sets *config_path to the file's path.
Json load_tree(const std::string& path, const std::vector<std::string>& overrides, std::string* config_path);

std::string integer_kind(int64_t min);
std::string choice_kind(const std::vector<std::string>& choices);

class Section {
 public:
  Section(const Json& object, std::string path) : object_(object), path_(std::move(path)) {}

  std::string where(const std::string& key) const { return child_path(path_, key); }
  const Json* find(const std::string& key) const {
    const auto found = object_.find(key);
    return found == object_.end() ? nullptr : &*found;
  }
  bool is_set(const std::string& key) const {
    const Json* value = find(key);
    return value != nullptr && !value->is_null();
  }

  // Throws for the first key not in `valid`, suggesting a close one.
  void expect_keys(const std::vector<std::string>& valid) const {
    for (const auto& item : object_.items()) {
      if (contains(valid, item.key())) continue;
      const std::string match = closest_name(item.key(), valid);
      fail(where(item.key()),
           match.empty() ? "unknown key (valid: " + join(valid) + ")" : "unknown key (did you mean '" + match + "'?)");
    }
  }

  // A nested mapping; missing or null reads as empty.
  Section child(const std::string& key) const {
    static const Json kEmpty = Json::object();
    const Json* value = find(key);
    if (value == nullptr || value->is_null()) return Section(kEmpty, where(key));
    if (!value->is_object()) fail(where(key), "expected a mapping, got " + describe(*value));
    return Section(*value, where(key));
  }

  std::optional<bool> optional_boolean(const std::string& key) const {
    const Json* value = find(key);
    if (value == nullptr || value->is_null()) return std::nullopt;
    if (!value->is_boolean()) fail(where(key), "expected true or false, got " + describe(*value));
    return value->get<bool>();
  }
  bool boolean(const std::string& key, bool fallback) const {
    const Json* value = find(key);
    if (value != nullptr && !value->is_boolean()) {
      fail(where(key), "expected true or false, got " + describe(*value));
    }
    return value != nullptr ? value->get<bool>() : fallback;
  }

  std::optional<int64_t> optional_integer(const std::string& key, int64_t min) const {
    const Json* value = find(key);
    if (value == nullptr || value->is_null()) return std::nullopt;
    return checked_integer(*value, key, min, " or null");
  }
  int64_t integer(const std::string& key, int64_t min, int64_t fallback) const {
    const Json* value = find(key);
    return value != nullptr ? checked_integer(*value, key, min, "") : fallback;
  }

  std::optional<std::string> optional_choice(const std::string& key, const std::vector<std::string>& choices) const {
    const Json* value = find(key);
    if (value == nullptr || value->is_null()) return std::nullopt;
    if (!value->is_string() || !contains(choices, value->get<std::string>())) {
      fail(where(key), "expected " + choice_kind(choices) + " or null, got " + describe(*value));
    }
    return value->get<std::string>();
  }
  std::string choice(const std::string& key, const std::vector<std::string>& choices,
                     const std::string& fallback) const {
    const Json* value = find(key);
    if (value == nullptr) return fallback;
    if (!value->is_string() || !contains(choices, value->get<std::string>())) {
      fail(where(key), "expected " + choice_kind(choices) + ", got " + describe(*value));
    }
    return value->get<std::string>();
  }

  // A non-empty string, or null.
  std::optional<std::string> optional_string(const std::string& key, const char* kind = "a non-empty string") const {
    const Json* value = find(key);
    if (value == nullptr || value->is_null()) return std::nullopt;
    if (!value->is_string() || value->get_ref<const std::string&>().empty()) {
      fail(where(key), std::string("expected ") + kind + " or null, got " + describe(*value));
    }
    return value->get<std::string>();
  }
  // Already absolute when given as text (make_paths_absolute).
  std::optional<std::string> optional_path(const std::string& key) const { return optional_string(key, "a path"); }

  // A list of operator names (non-empty strings).
  std::optional<std::vector<std::string>> optional_operator_names(const std::string& key) const {
    const Json* value = find(key);
    if (value == nullptr) return std::nullopt;
    if (!value->is_array()) fail(where(key), "expected a list of operator names, got " + describe(*value));
    std::vector<std::string> names;
    for (size_t i = 0; i < value->size(); ++i) {
      const Json& item = (*value)[i];
      if (!item.is_string() || item.get_ref<const std::string&>().empty()) {
        fail(where(key) + "[" + std::to_string(i) + "]", "expected an operator name, got " + describe(item));
      }
      names.push_back(item.get<std::string>());
    }
    return names;
  }

 private:
  int64_t checked_integer(const Json& value, const std::string& key, int64_t min, const char* or_null) const {
    if (!value.is_number_integer() || value.get<int64_t>() < min) {
      fail(where(key), "expected " + integer_kind(min) + or_null + ", got " + describe(value));
    }
    return value.get<int64_t>();
  }

  const Json& object_;
  std::string path_;
};

}  // namespace etns::tools::config_detail
