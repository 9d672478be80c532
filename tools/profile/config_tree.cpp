#include "tools/profile/config_tree.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <utility>

#include "tools/common/text.h"

namespace etns::tools::config_detail {

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

}  // namespace etns::tools::config_detail
