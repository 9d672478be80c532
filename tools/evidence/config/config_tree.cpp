#include "tools/evidence/config/config_tree.h"

#include <sys/stat.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <sstream>
#include <utility>

#include "tools/common/files.h"
#include "tools/common/text.h"

namespace etns::tools::config_detail {

std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

ConfigProblem::ConfigProblem(std::string where, std::string what)
    : Failure(one_line("config error: " + where + ": " + what), 2), where_(std::move(where)), what_(std::move(what)) {}

[[noreturn]] void fail(const std::string& where, const std::string& what) { throw ConfigProblem(where, what); }

// Whether `outer` is `inner` or a section (or list) holding it.
bool encloses(const std::string& outer, const std::string& inner) {
  return inner.rfind(outer, 0) == 0 &&
         (inner.size() == outer.size() || inner[outer.size()] == '.' || inner[outer.size()] == '[');
}

bool Problems::touches(const std::string& path) const {
  return std::any_of(list_.begin(), list_.end(), [&](const ConfigProblem& problem) {
    return encloses(path, problem.where()) || encloses(problem.where(), path);
  });
}

std::string Origins::of(const std::string& where) const {
  for (auto entry = entries_.rbegin(); entry != entries_.rend(); ++entry) {
    const std::string& key = entry->first;
    const bool covers = key.empty() || where == key ||
                        (where.rfind(key, 0) == 0 && (where[key.size()] == '.' || where[key.size()] == '['));
    if (covers) return entry->second;
  }
  return "";
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

std::string yaml_problem(const YAML::Exception& error) {
  if (error.mark.is_null()) return error.msg;
  return "line " + std::to_string(error.mark.line + 1) + ", column " + std::to_string(error.mark.column + 1) + ": " +
         error.msg;
}

// Converting walks the node graph yaml-cpp built, where an alias is the
// anchored node itself: a recursive alias is a cycle and an alias bomb a
// small graph that expands exponentially. The walk refuses both.
class YamlToJson {
 public:
  explicit YamlToJson(std::string origin) : origin_(std::move(origin)) {}

  Json convert(const YAML::Node& node, const std::string& where) {
    if (++values_ > kMaxConfigValues) {
      fail(origin_, "more than " + std::to_string(kMaxConfigValues) +
                        " values once aliases are expanded (an alias bomb?); a configuration has a few dozen");
    }
    if (node.IsSequence() || node.IsMap()) return convert_collection(node, where);
    if (node.IsScalar()) {
      // "?" marks a plain scalar; core-schema tags (!!int, ...) resolve the
      // same way; "!" (quoted), !!str and local tags keep the text.
      const std::string& tag = node.Tag();
      const bool resolve = tag == "?" || (tag.rfind("tag:yaml.org,2002:", 0) == 0 && tag != "tag:yaml.org,2002:str");
      return resolve ? plain_scalar(node.Scalar()) : Json(node.Scalar());
    }
    return nullptr;  // null or undefined
  }

 private:
  Json convert_collection(const YAML::Node& node, const std::string& where) {
    const std::string at = where.empty() ? "top level" : where;
    for (const YAML::Node& open : open_) {
      if (open.is(node)) fail(origin_, at + ": recursive alias (the value contains itself)");
    }
    if (open_.size() >= kMaxConfigDepth) {
      fail(origin_, at + ": nested deeper than " + std::to_string(kMaxConfigDepth) + " levels");
    }
    open_.push_back(node);
    Json out = node.IsSequence() ? Json::array() : Json::object();
    if (node.IsSequence()) {
      for (size_t i = 0; i < node.size(); ++i) out.push_back(convert(node[i], where + "[" + std::to_string(i) + "]"));
    } else {
      for (const auto& entry : node) {
        if (!entry.first.IsScalar() && !entry.first.IsNull()) fail(origin_, at + ": mapping keys must be plain names");
        const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : "";
        const std::string path = child_path(where, key);
        if (out.contains(key)) fail(origin_, path + ": duplicate key");
        out[key] = convert(entry.second, path);
      }
    }
    open_.pop_back();
    return out;
  }

  std::string origin_;                // the file, or the override, for whole-document problems
  std::vector<YAML::Node> open_;      // the collections being converted, outermost first
  size_t values_ = 0;
};

// yaml-cpp parses `text`; its own nesting guard (DeepRecursion, "bad file")
// is reported as what it is.
YAML::Node parse_yaml(const std::string& text, const std::string& where, const char* what) {
  try {
    return YAML::Load(text);
  } catch (const YAML::DeepRecursion&) {
    fail(where, std::string(what) + " (nested deeper than the YAML parser allows; a configuration nests at most " +
                    std::to_string(kMaxConfigDepth) + " levels)");
  } catch (const YAML::Exception& error) {
    fail(where, std::string(what) + " (" + yaml_problem(error) + ")");
  }
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
    {"profiling", "input"},
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
    if (node == nullptr) continue;
    const auto make_absolute = [&](Json& value) {
      if (value.is_string() && !value.get_ref<const std::string&>().empty()) {
        value = absolute_path(base, value.get<std::string>());
      }
    };
    if (node->is_array()) {
      for (Json& item : *node) make_absolute(item);  // a list of paths (profiling.input)
    } else {
      make_absolute(*node);
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

// "a.b.c=value" as the mapping {a: {b: {c: value}}}; *dotted_key = "a.b.c".
Json parse_override(const std::string& text, const fs::path& cwd, std::string* dotted_key) {
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
  const YAML::Node node = parse_yaml(text.substr(equals + 1), where, "invalid YAML value");
  Json tree = YamlToJson(where).convert(node, key);
  dotted_key->clear();
  for (const std::string& segment : segments) *dotted_key = child_path(*dotted_key, segment);
  for (auto segment = segments.rbegin(); segment != segments.rend(); ++segment) {
    Json parent = Json::object();
    parent[*segment] = std::move(tree);
    tree = std::move(parent);
  }
  make_paths_absolute(tree, cwd);
  return tree;
}

const char* file_type_name(mode_t mode) {
  if (S_ISDIR(mode)) return "is a directory";
  if (S_ISFIFO(mode)) return "a FIFO, not a regular file";
  if (S_ISCHR(mode)) return "a character device, not a regular file";
  if (S_ISBLK(mode)) return "a block device, not a regular file";
  if (S_ISSOCK(mode)) return "a socket, not a regular file";
  return "not a regular file";
}

// Why a configuration file could not be read, in the words of its problems.
std::string read_problem(const ReadFailure& failure) {
  switch (failure.cause()) {
    case ReadFailure::Cause::System:
      return failure.error_number() == ENOENT ? "no such file" : std::strerror(failure.error_number());
    case ReadFailure::Cause::NotRegular: return file_type_name(failure.mode());
    case ReadFailure::Cause::TooLarge:
      return grouped(failure.size_bytes()) + " bytes; the limit is " + grouped(kMaxConfigBytes) + " bytes, 1 MiB";
    case ReadFailure::Cause::Shrank: return "it became shorter while being read";
  }
  return "unknown reason";
}

std::string read_text(const std::string& path) {
  try {
    return read_text_file(path, kMaxConfigBytes);
  } catch (const ReadFailure& failure) {
    fail(path, "cannot read (" + read_problem(failure) + ")");
  }
}

Json load_tree(const std::string& path, const std::vector<std::string>& overrides, std::string* config_path,
               Origins* origins) {
  Json root = Json::object();
  if (!path.empty()) {
    const YAML::Node document = parse_yaml(read_text(path), path, "invalid YAML");
    root = YamlToJson(path).convert(document, "");
    if (root.is_null()) root = Json::object();
    if (!root.is_object()) fail(path, "the top level must be a mapping, got " + describe(root));
    const fs::path absolute = fs::absolute(path).lexically_normal();
    *config_path = absolute.string();
    origins->add("", path);
    make_paths_absolute(root, absolute.parent_path());
  }
  const fs::path cwd = fs::current_path();
  for (const std::string& text : overrides) {
    std::string key;
    deep_merge(root, parse_override(text, cwd, &key));
    origins->add(key, "override '" + text + "'");
  }
  return root;
}


std::string integer_kind(int64_t min) {
  if (min == 1) return "a positive integer";
  if (min == 0) return "a non-negative integer";
  return "an integer >= " + std::to_string(min);
}


}  // namespace etns::tools::config_detail
