#include "tools/profile/config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <utility>

#include "protocol/counter_classes.h"
#include "tools/common/failure.h"
#include "tools/common/sha256.h"
#include "tools/common/text.h"

namespace etns::tools {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

constexpr const char* kSidecarSchema = "nsx-executorch.pte-manifest/1";

// Every configuration problem: one line, exit code 2 (usage or configuration).
[[noreturn]] void fail(const std::string& where, const std::string& what) {
  std::string line = "config error: " + where + ": " + what;
  std::replace(line.begin(), line.end(), '\n', ' ');
  throw Failure(line, 2);
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

bool contains(const std::vector<std::string>& items, const std::string& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

std::string child_path(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

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

// ---------------------------------------------------------------------------
// YAML to JSON. Plain scalars follow the YAML 1.2 core schema (`25` is an
// integer, `true` a boolean, `~` null; `yes` and `on` stay strings); quoted
// scalars are always strings.

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
bool is_core_float(const std::string& text) {
  size_t i = 0;
  const size_t n = text.size();
  if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
  size_t digits = 0;
  while (i < n && is_digit(text[i])) ++i, ++digits;
  if (i < n && text[i] == '.') {
    for (++i; i < n && is_digit(text[i]); ++i) ++digits;
  }
  if (digits == 0) return false;
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
    size_t exponent_digits = 0;
    while (i < n && is_digit(text[i])) ++i, ++exponent_digits;
    if (exponent_digits == 0) return false;
  }
  return i == n;
}

Json plain_scalar(const std::string& text) {
  if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") return nullptr;
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  const char* const end = text.data() + text.size();
  const size_t sign = text[0] == '+' || text[0] == '-' ? 1 : 0;
  if (text.size() > sign && std::all_of(text.begin() + sign, text.end(), is_digit)) {
    int64_t value = 0;
    const auto parsed = std::from_chars(text.data() + (text[0] == '+' ? 1 : 0), end, value);
    if (parsed.ec == std::errc() && parsed.ptr == end) return value;
    return text;  // out of range: left as text, so type checks name it
  }
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'o' || text[1] == 'x')) {
    uint64_t value = 0;
    const auto parsed = std::from_chars(text.data() + 2, end, value, text[1] == 'o' ? 8 : 16);
    if (parsed.ec == std::errc() && parsed.ptr == end && value <= uint64_t{INT64_MAX}) {
      return static_cast<int64_t>(value);
    }
    return text;
  }
  if (is_core_float(text)) return std::strtod(text.c_str(), nullptr);
  return text;
}

Json from_yaml(const YAML::Node& node, const std::string& where) {
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      return nullptr;
    case YAML::NodeType::Scalar: {
      // "?" marks a plain scalar; core-schema tags (!!int, ...) resolve the
      // same way; "!" (quoted), !!str and local tags keep the text.
      const std::string& tag = node.Tag();
      const bool resolve = tag == "?" || (tag.rfind("tag:yaml.org,2002:", 0) == 0 && tag != "tag:yaml.org,2002:str");
      return resolve ? plain_scalar(node.Scalar()) : Json(node.Scalar());
    }
    case YAML::NodeType::Sequence: {
      Json list = Json::array();
      for (size_t i = 0; i < node.size(); ++i) {
        list.push_back(from_yaml(node[i], where + "[" + std::to_string(i) + "]"));
      }
      return list;
    }
    case YAML::NodeType::Map: {
      Json object = Json::object();
      for (const auto& entry : node) {
        if (!entry.first.IsScalar() && !entry.first.IsNull()) {
          fail(where.empty() ? "top level" : where, "mapping keys must be plain names");
        }
        const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : "";
        const std::string path = child_path(where, key);
        if (object.contains(key)) fail(path, "duplicate key");
        object[key] = from_yaml(entry.second, path);
      }
      return object;
    }
  }
  return nullptr;
}

std::string yaml_problem(const YAML::Exception& error) {
  if (error.mark.is_null()) return error.msg;
  return "line " + std::to_string(error.mark.line + 1) + ", column " + std::to_string(error.mark.column + 1) + ": " +
         error.msg;
}

// ---------------------------------------------------------------------------
// Paths: resolved where their text was written (the config file's folder, or
// the current folder for an override), before merging erases the origin.

const std::vector<std::vector<std::string>> kPathKeys = {
    {"model", "path"},
    {"engine", "config_path"},
    {"engine", "config", "source_path"},
    {"engine", "config", "cmsis_nn_path"},
    {"output", "dir"},
    {"work_dir"},
};

std::string absolute_path(const fs::path& base, const std::string& text) {
  fs::path path(text);
  if (path.is_relative()) path = base / path;
  std::string normal = path.lexically_normal().string();
  while (normal.size() > 1 && normal.back() == '/') normal.pop_back();
  return normal;
}

void make_paths_absolute(Json& tree, const fs::path& base) {
  for (const std::vector<std::string>& keys : kPathKeys) {
    Json* node = &tree;
    for (const std::string& key : keys) {
      if (node == nullptr || !node->is_object()) {
        node = nullptr;
        break;
      }
      const auto found = node->find(key);
      node = found == node->end() ? nullptr : &*found;
    }
    if (node != nullptr && node->is_string() && !node->get_ref<const std::string&>().empty()) {
      *node = absolute_path(base, node->get<std::string>());
    }
  }
}

// Nested mappings merge key by key; any other value replaces.
void deep_merge(Json& base, const Json& over) {
  if (!base.is_object() || !over.is_object()) {
    base = over;
    return;
  }
  for (const auto& item : over.items()) {
    const auto found = base.find(item.key());
    if (found != base.end() && found->is_object() && item.value().is_object()) {
      deep_merge(*found, item.value());
    } else {
      base[item.key()] = item.value();
    }
  }
}

