#include "tools/evidence/runner/board_profile.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "tools/board_profiles.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/evidence/elf/elf_image.h"

namespace etns::tools {
namespace {

constexpr uint32_t kMaxWaitStates = 1000;

[[noreturn]] void fail(const std::string& where, const std::string& what) { throw Failure(where + ": " + what, 2); }

std::string text_of(const YAML::Node& node, const std::string& where, const std::string& key) {
  const YAML::Node value = node[key];
  if (!value || !value.IsScalar() || value.Scalar().empty()) fail(where, key + ": expected a non-empty text");
  return value.Scalar();
}

uint64_t number_of(const YAML::Node& node, const std::string& where, const std::string& key, uint64_t max) {
  const std::string text = text_of(node, where, key);
  if (text.find_first_not_of("0123456789") != std::string::npos || text.size() > 12 ||
      std::stoull(text) > max) {
    fail(where, key + ": expected a whole number from 0 to " + std::to_string(max) + ", not '" + text + "'");
  }
  return std::stoull(text);
}

void expect_keys(const YAML::Node& node, const std::string& where, const std::vector<std::string>& allowed) {
  if (!node.IsMap()) fail(where, "expected a mapping");
  for (const auto& entry : node) {
    const std::string key = entry.first.as<std::string>();
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string list;
      for (const std::string& name : allowed) list += (list.empty() ? "" : ", ") + name;
      fail(where, "unknown key '" + key + "' (expected " + list + ")");
    }
  }
}

struct Range {
  uint64_t low = 0;
  uint64_t high = 0;
};

uint64_t symbol_address(const ElfImage& image, const std::string& name) {
  const ElfSymbol* symbol = image.find(name);
  if (symbol == nullptr || !symbol->defined) {
    throw Failure(image.path() + ": no symbol " + name + " (not an etns firmware image?)");
  }
  return symbol->address & ~uint64_t{1};
}

// The one defined object whose (mangled) name contains `part`.
Range object_range(const ElfImage& image, const std::string& part) {
  for (const ElfSymbol& symbol : image.symbols()) {
    if (symbol.defined && symbol.kind == ElfSymbol::Kind::Object && symbol.size > 0 &&
        symbol.name.find(part) != std::string::npos) {
      return {symbol.address, symbol.address + symbol.size};
    }
  }
  throw Failure(image.path() + ": no object named like " + part + " (not an etns firmware image?)");
}

// Every range of `role` in an etns firmware image (firmware/ports/qemu_mps3_an547/an547.ld).
std::vector<Range> role_ranges(const std::string& role, const ElfImage& image) {
  std::vector<Range> ranges;
  const auto sections = [&](bool writable) {
    for (const ElfSection& section : image.sections()) {
      if (section.allocated && section.size > 0 && section.writable == writable) {
        ranges.push_back({section.address, section.address + section.size});
      }
    }
  };
  if (role == "code") {
    sections(false);  // code, read-only data, vectors, markers
  } else if (role == "constants") {
    ranges.push_back({symbol_address(image, "__job_start"), symbol_address(image, "__job_end")});
  } else if (role == "planned_arena") {
    ranges.push_back({symbol_address(image, "__planned_start"), symbol_address(image, "__planned_end")});
  } else if (role == "scratch") {
    ranges.push_back(object_range(image, "g_temporary_memory"));
  } else if (role == "method_arena") {
    ranges.push_back(object_range(image, "g_method_memory"));
  } else if (role == "stack") {
    const uint64_t top = symbol_address(image, "__stack_top");
    const ElfSymbol* size = image.find("__stack_size");
    if (size == nullptr) throw Failure(image.path() + ": no symbol __stack_size (not an etns firmware image?)");
    ranges.push_back({top - size->address, top});
  } else if (role == "data") {
    sections(true);
  }
  return ranges;
}

}  // namespace

bool BoardProfile::has_wait_states() const {
  for (const auto& [role, memory] : placement) {
    if (memories.at(memory).wait_states > 0) return true;
  }
  return false;
}

