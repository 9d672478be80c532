// check_against_keys (config_tree.h): the key table (config_keys.cpp)
// applied to a merged configuration tree.
#include <fmt/format.h>

#include <algorithm>

#include "tools/common/text.h"
#include "tools/evidence/config/config_keys.h"
#include "tools/evidence/config/config_tree.h"

namespace etns::tools::config_detail {
namespace {

std::string parent_of(const std::string& path) {
  const size_t dot = path.rfind('.');
  return dot == std::string::npos ? "" : path.substr(0, dot);
}

std::string leaf_of(const std::string& path) { return path.substr(path.rfind('.') + 1); }

std::vector<const KeySpec*> keys_in(const std::string& section) {
  std::vector<const KeySpec*> keys;
  for (const KeySpec& spec : profile_config_keys()) {
    if (parent_of(spec.path) == section) keys.push_back(&spec);
  }
  return keys;
}

std::vector<std::string> keys_named(const std::vector<const KeySpec*>& keys, KeyType type) {
  std::vector<std::string> names;
  for (const KeySpec* spec : keys) {
    if (spec->type == type) names.push_back(leaf_of(spec->path));
  }
  return names;
}

bool contains_value(const std::vector<Json>& values, const Json& value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

std::string with_value(const std::string& message, const Json& value) {
  std::string out = message;
  const size_t slot = out.find("{}");
  if (slot != std::string::npos) out.replace(slot, 2, value.is_string() ? value.get<std::string>() : value.dump());
  return out;
}

[[noreturn]] void fail_type(const KeySpec& spec, const std::string& kind, const Json& value) {
  // Booleans never said "or null": the messages predate the table.
  const bool or_null = spec.nullable && spec.type != KeyType::Boolean;
  fail(spec.path, "expected " + kind + (or_null ? " or null" : "") + ", got " + describe(value));
}

Json check_section(const Json& given, const std::string& section, Problems& problems);

// A section's keys are checked one by one, every problem kept.
Json check_value(const KeySpec& spec, const Json* given, Problems& problems) {
  if (spec.type == KeyType::Section) {
    static const Json kEmpty = Json::object();
    if (given == nullptr || given->is_null()) return check_section(kEmpty, spec.path, problems);
    if (!given->is_object()) {
      problems.add(ConfigProblem(spec.path, "expected a mapping, got " + describe(*given)));
      return check_section(kEmpty, spec.path, problems);
    }
    return check_section(*given, spec.path, problems);
  }
  if (given == nullptr) return spec.fallback;
  const Json& value = *given;
  if (value.is_null() && (spec.nullable || spec.type == KeyType::Unsupported)) return nullptr;
  if (spec.type == KeyType::Unsupported) fail(spec.path, spec.help);
  for (const Refusal& refusal : spec.refusals) {
    for (const Json& refused : refusal.values) {
      if (value == refused) fail(spec.path, with_value(refusal.message, value));
    }
  }
  const bool is_text = value.is_string() && !value.get_ref<const std::string&>().empty();
  switch (spec.type) {
    case KeyType::Boolean:
      if (!value.is_boolean()) fail_type(spec, expected_kind(spec), value);
      return value;
    case KeyType::Integer: {
      if (!value.is_number_integer() || value.get<int64_t>() < spec.min) {
        fail_type(spec, integer_kind(spec.min), value);
      }
      const int64_t number = value.get<int64_t>();
      if (number > spec.max) {
        fail(spec.path, fmt::format("{} is above the limit of {} ({})", number, spec.max, spec.max_reason));
      }
      if (!spec.choices.empty() && !contains_value(spec.choices, value)) {
        fail(spec.path, "expected " + expected_kind(spec) + " (" + spec.unit + "), got " + describe(value));
      }
      return value;
    }
    case KeyType::Serial:
      if (value.is_number_integer()) return std::to_string(value.get<int64_t>());
      if (!is_text) fail_type(spec, expected_kind(spec), value);
      return value;
    case KeyType::String:
    case KeyType::Path:
      if (!is_text) fail_type(spec, expected_kind(spec), value);
      return value;
    case KeyType::PathList: {
      // One path reads as a list of one.
      const Json list = value.is_array() ? value : Json::array({value});
      if (list.empty()) fail_type(spec, expected_kind(spec), value);
      for (size_t i = 0; i < list.size(); ++i) {
        const Json& item = list[i];
        if (!item.is_string() || item.get_ref<const std::string&>().empty()) {
          if (!value.is_array()) fail_type(spec, expected_kind(spec), value);
          fail(spec.path + "[" + std::to_string(i) + "]", "expected a path, got " + describe(item));
        }
      }
      return list;
    }
    case KeyType::Choice:
      if (!is_text) fail_type(spec, expected_kind(spec), value);
      if (!contains_value(spec.choices, value)) {
        if (!spec.other.empty()) fail(spec.path, with_value(spec.other, value));
        fail_type(spec, expected_kind(spec), value);
      }
      return value;
    case KeyType::OperatorList:
      if (!value.is_array()) fail_type(spec, expected_kind(spec), value);
      for (size_t i = 0; i < value.size(); ++i) {
        const Json& item = value[i];
        if (!item.is_string() || item.get_ref<const std::string&>().empty()) {
          fail(spec.path + "[" + std::to_string(i) + "]", "expected an operator name, got " + describe(item));
        }
      }
      return value;
    case KeyType::Mapping:
    case KeyType::CounterSelection:
      if (!value.is_object()) fail_type(spec, expected_kind(spec), value);
      return value;
    case KeyType::Section:
    case KeyType::Unsupported:
    case KeyType::Reserved:
      break;
  }
  fail(spec.path, "not settable");
}

// Reserved keys first, then unknown ones, then every value in table order.
// A key with a problem takes its default, so that the rules across keys can
// still run on the others.
Json check_section(const Json& given, const std::string& section, Problems& problems) {
  const std::vector<const KeySpec*> keys = keys_in(section);
  std::vector<std::string> valid;
  for (const KeySpec* spec : keys) {
    const std::string leaf = leaf_of(spec->path);
    if (spec->type != KeyType::Reserved) {
      valid.push_back(leaf);
    } else if (given.contains(leaf)) {
      problems.add(ConfigProblem(spec->path, spec->help));
    }
  }
  for (const auto& item : given.items()) {
    if (contains(valid, item.key()) || contains(keys_named(keys, KeyType::Reserved), item.key())) continue;
    const std::string match = closest_name(item.key(), valid);
    problems.add(ConfigProblem(child_path(section, item.key()), match.empty()
                                                                    ? "unknown key (valid: " + join(valid) + ")"
                                                                    : "unknown key (did you mean '" + match + "'?)"));
  }
  Json resolved = Json::object();
  for (const KeySpec* spec : keys) {
    if (spec->type == KeyType::Reserved) continue;
    const auto found = given.find(leaf_of(spec->path));
    Json& value = resolved[leaf_of(spec->path)];
    if (!problems.attempt([&] { value = check_value(*spec, found == given.end() ? nullptr : &*found, problems); })) {
      value = spec->fallback;
    }
  }
  return resolved;
}

}  // namespace

Json check_against_keys(const Json& root, Problems& problems) { return check_section(root, "", problems); }

}  // namespace etns::tools::config_detail