std::string trim(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// "a.b.c=value" as the mapping {a: {b: {c: value}}}.
Json parse_override(const std::string& text, const fs::path& cwd) {
  const std::string where = "override '" + text + "'";
  const size_t equals = text.find('=');
  if (equals == std::string::npos) fail(where, "expected key=value");
  const std::string key = trim(text.substr(0, equals));
  if (key.empty()) fail(where, "empty key");
  std::vector<std::string> segments;
  std::stringstream stream(key);
  for (std::string segment; std::getline(stream, segment, '.');) segments.push_back(trim(segment));
  if (key.back() == '.' || std::any_of(segments.begin(), segments.end(), [](const auto& s) { return s.empty(); })) {
    fail(where, "empty key segment in '" + key + "'");
  }
  YAML::Node node;
  try {
    node = YAML::Load(text.substr(equals + 1));
  } catch (const YAML::Exception& error) {
    fail(where, "invalid YAML value (" + yaml_problem(error) + ")");
  }
  Json tree = from_yaml(node, key);
  for (auto segment = segments.rbegin(); segment != segments.rend(); ++segment) {
    Json parent = Json::object();
    parent[*segment] = std::move(tree);
    tree = std::move(parent);
  }
  make_paths_absolute(tree, cwd);
  return tree;
}

std::string read_text(const std::string& path) {
  std::error_code error;
  if (!fs::exists(path, error)) fail(path, "cannot read (no such file)");
  if (fs::is_directory(path, error)) fail(path, "cannot read (is a directory)");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, std::string("cannot read (") + std::strerror(errno) + ")");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) fail(path, "cannot read (read failed)");
  return text;
}

Json load_tree(const std::string& path, const std::vector<std::string>& overrides, std::string* config_path) {
  Json root = Json::object();
  if (!path.empty()) {
    const std::string text = read_text(path);
    YAML::Node document;
    try {
      document = YAML::Load(text);
    } catch (const YAML::Exception& error) {
      fail(path, "invalid YAML (" + yaml_problem(error) + ")");
    }
    root = from_yaml(document, "");
    if (root.is_null()) root = Json::object();
    if (!root.is_object()) fail(path, "the top level must be a mapping, got " + describe(root));
    const fs::path absolute = fs::absolute(path).lexically_normal();
    *config_path = absolute.string();
    make_paths_absolute(root, absolute.parent_path());
  }
  const fs::path cwd = fs::current_path();
  for (const std::string& text : overrides) deep_merge(root, parse_override(text, cwd));
  return root;
}

// ---------------------------------------------------------------------------
// Typed access to one mapping of the merged tree; every getter names the
// dotted key when the value has the wrong type.

std::string integer_kind(int64_t min) {
  if (min == 1) return "a positive integer";
  if (min == 0) return "a non-negative integer";
  return "an integer >= " + std::to_string(min);
}

std::string choice_kind(const std::vector<std::string>& choices) { return "one of " + join(choices); }

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

// ---------------------------------------------------------------------------
// Counters.

// The reference profiler's Armv8-M PMU events (spec §4.4), so a name from a
// reference config gets a precise answer instead of "unknown counter".
const std::vector<std::string>& armv8m_pmu_events() {
  static const std::vector<std::string> kEvents = {
      "SW_INCR",
      "L1I_CACHE_REFILL",
      "LD_RETIRED",
      "ST_RETIRED",
      "INST_RETIRED",
      "EXC_TAKEN",
      "EXC_RETURN",
      "PC_WRITE_RETIRED",
      "BR_IMMED_RETIRED",
      "BR_RETURN_RETIRED",
      "UNALIGNED_LDST_RETIRED",
      "CPU_CYCLES",
      "BR_RETIRED",
      "BR_MIS_PRED_RETIRED",
      "STALL_FRONTEND",
      "STALL_BACKEND",
      "STALL",
      "LE_RETIRED",
      "LE_CANCEL",
      "SE_CALL_S",
      "SE_CALL_NS",
      "L1D_CACHE_REFILL",
      "L1D_CACHE",
      "MEM_ACCESS",
      "L1I_CACHE",
      "L1D_CACHE_WB",
      "BUS_ACCESS",
      "MEMORY_ERROR",
      "BUS_CYCLES",
      "L1D_CACHE_ALLOCATE",
      "LL_CACHE_RD",
      "LL_CACHE_MISS_RD",
      "L1D_CACHE_MISS_RD",
      "L1D_CACHE_RD",
      "ITCM_ACCESS",
      "DTCM_ACCESS",
      "MVE_INST_RETIRED",
      "MVE_FP_RETIRED",
      "MVE_FP_HP_RETIRED",
      "MVE_FP_SP_RETIRED",
      "MVE_FP_MAC_RETIRED",
      "MVE_INT_RETIRED",
      "MVE_INT_MAC_RETIRED",
      "MVE_LDST_RETIRED",
      "MVE_LD_RETIRED",
      "MVE_ST_RETIRED",
      "MVE_LDST_CONTIG_RETIRED",
      "MVE_LD_CONTIG_RETIRED",
      "MVE_ST_CONTIG_RETIRED",
      "MVE_LDST_NONCONTIG_RETIRED",
      "MVE_LD_NONCONTIG_RETIRED",
      "MVE_ST_NONCONTIG_RETIRED",
      "MVE_LDST_MULTI_RETIRED",
      "MVE_LD_MULTI_RETIRED",
      "MVE_ST_MULTI_RETIRED",
      "MVE_LDST_UNALIGNED_RETIRED",
      "MVE_LD_UNALIGNED_RETIRED",
      "MVE_ST_UNALIGNED_RETIRED",
      "MVE_LDST_UNALIGNED_NONCONTIG_RETIRED",
      "MVE_VREDUCE_RETIRED",
      "MVE_VREDUCE_FP_RETIRED",
      "MVE_VREDUCE_INT_RETIRED",
      "MVE_PRED",
      "MVE_STALL",
      "MVE_STALL_RESOURCE",
      "MVE_STALL_RESOURCE_MEM",
      "MVE_STALL_RESOURCE_FP",
      "MVE_STALL_RESOURCE_INT",
      "MVE_STALL_BREAK",
      "MVE_STALL_DEPENDENCY",
  };
  return kEvents;
}

// Events that count cycles (or cycles with a condition) on real silicon.
bool is_cycle_event(const std::string& name) {
  const std::string suffix = "_CYCLES";
  return name == "CPU_CYCLES" || name == "MVE_PRED" || name.find("STALL") != std::string::npos ||
         (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0);
}