std::string BoardProfile::describe() const {
  std::string slow;
  for (const std::string& role : kBoardRoles) {
    const BoardMemory& memory = memories.at(placement.at(role));
    if (memory.wait_states == 0) continue;
    slow += fmt::format("{}{} in {} ({} wait states{})", slow.empty() ? "" : ", ", role, placement.at(role),
                        memory.wait_states, memory.assumed ? ", assumed" : "");
  }
  return "board profile " + name + (slow.empty() ? ": no wait states" : ": " + slow + "; the rest 0");
}

BoardProfile parse_board_profile(const std::string& yaml_text, const std::string& where) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& error) {
    fail(where, "not YAML: " + error.msg);
  }
  expect_keys(root, where, {"board", "description", "clock", "memories", "placement"});
  BoardProfile profile;
  profile.name = text_of(root, where, "board");
  profile.description = text_of(root, where, "description");
  const YAML::Node clock = root["clock"];
  if (!clock) fail(where, "clock: missing");
  expect_keys(clock, where + ": clock", {"name", "hz", "source"});
  profile.clock_name = text_of(clock, where + ": clock", "name");
  profile.clock_hz = number_of(clock, where + ": clock", "hz", 10'000'000'000ull);
  if (profile.clock_hz == 0) fail(where, "clock.hz: expected a clock above 0 Hz");
  profile.clock_source = text_of(clock, where + ": clock", "source");
  const YAML::Node memories = root["memories"];
  if (!memories || !memories.IsMap() || memories.size() == 0) fail(where, "memories: expected a mapping of memories");
  for (const auto& entry : memories) {
    const std::string name = entry.first.as<std::string>();
    const std::string at = where + ": memories." + name;
    expect_keys(entry.second, at, {"wait_states", "source", "assumption"});
    BoardMemory memory;
    memory.wait_states = static_cast<uint32_t>(number_of(entry.second, at, "wait_states", kMaxWaitStates));
    const bool sourced = static_cast<bool>(entry.second["source"]);
    memory.assumed = static_cast<bool>(entry.second["assumption"]);
    if (sourced == memory.assumed) fail(at, "expected exactly one of source (a public fact) or assumption");
    memory.note = text_of(entry.second, at, memory.assumed ? "assumption" : "source");
    profile.memories[name] = memory;
  }
  const YAML::Node placement = root["placement"];
  if (!placement) fail(where, "placement: missing");
  expect_keys(placement, where + ": placement", kBoardRoles);
  for (const std::string& role : kBoardRoles) {
    const std::string memory = text_of(placement, where + ": placement", role);
    if (profile.memories.count(memory) == 0) {
      fail(where, "placement." + role + ": '" + memory + "' is not one of the memories");
    }
    profile.placement[role] = memory;
  }
  return profile;
}

BoardProfile load_board_profile(const std::string& name_or_path) {
  if (name_or_path == "an547") return parse_board_profile(kBoardProfileAn547, "board profile an547");
  if (name_or_path == "apollo510") return parse_board_profile(kBoardProfileApollo510, "board profile apollo510");
  if (!std::filesystem::is_regular_file(name_or_path)) {
    throw Failure(name_or_path + ": no such board profile (built in: an547, apollo510; or a YAML file)", 2);
  }
  const std::vector<uint8_t> bytes = read_file(name_or_path);
  return parse_board_profile(std::string(bytes.begin(), bytes.end()), name_or_path);
}

std::string board_memory_file(const BoardProfile& profile, const ElfImage& firmware) {
  if (!profile.has_wait_states()) return "";
  // Every role, those without wait states too: the plugin takes the first
  // range that holds an address, and the arenas sit inside the data sections.
  std::ostringstream out;
  out << "# " << profile.describe() << "\n# LOW HIGH WAIT_STATES NAME (etns_counter.c, memory=)\n";
  for (const std::string& role : kBoardRoles) {
    const std::string& memory = profile.placement.at(role);
    const uint32_t wait_states = profile.memories.at(memory).wait_states;
    for (const Range& range : role_ranges(role, firmware)) {
      if (range.low >= range.high) continue;
      out << fmt::format("{:x} {:x} {} {}:{}\n", range.low, range.high, wait_states, role, memory);
    }
  }
  return out.str();
}

}  // namespace etns::tools