bool has(const std::string& name, const char* part) { return name.find(part) != std::string::npos; }

// Why the QEMU plugin cannot give an Armv8-M event it lacks: each refusal
// names what is missing, not a generic category.
std::string qemu_refusal_reason(const std::string& name) {
  if (is_cycle_event(name)) return "QEMU counts instructions, not cycles";
  if (has(name, "CACHE") || has(name, "BUS_") || has(name, "TCM_") || name == "MEM_ACCESS" ||
      name == "MEMORY_ERROR") {
    return "QEMU models no caches, buses or TCM timing, so it has no memory-system events";
  }
  if (name.rfind("MVE_", 0) == 0) {
    const char* kind = has(name, "MAC")       ? "multiply-accumulates"
                       : has(name, "FP")      ? "floating-point operations"
                       : has(name, "INT")     ? "integer operations"
                       : has(name, "VREDUCE") ? "reductions"
                       : has(name, "MULTI")   ? "multi-register (VLD2/VLD4-style) accesses"
                       : has(name, "UNALIGNED") ? "unaligned accesses"
                       : has(name, "CONTIG") && !has(name, "NONCONTIG") ? "contiguous accesses"
                                                                        : "this kind";
    return std::string("the etns QEMU plugin does not single out MVE ") + kind +
           " (it counts MVE instructions, loads, stores, gathers and scatters)";
  }
  if (name.rfind("EXC_", 0) == 0 || name.rfind("SE_CALL", 0) == 0) {
    return "the firmware takes no exceptions or secure calls while measuring, and the plugin counts neither";
  }
  return "the etns QEMU plugin has no instruction class for it";
}

bool in_catalogue_group(const std::string& group, const std::vector<CounterSpec>& catalogue) {
  return std::any_of(catalogue.begin(), catalogue.end(), [&](const CounterSpec& c) { return c.group == group; });
}

std::vector<std::string> counter_names(const std::vector<CounterSpec>& catalogue) {
  std::vector<std::string> names;
  for (const CounterSpec& counter : catalogue) names.push_back(counter.name);
  return names;
}

std::vector<std::string> counter_groups(const std::vector<CounterSpec>& catalogue) {
  std::vector<std::string> groups;
  for (const CounterSpec& counter : catalogue) {
    if (!contains(groups, counter.group)) groups.push_back(counter.group);
  }
  return groups;
}

bool in_catalogue(const std::string& name, const std::vector<CounterSpec>& catalogue) {
  return std::any_of(catalogue.begin(), catalogue.end(), [&](const CounterSpec& c) { return c.name == name; });
}

// `given` with or without the "ARM_PMU_" prefix; case-sensitive.
const CounterSpec& find_counter(const std::string& given, const std::string& target, const std::string& where) {
  const std::vector<CounterSpec>& catalogue = counter_catalogue(target);
  const std::string prefix = "ARM_PMU_";
  const std::string name = given.rfind(prefix, 0) == 0 ? given.substr(prefix.size()) : given;
  for (const CounterSpec& counter : catalogue) {
    if (counter.name == name) return counter;
  }
  const std::string valid = " (valid: " + join(counter_names(catalogue)) + ")";
  const bool known_elsewhere = contains(armv8m_pmu_events(), name) || in_catalogue(name, counter_catalogue("qemu-m55"));
  if (!known_elsewhere) fail(where, "unknown counter '" + given + "' on " + target + valid);
  if (target == "host") fail(where, given + " cannot be counted on host: it measures wall-clock time only" + valid);
  fail(where, given + " cannot be counted on " + target + ": " + qemu_refusal_reason(name) + valid);
}

// profiling.pmu_counters (spec §4.2): each entry in mapping order, duplicates
// dropped (first wins), then bucketed by each counter's own group. Returns the
// resolved mapping: group entry -> the counter names it selected.
Json select_counters(const Section& profiling, ProfileConfig& config) {
  const std::string where = profiling.where("pmu_counters");
  Json selection = Json::object();
  selection["cpu"] = "default";
  if (const Json* given = profiling.find("pmu_counters")) {
    if (!given->is_object()) {
      fail(where, "expected a mapping of counter group to default, all or a list of counters, got " + describe(*given));
    }
    selection = *given;
  }
  if (selection.empty()) fail(where, "no counters selected");

  const std::vector<CounterSpec>& catalogue = counter_catalogue(config.target);
  const std::vector<std::string> groups = counter_groups(catalogue);
  Json resolved = Json::object();
  std::vector<CounterSpec> chosen;
  for (const auto& entry : selection.items()) {
    const std::string& group = entry.key();
    const Json& value = entry.value();
    const std::string entry_where = where + "." + group;
    // null drops a group, so that `--set profiling.pmu_counters.mve=null`
    // can take one out of a file's selection (overrides merge mappings).
    if (value.is_null()) continue;
    // A device config run on the host: the device-only groups asked for as
    // `default` or `all` give way to the host's own defaults (wall time).
    // Named counters are still refused, each with its reason.
    if (config.target == "host" && !contains(groups, group) && value.is_string() &&
        (value == "default" || value == "all") && in_catalogue_group(group, counter_catalogue("qemu-m55"))) {
      continue;
    }
    if (!contains(groups, group)) {
      fail(entry_where, "no counter group '" + group + "' on " + config.target + " (groups: " + join(groups) + ")");
    }
    std::vector<const CounterSpec*> picked;
    if (value.is_string() && (value == "default" || value == "all")) {
      for (const CounterSpec& counter : catalogue) {
        if (counter.group == group && (value == "all" || counter.is_default)) picked.push_back(&counter);
      }
    } else if (value.is_array()) {
      for (size_t i = 0; i < value.size(); ++i) {
        const std::string item_where = entry_where + "[" + std::to_string(i) + "]";
        if (!value[i].is_string()) fail(item_where, "expected a counter name, got " + describe(value[i]));
        picked.push_back(&find_counter(value[i].get<std::string>(), config.target, item_where));
      }
    } else {
      fail(entry_where, "expected default, all or a list of counter names, got " + describe(value));
    }
    if (picked.empty()) fail(entry_where, "the selection is empty");
    Json names = Json::array();
    for (const CounterSpec* counter : picked) {
      names.push_back(counter->name);
      if (!in_catalogue(counter->name, chosen)) chosen.push_back(*counter);
    }
    resolved[group] = std::move(names);
  }
  if (resolved.empty() && config.target == "host") {
    // Only device groups were selected: the host's default.
    for (const CounterSpec& counter : catalogue) {
      if (counter.is_default) chosen.push_back(counter);
    }
    for (const CounterSpec& counter : chosen) resolved[counter.group].push_back(counter.name);
  }
  if (resolved.empty()) fail(where, "no counters selected");

  config.groups.clear();
  config.counters.clear();
  for (const CounterSpec& counter : chosen) {
    if (!contains(config.groups, counter.group)) config.groups.push_back(counter.group);
  }
  for (const std::string& group : config.groups) {
    for (const CounterSpec& counter : chosen) {
      if (counter.group == group) config.counters.push_back(counter);
    }
  }
  return resolved;
}

// ---------------------------------------------------------------------------
// Sections, in schema order. Each validates its keys and values, fills
// `config` and returns its part of the resolved configuration.

const std::vector<std::string> kLocations = {"tcm", "sram", "mram", "psram"};
const std::vector<std::string> kBufferLocations = {"tcm", "sram"};

Json read_model(const Section& model, ProfileConfig& config) {
  model.expect_keys({"path", "arena_size", "arena_location", "weights_location"});
  const std::optional<std::string> path = model.optional_path("path");
  if (!path) {
    fail(model.where("path"), "missing (give the .pte in the config file or as the override model.path=<file>)");
  }
  config.model_path = *path;
  config.arena_size = model.optional_integer("arena_size", 1);
  config.arena_location = model.optional_choice("arena_location", kLocations);
  if (config.arena_location && !contains(kBufferLocations, *config.arena_location)) {
    fail(model.where("arena_location"),
         "'" + *config.arena_location + "' is not supported for executorch (use tcm or sram)");
  }
  config.weights_location = model.optional_choice("weights_location", kLocations);
  if (config.weights_location == "psram") {
    fail(model.where("weights_location"), "'psram' is not supported for executorch (use tcm, sram or mram)");
  }
  Json resolved = Json::object();
  resolved["path"] = config.model_path;
  resolved["arena_size"] = or_null(config.arena_size);
  resolved["arena_location"] = or_null(config.arena_location);
  resolved["weights_location"] = or_null(config.weights_location);
  return resolved;
}

// engine keys as given; defaults come later, once the sidecar is known.
struct EngineKeys {
  std::optional<std::string> backend;
  std::optional<std::string> config_path;
  std::optional<std::string> source_path;
  std::optional<bool> ns_ops;
  std::optional<std::vector<std::string>> portable_ops;
  std::optional<int64_t> planned_arena_size;
  int64_t method_arena_size = 0;
  int64_t temporary_arena_size = 0;
  std::optional<int64_t> input_size;
  std::optional<int64_t> output_size;
  std::optional<std::string> planned_arena_location;
  std::optional<std::string> method_arena_location;
  std::optional<std::string> temporary_arena_location;
  std::optional<std::string> io_location;
  std::optional<std::string> cmsis_nn_path;
  std::optional<std::string> cmsis_nn_ref;
};

EngineKeys read_engine(const Section& engine) {
  engine.expect_keys({"type", "backend", "config", "config_path"});
  const std::string type = engine.choice("type", {"tflm", "helia-rt", "helia-aot", "executorch"}, "executorch");
  if (type != "executorch") fail(engine.where("type"), "'" + type + "' is not supported by etns (only executorch)");
  EngineKeys keys;
  keys.backend = engine.optional_choice("backend", {"arm", "ns"});
  keys.config_path = engine.optional_path("config_path");

  const Section config = engine.child("config");
  if (config.find("backend") != nullptr) fail(config.where("backend"), "use engine.backend");
  config.expect_keys({"source_path", "ns_ops", "portable_ops", "planned_arena_size", "method_arena_size",
                      "temporary_arena_size", "input_size", "output_size", "planned_arena_location",
                      "method_arena_location", "temporary_arena_location", "io_location", "cmsis_nn_path",
                      "cmsis_nn_ref"});
  keys.source_path = config.optional_path("source_path");
  keys.ns_ops = config.optional_boolean("ns_ops");
  keys.portable_ops = config.optional_operator_names("portable_ops");
  keys.planned_arena_size = config.optional_integer("planned_arena_size", 1);
  keys.method_arena_size = config.integer("method_arena_size", 1, 65536);
  keys.temporary_arena_size = config.integer("temporary_arena_size", 1, 32768);
  keys.input_size = config.optional_integer("input_size", 1);
  keys.output_size = config.optional_integer("output_size", 1);
  keys.planned_arena_location = config.optional_choice("planned_arena_location", kBufferLocations);
  keys.method_arena_location = config.optional_choice("method_arena_location", kBufferLocations);
  keys.temporary_arena_location = config.optional_choice("temporary_arena_location", kBufferLocations);
  keys.io_location = config.optional_choice("io_location", kBufferLocations);
  keys.cmsis_nn_path = config.optional_path("cmsis_nn_path");
  keys.cmsis_nn_ref = config.optional_string("cmsis_nn_ref", "a git ref");
  if (keys.cmsis_nn_path && keys.cmsis_nn_ref) {
    fail(config.where("cmsis_nn_ref"), "cannot be combined with engine.config.cmsis_nn_path");
  }
  return keys;
}

Json read_target(const Section& target, ProfileConfig& config) {
  target.expect_keys({"board", "toolchain", "transport", "clock", "jlink_serial", "usb_port", "segger_rtt_path",
                      "rtt_buffer_size_up", "heartbeat", "psram", "custom_socs", "custom_boards",
                      "ensure_board_powered"});
  Json resolved = Json::object();

  config.target = "qemu-m55";
  if (const Json* board = target.find("board")) {
    if (!board->is_string() || board->get_ref<const std::string&>().empty()) {
      fail(target.where("board"), "expected a board name, got " + describe(*board));
    }
    config.target = board->get<std::string>();
    if (config.target != "qemu-m55" && config.target != "host") {
      fail(target.where("board"),
           "no etns port for '" + config.target + "' yet (supported: qemu-m55, host; see docs/porting.md)");
    }
  }
  resolved["board"] = config.target;

  config.toolchain = target.choice("toolchain", {"arm-none-eabi-gcc", "gcc", "armclang", "atfe"}, "arm-none-eabi-gcc");
  if (config.toolchain == "gcc") config.toolchain = "arm-none-eabi-gcc";
  if (config.toolchain != "arm-none-eabi-gcc") {
    fail(target.where("toolchain"), "etns builds with arm-none-eabi-gcc only, got '" + config.toolchain + "'");
  }
  resolved["toolchain"] = config.toolchain;
  resolved["transport"] = target.choice("transport", {"rtt", "usb_cdc", "swo", "uart"}, "rtt");

  const Section clock = target.child("clock");
  clock.expect_keys({"cpu"});
  resolved["clock"] = Json::object();
  resolved["clock"]["cpu"] = or_null(clock.optional_string("cpu"));

  // A J-Link serial is all digits, so YAML reads it as a number.
  std::optional<std::string> jlink_serial;
  const Json* serial = target.find("jlink_serial");
  if (serial != nullptr && serial->is_number_integer()) {
    jlink_serial = std::to_string(serial->get<int64_t>());
  } else {
    jlink_serial = target.optional_string("jlink_serial");
  }
  resolved["jlink_serial"] = or_null(jlink_serial);
  resolved["usb_port"] = or_null(target.optional_string("usb_port"));
  resolved["segger_rtt_path"] = or_null(target.optional_string("segger_rtt_path"));
  resolved["rtt_buffer_size_up"] = or_null(target.optional_integer("rtt_buffer_size_up", 1));

  const Section heartbeat = target.child("heartbeat");
  heartbeat.expect_keys({"enabled", "every_n_ops", "every_ms", "host_timeout_s", "overall_timeout_s"});
  Json beats = Json::object();
  beats["enabled"] = heartbeat.boolean("enabled", true);
  beats["every_n_ops"] = heartbeat.integer("every_n_ops", 0, 8);
  beats["every_ms"] = heartbeat.integer("every_ms", 0, 2000);
  beats["host_timeout_s"] = heartbeat.integer("host_timeout_s", 1, 30);
  beats["overall_timeout_s"] = or_null(heartbeat.optional_integer("overall_timeout_s", 1));
  resolved["heartbeat"] = std::move(beats);

  const Section psram = target.child("psram");
  psram.expect_keys({"clock_hz"});
  const std::vector<int64_t> clocks = {12000000, 24000000, 48000000, 96000000, 125000000, 192000000, 250000000};
  const int64_t clock_hz = psram.integer("clock_hz", 1, 48000000);
  if (!std::count(clocks.begin(), clocks.end(), clock_hz)) {
    std::vector<std::string> listed;
    for (int64_t hz : clocks) listed.push_back(std::to_string(hz));
    fail(psram.where("clock_hz"), "expected one of " + join(listed) + " (Hz), got " + std::to_string(clock_hz));
  }
  resolved["psram"] = Json::object();
  resolved["psram"]["clock_hz"] = clock_hz;

  for (const char* key : {"custom_socs", "custom_boards"}) {
    if (target.is_set(key)) fail(target.where(key), "not supported by etns");
    resolved[key] = nullptr;
  }
  resolved["ensure_board_powered"] = target.boolean("ensure_board_powered", false);
  return resolved;
}

Json read_profiling(const Section& profiling, ProfileConfig& config) {
  profiling.expect_keys({"pmu_counters", "per_layer", "iterations", "warmup", "aggregation", "window_mode",
                         "window_target_ms", "window_min", "window_max", "clean_window_probe", "clean_window_trace",
                         "force_shared_sram", "extreme_mode"});
  Json resolved = Json::object();
  resolved["pmu_counters"] = select_counters(profiling, config);
  config.per_layer = profiling.boolean("per_layer", true);
  config.iterations = profiling.integer("iterations", 1, 100);
  config.warmup = profiling.integer("warmup", 0, 5);
  config.aggregation = profiling.choice("aggregation", {"median", "mean", "trimmed"}, "median");
  resolved["per_layer"] = config.per_layer;
  resolved["iterations"] = config.iterations;
  resolved["warmup"] = config.warmup;
  resolved["aggregation"] = config.aggregation;
  resolved["window_mode"] = profiling.choice("window_mode", {"auto", "fixed"}, "auto");
  resolved["window_target_ms"] = profiling.integer("window_target_ms", 1, 1000);
  const int64_t window_min = profiling.integer("window_min", 1, 10);
  const int64_t window_max = profiling.integer("window_max", 1, 500000);
  if (window_max < window_min) {
    fail(profiling.where("window_max"),
         "must be >= window_min (" + std::to_string(window_min) + "), got " + std::to_string(window_max));
  }
  resolved["window_min"] = window_min;
  resolved["window_max"] = window_max;
  const std::string probe = profiling.choice("clean_window_probe", {"infer", "busy_loop"}, "infer");
  if (probe == "busy_loop") {
    fail(profiling.where("clean_window_probe"), "busy_loop is not supported for executorch (use infer)");
  }
  resolved["clean_window_probe"] = probe;
  for (const char* key : {"clean_window_trace", "force_shared_sram", "extreme_mode"}) {
    resolved[key] = profiling.boolean(key, false);
  }
  return resolved;
}

Json read_power(const Section& power) {
  power.expect_keys({"enabled"});
  if (power.boolean("enabled", false)) fail(power.where("enabled"), "etns cannot measure power for executorch");
  Json resolved = Json::object();
  resolved["enabled"] = false;
  return resolved;
}

Json read_output(const Section& output, ProfileConfig& config) {
  output.expect_keys({"format", "dir", "model_explorer", "detailed"});
  const Json* format = output.find("format");
  if (format != nullptr && *format == "model-explorer") {
    fail(output.where("format"), "'model-explorer' is not a primary format (use csv or json)");
  }
  config.output_format = output.choice("format", {"csv", "json"}, "csv");
  // The default is relative to the current folder, like any path not written
  // in the file, and names program and target, so that runs of other
  // programs or on the other target never land in one another's folder.
  const std::string stem = fs::path(config.model_path).stem().string();
  config.output_dir = output.optional_path("dir").value_or(
      absolute_path(fs::current_path(), "./results/" + stem + "-" + config.target));
  config.detailed = output.boolean("detailed", false);
  Json resolved = Json::object();
  resolved["format"] = config.output_format;
  resolved["dir"] = config.output_dir;
  resolved["model_explorer"] = output.boolean("model_explorer", true);
  resolved["detailed"] = config.detailed;
  return resolved;
}

Json read_timeouts(const Section& timeouts, ProfileConfig& config) {
  const std::vector<std::pair<std::string, int64_t>> defaults = {
      {"configure", 120}, {"build", 300}, {"flash", 120}, {"probe", 10}, {"run", 900}};
  std::vector<std::string> keys;
  for (const auto& entry : defaults) keys.push_back(entry.first);
  timeouts.expect_keys(keys);
  Json resolved = Json::object();
  for (const auto& [key, fallback] : defaults) resolved[key] = timeouts.integer(key, 1, fallback);
  config.run_timeout_s = static_cast<double>(resolved["run"].get<int64_t>());
  return resolved;
}

// build.* and the top-level `frozen`, its deprecated alias for build.offline.
Json read_build(const Section& build, const Section& top) {
  build.expect_keys({"channel", "module_overrides", "compiler_launcher", "update_dependencies", "offline"});
  Json resolved = Json::object();
  resolved["channel"] = or_null(build.optional_string("channel"));
  const Json* overrides = build.find("module_overrides");
  if (overrides != nullptr && !overrides->is_null() && !overrides->is_object()) {
    fail(build.where("module_overrides"), "expected a mapping or null, got " + describe(*overrides));
  }
  resolved["module_overrides"] = overrides != nullptr ? *overrides : Json(nullptr);
  resolved["compiler_launcher"] = or_null(build.optional_string("compiler_launcher"));
  const bool update = build.boolean("update_dependencies", false);
  const std::optional<bool> offline = build.optional_boolean("offline");
  const std::optional<bool> frozen = top.optional_boolean("frozen");
  if (offline && frozen && *offline != *frozen) {
    fail("frozen", "deprecated alias of build.offline, which says " + std::string(*offline ? "true" : "false") +
                       " (drop frozen)");
  }
  const bool effective_offline = offline.value_or(frozen.value_or(false));
  if (update && effective_offline) {
    fail(build.where("update_dependencies"),
         std::string("cannot be combined with ") + (offline ? "build.offline" : "frozen (alias of build.offline)"));
  }
  resolved["update_dependencies"] = update;
  resolved["offline"] = effective_offline;
  return resolved;
}

// ---------------------------------------------------------------------------
// The model file and its optional sidecar.

std::vector<uint8_t> read_model_file(const std::string& path) {
  const std::string where = "model.path";
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (!fs::exists(status)) fail(where, path + ": no such file");
  if (!fs::is_regular_file(status)) fail(where, path + ": not a regular file");
  if (fs::path(path).extension() != ".pte") fail(where, path + ": not a .pte file (executorch programs end in .pte)");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(where, path + ": cannot read (" + std::strerror(errno) + ")");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) fail(where, path + ": cannot read (read failed)");
  if (bytes.empty()) fail(where, path + ": empty file");
  // ExecuTorch's flatbuffer identifier ("ET" + version) sits at offset 4; any
  // position within the first 16 bytes is accepted, like the reference.
  const size_t window = std::min<size_t>(bytes.size(), 16);
  bool magic = false;
  for (size_t i = 0; i + 1 < window; ++i) magic = magic || (bytes[i] == 'E' && bytes[i + 1] == 'T');
  if (!magic) fail(where, path + ": no 'ET' magic in the first 16 bytes (not an ExecuTorch program)");
  return bytes;
}

struct Sidecar {
  std::string path;
  std::optional<std::string> kernel_provider;
  std::optional<bool> requires_ns_ops;
  std::optional<int64_t> planned_arena_size;
  std::optional<int64_t> input_size;   // the first input's
  std::optional<int64_t> output_size;  // the first output's
  std::optional<std::vector<std::string>> portable_ops;
};

std::optional<int64_t> positive_integer(const nlohmann::json& value) {
  if (!value.is_number_integer()) return std::nullopt;
  if (value.is_number_unsigned() && value.get<uint64_t>() > uint64_t{INT64_MAX}) return std::nullopt;
  const int64_t number = value.get<int64_t>();
  return number > 0 ? std::optional<int64_t>(number) : std::nullopt;
}

std::optional<int64_t> first_size(const nlohmann::json& manifest, const char* key, const std::string& path) {
  const auto list = manifest.find(key);
  if (list == manifest.end()) return std::nullopt;
  if (!list->is_array()) fail(path, std::string(key) + ": expected a list, got " + describe(*list));
  std::optional<int64_t> first;
  for (size_t i = 0; i < list->size(); ++i) {
    const std::string field = std::string(key) + "[" + std::to_string(i) + "]";
    const nlohmann::json& item = (*list)[i];
    if (!item.is_object()) fail(path, field + ": expected an object, got " + describe(item));
    const auto size = item.find("size_bytes");
    if (size == item.end()) fail(path, field + ".size_bytes: missing");
    const std::optional<int64_t> bytes = positive_integer(*size);
    if (!bytes) fail(path, field + ".size_bytes: expected a positive integer, got " + describe(*size));
    if (i == 0) first = bytes;
  }
  return first;
}

std::optional<Sidecar> read_sidecar(const std::string& model_path, const std::vector<uint8_t>& model_bytes) {
  Sidecar sidecar;
  sidecar.path = model_path + ".json";
  const std::string& path = sidecar.path;
  std::error_code error;
  if (!fs::exists(path, error)) return std::nullopt;

  nlohmann::json manifest;
  try {
    manifest = nlohmann::json::parse(read_text(path));
  } catch (const nlohmann::json::exception& problem) {
    std::string text = problem.what();
    const size_t bracket = text.find("] ");
    if (text.rfind("[json.exception", 0) == 0 && bracket != std::string::npos) text = text.substr(bracket + 2);
    fail(path, "invalid JSON (" + text + ")");
  }
  if (!manifest.is_object()) fail(path, "expected a JSON object, got " + describe(manifest));

  const auto schema = manifest.find("schema");
  if (schema == manifest.end()) fail(path, std::string("schema missing, expected '") + kSidecarSchema + "'");
  if (*schema != kSidecarSchema) {
    fail(path, "schema is " + describe(*schema) + ", expected '" + kSidecarSchema + "'");
  }
  const auto digest = manifest.find("pte_sha256");
  if (digest == manifest.end()) fail(path, "pte_sha256 missing");
  const std::string actual = sha256_hex(model_bytes.data(), model_bytes.size());
  if (!digest->is_string() || *digest != actual) {
    fail(path, "pte_sha256 " + describe(*digest) + " does not match the model's SHA-256 '" + actual + "'");
  }
  if (const auto provider = manifest.find("kernel_provider"); provider != manifest.end()) {
    if (*provider != "arm" && *provider != "ns") {
      fail(path, "kernel_provider: expected arm or ns, got " + describe(*provider));
    }
    sidecar.kernel_provider = provider->get<std::string>();
  }
  if (const auto needs = manifest.find("requires_ns_ops"); needs != manifest.end()) {
    if (!needs->is_boolean()) fail(path, "requires_ns_ops: expected a JSON boolean, got " + describe(*needs));
    sidecar.requires_ns_ops = needs->get<bool>();
  }
  if (const auto planned = manifest.find("planned_arena_size"); planned != manifest.end()) {
    sidecar.planned_arena_size = positive_integer(*planned);
    if (!sidecar.planned_arena_size) {
      fail(path, "planned_arena_size: expected a positive integer, got " + describe(*planned));
    }
  }
  sidecar.input_size = first_size(manifest, "inputs", path);
  sidecar.output_size = first_size(manifest, "outputs", path);
  if (const auto operators = manifest.find("operators"); operators != manifest.end()) {
    if (!operators->is_object()) fail(path, "operators: expected an object, got " + describe(*operators));
    if (const auto portable = operators->find("portable"); portable != operators->end()) {
      if (!portable->is_array()) fail(path, "operators.portable: expected a list, got " + describe(*portable));
      std::vector<std::string> names;
      for (size_t i = 0; i < portable->size(); ++i) {
        const nlohmann::json& name = (*portable)[i];
        if (!name.is_string()) {
          fail(path, "operators.portable[" + std::to_string(i) + "]: expected a string, got " + describe(name));
        }
        names.push_back(name.get<std::string>());
      }
      sidecar.portable_ops = std::move(names);
    }
  }
  return sidecar;
}

// engine: explicit keys win, then the sidecar, then the built-in defaults.
Json resolve_engine(const EngineKeys& keys, const std::optional<Sidecar>& sidecar, ProfileConfig& config) {
  const std::string where = "engine.config.ns_ops";
  config.backend = keys.backend.value_or(sidecar && sidecar->kernel_provider ? *sidecar->kernel_provider : "arm");
  const bool sidecar_needs_ns_ops = sidecar && sidecar->requires_ns_ops.value_or(false);
  config.ns_ops = keys.ns_ops.value_or(sidecar_needs_ns_ops);
  if (config.ns_ops && config.backend == "arm") {
    if (keys.ns_ops) fail(where, "true needs engine.backend ns (the NS kernels ship only with ns-cmsis-nn), got arm");
    fail(where, sidecar->path + " says the program needs NS ops, which need engine.backend ns, got arm");
  }
  if (sidecar_needs_ns_ops && !config.ns_ops) {
    fail(where, "false, but " + sidecar->path + " says the program needs NS ops (requires_ns_ops: true)");
  }
  config.portable_ops = keys.portable_ops.value_or(sidecar && sidecar->portable_ops ? *sidecar->portable_ops
                                                                                    : std::vector<std::string>{});
  // Without any size the program's own memory plan sizes the arena.
  config.planned_arena_size = keys.planned_arena_size ? keys.planned_arena_size
                              : config.arena_size     ? config.arena_size
                              : sidecar               ? sidecar->planned_arena_size
                                                      : std::nullopt;
  config.method_arena_size = keys.method_arena_size;
  config.temporary_arena_size = keys.temporary_arena_size;
  config.input_size = keys.input_size ? keys.input_size : sidecar ? sidecar->input_size : std::nullopt;
  config.output_size = keys.output_size ? keys.output_size : sidecar ? sidecar->output_size : std::nullopt;

  Json engine_config = Json::object();
  // Recorded only: etns's runtime is built in, so no checkout is read.
  engine_config["source_path"] = or_null(keys.source_path);
  engine_config["ns_ops"] = config.ns_ops;
  engine_config["portable_ops"] = config.portable_ops;
  engine_config["planned_arena_size"] = or_null(config.planned_arena_size);
  engine_config["method_arena_size"] = config.method_arena_size;
  engine_config["temporary_arena_size"] = config.temporary_arena_size;
  engine_config["input_size"] = or_null(config.input_size);
  engine_config["output_size"] = or_null(config.output_size);
  engine_config["planned_arena_location"] = or_null(keys.planned_arena_location);
  engine_config["method_arena_location"] = or_null(keys.method_arena_location);
  engine_config["temporary_arena_location"] = or_null(keys.temporary_arena_location);
  engine_config["io_location"] = or_null(keys.io_location);
  engine_config["cmsis_nn_path"] = or_null(keys.cmsis_nn_path);
  engine_config["cmsis_nn_ref"] = or_null(keys.cmsis_nn_ref);

  Json resolved = Json::object();
  resolved["type"] = "executorch";
  resolved["backend"] = config.backend;
  resolved["config"] = std::move(engine_config);
  resolved["config_path"] = or_null(keys.config_path);
  return resolved;
}

}  // namespace

const std::vector<CounterSpec>& counter_catalogue(const std::string& target) {
  // The etns QEMU plugin's instruction classes (qemu_plugin/insn_class.h).
  // Sources are the plugin's class names (protocol/counter_classes.h), never retyped.
  const auto cls = [](EtnsInsnClass c) { return std::string(kEtnsClassNames[c]); };
  const auto sum = [&](EtnsInsnClass a, EtnsInsnClass b) { return cls(a) + "+" + cls(b); };
  const auto qemu = [](const char* name, const char* group, const std::string& source, const std::string& what) {
    return CounterSpec{
        name, group, source, "instructions", what + " (executed instructions counted under QEMU, not cycles)", true};
  };
  // Selected by name or by `all`, never by `default`, so default selections keep their columns.
  const auto qemu_extra = [&](const char* name, const char* group, const std::string& source,
                              const std::string& what) {
    CounterSpec counter = qemu(name, group, source, what);
    counter.is_default = false;
    return counter;
  };
  static const std::vector<CounterSpec> kQemuM55 = {
      qemu("INST_RETIRED", "cpu", cls(kEtnsClassTotal), "all instructions"),
      qemu("BR_RETIRED", "cpu", cls(kEtnsClassBranch), "branches and PC writes, taken or not; loop instructions are in LE_RETIRED"),
      qemu("LE_RETIRED", "cpu", cls(kEtnsClassLoop),
           "low-overhead-loop instructions (DLS, WLS, LE, LETP, LCTP, BF*); LE/LETP once per iteration"),
      qemu("FP_RETIRED", "cpu", cls(kEtnsClassFp), "scalar floating-point instructions, their loads and stores included"),
      qemu_extra("INST_WEIGHTED_RETIRED", "cpu", ETNS_WEIGHTED_NAME,
                 "instructions, gathers and scatters counted once per lane (128 bits / lane size: VLDRB.U8 16, "
                 "VLDRW 4, VLDRD 2), predicated lanes included"),
      qemu("MVE_INST_RETIRED", "mve", cls(kEtnsClassMve), "MVE (Helium) instructions, predicated or not"),
      qemu("MVE_LD_RETIRED", "mve", cls(kEtnsClassMveLoad), "MVE instructions that load from memory"),
      qemu("MVE_ST_RETIRED", "mve", cls(kEtnsClassMveStore), "MVE instructions that store to memory"),
      qemu_extra("MVE_LD_NONCONTIG_RETIRED", "mve", cls(kEtnsClassMveGather),
                 "MVE gathers: VLDR with vector offsets or a vector base, once per instruction"),
      qemu_extra("MVE_ST_NONCONTIG_RETIRED", "mve", cls(kEtnsClassMveScatter),
                 "MVE scatters: VSTR with vector offsets or a vector base, once per instruction"),
      // Sums of two classes: the Armv8-M events that cover both directions.
      qemu_extra("MVE_LDST_RETIRED", "mve", sum(kEtnsClassMveLoad, kEtnsClassMveStore),
                 "MVE instructions that load or store (MVE_LD_RETIRED + MVE_ST_RETIRED)"),
      qemu_extra("MVE_LDST_NONCONTIG_RETIRED", "mve", sum(kEtnsClassMveGather, kEtnsClassMveScatter),
                 "MVE gathers and scatters (MVE_LD_NONCONTIG_RETIRED + MVE_ST_NONCONTIG_RETIRED)"),
      qemu("LD_RETIRED", "memory", cls(kEtnsClassLoad), "instructions that load from memory: integer, floating-point and MVE"),
      qemu("ST_RETIRED", "memory", cls(kEtnsClassStore), "instructions that store to memory: integer, floating-point and MVE"),
  };
  static const std::vector<CounterSpec> kHost = {
      {"WALL_NS", "cpu", "wall_ns", "ns", "wall-clock nanoseconds from the host's steady (monotonic) clock", true},
  };
  if (target == "qemu-m55") return kQemuM55;
  if (target == "host") return kHost;
  throw Failure("unknown target '" + target + "' (supported: qemu-m55, host)", 2);
}

ProfileConfig load_profile_config(const std::string& path, const std::vector<std::string>& overrides) {
  ProfileConfig config;
  const Json root = load_tree(path, overrides, &config.config_path);
  const Section top(root, "");
  for (const char* owned : {"platform_registry", "compatibility_baseline", "compatibility"}) {
    if (top.find(owned) != nullptr) fail(owned, "belongs to the tool itself and cannot be set in a config");
  }
  top.expect_keys({"model", "engine", "target", "profiling", "power", "output", "timeouts", "build", "frozen",
                   "work_dir", "clean", "verbose"});

  // Keys and types first, then the files they name.
  Json model = read_model(top.child("model"), config);
  const EngineKeys engine = read_engine(top.child("engine"));
  Json target = read_target(top.child("target"), config);
  Json profiling = read_profiling(top.child("profiling"), config);
  Json power = read_power(top.child("power"));
  Json output = read_output(top.child("output"), config);
  Json timeouts = read_timeouts(top.child("timeouts"), config);
  Json build = read_build(top.child("build"), top);
  const std::optional<std::string> work_dir = top.optional_path("work_dir");
  const bool clean = top.boolean("clean", false);
  config.verbose = top.boolean("verbose", false);

  const std::vector<uint8_t> model_bytes = read_model_file(config.model_path);
  const std::optional<Sidecar> sidecar = read_sidecar(config.model_path, model_bytes);

  Json& resolved = config.resolved;
  resolved = Json::object();
  resolved["model"] = std::move(model);
  resolved["engine"] = resolve_engine(engine, sidecar, config);
  resolved["target"] = std::move(target);
  resolved["profiling"] = std::move(profiling);
  resolved["power"] = std::move(power);
  resolved["output"] = std::move(output);
  resolved["timeouts"] = std::move(timeouts);
  const bool offline = build["offline"].get<bool>();
  resolved["build"] = std::move(build);
  resolved["frozen"] = offline;  // the deprecated alias, as it took effect
  resolved["work_dir"] = or_null(work_dir);
  resolved["clean"] = clean;
  resolved["verbose"] = config.verbose;
  return config;
}

}  // namespace etns::tools
